/* st_half.h -- the 16-bit floats, float16 (IEEE binary16) and bfloat16
 * (float32's top half): one value at a time, exact, portable.  Their
 * elements are uint16_t bit patterns in C.
 *
 * Widening (to float, to double) is exact.  Narrowing rounds once, to
 * nearest, ties to even: subnormals rounded as such, beyond the largest
 * finite value to infinity, a NaN stays a NaN (quiet, its sign and the top
 * bits of its payload kept: what F16C's vcvtps2ph gives, so every CPU
 * level writes the same bits).  From a double the rounding is done on the
 * double's bits (never through float: a double within float's rounding of
 * a tie would round twice).  Integers wider than a double's 53 bits reach
 * it rounded to odd (st_u64_to_double_odd), which a later rounding to at
 * most 51 bits leaves as one rounding of the integer. */
#ifndef ST_HALF_H
#define ST_HALF_H
#include <stdint.h>
#include <string.h>

static inline uint32_t st_f32_bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    return u;
}
static inline float st_bits_f32(uint32_t u)
{
    float x;
    memcpy(&x, &u, 4);
    return x;
}

/* ---- float16 <-> float32 (the kernels' pair; F16C does these at levels 3, 4) ---- */
static inline float st_f16_to_f32(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    uint32_t u;
    if (e == 0x1f)
        u = 0x7f800000u | (m << 13) | (m ? 0x400000u : 0); /* infinity, NaN (quiet, as F16C) */
    else if (e)
        u = ((e + 112) << 23) | (m << 13); /* normal: bias 15 -> 127 */
    else {                                 /* subnormal: exact */
        const float v = (float)m * 0x1p-24f;
        return sign ? -v : v;
    }
    return st_bits_f32(sign | u);
}

static inline uint16_t st_f32_to_f16(float x)
{
    const uint32_t u = st_f32_bits(x), sign = (u >> 16) & 0x8000, a = u & 0x7fffffffu;
    if (a >= 0x7f800000u) /* infinity, NaN */
        return (uint16_t)(sign | (a == 0x7f800000u ? 0x7c00 : 0x7e00 | ((a >> 13) & 0x3ff)));
    if (a >= 0x477ff000u) return (uint16_t)(sign | 0x7c00); /* >= 65520: infinity */
    if (a < 0x38800000u) {                                  /* below 2^-14: subnormal */
        /* adding 0.5 puts the multiples of 2^-24 in the low mantissa bits,
         * rounded to nearest even by the float addition itself */
        const float r = st_bits_f32(a) + 0.5f;
        return (uint16_t)(sign | (st_f32_bits(r) - 0x3f000000u));
    }
    /* normal: drop 13 bits, to nearest even; a carry moves into the exponent */
    const uint32_t q = a + 0x0fffu + ((a >> 13) & 1) - (112u << 23);
    return (uint16_t)(sign | (q >> 13));
}

/* ---- bfloat16 <-> float32 ---- */
static inline float st_bf16_to_f32(uint16_t h) { return st_bits_f32((uint32_t)h << 16); }

static inline uint16_t st_f32_to_bf16(float x)
{
    const uint32_t u = st_f32_bits(x);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40); /* NaN: quiet */
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1)) >> 16);
}

/* ---- from and to double ---- */
/* A double's bits rounded to a binary float of EXP exponent bits and MANT
 * mantissa bits (float16: 5, 10; bfloat16: 8, 7). */
static inline uint16_t st_double_to_narrow(double x, int EXP, int MANT)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    const int bias = (1 << (EXP - 1)) - 1, emin = 1 - bias;
    const uint16_t sign = (uint16_t)((u >> 48) & 0x8000),
                   inf = (uint16_t)(((1u << EXP) - 1) << MANT);
    const uint64_t a = u & 0x7fffffffffffffffull;
    if (a >= 0x7ff0000000000000ull) /* infinity, NaN */
        return a == 0x7ff0000000000000ull ? (uint16_t)(sign | inf)
                                          : (uint16_t)(sign | inf | (1u << (MANT - 1)) |
                                                       ((a >> (52 - MANT)) & ((1u << MANT) - 1)));
    const int e = (int)(a >> 52) - 1023; /* x = 1.m * 2^e */
    if (e > bias) return (uint16_t)(sign | inf);
    if (e < emin - MANT - 1) return sign; /* below half the least subnormal */
    const uint64_t m = (a & 0xfffffffffffffull) | 0x10000000000000ull; /* 53 bits */
    const int shift = 52 - MANT + (e >= emin ? 0 : emin - e);
    uint64_t q = m >> shift;
    const uint64_t r = m & ((1ull << shift) - 1), tie = 1ull << (shift - 1);
    if (r > tie || (r == tie && (q & 1))) q++;
    if (e < emin) return (uint16_t)(sign | q); /* q == 1 << MANT: the least normal */
    /* a carry out of the mantissa moves into the exponent (up to infinity) */
    return (uint16_t)(sign | ((((uint64_t)(e + bias)) << MANT) + (q - (1ull << MANT))));
}

/* An integer as a double rounded to odd: exact up to 2^53, beyond it the
 * dropped bits or'ed into the lowest kept one. */
static inline double st_u64_to_double_odd(uint64_t x)
{
    if (x < (1ull << 53)) return (double)x;
    const int drop = 11 - __builtin_clzll(x);
    const uint64_t kept = (x >> drop) | ((x & ((1ull << drop) - 1)) != 0);
    return (double)kept * (double)(1ull << drop); /* both exact */
}
static inline double st_i64_to_double_odd(int64_t x)
{
    return x < 0 ? -st_u64_to_double_odd(-(uint64_t)x) : st_u64_to_double_odd((uint64_t)x);
}

#endif
