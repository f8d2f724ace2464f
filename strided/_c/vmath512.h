/* vmath512.h -- vmath.h kernels whose tables GCC would gather, written
 * with AVX-512 intrinsics so that a table of up to 32 floats or 16 doubles
 * is two registers and a lookup one permute (vpermt2ps / vpermt2pd) per
 * coefficient: the gathers of the scalar form cost more than all the
 * arithmetic.  Each computes exactly what its scalar form in vmath.h
 * computes (the same operations, the same fused multiply-adds), lane for
 * lane; the kernels of the other CPU levels use that scalar form.  One
 * exception: float32 exp (st_vexpf16) has no scalar form, its table read
 * by gathers being slower there than vmath.h's table-free st_vexpf, which
 * level 3 keeps (so levels 3 and 4 may differ in a result's last bit,
 * as level 0's float64 kernel rounded to float does from both).
 * Included by elementwise.c and half_ew.c where the compiler has AVX-512
 * intrinsics; called only from functions compiled for x86-64-v4. */
#ifndef ST_VMATH512_H
#define ST_VMATH512_H
#include "vmath.h"
#include <immintrin.h>

#define ST_V4 static inline __attribute__((always_inline, target("arch=x86-64-v4")))

/* tanh, 16 floats: st_vtanhf */
extern float st_tanhf_soa[11][32]; /* c, hi, lo, q[0..7] of st_tanhf_table's rows, padded */
ST_V4 __m512 st_vtanhf16(__m512 x)
{
    const __m512i absmask = _mm512_set1_epi32(0x7fffffff);
    const __m512i xi = _mm512_castps_si512(x);
    const __m512i sign = _mm512_andnot_si512(absmask, xi);
    const __m512i ai = _mm512_and_si512(xi, absmask);
    const __m512 a = _mm512_castsi512_ps(ai);
    const __m512 z = _mm512_mul_ps(a, a);
    __m512 P = _mm512_set1_ps(0x1.465a76p-9f);
    P = _mm512_fmadd_ps(z, P, _mm512_set1_ps(-0x1.168feep-7f));
    P = _mm512_fmadd_ps(z, P, _mm512_set1_ps(0x1.655fd8p-6f));
    P = _mm512_fmadd_ps(z, P, _mm512_set1_ps(-0x1.ba12f6p-5f));
    P = _mm512_fmadd_ps(z, P, _mm512_set1_ps(0x1.111102p-3f));
    P = _mm512_fmadd_ps(z, P, _mm512_set1_ps(-0x1.555556p-2f));
    const __m512 small = _mm512_fmadd_ps(_mm512_mul_ps(a, z), P, a);
    __m512i i = _mm512_sub_epi32(_mm512_srli_epi32(ai, 21), _mm512_set1_epi32(0x3f000000 >> 21));
    i = _mm512_min_epi32(_mm512_max_epi32(i, _mm512_setzero_si512()), _mm512_set1_epi32(19));
#define ST_TLUT(k)                                                                                 \
    _mm512_permutex2var_ps(_mm512_load_ps(st_tanhf_soa[k]), i, _mm512_load_ps(st_tanhf_soa[k] + 16))
    const __m512 xr = _mm512_sub_ps(a, ST_TLUT(0));
    __m512 Q = ST_TLUT(10);
    Q = _mm512_fmadd_ps(xr, Q, ST_TLUT(9));
    Q = _mm512_fmadd_ps(xr, Q, ST_TLUT(8));
    Q = _mm512_fmadd_ps(xr, Q, ST_TLUT(7));
    Q = _mm512_fmadd_ps(xr, Q, ST_TLUT(6));
    Q = _mm512_fmadd_ps(xr, Q, ST_TLUT(5));
    Q = _mm512_fmadd_ps(xr, Q, ST_TLUT(4));
    Q = _mm512_fmadd_ps(xr, Q, ST_TLUT(3));
    const __m512 large = _mm512_add_ps(ST_TLUT(1), _mm512_fmadd_ps(xr, Q, ST_TLUT(2)));
#undef ST_TLUT
    __m512 t = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(a, _mm512_set1_ps(0.5625f), _CMP_LT_OQ),
                                    large, small);
    t = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(a, _mm512_set1_ps(9.0f), _CMP_LT_OQ),
                             _mm512_set1_ps(1.0f), t);
    return _mm512_castsi512_ps(_mm512_or_si512(_mm512_castps_si512(t), sign));
}

