/* vmath2.h -- sigmoid, hypot, log2, log10 and atan as plain branch-free C
 * (vectorised by GCC inside the per-level kernels, as vmath.h's).
 *
 *   sigmoid: st_vexp_parts(x) gives exp(x) = s (1 + r + p) with s =
 *       2^(k/N) as a pair, r exact and p the rest (st_vtanh's reduction);
 *       T = e^-|x| as a double pair, then 1 / (1 + T) or T / (1 + T)
 *       divided as pairs, the quotient corrected by its residual.
 *   hypot: scaled by a power of two, the sum of squares exact as a pair
 *       (FMA), its square root corrected once.
 *   log2, log10 (float64): log x as a pair (vmath.h) times 1/ln2 or 1/ln10
 *       as pairs.
 *   atan (float64): fdlibm's reduction and polynomial with the reduced
 *       argument as a corrected pair.
 *
 * Each result is a double pair rounded once: 0.50-0.59 ulp.  The float32
 * forms run in double (sigmoid: the float64 kernel on the widened value),
 * rounded once more to float.  As in vmath.h, ST_V*_SPECIAL(x) marks the
 * arguments the fast path does not serve and the caller recomputes them
 * with scalar libm (sigmoid: st_sigmoid_d), so special values are libm's.
 * Those arguments, and the tiny ones whose result is known to the last
 * bit, are replaced by a harmless value before the arithmetic: their
 * garbage or underflowing intermediates would otherwise be subnormal, and
 * every subnormal operation costs a microcode assist of some hundred
 * cycles (sigmoid float64 ran 2x slower).  (Level 4 runs vmath512.h's
 * forms, tables read by permutes.)
 *
 * Kernels on the same cores for log1p, atanh (log(x + xl) as a pair),
 * expm1, sinh and cosh, and the float32 log2, log10 and atan (in double,
 * 8 lanes), reached 0.50-0.51 ulp (commits fabf4bb and the atan one) but
 * not 1.5x numpy's speed (numpy runs AVX-512 SVML loops there): those stay
 * on libmvec (docs/performance.md). */
#ifndef ST_VMATH2_H
#define ST_VMATH2_H
#include "vmath.h"

/* a + b = s + st_2sum_err(a, b, s) exactly (vmath.h) */

/* c ? a : b by masks: GCC does not if-convert every ?: of these kernels
 * (its loops then stay scalar) */
static inline double st_sel(int c, double a, double b)
{
    const uint64_t m = (uint64_t)0 - (uint64_t)(c != 0);
    return st_asf64((st_asu64(a) & m) | (st_asu64(b) & ~m));
}
#define ST_VTINY 0x1p-60

/* ---- exp(x) in parts: s_hi (1 + r + p) + s_lo (1 + r + p), -704 < x < 709 ----
 * x = k ln2/N + r + rlo, rlo below ulp(r), and
 * exp(r + rlo) - 1 = r + p by Taylor to r^7; s_hi + s_lo = 2^(k/N), times
 * 2^(bias >> 52) (bias: a multiple of 2^52, to keep tiny parts normal). */
static inline void st_vexp_parts(double x, uint64_t bias, double *s_hi, double *s_lo,
                                 double *r_out, double *p_out)
{
    const double inv_ln2_n = 0x1.71547652b82fep0 * ST_EXP_N;
    const double shift = 0x1.8p52;
    /* ln2 / N in a part of 35 bits (k < 2^17: k ln2_hi exact) and the rest */
    const double ln2_hi_n = 0x1.62e42fef80000p-1 / ST_EXP_N;
    const double ln2_lo_n = 0x1.1cf79abc9e3b4p-36 / ST_EXP_N;
    double kd = x * inv_ln2_n + shift;
    const uint64_t ki = st_asu64(kd);
    kd -= shift;
    const double r0 = x - kd * ln2_hi_n;   /* exact */
    const double rl0 = -kd * ln2_lo_n;
    /* r + rlo = r0 + rl0 with r their rounded sum: rlo e^r is then rlo (1 + r)
     * to 2^-100 (rl0 itself reaches 2^-26: its r^2 rl0 / 2 would not be) */
    const double r = r0 + rl0;
    const double rlo = (r0 - r) + rl0;
    const uint64_t j = ki % ST_EXP_N;
    const double s = st_asf64(st_exp_sbits[j] + (ki << (52 - ST_EXP_BITS)) + bias);
    const double poly = 0.5 + r * (1.0 / 6 + r * (1.0 / 24 + r * (1.0 / 120 + r * (1.0 / 720
                        + r * (1.0 / 5040)))));
    *s_hi = s;
    *s_lo = s * st_exp_tail[j];
    *r_out = r;
    *p_out = rlo * (1.0 + r) + (r * r) * poly;
}
/* e^x - 1 (m = 1) or e^x (m = 0) as a pair from the parts:
 * (s_hi - m) + s_hi r + (s_hi p + s_lo (1 + r + p)) */
