/* vmath.h -- exp, log, sin and cos written as plain branch-free C that GCC
 * vectorises inside the per-level kernels (ST_LEVELS: AVX-512, AVX2 or
 * baseline, picked by st_cpu_level()).
 *
 * libmvec's versions (st_mvec.h) are fast but less accurate than numpy's
 * (exp f64 2.9 ulp against numpy's 0.71, log f64 1.6 against 0.6, the
 * float32 ones 2-4 ulp).  These reach about 0.5 ulp:
 *   exp:  x = k ln2/128 + r, |r| <= ln2/256; exp(x) = 2^(k/128) (1 + p(r)),
 *         2^(j/128) from a table as a double plus its relative error.
 *   log:  x = 2^k z, z in [0.6875, 1.375); z c ~ 1 for a table value c of
 *         z's subinterval; log(x) = k ln2 - log(c) + log1p(z c - 1), with
 *         z c - 1 kept exactly as a double pair and log(c) as a pair.
 *   sin, cos (float32): in double, x = k pi/2 + r by a three-part pi/2,
 *         then the sine or cosine polynomial of r for k's quadrant.
 * float32 exp and log have kernels of their own, in float (below).
 *
 * Each kernel is the fast path of its domain only: ST_V*_SPECIAL(x) is
 * true for the arguments it does not serve (NaN, infinities, zero and
 * negative logs, exp over/underflow, huge sin/cos arguments), and the
 * caller recomputes those lanes with the scalar libm function, so special
 * values come out exactly as libm gives them. */
#ifndef ST_VMATH_H
#define ST_VMATH_H
#include <stdint.h>
#include <string.h>

#define ST_EXP_BITS 7
#define ST_EXP_N (1 << ST_EXP_BITS)
#define ST_LOG_BITS 7
#define ST_LOG_N (1 << ST_LOG_BITS)
/* Filled once at load (vmath.c). */
extern uint64_t st_exp_sbits[ST_EXP_N]; /* bits of 2^(j/N) minus j << (52 - BITS) */
extern double st_exp_tail[ST_EXP_N];    /* (2^(j/N) - that double) / that double */
/* invc ~ 1 / (center of z's subinterval), logc + logc_lo = -log(invc) */
#include "vmath_tables.h"

static inline uint64_t st_asu64(double x)
{
    uint64_t u;
    memcpy(&u, &x, 8);
    return u;
}
static inline double st_asf64(uint64_t u)
{
    double x;
    memcpy(&x, &u, 8);
    return x;
}

/* ---- exp, |x| < 704 ---- */
#define ST_VEXP_SPECIAL(x) (!(__builtin_fabs(x) < 704.0))
static inline double st_vexp(double x)
{
    const double inv_ln2_n = 0x1.71547652b82fep0 * ST_EXP_N;
    const double shift = 0x1.8p52; /* adding it rounds to an integer in the low bits */
    const double ln2_hi_n = 0x1.62e42fefa0000p-1 / ST_EXP_N; /* trailing zeros: k*hi exact */
    const double ln2_lo_n = 0x1.cf79abc9e3b3ap-40 / ST_EXP_N;
    double kd = x * inv_ln2_n + shift;
    uint64_t ki = st_asu64(kd);
    kd -= shift;
    double r = x - kd * ln2_hi_n - kd * ln2_lo_n;
    uint64_t j = ki % ST_EXP_N;
    /* the table holds 2^(j/N)'s bits minus j << 45: adding ki << 45 puts
     * k / N into the exponent (the result is normal for |x| < 704) */
    double scale = st_asf64(st_exp_sbits[j] + (ki << (52 - ST_EXP_BITS)));
    double r2 = r * r;
    /* exp(r) - 1 by Taylor to r^5: the r^6 term is < 2^-60 of the result */
    double p = r + r2 * (0.5 + r * (1.0 / 6) + r2 * (1.0 / 24 + r * (1.0 / 120)));
    double tmp = st_exp_tail[j] + p;
    return scale + scale * tmp;
}