/* exp, 16 floats, |x| < 160 (ST_VEXPF_SPECIAL's domain; the caller gives
 * the other lanes to libm's expf): level 4's float32 exp, and the one
 * inside half_ew.c's float16 and bfloat16 exp.
 *   x = (16 e + j) ln2/16 + r, |r| <= ln2/32: k = 16 e + j, the integer
 *   nearest 16 x / ln2, by the shift trick (its low 4 bits index the
 *   table as they are: vpermps reads only those), r by two FMAs with
 *   ln2/16 as a float pair;
 *   exp(x) = 2^e 2^(j/16) e^r, 2^(j/16) = hi + lo from a table of 16
 *   floats per part (st_expf16_tab: one register each, read by one
 *   single-source permute; gathers cost more than all the arithmetic);
 *   e^r - 1 = q = r (1 + c2 r + c3 r^2), c2 and c3 a minimax fit (relative
 *   error 2^-29.2 on |r| <= ln2/32);
 *   y = hi + (hi q + lo), one FMA and one add (lo carries the table's
 *   rounding error: without it, 1.01 ulp measured with 32 entries);
 *   2^e by vscalefps, which rounds y 2^e once: the results that overflow
 *   are inf, those in the subnormals or below round there like the true
 *   value.
 * 13 vector operations for 16 values, where vmath.h's table-free st_vexpf
 * (level 3's kernel: Taylor to r^7 on |r| <= ln2/2, 2^k as two products
 * to reach the subnormals) takes 20.  Every float with |x| < 160 measured
 * against exp in double: at most 0.576 ulp where the result is normal,
 * 0.765 where it is subnormal (y's rounding adds up to 1/4 ulp there
 * before the second rounding); st_vexpf's: 0.939; numpy's 2.4.  In L1 on
 * one AMD EPYC Zen 4 core: 0.153 ns a value, st_vexpf 0.259.  Tried and
 * left: 32 entries (two-source permutes, each a register copy more) and
 * c2, c3: 0.532 / 0.753 ulp, 0.183 ns; 16 entries and a degree-4
 * polynomial: 0.559 / 0.758 ulp, 0.173 ns; a scalar form (32 entries, 2^e
 * as two products), which GCC compiles into table gathers: 0.82 ns at
 * level 4 and 0.61 at level 3, slower than st_vexpf, which level 3 keeps. */
extern float st_expf16_tab[2][16]; /* 2^(j/16) rounded to float, and the rest rounded */
ST_V4 __m512 st_vexpf16(__m512 x)
{
    const __m512 shift = _mm512_set1_ps(0x1.8p23f);
    const __m512 z = _mm512_fmadd_ps(x, _mm512_set1_ps(0x1.715476p4f), shift); /* 16/ln2 */
    const __m512 kd = _mm512_sub_ps(z, shift);
    __m512 r = _mm512_fnmadd_ps(kd, _mm512_set1_ps(0x1.62e430p-5f), x); /* ln2/16 = hi + lo */
    r = _mm512_fnmadd_ps(kd, _mm512_set1_ps(-0x1.05c610p-33f), r);
    const __m512i ki = _mm512_castps_si512(z); /* k in the low bits */
    const __m512 hi = _mm512_permutexvar_ps(ki, _mm512_load_ps(st_expf16_tab[0]));
    const __m512 lo = _mm512_permutexvar_ps(ki, _mm512_load_ps(st_expf16_tab[1]));
    __m512 p = _mm512_fmadd_ps(r, _mm512_set1_ps(0x1.5555a0p-3f), _mm512_set1_ps(0x1.00022ap-1f));
    p = _mm512_fmadd_ps(r, p, _mm512_set1_ps(1.0f));
    const __m512 q = _mm512_mul_ps(r, p);
    const __m512 y = _mm512_add_ps(_mm512_fmadd_ps(hi, q, lo), hi);
    /* 2^floor(k/16) = 2^e */
    return _mm512_scalef_ps(y, _mm512_mul_ps(kd, _mm512_set1_ps(1.0f / 16)));
}

/* pow, 8 lanes in double (x, y floats widened): st_vpowf_arg then
 * st_vexp2f_lo; *tout gets y log2 x (for the special test) */

