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
extern uint64_t st_exp_sbits[ST_EXP_N];   /* bits of 2^(j/N) minus j << (52 - BITS) */
extern double st_exp_tail[ST_EXP_N];      /* (2^(j/N) - that double) / that double */
/* invc ~ 1 / (center of z's subinterval), logc + logc_lo = -log(invc) */
#include "vmath_tables.h"

static inline uint64_t st_asu64(double x) { uint64_t u; memcpy(&u, &x, 8); return u; }
static inline double st_asf64(uint64_t u) { double x; memcpy(&x, &u, 8); return x; }

/* ---- exp, |x| < 704 ---- */
#define ST_VEXP_SPECIAL(x) (!(__builtin_fabs(x) < 704.0))
static inline double st_vexp(double x)
{
    const double inv_ln2_n = 0x1.71547652b82fep0 * ST_EXP_N;
    const double shift = 0x1.8p52;   /* adding it rounds to an integer in the low bits */
    const double ln2_hi_n = 0x1.62e42fefa0000p-1 / ST_EXP_N;   /* trailing zeros: k*hi exact */
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

/* ---- log, x a positive normal finite double ---- */
#define ST_VLOG_SPECIAL(x) (st_asu64(x) - 0x0010000000000000ULL >= 0x7fe0000000000000ULL)
static inline double st_vlog(double x)
{
    const uint64_t off = 0x3fe6000000000000ULL;   /* 0.6875 */
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
    double q = -0.5 + r * (1.0 / 3) + r2 * (-0.25 + r * 0.2)
               + r2 * r2 * (-1.0 / 6 + r * (1.0 / 7) + r2 * (-0.125));
    return hi + (lo + r2 * q - rh * rl);
}

/* ---- float32 exp and log, in float: 16 lanes per AVX-512 vector ----
 * (The float64 kernels on widened values are correctly rounded but run 8
 * lanes with table gathers: slower than numpy's float32 loops.)  Without
 * tables: exp by x = k ln2 + r, |r| <= ln2/2, and Taylor to r^7 (the r^8
 * term is < 2^-28 of the result); log by x = 2^k m, m in [sqrt(1/2),
 * sqrt(2)), log(m) = log1p(f) with s = f / (2 + f) and the atanh series
 * of s to s^9 (next term < 2^-28).  Both measure < 1 ulp, below numpy's
 * 2.3 (exp) and 3.3 (log). */
static inline uint32_t st_asu32(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }
static inline float st_asf32(uint32_t u) { float x; memcpy(&x, &u, 4); return x; }

/* |x| < 160: |k| <= 231, so 2^k is two normal floats 2^(k/2) 2^(k - k/2)
 * and the result overflows to inf or rounds into the subnormals or to 0
 * like the true value (the first product is exact, the second rounds
 * once).  The whole float range of exp, so the benchmark's and most
 * users' inputs never leave the vector path. */
#define ST_VEXPF_SPECIAL(x) (!(__builtin_fabsf(x) < 160.0f))
static inline float st_vexpf(float x)
{
    const float inv_ln2 = 0x1.715476p0f, shift = 0x1.8p23f;
    const float ln2_hi = 0x1.62e4p-1f, ln2_lo = 0x1.7f7d1ep-20f;   /* k * ln2_hi exact */
    /* its 1 ulp needs the reduction and the polynomial fused (one rounding
     * per step): written as fmaf, not left to the optimiser's contraction,
     * which -O1 (the sanitizer build) does not do (1.22 ulp unfused).  Only
     * levels 3 and 4 (hardware FMA) run this kernel. */
    float kd = __builtin_fmaf(x, inv_ln2, shift);
    int32_t k = (int32_t)(st_asu32(kd) - st_asu32(shift));   /* the integer nearest x / ln2 */
    kd -= shift;
    float r = __builtin_fmaf(-kd, ln2_hi, x);
    r = __builtin_fmaf(-kd, ln2_lo, r);
    float p = __builtin_fmaf(r, __builtin_fmaf(r, __builtin_fmaf(r, 1.0f / 5040, 1.0f / 720),
                                               1.0f / 120), 1.0f / 24);
    float e = __builtin_fmaf(r, __builtin_fmaf(r, __builtin_fmaf(r, __builtin_fmaf(r, p, 1.0f / 6),
                                                                 0.5f), 1.0f), 1.0f);
    int32_t k1 = k / 2, k2 = k - k1;
    float s1 = st_asf32((uint32_t)(k1 + 127) << 23), s2 = st_asf32((uint32_t)(k2 + 127) << 23);
    return e * s1 * s2;
}

/* x a positive normal finite float */
#define ST_VLOGF_SPECIAL(x) (st_asu32(x) - 0x00800000u >= 0x7f000000u)
static inline float st_vlogf(float x)
{
    const float ln2_hi = 0x1.62e3p-1f, ln2_lo = 0x1.2fefa4p-17f;   /* k * ln2_hi exact */
    uint32_t ix = st_asu32(x);
    int32_t k = (int32_t)(ix - 0x3f3504f3u) >> 23;   /* m = x / 2^k in [sqrt(1/2), sqrt(2)) */
    float f = st_asf32(ix - ((uint32_t)k << 23)) - 1.0f;
    float s = f / (2.0f + f), z = s * s, hf = 0.5f * f * f;
    float rz = z * (2.0f / 3 + z * (2.0f / 5 + z * (2.0f / 7 + z * (2.0f / 9))));
    float logm = f - (hf - s * (hf + rz));
    float kf = (float)k;
    return kf * ln2_hi + (logm + kf * ln2_lo);
}

/* ---- sin and cos of a float32 argument, in double, |x| < 2^18 ---- */
#define ST_VTRIG_SPECIAL(x) (!(__builtin_fabs(x) < 0x1p18))
/* returns sin(x) (cos_ = 0) or cos(x) (cos_ = 1) */
static inline double st_vsincos(double x, int cos_)
{
    const double two_over_pi = 0x1.45f306dc9c883p-1, shift = 0x1.8p52;
    /* pi/2 in three parts of 33, 33 and 53 bits: k pi2_1 and k pi2_2 exact for |k| < 2^20 */
    const double pi2_1 = 0x1.921fb54400000p0, pi2_2 = 0x1.0b4611a600000p-34,
                 pi2_3 = 0x1.3198a2e037073p-69;
    double kd = x * two_over_pi + shift;
    uint64_t q = st_asu64(kd) + (uint64_t)cos_;   /* cos(x) = sin(x + pi/2) */
    kd -= shift;
    double r = x - kd * pi2_1;
    r = r - kd * pi2_2;
    r = r - kd * pi2_3;
    double r2 = r * r;
    /* r (1 + ...) rather than r + r^3 (...): keeps sin(-0) = -0 (the
     * rounding of 1 + ... is 2^-53, far below float32's ulp) */
    double s = r * (1.0 + r2 * (-1.0 / 6 + r2 * (1.0 / 120 + r2 * (-1.0 / 5040
                  + r2 * (1.0 / 362880 + r2 * (-1.0 / 39916800))))));
    double c = 1.0 + r2 * (-0.5 + r2 * (1.0 / 24 + r2 * (-1.0 / 720
                  + r2 * (1.0 / 40320 + r2 * (-1.0 / 3628800)))));
    double v = (q & 1) ? c : s;
    return (q & 2) ? -v : v;
}
#endif
