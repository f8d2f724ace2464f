/* vmath.c -- the exp table of vmath.h (and the log2 table of its float32
 * pow), computed once at load in long
 * double (64-bit mantissa: each entry's error is ~2^-11 ulp).  The log
 * table is generated (vmath_tables.py: exact k ln2 + log c needs logc
 * rounded to a multiple of 2^-43). */
#include "vmath.h"
#include <math.h>

uint64_t st_exp_sbits[ST_EXP_N];
double st_exp_tail[ST_EXP_N];
double st_powf_invc[1 << ST_POWF_LOG_BITS], st_powf_logc[1 << ST_POWF_LOG_BITS];
uint64_t st_powf_exp2[1 << ST_POWF_EXP2_BITS];
/* a 16-entry exp table for AVX-512 permutes (vmath512.h), as st_exp_sbits and st_exp_tail */
uint64_t st_exp16_sbits[16];
double st_exp16_tail[16];
/* float32 exp's (vmath512.h's st_vexpf16): 2^(j/16) as a float pair */
float st_expf16_tab[2][16] __attribute__((aligned(64)));
/* tanh float32's table as columns (c, hi, lo, q0..q7), 32 rows padded with
 * the last: two AVX-512 registers per column (vmath512.h) */
float st_tanhf_soa[11][32] __attribute__((aligned(64)));

__attribute__((constructor)) static void st_vmath_tables(void)
{
    for (int j = 0; j < ST_EXP_N; j++) {
        long double t = exp2l((long double)j / ST_EXP_N);
        double hi = (double)t;
        st_exp_sbits[j] = st_asu64(hi) - ((uint64_t)j << (52 - ST_EXP_BITS));
        st_exp_tail[j] = (double)((t - hi) / hi);
    }
    /* powf's log2 table: subinterval i of z's float bits 0x3f330000 + i << 19 */
    for (int i = 0; i < 1 << ST_POWF_LOG_BITS; i++) {
        const uint32_t lo = 0x3f330000u + ((uint32_t)i << (23 - ST_POWF_LOG_BITS));
        const uint32_t hi = lo + (1u << (23 - ST_POWF_LOG_BITS));
        float flo, fhi;
        memcpy(&flo, &lo, 4);
        memcpy(&fhi, &hi, 4);
        const double invc = (flo <= 1.0f && 1.0f < fhi) ? 1.0 : 2.0 / ((double)flo + (double)fhi);
        st_powf_invc[i] = invc;
        st_powf_logc[i] = (double)-log2l((long double)invc);
    }
    for (int j = 0; j < 16; j++) {
        long double t = exp2l((long double)j / 16);
        double hi = (double)t;
        st_exp16_sbits[j] = st_asu64(hi) - ((uint64_t)j << 48);
        st_exp16_tail[j] = (double)((t - hi) / hi);
        st_expf16_tab[0][j] = (float)t;
        st_expf16_tab[1][j] = (float)(t - (long double)st_expf16_tab[0][j]);
    }
    for (int j = 0; j < 1 << ST_POWF_EXP2_BITS; j++)
        st_powf_exp2[j] = st_asu64((double)exp2l((long double)j / (1 << ST_POWF_EXP2_BITS))) -
                          ((uint64_t)j << (52 - ST_POWF_EXP2_BITS));
    for (int i = 0; i < 32; i++) {
        const int r = i < 20 ? i : 19;
        st_tanhf_soa[0][i] = st_tanhf_table[r].c;
        st_tanhf_soa[1][i] = st_tanhf_table[r].hi;
        st_tanhf_soa[2][i] = st_tanhf_table[r].lo;
        for (int k = 0; k < 8; k++) st_tanhf_soa[3 + k][i] = st_tanhf_table[r].q[k];
    }
}