ST_V4 __m512d st_vpowf8(__m256 xf, __m256 yf, __m512d *tout)
{
    const __m512d L1 = _mm512_set1_pd(0x1.71547652b82fep0);
    const __m256i ix = _mm256_castps_si256(xf);
    const __m256i tmp = _mm256_sub_epi32(ix, _mm256_set1_epi32(0x3f330000));
    const __m512i i = _mm512_cvtepu32_epi64(
        _mm256_and_si256(_mm256_srli_epi32(tmp, 23 - ST_POWF_LOG_BITS), _mm256_set1_epi32(15)));
    const __m256i top = _mm256_and_si256(tmp, _mm256_set1_epi32((int)0xff800000u));
    const __m512d k = _mm512_cvtepi32_pd(_mm256_srai_epi32(top, 23));
    const __m512d z = _mm512_cvtps_pd(_mm256_castsi256_ps(_mm256_sub_epi32(ix, top)));
    const __m512d invc =
        _mm512_permutex2var_pd(_mm512_loadu_pd(st_powf_invc), i, _mm512_loadu_pd(st_powf_invc + 8));
    const __m512d logc =
        _mm512_permutex2var_pd(_mm512_loadu_pd(st_powf_logc), i, _mm512_loadu_pd(st_powf_logc + 8));
    const __m512d r = _mm512_fmsub_pd(z, invc, _mm512_set1_pd(1.0));
    __m512d p = _mm512_set1_pd(0x1.71547652b82fep0 / 7);
    p = _mm512_fmadd_pd(r, p, _mm512_set1_pd(-0x1.71547652b82fep0 / 6));
    p = _mm512_fmadd_pd(r, p, _mm512_set1_pd(0x1.71547652b82fep0 / 5));
    p = _mm512_fmadd_pd(r, p, _mm512_set1_pd(-0x1.71547652b82fep0 / 4));
    p = _mm512_fmadd_pd(r, p, _mm512_set1_pd(0x1.71547652b82fep0 / 3));
    p = _mm512_fmadd_pd(r, p, _mm512_set1_pd(-0x1.71547652b82fep0 / 2));
    p = _mm512_fmadd_pd(r, p, L1);
    const __m512d l = _mm512_fmadd_pd(r, p, _mm512_add_pd(k, logc));
    const __m512d t = _mm512_mul_pd(_mm512_cvtps_pd(yf), l);
    *tout = t;
    /* 2^t */
    const __m512d shift = _mm512_set1_pd(0x1.8p52 / 16);
    __m512d kd = _mm512_add_pd(t, shift);
    const __m512i ki = _mm512_castpd_si512(kd);
    kd = _mm512_sub_pd(kd, shift);
    const __m512d rr = _mm512_sub_pd(t, kd);
    const __m512i sb = _mm512_permutex2var_epi64(_mm512_loadu_si512(st_powf_exp2), ki,
                                                 _mm512_loadu_si512(st_powf_exp2 + 8));
    const __m512d scale = _mm512_castsi512_pd(_mm512_add_epi64(sb, _mm512_slli_epi64(ki, 48)));
    __m512d q = _mm512_set1_pd(0x1.5d87fe78a6731p-10);
    q = _mm512_fmadd_pd(rr, q, _mm512_set1_pd(0x1.3b2ab6fba4e77p-7));
    q = _mm512_fmadd_pd(rr, q, _mm512_set1_pd(0x1.c6b08d704a0c0p-5));
    q = _mm512_fmadd_pd(rr, q, _mm512_set1_pd(0x1.ebfbdff82c58fp-3));
    q = _mm512_fmadd_pd(rr, q, _mm512_set1_pd(0x1.62e42fefa39efp-1));
    q = _mm512_mul_pd(rr, q);
    return _mm512_fmadd_pd(scale, q, scale);
}
/* tanh, 8 doubles: st_vtanh's E / (E + 2), E = expm1(2|x|) as a double
 * pair, with a 16-entry exp table (2^(j/16) and its relative error: two
 * permutes each) and Taylor of expm1 to r^9 for the wider |r| <= ln2/32
 * (next term below 2^-78 of r; the reduced argument rounded to a double r
 * plus the rest rlo, so that rlo's share, rlo e^r, is rlo (1 + r) to
 * 2^-100), and 1 / (E + 2) by the 14-bit reciprocal
 * and two Newton steps (good to 2^-55; the quotient is then corrected by
 * its exact residual as in st_vtanh) instead of a division, whose
 * throughput alone was a third of the time. */