/* ---- log, x a positive normal finite double ----
 * (Level 4 runs vmath512.h's st_vlog8: 16 subintervals read by permutes
 * and a longer polynomial; 0.53 ulp.) */
#define ST_VLOG_SPECIAL(x) (st_asu64(x) - 0x0010000000000000ULL >= 0x7fe0000000000000ULL)
static inline double st_vlog(double x)
{
    const uint64_t off = 0x3fe6000000000000ULL; /* 0.6875 */
    const double ln2_hi = 0x1.62e42fefa3800p-1, ln2_lo = 0x1.ef35793c76730p-45;
    uint64_t ix = st_asu64(x);
    uint64_t tmp = ix - off;
    uint64_t i = (tmp >> (52 - ST_LOG_BITS)) % ST_LOG_N;
    int64_t k = (int64_t)tmp >> 52;
    double z = st_asf64(ix - (tmp & 0xfff0000000000000ULL));
    double invc = st_log_table[i].invc;
    /* r = z invc - 1 exactly, as rh + rl: p - 1 is exact (p in [0.5, 2]) */
    double pr = z * invc;
    double pl = __builtin_fma(z, invc, -pr);
    double pm = pr - 1.0;
    double rh = pm + pl;
    double rl = pl - (rh - pm);
    double kd = (double)k;
    double w = kd * ln2_hi + st_log_table[i].logc;
    double hi = w + rh;
    double lo = (w - hi) + rh;
    lo += kd * ln2_lo + st_log_table[i].logc_lo + rl;
    /* log1p(r) - r to r^8 (|r| < 2^-8: the r^9 term is < 2^-64 of r) */
    double r = rh, r2 = r * r;
    double q = -0.5 + r * (1.0 / 3) + r2 * (-0.25 + r * 0.2) +
               r2 * r2 * (-1.0 / 6 + r * (1.0 / 7) + r2 * (-0.125));
    return hi + (lo + r2 * q - rh * rl);
}

/* ---- float32 exp and log, in float: 16 lanes per AVX-512 vector ----
 * (The float64 kernels on widened values are correctly rounded but run 8
 * lanes with table gathers: slower than numpy's float32 loops.)  Without
 * tables: exp by x = k ln2 + r, |r| <= ln2/2, and Taylor to r^7 (the r^8
 * term is < 2^-28 of the result); log by x = 2^k m, m in [sqrt(1/2),
 * sqrt(2)), log(m) = log1p(f) with s = f / (2 + f) and the atanh series
 * of s to s^9 (next term < 2^-28).  Both measure < 1 ulp (exp: 0.939 over
 * every float of |x| < 160), below numpy's 2.3 (exp) and 3.3 (log).
 * exp runs here at level 3 only: level 4 runs vmath512.h's st_vexpf16
 * (a 16-entry table of 2^(j/16) read by permutes, a degree-3 polynomial,
 * vscalefps: 13 operations for 16 values against these 20, 0.58 ulp),
 * whose table a scalar form would gather, slower than this kernel. */
static inline uint32_t st_asu32(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    return u;
}
static inline float st_asf32(uint32_t u)
{
    float x;
    memcpy(&x, &u, 4);
    return x;
}

/* |x| < 160: |k| <= 231, so 2^k is two normal floats 2^(k/2) 2^(k - k/2)
 * and the result overflows to inf or rounds into the subnormals or to 0
 * like the true value (the first product is exact, the second rounds
 * once).  The whole float range of exp, so the benchmark's and most
 * users' inputs never leave the vector path. */