static inline double st_vexp_sum(double s_hi, double s_lo, double r, double p, double m,
                                 double *lo_out)
{
    const double a_hi = s_hi - m, a_lo = st_2sum_err(s_hi, -m, a_hi);
    const double b_hi = s_hi * r, b_lo = __builtin_fma(s_hi, r, -b_hi);
    const double c = s_hi * p + s_lo * ((1.0 + r) + p);
    const double e_hi = a_hi + b_hi;
    const double e_lo = st_2sum_err(a_hi, b_hi, e_hi) + (a_lo + b_lo + c);
    const double h = e_hi + e_lo;
    *lo_out = e_lo - (h - e_hi);
    return h;
}
/* (n_hi + n_lo) / (d_hi + d_lo), the quotient q corrected by its residual */
static inline double st_pair_div(double n_hi, double n_lo, double d_hi, double d_lo,
                                 double *lo_out)
{
    const double inv = 1.0 / d_hi;
    const double q = n_hi * inv;
    const double res = __builtin_fma(-q, d_hi, n_hi) + (n_lo - q * d_lo);
    *lo_out = res * inv;
    return q;
}

/* ---- sigmoid 1 / (1 + e^-x) ----
 * with T = e^-|x| as a pair, 1 / (1 + T) for
 * x >= 0 and T / (1 + T) for x < 0 (no overflow, no cancellation);
 * |x| < 704 (scalar st_sigmoid beyond) */
#define ST_VSIGMOID_SPECIAL(x) (!(__builtin_fabs(x) < 704.0))
static inline double st_vsigmoid(double x)
{
    double s_hi, s_lo, r, p, t_lo, q_lo;
    /* sigmoid x rounds to 1/2 below 2^-60 */
    const double a = st_sel((__builtin_fabs(x) < ST_VTINY) | ST_VSIGMOID_SPECIAL(x), 0.0, __builtin_fabs(x));
    /* above 40, 1 + T rounds to 1: sigmoid is 1 for x > 0 and T for x < 0,
     * T computed times 2^600 (its parts would reach the subnormals) and
     * scaled back (exactly: T is normal below 704) */
    const int big = a > 40.0;
    st_vexp_parts(-a, ((uint64_t)0 - (uint64_t)big) & (600ULL << 52), &s_hi, &s_lo, &r, &p);
    const double t_hi = st_vexp_sum(s_hi, s_lo, r, p, 0.0, &t_lo);
    const double d_hi = st_sel(big, 1.0, 1.0 + t_hi);
    const double d_lo = st_sel(big, 0.0, st_2sum_err(t_hi, 1.0, 1.0 + t_hi) + t_lo);
    const int neg = x < 0;
    const double q_hi = st_pair_div(st_sel(neg, t_hi, 1.0), st_sel(neg, t_lo, 0.0), d_hi, d_lo, &q_lo);
    return st_sel(big, st_sel(neg, (t_hi + t_lo) * 0x1p-600, 1.0), q_hi + q_lo);
}
/* the scalar sigmoid of the lanes the kernel leaves: the same two forms by
 * libm's exp (e^x / (1 + e^x) below 0 keeps the tiny results numpy's
 * 1 / (1 + e^-x) loses to overflow) */
