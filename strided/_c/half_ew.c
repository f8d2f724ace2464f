/* half_ew.c -- elementwise ops of the 16-bit floats (float16, bfloat16)
 * fused with their conversions.
 *
 * elementwise.c runs a 16-bit op a block at a time (run_blocks): each input
 * widened into a float32 buffer, float32's kernel into another, the result
 * narrowed back: four passes over L1 and four indirect calls per 256
 * elements, 0.7-0.9x PyTorch at 10^7 on AMD EPYC Zen 4.  The kernels here
 * do the same arithmetic without the passes: load 16-bit values, widen
 * them in registers (F16C's vcvtph2ps at levels 3 and 4; bfloat16 by a
 * shift), run float32's operation, round back in registers (vcvtps2ph;
 * bfloat16 by st_f32_to_bf16's integer rounding, written with vector
 * integer ops) and store, streamed when the op streams (ST_STREAM, as
 * st_stream_worth decides).  The results are bit for bit the block path's:
 * float32's result rounded once (but for which payload an add or multiply
 * of two NaNs keeps: x86 keeps its first operand's, and the compiler
 * orders a commutative operation's operands as it likes, so float32's
 * own kernels keep a's or b's by layout and level already).  F16C and
 * st_half.h's portable rounding agree on every value (NaNs included), so
 * the lanes of a tail or of a strided line converted one at a time match
 * the vector ones.
 *
 * Two families, chosen by st_half_binary_fused / st_half_unary_fused for
 * an op whose inputs and output are all one 16-bit dtype, the output
 * contiguous and each input contiguous or a single element:
 *   binary: add, subtract, multiply, divide, maximum, minimum -- a
 *     vector at a time, a broadcast operand (step 0) widened once;
 *   unary: exp, log, sin, cos -- vmath.h's float32 kernels (the ones
 *     elementwise.c's DEF_VMATH runs for float32 at each level) over a
 *     widened block in L1, the lanes outside their domain recomputed by
 *     libm as there, the block narrowed straight into the output (exp
 *     at level 4: float32's kernel there, vmath512.h's st_vexpf16).
 * Any other op or layout keeps the block path.  A kernel still serves
 * any steps the iterator hands it (one value at a time off the fast
 * layout), so no layout can read or write out of place. */
#include "st_internal.h"
#include "st_half.h"
#include "vmath.h"
#include <math.h>
#if ST_HAS_LEVELS
#include <immintrin.h>
#include "vmath512.h"
#endif

#define HE_MAXP(a, b) (((a) > (b) || (a) != (a)) ? (a) : (b))
#define HE_MINP(a, b) (((a) < (b) || (a) != (a)) ? (a) : (b))

/* ---- per level: a vector of W floats (HV), its 16-bit loads and stores ----
 * ld_H(p): W values at p widened; sto_H(p, v): v rounded into W values at
 * p; ldn_H / ston_H the same for the first r < W (a tail: nothing read or
 * written past them). */
/* level 0: one value (GCC may still vectorise bfloat16's integer code) */
#define HE_W_v0 1
typedef float hv_v0;
static inline float ld_f16_v0(const uint16_t *p) { return st_f16_to_f32(*p); }
static inline float ld_bf16_v0(const uint16_t *p) { return st_bf16_to_f32(*p); }
static inline void sto_f16_v0(uint16_t *p, float v) { *p = st_f32_to_f16(v); }
static inline void sto_bf16_v0(uint16_t *p, float v) { *p = st_f32_to_bf16(v); }
#define ldn_f16_v0(p, r) ld_f16_v0(p)
#define ldn_bf16_v0(p, r) ld_bf16_v0(p)
#define ston_f16_v0(p, v, r) sto_f16_v0(p, v)
#define ston_bf16_v0(p, v, r) sto_bf16_v0(p, v)
#define splat_v0(x) (x)
#define ADD_v0(a, b) ((a) + (b))
#define SUB_v0(a, b) ((a) - (b))
#define MUL_v0(a, b) ((a) * (b))
#define DIV_v0(a, b) ((a) / (b))
#define MAX_v0(a, b) HE_MAXP(a, b)
#define MIN_v0(a, b) HE_MINP(a, b)
#define psst_v0(p, v) (*(p) = (v))
#define psld_v0(p) (*(p))

