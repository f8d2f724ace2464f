/* elementwise.c -- unary and binary arithmetic, comparisons, logical and
 * bitwise ops, where, clamp.
 *
 * Each op is one line in a per-group list: X(OP, RESULT, expression).
 * The expression reads x (unary) or a, b (binary) of type st_T, with st_R
 * the real type of a complex st_T; RESULT is SAME, BOOL (comparisons,
 * predicates) or REAL (abs/real/imag of complex).  The lists are expanded
 * twice: once into loop functions, once into the dispatch tables.
 *
 * Integer semantics (decided once):
 *   + - * wrap modulo 2^bits (computed in unsigned arithmetic, no UB);
 *   floor_divide and remainder follow Python (floor; remainder has the
 *   divisor's sign); a zero divisor raises ZeroDivisionError before any
 *   element is written; INT_MIN // -1 wraps to INT_MIN and its remainder
 *   is 0; pow with a negative integer exponent raises ValueError;
 *   shifts by >= the bit width (or negative) give 0 (right shift of a
 *   negative: -1), as numpy does. */
#include "st_internal.h"
#include <tgmath.h>
#include "st_mvec.h"
#include "vmath.h"
#include "vmath2.h"
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(ST_NO_CLONES)
#include "vmath512.h"
#define ST_VMATH512 1
#endif
#include "st_op_names.h"
#include "st_op_types.h"

/* ---- scalar helpers ---- */
#define DEF_FLOAT_HELPERS(T, SFX)                                                                  \
    static inline T st_floordiv_##SFX(T a, T b)                                                    \
    {                                                                                              \
        if (b == 0) return a / b;                                                                  \
        if (isnan(a) || isnan(b)) return a + b;                                                    \
        if (isinf(a) || isinf(b)) return floor(a / b); /* the array API's choice */                \
        T mod = fmod(a, b), div = (a - mod) / b;                                                   \
        if (mod != 0 && ((b < 0) != (mod < 0))) div -= 1;                                          \
        if (div == 0) return copysign((T)0, a / b);                                                \
        T fl = floor(div);                                                                         \
        return div - fl > (T)0.5 ? fl + 1 : fl;                                                    \
    }                                                                                              \
    static inline T st_mod_##SFX(T a, T b)                                                         \
    {                                                                                              \
        if (b == 0 || isinf(a) || isnan(a) || isnan(b)) return fmod(a, b);                         \
        if (isinf(b)) return a == 0 ? copysign((T)0, b) : (a < 0) == (b < 0) ? a : b;              \
        T mod = fmod(a, b);                                                                        \
        if (mod == 0) return copysign((T)0, b);                                                    \
        return ((b < 0) != (mod < 0)) ? mod + b : mod;                                             \
    }                                                                                              \
    static inline T st_logaddexp_##SFX(T a, T b)                                                   \
    {                                                                                              \
        if (a == b) return a + (T)0.69314718055994530942; /* covers +-inf */                       \
        T d = a - b;                                                                               \
        if (d > 0) return a + log1p(exp(-d));                                                      \
        if (d <= 0) return b + log1p(exp(d));                                                      \
        return d; /* NaN */                                                                        \
    }
DEF_FLOAT_HELPERS(float, f)
DEF_FLOAT_HELPERS(double, d)
/* complex a ** b: an exponent that is an exact integer, 0 < |n| < 100, by
 * repeated squaring (numpy's nc_pow), exact when the result is: (2j)**2 is
 * -4+0j, where cpow's exp(b log a) gives -4+4.9e-16j.  A zero or
 * non-finite base and every other exponent keep cpow (C99 Annex G). */
#define DEF_CPOW_HELPER(T, R, SFX)                                                                 \
    static inline T st_cpow_##SFX(T a, T b)                                                        \
    {                                                                                              \
        const R br = creal(b), ar = creal(a), ai = cimag(a);                                       \
        if (cimag(b) == 0 && br > -100 && br < 100 && br != 0 && br == (R)(int)br &&               \
            (ar != 0 || ai != 0) && isfinite(ar) && isfinite(ai)) {                                \
            int n = (int)br;                                                                       \
            unsigned m = (unsigned)(n < 0 ? -n : n);                                               \
            T r = 1, p = a;                                                                        \
            for (;;) {                                                                             \
                if (m & 1u) r *= p;                                                                \
                m >>= 1;                                                                           \
                if (!m) break;                                                                     \
                p *= p;                                                                            \
            }                                                                                      \
            return n < 0 ? (T)1 / r : r;                                                           \
        }                                                                                          \
        return cpow(a, b);                                                                         \
    }
DEF_CPOW_HELPER(float _Complex, float, f)
DEF_CPOW_HELPER(double _Complex, double, d)
#define ST_CPOW(a, b) _Generic((a), float _Complex: st_cpow_f, default: st_cpow_d)(a, b)

/* Torch7's remainder of floats (THTensor_(remainder)): a - b * floor(a / b),
 * NaN for b == 0.  As TH's C: for float the quotient is a float, floor()
 * and the rest are doubles; never contracted into a fused multiply-add
 * (which would not round b * q), so every result is TH's. */
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")
static __attribute__((noinline)) double st_th_rem_d(double a, double b)
{
    return b == 0 ? NAN : a - b * floor(a / b);
}
static __attribute__((noinline)) float st_th_rem_f(float a, float b)
{
    return b == 0 ? NAN : (float)((double)a - (double)b * floor((double)(a / b)));
}
#pragma GCC pop_options
#define ST_TH_REM(a, b) _Generic((a), float: st_th_rem_f, default: st_th_rem_d)(a, b)
#define ST_FLOORDIV(a, b) _Generic((a), float: st_floordiv_f, default: st_floordiv_d)(a, b)
#define ST_MOD(a, b) _Generic((a), float: st_mod_f, default: st_mod_d)(a, b)
#define ST_LOGADDEXP(a, b) _Generic((a), float: st_logaddexp_f, default: st_logaddexp_d)(a, b)

/* integers: the divisor is known nonzero (checked before the loop) */
#define INT_FLOORDIV(a, b)                                                                         \
    ((b) == -1 ? (st_T)(0 - (uint64_t)(a))                                                         \
               : (st_T)((a) / (b) - (((a) % (b) != 0) && (((a) < 0) != ((b) < 0)))))
#define INT_MOD(a, b)                                                                              \
    ((b) == -1 ? (st_T)0                                                                           \
               : (st_T)(((a) % (b) != 0 && (((a) % (b) < 0) != ((b) < 0))) ? (a) % (b) + (b)       \
                                                                           : (a) % (b)))
#define INT_TRUNCDIV(a, b) ((b) == -1 ? (st_T)(0 - (uint64_t)(a)) : (st_T)((a) / (b)))
#define INT_FMOD(a, b) ((b) == -1 ? (st_T)0 : (st_T)((a) % (b)))
#define UINT_FLOORDIV(a, b) ((st_T)((a) / (b)))
#define UINT_MOD(a, b) ((st_T)((a) % (b)))

static inline uint64_t st_ipow(uint64_t base, uint64_t e)
{
    uint64_t r = 1;
    while (e) {
        if (e & 1) r *= base;
        base *= base;
        e >>= 1;
    }
    return r;
}

#define WRAP(op, a, b) ((st_T)((uint64_t)(a)op(uint64_t)(b)))
#define BITS (8 * (int64_t)sizeof(st_T))
#define LSHIFT(a, b)                                                                               \
    (!ST_BELOW_ZERO(st_T, b) && (uint64_t)(b) < (uint64_t)BITS ? (st_T)((uint64_t)(a) << (b))      \
                                                               : (st_T)0)
#define RSHIFT_S(a, b)                                                                             \
    ((b) >= 0 && (int64_t)(b) < BITS ? (st_T)((a) >> (b)) : (st_T)((a) < 0 ? -1 : 0))
#define RSHIFT_U(a, b) ((uint64_t)(b) < (uint64_t)BITS ? (st_T)((a) >> (b)) : (st_T)0)
/* NaN-propagating max/min */
#define MAXP(a, b) (((a) > (b) || (a) != (a)) ? (a) : (b))
#define MINP(a, b) (((a) < (b) || (a) != (a)) ? (a) : (b))
#define SIGN_REAL(x) ((x) > 0 ? (st_T)1 : (x) < 0 ? (st_T) - 1 : (x) == 0 ? (st_T)0 : (x))

/* complex helpers */
static inline st_c128 st_cexpm1(st_c128 z)
{
    double a = creal(z), b = cimag(z);
    if (!isfinite(a) || !isfinite(b)) return cexp(z) - 1;
    if (a == 0 && b == 0) return CMPLX(0.0, b); /* the formula below gives -0 for -0+0j */
    double s = sin(b / 2);
    return CMPLX(expm1(a) * cos(b) - 2 * s * s, exp(a) * sin(b));
}
static inline st_c128 st_clog1p(st_c128 z)
{
    double a = creal(z), b = cimag(z);
    if (!isfinite(a) || !isfinite(b) || fabs(a) > 0.5 || fabs(b) > 0.5) return clog(1 + z);
    return CMPLX(0.5 * log1p(a * (2 + a) + b * b), atan2(b, 1 + a));
}
static inline st_c128 st_csign(st_c128 z)
{
    double m = cabs(z);
    if (m == 0) return 0;
    if (isnan(creal(z)) || isnan(cimag(z))) return CMPLX(NAN, NAN);
    return z / m;
}
#define CX(f, x) ((st_T)f((st_c128)(x)))
#define CROUND(x) ((st_T)CMPLX(nearbyint(creal(x)), nearbyint(cimag(x))))
/* tanh(+-inf + yj), y finite: C99 gives +-1 + 0*sin(2y)j, whose zero takes
 * sin(2y)'s sign; the array API wants the zero to take y's sign.  tan(z)
 * is -j*tanh(jz), so it gets the same fix with the parts swapped. */
#define CTANH(x)                                                                                   \
    (isinf(creal(x)) && isfinite(cimag(x))                                                         \
         ? (st_T)CMPLX(copysign(1.0, creal(x)), copysign(0.0, cimag(x)))                           \
         : ctanh(x))
#define CTAN(x)                                                                                    \
    (isinf(cimag(x)) && isfinite(creal(x))                                                         \
         ? (st_T)CMPLX(copysign(0.0, creal(x)), copysign(1.0, cimag(x)))                           \
         : ctan(x))

/* ---- unary op lists ---- */
/* clang-format off */
#define U_FLOAT(X)                                                                    \
    X(NEGATIVE, SAME, -x) X(POSITIVE, SAME, x) X(ABS, SAME, fabs(x))                  \
    X(SQRT, SAME, sqrt(x)) X(EXP, SAME, exp(x)) X(EXPM1, SAME, expm1(x))              \
    X(LOG, SAME, log(x)) X(LOG1P, SAME, log1p(x)) X(LOG2, SAME, log2(x))              \
    X(LOG10, SAME, log10(x)) X(SIN, SAME, sin(x)) X(COS, SAME, cos(x))                \
    X(TAN, SAME, tan(x)) X(ASIN, SAME, asin(x)) X(ACOS, SAME, acos(x))                \
    X(ATAN, SAME, atan(x)) X(SINH, SAME, sinh(x)) X(COSH, SAME, cosh(x))              \
    X(TANH, SAME, tanh(x)) X(ASINH, SAME, asinh(x)) X(ACOSH, SAME, acosh(x))          \
    X(ATANH, SAME, atanh(x)) X(FLOOR, SAME, floor(x)) X(CEIL, SAME, ceil(x))          \
    X(TRUNC, SAME, trunc(x)) X(ROUND, SAME, nearbyint(x)) X(SIGN, SAME, SIGN_REAL(x)) \
    X(SQUARE, SAME, x * x) X(RECIPROCAL, SAME, (st_T)1 / x)                           \
    X(ISNAN, BOOL, isnan(x)) X(ISINF, BOOL, isinf(x)) X(ISFINITE, BOOL, isfinite(x))  \
    X(SIGNBIT, BOOL, signbit(x)) X(REAL, SAME, x) X(IMAG, SAME, (st_T)0)              \
    X(CONJ, SAME, x) X(SIGMOID, SAME, (st_T)1 / ((st_T)1 + exp(-x)))                  \
    X(RSQRT, SAME, (st_T)1 / sqrt(x)) X(FRAC, SAME, x - trunc(x))
