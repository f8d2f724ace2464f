/* reduce_tree.c -- the ordered reductions: sums and products of floats and
 * complex numbers, and the sums of squared deviations behind var/std.
 *
 * Floating-point addition is not associative: the value of a sum depends
 * on the order of its terms.  Here that order is a function of the reduced
 * values alone (their number and their values, in index order), never of
 * the layout in memory, the extent of the kept dims, which kernel runs
 * (one output at a time, or a block of outputs in vector lanes), the CPU
 * level or the thread count.  So the sum of a slice is the slice of the
 * sum, bit for bit, and a strided view sums as its contiguous copy.
 *
 * The order (docs/core-semantics.md, "Order of float reductions"), for the
 * values v_0 .. v_{n-1} (the reduced elements in C order of the reduced
 * dims, by logical index; v = x, or |x - m|^2 for the squared deviations)
 * and the operation (+) (add, or multiply) with identity e:
 *   - L = 256 / sizeof(accumulator) lanes (32 for double, 64 for float, 16
 *     for complex double, 32 for complex float) and blocks of B = 8 L
 *     consecutive values; the last block may be shorter;
 *   - in a block, lane j folds the block's values j, j + L, j + 2L, ... in
 *     order, starting from e: l_j = ((e (+) v_j) (+) v_{j+L}) (+) ...;
 *     then for w = L/2, L/4, ..., 1: l_j = l_j (+) l_{j+w} for j < w; the
 *     block's value is l_0 (a lane without values stays e);
 *   - the block values b_0 .. b_{m-1} combine as a binary tree whose left
 *     part is the largest power of two below m: T(b_0 .. b_{m-1}) =
 *     T(b_0 .. b_{P-1}) (+) T(b_P .. b_{m-1}), P = 2^k < m <= 2^{k+1};
 *   - the result is that tree's value (e when n = 0).
 * The tree is built as the blocks stream by: a stack of finished subtrees,
 * two equal ones merged as soon as both are there (a binary counter),
 * folded right to left at the end.  A piece of the reduced range that
 * starts on a multiple of a power-of-two number of blocks and is that
 * long (or ends the range) is a subtree of the same tree: that is how a
 * long reduction is split across threads without changing a bit.
 *
 * Two kernels compute it:
 *   - inner: one output at a time, its values streamed run by run (the
 *     innermost reduced dim); a contiguous run's whole blocks are four
 *     64-byte vectors of lanes each (GCC vector extensions);
 *   - outer: up to TREE_COLS outputs that are contiguous in the input (a
 *     reduction over outer axes), row by row into L rows of accumulators,
 *     the outputs in vector lanes: each output lane runs exactly the inner
 *     kernel's operations.
 * A reduction whose values lie across memory (a transposed matrix summed
 * whole) is copied a piece at a time into a contiguous buffer, in order.
 * Contraction into fused multiply-adds is off for this file: a fused
 * a*b + c is rounded once, so it would differ from the baseline x86-64
 * build (no FMA) and between kernels the compiler contracted differently. */
#include "st_internal.h"
#include <math.h>
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#pragma GCC optimize("fp-contract=off")

#define TREE_STEPS 8                           /* values per lane in a block */
#define TREE_LANES(A) ((int)(256 / sizeof(A))) /* four 64-byte vectors of lanes */
#define TREE_COLS 64                           /* outputs per pass of the outer kernel */
#define TREE_MAX_DEPTH 64
#define TREE_MAX_SCRATCH ((int64_t)4 << 20)    /* bytes of per-chunk partial results */
#define TREE_PIECES_PER_THREAD 4
#define TREE_GATHER_MIN 32768                  /* values a gathering kernel copies at a time */
#define TREE_GATHER_MAX_BYTES ((int64_t)4 << 20)

/* What a kernel call reduces: the reduced dims (C order, merged where the
 * input allows), the rows [r0, r1) of them (r0 on a block edge), and where
 * the results go: out, or (a piece of a split reduction) chunk `chunk` of
 * the scratch operand.  `work` holds the outer kernel's per-thread
 * accumulators. */
typedef struct {
    int nr;
    int64_t rsz[ST_MAX_DIMS], rst[ST_MAX_DIMS];   /* sizes, byte steps */
    int64_t r0, r1;
    int to_scratch;
    int64_t chunk, chunk_bytes, nchunks;
    char *work;                                   /* per-thread buffers, work_bytes each */
    int64_t work_bytes;
    int depth;                                    /* stack entries the outer kernel may need */
    int64_t gather;                               /* inner: values copied at a time, or 0 */
    const st_tensor *in;
} tree_task;

/* The position in the reduced dims of row r (an odometer). */
typedef struct {
    int64_t idx[ST_MAX_DIMS];
    int64_t off;
} rwalk;

static inline void rwalk_init(rwalk *w, const tree_task *t, int64_t r)
{
    w->off = 0;
    for (int d = t->nr - 1; d >= 0; d--) {
        w->idx[d] = r % t->rsz[d];
        r /= t->rsz[d];
        w->off += w->idx[d] * t->rst[d];
    }
}

