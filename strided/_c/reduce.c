/* reduce.c -- reductions over any set of dims, arg-reductions, cumulative
 * sums and products, nonzero counts.
 *
 * A reduction is an elementwise loop over the input's shape with the
 * output (keepdim form) broadcast by zero strides along the reduced dims:
 * one accumulate kernel `acc (op)= in` serves both the inner case (output
 * step 0: a whole segment folds into one accumulator) and the outer case
 * (output walks with the input: a vector of accumulators).  Threads split
 * a kept dim when there is one big enough, otherwise a reduced dim with
 * one private accumulator block per thread, combined at the end.  That
 * serves the reductions whose result does not depend on the order (integer
 * sums and products wrap, min/max/all/any pick); float and complex sums,
 * products and squared deviations are reduce_tree.c's, in a fixed order. */
#include "st_internal.h"
#include "st_op_names.h"
#include <math.h>
#include <float.h>
#include <limits.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define MAXP(a, b) (((a) > (b) || (a) != (a)) ? (a) : (b))
#define MINP(a, b) (((a) < (b) || (a) != (a)) ? (a) : (b))

/* ---- accumulator types: ints widen to 64 bits, floats keep their type ---- */
#define ACC_SUM_bool_ int64_t
#define ACC_SUM_int8 int64_t
#define ACC_SUM_int16 int64_t
#define ACC_SUM_int32 int64_t
#define ACC_SUM_int64 int64_t
#define ACC_SUM_uint8 uint64_t
#define ACC_SUM_uint16 uint64_t
#define ACC_SUM_uint32 uint64_t
#define ACC_SUM_uint64 uint64_t
#define ACC_SUM_float32 float
#define ACC_SUM_float64 double
#define ACC_SUM_complex64 st_c64
#define ACC_SUM_complex128 st_c128

static int sum_acc_dtype(int dtype)
{
    if (dtype == ST_BOOL || st_is_signed_int(dtype)) return ST_INT64;
    if (st_is_int(dtype)) return ST_UINT64;
    return dtype;
}

#define FOLD_SUM(acc, x) ((acc) += (x))
#define FOLD_PROD(acc, x) ((acc) *= (x))
#define FOLD_MIN(acc, x) ((acc) = MINP((acc), (x)))
#define FOLD_MAX(acc, x) ((acc) = MAXP((acc), (x)))
#define FOLD_ALL(acc, x) ((acc) = (acc) && ((x) != 0))
#define FOLD_ANY(acc, x) ((acc) = (acc) || ((x) != 0))
#define FOLD_ALL_BYTES(acc, x) ((acc) &= (uint8_t)((x) != 0))
#define FOLD_ANY_BYTES(acc, x) ((acc) |= (uint8_t)((x) != 0))

/* ---- vector min, max and search (GCC vector extensions) ----
 * GCC does not vectorise a NaN-propagating compare-and-select (MAXP) by
 * itself, so these spell it out on 64-byte vectors.  VMAXP(a, b) is MAXP
 * lane by lane: a when a > b or a is NaN (so a NaN sticks), else b.
 * vmax_<sfx>(q, n, acc) folds q[0..n) into acc with FOLD_MAX in four
 * independent vector chains; vfind_<sfx>(q, n, v) is the first i with
 * q[i] == v (v NaN: q[i] NaN), n when there is none.  bool has no vector
 * type: scalar loops of the same names.
 *
 * Each is compiled per CPU level (ST_LEVELS: the `target` attribute is seen
 * before GCC lowers the generic vectors, so each level gets its own
 * instructions) and picked by ST_PICK. */
/* The vectors are VEC_BYTES##ISA wide: 64 bytes at levels 4 and 3 (one
 * AVX-512 register, two AVX2 ones), 16 at the baseline (one SSE2
 * register): 64-byte vectors lowered to SSE2 ran no faster and took half
 * of this file's compile time.  VEC_T(SFX, ISA) is the vector of SFX's
 * element type at that level. */
#define VEC_BYTES_v4 64
#define VEC_BYTES_v3 64
#define VEC_BYTES_v0 16
#define VEC_T(SFX, ISA) VEC_T_(SFX, ISA)
#define VEC_T_(SFX, ISA) vec##ISA##_##SFX
#define DEF_VEC_TYPES(SFX, T)                                                                      \
    typedef T vec_v4_##SFX __attribute__((vector_size(VEC_BYTES_v4)));                             \
    typedef T vec_v3_##SFX __attribute__((vector_size(VEC_BYTES_v3)));                             \
    typedef T vec_v0_##SFX __attribute__((vector_size(VEC_BYTES_v0)));

#define VBLEND(M, A, B) ((__typeof__(A))(((M) & (__typeof__(M))(A)) | (~(M) & (__typeof__(M))(B))))
#define VMAXP(a, b) VBLEND(((a) > (b)) | ((a) != (a)), a, b)
#define VMINP(a, b) VBLEND(((a) < (b)) | ((a) != (a)), a, b)
#define VMAXF(a, b) VBLEND((a) > (b), a, b) /* NaN-blind: see DEF_VEXT_ISA */
#define VMINF(a, b) VBLEND((a) < (b), a, b)
DEF_VEC_TYPES(u64, uint64_t)
#define VANY(M, ISA)                                                                               \
    ({                                                                                             \
        VEC_T(u64, ISA) w_ = (VEC_T(u64, ISA))(M);                                                 \
        uint64_t o_ = 0;                                                                           \
        for (unsigned k_ = 0; k_ < sizeof w_ / sizeof(uint64_t); k_++) o_ |= w_[k_];               \
        o_ != 0;                                                                                   \
    })

/* The fast loop keeps a plain compare-and-select (VFAST: a NaN in x is
 * dropped, one in the accumulator does not stick) and beside it a vector
 * sum of the inputs, which turns NaN when an input is NaN; only then (or
 * when +inf and -inf meet in the sum) is the segment folded again with
 * the NaN-sticky VFOLD, whose result without NaN is the same. */