#define ST_VEXPF_SPECIAL(x) (!(__builtin_fabsf(x) < 160.0f))
static inline float st_vexpf(float x)
{
    const float inv_ln2 = 0x1.715476p0f, shift = 0x1.8p23f;
    const float ln2_hi = 0x1.62e4p-1f, ln2_lo = 0x1.7f7d1ep-20f; /* k * ln2_hi exact */
    /* its 1 ulp needs the reduction and the polynomial fused (one rounding
     * per step): written as fmaf, not left to the optimiser's contraction,
     * which -O1 (the sanitizer build) does not do (1.22 ulp unfused).  Only
     * levels 3 and 4 (hardware FMA) run this kernel. */
    float kd = __builtin_fmaf(x, inv_ln2, shift);
    int32_t k = (int32_t)(st_asu32(kd) - st_asu32(shift)); /* the integer nearest x / ln2 */
    kd -= shift;
    float r = __builtin_fmaf(-kd, ln2_hi, x);
    r = __builtin_fmaf(-kd, ln2_lo, r);
    float p = __builtin_fmaf(
        r, __builtin_fmaf(r, __builtin_fmaf(r, 1.0f / 5040, 1.0f / 720), 1.0f / 120), 1.0f / 24);
    float e = __builtin_fmaf(
        r, __builtin_fmaf(r, __builtin_fmaf(r, __builtin_fmaf(r, p, 1.0f / 6), 0.5f), 1.0f), 1.0f);
    int32_t k1 = k / 2, k2 = k - k1;
    float s1 = st_asf32((uint32_t)(k1 + 127) << 23), s2 = st_asf32((uint32_t)(k2 + 127) << 23);
    return e * s1 * s2;
}

/* x a positive normal finite float */
#define ST_VLOGF_SPECIAL(x) (st_asu32(x) - 0x00800000u >= 0x7f000000u)
static inline float st_vlogf(float x)
{
    const float ln2_hi = 0x1.62e3p-1f, ln2_lo = 0x1.2fefa4p-17f; /* k * ln2_hi exact */
    uint32_t ix = st_asu32(x);
    int32_t k = (int32_t)(ix - 0x3f3504f3u) >> 23; /* m = x / 2^k in [sqrt(1/2), sqrt(2)) */
    float f = st_asf32(ix - ((uint32_t)k << 23)) - 1.0f;
    float s = f / (2.0f + f), z = s * s, hf = 0.5f * f * f;
    float rz = z * (2.0f / 3 + z * (2.0f / 5 + z * (2.0f / 7 + z * (2.0f / 9))));
    float logm = f - (hf - s * (hf + rz));
    float kf = (float)k;
    return kf * ln2_hi + (logm + kf * ln2_lo);
}

/* ---- sin and cos of a float32 argument, in double, |x| < 2^18 ----
 * One polynomial for both, on |r| <= pi/2: x = m pi/2 + r with m even for
 * sin (m/2 the integer nearest x/pi) and odd for cos (m = 2 n + 1, n the
 * integer nearest x/pi - 1/2), by a three-part pi/2 (m pi2_1 and m pi2_2
 * exact for |m| < 2^20); sin(x) = (-1)^(m/2) sin(r), cos(x) = (-1)^(n+1)
 * sin(r), and sin(r) by Taylor to r^13 (the next term is below 2^-30 of
 * the result near pi/2, below its float ulp by far).  One polynomial
 * rather than sin's and cos's both, selected by quadrant: a quarter fewer
 * operations.  About 0.5 ulp of the float: one rounding at the end. */