extern uint64_t st_exp16_sbits[16]; /* bits of 2^(j/16) minus j << 48 */
extern double st_exp16_tail[16];    /* (2^(j/16) - that double) / that double */
ST_V4 __m512d st_vtanh8(__m512d x)
{
    const __m512d shift = _mm512_set1_pd(0x1.8p52);
    const __m512d ln2_hi_n = _mm512_set1_pd(0x1.62e42fefa0000p-1 / 16);
    const __m512d ln2_lo_n = _mm512_set1_pd(0x1.cf79abc9e3b3ap-40 / 16);
    const __m512d one = _mm512_set1_pd(1.0), two = _mm512_set1_pd(2.0);
    const __m512i absmask = _mm512_set1_epi64(0x7fffffffffffffffLL);
    const __m512i xi = _mm512_castpd_si512(x);
    const __m512i sign = _mm512_andnot_si512(absmask, xi);
    const __m512d u = _mm512_add_pd(_mm512_castsi512_pd(_mm512_and_si512(xi, absmask)),
                                    _mm512_castsi512_pd(_mm512_and_si512(xi, absmask)));
    __m512d kd = _mm512_fmadd_pd(u, _mm512_set1_pd(0x1.71547652b82fep0 * 16), shift);
    const __m512i ki = _mm512_castpd_si512(kd);
    kd = _mm512_sub_pd(kd, shift);
    const __m512d r0 = _mm512_fnmadd_pd(kd, ln2_hi_n, u); /* exact */
    const __m512d rlo0 = _mm512_mul_pd(_mm512_sub_pd(_mm512_setzero_pd(), kd), ln2_lo_n);
    /* r + rlo = r0 + rlo0 with r their rounded sum: the polynomial is of r,
     * and the terms of rlo beyond rlo (1 + r) stay below 2^-100 */
    const __m512d r = _mm512_add_pd(r0, rlo0);
    const __m512d rlo = _mm512_add_pd(_mm512_sub_pd(r0, r), rlo0);
    const __m512i sb = _mm512_permutex2var_epi64(_mm512_loadu_si512(st_exp16_sbits), ki,
                                                 _mm512_loadu_si512(st_exp16_sbits + 8));
    const __m512d s_hi = _mm512_castsi512_pd(_mm512_add_epi64(sb, _mm512_slli_epi64(ki, 48)));
    const __m512d s_lo =
        _mm512_mul_pd(s_hi, _mm512_permutex2var_pd(_mm512_loadu_pd(st_exp16_tail), ki,
                                                   _mm512_loadu_pd(st_exp16_tail + 8)));
    const __m512d r2 = _mm512_mul_pd(r, r);
    __m512d poly = _mm512_set1_pd(1.0 / 362880);
    poly = _mm512_fmadd_pd(r, poly, _mm512_set1_pd(1.0 / 40320));
    poly = _mm512_fmadd_pd(r, poly, _mm512_set1_pd(1.0 / 5040));
    poly = _mm512_fmadd_pd(r, poly, _mm512_set1_pd(1.0 / 720));
    poly = _mm512_fmadd_pd(r, poly, _mm512_set1_pd(1.0 / 120));
    poly = _mm512_fmadd_pd(r, poly, _mm512_set1_pd(1.0 / 24));
    poly = _mm512_fmadd_pd(r, poly, _mm512_set1_pd(1.0 / 6));
    poly = _mm512_fmadd_pd(r, poly, _mm512_set1_pd(0.5));
    const __m512d onepr = _mm512_add_pd(one, r);
    const __m512d p_lo = _mm512_fmadd_pd(r2, poly, _mm512_mul_pd(rlo, onepr));
    const __m512d a_hi = _mm512_sub_pd(s_hi, one);
    const __m512d a_lo = _mm512_sub_pd(_mm512_sub_pd(s_hi, a_hi), one);
    const __m512d b_hi = _mm512_mul_pd(s_hi, r);
    const __m512d b_lo = _mm512_fmsub_pd(s_hi, r, b_hi);
    const __m512d c = _mm512_fmadd_pd(s_hi, p_lo, _mm512_mul_pd(s_lo, _mm512_add_pd(onepr, p_lo)));
    __m512d e_hi = _mm512_add_pd(a_hi, b_hi);
    __m512d bb = _mm512_sub_pd(e_hi, a_hi);
    __m512d e_lo = _mm512_add_pd(
        _mm512_add_pd(_mm512_sub_pd(a_hi, _mm512_sub_pd(e_hi, bb)), _mm512_sub_pd(b_hi, bb)),
        _mm512_add_pd(_mm512_add_pd(a_lo, b_lo), c));
    const __m512d e_n = _mm512_add_pd(e_hi, e_lo);
    e_lo = _mm512_sub_pd(e_lo, _mm512_sub_pd(e_n, e_hi));
    e_hi = e_n;
    const __m512d d_hi = _mm512_add_pd(e_hi, two);
    bb = _mm512_sub_pd(d_hi, e_hi);
    const __m512d d_lo = _mm512_add_pd(
        _mm512_add_pd(_mm512_sub_pd(e_hi, _mm512_sub_pd(d_hi, bb)), _mm512_sub_pd(two, bb)), e_lo);
    __m512d inv = _mm512_rcp14_pd(d_hi);
    inv = _mm512_fmadd_pd(inv, _mm512_fnmadd_pd(d_hi, inv, one), inv);
    inv = _mm512_fmadd_pd(inv, _mm512_fnmadd_pd(d_hi, inv, one), inv);
    const __m512d q = _mm512_mul_pd(e_hi, inv);
    const __m512d res =
        _mm512_add_pd(_mm512_fnmadd_pd(q, d_hi, e_hi), _mm512_fnmadd_pd(q, d_lo, e_lo));
    __m512d t = _mm512_fmadd_pd(res, inv, q);
    t = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(u, _mm512_set1_pd(44.0), _CMP_LT_OQ), one, t);
    return _mm512_castsi512_pd(_mm512_or_si512(_mm512_castpd_si512(t), sign));
}