/* Advance k rows, k at most what is left of the innermost dim's run. */
static inline void rwalk_add(rwalk *w, const tree_task *t, int64_t k)
{
    int d = t->nr - 1;
    w->idx[d] += k;
    w->off += k * t->rst[d];
    while (d > 0 && w->idx[d] == t->rsz[d]) {
        w->off -= t->rsz[d] * t->rst[d];
        w->idx[d] = 0;
        d--;
        w->idx[d]++;
        w->off += t->rst[d];
    }
}

/* Copy the values at rows [r, r + len) of the output whose values start
 * at `base` into buf, contiguous: pieces that are boxes of the reduced dims
 * (a count along one dim, all of the dims after it), each copied by
 * st_copy, whose tiles read a transposed box a cache line at a time. */
static void gather_range(const tree_task *t, const char *base, int64_t r, int64_t len, char *buf)
{
    const st_tensor *in = t->in;
    const int64_t item = st_itemsize(in->dtype);
    const int nr = t->nr;
    int64_t unit[ST_MAX_DIMS + 1];   /* values in one index of dim d: unit[d + 1] */
    unit[nr] = 1;
    for (int d = nr - 1; d >= 0; d--) unit[d] = unit[d + 1] * t->rsz[d];
    st_storage mem = {buf, len * item, 1, 0, NULL, NULL};
    while (len > 0) {
        rwalk w;
        rwalk_init(&w, t, r);
        /* the outermost dim d whose inner dims start at 0 and fit whole */
        int d = nr - 1;
        while (d > 0 && w.idx[d] == 0 && len >= unit[d]) d--;
        int64_t c = t->rsz[d] - w.idx[d];
        if (c > len / unit[d + 1]) c = len / unit[d + 1];
        st_tensor src = *in, dst = *in;
        src.ndim = dst.ndim = nr - d;
        for (int k = 0; k < nr - d; k++) {
            src.sizes[k] = dst.sizes[k] = k ? t->rsz[d + k] : c;
            src.strides[k] = t->rst[d + k] / item;
            dst.strides[k] = unit[d + k + 1];
        }
        src.offset = (base + w.off - in->storage->data) / item;
        dst.storage = &mem;
        dst.offset = (buf - mem.data) / item;
        st_copy(&dst, &src);   /* cannot fail: views of valid memory */
        buf += c * unit[d + 1] * item;
        r += c * unit[d + 1];
        len -= c * unit[d + 1];
    }
}