#define ST_VTRIG_SPECIAL(x) (!(__builtin_fabs(x) < 0x1p18))
/* returns sin(x) (cos_ = 0) or cos(x) (cos_ = 1) */
static inline double st_vsincos(double x, int cos_)
{
    const double inv_pi = 0x1.45f306dc9c883p-2, shift = 0x1.8p52;
    /* pi/2 in three parts of 33, 33 and 53 bits: m pi2_1 and m pi2_2 exact for |m| < 2^20 */
    const double pi2_1 = 0x1.921fb54400000p0, pi2_2 = 0x1.0b4611a600000p-34,
                 pi2_3 = 0x1.3198a2e037073p-69;
    double kd = (x * inv_pi - 0.5 * cos_) + shift;    /* n in its low bits */
    const uint64_t q = st_asu64(kd) + (uint64_t)cos_; /* odd: negate */
    kd -= shift;
    const double m = kd + kd + cos_;
    double r = x - m * pi2_1;
    r = r - m * pi2_2;
    r = r - m * pi2_3;
    const double r2 = r * r;
    /* r (1 + ...) rather than r + r^3 (...): keeps sin(-0) = -0 (the
     * rounding of 1 + ... is 2^-53, far below float32's ulp) */
    const double v =
        r * (1.0 +
             r2 * (-1.0 / 6 +
                   r2 * (1.0 / 120 + r2 * (-1.0 / 5040 +
                                           r2 * (1.0 / 362880 + r2 * (-1.0 / 39916800 +
                                                                      r2 * (1.0 / 6227020800)))))));
    return st_asf64(st_asu64(v) ^ (q << 63));
}

/* ---- sin and cos of a float64 argument, |x| < 2^20 ----
 * x = k pi/2 + r: k*pi/2 in four parts (fdlibm's pio2_1, _2, _3 of 33 bits
 * and the rest), so k*part is exact for |k| < 2^20 and the first difference
 * is exact (Sterbenz); the next two are exact sums (2Sum) and r is carried
 * as a double pair r + rlo, good to about 2^-100 relative even where x
 * nearly cancels a multiple of pi/2.  sin and cos of r + rlo on
 * |r| <= pi/4 are fdlibm's kernels (minimax polynomials of degree 13 and 14,
 * errors below 2^-58, with the rlo terms), whose error, about 0.5 ulp plus
 * a little, is that of the final rounding.  The sign of x is taken off
 * first and put back last (sin is odd, cos even), so sin(-0) = -0.  Both
 * kernels are computed and one chosen by the quadrant: no branch, so the
 * loop vectorises.  The reduction needs k pi2_1 exact: |x| < 2^20. */
#define ST_VTRIG64_SPECIAL(x) (!(__builtin_fabs(x) < 0x1p20))
static inline double st_vsincos64(double x, int cos_)
{
    const double two_over_pi = 0x1.45f306dc9c883p-1, shift = 0x1.8p52;
    const double pio2_1 = 1.57079632673412561417e+00, pio2_2 = 6.07710050630396597660e-11,
                 pio2_3 = 2.02226624871116645580e-21, pio2_3t = 8.47842766036889956997e-32;
    const double S1 = -1.66666666666666324348e-01, S2 = 8.33333333332248946124e-03,
                 S3 = -1.98412698298579493134e-04, S4 = 2.75573137070700676789e-06,
                 S5 = -2.50507602534068634195e-08, S6 = 1.58969099521155010221e-10;
    const double C1 = 4.16666666666666019037e-02, C2 = -1.38888888888741095749e-03,
                 C3 = 2.48015872894767294178e-05, C4 = -2.75573143513906633035e-07,
                 C5 = 2.08757232129817482790e-09, C6 = -1.13596475577881948265e-11;
    const uint64_t sign = st_asu64(x) & 0x8000000000000000ULL;
    const double ax = __builtin_fabs(x);
    double kd = ax * two_over_pi + shift;
    const uint64_t q = st_asu64(kd) + (uint64_t)cos_; /* cos(x) = sin(x + pi/2) */
    kd -= shift;
    /* r = ax - k pi/2 as t + e: a exact, then two exact sums */
    const double a = ax - kd * pio2_1;
    const double b = kd * pio2_2, c = kd * pio2_3;
    double t = a - b, bb = t - a;
    double e = (a - (t - bb)) + (-b - bb);
    double u = t - c, cc = u - t;
    e += (t - (u - cc)) + (-c - cc);
    e -= kd * pio2_3t;
    const double r = u + e, rlo = e - (r - u);
    /* sin(r + rlo) and cos(r + rlo): fdlibm's __kernel_sin, __kernel_cos */
    const double z = r * r, w = z * z, v = z * r;
    const double ps = S2 + z * (S3 + z * S4) + z * w * (S5 + z * S6);
    const double sn = r - ((z * (0.5 * rlo - v * ps) - rlo) - v * S1);
    const double pc = z * (C1 + z * (C2 + z * C3)) + w * w * (C4 + z * (C5 + z * C6));
    const double hz = 0.5 * z, w1 = 1.0 - hz;
    const double cs = w1 + (((1.0 - w1) - hz) + (z * pc - r * rlo));
    const double res = (q & 1) ? cs : sn;
    /* quadrants 2 and 3 negate; sin takes x's sign, cos does not */
    const uint64_t flip = ((q & 2) << 62) ^ (cos_ ? 0 : sign);
    return st_asf64(st_asu64(res) ^ flip);
}