#if ST_HAS_LEVELS
#define HE_V3 static inline __attribute__((always_inline, target("arch=x86-64-v3")))
#define HE_V4 static inline __attribute__((always_inline, target("arch=x86-64-v4")))

/* level 3: 8 floats (AVX2, F16C) */
#define HE_W_v3 8
typedef __m256 hv_v3;
HE_V3 __m256 ld_f16_v3(const uint16_t *p)
{
    return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)p));
}
HE_V3 __m256 ld_bf16_v3(const uint16_t *p)
{
    const __m256i w = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)p));
    return _mm256_castsi256_ps(_mm256_slli_epi32(w, 16));
}
HE_V3 void sto_f16_v3(uint16_t *p, __m256 v)
{
    _mm_storeu_si128((__m128i *)p, _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
}
/* st_f32_to_bf16 on 8 lanes: round to nearest even by adding 0x7fff plus
 * the lowest kept bit; a NaN keeps its top bits, made quiet */
HE_V3 void sto_bf16_v3(uint16_t *p, __m256 v)
{
    const __m256i u = _mm256_castps_si256(v), hi = _mm256_srli_epi32(u, 16);
    const __m256i odd = _mm256_and_si256(hi, _mm256_set1_epi32(1));
    __m256i r = _mm256_srli_epi32(
        _mm256_add_epi32(_mm256_add_epi32(u, _mm256_set1_epi32(0x7fff)), odd), 16);
    /* |u| > inf's bits: a signed compare is right, both sides below 2^31 */
    const __m256i nan = _mm256_cmpgt_epi32(_mm256_and_si256(u, _mm256_set1_epi32(0x7fffffff)),
                                           _mm256_set1_epi32(0x7f800000));
    r = _mm256_blendv_epi8(r, _mm256_or_si256(hi, _mm256_set1_epi32(0x40)), nan);
    /* every lane is in [0, 0xffff]: packus's unsigned saturation keeps it */
    _mm_storeu_si128((__m128i *)p,
                     _mm_packus_epi32(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1)));
}
/* tails through 8 values on the stack (zeros past r: harmless lanes) */
HE_V3 __m256 ldn_f16_v3(const uint16_t *p, int64_t r)
{
    uint16_t t[8] = {0};
    memcpy(t, p, (size_t)r * 2);
    return ld_f16_v3(t);
}
HE_V3 __m256 ldn_bf16_v3(const uint16_t *p, int64_t r)
{
    uint16_t t[8] = {0};
    memcpy(t, p, (size_t)r * 2);
    return ld_bf16_v3(t);
}
HE_V3 void ston_f16_v3(uint16_t *p, __m256 v, int64_t r)
{
    uint16_t t[8];
    sto_f16_v3(t, v);
    memcpy(p, t, (size_t)r * 2);
}
HE_V3 void ston_bf16_v3(uint16_t *p, __m256 v, int64_t r)
{
    uint16_t t[8];
    sto_bf16_v3(t, v);
    memcpy(p, t, (size_t)r * 2);
}
#define splat_v3(x) _mm256_set1_ps(x)
#define ADD_v3(a, b) _mm256_add_ps(a, b)
#define SUB_v3(a, b) _mm256_sub_ps(a, b)
#define MUL_v3(a, b) _mm256_mul_ps(a, b)
#define DIV_v3(a, b) _mm256_div_ps(a, b)
/* HE_MAXP lane by lane: a where a > b or a is NaN, else b (so NaN
 * propagates, and max(-0, +0) is b as in the scalar form) */
HE_V3 __m256 MAX_v3(__m256 a, __m256 b)
{
    const __m256 m =
        _mm256_or_ps(_mm256_cmp_ps(a, b, _CMP_GT_OQ), _mm256_cmp_ps(a, a, _CMP_UNORD_Q));
    return _mm256_blendv_ps(b, a, m);
}
HE_V3 __m256 MIN_v3(__m256 a, __m256 b)
{
    const __m256 m =
        _mm256_or_ps(_mm256_cmp_ps(a, b, _CMP_LT_OQ), _mm256_cmp_ps(a, a, _CMP_UNORD_Q));
    return _mm256_blendv_ps(b, a, m);
}
#define psst_v3(p, v) _mm256_storeu_ps(p, v)
#define psld_v3(p) _mm256_loadu_ps(p)

