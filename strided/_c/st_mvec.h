/* st_mvec.h -- vector math from glibc's libmvec.
 *
 * Declaring a libm function `simd("notinbranch")` lets GCC vectorise a
 * loop that calls it into calls of libmvec's SSE/AVX/AVX2/AVX-512 variants
 * (max error 4 ulp, special values handled), so exp, sin, log, ... run
 * 4-16 lanes at a time.  glibc's own headers declare these only under
 * -ffast-math, which we do not use (it would break NaN and signed-zero
 * semantics); the declarations are repeated here instead.  Include after
 * <math.h>/<tgmath.h>.  The kernels are compiled per CPU level (ST_LEVELS,
 * st_internal.h), so each level's variant calls that ISA's libmvec
 * functions and one build serves any x86-64.  (Names are parenthesised so
 * that tgmath.h macros leave them.) */
#ifndef ST_MVEC_H
#define ST_MVEC_H
#if defined(__x86_64__) && defined(__GLIBC__) && !defined(ST_NO_MVEC)
#define ST_VEC __attribute__((__simd__("notinbranch")))
#define ST_VEC1(NAME)                                                                              \
    extern double(NAME)(double) ST_VEC;                                                            \
    extern float NAME##f(float) ST_VEC;
#define ST_VEC2(NAME)                                                                              \
    extern double(NAME)(double, double) ST_VEC;                                                    \
    extern float NAME##f(float, float) ST_VEC;
/* glibc 2.22 */
/* clang-format off */
ST_VEC1(exp) ST_VEC1(log) ST_VEC1(sin) ST_VEC1(cos) ST_VEC2(pow)
#if __GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35)
ST_VEC1(acos) ST_VEC1(acosh) ST_VEC1(asin) ST_VEC1(asinh) ST_VEC1(atan) ST_VEC1(atanh)
ST_VEC1(cosh) ST_VEC1(exp2) ST_VEC1(expm1) ST_VEC1(log10) ST_VEC1(log1p) ST_VEC1(log2)
ST_VEC1(sinh) ST_VEC1(tan) ST_VEC1(tanh) ST_VEC2(atan2) ST_VEC2(hypot)
#endif
/* clang-format on */
#undef ST_VEC1
#undef ST_VEC2
#endif
#endif