/* ---- tanh of a float64 argument ----
 * tanh(a) = E / (E + 2) with E = expm1(2a), a = |x|, all in double pairs:
 * 2a = k ln2/N + r + rlo (r exact, rlo = -k ln2_lo/N), expm1(r + rlo) by
 * Taylor to r^7 (|r| <= ln2/2N: the next term is below 2^-80), E =
 * 2^(k/N) (1 + p) - 1 with 2^(k/N) from the exp table as a pair and the
 * products that matter exact (FMA); then the quotient, corrected by its
 * exact residual.  About 0.5 ulp: one rounding at the end.  From 22 on
 * tanh is +-1 to the last bit (infinities too); only NaN goes to libm.
 * (Level 4 runs vmath512.h's st_vtanh8: a 16-entry table read by permutes
 * and a reciprocal refined by Newton instead of the division; 0.51 ulp.) */
#define ST_VTANH_SPECIAL(x) ((x) != (x))
static inline double st_2sum_err(double a, double b, double s)
{
    double bb = s - a;
    return (a - (s - bb)) + (b - bb);
}
static inline double st_vtanh(double x)
{
    const double inv_ln2_n = 0x1.71547652b82fep0 * ST_EXP_N;
    const double shift = 0x1.8p52;
    const double ln2_hi_n = 0x1.62e42fefa0000p-1 / ST_EXP_N;
    const double ln2_lo_n = 0x1.cf79abc9e3b3ap-40 / ST_EXP_N;
    const uint64_t sign = st_asu64(x) & 0x8000000000000000ULL;
    const double u = 2.0 * __builtin_fabs(x);
    double kd = u * inv_ln2_n + shift;
    const uint64_t ki = st_asu64(kd);
    kd -= shift;
    const double r = u - kd * ln2_hi_n; /* exact */
    const double rlo = -kd * ln2_lo_n;
    const uint64_t j = ki % ST_EXP_N;
    const double s_hi = st_asf64(st_exp_sbits[j] + (ki << (52 - ST_EXP_BITS)));
    const double s_lo = s_hi * st_exp_tail[j];
    /* expm1(r + rlo) = r + p_lo */
    const double r2 = r * r;
    const double poly =
        0.5 + r * (1.0 / 6 + r * (1.0 / 24 + r * (1.0 / 120 + r * (1.0 / 720 + r * (1.0 / 5040)))));
    const double p_lo = rlo * (1.0 + r) + r2 * poly;
    /* E = (s_hi - 1) + s_hi r + (s_hi p_lo + s_lo (1 + r + p_lo)) */
    const double a_hi = s_hi - 1.0, a_lo = (s_hi - a_hi) - 1.0; /* s_hi >= 1 */
    const double b_hi = s_hi * r, b_lo = __builtin_fma(s_hi, r, -b_hi);
    const double c = s_hi * p_lo + s_lo * ((1.0 + r) + p_lo);
    double e_hi = a_hi + b_hi;
    double e_lo = st_2sum_err(a_hi, b_hi, e_hi) + (a_lo + b_lo + c);
    const double e_n = e_hi + e_lo;
    e_lo = e_lo - (e_n - e_hi);
    e_hi = e_n;
    /* D = E + 2, then E / D with the residual */
    const double d_hi = e_hi + 2.0;
    const double d_lo = st_2sum_err(e_hi, 2.0, d_hi) + e_lo;
    const double inv = 1.0 / d_hi;
    const double q = e_hi * inv;
    const double res = __builtin_fma(-q, d_hi, e_hi) + (e_lo - q * d_lo);
    const double t = u < 44.0 ? __builtin_fma(res, inv, q) : 1.0;
    return st_asf64(st_asu64(t) | sign);
}