#define U_INT_COMMON(X)                                                               \
    X(POSITIVE, SAME, x) X(NEGATIVE, SAME, (st_T)(0 - (uint64_t)x))                   \
    X(FLOOR, SAME, x) X(CEIL, SAME, x) X(TRUNC, SAME, x) X(ROUND, SAME, x)            \
    X(SQUARE, SAME, WRAP(*, x, x)) X(BITWISE_INVERT, SAME, (st_T)~x)                  \
    X(ISNAN, BOOL, 0) X(ISINF, BOOL, 0) X(ISFINITE, BOOL, 1) X(REAL, SAME, x)         \
    X(IMAG, SAME, (st_T)0) X(CONJ, SAME, x) X(FRAC, SAME, (st_T)0)
#define U_SINT(X)                                                                     \
    U_INT_COMMON(X) X(ABS, SAME, x < 0 ? (st_T)(0 - (uint64_t)x) : x)                 \
    X(SIGN, SAME, SIGN_REAL(x)) X(SIGNBIT, BOOL, x < 0)
/* clang-format on */
#define U_UINT(X)                                                                                  \
    U_INT_COMMON(X)                                                                                \
    X(ABS, SAME, x) X(SIGN, SAME, (st_T)(x > 0)) X(SIGNBIT, BOOL, 0)
/* clang-format off */
/* bool kernels read their operands as bytes (BOOL_AS_BYTES below): TB(x)
 * is a byte's truth, so any nonzero byte is true */
#define TB(x) ((x) != 0)
#define U_BOOL(X)                                                                     \
    X(LOGICAL_NOT, SAME, !x) X(BITWISE_INVERT, SAME, !x) X(POSITIVE, SAME, TB(x))     \
    X(ISNAN, BOOL, 0) X(ISINF, BOOL, 0) X(ISFINITE, BOOL, 1)
#define U_COMPLEX(X)                                                                  \
    X(NEGATIVE, SAME, -x) X(POSITIVE, SAME, x)                                        \
    X(ISNAN, BOOL, isnan(creal(x)) || isnan(cimag(x)))                                \
    X(ISINF, BOOL, isinf(creal(x)) || isinf(cimag(x)))                                \
    X(ISFINITE, BOOL, isfinite(creal(x)) && isfinite(cimag(x)))                       \
    X(REAL, REAL, creal(x)) X(IMAG, REAL, cimag(x)) X(CONJ, SAME, conj(x))
/* clang-format on */
/* scalar at every level: libm's complex functions, Annex G products */
/* clang-format off */
#define U_COMPLEX_SCALAR(X)                                                           \
    X(ABS, REAL, cabs(x))                                                             \
    X(SQRT, SAME, csqrt(x)) X(EXP, SAME, cexp(x)) X(EXPM1, SAME, CX(st_cexpm1, x))    \
    X(LOG, SAME, clog(x)) X(LOG1P, SAME, CX(st_clog1p, x))                            \
    X(LOG2, SAME, clog(x) / (st_R)0.69314718055994530942)                             \
    X(LOG10, SAME, clog(x) / (st_R)2.30258509299404568402)                            \
    X(SIN, SAME, csin(x)) X(COS, SAME, ccos(x)) X(TAN, SAME, CTAN(x))                 \
    X(ASIN, SAME, casin(x)) X(ACOS, SAME, cacos(x)) X(ATAN, SAME, catan(x))           \
    X(SINH, SAME, csinh(x)) X(COSH, SAME, ccosh(x)) X(TANH, SAME, CTANH(x))           \
    X(ASINH, SAME, casinh(x)) X(ACOSH, SAME, cacosh(x)) X(ATANH, SAME, catanh(x))     \
    X(ROUND, SAME, CROUND(x)) X(SIGN, SAME, CX(st_csign, x)) X(SQUARE, SAME, x * x)   \
    X(RECIPROCAL, SAME, (st_T)1 / x)
/* clang-format on */

/* ---- binary op lists ---- */
/* clang-format off */
#define B_COMPARE(X)                                                                  \
    X(EQUAL, BOOL, a == b) X(NOT_EQUAL, BOOL, a != b) X(LESS, BOOL, a < b)            \
    X(LESS_EQUAL, BOOL, a <= b) X(GREATER, BOOL, a > b) X(GREATER_EQUAL, BOOL, a >= b)
#define B_FLOAT(X)                                                                    \
    B_COMPARE(X) X(ADD, SAME, a + b) X(SUBTRACT, SAME, a - b)                         \
    X(MULTIPLY, SAME, a * b) X(DIVIDE, SAME, a / b) X(TRUNC_DIVIDE, SAME, trunc(a / b)) \
    X(POW, SAME, pow(a, b)) X(ATAN2, SAME, atan2(a, b)) X(HYPOT, SAME, hypot(a, b))   \
    X(COPYSIGN, SAME, copysign(a, b)) X(LOGADDEXP, SAME, ST_LOGADDEXP(a, b))          \
    X(MAXIMUM, SAME, MAXP(a, b)) X(MINIMUM, SAME, MINP(a, b))
/* clang-format on */
/* scalar at every level (fmod, nextafter: libm calls with no vector form) */
/* clang-format off */
#define B_FLOAT_SCALAR(X)                                                             \
    X(FLOOR_DIVIDE, SAME, ST_FLOORDIV(a, b)) X(REMAINDER, SAME, ST_MOD(a, b))         \
    X(NEXTAFTER, SAME, nextafter(a, b)) X(FMOD, SAME, fmod(a, b))                     \
    X(TORCH7_REMAINDER, SAME, ST_TH_REM(a, b))
#define B_INT_COMMON(X)                                                               \
    B_COMPARE(X) X(ADD, SAME, WRAP(+, a, b)) X(SUBTRACT, SAME, WRAP(-, a, b))         \
    X(MULTIPLY, SAME, WRAP(*, a, b))                                                  \
    X(MAXIMUM, SAME, a > b ? a : b) X(MINIMUM, SAME, a < b ? a : b)                   \
    X(BITWISE_AND, SAME, a & b) X(BITWISE_OR, SAME, a | b) X(BITWISE_XOR, SAME, a ^ b) \
    X(LEFT_SHIFT, SAME, LSHIFT(a, b))
/* clang-format on */
#define B_SINT(X)                                                                                  \
    B_INT_COMMON(X)                                                                                \
    X(RIGHT_SHIFT, SAME, RSHIFT_S(a, b))
#define B_UINT(X)                                                                                  \
    B_INT_COMMON(X)                                                                                \
    X(RIGHT_SHIFT, SAME, RSHIFT_U(a, b))
/* scalar at every level: no vector integer division; pow's loop on the exponent */
/* clang-format off */
#define B_SINT_SCALAR(X)                                                              \
    X(FLOOR_DIVIDE, SAME, INT_FLOORDIV(a, b)) X(REMAINDER, SAME, INT_MOD(a, b))       \
    X(TRUNC_DIVIDE, SAME, INT_TRUNCDIV(a, b)) X(FMOD, SAME, INT_FMOD(a, b))           \
    X(TORCH7_REMAINDER, SAME, INT_MOD(a, b))                                          \
    X(POW, SAME, (st_T)st_ipow((uint64_t)a, (uint64_t)b))
#define B_UINT_SCALAR(X)                                                              \
    X(FLOOR_DIVIDE, SAME, UINT_FLOORDIV(a, b)) X(REMAINDER, SAME, UINT_MOD(a, b))     \
    X(TRUNC_DIVIDE, SAME, UINT_FLOORDIV(a, b)) X(FMOD, SAME, UINT_MOD(a, b))          \
    X(TORCH7_REMAINDER, SAME, UINT_MOD(a, b))                                         \
    X(POW, SAME, (st_T)st_ipow((uint64_t)a, (uint64_t)b))
#define B_BOOL(X)                                                                     \
    X(EQUAL, BOOL, TB(a) == TB(b)) X(NOT_EQUAL, BOOL, TB(a) != TB(b))                 \
    X(LESS, BOOL, TB(a) < TB(b)) X(LESS_EQUAL, BOOL, TB(a) <= TB(b))                  \
    X(GREATER, BOOL, TB(a) > TB(b)) X(GREATER_EQUAL, BOOL, TB(a) >= TB(b))            \
    X(LOGICAL_AND, SAME, TB(a) & TB(b)) X(LOGICAL_OR, SAME, TB(a) | TB(b))            \
    X(LOGICAL_XOR, SAME, TB(a) != TB(b)) X(BITWISE_AND, SAME, TB(a) & TB(b))          \
    X(BITWISE_OR, SAME, TB(a) | TB(b)) X(BITWISE_XOR, SAME, TB(a) != TB(b))           \
    X(MAXIMUM, SAME, TB(a) | TB(b)) X(MINIMUM, SAME, TB(a) & TB(b))
#define B_COMPLEX(X)                                                                  \
    X(EQUAL, BOOL, a == b) X(NOT_EQUAL, BOOL, a != b) X(ADD, SAME, a + b)             \
    X(SUBTRACT, SAME, a - b)
/* clang-format on */
/* scalar at every level: Annex G's products and quotients (a branch to
 * __muldc3 / __divdc3), cpow */
#define B_COMPLEX_SCALAR(X)                                                                        \
    X(MULTIPLY, SAME, a *b) X(DIVIDE, SAME, a / b) X(POW, SAME, ST_CPOW(a, b))

/* ---- the lists against the op table ----
 * Every kernel a list defines is of a type group that its op's row in
 * inventory.py names (st_op_types.h is generated from the rows), so a row
 * cannot claim fewer types than C has; tests/project/test_inventory.py checks that
 * it claims no more (st_unary_result / st_binary_result of each dtype). */
#define ST_IN_ROW(FAM, GROUP, OP)                                                                  \
    _Static_assert((ST_##FAM##_TYPES_##OP) & ST_GROUP_##GROUP,                                     \
                   "inventory.py: the row of " #OP " lacks the " #GROUP                            \
                   " group that elementwise.c has kernels for");
#define U_IN_BOOL(OP, KIND, EXPR) ST_IN_ROW(U, BOOL, OP)
#define U_IN_INT(OP, KIND, EXPR) ST_IN_ROW(U, INT, OP)
#define U_IN_FLOAT(OP, KIND, EXPR) ST_IN_ROW(U, FLOAT, OP)
#define U_IN_COMPLEX(OP, KIND, EXPR) ST_IN_ROW(U, COMPLEX, OP)
#define B_IN_BOOL(OP, KIND, EXPR) ST_IN_ROW(B, BOOL, OP)
#define B_IN_INT(OP, KIND, EXPR) ST_IN_ROW(B, INT, OP)
#define B_IN_FLOAT(OP, KIND, EXPR) ST_IN_ROW(B, FLOAT, OP)
#define B_IN_COMPLEX(OP, KIND, EXPR) ST_IN_ROW(B, COMPLEX, OP)
/* clang-format off */
U_BOOL(U_IN_BOOL) U_SINT(U_IN_INT) U_UINT(U_IN_INT) U_FLOAT(U_IN_FLOAT)
U_COMPLEX(U_IN_COMPLEX) U_COMPLEX_SCALAR(U_IN_COMPLEX)
B_BOOL(B_IN_BOOL) B_SINT(B_IN_INT) B_SINT_SCALAR(B_IN_INT) B_UINT(B_IN_INT)
B_UINT_SCALAR(B_IN_INT) B_FLOAT(B_IN_FLOAT) B_FLOAT_SCALAR(B_IN_FLOAT)
B_COMPLEX(B_IN_COMPLEX) B_COMPLEX_SCALAR(B_IN_COMPLEX)
/* clang-format on */

/* ---- loop templates ---- */
#define OUT_SAME(T, R) T
#define OUT_BOOL(T, R) _Bool
#define OUT_REAL(T, R) R

#define DEF_UNARY(...) ST_LEVELS(DEF_UNARY_ISA, __VA_ARGS__)
#define DEF_UNARY_BASE(...) ST_LEVELS_BASE(DEF_UNARY_ISA, __VA_ARGS__)
#define DEF_UNARY_ISA(ISA, ATTR, CODE, SFX, T, R, OP, KIND, EXPR)                                  \
    ATTR static void u_##OP##_##SFX##ISA(char **args_, const int64_t *np, const int64_t *s_,       \
                                         void *extra)                                              \
    {                                                                                              \
        ST_LOCAL_ARGS(2)                                                                           \
        typedef T st_T;                                                                            \
        typedef R st_R;                                                                            \
        typedef OUT_##KIND(T, R) st_O;                                                             \
        const int64_t n = *np;                                                                     \
        if (s[0] == sizeof(st_O) && s[1] == sizeof(st_T)) {                                        \
            st_O *o = (st_O *)args[0];                                                             \
            const st_T *in = (const st_T *)args[1];                                                \
            ST_STREAMED(st_O, o, n, extra, ({                                                      \
                            const st_T x = in[i];                                                  \
                            (void)x;                                                               \
                            (st_O)(EXPR);                                                          \
                        }));                                                                       \
        } else {                                                                                   \
            for (int64_t i = 0; i < n; i++) {                                                      \
                const st_T x = *(const st_T *)(args[1] + i * s[1]);                                \
                (void)x;                                                                           \
                *(st_O *)(args[0] + i * s[0]) = (st_O)(EXPR);                                      \
            }                                                                                      \
        }                                                                                          \
    }