static inline double st_sigmoid_d(double x)
{
    if (x < 0) {
        const double e = exp(x);
        return e / (1.0 + e);
    }
    return 1.0 / (1.0 + exp(-x));
}
static inline float st_sigmoid_f(float x) { return (float)st_sigmoid_d((double)x); }

/* ---- hypot float64 ----
 * hi = max(|x|, |y|) normal and below 2^1023 (libm's hypot otherwise:
 * zeros, subnormals, infinities, NaN), both scaled by the power of two
 * that puts hi in [1, 2) (exact; lo may round to a subnormal only where
 * lo^2 is far below the result's ulp), s = hi^2 + lo^2 as a pair (FMA),
 * r = sqrt(s) corrected by (s - r^2) / 2r: about 0.5 ulp. */
#define ST_VHYPOT_SPECIAL(x, y) (!(__builtin_fabs(x) < 0x1p1023) | !(__builtin_fabs(y) < 0x1p1023) \
                                 | ((__builtin_fabs(x) < 0x1p-1022) & (__builtin_fabs(y) < 0x1p-1022)))
static inline double st_vhypot(double x, double y)
{
    const double a = __builtin_fabs(x), b = __builtin_fabs(y);
    const int sp = ST_VHYPOT_SPECIAL(x, y);
    const double hi = st_sel(sp, 1.0, st_sel(a > b, a, b));
    /* lo below 2^-60 hi: lo^2 is below 2^-120 of the result, and scaled it
     * could be subnormal */
    const double mn = st_sel(a > b, b, a);
    const double lo = st_sel(sp | (mn < hi * ST_VTINY), 0.0, mn);
    const uint64_t e = (st_asu64(hi) >> 52) & 0x7ff;
    const double sc = st_asf64((2046 - e) << 52);   /* 2^(1023 - (e - 1023)) */
    const double h = hi * sc, l = lo * sc;
    const double h2 = h * h, l2 = l * l;
    const double s = h2 + l2;
    const double se = ((h2 - s) + l2) + (__builtin_fma(h, h, -h2) + __builtin_fma(l, l, -l2));
    const double r = __builtin_sqrt(s);
    const double t = r + (__builtin_fma(-r, r, s) + se) * (0.5 / r);
    return t * st_asf64(e << 52);
}
/* float32: in double, x^2 and y^2 exact, their sum and the root rounded
 * (2^-52 together) before the float's one rounding */
#define ST_VHYPOTF_SPECIAL(x, y) (!(__builtin_fabsf(x) <= 0x1.fffffep127f) \
                                  | !(__builtin_fabsf(y) <= 0x1.fffffep127f))
static inline float st_vhypotf(float x, float y)
{
    const double a = (double)x, b = (double)y;
    return (float)__builtin_sqrt(a * a + b * b);
}

/* ---- atan ----
 * fdlibm's reduction and polynomial, branch-free: a = |x| in five
 * intervals (cut at 7/16, 11/16, 19/16, 39/16), atan a = atan c + atan t
 * with t = (p a - q) / (p + q a) for the interval's (p, q) = (1, 0), (2, 1),
 * (1, 1), (1, 1.5), (0, 1) (c = 0, atan 1/2, pi/4, atan 3/2, pi/2; p a - q
 * is exact there), the divisor as a pair (FMA) and t corrected by its
 * residual, so t + t_lo is exact to 2^-100; then atan c + t by 2Sum plus
 * the rest (atan c's low part, t_lo, and fdlibm's t (s1 + s2)), rounded
 * once: about 0.5 ulp.  Every value is chosen by masks, with no table (GCC
 * would gather it).  |x| < 2^-30 returns x (atan x rounds to x, and x^2
 * could be subnormal); above 2^60 a is clamped (atan rounds to pi/2, and
 * -1/a would approach the subnormals); only NaN goes to libm. */