/* ---- pow(x, y), float64: exp(y log x) with log x as a double pair ----
 * log x as st_vlog computes it, kept as hi + lo (about 2^-68 absolute:
 * st_vlog's parts before their final sum); y log x as a pair by an exact
 * product (FMA); exp of the pair: st_vexp's reduction of the high part,
 * the low part added to r (exp(r + lo) = exp(r) (1 + lo) to 2^-100).  The
 * error of y log x, |y| 2^-68 with |y log x| < 704, stays below 0.1 ulp of
 * the result, which the final rounding of exp dominates.  The fast path is
 * x positive, normal and finite, y finite and |y log x| < 704: the other
 * lanes (zero, negative or subnormal bases, infinities, NaN, overflow and
 * underflow) go to libm's scalar pow, which gives every special value.
 * (Level 4 takes the exp of the pair from vmath512.h's st_vexp_pair8.) */
#define ST_VPOW_SPECIAL(x, y, z)                                                                   \
    (ST_VLOG_SPECIAL(x) | !(__builtin_fabs(y) < 0x1p1000) | !(__builtin_fabs(z) < 704.0))
static inline double st_vlog_pair(double x, double *lo_out)
{
    const uint64_t off = 0x3fe6000000000000ULL; /* 0.6875 */
    const double ln2_hi = 0x1.62e42fefa3800p-1, ln2_lo = 0x1.ef35793c76730p-45;
    uint64_t ix = st_asu64(x);
    uint64_t tmp = ix - off;
    uint64_t i = (tmp >> (52 - ST_LOG_BITS)) % ST_LOG_N;
    int64_t k = (int64_t)tmp >> 52;
    double z = st_asf64(ix - (tmp & 0xfff0000000000000ULL));
    double invc = st_log_table[i].invc;
    double pr = z * invc;
    double pl = __builtin_fma(z, invc, -pr);
    double pm = pr - 1.0;
    double rh = pm + pl;
    double rl = pl - (rh - pm);
    double kd = (double)k;
    double w = kd * ln2_hi + st_log_table[i].logc;
    double hi = w + rh;
    double lo = (w - hi) + rh;
    lo += kd * ln2_lo + st_log_table[i].logc_lo + rl;
    double r = rh, r2 = r * r;
    double q = -0.5 + r * (1.0 / 3) + r2 * (-0.25 + r * 0.2) +
               r2 * r2 * (-1.0 / 6 + r * (1.0 / 7) + r2 * (-0.125));
    lo += r2 * q - rh * rl;
    double h = hi + lo;
    *lo_out = lo - (h - hi);
    return h;
}
/* exp(x + xlo), |x| < 704, |xlo| <= ulp(x) */
static inline double st_vexp_pair(double x, double xlo)
{
    const double inv_ln2_n = 0x1.71547652b82fep0 * ST_EXP_N;
    const double shift = 0x1.8p52;
    const double ln2_hi_n = 0x1.62e42fefa0000p-1 / ST_EXP_N;
    const double ln2_lo_n = 0x1.cf79abc9e3b3ap-40 / ST_EXP_N;
    double kd = x * inv_ln2_n + shift;
    uint64_t ki = st_asu64(kd);
    kd -= shift;
    double r = (x - kd * ln2_hi_n) - kd * ln2_lo_n + xlo;
    uint64_t j = ki % ST_EXP_N;
    double scale = st_asf64(st_exp_sbits[j] + (ki << (52 - ST_EXP_BITS)));
    double r2 = r * r;
    double p = r + r2 * (0.5 + r * (1.0 / 6) + r2 * (1.0 / 24 + r * (1.0 / 120)));
    double tmp = st_exp_tail[j] + p;
    return scale + scale * tmp;
}
/* y log x as hi + lo; the caller tests ST_VPOW_SPECIAL(x, y, hi) */
static inline double st_vpow_arg(double x, double y, double *lo)
{
    double llo, lhi = st_vlog_pair(x, &llo);
    double hi = y * lhi;
    *lo = __builtin_fma(y, lhi, -hi) + y * llo;
    return hi;
}