/* exp(x + xlo), |x| < 704, |xlo| <= ulp(x), 8 doubles: st_vexp_pair with
 * the 16-entry table (two permutes each for 2^(j/16) and its error) and
 * Taylor of e^r - 1 to r^8 for |r| <= ln2/32 (next term below 2^-68) */
ST_V4 __m512d st_vexp_pair8(__m512d x, __m512d xlo)
{
    const __m512d shift = _mm512_set1_pd(0x1.8p52);
    __m512d kd = _mm512_fmadd_pd(x, _mm512_set1_pd(0x1.71547652b82fep0 * 16), shift);
    const __m512i ki = _mm512_castpd_si512(kd);
    kd = _mm512_sub_pd(kd, shift);
    __m512d r = _mm512_fnmadd_pd(kd, _mm512_set1_pd(0x1.62e42fefa0000p-1 / 16), x);
    r = _mm512_fnmadd_pd(kd, _mm512_set1_pd(0x1.cf79abc9e3b3ap-40 / 16), r);
    r = _mm512_add_pd(r, xlo);
    const __m512i sb = _mm512_permutex2var_epi64(_mm512_loadu_si512(st_exp16_sbits), ki,
                                                 _mm512_loadu_si512(st_exp16_sbits + 8));
    const __m512d scale = _mm512_castsi512_pd(_mm512_add_epi64(sb, _mm512_slli_epi64(ki, 48)));
    const __m512d tail = _mm512_permutex2var_pd(_mm512_loadu_pd(st_exp16_tail), ki,
                                                _mm512_loadu_pd(st_exp16_tail + 8));
    __m512d q = _mm512_set1_pd(1.0 / 40320);
    q = _mm512_fmadd_pd(r, q, _mm512_set1_pd(1.0 / 5040));
    q = _mm512_fmadd_pd(r, q, _mm512_set1_pd(1.0 / 720));
    q = _mm512_fmadd_pd(r, q, _mm512_set1_pd(1.0 / 120));
    q = _mm512_fmadd_pd(r, q, _mm512_set1_pd(1.0 / 24));
    q = _mm512_fmadd_pd(r, q, _mm512_set1_pd(1.0 / 6));
    q = _mm512_fmadd_pd(r, q, _mm512_set1_pd(0.5));
    const __m512d p = _mm512_fmadd_pd(_mm512_mul_pd(r, r), q, r);
    return _mm512_fmadd_pd(scale, _mm512_add_pd(tail, p), scale);
}