/* Contiguous, scalar-b, scalar-a and general cases: the first three are
 * the ones the compiler vectorises. */
#define BIN_BODY(LOADA, LOADB, EXPR)                                                               \
    ST_STREAMED(st_O, o, n, extra, ({                                                              \
                    const st_T a = LOADA, b = LOADB;                                               \
                    (st_O)(EXPR);                                                                  \
                }));
#define DEF_BINARY(...) ST_LEVELS(DEF_BINARY_ISA, __VA_ARGS__)
#define DEF_BINARY_BASE(...) ST_LEVELS_BASE(DEF_BINARY_ISA, __VA_ARGS__)
/* A binary op's row (b_OP_SFX_line), its kernel (b_OP_SFX: one row) and
 * its rows kernel (b2_OP_SFX: ST_ROWS_LOOP over the row, inlined). */
#define DEF_BINARY_ISA(ISA, ATTR, CODE, SFX, T, R, OP, KIND, EXPR)                                 \
    ATTR static inline __attribute__((always_inline)) void b_##OP##_##SFX##ISA##_line(             \
        char *const *args, const int64_t *s, const int64_t n, void *extra)                         \
    {                                                                                              \
        typedef T st_T;                                                                            \
        typedef R st_R;                                                                            \
        typedef OUT_##KIND(T, R) st_O;                                                             \
        const int64_t w = sizeof(st_T);                                                            \
        if (s[0] == sizeof(st_O)) {                                                                \
            st_O *o = (st_O *)args[0];                                                             \
            const st_T *A = (const st_T *)args[1], *B = (const st_T *)args[2];                     \
            if (s[1] == w && s[2] == w) {                                                          \
                BIN_BODY(A[i], B[i], EXPR)                                                         \
                return;                                                                            \
            }                                                                                      \
            if (s[1] == w && s[2] == 0) {                                                          \
                const st_T bv = *B;                                                                \
                BIN_BODY(A[i], bv, EXPR)                                                           \
                return;                                                                            \
            }                                                                                      \
            if (s[1] == 0 && s[2] == w) {                                                          \
                const st_T av = *A;                                                                \
                BIN_BODY(av, B[i], EXPR)                                                           \
                return;                                                                            \
            }                                                                                      \
        }                                                                                          \
        for (int64_t i = 0; i < n; i++) {                                                          \
            const st_T a = *(const st_T *)(args[1] + i * s[1]);                                    \
            const st_T b = *(const st_T *)(args[2] + i * s[2]);                                    \
            *(st_O *)(args[0] + i * s[0]) = (st_O)(EXPR);                                          \
        }                                                                                          \
    }                                                                                              \
    ATTR static void b_##OP##_##SFX##ISA(char **args_, const int64_t *np, const int64_t *s_,       \
                                         void *extra)                                              \
    {                                                                                              \
        ST_LOCAL_ARGS(3)                                                                           \
        b_##OP##_##SFX##ISA##_line(args, s, *np, extra);                                           \
    }                                                                                              \
    ATTR static void b2_##OP##_##SFX##ISA(char **args_, const int64_t *np, const int64_t *s_,      \
                                          void *extra)                                             \
    {                                                                                              \
        ST_ROWS_LOOP(3, b_##OP##_##SFX##ISA##_line(args, s, np[0], extra))                         \
    }

/* ---- instantiate, in parts ----
 * The kernels compile as four objects the build runs in parallel (ST_PART,
 * st_internal.h): this file itself is part 0 (the float kernels, the
 * vmath.h ones, the tables, the API); elementwise_p1.c (signed integers),
 * elementwise_p2.c (unsigned) and elementwise_p3.c (bool, complex) include
 * it with ST_PART set, and part 0's constructor has each fill its entries
 * of the tables (st_elementwise_part1 ...).  The _SCALAR lists are
 * compiled for the baseline only (ST_LEVELS_BASE). */
/* bool as bytes: a _Bool load of a byte other than 0 or 1 (borrowed memory
 * may hold one) is undefined, and GCC vectorises logic on bytes, not the
 * _Bool loads (logical_not ran at a byte a cycle) */
#define BOOL_AS_BYTES(M, ...) M(ST_BOOL, bool_, uint8_t, uint8_t, __VA_ARGS__)
#define U_DEF_BOOL(OP, KIND, EXPR) BOOL_AS_BYTES(DEF_UNARY, OP, KIND, EXPR)
#define U_DEF_SINT(OP, KIND, EXPR) ST_TYPES_SINT(DEF_UNARY, OP, KIND, EXPR)
#define U_DEF_UINT(OP, KIND, EXPR) ST_TYPES_UINT(DEF_UNARY, OP, KIND, EXPR)
#define U_DEF_FLOAT(OP, KIND, EXPR) ST_TYPES_FLOAT(DEF_UNARY, OP, KIND, EXPR)
#define U_DEF_COMPLEX(OP, KIND, EXPR) ST_TYPES_COMPLEX(DEF_UNARY, OP, KIND, EXPR)
#define U_DEF_COMPLEX_SCALAR(OP, KIND, EXPR) ST_TYPES_COMPLEX(DEF_UNARY_BASE, OP, KIND, EXPR)
#define B_DEF_BOOL(OP, KIND, EXPR) BOOL_AS_BYTES(DEF_BINARY, OP, KIND, EXPR)
#define B_DEF_SINT(OP, KIND, EXPR) ST_TYPES_SINT(DEF_BINARY, OP, KIND, EXPR)
#define B_DEF_UINT(OP, KIND, EXPR) ST_TYPES_UINT(DEF_BINARY, OP, KIND, EXPR)
#define B_DEF_FLOAT(OP, KIND, EXPR) ST_TYPES_FLOAT(DEF_BINARY, OP, KIND, EXPR)
#define B_DEF_COMPLEX(OP, KIND, EXPR) ST_TYPES_COMPLEX(DEF_BINARY, OP, KIND, EXPR)
#define B_DEF_SINT_SCALAR(OP, KIND, EXPR) ST_TYPES_SINT(DEF_BINARY_BASE, OP, KIND, EXPR)
#define B_DEF_UINT_SCALAR(OP, KIND, EXPR) ST_TYPES_UINT(DEF_BINARY_BASE, OP, KIND, EXPR)
#define B_DEF_FLOAT_SCALAR(OP, KIND, EXPR) ST_TYPES_FLOAT(DEF_BINARY_BASE, OP, KIND, EXPR)
#define B_DEF_COMPLEX_SCALAR(OP, KIND, EXPR) ST_TYPES_COMPLEX(DEF_BINARY_BASE, OP, KIND, EXPR)

#define RES_SAME(CODE) (CODE)
#define RES_BOOL(CODE) ST_BOOL
#define RES_REAL(CODE) st_real_dtype(CODE)
#define REG_UNARY_AS(PICK, CODE, SFX, T, R, OP, KIND, EXPR)                                        \
    unary_loops[ST_U_##OP][CODE] = PICK(u_##OP##_##SFX);                                           \
    unary_res[ST_U_##OP][CODE] = (signed char)RES_##KIND(CODE);
#define REG_BINARY_AS(PICK, CODE, SFX, T, R, OP, KIND, EXPR)                                       \
    binary_loops[ST_B_##OP][CODE] = binary_rows[ST_B_##OP][CODE].line = PICK(b_##OP##_##SFX);      \
    binary_rows[ST_B_##OP][CODE].rows = PICK(b2_##OP##_##SFX);                                     \
    binary_res[ST_B_##OP][CODE] = (signed char)RES_##KIND(CODE);
#define REG_UNARY(...) REG_UNARY_AS(ST_PICK, __VA_ARGS__)
#define REG_BINARY(...) REG_BINARY_AS(ST_PICK, __VA_ARGS__)
#define REG_UNARY_BASE(...) REG_UNARY_AS(ST_PICK_BASE, __VA_ARGS__)
#define REG_BINARY_BASE(...) REG_BINARY_AS(ST_PICK_BASE, __VA_ARGS__)
#define U_REG_BOOL(OP, KIND, EXPR) ST_TYPES_BOOL(REG_UNARY, OP, KIND, EXPR)
#define U_REG_SINT(OP, KIND, EXPR) ST_TYPES_SINT(REG_UNARY, OP, KIND, EXPR)
#define U_REG_UINT(OP, KIND, EXPR) ST_TYPES_UINT(REG_UNARY, OP, KIND, EXPR)
#define U_REG_FLOAT(OP, KIND, EXPR) ST_TYPES_FLOAT(REG_UNARY, OP, KIND, EXPR)
#define U_REG_COMPLEX(OP, KIND, EXPR) ST_TYPES_COMPLEX(REG_UNARY, OP, KIND, EXPR)
#define U_REG_COMPLEX_SCALAR(OP, KIND, EXPR) ST_TYPES_COMPLEX(REG_UNARY_BASE, OP, KIND, EXPR)
#define B_REG_BOOL(OP, KIND, EXPR) ST_TYPES_BOOL(REG_BINARY, OP, KIND, EXPR)
#define B_REG_SINT(OP, KIND, EXPR) ST_TYPES_SINT(REG_BINARY, OP, KIND, EXPR)
#define B_REG_UINT(OP, KIND, EXPR) ST_TYPES_UINT(REG_BINARY, OP, KIND, EXPR)
#define B_REG_FLOAT(OP, KIND, EXPR) ST_TYPES_FLOAT(REG_BINARY, OP, KIND, EXPR)
#define B_REG_COMPLEX(OP, KIND, EXPR) ST_TYPES_COMPLEX(REG_BINARY, OP, KIND, EXPR)
#define B_REG_SINT_SCALAR(OP, KIND, EXPR) ST_TYPES_SINT(REG_BINARY_BASE, OP, KIND, EXPR)
#define B_REG_UINT_SCALAR(OP, KIND, EXPR) ST_TYPES_UINT(REG_BINARY_BASE, OP, KIND, EXPR)
#define B_REG_FLOAT_SCALAR(OP, KIND, EXPR) ST_TYPES_FLOAT(REG_BINARY_BASE, OP, KIND, EXPR)
#define B_REG_COMPLEX_SCALAR(OP, KIND, EXPR) ST_TYPES_COMPLEX(REG_BINARY_BASE, OP, KIND, EXPR)

/* A binary kernel and its rows form, kept as a pair: a table entry that
 * another kernel replaces (vmath's pow, AVX-512 compares) has none. */
typedef struct {
    st_loop_fn line;
    st_rows_fn rows;
} st_rows_pair;

/* A part's kernels into part 0's tables (the names REG_* write to). */
#define ST_EW_TABLES                                                                               \
    st_loop_fn unary_loops[][ST_NTYPES], signed char unary_res[][ST_NTYPES],                       \
        st_loop_fn binary_loops[][ST_NTYPES], signed char binary_res[][ST_NTYPES],                 \
        st_rows_pair binary_rows[][ST_NTYPES]
void st_elementwise_part1(ST_EW_TABLES);
void st_elementwise_part2(ST_EW_TABLES);
void st_elementwise_part3(ST_EW_TABLES);

#if ST_PART == 1
U_SINT(U_DEF_SINT)
B_SINT(B_DEF_SINT)
B_SINT_SCALAR(B_DEF_SINT_SCALAR)
void st_elementwise_part1(ST_EW_TABLES)
{
    U_SINT(U_REG_SINT)
    B_SINT(B_REG_SINT)
    B_SINT_SCALAR(B_REG_SINT_SCALAR)
}
#elif ST_PART == 2
U_UINT(U_DEF_UINT)
B_UINT(B_DEF_UINT)
B_UINT_SCALAR(B_DEF_UINT_SCALAR)
void st_elementwise_part2(ST_EW_TABLES)
{
    U_UINT(U_REG_UINT)
    B_UINT(B_REG_UINT)
    B_UINT_SCALAR(B_REG_UINT_SCALAR)
}
#elif ST_PART == 3
U_BOOL(U_DEF_BOOL)
B_BOOL(B_DEF_BOOL)
U_COMPLEX(U_DEF_COMPLEX)
U_COMPLEX_SCALAR(U_DEF_COMPLEX_SCALAR)
B_COMPLEX(B_DEF_COMPLEX)
B_COMPLEX_SCALAR(B_DEF_COMPLEX_SCALAR)
void st_elementwise_part3(ST_EW_TABLES)
{
    U_BOOL(U_REG_BOOL)
    B_BOOL(B_REG_BOOL)
    U_COMPLEX(U_REG_COMPLEX)
    U_COMPLEX_SCALAR(U_REG_COMPLEX_SCALAR)
    B_COMPLEX(B_REG_COMPLEX)
    B_COMPLEX_SCALAR(B_REG_COMPLEX_SCALAR)
}
#else /* part 0: the rest of this file */
U_FLOAT(U_DEF_FLOAT)
B_FLOAT(B_DEF_FLOAT)
B_FLOAT_SCALAR(B_DEF_FLOAT_SCALAR)

/* ---- exp, log, sin, cos (float32, float64): vmath.h ----
 * Blocks of VM_BLOCK elements, whatever the steps: run the branch-free
 * fast path over the block (vectorised), recompute the lanes it does not
 * serve (NaN, inf, out-of-range) with scalar libm from the unchanged
 * input, then store the block (streamed when run_elementwise allows).  A
 * strided input is gathered into xb first; an output that is strided,
 * streamed or overlaps the input (out == input) is computed into ob. */
#define VM_BLOCK 512
#define VM_SIN(x) st_vsincos(x, 0)
#define VM_COS(x) st_vsincos(x, 1)
#define VM_SIN64(x) st_vsincos64(x, 0)
#define VM_COS64(x) st_vsincos64(x, 1)
#define DEF_VMATH(OP, SFX, T, W, MAIN, SPECIAL, LIBM)                                              \
    __attribute__((noinline, optimize("no-tree-vectorize"))) static void vfix_##OP##_##SFX(        \
        T *o, const T *x, int64_t m)                                                               \
    {                                                                                              \
        for (int64_t j = 0; j < m; j++)                                                            \
            if (SPECIAL((W)x[j])) o[j] = LIBM(x[j]);                                               \
    }                                                                                              \
    ST_LEVELS(DEF_VMATH_ISA, OP, SFX, T, W, MAIN, SPECIAL)
#define DEF_VMATH_ISA(ISA, ATTR, OP, SFX, T, W, MAIN, SPECIAL)                                     \
    ATTR static void v_##OP##_##SFX##ISA(char **args_, const int64_t *np, const int64_t *s_,       \
                                         void *extra)                                              \
    {                                                                                              \
        ST_LOCAL_ARGS(2)                                                                           \
        T xb[VM_BLOCK] __attribute__((aligned(64)));                                               \
        T ob[VM_BLOCK] __attribute__((aligned(64)));                                               \
        const int64_t n = *np;                                                                     \
        for (int64_t i0 = 0; i0 < n; i0 += VM_BLOCK) {                                             \
            const int64_t m = n - i0 < VM_BLOCK ? n - i0 : VM_BLOCK;                               \
            const char *ip = args[1] + i0 * s[1];                                                  \
            char *op = args[0] + i0 * s[0];                                                        \
            const int64_t bytes = m * (int64_t)sizeof(T);                                          \
            /* read a contiguous input in place; gather any other */                               \
            const T *x = (const T *)ip;                                                            \
            if (s[1] != sizeof(T)) {                                                               \
                for (int64_t j = 0; j < m; j++) xb[j] = *(const T *)(ip + j * s[1]);               \
                x = xb;                                                                            \
            }                                                                                      \
            /* write a contiguous output in place unless it is streamed or        \
             * overlaps this block's input (libm still reads it after) */                \
            T *o = (s[0] == sizeof(T) && extra != ST_STREAM &&                                     \
                    ((const char *)x + bytes <= op || op + bytes <= (const char *)x))              \
                       ? (T *)op                                                                   \
                       : ob;                                                                       \
            int special = 0;                                                                       \
            /* ivdep: o and x do not overlap (checked above), nor do they     \
             * alias the exp table, which the compiler cannot know */                    \
            _Pragma("GCC ivdep")                                                                   \
            for (int64_t j = 0; j < m; j++) {                                                      \
                o[j] = (T)MAIN((W)x[j]);                                                           \
                special |= SPECIAL((W)x[j]);                                                       \
            }                                                                                      \
            if (special) vfix_##OP##_##SFX(o, x, m);                                               \
            if (o != ob) continue;                                                                 \
            if (s[0] != sizeof(T))                                                                 \
                for (int64_t j = 0; j < m; j++) *(T *)(op + j * s[0]) = ob[j];                     \
            else if (extra == ST_STREAM && (uintptr_t)op % 64 == 0 && bytes % 64 == 0)             \
                st_stream_store(op, ob, bytes);                                                    \
            else                                                                                   \
                memcpy(op, ob, (size_t)bytes);                                                     \
        }                                                                                          \
    }
/* pow (float64, float32): the same blocks over two inputs (a zero step, a
 * broadcast scalar, is gathered like any other step).  ARG(x, y, &lo) is
 * y log x (float64: a double pair; float32: y log2 x in double, lo
 * unused), which the special test also reads; FINISH(hi, lo) the power. */
#define DEF_VPOW_FIX(SFX, T, SPECIAL, LIBM)                                                        \
    __attribute__((noinline, optimize("no-tree-vectorize"))) static void vfix_POW_##SFX(           \
        T *o, const T *x, const T *y, const double *z, int64_t m)                                  \
    {                                                                                              \
        for (int64_t j = 0; j < m; j++)                                                            \
            if (SPECIAL(x[j], y[j], z[j])) o[j] = LIBM(x[j], y[j]);                                \
    }
DEF_VPOW_FIX(float64, double, ST_VPOW_SPECIAL, pow)
DEF_VPOW_FIX(float32, float, ST_VPOWF_SPECIAL, powf)
#define DEF_VPOW_ISA(ISA, ATTR, SFX, T, ARG, FINISH, SPECIAL)                                      \
    ATTR static void v_POW_##SFX##ISA(char **args_, const int64_t *np, const int64_t *s_,          \
                                      void *extra)                                                 \
    {                                                                                              \
        ST_LOCAL_ARGS(3)                                                                           \
        T xb[VM_BLOCK] __attribute__((aligned(64)));                                               \
        T yb[VM_BLOCK] __attribute__((aligned(64)));                                               \
        double zb[VM_BLOCK] __attribute__((aligned(64)));                                          \
        T ob[VM_BLOCK] __attribute__((aligned(64)));                                               \
        const int64_t n = *np;                                                                     \
        for (int64_t i0 = 0; i0 < n; i0 += VM_BLOCK) {                                             \
            const int64_t m = n - i0 < VM_BLOCK ? n - i0 : VM_BLOCK;                               \
            const char *xp = args[1] + i0 * s[1], *yp = args[2] + i0 * s[2];                       \
            char *op = args[0] + i0 * s[0];                                                        \
            const int64_t bytes = m * (int64_t)sizeof(T);                                          \
            const T *x = (const T *)xp, *y = (const T *)yp;                                        \
            if (s[1] != sizeof(T)) {                                                               \
                for (int64_t j = 0; j < m; j++) xb[j] = *(const T *)(xp + j * s[1]);               \
                x = xb;                                                                            \
            }                                                                                      \
            if (s[2] != sizeof(T)) {                                                               \
                for (int64_t j = 0; j < m; j++) yb[j] = *(const T *)(yp + j * s[2]);               \
                y = yb;                                                                            \
            }                                                                                      \
            const char *xc = (const char *)x, *yc = (const char *)y;                               \
            T *o =                                                                                 \
                (s[0] == sizeof(T) && extra != ST_STREAM &&                                        \
                 (xc + bytes <= op || op + bytes <= xc) && (yc + bytes <= op || op + bytes <= yc)) \
                    ? (T *)op                                                                      \
                    : ob;                                                                          \
            int special = 0;                                                                       \
            _Pragma("GCC ivdep")                                                                   \
            for (int64_t j = 0; j < m; j++) {                                                      \
                double lo, hi = ARG(x[j], y[j], &lo);                                              \
                zb[j] = hi;                                                                        \
                special |= SPECIAL(x[j], y[j], hi);                                                \
                o[j] = (T)FINISH(hi, lo);                                                          \
            }                                                                                      \
            if (special) vfix_POW_##SFX(o, x, y, zb, m);                                           \
            if (o != ob) continue;                                                                 \
            if (s[0] != sizeof(T))                                                                 \
                for (int64_t j = 0; j < m; j++) *(T *)(op + j * s[0]) = ob[j];                     \
            else if (extra == ST_STREAM && (uintptr_t)op % 64 == 0 && bytes % 64 == 0)             \
                st_stream_store(op, ob, bytes);                                                    \
            else                                                                                   \
                memcpy(op, ob, (size_t)bytes);                                                     \
        }                                                                                          \
    }
ST_LEVELS(DEF_VPOW_ISA, float64, double, st_vpow_arg, st_vexp_pair, ST_VPOW_SPECIAL)
ST_LEVELS(DEF_VPOW_ISA, float32, float, st_vpowf_arg, st_vexp2f_lo, ST_VPOWF_SPECIAL)
/* (op, dtype, element type, type the kernel works in, kernel, its domain test, libm) */
DEF_VMATH(EXP, float64, double, double, st_vexp, ST_VEXP_SPECIAL, exp)
DEF_VMATH(EXP, float32, float, float, st_vexpf, ST_VEXPF_SPECIAL, expf)
/* (level 4 runs vmath512.h's st_vexpf16 instead: v512_EXP_float32 below)
 * st_vexpf needs FMA for its 1 ulp (its reduction and polynomial round
 * more without: 1.22 ulp; its fmaf would be a libm call without the
 * hardware instruction), so level 0 takes the float64 kernel
 * for float32 exp, rounded once to float (<= 0.5 ulp plus a double rounding) */
DEF_VMATH(EXP_WIDE, float32, float, double, st_vexp, ST_VEXP_SPECIAL, expf)
DEF_VMATH(LOG, float64, double, double, st_vlog, ST_VLOG_SPECIAL, log)
DEF_VMATH(LOG, float32, float, float, st_vlogf, ST_VLOGF_SPECIAL, logf)
DEF_VMATH(SIN, float32, float, double, VM_SIN, ST_VTRIG_SPECIAL, sinf)
DEF_VMATH(COS, float32, float, double, VM_COS, ST_VTRIG_SPECIAL, cosf)
DEF_VMATH(SIN, float64, double, double, VM_SIN64, ST_VTRIG64_SPECIAL, sin)
DEF_VMATH(COS, float64, double, double, VM_COS64, ST_VTRIG64_SPECIAL, cos)
DEF_VMATH(TANH, float64, double, double, st_vtanh, ST_VTANH_SPECIAL, tanh)
DEF_VMATH(TANH, float32, float, float, st_vtanhf, ST_VTANHF_SPECIAL, tanhf)
/* two inputs (hypot): pow's blocks without its extra buffer */
#define DEF_VBIN(OP, SFX, T, MAIN, SPECIAL, LIBM)                                                  \
    __attribute__((noinline, optimize("no-tree-vectorize"))) static void vfix_##OP##_##SFX(        \
        T *o, const T *x, const T *y, int64_t m)                                                   \
    {                                                                                              \
        for (int64_t j = 0; j < m; j++)                                                            \
            if (SPECIAL(x[j], y[j])) o[j] = LIBM(x[j], y[j]);                                      \
    }                                                                                              \
    ST_LEVELS(DEF_VBIN_ISA, OP, SFX, T, MAIN, SPECIAL)
#define DEF_VBIN_ISA(ISA, ATTR, OP, SFX, T, MAIN, SPECIAL)                                         \
    ATTR static void v_##OP##_##SFX##ISA(char **args_, const int64_t *np, const int64_t *s_,       \
                                         void *extra)                                              \
    {                                                                                              \
        ST_LOCAL_ARGS(3)                                                                           \
        T inb[2][VM_BLOCK] __attribute__((aligned(64)));                                           \
        T ob[VM_BLOCK] __attribute__((aligned(64)));                                               \
        const int64_t n = *np;                                                                     \
        for (int64_t i0 = 0; i0 < n; i0 += VM_BLOCK) {                                             \
            VM512_BLOCK_IO(T, 2, 1)                                                                \
            const T *x = in[0], *y = in[1];                                                        \
            int special = 0;                                                                       \
            _Pragma("GCC ivdep")                                                                   \
            for (int64_t j = 0; j < m; j++) {                                                      \
                o[j] = MAIN(x[j], y[j]);                                                           \
                special |= SPECIAL(x[j], y[j]);                                                    \
            }                                                                                      \
            if (special) vfix_##OP##_##SFX(o, x, y, m);                                            \
            VM512_BLOCK_OUT(T)                                                                     \
        }                                                                                          \
    }