/* ---- tanh of a float32 argument, in float: 16 lanes per AVX-512 vector ----
 * (Level 4 runs vmath512.h's st_vtanhf16, the same operations with the
 * table read by permutes.)
 * a = |x| < 0.5625: tanh(a) = a + a^3 P(a^2), P a degree-5 fit of
 * (tanh a - a) / a^3 (2^-32 relative), the correction a^3 P (at most an
 * eighth of the result) added by one FMA.  0.5625 <= a < 9: a table
 * (vmath_tables.h) of 20 intervals, 4 per binade picked by the float's
 * exponent and top two mantissa bits; on each, tanh(c + x) = hi + lo +
 * x Q(x) with tanh(c) as a float pair and Q of degree 7, so the sum ends
 * in one rounding of hi plus a correction (no division, no exp: the
 * formula 1 - 2/(1 + e^2a) costs three times as much for the same
 * accuracy).  Every float measured: at most 0.763 ulp (the polynomial part,
 * near 0.536; the table's 0.586; numpy's: 1.37).  From 9
 * on tanh is +-1 in float (infinities too); only NaN goes to libm's tanhf. */
#define ST_VTANHF_SPECIAL(x) ((x) != (x))
static inline float st_vtanhf(float x)
{
    const uint32_t sign = st_asu32(x) & 0x80000000u;
    const float a = __builtin_fabsf(x);
    /* small: a + a^3 P(a^2) */
    const float z = a * a;
    const float P = -0x1.555556p-2f +
                    z * (0x1.111102p-3f +
                         z * (-0x1.ba12f6p-5f +
                              z * (0x1.655fd8p-6f + z * (-0x1.168feep-7f + z * 0x1.465a76p-9f))));
    const float small = __builtin_fmaf(a * z, P, a);
    /* large: the interval's polynomial; the index is clamped so that every
     * lane reads the table (lanes outside [0.5, 16) are not chosen below) */
    int32_t i = (int32_t)(st_asu32(a) >> 21) - (int32_t)(0x3f000000u >> 21);
    i = i < 0 ? 0 : i > 19 ? 19 : i;
#define ST_TQ(k) st_tanhf_table[i].q[k] /* indexed off the table: GCC gathers it */
    const float xr = a - st_tanhf_table[i].c;
    const float Q =
        ST_TQ(0) +
        xr * (ST_TQ(1) +
              xr * (ST_TQ(2) +
                    xr * (ST_TQ(3) +
                          xr * (ST_TQ(4) + xr * (ST_TQ(5) + xr * (ST_TQ(6) + xr * ST_TQ(7)))))));
#undef ST_TQ
    const float large = st_tanhf_table[i].hi + __builtin_fmaf(xr, Q, st_tanhf_table[i].lo);
    const float t = a < 0.5625f ? small : a < 9.0f ? large : 1.0f;
    return st_asf32(st_asu32(t) | sign);
}
/* ---- pow(x, y), float32: exp2(y log2 x), all in double ----
 * log2 x: x = 2^k z, z in [0.69921875, 1.3984375) (the float bits from
 * 0x3f330000), cut by its top mantissa bits into 16 subintervals; z c ~ 1
 * for the table's c of z's (c = 1 in the one around 1, where r = z - 1 is
 * exact: log2 x is then accurate relative to itself, however small), and
 * log2 x = k - log2 c + log2(1 + r), r = z c - 1, |r| < 0.032, by Taylor to
 * r^7 (the next term is below 2^-42).  t = y log2 x rounds once; exp2 of
 * it by a table of 2^(j/16) and Taylor of 2^r - 1 to r^5 (|r| <= 1/32: the
 * next term is below 2^-47).  The double result is within
 * about 2^-40 of pow, so the float's one rounding makes it 0.5 ulp and a
 * hair.  The fast path: x positive, normal and finite, y finite, |t| < 126
 * (the result a normal float); libm's powf gives every other lane. */