/* level 4: 16 floats (AVX-512); tails by masked loads and stores, which
 * touch no memory past r */
#define HE_W_v4 16
typedef __m512 hv_v4;
#define HE_MASK(r) ((__mmask16)((1u << (r)) - 1))
HE_V4 __m512 ld_f16_v4(const uint16_t *p)
{
    return _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)p));
}
HE_V4 __m512 bf16_widen_v4(__m256i h)
{
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}
HE_V4 __m512 ld_bf16_v4(const uint16_t *p)
{
    return bf16_widen_v4(_mm256_loadu_si256((const __m256i *)p));
}
HE_V4 __m256i f16_narrow_v4(__m512 v) { return _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT); }
HE_V4 __m256i bf16_narrow_v4(__m512 v) /* as sto_bf16_v3 */
{
    const __m512i u = _mm512_castps_si512(v), hi = _mm512_srli_epi32(u, 16);
    const __m512i odd = _mm512_and_si512(hi, _mm512_set1_epi32(1));
    const __m512i r = _mm512_srli_epi32(
        _mm512_add_epi32(_mm512_add_epi32(u, _mm512_set1_epi32(0x7fff)), odd), 16);
    const __mmask16 nan = _mm512_cmpgt_epu32_mask(
        _mm512_and_si512(u, _mm512_set1_epi32(0x7fffffff)), _mm512_set1_epi32(0x7f800000));
    return _mm512_cvtepi32_epi16(
        _mm512_mask_mov_epi32(r, nan, _mm512_or_si512(hi, _mm512_set1_epi32(0x40))));
}
HE_V4 void sto_f16_v4(uint16_t *p, __m512 v)
{
    _mm256_storeu_si256((__m256i *)p, f16_narrow_v4(v));
}
HE_V4 void sto_bf16_v4(uint16_t *p, __m512 v)
{
    _mm256_storeu_si256((__m256i *)p, bf16_narrow_v4(v));
}
HE_V4 __m512 ldn_f16_v4(const uint16_t *p, int64_t r)
{
    return _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(HE_MASK(r), p));
}
HE_V4 __m512 ldn_bf16_v4(const uint16_t *p, int64_t r)
{
    return bf16_widen_v4(_mm256_maskz_loadu_epi16(HE_MASK(r), p));
}
HE_V4 void ston_f16_v4(uint16_t *p, __m512 v, int64_t r)
{
    _mm256_mask_storeu_epi16(p, HE_MASK(r), f16_narrow_v4(v));
}
HE_V4 void ston_bf16_v4(uint16_t *p, __m512 v, int64_t r)
{
    _mm256_mask_storeu_epi16(p, HE_MASK(r), bf16_narrow_v4(v));
}
#define splat_v4(x) _mm512_set1_ps(x)
#define ADD_v4(a, b) _mm512_add_ps(a, b)
#define SUB_v4(a, b) _mm512_sub_ps(a, b)
#define MUL_v4(a, b) _mm512_mul_ps(a, b)
#define DIV_v4(a, b) _mm512_div_ps(a, b)
HE_V4 __m512 MAX_v4(__m512 a, __m512 b) /* as MAX_v3 */
{
    return _mm512_mask_blend_ps(
        _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ) | _mm512_cmp_ps_mask(a, a, _CMP_UNORD_Q), b, a);
}
HE_V4 __m512 MIN_v4(__m512 a, __m512 b)
{
    return _mm512_mask_blend_ps(
        _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ) | _mm512_cmp_ps_mask(a, a, _CMP_UNORD_Q), b, a);
}
#define psst_v4(p, v) _mm512_storeu_ps(p, v)
#define psld_v4(p) _mm512_loadu_ps(p)
#endif

/* ---- binary: out = H(OP(float(a), float(b))) ---- */
/* o[0, n) from operands read as LA / LB (expressions of i: a vector at
 * i) and LAN / LBN (the first n - i at i) */