static inline int thread_id(void)
{
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

/* the values folded: the element, or its squared distance to the mean m */
#define LOAD_PLAIN(q, m) (*(q))
#define LOAD_SQ(q, m) ((*(q) - (m)) * (*(q) - (m)))
#define LOAD_CSQ(q, m)                                                                \
    (__real__(*(q) - (m)) * __real__(*(q) - (m)) + __imag__(*(q) - (m)) * __imag__(*(q) - (m)))
#define OP_ADD(a, b) ((a) + (b))
#define OP_MUL(a, b) ((a) * (b))

/* Complex products as C computes them (ar br - ai bi, ar bi + ai br; both
 * parts NaN: C's __mul?c3, which recovers infinities), each product rounded
 * on its own: GCC's vectoriser fuses the inline form into fmaddsub
 * whatever -ffp-contract says, and a fused product differs in the last bit
 * from the baseline x86-64 build (no FMA).  The empty asm keeps the four
 * products apart (and these loops scalar, which a complex product is anyway). */
st_c64 __mulsc3(float, float, float, float);       /* libgcc's */
st_c128 __muldc3(double, double, double, double);
#define DEF_CMUL(NAME, T, R, LIBCALL)                                                 \
    static inline __attribute__((always_inline)) T NAME(T a, T b)                    \
    {                                                                                 \
        R p1 = __real__ a * __real__ b, p2 = __imag__ a * __imag__ b;                 \
        R p3 = __real__ a * __imag__ b, p4 = __imag__ a * __real__ b;                 \
        __asm__("" : "+x"(p1), "+x"(p2), "+x"(p3), "+x"(p4));                         \
        T r;                                                                          \
        __real__ r = p1 - p2;                                                         \
        __imag__ r = p3 + p4;                                                         \
        if (__real__ r != __real__ r && __imag__ r != __imag__ r)                     \
            return LIBCALL(__real__ a, __imag__ a, __real__ b, __imag__ b);           \
        return r;                                                                     \
    }
DEF_CMUL(cmul_c64, st_c64, float, __mulsc3)
DEF_CMUL(cmul_c128, st_c128, double, __muldc3)
#define OP_CMUL64(a, b) cmul_c64(a, b)
#define OP_CMUL128(a, b) cmul_c128(a, b)

#define TREE_INLINE static inline __attribute__((always_inline))

/* The helpers of one reduction (NAME: element type T, accumulator A),
 * inlined into each CPU level's kernels.  VEC defines NAME##_block (one
 * whole contiguous block) and NAME##_rows (rows of L values into the open
 * block's lanes); SHORT is 1 when lanes left at the identity may be
 * skipped (sums, real products: e (+) x and l (+) e are exact, as no lane
 * is ever -0.0), which shortens reductions of fewer than L values. */
#define DEF_TREE(NAME, T, A, LOAD, OP, E, VEC, SHORT)                                 \
    typedef struct {                                                                  \
        A lane[TREE_LANES(A)];     /* the open block's lanes */                       \
        int64_t pos;               /* values in the open block */                     \
        int d;                     /* finished subtrees on the stack */               \
        signed char lvl[TREE_MAX_DEPTH];   /* log2 of their block counts */           \
        A v[TREE_MAX_DEPTH];                                                          \
    } NAME##_state;                                                                   \
    TREE_INLINE void NAME##_init(NAME##_state *s)                                     \
    {                                                                                 \
        for (int j = 0; j < TREE_LANES(A); j++) s->lane[j] = E;                       \
        s->pos = 0;                                                                   \
        s->d = 0;                                                                     \
    }                                                                                 \
    /* a finished block onto the stack; equal subtrees merge */                      \
    TREE_INLINE void NAME##_push(NAME##_state *s, A b)                                \
    {                                                                                 \
        int d = s->d;                                                                 \
        s->v[d] = b;                                                                  \
        s->lvl[d] = 0;                                                                \
        d++;                                                                          \
        while (d >= 2 && s->lvl[d - 1] == s->lvl[d - 2]) {                            \
            s->v[d - 2] = OP(s->v[d - 2], s->v[d - 1]);                               \
            s->lvl[d - 2]++;                                                          \
            d--;                                                                      \
        }                                                                             \
        s->d = d;                                                                     \
    }                                                                                 \
    TREE_INLINE A NAME##_fold(const NAME##_state *s)                                  \
    {                                                                                 \
        if (s->d == 0) return E;                                                      \
        A r = s->v[s->d - 1];                                                         \
        for (int k = s->d - 2; k >= 0; k--) r = OP(s->v[k], r);                       \
        return r;                                                                     \
    }                                                                                 \
    /* NAME##_lanes(r): the lanes r folded in halves, the block's value */           \
    VEC(NAME, T, A, LOAD, OP, E)                                                      \
    /* n values from p, `step` bytes apart, into the open block and on */            \
    TREE_INLINE void NAME##_feed(NAME##_state *s, const char *p, int64_t n, int64_t step, T m) \
    {                                                                                 \
        enum { L = TREE_LANES(A), B = L * TREE_STEPS };                               \
        const int contig = step == (int64_t)sizeof(T);                                \
        while (n > 0) {                                                               \
            if (s->pos == 0 && n >= B) {   /* whole blocks */                         \
                for (; n >= B; n -= B, p += B * step) {                               \
                    if (contig) {                                                     \
                        NAME##_push(s, NAME##_block((const T *)p, m));                \
                        continue;                                                     \
                    }                                                                 \
                    A r[L];                                                           \
                    for (int j = 0; j < L; j++) r[j] = E;                             \
                    for (int i = 0; i < TREE_STEPS; i++)                              \
                        for (int j = 0; j < L; j++)                                   \
                            r[j] = OP(r[j], LOAD((const T *)(p + (i * L + j) * step), m)); \
                    NAME##_push(s, NAME##_lanes(r));                                  \
                }                                                                     \
                continue;                                                             \
            }                                                                         \
            int64_t take = B - s->pos < n ? B - s->pos : n, i = 0;                    \
            if (contig && (s->pos & (L - 1)) == 0 && take >= L) {                     \
                i = take / L * L;                                                     \
                NAME##_rows(s, (const T *)p, take / L, m);                            \
            }                                                                         \
            for (; i < take; i++) {                                                   \
                int j = (int)((s->pos + i) & (L - 1));                                \
                s->lane[j] = OP(s->lane[j], LOAD((const T *)(p + i * step), m));      \
            }                                                                         \
            s->pos += take;                                                           \
            p += take * step;                                                         \
            n -= take;                                                                \
            if (s->pos == B) {                                                        \
                NAME##_push(s, NAME##_lanes(s->lane));                                \
                for (int j = 0; j < L; j++) s->lane[j] = E;                           \
                s->pos = 0;                                                           \
            }                                                                         \
        }                                                                             \
    }                                                                                 \
    /* the tree over rows [t->r0, t->r1) of one output whose values start at in */   \
    TREE_INLINE A NAME##_one(const tree_task *t, const char *in, T m)                 \
    {                                                                                 \
        enum { L = TREE_LANES(A) };                                                   \
        const int64_t n = t->r1 - t->r0;                                              \
        if (SHORT && n < L && t->nr == 1) {                                           \
            /* one block, one value per lane: lanes n.. stay e and drop out */       \
            A r[L];                                                                   \
            const char *p = in + t->r0 * t->rst[0];                                   \
            for (int64_t j = 0; j < n; j++) r[j] = OP(E, LOAD((const T *)(p + j * t->rst[0]), m)); \
            for (int w = L / 2; w > 0; w /= 2)                                        \
                for (int j = 0; j < w && j + w < n; j++) r[j] = OP(r[j], r[j + w]);   \
            return r[0];                                                              \
        }                                                                             \
        NAME##_state s;                                                               \
        NAME##_init(&s);                                                              \
        if (t->gather) {                                                              \
            char *buf = t->work + thread_id() * t->work_bytes;                        \
            for (int64_t r = t->r0; r < t->r1; r += t->gather) {                      \
                int64_t len = t->r1 - r < t->gather ? t->r1 - r : t->gather;          \
                gather_range(t, in, r, len, buf);                                     \
                NAME##_feed(&s, buf, len, sizeof(T), m);                              \
            }                                                                         \
        } else if (t->nr == 1) {                                                      \
            NAME##_feed(&s, in + t->r0 * t->rst[0], n, t->rst[0], m);                 \
        } else {                                                                      \
            const int last = t->nr - 1;                                               \
            rwalk w;                                                                  \
            rwalk_init(&w, t, t->r0);                                                 \
            for (int64_t r = t->r0; r < t->r1;) {                                     \
                int64_t len = t->rsz[last] - w.idx[last];                             \
                if (len > t->r1 - r) len = t->r1 - r;                                 \
                NAME##_feed(&s, in + w.off, len, t->rst[last], m);                    \
                r += len;                                                             \
                rwalk_add(&w, t, len);                                                \
            }                                                                         \
        }                                                                             \
        if (s.pos) NAME##_push(&s, NAME##_lanes(s.lane));                             \
        return NAME##_fold(&s);                                                       \
    }                                                                                 \
    /* the chunks' partial results of each output, combined as the tree does */     \
    static void NAME##_combine(char **args, const int64_t *np, const int64_t *st, void *extra) \
    {                                                                                 \
        const tree_task *t = extra;                                                   \
        for (int64_t i = 0; i < *np; i++) {                                           \
            NAME##_state s;                                                           \
            s.d = 0;                                                                  \
            for (int64_t c = 0; c < t->nchunks; c++)                                  \
                NAME##_push(&s, *(const A *)(args[3] + i * st[3] + c * t->chunk_bytes)); \
            *(A *)(args[1] + i * st[1]) = NAME##_fold(&s);                            \
        }                                                                             \
    }                                                                                 \
    ST_LEVELS(DEF_TREE_ISA, NAME, T, A, LOAD, OP, E)

/* NAME##_block: the value of the whole block at q (contiguous);
 * NAME##_rows: k rows of L values at q (contiguous) into the open block's
 * lanes.  VEC_ARRAY: lanes in an array (the compiler's vectors, if any). */
#define VEC_ARRAY(NAME, T, A, LOAD, OP, E)                                            \
    TREE_INLINE A NAME##_lanes(A *r)                                                  \
    {                                                                                 \
        for (int w = TREE_LANES(A) / 2; w > 0; w /= 2)                                \
            for (int j = 0; j < w; j++) r[j] = OP(r[j], r[j + w]);                    \
        return r[0];                                                                  \
    }                                                                                 \
    TREE_INLINE A NAME##_block(const T *q, T m)                                       \
    {                                                                                 \
        enum { L = TREE_LANES(A) };                                                   \
        A r[L];                                                                       \
        for (int j = 0; j < L; j++) r[j] = E;                                         \
        for (int i = 0; i < TREE_STEPS; i++)                                          \
            for (int j = 0; j < L; j++) r[j] = OP(r[j], LOAD(q + i * L + j, m));      \
        return NAME##_lanes(r);                                                       \
    }                                                                                 \
    TREE_INLINE void NAME##_rows(NAME##_state *s, const T *q, int64_t k, T m)         \
    {                                                                                 \
        enum { L = TREE_LANES(A) };                                                   \
        for (int64_t i = 0; i < k; i++)                                               \
            for (int j = 0; j < L; j++) s->lane[j] = OP(s->lane[j], LOAD(q + i * L + j, m)); \
    }
/* The same with the lanes in four 64-byte vectors of V (GCC vector
 * extensions: a register each on AVX-512), for types whose lanes are
 * SLOTS values of V (real: 1; complex sums: 2, real and imaginary part).
 * VE: the identity in V; VLOAD(x, mv): the vector of values.  Lane for
 * lane the arrays' operations: the halving adds vector 2 and 3 to 0 and 1,
 * then 1 to 0, then halves inside the vector by shuffles (lanes j < w get
 * lane j + w; the others are left over). */
#define DEF_VEC(NAME, T, A, OP, V, MI, SLOTS, VE, VLOAD)                              \
    TREE_INLINE A NAME##_vlanes(V __attribute__((vector_size(64))) *r)                \
    {                                                                                 \
        enum { NS = 64 / sizeof(V) };                                                 \
        typedef MI mt __attribute__((vector_size(64)));                               \
        r[0] = OP(r[0], r[2]);                                                        \
        r[1] = OP(r[1], r[3]);                                                        \
        r[0] = OP(r[0], r[1]);                                                        \
        _Pragma("GCC unroll 16") for (int w = NS / 2; w >= SLOTS; w /= 2) {           \
            mt mk;                                                                    \
            for (int j = 0; j < NS; j++) mk[j] = (j + w) & (NS - 1);                  \
            r[0] = OP(r[0], __builtin_shuffle(r[0], mk));                             \
        }                                                                             \
        A b;                                                                          \
        memcpy(&b, &r[0], sizeof b);                                                  \
        return b;                                                                     \
    }                                                                                 \
    TREE_INLINE A NAME##_lanes(A *a)                                                  \
    {                                                                                 \
        V __attribute__((vector_size(64))) r[4];                                      \
        memcpy(r, a, sizeof r);                                                       \
        return NAME##_vlanes(r);                                                      \
    }                                                                                 \
    TREE_INLINE A NAME##_block(const T *q, T m)                                       \
    {                                                                                 \
        enum { L = TREE_LANES(A), NV = 4 };                                           \
        typedef V vt __attribute__((vector_size(64)));                                \
        const vt mv = (vt){0} + (V)(m);   /* only the real sqdev reads it */         \
        (void)mv;                                                                     \
        vt r[NV];                                                                     \
        for (int k = 0; k < NV; k++) r[k] = (vt){0} + (V)(VE);                        \
        for (int i = 0; i < TREE_STEPS; i++)                                          \
            for (int k = 0; k < NV; k++) {                                            \
                vt x;                                                                 \
                memcpy(&x, (const char *)(q + i * L) + 64 * k, 64);                   \
                r[k] = OP(r[k], VLOAD(x, mv));                                        \
            }                                                                         \
        return NAME##_vlanes(r);                                                      \
    }                                                                                 \
    TREE_INLINE void NAME##_rows(NAME##_state *s, const T *q, int64_t k, T m)         \
    {                                                                                 \
        enum { L = TREE_LANES(A), NV = 4 };                                           \
        typedef V vt __attribute__((vector_size(64)));                                \
        const vt mv = (vt){0} + (V)(m);                                               \
        (void)mv;                                                                     \
        vt r[NV];                                                                     \
        memcpy(r, s->lane, sizeof r);                                                 \
        for (int64_t i = 0; i < k; i++)                                               \
            for (int v = 0; v < NV; v++) {                                            \
                vt x;                                                                 \
                memcpy(&x, (const char *)(q + i * L) + 64 * v, 64);                   \
                r[v] = OP(r[v], VLOAD(x, mv));                                        \
            }                                                                         \
        memcpy(s->lane, r, sizeof r);                                                 \
    }
#define VLOAD_PLAIN(x, mv) (x)
#define VLOAD_SQ(x, mv) (((x) - (mv)) * ((x) - (mv)))
#define VEC_F32(NAME, T, A, LOAD, OP, E) DEF_VEC(NAME, T, A, OP, float, int32_t, 1, E, VLOAD_PLAIN)
#define VEC_F64(NAME, T, A, LOAD, OP, E) DEF_VEC(NAME, T, A, OP, double, int64_t, 1, E, VLOAD_PLAIN)
#define VEC_C64(NAME, T, A, LOAD, OP, E) DEF_VEC(NAME, T, A, OP, float, int32_t, 2, 0, VLOAD_PLAIN)
#define VEC_C128(NAME, T, A, LOAD, OP, E) DEF_VEC(NAME, T, A, OP, double, int64_t, 2, 0, VLOAD_PLAIN)
#define VEC_SQ_F32(NAME, T, A, LOAD, OP, E) DEF_VEC(NAME, T, A, OP, float, int32_t, 1, E, VLOAD_SQ)
#define VEC_SQ_F64(NAME, T, A, LOAD, OP, E) DEF_VEC(NAME, T, A, OP, double, int64_t, 1, E, VLOAD_SQ)

/* The kernels (st_loop_fn over a run of outputs of the kept dims):
 * args {in, out, aux (the mean, or NULL), scratch}. */
#define DEF_TREE_ISA(ISA, ATTR, NAME, T, A, LOAD, OP, E)                              \
    ATTR static void NAME##_inner##ISA(char **args, const int64_t *np, const int64_t *st, void *extra) \
    {                                                                                 \
        const tree_task *t = extra;                                                   \
        for (int64_t i = 0; i < *np; i++) {                                           \
            const T m = args[2] ? *(const T *)(args[2] + i * st[2]) : (T)0;           \
            const A v = NAME##_one(t, args[0] + i * st[0], m);                        \
            if (t->to_scratch) *(A *)(args[3] + i * st[3] + t->chunk * t->chunk_bytes) = v; \
            else *(A *)(args[1] + i * st[1]) = v;                                     \
        }                                                                             \
    }                                                                                 \
    /* outputs contiguous in the input (st[0] = sizeof(T)), TREE_COLS at a time */ \
    ATTR static void NAME##_outer##ISA(char **args, const int64_t *np, const int64_t *st, void *extra) \
    {                                                                                 \
        enum { L = TREE_LANES(A), B = L * TREE_STEPS, W = TREE_COLS };                \
        const tree_task *t = extra;                                                   \
        const int64_t n = *np;                                                        \
        const char *in = args[0];                                                     \
        char *dst = t->to_scratch ? args[3] + t->chunk * t->chunk_bytes : args[1];    \
        const int64_t dstep = t->to_scratch ? st[3] : st[1];                                \
        const char *mp = args[2];                                                     \
        const int64_t mstep = st[2];                                                  \
        char *ws = t->work + thread_id() * t->work_bytes;                             \
        A(*acc)[W] = (A(*)[W])ws;                                                     \
        A *stk = (A *)(ws + (int64_t)L * W * sizeof(A));                              \
        T *mloc = (T *)(stk + (int64_t)t->depth * W);                                 \
        int64_t *rowoff = (int64_t *)(mloc + W);   /* the block's rows */             \
        signed char lvl[TREE_MAX_DEPTH];                                              \
        for (int64_t c0 = 0; c0 < n; c0 += W) {                                       \
            const int w = n - c0 < W ? (int)(n - c0) : W;                             \
            for (int c = 0; c < w; c++) mloc[c] = mp ? *(const T *)(mp + (c0 + c) * mstep) : (T)0; \
            const char *col = in + c0 * (int64_t)sizeof(T);                           \
            rwalk rw = {{0}, 0};                                                      \
            if (t->nr > 1) rwalk_init(&rw, t, t->r0);                                 \
            int d = 0;                                                                \
            for (int64_t rb = t->r0; rb < t->r1; rb += B) {                           \
                const int cnt = t->r1 - rb < B ? (int)(t->r1 - rb) : B;               \
                for (int k = 0; k < cnt; k++) {                                      \
                    if (t->nr == 1) {                                                 \
                        rowoff[k] = (rb + k) * t->rst[0];                             \
                    } else {                                                          \
                        rowoff[k] = rw.off;                                           \
                        rwalk_add(&rw, t, 1);                                         \
                    }                                                                 \
                }                                                                     \
                /* lane j: rows j, j + L, ... of the block, in a register chain */   \
                for (int j = 0; j < L; j++) {                                         \
                    A *a = acc[j];                                                    \
                    if (w == W) {                                                     \
                        A r[W];                                                       \
                        for (int c = 0; c < W; c++) r[c] = E;                         \
                        for (int k = j; k < cnt; k += L) {                            \
                            const T *x = (const T *)(col + rowoff[k]);                \
                            for (int c = 0; c < W; c++) r[c] = OP(r[c], LOAD(x + c, mloc[c])); \
                        }                                                             \
                        for (int c = 0; c < W; c++) a[c] = r[c];                      \
                    } else {                                                          \
                        for (int c = 0; c < w; c++) a[c] = E;                         \
                        for (int k = j; k < cnt; k += L) {                            \
                            const T *x = (const T *)(col + rowoff[k]);                \
                            _Pragma("GCC ivdep") for (int c = 0; c < w; c++)          \
                                a[c] = OP(a[c], LOAD(x + c, mloc[c]));                \
                        }                                                             \
                    }                                                                 \
                }                                                                     \
                for (int h = L / 2; h > 0; h /= 2)                                    \
                    for (int j = 0; j < h; j++) {                                     \
                        A *lo = acc[j], *hi = acc[j + h];                             \
                        _Pragma("GCC ivdep") for (int c = 0; c < w; c++) lo[c] = OP(lo[c], hi[c]); \
                    }                                                                 \
                memcpy(stk + (int64_t)d * W, acc[0], (size_t)w * sizeof(A));          \
                lvl[d] = 0;                                                           \
                d++;                                                                  \
                while (d >= 2 && lvl[d - 1] == lvl[d - 2]) {                          \
                    A *lo = stk + (int64_t)(d - 2) * W, *hi = stk + (int64_t)(d - 1) * W; \
                    _Pragma("GCC ivdep") for (int c = 0; c < w; c++) lo[c] = OP(lo[c], hi[c]); \
                    lvl[d - 2]++;                                                     \
                    d--;                                                              \
                }                                                                     \
            }                                                                         \
            A *res = stk + (int64_t)(d - 1) * W;                                      \
            for (int k = d - 2; k >= 0; k--) {                                        \
                const A *lo = stk + (int64_t)k * W;                                   \
                _Pragma("GCC ivdep") for (int c = 0; c < w; c++) res[c] = OP(lo[c], res[c]); \
            }                                                                         \
            for (int c = 0; c < w; c++) *(A *)(dst + (c0 + c) * dstep) = res[c];      \
        }                                                                             \
    }

DEF_TREE(sum_float32, float, float, LOAD_PLAIN, OP_ADD, 0.0f, VEC_F32, 1)
DEF_TREE(sum_float64, double, double, LOAD_PLAIN, OP_ADD, 0.0, VEC_F64, 1)
DEF_TREE(sum_complex64, st_c64, st_c64, LOAD_PLAIN, OP_ADD, (st_c64)0, VEC_C64, 1)
DEF_TREE(sum_complex128, st_c128, st_c128, LOAD_PLAIN, OP_ADD, (st_c128)0, VEC_C128, 1)
DEF_TREE(prod_float32, float, float, LOAD_PLAIN, OP_MUL, 1.0f, VEC_F32, 1)
DEF_TREE(prod_float64, double, double, LOAD_PLAIN, OP_MUL, 1.0, VEC_F64, 1)
DEF_TREE(prod_complex64, st_c64, st_c64, LOAD_PLAIN, OP_CMUL64, (st_c64)1, VEC_ARRAY, 0)
DEF_TREE(prod_complex128, st_c128, st_c128, LOAD_PLAIN, OP_CMUL128, (st_c128)1, VEC_ARRAY, 0)
DEF_TREE(sqdev_float32, float, float, LOAD_SQ, OP_ADD, 0.0f, VEC_SQ_F32, 1)
DEF_TREE(sqdev_float64, double, double, LOAD_SQ, OP_ADD, 0.0, VEC_SQ_F64, 1)
DEF_TREE(sqdev_complex64, st_c64, float, LOAD_CSQ, OP_ADD, 0.0f, VEC_ARRAY, 1)
DEF_TREE(sqdev_complex128, st_c128, double, LOAD_CSQ, OP_ADD, 0.0, VEC_ARRAY, 1)

typedef struct {
    st_loop_fn inner, outer, combine;
    int lanes;
} tree_fns;
static tree_fns tree_table[ST_R_COUNT][ST_NTYPES];

#define REG_TREE(OPC, NAME, CODE, A)                                                  \
    tree_table[OPC][CODE] = (tree_fns){ST_PICK(NAME##_inner), ST_PICK(NAME##_outer),  \
                                       NAME##_combine, TREE_LANES(A)};

__attribute__((constructor)) static void init_tree_table(void)
{
    REG_TREE(ST_R_SUM, sum_float32, ST_FLOAT32, float)
    REG_TREE(ST_R_SUM, sum_float64, ST_FLOAT64, double)
    REG_TREE(ST_R_SUM, sum_complex64, ST_COMPLEX64, st_c64)
    REG_TREE(ST_R_SUM, sum_complex128, ST_COMPLEX128, st_c128)
    REG_TREE(ST_R_PROD, prod_float32, ST_FLOAT32, float)
    REG_TREE(ST_R_PROD, prod_float64, ST_FLOAT64, double)
    REG_TREE(ST_R_PROD, prod_complex64, ST_COMPLEX64, st_c64)
    REG_TREE(ST_R_PROD, prod_complex128, ST_COMPLEX128, st_c128)
    REG_TREE(ST_R_SUMSQDEV, sqdev_float32, ST_FLOAT32, float)
    REG_TREE(ST_R_SUMSQDEV, sqdev_float64, ST_FLOAT64, double)
    REG_TREE(ST_R_SUMSQDEV, sqdev_complex64, ST_COMPLEX64, float)
    REG_TREE(ST_R_SUMSQDEV, sqdev_complex128, ST_COMPLEX128, double)
}

int st_reduce_tree_handles(int op, int dtype)
{
    return op >= 0 && op < ST_R_COUNT && dtype >= 0 && dtype < ST_NTYPES
           && tree_table[op][dtype].inner != NULL;
}

/* The number of stack entries a binary counter of nb blocks can hold at
 * once (one more than its bits while two entries wait to merge). */
static int tree_depth(int64_t nb)
{
    int bits = 1;
    while (bits < 63 && ((int64_t)1 << bits) <= nb) bits++;
    return bits + 1;
}

/* The kept dims go outermost first by the input's step; a dim the input
 * does not walk (step 0) outermost of all. */
static int64_t order_key(int64_t step)
{
    return step == 0 ? INT64_MAX : step;
}

/* out (keepdims shape, the accumulator's dtype) = the reduction of `in`
 * over `dims`; checked by st_reduce; in has at least one element. */
st_status st_reduce_tree(int op, st_tensor *out, const st_tensor *in, const uint8_t *dims,
                         const st_tensor *aux)
{
    const tree_fns *f = &tree_table[op][in->dtype];
    const int64_t item = st_itemsize(in->dtype), acc = st_itemsize(out->dtype);
    const int64_t B = (int64_t)f->lanes * TREE_STEPS;
    tree_task t;   /* rsz and rst are written as far as nr, the rest here */
    t.nr = 0;
    t.to_scratch = 0;
    t.chunk = t.chunk_bytes = t.nchunks = 0;
    t.work = NULL;
    t.work_bytes = 0;
    t.depth = 0;
    t.gather = 0;
    t.in = in;

    /* the reduced dims in C order; a dim merges into the one before it
     * when together they are one run of the input (the order is kept) */
    int64_t n = 1;
    for (int d = 0; d < in->ndim; d++) {
        if (!dims[d]) continue;
        n *= in->sizes[d];
        if (in->sizes[d] == 1) continue;
        int64_t step = in->strides[d] * item;
        if (t.nr && t.rst[t.nr - 1] == step * in->sizes[d]) {
            t.rsz[t.nr - 1] *= in->sizes[d];
            t.rst[t.nr - 1] = step;
        } else {
            t.rsz[t.nr] = in->sizes[d];
            t.rst[t.nr] = step;
            t.nr++;
        }
    }
    if (t.nr == 0) {
        t.nr = 1;
        t.rsz[0] = 1;
        t.rst[0] = 0;
    }
    t.r0 = 0;
    t.r1 = n;

    /* the kept dims, operands {in, out, aux, scratch}: their order is free
     * (each output is computed whole, the same way), so dims the input walks
     * backwards are flipped and the input's smallest step goes innermost */
    st_iter kit;   /* written as far as its ndim */
    kit.nop = 4;
    kit.c_order = 1;
    int nd = 0;
    int64_t m = 1;
    char *data[3] = {st_tensor_data(in), st_tensor_data(out), aux ? st_tensor_data(aux) : NULL};
    for (int d = 0; d < in->ndim; d++) {
        if (dims[d]) continue;
        m *= in->sizes[d];
        if (in->sizes[d] == 1) continue;
        int64_t s[3] = {in->strides[d] * item, out->strides[d] * acc,
                        aux ? aux->strides[d] * item : 0};
        if (s[0] < 0)
            for (int k = 0; k < 3; k++) {
                data[k] += (in->sizes[d] - 1) * s[k];
                s[k] = -s[k];
            }
        int j = nd++;
        for (; j > 0 && order_key(kit.step[j - 1][0]) < order_key(s[0]); j--) {   /* insertion, stable */
            kit.size[j] = kit.size[j - 1];
            for (int k = 0; k < 4; k++) kit.step[j][k] = kit.step[j - 1][k];
        }
        kit.size[j] = in->sizes[d];
        for (int k = 0; k < 3; k++) kit.step[j][k] = s[k];
        kit.step[j][3] = 0;
    }
    kit.ndim = nd;
    kit.numel = m;
    for (int k = 0; k < 3; k++) kit.data[k] = data[k];
    kit.data[3] = NULL;
    st_iter_simplify(&kit, ST_ITER_C_ORDER);   /* merge only */
    if (m == 0) return ST_OK;
    /* the scratch: chunk c's results contiguous, in the kept dims' order */
    int64_t sstep = acc;
    for (int d = kit.ndim - 1; d >= 0; d--) {
        kit.step[d][3] = sstep;
        sstep *= kit.size[d];
    }

    const int last = kit.ndim - 1;
    const int64_t ncols = kit.size[last];
    const int outer = m > 1 && ncols > 1 && llabs(kit.step[last][0]) == item;
    st_loop_fn kern = outer ? f->outer : f->inner;

    /* threads: share the outputs out when there are enough of them,
     * otherwise cut the reduced rows into chunks of a power of two blocks
     * (subtrees of the one tree: the same bits) */
    int nt = st_threads_for(m * n);
    const int64_t nb = (n + B - 1) / B;
    const int64_t units = outer ? m / ncols * ((ncols + TREE_COLS - 1) / TREE_COLS) : m;
    int64_t chunk_blocks = nb, nchunks = 1;
    if (nt > 1 && units < 2 * nt && nb > 1) {
        chunk_blocks = 1;
        while (chunk_blocks * TREE_PIECES_PER_THREAD * nt < nb) chunk_blocks *= 2;
        while (chunk_blocks < nb && ((nb + chunk_blocks - 1) / chunk_blocks) * m * acc > TREE_MAX_SCRATCH)
            chunk_blocks *= 2;
        nchunks = (nb + chunk_blocks - 1) / chunk_blocks;
    }
    /* the values of one output lie across the input (a transposed matrix
     * summed whole): copy them a piece at a time, in their order, into a
     * contiguous buffer, reading the memory along its smallest step */
    if (!outer && t.nr >= 2 && llabs(t.rst[t.nr - 1]) > item) {
        int p = -1;
        for (int d = 0; d < t.nr - 1; d++)
            if (llabs(t.rst[d]) < llabs(t.rst[t.nr - 1]) && (p < 0 || llabs(t.rst[d]) < llabs(t.rst[p])))
                p = d;
        int64_t inner = 1;   /* values in one index of dim p */
        for (int d = p + 1; d < t.nr; d++) inner *= t.rsz[d];
        /* 64 indices of p at a time when they fit: the copy's tiles are
         * square; 16 at least, or the copy would not tile */
        int64_t g = 64 * inner > TREE_GATHER_MIN ? 64 * inner : TREE_GATHER_MIN;
        if (g > TREE_GATHER_MAX_BYTES / item) g = TREE_GATHER_MAX_BYTES / item;
        g = g / B * B;
        if (p >= 0 && g >= 16 * inner) {
            t.gather = g;
            t.work_bytes = (g * item + 63) & ~(int64_t)63;
        }
    }
    char *scratch = NULL;
    if (t.gather) {
        t.work = st_aligned_alloc(t.work_bytes * (nt > 1 ? nt : 1));
        if (!t.work) return st_fail(ST_E_MEMORY, "cannot allocate a reduction buffer");
    }
    if (outer) {
        t.depth = tree_depth(chunk_blocks);
        t.work_bytes = ((int64_t)f->lanes + t.depth) * TREE_COLS * acc + TREE_COLS * item
                       + B * (int64_t)sizeof(int64_t);
        t.work_bytes = (t.work_bytes + 63) & ~(int64_t)63;
        t.work = st_aligned_alloc(t.work_bytes * (nt > 1 ? nt : 1));
        if (!t.work) return st_fail(ST_E_MEMORY, "cannot allocate reduction accumulators");
    }
    if (nchunks > 1) {
        scratch = st_aligned_alloc(nchunks * m * acc);
        if (!scratch) {
            st_aligned_free(t.work);
            return st_fail(ST_E_MEMORY, "cannot allocate %lld partial results", (long long)nchunks);
        }
        kit.data[3] = scratch;
        t.nchunks = nchunks;
        t.chunk_bytes = m * acc;
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
        for (int64_t c = 0; c < nchunks; c++) {
            tree_task tc = t;
            tc.r0 = c * chunk_blocks * B;
            tc.r1 = (c + 1) * chunk_blocks * B < n ? (c + 1) * chunk_blocks * B : n;
            tc.to_scratch = 1;
            tc.chunk = c;
            st_iter_run_range(&kit, 0, m, kern, &tc);
        }
        st_iter_run_range(&kit, 0, m, f->combine, &t);
        st_aligned_free(scratch);
    } else {
        int64_t pieces = nt > 1 ? (units < TREE_PIECES_PER_THREAD * nt ? units : TREE_PIECES_PER_THREAD * nt) : 1;
        if (pieces < 1) pieces = 1;
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1) if (nt > 1)
        for (int64_t p = 0; p < pieces; p++)
            st_iter_run_range(&kit, m * p / pieces, m * (p + 1) / pieces, kern, &t);
    }
    st_aligned_free(t.work);
    return ST_OK;
}