/* (The two block macros serve DEF_VBIN at every level too.)
 * The AVX-512 forms (vmath512.h) of exp float32 and float64, log float64,
 * tanh and pow, for level 4: the blocks of DEF_VMATH and DEF_VPOW_ISA,
 * the fast path 16 (pow: 8) lanes at a time with a masked tail, the
 * special lanes tested and recomputed by libm as there.  STREAMS: whether a large output is
 * streamed (as DEF_VMATH's are) or written in place; measured at 10^7
 * values per kernel (two threads, time as CPU time / 2): log float64 7.3
 * ms in place, 11.3 streamed; pow float32 7.2 and 8.4; tanh float64 20.0
 * and 16.3 (in place, one thread took 39 ms instead of 22); the others
 * alike either way. */
#define VM512_BLOCK_IO(T, NIN, STREAMS)                                                            \
    const int64_t m = n - i0 < VM_BLOCK ? n - i0 : VM_BLOCK;                                       \
    char *op = args[0] + i0 * s[0];                                                                \
    const int64_t bytes = m * (int64_t)sizeof(T);                                                  \
    const T *in[NIN];                                                                              \
    int apart = s[0] == sizeof(T) && !((STREAMS) && extra == ST_STREAM);                           \
    for (int a = 0; a < NIN; a++) {                                                                \
        const char *ip = args[1 + a] + i0 * s[1 + a];                                              \
        in[a] = (const T *)ip;                                                                     \
        if (s[1 + a] != sizeof(T)) {                                                               \
            for (int64_t j = 0; j < m; j++) inb[a][j] = *(const T *)(ip + j * s[1 + a]);           \
            in[a] = inb[a];                                                                        \
        }                                                                                          \
        const char *ic = (const char *)in[a];                                                      \
        apart = apart && (ic + bytes <= op || op + bytes <= ic);                                   \
    }                                                                                              \
    T *o = apart ? (T *)op : ob;
