/* vmath.c -- the exp table of vmath.h, computed once at load in long
 * double (64-bit mantissa: each entry's error is ~2^-11 ulp).  The log
 * table is generated (vmath_tables.py: exact k ln2 + log c needs logc
 * rounded to a multiple of 2^-43). */
#include "vmath.h"
#include <math.h>

uint64_t st_exp_sbits[ST_EXP_N];
double st_exp_tail[ST_EXP_N];

__attribute__((constructor)) static void st_vmath_tables(void)
{
    for (int j = 0; j < ST_EXP_N; j++) {
        long double t = exp2l((long double)j / ST_EXP_N);
        double hi = (double)t;
        st_exp_sbits[j] = st_asu64(hi) - ((uint64_t)j << (52 - ST_EXP_BITS));
        st_exp_tail[j] = (double)((t - hi) / hi);
    }
}
