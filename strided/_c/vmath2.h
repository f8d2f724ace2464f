/* vmath2.h -- hypot as plain branch-free C (vectorised by GCC inside the
 * per-level kernels, as vmath.h's).  (A sigmoid of this kind, 0.5 ulp,
 * was taken out again: the sanitizer build's -O1 lost its subnormal
 * results, and the cause was not found in time; it is in the history.)
 *
 *   hypot: scaled by a power of two, the sum of squares exact as a pair
 *       (FMA), its square root corrected once.
 *
 * Each result is a double pair rounded once: about 0.5 ulp.  The float32
 * forms run in double,
 * rounded once more to float.  As in vmath.h, ST_V*_SPECIAL(x) marks the
 * arguments the fast path does not serve and the caller recomputes them
 * with scalar libm, so special values are libm's.
 * Those arguments, and the tiny ones whose result is 1/2 to the last bit
 * (|x| < 2^-60), are replaced by a harmless value before the arithmetic:
 * their garbage or underflowing intermediates would otherwise be
 * subnormal, and every subnormal operation costs a microcode assist of
 * some hundred cycles.
 *
 * The same cores gave log2, log10, log1p, atanh (log(x + xl) as a pair),
 * expm1, sinh and cosh at 0.50-0.51 ulp (commit fabf4bb), and a
 * branch-free fdlibm atan with its reduced argument as a pair 0.59 ulp
 * (bd5c06f; log2 and log10 float64 from st_vlog_pair, 0.52 ulp: 0619c6a),
 * but none reached 1.5x numpy's speed on two threads (numpy runs AVX-512
 * SVML loops there): those stay on libmvec (docs/performance.md). */
#ifndef ST_VMATH2_H
#define ST_VMATH2_H
#include "vmath.h"

/* c ? a : b by masks: GCC does not if-convert every ?: of these kernels
 * (its loops then stay scalar) */
static inline double st_sel(int c, double a, double b)
{
    const uint64_t m = (uint64_t)0 - (uint64_t)(c != 0);
    return st_asf64((st_asu64(a) & m) | (st_asu64(b) & ~m));
}
#define ST_VTINY 0x1p-60

/* ---- hypot float64 ----
 * hi = max(|x|, |y|) normal and below 2^1023 (libm's hypot otherwise:
 * zeros, subnormals, infinities, NaN), both scaled by the power of two
 * that puts hi in [1, 2) (exact; lo may round to a subnormal only where
 * lo^2 is far below the result's ulp), s = hi^2 + lo^2 as a pair (FMA),
 * r = sqrt(s) corrected by (s - r^2) / 2r: about 0.5 ulp. */
#define ST_VHYPOT_SPECIAL(x, y)                                                                    \
    (!(__builtin_fabs(x) < 0x1p1023) | !(__builtin_fabs(y) < 0x1p1023) |                           \
     ((__builtin_fabs(x) < 0x1p-1022) & (__builtin_fabs(y) < 0x1p-1022)))
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
    const double sc = st_asf64((2046 - e) << 52); /* 2^(1023 - (e - 1023)) */
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
#define ST_VHYPOTF_SPECIAL(x, y)                                                                   \
    (!(__builtin_fabsf(x) <= 0x1.fffffep127f) | !(__builtin_fabsf(y) <= 0x1.fffffep127f))
static inline float st_vhypotf(float x, float y)
{
    const double a = (double)x, b = (double)y;
    return (float)__builtin_sqrt(a * a + b * b);
}
#endif