#define VM512_BLOCK_OUT(T)                                                                         \
    if (o != ob) continue;                                                                         \
    if (s[0] != sizeof(T))                                                                         \
        for (int64_t j = 0; j < m; j++) *(T *)(op + j * s[0]) = ob[j];                             \
    else if (extra == ST_STREAM && (uintptr_t)op % 64 == 0 && bytes % 64 == 0)                     \
        st_stream_store(op, ob, bytes);                                                            \
    else                                                                                           \
        memcpy(op, ob, (size_t)bytes);
DEF_VBIN(HYPOT, float64, double, st_vhypot, ST_VHYPOT_SPECIAL, hypot)
DEF_VBIN(HYPOT, float32, float, st_vhypotf, ST_VHYPOTF_SPECIAL, hypotf)

#ifdef ST_VMATH512
/* whole vectors by plain loads and stores (masked ones stalled on their
 * input with two threads: a third more time), the tail masked */
#define DEF_VM512_UNARY(OP, SFX, T, LANES, MT, LOADZ, STOREM, LOADU, STOREU, VF, SPECIAL, STREAMS) \
    ST_ATTR_V4 static void v512_##OP##_##SFX(char **args_, const int64_t *np, const int64_t *s_,   \
                                             void *extra)                                          \
    {                                                                                              \
        ST_LOCAL_ARGS(2)                                                                           \
        T inb[1][VM_BLOCK] __attribute__((aligned(64)));                                           \
        T ob[VM_BLOCK] __attribute__((aligned(64)));                                               \
        const int64_t n = *np;                                                                     \
        for (int64_t i0 = 0; i0 < n; i0 += VM_BLOCK) {                                             \
            VM512_BLOCK_IO(T, 1, STREAMS)                                                          \
            const T *x = in[0];                                                                    \
            int64_t j = 0;                                                                         \
            for (; j + LANES <= m; j += LANES) STOREU(o + j, VF(LOADU(x + j)));                    \
            if (j < m) {                                                                           \
                const MT k = (MT)((1u << (m - j)) - 1);                                            \
                STOREM(o + j, k, VF(LOADZ(k, x + j)));                                             \
            }                                                                                      \
            int special = 0;                                                                       \
            for (int64_t j = 0; j < m; j++) special |= SPECIAL(x[j]);                              \
            if (special) vfix_##OP##_##SFX(o, x, m);                                               \
            VM512_BLOCK_OUT(T)                                                                     \
        }                                                                                          \
    }
DEF_VM512_UNARY(TANH, float32, float, 16, __mmask16, _mm512_maskz_loadu_ps, _mm512_mask_storeu_ps,
                _mm512_loadu_ps, _mm512_storeu_ps, st_vtanhf16, ST_VTANHF_SPECIAL, 1)
DEF_VM512_UNARY(TANH, float64, double, 8, __mmask8, _mm512_maskz_loadu_pd, _mm512_mask_storeu_pd,
                _mm512_loadu_pd, _mm512_storeu_pd, st_vtanh8, ST_VTANH_SPECIAL, 1)
/* exp float32: DEF_VM512_UNARY's blocks with the domain test of each
 * vector in the same pass (a mask), not a second one over the block */
ST_ATTR_V4 static void v512_EXP_float32(char **args_, const int64_t *np, const int64_t *s_,
                                        void *extra)
{
    ST_LOCAL_ARGS(2)
    float inb[1][VM_BLOCK] __attribute__((aligned(64)));
    float ob[VM_BLOCK] __attribute__((aligned(64)));
    const __m512 top = _mm512_set1_ps(160.0f); /* !(|x| < 160): ST_VEXPF_SPECIAL */
    const int64_t n = *np;
    for (int64_t i0 = 0; i0 < n; i0 += VM_BLOCK) {
        VM512_BLOCK_IO(float, 1, 1)
        const float *x = in[0];
        __mmask16 out = 0;
        int64_t j = 0;
        for (; j + 16 <= m; j += 16) {
            const __m512 v = _mm512_loadu_ps(x + j);
            out |= _mm512_cmp_ps_mask(_mm512_abs_ps(v), top, _CMP_NLT_UQ);
            _mm512_storeu_ps(o + j, st_vexpf16(v));
        }
        if (j < m) { /* the lanes past m: zeros, inside the domain */
            const __mmask16 k = (__mmask16)((1u << (m - j)) - 1);
            const __m512 v = _mm512_maskz_loadu_ps(k, x + j);
            out |= _mm512_cmp_ps_mask(_mm512_abs_ps(v), top, _CMP_NLT_UQ);
            _mm512_mask_storeu_ps(o + j, k, st_vexpf16(v));
        }
        if (out) vfix_EXP_float32(o, x, m);
        VM512_BLOCK_OUT(float)
    }
}
DEF_VM512_UNARY(EXP, float64, double, 8, __mmask8, _mm512_maskz_loadu_pd, _mm512_mask_storeu_pd,
                _mm512_loadu_pd, _mm512_storeu_pd, st_vexp8, ST_VEXP_SPECIAL, 1)
DEF_VM512_UNARY(LOG, float64, double, 8, __mmask8, _mm512_maskz_loadu_pd, _mm512_mask_storeu_pd,
                _mm512_loadu_pd, _mm512_storeu_pd, st_vlog8, ST_VLOG_SPECIAL, 0)

ST_ATTR_V4 static void v512_POW_float32(char **args_, const int64_t *np, const int64_t *s_,
                                        void *extra)
{
    ST_LOCAL_ARGS(3)
    float inb[2][VM_BLOCK] __attribute__((aligned(64)));
    double zb[VM_BLOCK] __attribute__((aligned(64)));
    float ob[VM_BLOCK] __attribute__((aligned(64)));
    const int64_t n = *np;
    for (int64_t i0 = 0; i0 < n; i0 += VM_BLOCK) {
        VM512_BLOCK_IO(float, 2, 0)
        const float *x = in[0], *y = in[1];
        int64_t j = 0;
        for (; j + 8 <= m; j += 8) {
            __m512d t;
            const __m512d r = st_vpowf8(_mm256_loadu_ps(x + j), _mm256_loadu_ps(y + j), &t);
            _mm512_store_pd(zb + j, t);
            _mm256_storeu_ps(o + j, _mm512_cvtpd_ps(r));
        }
        if (j < m) {
            const __mmask8 k = (__mmask8)((1u << (m - j)) - 1);
            __m512d t;
            const __m512d r =
                st_vpowf8(_mm256_maskz_loadu_ps(k, x + j), _mm256_maskz_loadu_ps(k, y + j), &t);
            _mm512_mask_storeu_pd(zb + j, k, t);
            _mm256_mask_storeu_ps(o + j, k, _mm512_cvtpd_ps(r));
        }
        int special = 0;
        for (int64_t j = 0; j < m; j++) special |= ST_VPOWF_SPECIAL(x[j], y[j], zb[j]);
        if (special) vfix_POW_float32(o, x, y, zb, m);
        VM512_BLOCK_OUT(float)
    }
}

/* pow float64: y log x as a pair by the scalar form (GCC gathers its 128-
 * entry log table), then exp of the pair 8 lanes at a time */
ST_ATTR_V4 static void v512_POW_float64(char **args_, const int64_t *np, const int64_t *s_,
                                        void *extra)
{
    ST_LOCAL_ARGS(3)
    double inb[2][VM_BLOCK] __attribute__((aligned(64)));
    double zb[VM_BLOCK] __attribute__((aligned(64)));
    double lb[VM_BLOCK] __attribute__((aligned(64)));
    double ob[VM_BLOCK] __attribute__((aligned(64)));
    const int64_t n = *np;
    for (int64_t i0 = 0; i0 < n; i0 += VM_BLOCK) {
        VM512_BLOCK_IO(double, 2, 1)
        const double *x = in[0], *y = in[1];
        int special = 0;
        _Pragma("GCC ivdep")
        for (int64_t j = 0; j < m; j++) {
            double lo, hi = st_vpow_arg(x[j], y[j], &lo);
            zb[j] = hi;
            lb[j] = lo;
            special |= ST_VPOW_SPECIAL(x[j], y[j], hi);
        }
        int64_t j = 0;
        for (; j + 8 <= m; j += 8)
            _mm512_storeu_pd(o + j, st_vexp_pair8(_mm512_load_pd(zb + j), _mm512_load_pd(lb + j)));
        if (j < m) {
            const __mmask8 k = (__mmask8)((1u << (m - j)) - 1);
            _mm512_mask_storeu_pd(
                o + j, k,
                st_vexp_pair8(_mm512_maskz_loadu_pd(k, zb + j), _mm512_maskz_loadu_pd(k, lb + j)));
        }
        if (special) vfix_POW_float64(o, x, y, zb, m);
        VM512_BLOCK_OUT(double)
    }
}