#define DEF_VEXT_ISA(ISA, ATTR, NAME, SFX, T, VFOLD, VFAST, FOLD)                                  \
    ATTR static T v##NAME##_sticky_##SFX##ISA(const T *q, int64_t n, T acc)                        \
    {                                                                                              \
        enum { V = VEC_BYTES##ISA / sizeof(T) };                                                   \
        int64_t i = 0;                                                                             \
        if (n >= 4 * V) {                                                                          \
            VEC_T(SFX, ISA) r0, r1, r2, r3, x0, x1, x2, x3;                                        \
            memcpy(&r0, q, VEC_BYTES##ISA);                                                        \
            memcpy(&r1, q + V, VEC_BYTES##ISA);                                                    \
            memcpy(&r2, q + 2 * V, VEC_BYTES##ISA);                                                \
            memcpy(&r3, q + 3 * V, VEC_BYTES##ISA);                                                \
            for (i = 4 * V; i + 4 * V <= n; i += 4 * V) {                                          \
                memcpy(&x0, q + i, VEC_BYTES##ISA);                                                \
                memcpy(&x1, q + i + V, VEC_BYTES##ISA);                                            \
                memcpy(&x2, q + i + 2 * V, VEC_BYTES##ISA);                                        \
                memcpy(&x3, q + i + 3 * V, VEC_BYTES##ISA);                                        \
                r0 = VFOLD(r0, x0);                                                                \
                r1 = VFOLD(r1, x1);                                                                \
                r2 = VFOLD(r2, x2);                                                                \
                r3 = VFOLD(r3, x3);                                                                \
            }                                                                                      \
            r0 = VFOLD(r0, r1);                                                                    \
            r2 = VFOLD(r2, r3);                                                                    \
            r0 = VFOLD(r0, r2);                                                                    \
            for (int j = 0; j < V; j++) FOLD(acc, r0[j]);                                          \
        }                                                                                          \
        for (; i < n; i++) FOLD(acc, q[i]);                                                        \
        return acc;                                                                                \
    }                                                                                              \
    ATTR static T v##NAME##_##SFX##ISA(const T *q, int64_t n, T acc)                               \
    {                                                                                              \
        enum { V = VEC_BYTES##ISA / sizeof(T) };                                                   \
        if (n < 8 * V || (T)0.5 == 0 /* integers: no NaN */)                                       \
            return v##NAME##_sticky_##SFX##ISA(q, n, acc);                                         \
        VEC_T(SFX, ISA) r0, r1, r2, r3, x0, x1, x2, x3, s0, s1, s2, s3;                            \
        memcpy(&r0, q, VEC_BYTES##ISA);                                                            \
        memcpy(&r1, q + V, VEC_BYTES##ISA);                                                        \
        memcpy(&r2, q + 2 * V, VEC_BYTES##ISA);                                                    \
        memcpy(&r3, q + 3 * V, VEC_BYTES##ISA);                                                    \
        s0 = r0, s1 = r1, s2 = r2, s3 = r3; /* four chains: an add waits 3+ cycles */              \
        int64_t i = 4 * V;                                                                         \
        for (; i + 4 * V <= n; i += 4 * V) {                                                       \
            memcpy(&x0, q + i, VEC_BYTES##ISA);                                                    \
            memcpy(&x1, q + i + V, VEC_BYTES##ISA);                                                \
            memcpy(&x2, q + i + 2 * V, VEC_BYTES##ISA);                                            \
            memcpy(&x3, q + i + 3 * V, VEC_BYTES##ISA);                                            \
            r0 = VFAST(r0, x0);                                                                    \
            r1 = VFAST(r1, x1);                                                                    \
            r2 = VFAST(r2, x2);                                                                    \
            r3 = VFAST(r3, x3);                                                                    \
            s0 = s0 + x0;                                                                          \
            s1 = s1 + x1;                                                                          \
            s2 = s2 + x2;                                                                          \
            s3 = s3 + x3;                                                                          \
        }                                                                                          \
        s0 = (s0 + s1) + (s2 + s3);                                                                \
        if (VANY(s0 != s0, ISA)) return v##NAME##_sticky_##SFX##ISA(q, n, acc);                    \
        r0 = VFAST(r0, r1);                                                                        \
        r2 = VFAST(r2, r3);                                                                        \
        r0 = VFAST(r0, r2);                                                                        \
        for (int j = 0; j < V; j++) FOLD(acc, r0[j]);                                              \
        for (; i < n; i++) FOLD(acc, q[i]);                                                        \
        return acc;                                                                                \
    }
#define DEF_VFIND_ISA(ISA, ATTR, SFX, T)                                                           \
    ATTR static int64_t vfind_##SFX##ISA(const T *q, int64_t n, T v)                               \
    {                                                                                              \
        enum { V = VEC_BYTES##ISA / sizeof(T) };                                                   \
        const VEC_T(SFX, ISA) vv = (VEC_T(SFX, ISA)){0} + v;                                       \
        const int nan = v != v;                                                                    \
        int64_t i = 0;                                                                             \
        for (; i + 4 * V <= n; i += 4 * V) { /* four vectors per test */                           \
            VEC_T(SFX, ISA) x0, x1, x2, x3;                                                        \
            memcpy(&x0, q + i, VEC_BYTES##ISA);                                                    \
            memcpy(&x1, q + i + V, VEC_BYTES##ISA);                                                \
            memcpy(&x2, q + i + 2 * V, VEC_BYTES##ISA);                                            \
            memcpy(&x3, q + i + 3 * V, VEC_BYTES##ISA);                                            \
            if (nan ? VANY((x0 != x0) | (x1 != x1) | (x2 != x2) | (x3 != x3), ISA)                 \
                    : VANY((x0 == vv) | (x1 == vv) | (x2 == vv) | (x3 == vv), ISA))                \
                break;                                                                             \
        }                                                                                          \
        for (; i < n; i++)                                                                         \
            if (nan ? q[i] != q[i] : q[i] == v) return i;                                          \
        return n;                                                                                  \
    }
#define DEF_VEC_HELPERS(CODE, SFX, T, R, ...)                                                      \
    DEF_VEC_TYPES(SFX, T)                                                                          \
    ST_LEVELS(DEF_VEXT_ISA, max, SFX, T, VMAXP, VMAXF, FOLD_MAX)                                   \
    ST_LEVELS(DEF_VEXT_ISA, min, SFX, T, VMINP, VMINF, FOLD_MIN)                                   \
    ST_LEVELS(DEF_VFIND_ISA, SFX, T)                                                               \
    static T vmax_##SFX(const T *q, int64_t n, T acc) { return ST_PICK(vmax_##SFX)(q, n, acc); }   \
    static T vmin_##SFX(const T *q, int64_t n, T acc) { return ST_PICK(vmin_##SFX)(q, n, acc); }   \
    static int64_t vfind_##SFX(const T *q, int64_t n, T v) { return ST_PICK(vfind_##SFX)(q, n, v); }
#define DEF_SCALAR_HELPERS(CODE, SFX, T, R, ...)                                                   \
    static T vmax_##SFX(const T *q, int64_t n, T acc)                                              \
    {                                                                                              \
        for (int64_t i = 0; i < n; i++) FOLD_MAX(acc, q[i]);                                       \
        return acc;                                                                                \
    }                                                                                              \
    static T vmin_##SFX(const T *q, int64_t n, T acc)                                              \
    {                                                                                              \
        for (int64_t i = 0; i < n; i++) FOLD_MIN(acc, q[i]);                                       \
        return acc;                                                                                \
    }                                                                                              \
    static int64_t vfind_##SFX(const T *q, int64_t n, T v)                                         \
    {                                                                                              \
        for (int64_t i = 0; i < n; i++)                                                            \
            if (q[i] == v) return i;                                                               \
        return n;                                                                                  \
    }

ST_TYPES_REAL(DEF_VEC_HELPERS)
ST_TYPES_BOOL(DEF_SCALAR_HELPERS)

/* Two objects the build compiles in parallel (ST_PART, st_internal.h):
 * this file, part 0 (the reductions, their tables and counting), and
 * reduce_p1.c, part 1 (arg-reductions and cumulative sums and products,
 * entry points of their own); what both use (types, vector helpers, the
 * row walker) is in each. */
/* the signed lanes of a mask of SFX vectors */
#define LANES_int8 int8
#define LANES_uint8 int8
#define LANES_int16 int16
#define LANES_uint16 int16
#define LANES_int32 int32
#define LANES_uint32 int32
#define LANES_float32 int32
#define LANES_int64 int64
#define LANES_uint64 int64
#define LANES_float64 int64
#define SPLIT_PIECES_PER_THREAD 4 /* handed out dynamically: a late thread holds no one */
#define PIECE_ALIGN 128           /* column pieces start on whole vectors and cache lines */
#define OUTER_MIN_PIECE 1024

#if ST_PART == 0
/* ---- count of nonzero elements: vcount_<sfx>(q, n) ----
 * A contiguous segment is compared a vector at a time: each lane of the
 * mask (x != 0) is -1 or 0, subtracted from a counter of the lane's own
 * width (so a byte lane counts one byte); the counters are summed into 64
 * bits every COUNT_BLOCK vectors, before a byte lane can wrap (bool is
 * read as bytes; -0.0 counts as zero, NaN as nonzero, as x != 0 says). */
#define COUNT_BLOCK 255
#define DEF_VCOUNT_ISA(ISA, ATTR, SFX, T, VT, MT)                                                  \
    ATTR static int64_t vcount_##SFX##ISA(const T *q, int64_t n)                                   \
    {                                                                                              \
        enum { V = VEC_BYTES##ISA / sizeof(T) };                                                   \
        typedef VEC_T(MT, ISA) mask_t;                                                             \
        typedef VEC_T(VT, ISA) vt_t;                                                               \
        const uint64_t lane_mask = sizeof(T) == 8 ? ~0ull : (1ull << (8 * sizeof(T))) - 1;         \
        const vt_t zero = {0};                                                                     \
        int64_t c = 0, i = 0;                                                                      \
        while (i + 4 * V <= n) {                                                                   \
            mask_t a0 = {0}, a1 = {0}, a2 = {0}, a3 = {0};                                         \
            for (int k = 0; k < COUNT_BLOCK && i + 4 * V <= n; k++, i += 4 * V) {                  \
                vt_t x0, x1, x2, x3;                                                               \
                memcpy(&x0, q + i, VEC_BYTES##ISA);                                                \
                memcpy(&x1, q + i + V, VEC_BYTES##ISA);                                            \
                memcpy(&x2, q + i + 2 * V, VEC_BYTES##ISA);                                        \
                memcpy(&x3, q + i + 3 * V, VEC_BYTES##ISA);                                        \
                a0 -= (mask_t)(x0 != zero);                                                        \
                a1 -= (mask_t)(x1 != zero);                                                        \
                a2 -= (mask_t)(x2 != zero);                                                        \
                a3 -= (mask_t)(x3 != zero);                                                        \
            }                                                                                      \
            for (int j = 0; j < V; j++)                                                            \
                c += (int64_t)(((uint64_t)a0[j] & lane_mask) + ((uint64_t)a1[j] & lane_mask) +     \
                               ((uint64_t)a2[j] & lane_mask) + ((uint64_t)a3[j] & lane_mask));     \
        }                                                                                          \
        for (; i < n; i++) c += q[i] != 0;                                                         \
        return c;                                                                                  \
    }
#define DEF_VCOUNT(CODE, SFX, T, R, ...)                                                           \
    ST_LEVELS(DEF_VCOUNT_ISA, SFX, T, SFX, LANES_##SFX)                                            \
    static int64_t vcount_##SFX(const T *q, int64_t n) { return ST_PICK(vcount_##SFX)(q, n); }
ST_TYPES_REAL(DEF_VCOUNT)
ST_LEVELS(DEF_VCOUNT_ISA, bool_, _Bool, uint8, int8)
static int64_t vcount_bool_(const _Bool *q, int64_t n) { return ST_PICK(vcount_bool_)(q, n); }

/* ---- accumulate kernels: args {acc, in[, aux]} ---- */
/* FOLD(acc, x) folds one input value into the accumulator; CONTIG(SFX, FOLD,
 * acc, in, n) folds a contiguous segment (CONTIG_SCALAR: one by one;
 * CONTIG_VMAX / CONTIG_VMIN: the vector helpers above). */
#define CONTIG_SCALAR(SFX, FOLD, acc, in, n)                                                       \
    for (int64_t i = 0; i < (n); i++) FOLD(acc, (in)[i])
#define CONTIG_VMAX(SFX, FOLD, acc, in, n) ((acc) = vmax_##SFX(in, n, acc))
#define CONTIG_VMIN(SFX, FOLD, acc, in, n) ((acc) = vmin_##SFX(in, n, acc))
#define CONTIG_COUNT(SFX, FOLD, acc, in, n) ((acc) += vcount_##SFX(in, n)) /* bool sums */
/* all / any: blocks of LOGIC_BLOCK folded as bytes (`&=` / `|=` of bytes
 * vectorise, `&&` / `||` do not), stopping at the first block that settles
 * the answer (which does not depend on the order: no bit of it changes) */
#define LOGIC_BLOCK 256
#define CONTIG_LOGIC(in, n, acc, OP, GOING)                                                        \
    for (int64_t i0 = 0; i0 < (n) && (GOING); i0 += LOGIC_BLOCK) {                                 \
        const int64_t m = (n) - i0 < LOGIC_BLOCK ? (n) - i0 : LOGIC_BLOCK;                         \
        uint8_t b = (acc);                                                                         \
        for (int64_t i = 0; i < m; i++) b OP(uint8_t)((in)[i0 + i] != 0);                          \
        (acc) = b;                                                                                 \
    }
#define CONTIG_ALL(SFX, FOLD, acc, in, n) CONTIG_LOGIC(in, n, acc, &=, acc)
#define CONTIG_ANY(SFX, FOLD, acc, in, n) CONTIG_LOGIC(in, n, acc, |=, !(acc))
#define DEF_ACCUMULATE(NAME, SFX, T, A, FOLD, CONTIG)                                              \
    ST_LEVELS(DEF_ACCUMULATE_ISA, NAME, SFX, T, A, FOLD, CONTIG)
#define DEF_ACCUMULATE_ISA(ISA, ATTR, NAME, SFX, T, A, FOLD, CONTIG)                               \
    ATTR static void NAME##_##SFX##ISA(char **args_, const int64_t *np, const int64_t *s_,         \
                                       void *extra)                                                \
    {                                                                                              \
        ST_LOCAL_ARGS(2)                                                                           \
        (void)extra;                                                                               \
        const int64_t n = *np;                                                                     \
        if (s[0] == 0) {                                                                           \
            A acc = *(A *)args[0];                                                                 \
            if (s[1] == sizeof(T)) {                                                               \
                const T *in = (const T *)args[1];                                                  \
                CONTIG(SFX, FOLD, acc, in, n);                                                     \
            } else {                                                                               \
                for (int64_t i = 0; i < n; i++) {                                                  \
                    const T x = *(const T *)(args[1] + i * s[1]);                                  \
                    FOLD(acc, x);                                                                  \
                }                                                                                  \
            }                                                                                      \
            *(A *)args[0] = acc;                                                                   \
            return;                                                                                \
        }                                                                                          \
        if (s[0] == sizeof(A) && s[1] == sizeof(T)) {                                              \
            A *o = (A *)args[0];                                                                   \
            const T *in = (const T *)args[1];                                                      \
            _Pragma("GCC ivdep")                                                                   \
            for (int64_t i = 0; i < n; i++) {                                                      \
                const T x = in[i];                                                                 \
                FOLD(o[i], x);                                                                     \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        for (int64_t i = 0; i < n; i++) {                                                          \
            const T x = *(const T *)(args[1] + i * s[1]);                                          \
            FOLD(*(A *)(args[0] + i * s[0]), x);                                                   \
        }                                                                                          \
    }

#define DEF_SUM_BOOL(CODE, SFX, T, R, ...)                                                         \
    DEF_ACCUMULATE(sum, SFX, T, ACC_SUM_##SFX, FOLD_SUM, CONTIG_COUNT)
#define DEF_SUM_INT(CODE, SFX, T, R, ...)                                                          \
    DEF_ACCUMULATE(sum, SFX, T, ACC_SUM_##SFX, FOLD_SUM, CONTIG_SCALAR)
#define DEF_PROD(CODE, SFX, T, R, ...)                                                             \
    DEF_ACCUMULATE(prod, SFX, T, ACC_SUM_##SFX, FOLD_PROD, CONTIG_SCALAR)
/* clang-format off */
#define DEF_MINMAX(CODE, SFX, T, R, ...)                                              \
    DEF_ACCUMULATE(min, SFX, T, T, FOLD_MIN, CONTIG_VMIN)                           \
    DEF_ACCUMULATE(max, SFX, T, T, FOLD_MAX, CONTIG_VMAX)
/* clang-format on */

ST_TYPES_BOOL(DEF_SUM_BOOL)
ST_TYPES_INT(DEF_SUM_INT)
ST_TYPES_BOOL(DEF_PROD)
ST_TYPES_INT(DEF_PROD)
ST_TYPES_BOOL(DEF_MINMAX)
ST_TYPES_REAL(DEF_MINMAX)

/* ---- outer reductions, two dims at a time ----
 * Reducing the rows of a matrix whose rows are contiguous (axis 0 of a
 * C-contiguous matrix): the 1-D kernel would be handed one row at a time,
 * through the iterator, and could not vectorise the NaN-sticky min/max.
 * These kernels take rows x cols at once: the rows in memory order, each
 * folded into the accumulators a piece of OUTER_PIECE columns at a time
 * (the accumulators, 32 KiB at most, stay in L1 or L2), so the input is
 * read as it lies.  (Accumulators in registers over all rows of 64 columns
 * read 512 bytes of each row, a page apart: 0.5-0.6x numpy's time.)  The
 * accumulators start from `acc` and fold the rows in order, so every
 * result is bit for bit the one of the row-at-a-time loop.  (Integer sums
 * and min/max only: float sums and products follow the summation tree of
 * the ordered reductions, reduce_tree.c.)
 * args {acc, in}: acc contiguous over cols and the same for every row; in
 * contiguous over cols, rows `rs` bytes apart. */
typedef void (*outer2_fn)(char **args, int64_t rows, int64_t cols, int64_t rs);
#define OUTER_PIECE 4096
#define OUTER_WIDE 2048 /* bytes of a piece's row from which four rows go at once */
#define DEF_OUTER2(NAME, SFX, T, A, FOLD) ST_LEVELS(DEF_OUTER2_ISA, NAME, SFX, T, A, FOLD)
#define DEF_OUTER2_ISA(ISA, ATTR, NAME, SFX, T, A, FOLD)                                           \
    ATTR static void NAME##_outer2_##SFX##ISA(char **args, int64_t rows, int64_t cols, int64_t rs) \
    {                                                                                              \
        for (int64_t j = 0; j < cols; j += OUTER_PIECE) {                                          \
            const int64_t w = cols - j < OUTER_PIECE ? cols - j : OUTER_PIECE;                     \
            A *o = (A *)args[0] + j;                                                               \
            for (int64_t i = 0; i < rows; i++) {                                                   \
                const T *x = (const T *)(args[1] + i * rs) + j;                                    \
                _Pragma("GCC ivdep")                                                               \
                for (int64_t k = 0; k < w; k++) FOLD(o[k], x[k]);                                  \
            }                                                                                      \
        }                                                                                          \
    }
/* The same in VEC_BYTES vectors, for the kernels whose accumulator type is
 * the element type (the compiler does not vectorise FOLD_MIN/FOLD_MAX by
 * itself, see VMAXP). */
#define DEF_OUTER2V_ISA(ISA, ATTR, NAME, SFX, T, VFOLD, FOLD)                                      \
    ATTR static void NAME##_outer2_##SFX##ISA(char **args, int64_t rows, int64_t cols, int64_t rs) \
    {                                                                                              \
        enum { V = VEC_BYTES##ISA / sizeof(T) };                                                   \
        for (int64_t j = 0; j < cols; j += OUTER_PIECE) {                                          \
            const int64_t w = cols - j < OUTER_PIECE ? cols - j : OUTER_PIECE;                     \
            T *o = (T *)args[0] + j;                                                               \
            int64_t i = 0;                                                                         \
            /* wide pieces: four rows folded per pass over the accumulators, in row order       \
             * (a narrow piece is read as it lies: four rows at once are four streams) */  \
            for (; w * (int64_t)sizeof(T) >= OUTER_WIDE && i + 4 <= rows; i += 4) {                \
                const char *x0 = args[1] + i * rs + j * (int64_t)sizeof(T);                        \
                int64_t k = 0;                                                                     \
                for (; k + V <= w; k += V) {                                                       \
                    VEC_T(SFX, ISA) ov, xv;                                                        \
                    memcpy(&ov, o + k, VEC_BYTES##ISA);                                            \
                    for (int r = 0; r < 4; r++) {                                                  \
                        memcpy(&xv, (const T *)(x0 + r * rs) + k, VEC_BYTES##ISA);                 \
                        ov = VFOLD(ov, xv);                                                        \
                    }                                                                              \
                    memcpy(o + k, &ov, VEC_BYTES##ISA);                                            \
                }                                                                                  \
                for (; k < w; k++)                                                                 \
                    for (int r = 0; r < 4; r++) FOLD(o[k], ((const T *)(x0 + r * rs))[k]);         \
            }                                                                                      \
            for (; i < rows; i++) {                                                                \
                const T *x = (const T *)(args[1] + i * rs) + j;                                    \
                int64_t k = 0;                                                                     \
                for (; k + V <= w; k += V) {                                                       \
                    VEC_T(SFX, ISA) ov, xv;                                                        \
                    memcpy(&ov, o + k, VEC_BYTES##ISA);                                            \
                    memcpy(&xv, x + k, VEC_BYTES##ISA);                                            \
                    ov = VFOLD(ov, xv);                                                            \
                    memcpy(o + k, &ov, VEC_BYTES##ISA);                                            \
                }                                                                                  \
                for (; k < w; k++) FOLD(o[k], x[k]);                                               \
            }                                                                                      \
        }                                                                                          \
    }
#define DEF_OUTER2V(NAME, SFX, T, VFOLD, FOLD) ST_LEVELS(DEF_OUTER2V_ISA, NAME, SFX, T, VFOLD, FOLD)
#define DEF_OUTER2_SUM(CODE, SFX, T, R, ...) DEF_OUTER2(sum, SFX, T, ACC_SUM_##SFX, FOLD_SUM)
#define DEF_OUTER2_MINMAX(CODE, SFX, T, R, ...)                                                    \
    DEF_OUTER2(min, SFX, T, T, FOLD_MIN) DEF_OUTER2(max, SFX, T, T, FOLD_MAX)
#define DEF_OUTER2V_MINMAX(CODE, SFX, T, R, ...)                                                   \
    DEF_OUTER2V(min, SFX, T, VMINP, FOLD_MIN) DEF_OUTER2V(max, SFX, T, VMAXP, FOLD_MAX)
ST_TYPES_BOOL(DEF_OUTER2_SUM)
ST_TYPES_INT(DEF_OUTER2_SUM)
ST_TYPES_BOOL(DEF_OUTER2_MINMAX)
ST_TYPES_REAL(DEF_OUTER2V_MINMAX)

/* all and any, row at a time and two dims at a time (the outer kernels'
 * accumulators as bytes: `&=` of bytes vectorises, `&&` does not).  A bool
 * input is read as bytes: borrowed memory may hold bytes other than 0 and 1,
 * and a _Bool load of those is undefined; any nonzero byte is true. */
#define DEF_ALLANY_AS(SFX, T)                                                                      \
    DEF_ACCUMULATE(all, SFX, T, _Bool, FOLD_ALL, CONTIG_ALL)                                       \
    DEF_ACCUMULATE(any, SFX, T, _Bool, FOLD_ANY, CONTIG_ANY)                                       \
    DEF_OUTER2(all, SFX, T, uint8_t, FOLD_ALL_BYTES)                                               \
    DEF_OUTER2(any, SFX, T, uint8_t, FOLD_ANY_BYTES)
#define DEF_ALLANY(CODE, SFX, T, R, ...) DEF_ALLANY_AS(SFX, T)
#define DEF_ALLANY_BYTES(CODE, SFX, T, R, ...) DEF_ALLANY_AS(SFX, uint8_t)
ST_TYPES_BOOL(DEF_ALLANY_BYTES)
ST_TYPES_NUMERIC(DEF_ALLANY)

/* ---- tables ---- */
static st_loop_fn reduce_loops[ST_R_COUNT][ST_NTYPES];
static outer2_fn outer2_loops[ST_R_COUNT][ST_NTYPES]; /* NULL: rows one at a time */
static signed char reduce_res[ST_R_COUNT][ST_NTYPES];

#define REG_AS(OPC, FN, CODE, RES)                                                                 \
    reduce_loops[OPC][CODE] = FN;                                                                  \
    reduce_res[OPC][CODE] = (signed char)(RES);
#define REG(OPC, NAME, SFX, CODE, RES) REG_AS(OPC, ST_PICK(NAME##_##SFX), CODE, RES)
#define REG_SUM(CODE, SFX, T, R, ...) REG(ST_R_SUM, sum, SFX, CODE, sum_acc_dtype(CODE))
#define REG_PROD(CODE, SFX, T, R, ...) REG(ST_R_PROD, prod, SFX, CODE, sum_acc_dtype(CODE))
/* float and complex sums, products and squared deviations: reduce_tree.c */
#define REG_ORDERED(CODE, SFX, T, R, ...)                                                          \
    reduce_res[ST_R_SUM][CODE] = reduce_res[ST_R_PROD][CODE] = (signed char)(CODE);                \
    reduce_res[ST_R_SUMSQDEV][CODE] = (signed char)st_real_dtype(CODE);
#define REG_MINMAX(CODE, SFX, T, R, ...)                                                           \
    REG(ST_R_MIN, min, SFX, CODE, CODE) REG(ST_R_MAX, max, SFX, CODE, CODE)
#define REG_ALLANY(CODE, SFX, T, R, ...)                                                           \
    REG(ST_R_ALL, all, SFX, CODE, ST_BOOL) REG(ST_R_ANY, any, SFX, CODE, ST_BOOL)
#define REG_OUTER2_SUM(CODE, SFX, T, R, ...)                                                       \
    outer2_loops[ST_R_SUM][CODE] = ST_PICK(sum_outer2_##SFX);
#define REG_OUTER2_MINMAX(CODE, SFX, T, R, ...)                                                    \
    outer2_loops[ST_R_MIN][CODE] = ST_PICK(min_outer2_##SFX);                                      \
    outer2_loops[ST_R_MAX][CODE] = ST_PICK(max_outer2_##SFX);
#define REG_OUTER2_ALLANY(CODE, SFX, T, R, ...)                                                    \
    outer2_loops[ST_R_ALL][CODE] = ST_PICK(all_outer2_##SFX);                                      \
    outer2_loops[ST_R_ANY][CODE] = ST_PICK(any_outer2_##SFX);

__attribute__((constructor)) static void init_reduce_tables(void)
{
    memset(reduce_res, -1, sizeof reduce_res);
    ST_TYPES_BOOL(REG_SUM)
    ST_TYPES_INT(REG_SUM)
    ST_TYPES_BOOL(REG_PROD)
    ST_TYPES_INT(REG_PROD)
    ST_TYPES_FLOAT(REG_ORDERED)
    ST_TYPES_COMPLEX(REG_ORDERED)
    ST_TYPES_BOOL(REG_MINMAX)
    ST_TYPES_REAL(REG_MINMAX)
    ST_TYPES_ALL(REG_ALLANY)
    ST_TYPES_BOOL(REG_OUTER2_SUM)
    ST_TYPES_INT(REG_OUTER2_SUM)
    ST_TYPES_BOOL(REG_OUTER2_MINMAX)
    ST_TYPES_REAL(REG_OUTER2_MINMAX)
    ST_TYPES_ALL(REG_OUTER2_ALLANY)
}

int st_reduce_result(int op, int dtype)
{
    if (op < 0 || op >= ST_R_COUNT || dtype < 0 || dtype >= ST_NTYPES) return -1;
    return st_is_half(dtype) ? st_half_result(reduce_res[op][ST_FLOAT32], dtype)
                             : reduce_res[op][dtype];
}

/* The identity of op for the accumulator dtype, written into buf. */
static void identity(int op, int dtype, void *buf)
{
    memset(buf, 0, 16);
    int one = op == ST_R_PROD || op == ST_R_ALL;
    int hi = op == ST_R_MIN; /* min starts from the top of the range */
    if (op == ST_R_MIN || op == ST_R_MAX) {
        switch (dtype) {
#define SET_EXTREME(CODE, T, LO, HI)                                                               \
    case CODE:                                                                                     \
        *(T *)buf = hi ? (HI) : (LO);                                                              \
        return;
            SET_EXTREME(ST_BOOL, _Bool, 0, 1)
            SET_EXTREME(ST_INT8, int8_t, INT8_MIN, INT8_MAX)
            SET_EXTREME(ST_INT16, int16_t, INT16_MIN, INT16_MAX)
            SET_EXTREME(ST_INT32, int32_t, INT32_MIN, INT32_MAX)
            SET_EXTREME(ST_INT64, int64_t, INT64_MIN, INT64_MAX)
            SET_EXTREME(ST_UINT8, uint8_t, 0, UINT8_MAX)
            SET_EXTREME(ST_UINT16, uint16_t, 0, UINT16_MAX)
            SET_EXTREME(ST_UINT32, uint32_t, 0, UINT32_MAX)
            SET_EXTREME(ST_UINT64, uint64_t, 0, UINT64_MAX)
            SET_EXTREME(ST_FLOAT32, float, -INFINITY, INFINITY)
            SET_EXTREME(ST_FLOAT64, double, -INFINITY, INFINITY)
#undef SET_EXTREME
        default:
            return;
        }
    }
    if (!one) return;
    switch (dtype) {
#define SET_ONE(CODE, SFX, T, R, ...)                                                              \
    case CODE:                                                                                     \
        *(T *)buf = 1;                                                                             \
        return;
        ST_TYPES_ALL(SET_ONE)
#undef SET_ONE
    default:
        return;
    }
}

/* Run `it` (operand 0 the accumulator).  The result must not depend on the
 * thread count, so the plan is a function of the shape alone and threads
 * only share out its pieces:
 *   - when the largest kept dim has at least SPLIT_KEPT_MIN positions (or
 *     nothing else fits), that dim is split: every accumulator is computed
 *     whole by one thread, in the serial order, so this never changes a bit;
 *   - otherwise a large reduction splits its largest reduced dim into a
 *     number of chunks fixed by the shape (each at least ST_PARALLEL_GRAIN
 *     elements, at most SPLIT_MAX_CHUNKS), each folding into a private
 *     accumulator block; the blocks are combined in chunk order, also when
 *     one thread runs them all. */
#define SPLIT_KEPT_MIN 16
#define SPLIT_MAX_CHUNKS 64
#define SPLIT_MAX_SCRATCH ((int64_t)4 << 20) /* bytes of private accumulators */
#define OUTER_SHORT 4096                     /* see short_rows in run_reduction */

/* Does the iteration end in a reduced dim of rows over a kept, contiguous
 * dim of columns (in and acc both contiguous over columns)? */
static int outer2_fits(const st_iter *it, int64_t in_item, int64_t acc_item)
{
    int nd = it->ndim, c = nd - 1, r = nd - 2;
    if (nd < 2 || it->step[r][0] != 0) return 0;
    return it->step[c][0] == acc_item && it->step[c][1] == in_item;
}

/* Run an outer2 kernel over every position of the dims before the last two;
 * with fewer such positions than threads, each one's columns are cut into
 * up to SPLIT_PIECES_PER_THREAD pieces per thread, of OUTER_MIN_PIECE
 * columns at least (a kernel reads each row's piece as one run: short runs
 * a row apart stream poorly), edges on PIECE_ALIGN elements, handed out as
 * threads come free.  Every
 * accumulator is computed by one kernel call, in row order: the result
 * does not depend on the thread count. */
static void run_outer2(const st_iter *it, outer2_fn f, int nt)
{
    const int nd = it->ndim, nop = it->nop;
    const int64_t rows = it->size[nd - 2], cols = it->size[nd - 1];
    const int64_t outer = it->numel / (rows * cols);
    int64_t pieces = (nt > 1 && outer < 4 * nt) ? SPLIT_PIECES_PER_THREAD * nt : 1;
    if (pieces > 1 && cols / pieces < OUTER_MIN_PIECE)
        pieces = cols / OUTER_MIN_PIECE > nt ? cols / OUTER_MIN_PIECE : nt;
    const int64_t tasks = outer * pieces;
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1) if (nt > 1)
    for (int64_t t = 0; t < tasks; t++) {
        int64_t o = t / pieces, pc = t % pieces;
        int64_t c0 = (cols * pc / pieces) & ~(int64_t)(PIECE_ALIGN - 1);
        int64_t c1 =
            pc == pieces - 1 ? cols : (cols * (pc + 1) / pieces) & ~(int64_t)(PIECE_ALIGN - 1);
        if (c1 <= c0) continue;
        char *args[3] = {NULL, NULL, NULL};
        for (int k = 0; k < nop; k++) args[k] = it->data[k] + c0 * it->step[nd - 1][k];
        for (int d = nd - 3; d >= 0; d--) {
            int64_t i = o % it->size[d];
            o /= it->size[d];
            for (int k = 0; k < nop; k++) args[k] += i * it->step[d][k];
        }
        f(args, rows, c1 - c0, it->step[nd - 2][1]);
    }
}

static st_status run_reduction(const st_iter *it, st_loop_fn loop, st_tensor *out, int op,
                               int in_dtype)
{
    int nt = st_threads_for(it->numel);
    /* the kept dim (accumulator walks it) and the reduced dim of largest size */
    int kept = -1, red = -1;
    for (int d = 0; d < it->ndim; d++) {
        if (it->step[d][0] != 0) {
            if (kept < 0 || it->size[d] > it->size[kept]) kept = d;
        } else if (red < 0 || it->size[d] > it->size[red]) {
            red = d;
        }
    }
    int64_t item = st_itemsize(out->dtype);
    int64_t acc_bytes = st_tensor_numel(out) * item;
    int64_t nchunks = 1;
    outer2_fn f2 = outer2_loops[op][in_dtype];
    const int two = f2 && outer2_fits(it, st_itemsize(in_dtype), item);
    /* rows of a few columns (a page at most) are shared out by rows, each
     * thread reading its rows as they lie: split by columns, every thread
     * would read part of every row (two threads ran no faster than one) */
    const int short_rows = two && it->ndim == 2 && acc_bytes <= OUTER_SHORT;
    if (red >= 0 && (kept < 0 || it->size[kept] < SPLIT_KEPT_MIN || short_rows) &&
        st_tensor_is_contiguous(out)) {
        nchunks = it->numel / ST_PARALLEL_GRAIN;
        if (nchunks > it->size[red]) nchunks = it->size[red];
        if (nchunks > SPLIT_MAX_CHUNKS) nchunks = SPLIT_MAX_CHUNKS;
        while (nchunks > 1 && nchunks * acc_bytes > SPLIT_MAX_SCRATCH) nchunks /= 2;
    }
    if (nchunks <= 1) {
        if (two) {
            run_outer2(it, f2, nt);
            return ST_OK;
        }
        if (nt <= 1 || kept < 0) {
            st_iter_run_range(it, 0, it->numel, loop, NULL);
            return ST_OK;
        }
        /* a few pieces per thread, handed out as threads come free: on a
         * busy machine one late thread then does not hold the others */
        int64_t nk = it->size[kept] < SPLIT_PIECES_PER_THREAD * nt ? it->size[kept]
                                                                   : SPLIT_PIECES_PER_THREAD * nt;
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
        for (int64_t t = 0; t < nk; t++) {
            st_iter sub = *it;
            int64_t a = it->size[kept] * t / nk, b = it->size[kept] * (t + 1) / nk;
            sub.size[kept] = b - a;
            sub.numel = it->numel / it->size[kept] * (b - a);
            for (int k = 0; k < it->nop; k++) sub.data[k] += a * it->step[kept][k];
            st_iter_run_range(&sub, 0, sub.numel, loop, NULL);
        }
        return ST_OK;
    }
    /* split the reduced dim: private accumulators shaped like `out` */
    char *parts = st_aligned_alloc(acc_bytes * nchunks);
    if (!parts)
        return st_fail(ST_E_MEMORY, "cannot allocate %lld partial accumulators",
                       (long long)nchunks);
    char *out0 = st_tensor_data(out);
    char ident[16];
    identity(op, out->dtype, ident);
    int nc = (int)nchunks;
#pragma omp parallel for num_threads(nt < nc ? nt : nc) schedule(dynamic, 1) if (nt > 1)
    for (int t = 0; t < nc; t++) {
        char *mine = parts + acc_bytes * t;
        for (int64_t i = 0; i < acc_bytes; i += item) memcpy(mine + i, ident, (size_t)item);
        st_iter sub = *it;
        int64_t a = it->size[red] * t / nc, b = it->size[red] * (t + 1) / nc;
        sub.size[red] = b - a;
        sub.numel = it->numel / it->size[red] * (b - a);
        for (int k = 1; k < it->nop; k++) sub.data[k] += a * it->step[red][k];
        sub.data[0] = mine + (it->data[0] - out0);
        if (two)
            run_outer2(&sub, f2, 1);
        else
            st_iter_run_range(&sub, 0, sub.numel, loop, NULL);
    }
    /* combine in chunk order: out (op)= each partial */
    st_loop_fn combine = reduce_loops[op][out->dtype];
    int64_t n = st_tensor_numel(out), steps[2] = {item, item};
    for (int t = 0; t < nc; t++) {
        char *args[2] = {out0, parts + acc_bytes * t};
        combine(args, &n, steps, NULL);
    }
    st_aligned_free(parts);
    return ST_OK;
}

/* the reductions of a 16-bit float, on float32 copies (st_via_float32) */
typedef struct {
    int op;
    const uint8_t *dims;
} reduce_args;
static st_status reduce_f32(st_tensor **outs, const st_tensor **ins, void *ctx)
{
    const reduce_args *r = ctx;
    return st_reduce(r->op, outs[0], ins[0], r->dims, ins[1]);
}

st_status st_reduce(int op, st_tensor *out, const st_tensor *in, const uint8_t *dims,
                    const st_tensor *aux)
{
    st_status rc;
    if (op < 0 || op >= ST_R_COUNT) return st_fail(ST_E_VALUE, "unknown reduction %d", op);
    int res = st_reduce_result(op, in->dtype);
    if (res < 0)
        return st_fail(ST_E_TYPE, "%s is not defined for %s", st_reduce_names[op],
                       st_dtype_name(in->dtype));
    if ((rc = st_check_dtype(out, res, "reduction output"))) return rc;
    if ((rc = st_check_writable(out, "reduction output"))) return rc;
    if ((rc = st_check_storage(in, "reduction input"))) return rc;
    if (st_is_half(in->dtype)) { /* in float32 (half.c) */
        reduce_args r = {op, dims};
        st_tensor *outs[1] = {out};
        const st_tensor *ins[2] = {in, aux};
        return st_via_float32(reduce_f32, &r, 1, outs, 2, ins);
    }
    if (out->ndim != in->ndim)
        return st_fail(ST_E_VALUE, "reduction output has %d dims, the input %d", out->ndim,
                       in->ndim);
    for (int d = 0; d < in->ndim; d++) {
        int64_t want = dims[d] ? 1 : in->sizes[d];
        if (out->sizes[d] != want)
            return st_fail(ST_E_VALUE, "reduction output has size %lld at dim %d, expected %lld",
                           (long long)out->sizes[d], d, (long long)want);
    }
    if (op == ST_R_SUMSQDEV) {
        if (!aux) return st_fail(ST_E_VALUE, "var needs the mean");
        if ((rc = st_check_dtype(aux, in->dtype, "var's mean"))) return rc;
        if (aux->ndim != out->ndim) return st_fail(ST_E_VALUE, "var's mean has the wrong shape");
        for (int d = 0; d < out->ndim; d++)
            if (aux->sizes[d] != out->sizes[d])
                return st_fail(ST_E_VALUE, "var's mean has the wrong shape");
    }
    if (st_tensor_overlaps(out, in) || (aux && st_tensor_overlaps(out, aux)))
        return st_fail(ST_E_VALUE, "reduction output overlaps its input");
    /* float and complex sums, products and squared deviations: in the
     * order reduce_tree.c fixes, each output written once */
    if (st_reduce_tree_handles(op, in->dtype) && st_tensor_numel(in) > 0)
        return st_reduce_tree(op, out, in, dims, aux);
    char ident[16];
    identity(op == ST_R_SUMSQDEV ? ST_R_SUM : op, res, ident);
    if ((rc = st_fill(out, ident))) return rc;
    if (st_tensor_numel(in) == 0) return ST_OK;
    /* the others are exact (integers wrap, min/max pick): any order */
    const st_tensor *ops[2] = {out, in};
    st_iter it;
    if ((rc = st_iter_init_shape(&it, 2, ops, in->ndim, in->sizes, 0))) return rc;
    return run_reduction(&it, reduce_loops[op][in->dtype], out, op, in->dtype);
}

#endif /* ST_PART == 0 */

/* ---- lanes along an outer dim, walked a row at a time ----
 * The lanes along `dim` when the last dim (not `dim`) is contiguous in both
 * and long enough to vectorise (cumulative sums and arg-reductions along
 * axis 0 of a C-contiguous matrix): a rows_fn walks the rows of a block of
 * columns whole, columns cut into pieces as run_outer2 does when there are
 * fewer lanes than threads.  Each column is one lane computed by one call:
 * the result does not depend on the thread count.  out_rs and in_rs are
 * the byte steps along `dim`. */
typedef void (*rows_fn)(char *out, const char *in, int64_t rows, int64_t cols, int64_t out_rs,
                        int64_t in_rs);
#define ROWS_MIN_COLS 16
static int rows_fit(const st_tensor *out, const st_tensor *in, int dim)
{
    int last = in->ndim - 1;
    return in->ndim >= 2 && dim != last && in->sizes[last] >= ROWS_MIN_COLS &&
           in->strides[last] == 1 && out->strides[last] == 1;
}

static void run_rows(rows_fn f, st_tensor *out, const st_tensor *in, int dim)
{
    int last = in->ndim - 1;
    int64_t rows = in->sizes[dim], cols = in->sizes[last];
    int64_t in_item = st_itemsize(in->dtype), out_item = st_itemsize(out->dtype);
    st_lanes ln;
    const st_tensor *ops[2] = {in, out};
    st_lanes_init(&ln, 2, ops, dim);
    ln.ndim--; /* the last dim (size > 1, so kept by init) is walked by f */
    int64_t outer = 1;
    for (int d = 0; d < ln.ndim; d++) outer *= ln.size[d];
    int nt = st_threads_for(outer * rows * cols);
    int64_t pieces = (nt > 1 && outer < 4 * nt) ? SPLIT_PIECES_PER_THREAD * nt : 1;
    int64_t tasks = outer * pieces;
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1) if (nt > 1)
    for (int64_t t = 0; t < tasks; t++) {
        int64_t o = t / pieces, pc = t % pieces;
        int64_t c0 = (cols * pc / pieces) & ~(int64_t)(PIECE_ALIGN - 1);
        int64_t c1 =
            pc == pieces - 1 ? cols : (cols * (pc + 1) / pieces) & ~(int64_t)(PIECE_ALIGN - 1);
        if (c1 <= c0) continue;
        const char *src = ln.data[0] + c0 * in_item;
        char *dst = ln.data[1] + c0 * out_item;
        for (int d = ln.ndim - 1; d >= 0; d--) {
            int64_t i = o % ln.size[d];
            o /= ln.size[d];
            src += i * ln.step[d][0];
            dst += i * ln.step[d][1];
        }
        f(dst, src, rows, c1 - c0, out->strides[dim] * out_item, in->strides[dim] * in_item);
    }
}

#if ST_PART == 1
/* ---- arg-reductions along one dim (lanes) ----
 * The first position of the largest (smallest) value; a NaN beats
 * everything and the first NaN wins (numpy's rule).  A contiguous lane is
 * read in blocks of ARG_BLOCK: the extreme of each block comes from
 * vmax/vmin (vectors, sticky NaN), a block replaces the best
 * one only when its extreme is strictly better (so ties keep the earlier
 * block), and at the end the best block is searched for the first element
 * equal to the extreme (-0.0 == +0.0, as the scalar scan compares).  A
 * block whose extreme is NaN ends the lane at its first NaN. */
typedef struct {
    int64_t n, step;
} lane_geom;
/* 4096: a block's fixed costs (the vectors' fold, the NaN test, a call)
 * were a third of a 1024-value block's time; the best block, searched
 * again at the end, is 16 or 32 KiB: in L1 or L2 */
#define ARG_BLOCK 4096

#define DEF_ARG_ONE(NAME, SFX, T, EXT, BETTER)                                                     \
    static int64_t NAME##_contig_##SFX(const T *q, int64_t n)                                      \
    {                                                                                              \
        T best = q[0];                                                                             \
        int64_t at = 0;                                                                            \
        for (int64_t b = 0; b < n; b += ARG_BLOCK) {                                               \
            int64_t len = n - b < ARG_BLOCK ? n - b : ARG_BLOCK;                                   \
            /* the whole block (q[b] also the start: max(x, x) is x): a length     \
             * of whole vectors, no scalar tail */               \
            T m = EXT##_##SFX(q + b, len, q[b]);                                                   \
            if (m != m) return b + vfind_##SFX(q + b, len, m);                                     \
            if (BETTER(m, best)) {                                                                 \
                best = m;                                                                          \
                at = b;                                                                            \
            }                                                                                      \
        }                                                                                          \
        int64_t len = n - at < ARG_BLOCK ? n - at : ARG_BLOCK;                                     \
        return at + vfind_##SFX(q + at, len, best);                                                \
    }                                                                                              \
    static void NAME##_##SFX(char **p, void *extra)                                                \
    {                                                                                              \
        const lane_geom *g = extra;                                                                \
        if (g->step == sizeof(T) && g->n >= 64) {                                                  \
            *(int64_t *)p[1] = NAME##_contig_##SFX((const T *)p[0], g->n);                         \
            return;                                                                                \
        }                                                                                          \
        T best = *(const T *)p[0];                                                                 \
        int64_t at = 0;                                                                            \
        if (best == best)                                                                          \
            for (int64_t i = 1; i < g->n; i++) {                                                   \
                T x = *(const T *)(p[0] + i * g->step);                                            \
                if (BETTER(x, best) || x != x) {                                                   \
                    best = x;                                                                      \
                    at = i;                                                                        \
                    if (x != x) break;                                                             \
                }                                                                                  \
            }                                                                                      \
        *(int64_t *)p[1] = at;                                                                     \
    }
#define ARG_GT(a, b) ((a) > (b))
#define ARG_LT(a, b) ((a) < (b))
/* clang-format off */
#define DEF_ARG(CODE, SFX, T, R, ...)                                                 \
    DEF_ARG_ONE(argmax, SFX, T, vmax, ARG_GT)                                         \
    DEF_ARG_ONE(argmin, SFX, T, vmin, ARG_LT)
/* clang-format on */
ST_TYPES_BOOL(DEF_ARG)
ST_TYPES_REAL(DEF_ARG)
#define CASE_ARG(CODE, SFX, T, R, ...)                                                             \
    case CODE:                                                                                     \
        lane = is_max ? argmax_##SFX : argmin_##SFX;                                               \
        better = is_max ? arg_better_max_##SFX : arg_better_min_##SFX;                             \
        break;

/* Does the value at b beat the value at a, b later in the lane (the
 * order of the pieces of a lane split across threads)? */
typedef int (*arg_better_fn)(const char *a, const char *b);
#define DEF_ARG_BETTER(CODE, SFX, T, R, ...)                                                       \
    static int arg_better_max_##SFX(const char *a_, const char *b_)                                \
    {                                                                                              \
        T a = *(const T *)a_, b = *(const T *)b_;                                                  \
        return a == a && (b != b || b > a);                                                        \
    }                                                                                              \
    static int arg_better_min_##SFX(const char *a_, const char *b_)                                \
    {                                                                                              \
        T a = *(const T *)a_, b = *(const T *)b_;                                                  \
        return a == a && (b != b || b < a);                                                        \
    }
ST_TYPES_BOOL(DEF_ARG_BETTER)
ST_TYPES_REAL(DEF_ARG_BETTER)

/* Arg-reductions along an outer dim (axis 0 of a C-contiguous matrix,
 * rows_fn for run_rows): walk the rows once, keeping for a block of
 * ARG_NV vectors of columns the best value so far and its row in
 * registers.  A row replaces a column's best only when strictly better or
 * when it is the first NaN (a NaN best is never replaced): the first
 * position of the extreme, the first NaN, as the scalar scan.  The row
 * numbers ride in integer lanes as wide as the element (int32 for 4-byte
 * types: st_argreduce checks the row count fits); fewer registers on
 * AVX2, whose 64-byte vectors take two each, and on SSE2 (16-byte
 * vectors, 16 registers). */
#define ARG_NV_v4 8
#define ARG_NV_v3 4
#define ARG_NV_v0 4
#define ARG_ROW_BETTER(x, best, CMP) (CMP(x, best) || ((x) != (x) && (best) == (best)))
#define DEF_ARG_ROWS_ISA(ISA, ATTR, NAME, SFX, T, CMP)                                             \
    ATTR static void NAME##_rows_##SFX##ISA(char *out, const char *in, int64_t rows, int64_t cols, \
                                            int64_t out_rs, int64_t in_rs)                         \
    {                                                                                              \
        enum { V = VEC_BYTES##ISA / sizeof(T), NV = ARG_NV##ISA, W = V * NV };                     \
        typedef VEC_T(LANES_##SFX, ISA) idx_t;                                                     \
        (void)out_rs;                                                                              \
        int64_t *o = (int64_t *)out;                                                               \
        const T *x0 = (const T *)in;                                                               \
        int64_t j = 0;                                                                             \
        for (; j + W <= cols; j += W) {                                                            \
            VEC_T(SFX, ISA) best[NV];                                                              \
            idx_t at[NV], iv = {0};                                                                \
            const idx_t one = iv + 1;                                                              \
            for (int k = 0; k < NV; k++) {                                                         \
                memcpy(&best[k], x0 + j + k * V, VEC_BYTES##ISA);                                  \
                at[k] = iv;                                                                        \
            }                                                                                      \
            for (int64_t i = 1; i < rows; i++) {                                                   \
                const T *x = (const T *)(in + i * in_rs) + j;                                      \
                iv += one;                                                                         \
                for (int k = 0; k < NV; k++) {                                                     \
                    VEC_T(SFX, ISA) xv;                                                            \
                    memcpy(&xv, x + k * V, VEC_BYTES##ISA);                                        \
                    idx_t b = (idx_t)(CMP(xv, best[k]) | ((xv != xv) & (best[k] == best[k])));     \
                    best[k] = VBLEND(b, xv, best[k]);                                              \
                    at[k] = VBLEND(b, iv, at[k]);                                                  \
                }                                                                                  \
            }                                                                                      \
            for (int k = 0; k < NV; k++)                                                           \
                for (int l = 0; l < V; l++) o[j + k * V + l] = at[k][l];                           \
        }                                                                                          \
        const int64_t m = cols - j; /* the last columns, fewer than W */                           \
        if (m == 0) return;                                                                        \
        T bt[W];                                                                                   \
        int64_t ba[W];                                                                             \
        for (int64_t k = 0; k < m; k++) bt[k] = x0[j + k], ba[k] = 0;                              \
        for (int64_t i = 1; i < rows; i++) {                                                       \
            const T *x = (const T *)(in + i * in_rs) + j;                                          \
            for (int64_t k = 0; k < m; k++)                                                        \
                if (ARG_ROW_BETTER(x[k], bt[k], CMP)) bt[k] = x[k], ba[k] = i;                     \
        }                                                                                          \
        for (int64_t k = 0; k < m; k++) o[j + k] = ba[k];                                          \
    }
#define DEF_ARG_ROWS(CODE, SFX, T, R, ...)                                                         \
    ST_LEVELS(DEF_ARG_ROWS_ISA, argmax, SFX, T, ARG_GT)                                            \
    ST_LEVELS(DEF_ARG_ROWS_ISA, argmin, SFX, T, ARG_LT)                                            \
    static void argmax_rows_##SFX(char *out, const char *in, int64_t rows, int64_t cols,           \
                                  int64_t out_rs, int64_t in_rs)                                   \
    {                                                                                              \
        ST_PICK(argmax_rows_##SFX)(out, in, rows, cols, out_rs, in_rs);                            \
    }                                                                                              \
    static void argmin_rows_##SFX(char *out, const char *in, int64_t rows, int64_t cols,           \
                                  int64_t out_rs, int64_t in_rs)                                   \
    {                                                                                              \
        ST_PICK(argmin_rows_##SFX)(out, in, rows, cols, out_rs, in_rs);                            \
    }
/* the element types of 4 and 8 bytes (row numbers in lanes of their width) */
/* clang-format off */
#define ST_TYPES_ARG_ROWS(M)                                                          \
    M(ST_INT32, int32, int32_t, int32_t) M(ST_UINT32, uint32, uint32_t, uint32_t)     \
    M(ST_INT64, int64, int64_t, int64_t) M(ST_UINT64, uint64, uint64_t, uint64_t)     \
    M(ST_FLOAT32, float32, float, float) M(ST_FLOAT64, float64, double, double)
/* clang-format on */
ST_TYPES_ARG_ROWS(DEF_ARG_ROWS)
#define CASE_ARG_ROWS(CODE, SFX, T, R, ...)                                                        \
    case CODE:                                                                                     \
        if (sizeof(T) == 8 || rows - 1 <= INT32_MAX)                                               \
            f = is_max ? argmax_rows_##SFX : argmin_rows_##SFX;                                    \
        break;

/* The rows kernel for an arg-reduction of `in` along `dim` into `out`, or
 * NULL when the lanes are not rows of contiguous columns or the type has
 * none. */
static rows_fn arg_rows_for(int is_max, const st_tensor *out, const st_tensor *in, int dim)
{
    rows_fn f = NULL;
    if (!rows_fit(out, in, dim)) return NULL;
    int64_t rows = in->sizes[dim];
    switch (in->dtype) {
        ST_TYPES_ARG_ROWS(CASE_ARG_ROWS)
    default:
        break;
    }
    return f;
}

static st_status check_lane_dim(const st_tensor *in, int dim, const char *what)
{
    if (dim < 0 || dim >= (in->ndim ? in->ndim : 1))
        return st_fail(ST_E_INDEX, "%s: dim %d out of range [0, %d)", what, dim,
                       in->ndim ? in->ndim : 1);
    return ST_OK;
}

/* One long lane (argmax of everything): each thread takes a piece and
 * the pieces' winners are compared in lane order, a later piece winning
 * only when strictly better: the first position overall, whatever the
 * number of pieces. */
static void arg_split_lane(st_lane_fn lane, arg_better_fn better, const lane_geom *g, char *data,
                           char *out, int nt)
{
    int64_t at[64];
    if (nt > 64) nt = 64;
#pragma omp parallel for num_threads(nt) schedule(static, 1)
    for (int t = 0; t < nt; t++) {
        int64_t a = g->n * t / nt, b = g->n * (t + 1) / nt;
        lane_geom mine = {b - a, g->step};
        char *p[2] = {data + a * g->step, (char *)&at[t]};
        lane(p, &mine);
        at[t] += a;
    }
    int64_t best = at[0];
    for (int t = 1; t < nt; t++)
        if (better(data + best * g->step, data + at[t] * g->step)) best = at[t];
    *(int64_t *)out = best;
}

typedef struct {
    int flag, dim;
} lane_args;
static st_status argreduce_f32(st_tensor **outs, const st_tensor **ins, void *ctx)
{
    const lane_args *l = ctx;
    return st_argreduce(l->flag, outs[0], ins[0], l->dim);
}
static st_status cumulative_f32(st_tensor **outs, const st_tensor **ins, void *ctx)
{
    const lane_args *l = ctx;
    return st_cumulative(l->flag, outs[0], ins[0], l->dim);
}

st_status st_argreduce(int is_max, st_tensor *out, const st_tensor *in, int dim)
{
    st_status rc;
    if (st_is_half(in->dtype)) { /* in float32 (half.c) */
        lane_args l = {is_max, dim};
        const st_tensor *ins[1] = {in};
        return st_via_float32(argreduce_f32, &l, 1, &out, 1, ins);
    }
    const char *name = is_max ? "argmax" : "argmin";
    if ((rc = check_lane_dim(in, dim, name))) return rc;
    if ((rc = st_check_dtype(out, ST_INT64, "argmax/argmin output"))) return rc;
    if ((rc = st_check_writable(out, "argmax/argmin output"))) return rc;
    int64_t n = in->ndim ? in->sizes[dim] : 1;
    if (n == 0 && st_tensor_numel(in) == 0 && in->ndim)
        return st_fail(ST_E_VALUE, "%s of an empty sequence (dim %d has size 0)", name, dim);
    if (out->ndim != in->ndim) return st_fail(ST_E_VALUE, "%s output must keep the dims", name);
    for (int d = 0; d < in->ndim; d++)
        if (out->sizes[d] != (d == dim ? 1 : in->sizes[d]))
            return st_fail(ST_E_VALUE, "%s output has size %lld at dim %d", name,
                           (long long)out->sizes[d], d);
    st_lane_fn lane = NULL;
    arg_better_fn better = NULL;
    switch (in->dtype) {
        ST_TYPES_BOOL(CASE_ARG)
        ST_TYPES_REAL(CASE_ARG)
    default:
        return st_fail(ST_E_TYPE, "%s is not defined for %s", name, st_dtype_name(in->dtype));
    }
    if (st_tensor_numel(out) == 0) return ST_OK;
    rows_fn f_rows = arg_rows_for(is_max, out, in, dim);
    if (f_rows) {
        run_rows(f_rows, out, in, dim);
        return ST_OK;
    }
    lane_geom g = {n, in->ndim ? in->strides[dim] * st_itemsize(in->dtype) : 0};
    const int nt = st_tensor_numel(out) == 1 ? st_threads_for(n) : 1; /* read once */
    if (nt > 1) {
        arg_split_lane(lane, better, &g, st_tensor_data(in), st_tensor_data(out), nt);
        return ST_OK;
    }
    st_lanes ln;
    const st_tensor *ops[2] = {in, out};
    st_lanes_init(&ln, 2, ops, in->ndim ? dim : -1);
    st_lanes_run(&ln, lane, &g, n);
    return ST_OK;
}

/* ---- cumulative sum and product (lanes) ---- */
typedef struct {
    int64_t n, in_step, out_step;
} cum_geom;
#define DEF_CUM(CODE, SFX, T, R, ...)                                                              \
    /* the geometry in locals: a store through the output may alias *g, and   \
     * reloading it after every element lengthened the running sum's chain */                    \
    static void cumsum_##SFX(char **p, void *extra)                                                \
    {                                                                                              \
        const cum_geom *g = extra;                                                                 \
        const int64_t n = g->n, is = g->in_step, os = g->out_step;                                 \
        const char *x = p[0];                                                                      \
        char *o = p[1];                                                                            \
        ACC_SUM_##SFX acc = 0;                                                                     \
        for (int64_t i = 0; i < n; i++) {                                                          \
            acc += *(const T *)(x + i * is);                                                       \
            *(ACC_SUM_##SFX *)(o + i * os) = acc;                                                  \
        }                                                                                          \
    }                                                                                              \
    static void cumprod_##SFX(char **p, void *extra)                                               \
    {                                                                                              \
        const cum_geom *g = extra;                                                                 \
        const int64_t n = g->n, is = g->in_step, os = g->out_step;                                 \
        const char *x = p[0];                                                                      \
        char *o = p[1];                                                                            \
        ACC_SUM_##SFX acc = 1;                                                                     \
        for (int64_t i = 0; i < n; i++) {                                                          \
            acc *= *(const T *)(x + i * is);                                                       \
            *(ACC_SUM_##SFX *)(o + i * os) = acc;                                                  \
        }                                                                                          \
    }
ST_TYPES_ALL(DEF_CUM)
#define CASE_CUM(CODE, SFX, T, R, ...)                                                             \
    case CODE:                                                                                     \
        lane = is_prod ? cumprod_##SFX : cumsum_##SFX;                                             \
        break;

/* Along an outer dim whose rows are contiguous (axis 0 of a C-contiguous
 * matrix) a lane per column would walk memory with the row stride; these
 * walk the rows instead, out[i, :] = out[i - 1, :] (op) in[i, :], so each
 * column still runs its own sequential sum (the same bits as the lane). */
#define DEF_CUM_ROWS(NAME, SFX, T, OP, START) ST_LEVELS(DEF_CUM_ROWS_ISA, NAME, SFX, T, OP, START)
#define DEF_CUM_ROWS_ISA(ISA, ATTR, NAME, SFX, T, OP, START)                                       \
    ATTR static void NAME##_rows_##SFX##ISA(char *out, const char *in, int64_t rows, int64_t cols, \
                                            int64_t out_rs, int64_t in_rs)                         \
    {                                                                                              \
        typedef ACC_SUM_##SFX A;                                                                   \
        A *o = (A *)out;                                                                           \
        const T *x = (const T *)in;                                                                \
        for (int64_t j = 0; j < cols; j++) o[j] = (A)(START)OP x[j];                               \
        for (int64_t i = 1; i < rows; i++) {                                                       \
            const A *prev = o;                                                                     \
            o = (A *)((char *)o + out_rs);                                                         \
            x = (const T *)((const char *)x + in_rs);                                              \
            _Pragma("GCC ivdep")                                                                   \
            for (int64_t j = 0; j < cols; j++) o[j] = prev[j] OP x[j];                             \
        }                                                                                          \
    }
#define DEF_CUM_ROWS_BOTH(CODE, SFX, T, R, ...)                                                    \
    DEF_CUM_ROWS(cumsum, SFX, T, +, 0) DEF_CUM_ROWS(cumprod, SFX, T, *, 1)
ST_TYPES_ALL(DEF_CUM_ROWS_BOTH)
#define CASE_CUM_ROWS(CODE, SFX, T, R, ...)                                                        \
    case CODE:                                                                                     \
        f_rows = is_prod ? ST_PICK(cumprod_rows_##SFX) : ST_PICK(cumsum_rows_##SFX);               \
        break;

st_status st_cumulative(int is_prod, st_tensor *out, const st_tensor *in, int dim)
{
    st_status rc;
    const char *name = is_prod ? "cumprod" : "cumsum";
    if (st_is_half(in->dtype)) { /* in float32 (half.c) */
        if ((rc = st_check_dtype(out, in->dtype, "cumulative output"))) return rc;
        lane_args l = {is_prod, dim};
        const st_tensor *ins[1] = {in};
        return st_via_float32(cumulative_f32, &l, 1, &out, 1, ins);
    }
    if (!st_is_math_type(in->dtype))
        return st_fail(ST_E_TYPE, "%s is not defined for %s", name, st_dtype_name(in->dtype));
    if ((rc = check_lane_dim(in, dim, name))) return rc;
    if ((rc = st_check_dtype(out, sum_acc_dtype(in->dtype), "cumulative output"))) return rc;
    if ((rc = st_check_writable(out, "cumulative output"))) return rc;
    if ((rc = st_check_storage(in, "cumulative input"))) return rc;
    if (out->ndim != in->ndim)
        return st_fail(ST_E_VALUE, "%s output must have the input's shape", name);
    for (int d = 0; d < in->ndim; d++)
        if (out->sizes[d] != in->sizes[d])
            return st_fail(ST_E_VALUE, "%s output must have the input's shape", name);
    if (st_tensor_numel(in) == 0) return ST_OK;
    if (st_tensor_overlaps(out, in)) {
        st_tensor *tmp = st_tensor_temp_like(in, in->dtype);
        if (!tmp) return st_last_status();
        rc = st_copy(tmp, in);
        if (!rc) rc = st_cumulative(is_prod, out, tmp, dim);
        st_tensor_free(tmp);
        return rc;
    }
    if (rows_fit(out, in, dim)) {
        rows_fn f_rows = NULL;
        switch (in->dtype) {
            ST_TYPES_ALL(CASE_CUM_ROWS)
        default:
            break;
        }
        run_rows(f_rows, out, in, dim);
        return ST_OK;
    }
    st_lane_fn lane = NULL;
    switch (in->dtype) {
        ST_TYPES_ALL(CASE_CUM)
    default:
        break;
    }
    int64_t n = in->ndim ? in->sizes[dim] : 1;
    cum_geom g = {n, in->ndim ? in->strides[dim] * st_itemsize(in->dtype) : 0,
                  out->ndim ? out->strides[dim] * st_itemsize(out->dtype) : 0};
    st_lanes ln;
    const st_tensor *ops[2] = {in, out};
    st_lanes_init(&ln, 2, ops, in->ndim ? dim : -1);
    st_lanes_run(&ln, lane, &g, n);
    return ST_OK;
}

#endif /* ST_PART == 1 */

#if ST_PART == 0
/* ---- count of nonzero elements (vcount above) ---- */
#define DEF_COUNT(CODE, SFX, T, R, ...)                                                            \
    static void count_##SFX(char **args_, const int64_t *np, const int64_t *s_, void *extra)       \
    {                                                                                              \
        ST_LOCAL_ARGS(1)                                                                           \
        int64_t c = 0;                                                                             \
        if (s[0] == sizeof(T))                                                                     \
            c = vcount_##SFX((const T *)args[0], *np);                                             \
        else                                                                                       \
            for (int64_t i = 0; i < *np; i++) c += *(const T *)(args[0] + i * s[0]) != 0;          \
        __atomic_add_fetch((int64_t *)extra, c, __ATOMIC_RELAXED);                                 \
    }
#define DEF_COUNT_COMPLEX(CODE, SFX, T, R, ...)                                                    \
    static void count_##SFX(char **args_, const int64_t *np, const int64_t *s_, void *extra)       \
    {                                                                                              \
        ST_LOCAL_ARGS(1)                                                                           \
        int64_t c = 0;                                                                             \
        for (int64_t i = 0; i < *np; i++) c += *(const T *)(args[0] + i * s[0]) != 0;              \
        __atomic_add_fetch((int64_t *)extra, c, __ATOMIC_RELAXED);                                 \
    }
ST_TYPES_BOOL(DEF_COUNT)
ST_TYPES_REAL(DEF_COUNT)
ST_TYPES_COMPLEX(DEF_COUNT_COMPLEX)
#define CASE_COUNT(CODE, SFX, T, R, ...)                                                           \
    case CODE:                                                                                     \
        loop = count_##SFX;                                                                        \
        break;

static st_status count_nonzero_f32(st_tensor **outs, const st_tensor **ins, void *count)
{
    (void)outs;
    return st_count_nonzero(ins[0], count);
}

st_status st_count_nonzero(const st_tensor *in, int64_t *count)
{
    st_status rc;
    *count = 0;
    if (st_is_half(in->dtype)) return st_via_float32(count_nonzero_f32, count, 0, NULL, 1, &in);
    if (!st_is_math_type(in->dtype))
        return st_fail(ST_E_TYPE, "count_nonzero is not defined for %s", st_dtype_name(in->dtype));
    if ((rc = st_check_storage(in, "count_nonzero input"))) return rc;
    if (st_tensor_numel(in) == 0) return ST_OK;
    st_loop_fn loop = NULL;
    switch (in->dtype) {
        ST_TYPES_ALL(CASE_COUNT)
    default:
        break;
    }
    st_iter it;
    const st_tensor *ops[1] = {in};
    if ((rc = st_iter_init(&it, 1, ops, 0))) return rc;
    st_iter_run(&it, loop, count, 0);
    return ST_OK;
}
#endif /* ST_PART == 0 */