/* exp, 8 doubles, |x| < 704: st_vexp's, with the 16-entry table */
ST_V4 __m512d st_vexp8(__m512d x) { return st_vexp_pair8(x, _mm512_setzero_pd()); }

/* log, 8 doubles, x positive, normal and finite: st_vlog's construction on
 * 16 subintervals of z in [0.703125, 1.40625) (vmath_tables.h's st_log16_*,
 * one permute each instead of three gathers from 128), so |r| <= 1/32 and
 * log1p(r) - r needs Taylor to r^13 (the next term is below 2^-61 of r)
 * instead of r^8; r exact as a pair, k ln2_hi + logc exact, as there. */
ST_V4 __m512d st_vlog8(__m512d x)
{
    const __m512d ln2_hi = _mm512_set1_pd(0x1.62e42fefa3800p-1),
                  ln2_lo = _mm512_set1_pd(0x1.ef35793c76730p-45), one = _mm512_set1_pd(1.0);
    const __m512i ix = _mm512_castpd_si512(x);
    const __m512i tmp = _mm512_sub_epi64(ix, _mm512_set1_epi64(0x3fe6800000000000LL));
    const __m512i i = _mm512_srli_epi64(tmp, 48); /* the permutes read its low 4 bits */
    const __m512d kd = _mm512_cvtepi64_pd(_mm512_srai_epi64(tmp, 52));
    const __m512d z = _mm512_castsi512_pd(_mm512_sub_epi64(
        ix, _mm512_and_si512(tmp, _mm512_set1_epi64((long long)0xfff0000000000000ULL))));
#define ST_L16(col) _mm512_permutex2var_pd(_mm512_load_pd(col), i, _mm512_load_pd((col) + 8))
    const __m512d invc = ST_L16(st_log16_invc);
    const __m512d pr = _mm512_mul_pd(z, invc);
    const __m512d pl = _mm512_fmsub_pd(z, invc, pr);
    const __m512d pm = _mm512_sub_pd(pr, one);
    const __m512d rh = _mm512_add_pd(pm, pl);
    const __m512d rl = _mm512_sub_pd(pl, _mm512_sub_pd(rh, pm));
    const __m512d w = _mm512_fmadd_pd(kd, ln2_hi, ST_L16(st_log16_logc)); /* exact */
    const __m512d hi = _mm512_add_pd(w, rh);
    __m512d lo = _mm512_add_pd(_mm512_sub_pd(w, hi), rh);
    lo =
        _mm512_add_pd(lo, _mm512_add_pd(_mm512_fmadd_pd(kd, ln2_lo, ST_L16(st_log16_logc_lo)), rl));
#undef ST_L16
    const __m512d r = rh, r2 = _mm512_mul_pd(r, r);
    __m512d q = _mm512_set1_pd(1.0 / 13);
    q = _mm512_fmadd_pd(r, q, _mm512_set1_pd(-1.0 / 12));
    q = _mm512_fmadd_pd(r, q, _mm512_set1_pd(1.0 / 11));
    q = _mm512_fmadd_pd(r, q, _mm512_set1_pd(-1.0 / 10));
    q = _mm512_fmadd_pd(r, q, _mm512_set1_pd(1.0 / 9));
    q = _mm512_fmadd_pd(r, q, _mm512_set1_pd(-1.0 / 8));
    q = _mm512_fmadd_pd(r, q, _mm512_set1_pd(1.0 / 7));
    q = _mm512_fmadd_pd(r, q, _mm512_set1_pd(-1.0 / 6));
    q = _mm512_fmadd_pd(r, q, _mm512_set1_pd(1.0 / 5));
    q = _mm512_fmadd_pd(r, q, _mm512_set1_pd(-1.0 / 4));
    q = _mm512_fmadd_pd(r, q, _mm512_set1_pd(1.0 / 3));
    q = _mm512_fmadd_pd(r, q, _mm512_set1_pd(-1.0 / 2));
    /* hi + (lo + r^2 q - rh rl) */
    return _mm512_add_pd(hi, _mm512_fnmadd_pd(rh, rl, _mm512_fmadd_pd(r2, q, lo)));
}

#endif