/* Comparisons of float64 / float32 to bool: 64 results per step, the
 * compare masks joined in a register and expanded to bytes once (GCC's
 * vectorisation widened each mask to 64-bit lanes and narrowed them back
 * with seven permutes: 0.91x numpy's `less` at 10^7, 0.8x in cache).  Any
 * other layout, and the tail, take the level's generic kernel. */
/* (LANES elements of T per vector, CMP its compare-to-mask, LOAD its load) */
#define DEF_CMP512_T(OP, PRED, SFX, T, LANES, LOAD, CMP)                                           \
    ST_ATTR_V4 static void c512_##OP##_##SFX(char **args_, const int64_t *np, const int64_t *s_,   \
                                             void *extra)                                          \
    {                                                                                              \
        const int64_t n = *np;                                                                     \
        int64_t i = 0;                                                                             \
        if (s_[0] == 1 && s_[1] == sizeof(T) && s_[2] == sizeof(T)) {                              \
            uint8_t *o = (uint8_t *)args_[0];                                                      \
            const T *A = (const T *)args_[1], *B = (const T *)args_[2];                            \
            const __m512i one = _mm512_set1_epi8(1);                                               \
            for (; i + 64 <= n; i += 64) {                                                         \
                uint64_t m = 0;                                                                    \
                for (int k = 0; k < 64 / (LANES); k++)                                             \
                    m |= (uint64_t)CMP(LOAD(A + i + (LANES) * k), LOAD(B + i + (LANES) * k), PRED) \
                         << ((LANES) * k);                                                         \
                _mm512_storeu_si512(o + i, _mm512_maskz_mov_epi8(_cvtu64_mask64(m), one));         \
            }                                                                                      \
        }                                                                                          \
        if (i == n) return;                                                                        \
        char *rest[3] = {args_[0] + i * s_[0], args_[1] + i * s_[1], args_[2] + i * s_[2]};        \
        const int64_t left = n - i;                                                                \
        b_##OP##_##SFX##_v4(rest, &left, s_, extra);                                               \
    }
#define DEF_CMP512(OP, PRED)                                                                       \
    DEF_CMP512_T(OP, PRED, float64, double, 8, _mm512_loadu_pd, _mm512_cmp_pd_mask)                \
    DEF_CMP512_T(OP, PRED, float32, float, 16, _mm512_loadu_ps, _mm512_cmp_ps_mask)
/* the ordered predicates are false on NaN, as C's <, <=, >, >=, ==; != is
 * the unordered one, true on NaN */
DEF_CMP512(LESS, _CMP_LT_OQ)
DEF_CMP512(LESS_EQUAL, _CMP_LE_OQ)
DEF_CMP512(GREATER, _CMP_GT_OQ)
DEF_CMP512(GREATER_EQUAL, _CMP_GE_OQ)
DEF_CMP512(EQUAL, _CMP_EQ_OQ)
DEF_CMP512(NOT_EQUAL, _CMP_NEQ_UQ)
#endif

/* ---- dispatch tables, filled from the same lists ---- */
static st_loop_fn unary_loops[ST_U_COUNT][ST_NTYPES];
static signed char unary_res[ST_U_COUNT][ST_NTYPES];
static st_loop_fn binary_loops[ST_B_COUNT][ST_NTYPES];
static signed char binary_res[ST_B_COUNT][ST_NTYPES];
static st_rows_pair binary_rows[ST_B_COUNT][ST_NTYPES];

/* pow(x, 3) of float64 and float32 (sklearn's polynomial kernel: `K **= 3`):
 * float64 carries the square's rounding error into the product through
 * FMA, so the cube is rounded once up to a 2^-105 relative error (a pow
 * of the correctly rounded kind gives the same bits but in near-halfway
 * cases); float32 cubes exactly in double, then rounds.  Taken only where
 * FMA is an instruction (levels 3 and 4); level 0 keeps the power. */
static inline double st_cube(double x)
{
    const double p = x * x, e = __builtin_fma(x, x, -p);
    return isfinite(p) ? __builtin_fma(p, x, e * x) : p * x;
}
#define ST_CUBEF(x) ((float)((double)(x) * (double)(x) * (double)(x)))
#define DEF_CUBE_ISA(ISA, ATTR, T, EXPR)                                                           \
    ATTR static void cube_##T##ISA(char **args_, const int64_t *np, const int64_t *s_,             \
                                   void *extra)                                                    \
    {                                                                                              \
        ST_LOCAL_ARGS(2)                                                                           \
        const int64_t n = *np;                                                                     \
        if (s[0] == sizeof(T) && s[1] == sizeof(T)) {                                              \
            T *o = (T *)args[0];                                                                   \
            const T *in = (const T *)args[1];                                                      \
            ST_STREAMED(T, o, n, extra, ({                                                         \
                            const T x = in[i];                                                     \
                            (T)(EXPR);                                                             \
                        }));                                                                       \
        } else {                                                                                   \
            for (int64_t i = 0; i < n; i++) {                                                      \
                const T x = *(const T *)(args[1] + i * s[1]);                                      \
                *(T *)(args[0] + i * s[0]) = (T)(EXPR);                                            \
            }                                                                                      \
        }                                                                                          \
    }
#if ST_HAS_LEVELS
DEF_CUBE_ISA(_v4, ST_ATTR_V4, double, st_cube(x))
DEF_CUBE_ISA(_v3, ST_ATTR_V3, double, st_cube(x))
DEF_CUBE_ISA(_v4, ST_ATTR_V4, float, ST_CUBEF(x))
DEF_CUBE_ISA(_v3, ST_ATTR_V3, float, ST_CUBEF(x))
#endif

/* The cube kernel of a float64 or float32 dtype at this level, or NULL */
static st_loop_fn cube_loop(int dtype)
{
#if ST_HAS_LEVELS
    const int v4 = st_level() >= 4;
    if (st_level() >= 3 && dtype == ST_FLOAT64) return v4 ? cube_double_v4 : cube_double_v3;
    if (st_level() >= 3 && dtype == ST_FLOAT32) return v4 ? cube_float_v4 : cube_float_v3;
#else
    (void)dtype;
#endif
    return NULL;
}