#define HE_BIN_LOOP(ISA, OP, H, o, n, LA, LB, LAN, LBN)                                            \
    do {                                                                                           \
        int64_t i = 0;                                                                             \
        for (; i + HE_W##ISA <= (n); i += HE_W##ISA) sto_##H##ISA((o) + i, OP##ISA(LA, LB));       \
        if (i < (n)) ston_##H##ISA((o) + i, OP##ISA(LAN, LBN), (n) - i);                           \
    } while (0)
#define DEF_HE_BIN(ISA, ATTR, OP, H)                                                               \
    ATTR static void he_##OP##_##H##ISA(char **args_, const int64_t *np, const int64_t *s_,        \
                                        void *extra)                                               \
    {                                                                                              \
        ST_LOCAL_ARGS(3)                                                                           \
        const int64_t n = *np;                                                                     \
        if (n <= 0) return;                                                                        \
        if (s[0] != 2 || (s[1] != 2 && s[1] != 0) || (s[2] != 2 && s[2] != 0)) {                   \
            for (int64_t i = 0; i < n; i++) {                                                      \
                const float a = st_##H##_to_f32(*(const uint16_t *)(args[1] + i * s[1]));          \
                const float b = st_##H##_to_f32(*(const uint16_t *)(args[2] + i * s[2]));          \
                *(uint16_t *)(args[0] + i * s[0]) = st_f32_to_##H(OP##_v0(a, b));                  \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        const uint16_t *A = (const uint16_t *)args[1], *B = (const uint16_t *)args[2];             \
        /* a broadcast operand: its one value, widened once */                                     \
        const float a0 = st_##H##_to_f32(*A), b0 = st_##H##_to_f32(*B);                            \
        const hv##ISA av = splat##ISA(a0), bv = splat##ISA(b0);                                    \
        ST_STREAM_RUNS(uint16_t, (uint16_t *)args[0], n, extra)                                    \
        const uint16_t *a = A + (s[1] ? k_ : 0), *b = B + (s[2] ? k_ : 0);                         \
        if (s[1] && s[2])                                                                          \
            HE_BIN_LOOP(ISA, OP, H, d_, m_, ld_##H##ISA(a + i), ld_##H##ISA(b + i),                \
                        ldn_##H##ISA(a + i, m_ - i), ldn_##H##ISA(b + i, m_ - i));                 \
        else if (s[1])                                                                             \
            HE_BIN_LOOP(ISA, OP, H, d_, m_, ld_##H##ISA(a + i), bv, ldn_##H##ISA(a + i, m_ - i),   \
                        bv);                                                                       \
        else if (s[2])                                                                             \
            HE_BIN_LOOP(ISA, OP, H, d_, m_, av, ld_##H##ISA(b + i), av,                            \
                        ldn_##H##ISA(b + i, m_ - i));                                              \
        else {                                                                                     \
            const uint16_t r = st_f32_to_##H(OP##_v0(a0, b0));                                     \
            for (int64_t j = 0; j < m_; j++) d_[j] = r;                                            \
        }                                                                                          \
        ST_STREAM_RUNS_END(uint16_t);                                                              \
    }
#define DEF_HE_BIN_TYPES(ISA, ATTR, OP)                                                            \
    DEF_HE_BIN(ISA, ATTR, OP, f16)                                                                 \
    DEF_HE_BIN(ISA, ATTR, OP, bf16)
/* clang-format off */
#define HE_BINARY_OPS(X)                                                              \
    X(ADD, ST_B_ADD) X(SUB, ST_B_SUBTRACT) X(MUL, ST_B_MULTIPLY) X(DIV, ST_B_DIVIDE)  \
    X(MAX, ST_B_MAXIMUM) X(MIN, ST_B_MINIMUM)
/* clang-format on */
#define HE_DEF_BIN_OP(OP, CODE) ST_LEVELS(DEF_HE_BIN_TYPES, OP)
HE_BINARY_OPS(HE_DEF_BIN_OP)

/* ---- unary: vmath.h's float32 kernels over widened blocks ---- */
#define HE_BLOCK 256
/* the widened block x[0, m) from the 16-bit h[0, m); narrowed o[0, m) from r */
#define DEF_HE_CONVERT(ISA, ATTR, H)                                                               \
    ATTR static inline __attribute__((always_inline)) void he_widen_##H##ISA(                      \
        float *x, const uint16_t *h, int64_t m)                                                    \
    {                                                                                              \
        int64_t i = 0;                                                                             \
        for (; i + HE_W##ISA <= m; i += HE_W##ISA) psst##ISA(x + i, ld_##H##ISA(h + i));           \
        for (; i < m; i++) x[i] = st_##H##_to_f32(h[i]);                                           \
    }                                                                                              \
    ATTR static inline __attribute__((always_inline)) void he_narrow_##H##ISA(                     \
        uint16_t *o, const float *r, int64_t m)                                                    \
    {                                                                                              \
        int64_t i = 0;                                                                             \
        for (; i + HE_W##ISA <= m; i += HE_W##ISA) sto_##H##ISA(o + i, psld##ISA(r + i));          \
        for (; i < m; i++) o[i] = st_f32_to_##H(r[i]);                                             \
    }
ST_LEVELS(DEF_HE_CONVERT, f16)
ST_LEVELS(DEF_HE_CONVERT, bf16)

/* The float32 kernels, as elementwise.c runs them for float32 at each
 * level: (how a line is computed, the kernel, the type it computes in,
 * its domain test, the libm function of the lanes outside).  A line is
 * HE_BLOCKS (vmath.h's scalar form over widened blocks in L1, as
 * elementwise.c's DEF_VMATH) or, for exp at level 4, HE_BLOCKS16 (the same
 * blocks through the AVX-512 kernel elementwise.c's v512_EXP_float32 runs,
 * vmath512.h's st_vexpf16).
 * exp at level 0 is the float64 kernel (st_vexpf needs hardware FMA:
 * elementwise.c's EXP_WIDE). */
#define HE_EXP_v4 HE_BLOCKS16, he_vexpf16, float, ST_VEXPF_SPECIAL, expf
#define HE_EXP_v3 HE_BLOCKS, st_vexpf, float, ST_VEXPF_SPECIAL, expf
#define HE_EXP_v0 HE_BLOCKS, st_vexp, double, ST_VEXP_SPECIAL, expf
#define HE_LOG_ALL HE_BLOCKS, st_vlogf, float, ST_VLOGF_SPECIAL, logf
#define HE_SIN_ALL HE_BLOCKS, HE_VSIN, double, ST_VTRIG_SPECIAL, sinf
#define HE_COS_ALL HE_BLOCKS, HE_VCOS, double, ST_VTRIG_SPECIAL, cosf
#define HE_LOG_v4 HE_LOG_ALL
#define HE_LOG_v3 HE_LOG_ALL
#define HE_LOG_v0 HE_LOG_ALL
#define HE_SIN_v4 HE_SIN_ALL
#define HE_SIN_v3 HE_SIN_ALL
#define HE_SIN_v0 HE_SIN_ALL
#define HE_COS_v4 HE_COS_ALL
#define HE_COS_v3 HE_COS_ALL
#define HE_COS_v0 HE_COS_ALL
#define HE_VSIN(x) st_vsincos(x, 0)
#define HE_VCOS(x) st_vsincos(x, 1)

/* the lanes outside the kernel's domain, by libm (rare: kept out of line
 * and unvectorised, as elementwise.c's vfix_) */
#define DEF_HE_FIX(OP, LINE, MAIN, WT, SPECIAL, LIBM)                                              \
    __attribute__((noinline, optimize("no-tree-vectorize"))) static void he_fix_##OP(              \
        float *r, const float *x, int64_t m)                                                       \
    {                                                                                              \
        for (int64_t j = 0; j < m; j++)                                                            \
            if (SPECIAL((WT)x[j])) r[j] = LIBM(x[j]);                                              \
    }
#define DEF_HE_FIX_(...) DEF_HE_FIX(__VA_ARGS__)
DEF_HE_FIX_(EXP, HE_EXP_v3)
DEF_HE_FIX_(EXP_WIDE, HE_EXP_v0)
DEF_HE_FIX_(LOG, HE_LOG_ALL)
DEF_HE_FIX_(SIN, HE_SIN_ALL)
DEF_HE_FIX_(COS, HE_COS_ALL)
#define HE_FIX_EXP_v4 he_fix_EXP
#define HE_FIX_EXP_v3 he_fix_EXP
#define HE_FIX_EXP_v0 he_fix_EXP_WIDE
#define HE_FIX_LOG_v4 he_fix_LOG
#define HE_FIX_LOG_v3 he_fix_LOG
#define HE_FIX_LOG_v0 he_fix_LOG
#define HE_FIX_SIN_v4 he_fix_SIN
#define HE_FIX_SIN_v3 he_fix_SIN
#define HE_FIX_SIN_v0 he_fix_SIN
#define HE_FIX_COS_v4 he_fix_COS
#define HE_FIX_COS_v3 he_fix_COS
#define HE_FIX_COS_v0 he_fix_COS

/* o[0, m) (contiguous) of the m inputs at `in`, byte step `step`, a block
 * of HE_BLOCK at a time: read whole before any of it is written, so o
 * may be the input itself */
#define DEF_HE_UN_LINE(ISA, ATTR, OP, H, LINE, MAIN, WT, SPECIAL, LIBM)                            \
    DEF_##LINE(ISA, ATTR, OP, H, MAIN, WT, SPECIAL, LIBM)
/* The frame of a line: each block gathered (a strided input), widened into
 * x, computed into r by COMPUTE (which sets `special` when a lane needs
 * the libm fix), fixed, narrowed into o. */
#define HE_LINE_FRAME(ISA, ATTR, OP, H, COMPUTE)                                                   \
    ATTR static inline __attribute__((always_inline)) void heu_line_##OP##_##H##ISA(               \
        uint16_t *o, const char *in, int64_t step, int64_t m)                                      \
    {                                                                                              \
        float x[HE_BLOCK] __attribute__((aligned(64)));                                            \
        float r[HE_BLOCK] __attribute__((aligned(64)));                                            \
        uint16_t g[HE_BLOCK];                                                                      \
        for (int64_t i0 = 0; i0 < m; i0 += HE_BLOCK) {                                             \
            const int64_t b = m - i0 < HE_BLOCK ? m - i0 : HE_BLOCK;                               \
            const uint16_t *h = (const uint16_t *)(in + i0 * step);                                \
            if (step != 2) {                                                                       \
                for (int64_t j = 0; j < b; j++) g[j] = *(const uint16_t *)(in + (i0 + j) * step);  \
                h = g;                                                                             \
            }                                                                                      \
            he_widen_##H##ISA(x, h, b);                                                            \
            int special = 0;                                                                       \
            COMPUTE;                                                                               \
            if (special) HE_FIX_##OP##ISA(r, x, b);                                                \
            he_narrow_##H##ISA(o + i0, r, b);                                                      \
        }                                                                                          \
    }
#define DEF_HE_BLOCKS(ISA, ATTR, OP, H, MAIN, WT, SPECIAL, LIBM)                                   \
    HE_LINE_FRAME(                                                                                 \
        ISA, ATTR, OP, H, _Pragma("GCC ivdep") for (int64_t j = 0; j < b; j++) {                   \
            r[j] = (float)MAIN((WT)x[j]);                                                          \
            special |= SPECIAL((WT)x[j]);                                                          \
        })
#if ST_HAS_LEVELS
/* Level 4's exp: HE_BLOCKS with the AVX-512 kernel, 16 lanes a vector
 * (the tail masked) over the widened block, the lanes outside its domain
 * (!(|x| < 160): ST_VEXPF_SPECIAL, NaN included) noted in a mask on the
 * way and recomputed by he_fix_EXP.  (Widening, computing and narrowing
 * each vector in registers, with no block in L1, was no faster for
 * float16 and 15% slower for bfloat16: 2.8 and 4.0 ms for 10^7 values on
 * one AMD EPYC Zen 4 core, against 2.7 and 3.4 through the blocks.) */
HE_V4 __m512 he_vexpf16(__m512 x, __mmask16 *out)
{
    *out |= _mm512_cmp_ps_mask(_mm512_abs_ps(x), _mm512_set1_ps(160.0f), _CMP_NLT_UQ);
    return st_vexpf16(x);
}
#define DEF_HE_BLOCKS16(ISA, ATTR, OP, H, MAIN, WT, SPECIAL, LIBM)                                 \
    HE_LINE_FRAME(ISA, ATTR, OP, H, {                                                              \
        __mmask16 out = 0;                                                                         \
        int64_t j = 0;                                                                             \
        for (; j + 16 <= b; j += 16) _mm512_store_ps(r + j, MAIN(_mm512_load_ps(x + j), &out));    \
        if (j < b) { /* the lanes past b: zeros, inside the domain */                              \
            const __mmask16 k = HE_MASK(b - j);                                                    \
            _mm512_mask_store_ps(r + j, k, MAIN(_mm512_maskz_load_ps(k, x + j), &out));            \
        }                                                                                          \
        special = out != 0;                                                                        \
    })
#endif
#define DEF_HE_UN(ISA, ATTR, OP, H)                                                                \
    ATTR static void heu_##OP##_##H##ISA(char **args_, const int64_t *np, const int64_t *s_,       \
                                         void *extra)                                              \
    {                                                                                              \
        ST_LOCAL_ARGS(2)                                                                           \
        const int64_t n = *np;                                                                     \
        if (s[0] == 2) {                                                                           \
            ST_STREAM_RUNS(uint16_t, (uint16_t *)args[0], n, extra)                                \
            heu_line_##OP##_##H##ISA(d_, args[1] + k_ * s[1], s[1], m_);                           \
            ST_STREAM_RUNS_END(uint16_t);                                                          \
            return;                                                                                \
        }                                                                                          \
        uint16_t ob[HE_BLOCK]; /* a strided output: a block here, then scattered */                \
        for (int64_t i0 = 0; i0 < n; i0 += HE_BLOCK) {                                             \
            const int64_t b = n - i0 < HE_BLOCK ? n - i0 : HE_BLOCK;                               \
            heu_line_##OP##_##H##ISA(ob, args[1] + i0 * s[1], s[1], b);                            \
            for (int64_t j = 0; j < b; j++) *(uint16_t *)(args[0] + (i0 + j) * s[0]) = ob[j];      \
        }                                                                                          \
    }
#define DEF_HE_UN_LINE_(...) DEF_HE_UN_LINE(__VA_ARGS__)
#define DEF_HE_UN_TYPES(ISA, ATTR, OP)                                                             \
    DEF_HE_UN_LINE_(ISA, ATTR, OP, f16, HE_##OP##ISA)                                              \
    DEF_HE_UN_LINE_(ISA, ATTR, OP, bf16, HE_##OP##ISA)                                             \
    DEF_HE_UN(ISA, ATTR, OP, f16)                                                                  \
    DEF_HE_UN(ISA, ATTR, OP, bf16)
#define HE_UNARY_OPS(X) X(EXP, ST_U_EXP) X(LOG, ST_U_LOG) X(SIN, ST_U_SIN) X(COS, ST_U_COS)
#define HE_DEF_UN_OP(OP, CODE) ST_LEVELS(DEF_HE_UN_TYPES, OP)
HE_UNARY_OPS(HE_DEF_UN_OP)

/* ---- the tables, filled once for the running level ---- */
static st_loop_fn he_binary[ST_B_COUNT][2], he_unary[ST_U_COUNT][2];
__attribute__((constructor)) static void init_half_fused(void)
{
#define HE_REG_BIN(OP, CODE)                                                                       \
    he_binary[CODE][0] = ST_PICK(he_##OP##_f16);                                                   \
    he_binary[CODE][1] = ST_PICK(he_##OP##_bf16);
#define HE_REG_UN(OP, CODE)                                                                        \
    he_unary[CODE][0] = ST_PICK(heu_##OP##_f16);                                                   \
    he_unary[CODE][1] = ST_PICK(heu_##OP##_bf16);
    HE_BINARY_OPS(HE_REG_BIN)
    HE_UNARY_OPS(HE_REG_UN)
}

/* An operand the fused loops read at their speed: contiguous, or one
 * element (a broadcast, read with step 0). */
static int he_plain(const st_tensor *t, int dtype)
{
    return t->dtype == dtype && (st_tensor_is_contiguous(t) || st_tensor_numel(t) == 1);
}

st_loop_fn st_half_binary_fused(int op, const st_tensor *out, const st_tensor *a,
                                const st_tensor *b)
{
    const int d = out->dtype;
    if (!st_is_half(d) || op < 0 || op >= ST_B_COUNT) return NULL;
    if (!st_tensor_is_contiguous(out) || !he_plain(a, d) || !he_plain(b, d)) return NULL;
    return he_binary[op][d == ST_BFLOAT16];
}

st_loop_fn st_half_unary_fused(int op, const st_tensor *out, const st_tensor *a)
{
    const int d = out->dtype;
    if (!st_is_half(d) || op < 0 || op >= ST_U_COUNT) return NULL;
    if (!st_tensor_is_contiguous(out) || a->dtype != d || !st_tensor_is_contiguous(a)) return NULL;
    return he_unary[op][d == ST_BFLOAT16];
}