#define ST_POWF_LOG_BITS 4
extern double st_powf_invc[1 << ST_POWF_LOG_BITS], st_powf_logc[1 << ST_POWF_LOG_BITS];
#define ST_VPOWF_SPECIAL(x, y, t)                                                                  \
    (ST_VLOGF_SPECIAL(x) | !(__builtin_fabsf(y) < __builtin_inff()) | !(__builtin_fabs(t) < 126.0))
static inline double st_vpowf_arg(float x, float y, double *lo)
{
    const double L1 = 0x1.71547652b82fep0; /* 1 / ln2; Li = (-1)^(i+1) / (i ln2) */
    const uint32_t ix = st_asu32(x), tmp = ix - 0x3f330000u;
    const uint64_t i = (uint64_t)((tmp >> (23 - ST_POWF_LOG_BITS)) % (1 << ST_POWF_LOG_BITS));
    const uint32_t top = tmp & 0xff800000u;
    const double k = (double)((int32_t)top >> 23);
    const double z = (double)st_asf32(ix - top);
    const double r = z * st_powf_invc[i] - 1.0;
    const double p =
        L1 +
        r * (-L1 / 2 + r * (L1 / 3 + r * (-L1 / 4 + r * (L1 / 5 + r * (-L1 / 6 + r * (L1 / 7))))));
    *lo = 0.0;
    return (double)y * ((k + st_powf_logc[i]) + r * p);
}
/* 2^t, |t| < 126 (lo unused: st_vpowf_arg's): t = k/16 + r, |r| <= 1/32,
 * 2^(k/16) from a table of 16 (its bits minus j << 48, j = k mod 16, so
 * that adding k << 48 puts k / 16 into the exponent: AVX-512 reads the
 * table with one permute), 2^r - 1 by Taylor to r^5 (next term < 2^-47) */
#define ST_POWF_EXP2_BITS 4
extern uint64_t st_powf_exp2[1 << ST_POWF_EXP2_BITS];
static inline double st_vexp2f_lo(double t, double lo)
{
    (void)lo;
    const double shift = 0x1.8p52 / (1 << ST_POWF_EXP2_BITS); /* adding it rounds t to k/16 */
    const double C1 = 0x1.62e42fefa39efp-1, C2 = 0x1.ebfbdff82c58fp-3, C3 = 0x1.c6b08d704a0c0p-5,
                 C4 = 0x1.3b2ab6fba4e77p-7, C5 = 0x1.5d87fe78a6731p-10; /* ln2^i / i! */
    double kd = t + shift;
    const uint64_t ki = st_asu64(kd);
    kd -= shift;
    const double r = t - kd; /* exact */
    const double scale =
        st_asf64(st_powf_exp2[ki % (1 << ST_POWF_EXP2_BITS)] + (ki << (52 - ST_POWF_EXP2_BITS)));
    const double p = r * (C1 + r * (C2 + r * (C3 + r * (C4 + r * C5))));
    return scale + scale * p;
}
#endif