__attribute__((constructor)) static void init_elementwise_tables(void)
{
    memset(unary_res, -1, sizeof unary_res);
    memset(binary_res, -1, sizeof binary_res);
    st_elementwise_part1(unary_loops, unary_res, binary_loops, binary_res, binary_rows);
    st_elementwise_part2(unary_loops, unary_res, binary_loops, binary_res, binary_rows);
    st_elementwise_part3(unary_loops, unary_res, binary_loops, binary_res, binary_rows);
    U_FLOAT(U_REG_FLOAT)
    B_FLOAT(B_REG_FLOAT)
    B_FLOAT_SCALAR(B_REG_FLOAT_SCALAR)
    /* the vmath.h kernels replace the list's libm/libmvec loops */
    unary_loops[ST_U_EXP][ST_FLOAT64] = ST_PICK(v_EXP_float64);
    unary_loops[ST_U_EXP][ST_FLOAT32] =
        st_level() >= 3 ? ST_PICK(v_EXP_float32) : v_EXP_WIDE_float32_v0;
    unary_loops[ST_U_LOG][ST_FLOAT64] = ST_PICK(v_LOG_float64);
    unary_loops[ST_U_LOG][ST_FLOAT32] = ST_PICK(v_LOG_float32);
    unary_loops[ST_U_SIN][ST_FLOAT32] = ST_PICK(v_SIN_float32);
    unary_loops[ST_U_COS][ST_FLOAT32] = ST_PICK(v_COS_float32);
    unary_loops[ST_U_SIN][ST_FLOAT64] = ST_PICK(v_SIN_float64);
    unary_loops[ST_U_COS][ST_FLOAT64] = ST_PICK(v_COS_float64);
    unary_loops[ST_U_TANH][ST_FLOAT64] = ST_PICK(v_TANH_float64);
    unary_loops[ST_U_TANH][ST_FLOAT32] = ST_PICK(v_TANH_float32);
    binary_loops[ST_B_POW][ST_FLOAT32] = ST_PICK(v_POW_float32);
    binary_loops[ST_B_HYPOT][ST_FLOAT64] = ST_PICK(v_HYPOT_float64);
    binary_loops[ST_B_HYPOT][ST_FLOAT32] = ST_PICK(v_HYPOT_float32);
#ifdef ST_VMATH512
    if (st_level() >= 4) {
        unary_loops[ST_U_TANH][ST_FLOAT32] = v512_TANH_float32;
        unary_loops[ST_U_TANH][ST_FLOAT64] = v512_TANH_float64;
        unary_loops[ST_U_EXP][ST_FLOAT64] = v512_EXP_float64;
        unary_loops[ST_U_EXP][ST_FLOAT32] = v512_EXP_float32;
        unary_loops[ST_U_LOG][ST_FLOAT64] = v512_LOG_float64;
        binary_loops[ST_B_POW][ST_FLOAT32] = v512_POW_float32;
    }
#endif
    binary_loops[ST_B_POW][ST_FLOAT64] = ST_PICK(v_POW_float64);
#ifdef ST_VMATH512
    if (st_level() >= 4) {
        binary_loops[ST_B_POW][ST_FLOAT64] = v512_POW_float64;
#define REG_CMP512(OP)                                                                             \
    do {                                                                                           \
        binary_loops[ST_B_##OP][ST_FLOAT64] = c512_##OP##_float64;                                 \
        binary_loops[ST_B_##OP][ST_FLOAT32] = c512_##OP##_float32;                                 \
    } while (0)
        REG_CMP512(LESS);
        REG_CMP512(LESS_EQUAL);
        REG_CMP512(GREATER);
        REG_CMP512(GREATER_EQUAL);
        REG_CMP512(EQUAL);
        REG_CMP512(NOT_EQUAL);
    }
#endif
}

int st_unary_result(int op, int dtype)
{
    if (op < 0 || op >= ST_U_COUNT || dtype < 0 || dtype >= ST_NTYPES) return -1;
    return st_is_half(dtype) ? st_half_result(unary_res[op][ST_FLOAT32], dtype)
                             : unary_res[op][dtype];
}

int st_binary_result(int op, int dtype)
{
    if (op < 0 || op >= ST_B_COUNT || dtype < 0 || dtype >= ST_NTYPES) return -1;
    if (!st_is_half(dtype)) return binary_res[op][dtype];
    /* nextafter steps by one ulp of its type: float32's step is no 16-bit one */
    return op == ST_B_NEXTAFTER ? -1 : st_half_result(binary_res[op][ST_FLOAT32], dtype);
}

/* The kernel of op for one dtype, NULL when op is not defined for it: for
 * the paths that run it on lines of their own (fast.c's small calls,
 * fuse.c's blocks).  Its result dtype is st_unary_result's / st_binary_result's. */
st_loop_fn st_unary_loop(int op, int dtype)
{
    return st_unary_result(op, dtype) < 0 ? NULL : unary_loops[op][dtype];
}

st_loop_fn st_binary_loop(int op, int dtype)
{
    return st_binary_result(op, dtype) < 0 ? NULL : binary_loops[op][dtype];
}

/* An input that overlaps the output other than exactly is read from a copy. */
static st_status detach_input(const st_tensor *out, const st_tensor **in, st_tensor **tmp)
{
    *tmp = NULL;
    return st_tensor_overlaps(out, *in) ? st_detach_copy(in, tmp) : ST_OK;
}

/* Run one kernel over (out, inputs...) after the checks every op shares.
 * extra == ST_STREAM: the kernel can stream its output (unary and binary
 * loops), done when st_stream_worth says it pays. */
static st_status run_elementwise(st_loop_fn loop, st_rows_fn rows, void *extra, st_tensor *out,
                                 int nin, const st_tensor **ins, const char *name)
{
    st_status rc;
    if ((rc = st_check_writable(out, "output"))) return rc;
    for (int k = 0; k < nin; k++)
        if ((rc = st_check_storage(ins[k], name))) return rc;
    const st_tensor *ops[ST_MAX_OPERANDS] = {out};
    st_tensor *tmps[ST_MAX_OPERANDS] = {0};
    for (int k = 0; k < nin && !rc; k++) {
        ops[k + 1] = ins[k];
        rc = detach_input(out, &ops[k + 1], &tmps[k]);
    }
    st_iter it;
    if (!rc) rc = st_iter_init(&it, nin + 1, ops, 0);
    int flags = 0;
    if (extra == ST_STREAM) {
        if (!rc && st_stream_worth(out, nin, ops + 1, &it))
            flags = ST_ITER_FENCE;
        else
            extra = NULL;
    }
    if (!rc) st_iter_run_rows(&it, loop, rows, extra, flags);
    for (int k = 0; k < nin; k++) st_tensor_free(tmps[k]);
    return rc;
}

static st_status run_blocks(st_loop_fn loop32, int half, st_tensor *out, int nin,
                            const st_tensor **ins, const char *name);

st_status st_unary(int op, st_tensor *out, const st_tensor *a)
{
    if (op < 0 || op >= ST_U_COUNT) return st_fail(ST_E_VALUE, "unknown unary op %d", op);
    int res = st_unary_result(op, a->dtype);
    if (res < 0)
        return st_fail(ST_E_TYPE, "%s is not defined for %s", st_unary_names[op],
                       st_dtype_name(a->dtype));
    if (out->dtype != res)
        return st_fail(ST_E_TYPE, "%s of %s gives %s, but the output is %s", st_unary_names[op],
                       st_dtype_name(a->dtype), st_dtype_name(res), st_dtype_name(out->dtype));
    const st_tensor *ins[1] = {a};
    if (st_is_half(a->dtype)) {
        st_loop_fn fused = st_half_unary_fused(op, out, a);
        if (fused) return run_elementwise(fused, NULL, ST_STREAM, out, 1, ins, st_unary_names[op]);
        return run_blocks(unary_loops[op][ST_FLOAT32], a->dtype, out, 1, ins, st_unary_names[op]);
    }
    return run_elementwise(unary_loops[op][a->dtype], NULL, ST_STREAM, out, 1, ins,
                           st_unary_names[op]);
}

/* ---- pre-checks that keep integer kernels total ---- */
#define DEF_SCAN(CODE, SFX, T, R, ...)                                                             \
    static void scan_zero_##SFX(char **args_, const int64_t *np, const int64_t *s_, void *extra)   \
    {                                                                                              \
        ST_LOCAL_ARGS(1)                                                                           \
        int found = 0;                                                                             \
        for (int64_t i = 0; i < *np; i++) found |= *(const T *)(args[0] + i * s[0]) == 0;          \
        if (found) __atomic_store_n((int *)extra, 1, __ATOMIC_RELAXED);                            \
    }                                                                                              \
    static void scan_neg_##SFX(char **args_, const int64_t *np, const int64_t *s_, void *extra)    \
    {                                                                                              \
        ST_LOCAL_ARGS(1)                                                                           \
        int found = 0;                                                                             \
        for (int64_t i = 0; i < *np; i++)                                                          \
            found |= ST_BELOW_ZERO(T, *(const T *)(args[0] + i * s[0]));                           \
        if (found) __atomic_store_n((int *)extra, 1, __ATOMIC_RELAXED);                            \
    }
ST_TYPES_INT(DEF_SCAN)
#define REG_SCAN(CODE, SFX, T, R, ...)                                                             \
    case CODE:                                                                                     \
        return neg ? scan_neg_##SFX : scan_zero_##SFX;
static st_loop_fn scan_loop(int dtype, int neg)
{
    switch (dtype) {
        ST_TYPES_INT(REG_SCAN)
    default:
        return NULL;
    }
}

static int any_match(const st_tensor *b, int neg)
{
    int found = 0;
    st_iter it;
    const st_tensor *ops[1] = {b};
    if (st_tensor_numel(b) == 0 || st_iter_init(&it, 1, ops, 0)) return 0;
    st_iter_run(&it, scan_loop(b->dtype, neg), &found, 0);
    return found;
}

/* Integer ops whose kernels assume a nonzero divisor or a non-negative
 * exponent: b is scanned first (in the kernel's dtype). */
static int checks_divisor(int op, int dtype)
{
    return st_is_int(dtype) &&
           (op == ST_B_FLOOR_DIVIDE || op == ST_B_REMAINDER || op == ST_B_TRUNC_DIVIDE ||
            op == ST_B_FMOD || op == ST_B_TORCH7_REMAINDER ||
            (op == ST_B_POW && st_is_signed_int(dtype)));
}

st_status st_binary_check_divisor(int op, int dtype, const st_tensor *b)
{
    if (!checks_divisor(op, dtype)) return ST_OK;
    if (op == ST_B_POW) {
        if (any_match(b, 1))
            return st_fail(ST_E_VALUE, "integers to negative integer powers are not allowed");
    } else if (any_match(b, 0)) {
        return st_fail(ST_E_ZERODIV, "integer %s by zero", st_binary_names[op]);
    }
    return ST_OK;
}

st_status st_binary_block_check(int op, int dtype, const char *b, int64_t n, int64_t step)
{
    if (!checks_divisor(op, dtype) || n <= 0) return ST_OK;
    int found = 0;
    char *args[1] = {(char *)b};
    scan_loop(dtype, op == ST_B_POW)(args, &n, &step, &found);
    return !found ? ST_OK : op == ST_B_POW ? ST_E_VALUE : ST_E_ZERODIV;
}

/* The kernel of a op b, pow's small exponents rewritten (b a single
 * element of a's dtype): x ** 2 of a float or complex x is x * x (the exact
 * square rounded once, as a correctly rounded pow gives it, for a multiply
 * instead of a power: `(y - p) ** 2` of library code ran 13x slower than
 * numpy's, which squares), x ** 3 of float64 / float32 the cube kernel
 * (cube_loop).  Either reads a alone, and *b becomes a.  Otherwise op's
 * kernel for a's dtype (st_binary_loop). */
st_loop_fn st_binary_kernel(int op, const st_tensor *a, const st_tensor **b)
{
    const st_tensor *e = *b;
    if (op != ST_B_POW || e->dtype != a->dtype || st_tensor_numel(e) != 1 || !e->storage)
        return st_binary_loop(op, a->dtype);
    const char *p = st_tensor_data(e);
    double re, im = 0.0;
    switch (e->dtype) {
    case ST_FLOAT64:
        re = *(const double *)p;
        break;
    case ST_FLOAT32:
        re = *(const float *)p;
        break;
    case ST_COMPLEX128:
        re = ((const double *)p)[0], im = ((const double *)p)[1];
        break;
    case ST_COMPLEX64:
        re = ((const float *)p)[0], im = ((const float *)p)[1];
        break;
    default:
        return st_binary_loop(op, a->dtype);
    }
    st_loop_fn cube = re == 3.0 && im == 0.0 ? cube_loop(a->dtype) : NULL;
    if (!cube && !(re == 2.0 && im == 0.0)) return st_binary_loop(op, a->dtype);
    *b = a;
    return cube ? cube : binary_loops[ST_B_MULTIPLY][a->dtype];
}

st_status st_binary(int op, st_tensor *out, const st_tensor *a, const st_tensor *b)
{
    if (op < 0 || op >= ST_B_COUNT) return st_fail(ST_E_VALUE, "unknown binary op %d", op);
    if (a->dtype != b->dtype)
        return st_fail(ST_E_TYPE, "%s needs operands of one dtype, got %s and %s",
                       st_binary_names[op], st_dtype_name(a->dtype), st_dtype_name(b->dtype));
    int res = st_binary_result(op, a->dtype);
    if (res < 0)
        return st_fail(ST_E_TYPE, "%s is not defined for %s", st_binary_names[op],
                       st_dtype_name(a->dtype));
    if (out->dtype != res)
        return st_fail(ST_E_TYPE, "%s of %s gives %s, but the output is %s", st_binary_names[op],
                       st_dtype_name(a->dtype), st_dtype_name(res), st_dtype_name(out->dtype));
    st_status rc;
    if (st_tensor_numel(out) > 0 && (rc = st_binary_check_divisor(op, a->dtype, b))) return rc;
    if (st_is_half(a->dtype)) {
        const st_tensor *ins[2] = {a, b};
        st_loop_fn fused = st_half_binary_fused(op, out, a, b);
        if (fused) return run_elementwise(fused, NULL, ST_STREAM, out, 2, ins, st_binary_names[op]);
        return run_blocks(binary_loops[op][ST_FLOAT32], a->dtype, out, 2, ins, st_binary_names[op]);
    }
    st_loop_fn loop = st_binary_kernel(op, a, &b);
    const st_tensor *ins[2] = {a, b};
    const st_rows_pair *pair = &binary_rows[op][a->dtype];
    return run_elementwise(loop, pair->line == loop ? pair->rows : NULL, ST_STREAM, out, 2, ins,
                           st_binary_names[op]);
}

/* ---- blocks: convert a block of each operand, then the kernel ----
 * The iterator runs over (out, inputs...) in their own dtypes; each inner
 * line is cut into MIX_BLOCK elements, an operand of another dtype than
 * the kernel's is cast into a stack buffer (a broadcast one: its single
 * element, once), and the one-dtype kernel runs on the buffers.  Two uses:
 * mixed dtypes (st_binary_as: the inputs cast into the kernel's dtype),
 * and the 16-bit floats, which compute in float32: their blocks widen to
 * float32 (exact), the float32 kernel runs into a buffer too, and its
 * result is rounded back once (so a float16 op gives float32's result
 * rounded to float16, as numpy's float16 loops and PyTorch do).  An input
 * of another dtype than the 16-bit one an op runs as goes to that type
 * first (cast[k], then widen[k]).  Memory: up to 5 blocks per thread.
 * (The common 16-bit ops on contiguous or single-element operands of one
 * dtype skip these passes: half_ew.c's fused kernels, st_half_*_fused.) */
#define MIX_BLOCK 256
typedef struct {
    st_loop_fn loop; /* the kernel */
    int nin;
    st_loop_fn cast[2];                /* cast[k]: input k into the op's dtype, or NULL */
    st_loop_fn widen[2];               /* then a 16-bit op dtype to float32, or NULL */
    st_loop_fn narrow;                 /* the kernel's result into out's dtype, or NULL */
    int64_t item, half_item, res_item; /* the kernel dtype's, the op dtype's, the kernel result's */
} mixed_loop_ctx;

static void mixed_loop(char **args, const int64_t *np, const int64_t *steps, void *extra)
{
    const mixed_loop_ctx *c = *(mixed_loop_ctx *const *)extra;
    void *stream = ((void *const *)extra)[1];
    _Alignas(64) char buf[2][MIX_BLOCK * 16], hbuf[2][MIX_BLOCK * 2], obuf[MIX_BLOCK * 16];
    const int64_t n = *np;
    for (int64_t i0 = 0; i0 < n; i0 += MIX_BLOCK) {
        int64_t m = n - i0 < MIX_BLOCK ? n - i0 : MIX_BLOCK;
        char *p[3] = {c->narrow ? obuf : args[0] + i0 * steps[0]};
        int64_t st[3] = {c->narrow ? c->res_item : steps[0]};
        for (int k = 1; k <= c->nin; k++) {
            p[k] = args[k] + i0 * steps[k];
            st[k] = steps[k];
            if (!c->cast[k - 1] && !c->widen[k - 1]) continue;
            int64_t cn = steps[k] == 0 ? 1 : m; /* a broadcast operand: one element */
            if (i0 == 0 || steps[k] != 0) {
                char *from = p[k];
                int64_t from_step = steps[k];
                if (c->cast[k - 1] && c->widen[k - 1]) { /* to the 16-bit type first */
                    char *cargs[2] = {hbuf[k - 1], from};
                    int64_t csteps[2] = {c->half_item, from_step};
                    c->cast[k - 1](cargs, &cn, csteps, NULL);
                    from = hbuf[k - 1];
                    from_step = c->half_item;
                }
                st_loop_fn conv = c->widen[k - 1] ? c->widen[k - 1] : c->cast[k - 1];
                char *cargs[2] = {buf[k - 1], from};
                int64_t csteps[2] = {c->item, from_step};
                conv(cargs, &cn, csteps, NULL);
            }
            p[k] = buf[k - 1];
            st[k] = steps[k] == 0 ? 0 : c->item;
        }
        c->loop(p, &m, st, c->narrow ? NULL : stream);
        if (c->narrow) {
            char *nargs[2] = {args[0] + i0 * steps[0], obuf};
            int64_t nsteps[2] = {steps[0], c->res_item};
            c->narrow(nargs, &m, nsteps, stream); /* streamed when the op streams */
        }
    }
}

/* Run ctx's blocks over (out, ins) after the checks every op shares. */
static st_status run_mixed(mixed_loop_ctx *ctx, st_tensor *out, const st_tensor **ins,
                           const char *name)
{
    st_status rc;
    if ((rc = st_check_writable(out, "output"))) return rc;
    for (int k = 0; k < ctx->nin; k++)
        if ((rc = st_check_storage(ins[k], name))) return rc;
    const st_tensor *ops[3] = {out, ins[0], ctx->nin > 1 ? ins[1] : NULL};
    st_tensor *tmps[2] = {0};
    for (int k = 0; k < ctx->nin && !rc; k++) rc = detach_input(out, &ops[k + 1], &tmps[k]);
    st_iter it;
    if (!rc) rc = st_iter_init(&it, ctx->nin + 1, ops, 0);
    void *extra[2] = {ctx, NULL};
    int stream = !rc && st_stream_worth(out, ctx->nin, ops + 1, &it);
    extra[1] = stream ? ST_STREAM : NULL;
    if (!rc) st_iter_run(&it, mixed_loop, extra, stream ? ST_ITER_FENCE : 0);
    for (int k = 0; k < ctx->nin; k++) st_tensor_free(tmps[k]);
    return rc;
}

/* An op run as the 16-bit float `half` through float32's kernel `loop32`:
 * the inputs (half, or cast to it first) widened a block at a time, a
 * float32 result rounded back into out (a bool one written as is). */
static st_status run_blocks(st_loop_fn loop32, int half, st_tensor *out, int nin,
                            const st_tensor **ins, const char *name)
{
    mixed_loop_ctx ctx = {loop32,
                          nin,
                          {NULL, NULL},
                          {NULL, NULL},
                          out->dtype == half ? st_cast_loop(ST_FLOAT32, half) : NULL,
                          4,
                          2,
                          4};
    for (int k = 0; k < nin; k++) {
        ctx.cast[k] = ins[k]->dtype == half ? NULL : st_cast_loop(ins[k]->dtype, half);
        ctx.widen[k] = st_cast_loop(half, ST_FLOAT32);
    }
    return run_mixed(&ctx, out, ins, name);
}

st_status st_binary_as(int op, int dtype, st_tensor *out, const st_tensor *a, const st_tensor *b)
{
    if (dtype < 0 || dtype >= ST_NTYPES) return st_fail(ST_E_VALUE, "unknown dtype %d", dtype);
    if (a->dtype == dtype && b->dtype == dtype) return st_binary(op, out, a, b);
    if (op < 0 || op >= ST_B_COUNT) return st_fail(ST_E_VALUE, "unknown binary op %d", op);
    int res = st_binary_result(op, dtype);
    if (res < 0)
        return st_fail(ST_E_TYPE, "%s is not defined for %s", st_binary_names[op],
                       st_dtype_name(dtype));
    if (out->dtype != res)
        return st_fail(ST_E_TYPE, "%s of %s gives %s, but the output is %s", st_binary_names[op],
                       st_dtype_name(dtype), st_dtype_name(res), st_dtype_name(out->dtype));
    const st_tensor *ins[2] = {a, b};
    if (st_is_half(dtype))
        return run_blocks(binary_loops[op][ST_FLOAT32], dtype, out, 2, ins, st_binary_names[op]);
    st_status rc;
    if (checks_divisor(op, dtype) && b->dtype != dtype) {
        /* the check reads b in the kernel's dtype: convert b whole (rare) */
        st_tensor *tb = st_tensor_temp_like(b, dtype);
        if (!tb) return st_last_status();
        rc = st_copy(tb, b);
        if (!rc) rc = st_binary_as(op, dtype, out, a, tb);
        st_tensor_free(tb);
        return rc;
    }
    if (st_tensor_numel(out) > 0 && (rc = st_binary_check_divisor(op, dtype, b))) return rc;
    mixed_loop_ctx ctx = {binary_loops[op][dtype],
                          2,
                          {a->dtype == dtype ? NULL : st_cast_loop(a->dtype, dtype),
                           b->dtype == dtype ? NULL : st_cast_loop(b->dtype, dtype)},
                          {NULL, NULL},
                          NULL,
                          st_itemsize(dtype),
                          0,
                          0};
    return run_mixed(&ctx, out, ins, st_binary_names[op]);
}

/* ---- where: type-agnostic, by item size ----
 * Both branches are loaded and the condition, as an all-ones or all-zeros
 * mask, selects bits (GCC vectorises that at each level, not `c ? a : b`,
 * a branch that on a random condition mispredicts every other element). */
#define WHERE_LOOP(A_AT, B_AT)                                                                     \
    _Pragma("GCC ivdep")                                                                           \
    for (int64_t i = 0; i < n; i++) {                                                              \
        const st_T m = (st_T)0 - (st_T)(cb[i] != 0);                                               \
        o[i] = (st_T)((A_AT & m) | (B_AT & (st_T)~m));                                             \
    }
#define DEF_WHERE_ISA(ISA, ATTR, BITS, T)                                                          \
    ATTR static void where_##BITS##ISA(char **args_, const int64_t *np, const int64_t *s_,         \
                                       void *extra)                                                \
    {                                                                                              \
        ST_LOCAL_ARGS(4)                                                                           \
        (void)extra;                                                                               \
        typedef T st_T;                                                                            \
        const int64_t n = *np, w = sizeof(T);                                                      \
        if (n <= 0) return;                                                                        \
        if (s[0] == w && s[1] == 1 && (s[2] == w || s[2] == 0) && (s[3] == w || s[3] == 0)) {      \
            T *o = (T *)args[0];                                                                   \
            const uint8_t *cb = (const uint8_t *)args[1];                                          \
            const T *A = (const T *)args[2], *B = (const T *)args[3];                              \
            const T a0 = *A, b0 = *B; /* a broadcast branch (step 0): its one value */             \
            if (s[2] && s[3])                                                                      \
                WHERE_LOOP(A[i], B[i])                                                             \
            else if (s[3])                                                                         \
                WHERE_LOOP(a0, B[i])                                                               \
            else if (s[2])                                                                         \
                WHERE_LOOP(A[i], b0)                                                               \
            else                                                                                   \
                WHERE_LOOP(a0, b0)                                                                 \
            return;                                                                                \
        }                                                                                          \
        for (int64_t i = 0; i < n; i++) {                                                          \
            const T a = *(const T *)(args[2] + i * s[2]), b = *(const T *)(args[3] + i * s[3]);    \
            const T m = (T)0 - (T)(*(const uint8_t *)(args[1] + i * s[1]) != 0);                   \
            *(T *)(args[0] + i * s[0]) = (T)((a & m) | (b & (T)~m));                               \
        }                                                                                          \
    }
ST_LEVELS(DEF_WHERE_ISA, 8, uint8_t)
ST_LEVELS(DEF_WHERE_ISA, 16, uint16_t)
ST_LEVELS(DEF_WHERE_ISA, 32, uint32_t)
ST_LEVELS(DEF_WHERE_ISA, 64, uint64_t)
/* 16-byte elements (complex128) as bytes: a view's data may be only 8-aligned */
static void where_128(char **args_, const int64_t *np, const int64_t *s_, void *extra)
{
    ST_LOCAL_ARGS(4)
    (void)extra;
    for (int64_t i = 0; i < *np; i++) {
        /* (the condition read as a byte: a bool array borrowed from another
         * library may hold bytes other than 0 and 1, which a _Bool load may not) */
        const char *src =
            *(const uint8_t *)(args[1] + i * s[1]) ? args[2] + i * s[2] : args[3] + i * s[3];
        memcpy(args[0] + i * s[0], src, 16);
    }
}

st_status st_where(st_tensor *out, const st_tensor *cond, const st_tensor *a, const st_tensor *b)
{
    st_status rc;
    if ((rc = st_check_dtype(cond, ST_BOOL, "where's condition"))) return rc;
    if (a->dtype != b->dtype || out->dtype != a->dtype)
        return st_fail(ST_E_TYPE,
                       "where needs one dtype for both branches and the output, "
                       "got %s, %s and %s",
                       st_dtype_name(a->dtype), st_dtype_name(b->dtype), st_dtype_name(out->dtype));
    const st_loop_fn by_size[17] = {[1] = ST_PICK(where_8),
                                    [2] = ST_PICK(where_16),
                                    [4] = ST_PICK(where_32),
                                    [8] = ST_PICK(where_64),
                                    [16] = where_128};
    const st_tensor *ins[3] = {cond, a, b};
    return run_elementwise(by_size[st_itemsize(a->dtype)], NULL, NULL, out, 3, ins, "where");
}

/* ---- clamp: max(a, lo) then min(., hi), NaN-propagating ---- */
#define DEF_CLAMP(CODE, SFX, T, R, ...)                                                            \
    static void clamp_##SFX(char **args_, const int64_t *np, const int64_t *s_, void *extra)       \
    {                                                                                              \
        ST_LOCAL_ARGS(4)                                                                           \
        (void)extra;                                                                               \
        for (int64_t i = 0; i < *np; i++) {                                                        \
            T x = *(const T *)(args[1] + i * s[1]);                                                \
            T lo = *(const T *)(args[2] + i * s[2]), hi = *(const T *)(args[3] + i * s[3]);        \
            x = MAXP(x, lo);                                                                       \
            *(T *)(args[0] + i * s[0]) = MINP(x, hi);                                              \
        }                                                                                          \
    }
ST_TYPES_BOOL(DEF_CLAMP)
ST_TYPES_REAL(DEF_CLAMP)
#define CASE_CLAMP(CODE, SFX, T, R, ...)                                                           \
    case CODE:                                                                                     \
        loop = clamp_##SFX;                                                                        \
        break;

st_status st_clamp(st_tensor *out, const st_tensor *a, const st_tensor *lo, const st_tensor *hi)
{
    if (!lo && !hi) return st_copy(out, a);
    if (!lo) return st_binary(ST_B_MINIMUM, out, a, hi);
    if (!hi) return st_binary(ST_B_MAXIMUM, out, a, lo);
    if (lo->dtype != a->dtype || hi->dtype != a->dtype || out->dtype != a->dtype)
        return st_fail(ST_E_TYPE, "clamp needs one dtype, got %s, %s, %s and output %s",
                       st_dtype_name(a->dtype), st_dtype_name(lo->dtype), st_dtype_name(hi->dtype),
                       st_dtype_name(out->dtype));
    if (st_is_half(a->dtype)) { /* maximum, then minimum: both exact, NaN-propagating */
        st_tensor *t = st_tensor_overlaps(out, hi) ? st_tensor_temp_like(out, out->dtype) : NULL;
        if (st_tensor_overlaps(out, hi) && !t) return st_last_status();
        st_status rc = st_binary(ST_B_MAXIMUM, t ? t : out, a, lo);
        if (!rc) rc = st_binary(ST_B_MINIMUM, out, t ? t : out, hi);
        st_tensor_free(t);
        return rc;
    }
    st_loop_fn loop = NULL;
    switch (a->dtype) {
        ST_TYPES_BOOL(CASE_CLAMP)
        ST_TYPES_REAL(CASE_CLAMP)
    default:
        return st_fail(ST_E_TYPE, "clamp is not defined for %s", st_dtype_name(a->dtype));
    }
    const st_tensor *ins[3] = {a, lo, hi};
    return run_elementwise(loop, NULL, NULL, out, 3, ins, "clamp");
}
#endif /* ST_PART == 0 */