#define ST_VATAN_SPECIAL(x) ((x) != (x))
static inline double st_vatan(double x)
{
    const double T0 = 3.33333333333329318027e-01, T1 = -1.99999999998764832476e-01,
                 T2 = 1.42857142725034663711e-01, T3 = -1.11111104054623557880e-01,
                 T4 = 9.09088713343650656196e-02, T5 = -7.69187620504482999495e-02,
                 T6 = 6.66107313738753120669e-02, T7 = -5.83357013379057348645e-02,
                 T8 = 4.97687799461593236017e-02, T9 = -3.65315727442169155270e-02,
                 T10 = 1.62858201153657823623e-02;
    const uint64_t sign = st_asu64(x) & 0x8000000000000000ULL;
    const double ax = __builtin_fabs(x);
    const int tiny = ax < 0x1p-30;
    const double a = st_sel(tiny | (x != x), 0.0, st_sel(ax > 0x1p60, 0x1p60, ax));
    const int c0 = a >= 0.4375, c1 = a >= 0.6875, c2 = a >= 1.1875, c3 = a >= 2.4375;
    const double p = st_sel(c3, 0.0, st_sel(c0 & !c1, 2.0, 1.0));
    const double q = st_sel(c3, 1.0, st_sel(c2, 1.5, st_sel(c0, 1.0, 0.0)));
    const double hi = st_sel(c3, 1.57079632679489655800e+00, st_sel(c2, 9.82793723247329054082e-01,
                      st_sel(c1, 7.85398163397448278999e-01, st_sel(c0, 4.63647609000806093515e-01, 0.0))));
    const double lo = st_sel(c3, 6.12323399573676603587e-17, st_sel(c2, 1.39033110312309984516e-17,
                      st_sel(c1, 3.06161699786838301793e-17, st_sel(c0, 2.26987774529616870924e-17, 0.0))));
    const double n = p * a - q;   /* exact (FMA or not) */
    const double qa = q * a, qa_lo = __builtin_fma(q, a, -qa);
    const double d_hi = p + qa;
    const double d_lo = st_2sum_err(p, qa, d_hi) + qa_lo;
    const double inv = 1.0 / d_hi;
    const double t = n * inv;
    const double t_lo = (__builtin_fma(-t, d_hi, n) - t * d_lo) * inv;
    const double z = t * t, w = z * z;
    const double s1 = z * (T0 + w * (T2 + w * (T4 + w * (T6 + w * (T8 + w * T10)))));
    const double s2 = w * (T1 + w * (T3 + w * (T5 + w * (T7 + w * T9))));
    const double h = hi + t;
    const double r = h + (st_2sum_err(hi, t, h) + ((lo + t_lo) - t * (s1 + s2)));
    return st_sel(tiny, x, st_asf64(st_asu64(r) | sign));
}

/* ---- log2 and log10, float64: x positive, normal and finite ----
 * st_vlog_pair's log x as hi + lo (vmath.h; level 4: st_vlog8's, its sum
 * left as the pair) times 1/ln2 or 1/ln10 as pairs, the leading product
 * exact by FMA, rounded once: 0.52 ulp. */
static inline double st_pair_mul(double h, double l, double ch, double cl)
{
    const double p = h * ch;
    return p + (__builtin_fma(h, ch, -p) + (h * cl + l * ch));
}
#define ST_INVLN2_HI 0x1.71547652b82fep+0
#define ST_INVLN2_LO 0x1.777d0ffda0d24p-56
#define ST_INVLN10_HI 0x1.bcb7b1526e50ep-2
#define ST_INVLN10_LO 0x1.95355baaafad3p-57
static inline double st_vlog2(double x)
{
    double lo, hi = st_vlog_pair(st_sel(ST_VLOG_SPECIAL(x), 1.0, x), &lo);
    return st_pair_mul(hi, lo, ST_INVLN2_HI, ST_INVLN2_LO);
}
static inline double st_vlog10(double x)
{
    double lo, hi = st_vlog_pair(st_sel(ST_VLOG_SPECIAL(x), 1.0, x), &lo);
    return st_pair_mul(hi, lo, ST_INVLN10_HI, ST_INVLN10_LO);
}
#endif
