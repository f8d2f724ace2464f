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
 *   - L = 64 / sizeof(accumulator) lanes (8 for double, 16 for float, 4
 *     for complex double, 8 for complex float) and blocks of B = 16 L
 *     consecutive values; the last block may be shorter;
 *   - in a block, lane j folds the block's values j, j + L, j + 2L, ... in
 *     order, starting from e: l_j = ((e (+) v_j) (+) v_{j+L}) (+) ...;
 *     then for w = L/2, L/4, ..., 1: l_j = l_j (+) l_{j+w} for j < w; the
 *     block's value is l_0 (a lane without values stays e);
 *   - the block values b_0 .. b_{m-1} combine as a binary tree whose left
 *     part is the largest power of two below m: T(b_0 .. b_{m-1}) =
 *     T(b_0 .. b_{P-1}) (+) T(b_P .. b_{m-1}), P = 2^k < m <= 2^{k+1};
 *   - the result is that tree's value (e when n = 0);
 *   - except that n <= L values are folded in order: ((e (+) v_0) (+) v_1) ...
 *     (tiny reductions give the plain loop's bits, Torch7's among them).
 * The tree is built as the blocks stream by: a stack of finished subtrees,
 * two equal ones merged as soon as both are there (a binary counter),
 * folded right to left at the end.  A piece of the reduced range that
 * starts on a multiple of a power-of-two number of blocks and is that
 * long (or ends the range) is a subtree of the same tree: that is how a
 * long reduction is split across threads without changing a bit.
 *
 * Two kernels compute it:
 *   - inner: one output at a time, its values streamed run by run (the
 *     innermost reduced dim); in a contiguous run, a block's lanes are one
 *     64-byte vector (GCC vector extensions) and TREE_GROUP blocks are
 *     folded one after the other in memory order, their vectors
 *     independent chains that the CPU overlaps;
 *   - outer: outputs that are contiguous in the input (a reduction over
 *     outer axes), many at once: a block's rows are read whole, in memory
 *     order, row k folded into lane row k mod L of L rows of accumulators
 *     (TREE_WIDE_COLS columns at most: in L2); fewer than TREE_COLS
 *     outputs keep the lanes in registers instead; the lanes are halved
 *     row-wise, the blocks go onto a stack of rows: each output runs
 *     exactly the inner kernel's operations.
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

#define TREE_STEPS 16                         /* values per lane in a block */
#define TREE_LANES(A) ((int)(64 / sizeof(A))) /* one 64-byte vector of lanes */
#define TREE_GROUP_LOG 2
#define TREE_GROUP (1 << TREE_GROUP_LOG) /* blocks the inner kernel folds at once */
#define TREE_COLS 64                     /* outputs per pass of the outer kernel */
/* outputs per wide pass: its L x wide lane accumulators, 64 bytes a column
 * whatever the type, stay within 256 KiB, which the L2 of every x86-64 CPU
 * since 2008 holds */
#define TREE_WIDE_COLS 4096
/* The outer kernel's lanes in registers (NAME##_regs) for a reduction of at
 * most TREE_REG_ROWS rows whose pieces are at least TREE_REG_MIN_BYTES long:
 * its reads go across the rows, a 64-byte piece of each in turn, streams
 * the hardware prefetcher follows only when they are long (AMD Zen 4,
 * sum(axis=1) of 10 rows of 10000 doubles: 1.2 ms against NAME##_wide's
 * 2.9; of 10 rows of 100: 3.8 against 2.5) */
#define TREE_REG_ROWS(A) (4 * TREE_LANES(A))
#define TREE_REG_MIN_BYTES 4096
#define TREE_MAX_DEPTH 64
#define TREE_MAX_SCRATCH ((int64_t)4 << 20) /* bytes of per-chunk partial results */
#define TREE_PIECES_PER_THREAD 4
/* chunks of a split reduction per thread: a power of two blocks each, so
 * with four per thread the count could be 5 for 2 threads (one thread
 * idle for most of a chunk at the end: 7% of a 10^7 sum); sixteen keep
 * the last one's share small */
#define TREE_CHUNKS_PER_THREAD 16
#define TREE_GATHER_MIN 32768 /* values a gathering kernel copies at a time */
#define TREE_GATHER_MAX_BYTES ((int64_t)4 << 20)

/* What a kernel call reduces: the reduced dims (C order, merged where the
 * input allows), the rows [r0, r1) of them (r0 on a block edge), and where
 * the results go: out, or (a piece of a split reduction) chunk `chunk` of
 * the scratch operand.  `work` holds per-thread buffers: the outer
 * kernel's stack, means and row offsets, or the gathered values. */
typedef struct {
    int nr;
    int64_t rsz[ST_MAX_DIMS], rst[ST_MAX_DIMS]; /* sizes, byte steps */
    int64_t r0, r1;
    int to_scratch;
    int64_t chunk, chunk_bytes, nchunks;
    char *work; /* per-thread buffers, work_bytes each */
    int64_t work_bytes;
    int depth;      /* stack entries the outer kernel may need */
    int64_t gather; /* inner: values copied at a time, or 0 */
    int64_t wide;   /* outer: the row stride of its buffers */
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
    int64_t unit[ST_MAX_DIMS + 1]; /* values in one index of dim d: unit[d + 1] */
    unit[nr] = 1;
    for (int d = nr - 1; d >= 0; d--) unit[d] = unit[d + 1] * t->rsz[d];
    st_storage mem = {.data = buf, .nbytes = len * item, .refcount = 1};
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
        st_copy(&dst, &src); /* cannot fail: views of valid memory */
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
#define LOAD_PLAIN(q, m) ((void)(m), *(q))
#define LOAD_SQ(q, m) ((*(q) - (m)) * (*(q) - (m)))
#define LOAD_CSQ(q, m)                                                                             \
    (__real__(*(q) - (m)) * __real__(*(q) - (m)) + __imag__(*(q) - (m)) * __imag__(*(q) - (m)))
#define OP_ADD(a, b) ((a) + (b))
#define OP_MUL(a, b) ((a) * (b))

/* Complex products as C computes them (ar br - ai bi, ar bi + ai br; both
 * parts NaN: C's __mul?c3, which recovers infinities), each product rounded
 * on its own: GCC's vectoriser fuses the inline form into fmaddsub
 * whatever -ffp-contract says, and a fused product differs in the last bit
 * from the baseline x86-64 build (no FMA).  The empty asm keeps the four
 * products apart (and these loops scalar, which a complex product is anyway). */
st_c64 __mulsc3(float, float, float, float); /* libgcc's */
st_c128 __muldc3(double, double, double, double);
#define DEF_CMUL(NAME, T, R, LIBCALL)                                                              \
    static inline __attribute__((always_inline)) T NAME(T a, T b)                                  \
    {                                                                                              \
        R p1 = __real__ a * __real__ b, p2 = __imag__ a * __imag__ b;                              \
        R p3 = __real__ a * __imag__ b, p4 = __imag__ a * __real__ b;                              \
        __asm__("" : "+x"(p1), "+x"(p2), "+x"(p3), "+x"(p4));                                      \
        T r;                                                                                       \
        __real__ r = p1 - p2;                                                                      \
        __imag__ r = p3 + p4;                                                                      \
        if (__real__ r != __real__ r && __imag__ r != __imag__ r)                                  \
            return LIBCALL(__real__ a, __imag__ a, __real__ b, __imag__ b);                        \
        return r;                                                                                  \
    }
DEF_CMUL(cmul_c64, st_c64, float, __mulsc3)
DEF_CMUL(cmul_c128, st_c128, double, __muldc3)
#define OP_CMUL64(a, b) cmul_c64(a, b)
#define OP_CMUL128(a, b) cmul_c128(a, b)

#define TREE_INLINE static inline __attribute__((always_inline))

/* The helpers of one reduction (NAME: element type T, accumulator A),
 * inlined into each CPU level's kernels.  VEC defines the contiguous
 * kernels' pieces (NAME##_lanes, _group, _rows, _partial, below). */
#define DEF_TREE(NAME, T, A, LOAD, OP, E, VEC)                                                     \
    typedef struct {                                                                               \
        A lane[TREE_LANES(A)];           /* the open block's lanes */                              \
        int64_t pos;                     /* values in the open block */                            \
        int d;                           /* finished subtrees on the stack */                      \
        int64_t nblk;                    /* blocks they hold */                                    \
        signed char lvl[TREE_MAX_DEPTH]; /* log2 of their block counts */                          \
        A v[TREE_MAX_DEPTH];                                                                       \
    } NAME##_state;                                                                                \
    typedef struct {     /* the outer kernel's buffers (tree_task.work) */                         \
        A *acc;          /* L rows of TREE_COLS lane results */                                    \
        A *stk;          /* t->depth rows: the stack of subtrees */                                \
        T *mloc;         /* the passes' means */                                                   \
        int64_t *rowoff; /* a block's rows */                                                      \
    } NAME##_colsbuf;                                                                              \
    TREE_INLINE void NAME##_init(NAME##_state *s)                                                  \
    {                                                                                              \
        for (int j = 0; j < TREE_LANES(A); j++) s->lane[j] = E;                                    \
        s->pos = 0;                                                                                \
        s->d = 0;                                                                                  \
        s->nblk = 0;                                                                               \
    }                                                                                              \
    /* a finished subtree of 2^lvl blocks onto the stack (nblk a multiple of     \
     * 2^lvl: it is a subtree of the whole); equal subtrees merge */                 \
    TREE_INLINE void NAME##_push_tree(NAME##_state *s, A b, int lvl)                               \
    {                                                                                              \
        int d = s->d;                                                                              \
        s->v[d] = b;                                                                               \
        s->lvl[d] = (signed char)lvl;                                                              \
        s->nblk += (int64_t)1 << lvl;                                                              \
        d++;                                                                                       \
        while (d >= 2 && s->lvl[d - 1] == s->lvl[d - 2]) {                                         \
            s->v[d - 2] = OP(s->v[d - 2], s->v[d - 1]);                                            \
            s->lvl[d - 2]++;                                                                       \
            d--;                                                                                   \
        }                                                                                          \
        s->d = d;                                                                                  \
    }                                                                                              \
    TREE_INLINE void NAME##_push(NAME##_state *s, A b) { NAME##_push_tree(s, b, 0); }              \
    /* ng blocks' values b: one subtree when they are TREE_GROUP aligned ones */                   \
    TREE_INLINE void NAME##_push_group(NAME##_state *s, A *b, int ng)                              \
    {                                                                                              \
        if (ng == TREE_GROUP && (s->nblk & (TREE_GROUP - 1)) == 0) {                               \
            for (int w = 1; w < TREE_GROUP; w *= 2)                                                \
                for (int g = 0; g < TREE_GROUP; g += 2 * w) b[g] = OP(b[g], b[g + w]);             \
            NAME##_push_tree(s, b[0], TREE_GROUP_LOG);                                             \
        } else {                                                                                   \
            for (int g = 0; g < ng; g++) NAME##_push(s, b[g]);                                     \
        }                                                                                          \
    }                                                                                              \
    TREE_INLINE A NAME##_fold(const NAME##_state *s)                                               \
    {                                                                                              \
        if (s->d == 0) return E;                                                                   \
        A r = s->v[s->d - 1];                                                                      \
        for (int k = s->d - 2; k >= 0; k--) r = OP(s->v[k], r);                                    \
        return r;                                                                                  \
    }                                                                                              \
    /* NAME##_lanes(r): the lanes r folded in halves, the block's value */                         \
    VEC(NAME, T, A, LOAD, OP, E)                                                                   \
    /* n values from p, `step` bytes apart, into the open block and on */                          \
    TREE_INLINE void NAME##_feed(NAME##_state *s, const char *p, int64_t n, int64_t step, T m)     \
    {                                                                                              \
        enum { L = TREE_LANES(A), B = L * TREE_STEPS, G = TREE_GROUP };                            \
        const int contig = step == (int64_t)sizeof(T);                                             \
        while (n > 0) {                                                                            \
            if (s->pos == 0 && n >= B) { /* whole blocks */                                        \
                if (contig) {                                                                      \
                    while (n >= B) {                                                               \
                        const int ng = n / B < G ? (int)(n / B) : G;                               \
                        NAME##_group(s, (const T *)p, ng, m);                                      \
                        n -= ng * B;                                                               \
                        p += ng * B * step;                                                        \
                    }                                                                              \
                    continue;                                                                      \
                }                                                                                  \
                for (; n >= B; n -= B, p += B * step) {                                            \
                    A r[L];                                                                        \
                    for (int j = 0; j < L; j++) r[j] = E;                                          \
                    for (int i = 0; i < TREE_STEPS; i++)                                           \
                        for (int j = 0; j < L; j++)                                                \
                            r[j] = OP(r[j], LOAD((const T *)(p + (i * L + j) * step), m));         \
                    NAME##_push(s, NAME##_lanes(r));                                               \
                }                                                                                  \
                continue;                                                                          \
            }                                                                                      \
            int64_t take = B - s->pos < n ? B - s->pos : n, i = 0;                                 \
            if (contig && (s->pos & (L - 1)) == 0 && take >= L) {                                  \
                i = take / L * L;                                                                  \
                NAME##_rows(s, (const T *)p, take / L, m);                                         \
            }                                                                                      \
            for (; i < take; i++) {                                                                \
                int j = (int)((s->pos + i) & (L - 1));                                             \
                s->lane[j] = OP(s->lane[j], LOAD((const T *)(p + i * step), m));                   \
            }                                                                                      \
            s->pos += take;                                                                        \
            p += take * step;                                                                      \
            n -= take;                                                                             \
            if (s->pos == B) {                                                                     \
                NAME##_push(s, NAME##_lanes(s->lane));                                             \
                for (int j = 0; j < L; j++) s->lane[j] = E;                                        \
                s->pos = 0;                                                                        \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    /* the tree over rows [t->r0, t->r1) of one output whose values start at in */                 \
    typedef void (*NAME##_feed_fn)(NAME##_state *, const char *, int64_t, int64_t, T);             \
    TREE_INLINE A NAME##_one(const tree_task *t, const char *in, T m, NAME##_feed_fn feed)         \
    {                                                                                              \
        enum { L = TREE_LANES(A) };                                                                \
        const int64_t n = t->r1 - t->r0;                                                           \
        if (t->r0 == 0 && t->r1 <= L) { /* a short reduction: in order */                          \
            A r = E;                                                                               \
            rwalk w;                                                                               \
            rwalk_init(&w, t, 0);                                                                  \
            for (int64_t k = 0; k < n; k++) {                                                      \
                r = OP(r, LOAD((const T *)(in + w.off), m));                                       \
                rwalk_add(&w, t, 1);                                                               \
            }                                                                                      \
            return r;                                                                              \
        }                                                                                          \
        NAME##_state s;                                                                            \
        NAME##_init(&s);                                                                           \
        if (t->gather) {                                                                           \
            char *buf = t->work + thread_id() * t->work_bytes;                                     \
            for (int64_t r = t->r0; r < t->r1; r += t->gather) {                                   \
                int64_t len = t->r1 - r < t->gather ? t->r1 - r : t->gather;                       \
                gather_range(t, in, r, len, buf);                                                  \
                feed(&s, buf, len, sizeof(T), m);                                                  \
            }                                                                                      \
        } else if (t->nr == 1 && t->rst[0] == (int64_t)sizeof(T)) {                                \
            const char *p = in + t->r0 * t->rst[0];                                                \
            const int64_t whole = n / (L * TREE_STEPS) * (L * TREE_STEPS);                         \
            feed(&s, p, whole, sizeof(T), m);                                                      \
            if (n > whole) NAME##_push(&s, NAME##_partial((const T *)p + whole, n - whole, m));    \
            return NAME##_fold(&s);                                                                \
        } else if (t->nr == 1) {                                                                   \
            feed(&s, in + t->r0 * t->rst[0], n, t->rst[0], m);                                     \
        } else {                                                                                   \
            const int last = t->nr - 1;                                                            \
            rwalk w;                                                                               \
            rwalk_init(&w, t, t->r0);                                                              \
            for (int64_t r = t->r0; r < t->r1;) {                                                  \
                int64_t len = t->rsz[last] - w.idx[last];                                          \
                if (len > t->r1 - r) len = t->r1 - r;                                              \
                feed(&s, in + w.off, len, t->rst[last], m);                                        \
                r += len;                                                                          \
                rwalk_add(&w, t, len);                                                             \
            }                                                                                      \
        }                                                                                          \
        if (s.pos) NAME##_push(&s, NAME##_lanes(s.lane));                                          \
        return NAME##_fold(&s);                                                                    \
    }                                                                                              \
    /* the chunks' partial results of each output, combined as the tree does */                    \
    static void NAME##_combine(char **args, const int64_t *np, const int64_t *st, void *extra)     \
    {                                                                                              \
        const tree_task *t = extra;                                                                \
        for (int64_t i = 0; i < *np; i++) {                                                        \
            NAME##_state s;                                                                        \
            s.d = 0;                                                                               \
            s.nblk = 0;                                                                            \
            for (int64_t c = 0; c < t->nchunks; c++)                                               \
                NAME##_push(&s, *(const A *)(args[3] + i * st[3] + c * t->chunk_bytes));           \
            *(A *)(args[1] + i * st[1]) = NAME##_fold(&s);                                         \
        }                                                                                          \
    }                                                                                              \
    /* the outer kernel's pass over w columns from col (w a constant after      \
     * inlining when it is one of the fixed widths: the lanes' chains are       \
     * registers): lane j of a block folds rows j, j + L, ... of it */                  \
    TREE_INLINE void NAME##_pass(const tree_task *t, const NAME##_colsbuf *cb, const char *col,    \
                                 const char *aux, int64_t mstep, char *to, int64_t dstep,          \
                                 const int w)                                                      \
    {                                                                                              \
        enum { L = TREE_LANES(A), B = L * TREE_STEPS, W = TREE_COLS };                             \
        A(*acc)[W] = (A(*)[W])cb->acc;                                                             \
        A *stk = cb->stk;                                                                          \
        T *mloc = cb->mloc;                                                                        \
        int64_t *rowoff = cb->rowoff;                                                              \
        signed char lvl[TREE_MAX_DEPTH];                                                           \
        for (int c = 0; c < w; c++) mloc[c] = aux ? *(const T *)(aux + c * mstep) : (T)0;          \
        rwalk rw = {{0}, 0};                                                                       \
        rwalk_init(&rw, t, t->r0);                                                                 \
        if (t->r0 == 0 && t->r1 <= L) { /* a short reduction: in order */                          \
            A r[W];                                                                                \
            for (int c = 0; c < w; c++) r[c] = E;                                                  \
            for (int64_t k = 0; k < t->r1; k++) {                                                  \
                const T *x = (const T *)(col + rw.off);                                            \
                for (int c = 0; c < w; c++) r[c] = OP(r[c], LOAD(x + c, mloc[c]));                 \
                rwalk_add(&rw, t, 1);                                                              \
            }                                                                                      \
            for (int c = 0; c < w; c++) *(A *)(to + c * dstep) = r[c];                             \
            return;                                                                                \
        }                                                                                          \
        int d = 0;                                                                                 \
        for (int64_t rb = t->r0; rb < t->r1; rb += B) {                                            \
            const int cnt = t->r1 - rb < B ? (int)(t->r1 - rb) : B;                                \
            for (int k = 0; k < cnt; k++) {                                                        \
                if (t->nr == 1) {                                                                  \
                    rowoff[k] = (rb + k) * t->rst[0];                                              \
                } else {                                                                           \
                    rowoff[k] = rw.off;                                                            \
                    rwalk_add(&rw, t, 1);                                                          \
                }                                                                                  \
            }                                                                                      \
            for (int j = 0; j < L; j++) {                                                          \
                A r[W];                                                                            \
                for (int c = 0; c < w; c++) r[c] = E;                                              \
                for (int k = j; k < cnt; k += L) {                                                 \
                    const T *x = (const T *)(col + rowoff[k]);                                     \
                    for (int c = 0; c < w; c++) r[c] = OP(r[c], LOAD(x + c, mloc[c]));             \
                }                                                                                  \
                for (int c = 0; c < w; c++) acc[j][c] = r[c];                                      \
            }                                                                                      \
            for (int h = L / 2; h > 0; h /= 2)                                                     \
                for (int j = 0; j < h; j++) {                                                      \
                    A *lo = acc[j], *hi = acc[j + h];                                              \
                    _Pragma("GCC ivdep")                                                           \
                    for (int c = 0; c < w; c++) lo[c] = OP(lo[c], hi[c]);                          \
                }                                                                                  \
            memcpy(stk + (int64_t)d * W, acc[0], (size_t)w * sizeof(A));                           \
            lvl[d] = 0;                                                                            \
            d++;                                                                                   \
            while (d >= 2 && lvl[d - 1] == lvl[d - 2]) {                                           \
                A *lo = stk + (int64_t)(d - 2) * W, *hi = stk + (int64_t)(d - 1) * W;              \
                _Pragma("GCC ivdep")                                                               \
                for (int c = 0; c < w; c++) lo[c] = OP(lo[c], hi[c]);                              \
                lvl[d - 2]++;                                                                      \
                d--;                                                                               \
            }                                                                                      \
        }                                                                                          \
        A *res = stk + (int64_t)(d - 1) * W;                                                       \
        for (int k = d - 2; k >= 0; k--) {                                                         \
            const A *lo = stk + (int64_t)k * W;                                                    \
            _Pragma("GCC ivdep")                                                                   \
            for (int c = 0; c < w; c++) res[c] = OP(lo[c], res[c]);                                \
        }                                                                                          \
        for (int c = 0; c < w; c++) *(A *)(to + c * dstep) = res[c];                               \
    }                                                                                              \
    /* the outer kernel's pass over TREE_COLS <= w <= t->wide columns from col:   \
     * the same operations as NAME##_pass, but the block's rows are read in      \
     * memory order, whole, row k folded into lane row k mod L of L x w         \
     * accumulators (cb->acc, rows t->wide apart: in L2), so the input streams  \
     * as it lies; NAME##_pass's register chains read a 512-byte piece of each  \
     * row, a page apart, which neither the prefetcher nor the TLB follows */                \
    TREE_INLINE void NAME##_wide(const tree_task *t, const NAME##_colsbuf *cb, const char *col,    \
                                 const char *aux, int64_t mstep, char *to, int64_t dstep,          \
                                 int64_t w)                                                        \
    {                                                                                              \
        enum { L = TREE_LANES(A), B = L * TREE_STEPS };                                            \
        if (t->r0 == 0 && t->r1 <= TREE_REG_ROWS(A) &&                                             \
            w * (int64_t)sizeof(T) >= TREE_REG_MIN_BYTES &&                                        \
            NAME##_regs(t, cb, col, aux, mstep, to, dstep, w))                                     \
            return;                                                                                \
        const int64_t W = t->wide;                                                                 \
        A *acc = cb->acc, *stk = cb->stk;                                                          \
        T *mloc = cb->mloc;                                                                        \
        signed char lvl[TREE_MAX_DEPTH];                                                           \
        for (int64_t c = 0; c < w; c++) mloc[c] = aux ? *(const T *)(aux + c * mstep) : (T)0;      \
        rwalk rw = {{0}, 0};                                                                       \
        rwalk_init(&rw, t, t->r0);                                                                 \
        const int64_t first = t->r0, short_ = t->r0 == 0 && t->r1 <= L;                            \
        const int lanes = short_ ? 1 : L;                                                          \
        int d = 0;                                                                                 \
        for (int64_t rb = first; rb < t->r1; rb += B) {                                            \
            const int64_t cnt = t->r1 - rb < B ? t->r1 - rb : B;                                   \
            /* a lane's first row starts it (e (+) v: no pass of e first, which     \
             * cost a short block as much as its reads); lanes no row reaches: e */              \
            for (int64_t j = cnt; j < lanes; j++)                                                  \
                for (int64_t c = 0; c < w; c++) acc[j * W + c] = E;                                \
            for (int64_t k = 0; k < cnt; k++) {                                                    \
                const T *x = (const T *)(col + (t->nr == 1 ? (rb + k) * t->rst[0] : rw.off));      \
                if (t->nr != 1) rwalk_add(&rw, t, 1);                                              \
                /* a short reduction folds in order, in lane row 0 */                              \
                A *a = acc + (short_ ? 0 : (k & (L - 1))) * W;                                     \
                if (k < lanes) {                                                                   \
                    _Pragma("GCC ivdep")                                                           \
                    for (int64_t c = 0; c < w; c++) a[c] = OP(E, LOAD(x + c, mloc[c]));            \
                } else {                                                                           \
                    _Pragma("GCC ivdep")                                                           \
                    for (int64_t c = 0; c < w; c++) a[c] = OP(a[c], LOAD(x + c, mloc[c]));         \
                }                                                                                  \
            }                                                                                      \
            if (short_) break;                                                                     \
            for (int h = L / 2; h > 0; h /= 2)                                                     \
                for (int j = 0; j < h; j++) {                                                      \
                    A *lo = acc + j * W, *hi = acc + (j + h) * W;                                  \
                    _Pragma("GCC ivdep")                                                           \
                    for (int64_t c = 0; c < w; c++) lo[c] = OP(lo[c], hi[c]);                      \
                }                                                                                  \
            if (first == 0 && t->r1 <= B) { /* one block: its value is the result */               \
                for (int64_t c = 0; c < w; c++) *(A *)(to + c * dstep) = acc[c];                   \
                return;                                                                            \
            }                                                                                      \
            memcpy(stk + d * W, acc, (size_t)w * sizeof(A));                                       \
            lvl[d] = 0;                                                                            \
            d++;                                                                                   \
            while (d >= 2 && lvl[d - 1] == lvl[d - 2]) {                                           \
                A *lo = stk + (d - 2) * W, *hi = stk + (d - 1) * W;                                \
                _Pragma("GCC ivdep")                                                               \
                for (int64_t c = 0; c < w; c++) lo[c] = OP(lo[c], hi[c]);                          \
                lvl[d - 2]++;                                                                      \
                d--;                                                                               \
            }                                                                                      \
        }                                                                                          \
        if (short_) {                                                                              \
            for (int64_t c = 0; c < w; c++) *(A *)(to + c * dstep) = acc[c];                       \
            return;                                                                                \
        }                                                                                          \
        A *res = stk + (d - 1) * W;                                                                \
        for (int k = d - 2; k >= 0; k--) {                                                         \
            const A *lo = stk + k * W;                                                             \
            _Pragma("GCC ivdep")                                                                   \
            for (int64_t c = 0; c < w; c++) res[c] = OP(lo[c], res[c]);                            \
        }                                                                                          \
        for (int64_t c = 0; c < w; c++) *(A *)(to + c * dstep) = res[c];                           \
    }                                                                                              \
    ST_LEVELS(DEF_TREE_ISA, NAME, T, A, LOAD, OP, E)

/* NAME##_lanes(r): the block's value from its lanes r;
 * NAME##_group(s, q, ng, m): ng <= TREE_GROUP whole blocks at q
 * (contiguous), pushed; NAME##_rows(s, q, k, m): k rows of L values at q
 * (contiguous) into the open block's lanes.  VEC_ARRAY: lanes in arrays
 * (the compiler's vectors, if any). */
#define VEC_ARRAY(NAME, T, A, LOAD, OP, E)                                                         \
    TREE_INLINE A NAME##_lanes(A *r)                                                               \
    {                                                                                              \
        for (int w = TREE_LANES(A) / 2; w > 0; w /= 2)                                             \
            for (int j = 0; j < w; j++) r[j] = OP(r[j], r[j + w]);                                 \
        return r[0];                                                                               \
    }                                                                                              \
    TREE_INLINE void NAME##_group(NAME##_state *s, const T *q, int ng, T m)                        \
    {                                                                                              \
        enum { L = TREE_LANES(A), B = L * TREE_STEPS, G = TREE_GROUP };                            \
        A r[G][L], b[G];                                                                           \
        for (int g = 0; g < ng; g++)                                                               \
            for (int j = 0; j < L; j++) r[g][j] = E;                                               \
        for (int i = 0; i < TREE_STEPS; i++)                                                       \
            for (int g = 0; g < ng; g++)                                                           \
                for (int j = 0; j < L; j++) r[g][j] = OP(r[g][j], LOAD(q + g * B + i * L + j, m)); \
        for (int g = 0; g < ng; g++) b[g] = NAME##_lanes(r[g]);                                    \
        NAME##_push_group(s, b, ng);                                                               \
    }                                                                                              \
    TREE_INLINE void NAME##_rows(NAME##_state *s, const T *q, int64_t k, T m)                      \
    {                                                                                              \
        enum { L = TREE_LANES(A) };                                                                \
        for (int64_t i = 0; i < k; i++)                                                            \
            for (int j = 0; j < L; j++) s->lane[j] = OP(s->lane[j], LOAD(q + i * L + j, m));       \
    }                                                                                              \
    TREE_INLINE A NAME##_partial(const T *q, int64_t cnt, T m)                                     \
    {                                                                                              \
        enum { L = TREE_LANES(A) };                                                                \
        A r[L];                                                                                    \
        for (int j = 0; j < L; j++) r[j] = E;                                                      \
        for (int64_t i = 0; i < cnt; i++) r[i & (L - 1)] = OP(r[i & (L - 1)], LOAD(q + i, m));     \
        return NAME##_lanes(r);                                                                    \
    }                                                                                              \
    /* no vectors: NAME##_wide's own way */                                                        \
    TREE_INLINE int NAME##_regs(const tree_task *t, const NAME##_colsbuf *cb, const char *col,     \
                                const char *aux, int64_t mstep, char *to, int64_t dstep,           \
                                int64_t w)                                                         \
    {                                                                                              \
        (void)t, (void)cb, (void)col, (void)aux, (void)mstep, (void)to, (void)dstep, (void)w;      \
        return 0;                                                                                  \
    }
/* The same with the lanes in a 64-byte vector of V (GCC vector extensions:
 * a register on AVX-512), for types whose lanes are SLOTS values of V
 * (real: 1; complex sums: 2, real and imaginary part).  VE: the identity
 * in V; VLOAD(x, mv): the vector of values.  Lane for lane the arrays'
 * operations: the halving is done by shuffles (lanes j < w get lane j + w;
 * the others are left over).  NAME##_partial(q, cnt, m) is the value of a
 * last block of cnt < B values at q (contiguous): its last row padded
 * with e, which is exact for the reductions that have vectors (sums and
 * real products: e (+) x and l (+) e give x and l, as no lane of a sum is
 * ever -0.0), not for complex products. */
#define DEF_VEC(NAME, T, A, OP, V, MI, SLOTS, VE, VLOAD, HALVE, IOTA)                              \
    typedef V NAME##_vt __attribute__((vector_size(64)));                                          \
    typedef MI NAME##_mt __attribute__((vector_size(64)));                                         \
    TREE_INLINE A NAME##_vlanes(NAME##_vt r)                                                       \
    {                                                                                              \
        HALVE(OP, r, NAME##_mt)                                                                    \
        A b;                                                                                       \
        memcpy(&b, &r, sizeof b);                                                                  \
        return b;                                                                                  \
    }                                                                                              \
    TREE_INLINE A NAME##_lanes(A *a)                                                               \
    {                                                                                              \
        NAME##_vt r;                                                                               \
        memcpy(&r, a, 64);                                                                         \
        return NAME##_vlanes(r);                                                                   \
    }                                                                                              \
    TREE_INLINE void NAME##_groupn(NAME##_state *s, const T *q, const int ng, T m)                 \
    {                                                                                              \
        enum { L = TREE_LANES(A), B = L * TREE_STEPS, G = TREE_GROUP };                            \
        const NAME##_vt mv = (NAME##_vt){0} + (V)(m); /* the real sqdev's */                       \
        (void)mv;                                                                                  \
        NAME##_vt r[G];                                                                            \
        A b[G];                                                                                    \
        /* block after block, in memory order: reading the blocks' rows         \
         * interleaved (four streams 1 KiB apart in each page) defeated the      \
         * hardware prefetcher, 2.5x slower on memory; the blocks' chains still  \
         * overlap, out of order, as their adds do not depend on each other */                  \
        for (int g = 0; g < ng; g++) {                                                             \
            r[g] = (NAME##_vt){0} + (V)(VE);                                                       \
            _Pragma("GCC unroll 16")                                                               \
            for (int i = 0; i < TREE_STEPS; i++) {                                                 \
                NAME##_vt x;                                                                       \
                memcpy(&x, q + g * B + i * L, 64);                                                 \
                r[g] = OP(r[g], VLOAD(x, mv));                                                     \
            }                                                                                      \
        }                                                                                          \
        for (int g = 0; g < ng; g++) b[g] = NAME##_vlanes(r[g]);                                   \
        NAME##_push_group(s, b, ng);                                                               \
    }                                                                                              \
    TREE_INLINE void NAME##_group(NAME##_state *s, const T *q, int ng, T m)                        \
    {                                                                                              \
        switch (ng) { /* a constant count each: unrolled, independent chains */                    \
        case 4:                                                                                    \
            NAME##_groupn(s, q, 4, m);                                                             \
            break;                                                                                 \
        case 3:                                                                                    \
            NAME##_groupn(s, q, 3, m);                                                             \
            break;                                                                                 \
        case 2:                                                                                    \
            NAME##_groupn(s, q, 2, m);                                                             \
            break;                                                                                 \
        default:                                                                                   \
            NAME##_groupn(s, q, 1, m);                                                             \
            break;                                                                                 \
        }                                                                                          \
    }                                                                                              \
    TREE_INLINE void NAME##_rows(NAME##_state *s, const T *q, int64_t k, T m)                      \
    {                                                                                              \
        enum { L = TREE_LANES(A) };                                                                \
        const NAME##_vt mv = (NAME##_vt){0} + (V)(m);                                              \
        (void)mv;                                                                                  \
        NAME##_vt r;                                                                               \
        memcpy(&r, s->lane, 64);                                                                   \
        for (int64_t i = 0; i < k; i++) {                                                          \
            NAME##_vt x;                                                                           \
            memcpy(&x, q + i * L, 64);                                                             \
            r = OP(r, VLOAD(x, mv));                                                               \
        }                                                                                          \
        memcpy(s->lane, &r, 64);                                                                   \
    }                                                                                              \
    TREE_INLINE A NAME##_partial(const T *q, int64_t cnt, T m)                                     \
    {                                                                                              \
        enum { L = TREE_LANES(A) };                                                                \
        const NAME##_vt mv = (NAME##_vt){0} + (V)(m);                                              \
        const NAME##_vt ev = (NAME##_vt){0} + (V)(VE);                                             \
        (void)mv;                                                                                  \
        NAME##_vt r = ev, x;                                                                       \
        int64_t i = 0;                                                                             \
        for (; i + L <= cnt; i += L) {                                                             \
            memcpy(&x, q + i, 64);                                                                 \
            r = OP(r, VLOAD(x, mv));                                                               \
        }                                                                                          \
        if (i < cnt) { /* lanes >= cnt - i get e (exact: see above) */                             \
            x = ev;                                                                                \
            memcpy(&x, q + i, (size_t)(cnt - i) * sizeof(T));                                      \
            x = VLOAD(x, mv);                                                                      \
            const NAME##_mt lane = IOTA; /* the lane of each value of V */                         \
            NAME##_mt keep = lane < (NAME##_mt){0} + (MI)(cnt - i), ebits, xbits;                  \
            memcpy(&ebits, &ev, 64);                                                               \
            memcpy(&xbits, &x, 64);                                                                \
            xbits = (xbits & keep) | (ebits & ~keep);                                              \
            memcpy(&x, &xbits, 64);                                                                \
            r = OP(r, x);                                                                          \
        }                                                                                          \
        return NAME##_vlanes(r);                                                                   \
    }                                                                                              \
    /* The outer kernel over one block of at most TREE_REG_ROWS rows (a short   \
     * one folds in order), a 64-byte piece of columns at a time with the L     \
     * lanes in L vector registers: each row's piece read once, no lane rows    \
     * written to memory and read back.  Column for column the operations of    \
     * NAME##_wide, so the same bits.  w >= C: the last piece overlaps the one  \
     * before it (an output computed twice is the same).  Returns 1. */                  \
    TREE_INLINE int NAME##_regs(const tree_task *t, const NAME##_colsbuf *cb, const char *col,     \
                                const char *aux, int64_t mstep, char *to, int64_t dstep,           \
                                int64_t w)                                                         \
    {                                                                                              \
        enum { L = TREE_LANES(A), C = 64 / sizeof(T) };                                            \
        const int64_t cnt = t->r1;                                                                 \
        int64_t *rowoff = cb->rowoff;                                                              \
        rwalk rw = {{0}, 0};                                                                       \
        rwalk_init(&rw, t, 0);                                                                     \
        for (int64_t k = 0; k < cnt; k++) {                                                        \
            rowoff[k] = rw.off;                                                                    \
            rwalk_add(&rw, t, 1);                                                                  \
        }                                                                                          \
        const NAME##_vt ev = (NAME##_vt){0} + (V)(VE);                                             \
        for (int64_t c0 = 0;; c0 += C) {                                                           \
            if (c0 + C > w) c0 = w - C;                                                            \
            T mc[C]; /* the columns' means (the real sqdev's) */                                   \
            for (int c = 0; c < C; c++) mc[c] = aux ? *(const T *)(aux + (c0 + c) * mstep) : (T)0; \
            NAME##_vt mv, x, r[L];                                                                 \
            memcpy(&mv, mc, 64);                                                                   \
            (void)mv;                                                                              \
            for (int j = 0; j < L; j++) r[j] = ev;                                                 \
            if (cnt <= L) { /* a short reduction: in order, in lane 0 */                           \
                for (int64_t k = 0; k < cnt; k++) {                                                \
                    memcpy(&x, (const T *)(col + rowoff[k]) + c0, 64);                             \
                    r[0] = OP(r[0], VLOAD(x, mv));                                                 \
                }                                                                                  \
            } else {                                                                               \
                for (int64_t kb = 0; kb < cnt; kb += L) {                                          \
                    _Pragma("GCC unroll 16")                                                       \
                    for (int j = 0; j < L; j++) {                                                  \
                        if (kb + j < cnt) {                                                        \
                            memcpy(&x, (const T *)(col + rowoff[kb + j]) + c0, 64);                \
                            r[j] = OP(r[j], VLOAD(x, mv));                                         \
                        }                                                                          \
                    }                                                                              \
                }                                                                                  \
                _Pragma("GCC unroll 16")                                                           \
                for (int h = L / 2; h > 0; h /= 2) {                                               \
                    _Pragma("GCC unroll 16")                                                       \
                    for (int j = 0; j < h; j++) r[j] = OP(r[j], r[j + h]);                         \
                }                                                                                  \
            }                                                                                      \
            if (dstep == (int64_t)sizeof(A)) {                                                     \
                memcpy(to + c0 * dstep, &r[0], 64);                                                \
            } else {                                                                               \
                A o[C];                                                                            \
                memcpy(o, &r[0], 64);                                                              \
                for (int c = 0; c < C; c++) *(A *)(to + (c0 + c) * dstep) = o[c];                  \
            }                                                                                      \
            if (c0 + C >= w) return 1;                                                             \
        }                                                                                          \
    }
#define VLOAD_PLAIN(x, mv) (x)
#define VLOAD_SQ(x, mv) (((x) - (mv)) * ((x) - (mv)))
/* The halving of a vector's lanes: w = 8, 4, 2, 1 values of V (down to
 * one lane: two values for complex), each a rotation by w. */
#define ROT8(w)                                                                                    \
    {(0 + w) & 7, (1 + w) & 7, (2 + w) & 7, (3 + w) & 7,                                           \
     (4 + w) & 7, (5 + w) & 7, (6 + w) & 7, (7 + w) & 7}
#define ROT16(w)                                                                                   \
    {(0 + w) & 15,  (1 + w) & 15,  (2 + w) & 15,  (3 + w) & 15, (4 + w) & 15,  (5 + w) & 15,       \
     (6 + w) & 15,  (7 + w) & 15,  (8 + w) & 15,  (9 + w) & 15, (10 + w) & 15, (11 + w) & 15,      \
     (12 + w) & 15, (13 + w) & 15, (14 + w) & 15, (15 + w) & 15}
#define HALF(OP, r, MT, ROT, w) r = OP(r, __builtin_shuffle(r, (MT)ROT(w)));
#define HALVE_F64(OP, r, MT)                                                                       \
    HALF(OP, r, MT, ROT8, 4) HALF(OP, r, MT, ROT8, 2) HALF(OP, r, MT, ROT8, 1)
#define HALVE_C128(OP, r, MT) HALF(OP, r, MT, ROT8, 4) HALF(OP, r, MT, ROT8, 2)
#define HALVE_F32(OP, r, MT)                                                                       \
    HALF(OP, r, MT, ROT16, 8)                                                                      \
    HALF(OP, r, MT, ROT16, 4) HALF(OP, r, MT, ROT16, 2) HALF(OP, r, MT, ROT16, 1)
#define HALVE_C64(OP, r, MT)                                                                       \
    HALF(OP, r, MT, ROT16, 8) HALF(OP, r, MT, ROT16, 4) HALF(OP, r, MT, ROT16, 2)
#define IOTA8 {0, 1, 2, 3, 4, 5, 6, 7}
#define IOTA8_2 {0, 0, 1, 1, 2, 2, 3, 3}
#define IOTA16 {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}
#define IOTA16_2 {0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7}
#define VEC_F32(NAME, T, A, LOAD, OP, E)                                                           \
    DEF_VEC(NAME, T, A, OP, float, int32_t, 1, E, VLOAD_PLAIN, HALVE_F32, IOTA16)
#define VEC_F64(NAME, T, A, LOAD, OP, E)                                                           \
    DEF_VEC(NAME, T, A, OP, double, int64_t, 1, E, VLOAD_PLAIN, HALVE_F64, IOTA8)
#define VEC_C64(NAME, T, A, LOAD, OP, E)                                                           \
    DEF_VEC(NAME, T, A, OP, float, int32_t, 2, 0, VLOAD_PLAIN, HALVE_C64, IOTA16_2)
#define VEC_C128(NAME, T, A, LOAD, OP, E)                                                          \
    DEF_VEC(NAME, T, A, OP, double, int64_t, 2, 0, VLOAD_PLAIN, HALVE_C128, IOTA8_2)
#define VEC_SQ_F32(NAME, T, A, LOAD, OP, E)                                                        \
    DEF_VEC(NAME, T, A, OP, float, int32_t, 1, E, VLOAD_SQ, HALVE_F32, IOTA16)
#define VEC_SQ_F64(NAME, T, A, LOAD, OP, E)                                                        \
    DEF_VEC(NAME, T, A, OP, double, int64_t, 1, E, VLOAD_SQ, HALVE_F64, IOTA8)

/* The kernels (st_loop_fn over a run of outputs of the kept dims):
 * args {in, out, aux (the mean, or NULL), scratch}. */
/* NAME##_feed is compiled once per CPU level (NAME##_feed##ISA), not
 * inlined at each of NAME##_one's four calls: a third of this file's
 * compile time, for one call per run of values. */
#define DEF_TREE_ISA(ISA, ATTR, NAME, T, A, LOAD, OP, E)                                           \
    ATTR static __attribute__((noinline)) void NAME##_feed##ISA(NAME##_state *s, const char *p,    \
                                                                int64_t n, int64_t step, T m)      \
    {                                                                                              \
        NAME##_feed(s, p, n, step, m);                                                             \
    }                                                                                              \
    ATTR static void NAME##_inner##ISA(char **args, const int64_t *np, const int64_t *st,          \
                                       void *extra)                                                \
    {                                                                                              \
        const tree_task *t = extra;                                                                \
        for (int64_t i = 0; i < *np; i++) {                                                        \
            const T m = args[2] ? *(const T *)(args[2] + i * st[2]) : (T)0;                        \
            const A v = NAME##_one(t, args[0] + i * st[0], m, NAME##_feed##ISA);                   \
            if (t->to_scratch)                                                                     \
                *(A *)(args[3] + i * st[3] + t->chunk * t->chunk_bytes) = v;                       \
            else                                                                                   \
                *(A *)(args[1] + i * st[1]) = v;                                                   \
        }                                                                                          \
    }                                                                                              \
    /* outputs contiguous in the input (st[0] = sizeof(T)) */                                      \
    ATTR static void NAME##_outer##ISA(char **args, const int64_t *np, const int64_t *st,          \
                                       void *extra)                                                \
    {                                                                                              \
        enum { L = TREE_LANES(A), W = TREE_COLS };                                                 \
        const tree_task *t = extra;                                                                \
        const int64_t n = *np;                                                                     \
        char *dst = t->to_scratch ? args[3] + t->chunk * t->chunk_bytes : args[1];                 \
        const int64_t dstep = t->to_scratch ? st[3] : st[1];                                       \
        char *ws = t->work + thread_id() * t->work_bytes;                                          \
        NAME##_colsbuf c = {(A *)ws, (A *)(ws + (int64_t)L * t->wide * sizeof(A)), NULL, NULL};    \
        c.mloc = (T *)(c.stk + (int64_t)t->depth * t->wide);                                       \
        /* the row offsets 8-byte aligned after the means (float ones may end   \
         * half-way: an odd width of float32) */                  \
        c.rowoff =                                                                                 \
            (int64_t *)((char *)c.mloc + ((t->wide * (int64_t)sizeof(T) + 7) & ~(int64_t)7));      \
        if (n >= W) { /* whole rows, or pieces of t->wide of them */                               \
            for (int64_t c0 = 0; c0 < n; c0 += t->wide) {                                          \
                const int64_t w = n - c0 < t->wide ? n - c0 : t->wide;                             \
                NAME##_wide(t, &c, args[0] + c0 * (int64_t)sizeof(T),                              \
                            args[2] ? args[2] + c0 * st[2] : NULL, st[2], dst + c0 * dstep, dstep, \
                            w);                                                                    \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        /* fewer: passes of a fixed width (registers), the last one overlapping   \
         * the one before it when the width does not divide n (each output is     \
         * computed alone: twice gives the same bits) */                \
        const int cw = n >= W / 2 ? W / 2 : n >= W / 4 ? W / 4 : n >= W / 8 ? W / 8 : 0;           \
        for (int64_t c0 = 0; c0 < n; c0 += cw ? cw : n) {                                          \
            if (cw && c0 + cw > n) c0 = n - cw;                                                    \
            const char *aux = args[2] ? args[2] + c0 * st[2] : NULL;                               \
            const char *col = args[0] + c0 * (int64_t)sizeof(T);                                   \
            char *to = dst + c0 * dstep;                                                           \
            switch (cw) {                                                                          \
            case W / 2:                                                                            \
                NAME##_pass(t, &c, col, aux, st[2], to, dstep, W / 2);                             \
                break;                                                                             \
            case W / 4:                                                                            \
                NAME##_pass(t, &c, col, aux, st[2], to, dstep, W / 4);                             \
                break;                                                                             \
            case W / 8:                                                                            \
                NAME##_pass(t, &c, col, aux, st[2], to, dstep, W / 8);                             \
                break;                                                                             \
            default:                                                                               \
                NAME##_pass(t, &c, col, aux, st[2], to, dstep, (int)n);                            \
                break;                                                                             \
            }                                                                                      \
        }                                                                                          \
    }

/* Two objects the build compiles in parallel (ST_PART, st_internal.h):
 * this file (part 0: the float trees and the rest) and reduce_tree_p1.c
 * (part 1: the complex trees, handed to part 0's table by
 * st_reduce_tree_part1). */
typedef struct {
    st_loop_fn inner, outer, combine;
    int lanes;
} tree_fns;
#define REG_TREE(OPC, NAME, CODE, A)                                                               \
    tree_table[OPC][CODE] =                                                                        \
        (tree_fns){ST_PICK(NAME##_inner), ST_PICK(NAME##_outer), NAME##_combine, TREE_LANES(A)};
void st_reduce_tree_part1(tree_fns tree_table[][ST_NTYPES]);

#if ST_PART == 1
DEF_TREE(sum_complex64, st_c64, st_c64, LOAD_PLAIN, OP_ADD, (st_c64)0, VEC_C64)
DEF_TREE(sum_complex128, st_c128, st_c128, LOAD_PLAIN, OP_ADD, (st_c128)0, VEC_C128)
DEF_TREE(prod_complex64, st_c64, st_c64, LOAD_PLAIN, OP_CMUL64, (st_c64)1, VEC_ARRAY)
DEF_TREE(prod_complex128, st_c128, st_c128, LOAD_PLAIN, OP_CMUL128, (st_c128)1, VEC_ARRAY)
DEF_TREE(sqdev_complex64, st_c64, float, LOAD_CSQ, OP_ADD, 0.0f, VEC_ARRAY)
DEF_TREE(sqdev_complex128, st_c128, double, LOAD_CSQ, OP_ADD, 0.0, VEC_ARRAY)

void st_reduce_tree_part1(tree_fns tree_table[][ST_NTYPES]){
    REG_TREE(ST_R_SUM, sum_complex64, ST_COMPLEX64, st_c64)
        REG_TREE(ST_R_SUM, sum_complex128, ST_COMPLEX128, st_c128)
            REG_TREE(ST_R_PROD, prod_complex64, ST_COMPLEX64, st_c64)
                REG_TREE(ST_R_PROD, prod_complex128, ST_COMPLEX128, st_c128)
                    REG_TREE(ST_R_SUMSQDEV, sqdev_complex64, ST_COMPLEX64, float)
                        REG_TREE(ST_R_SUMSQDEV, sqdev_complex128, ST_COMPLEX128, double)}
#else /* part 0: the rest of this file */
DEF_TREE(sum_float32, float, float, LOAD_PLAIN, OP_ADD, 0.0f, VEC_F32)
DEF_TREE(sum_float64, double, double, LOAD_PLAIN, OP_ADD, 0.0, VEC_F64)
DEF_TREE(prod_float32, float, float, LOAD_PLAIN, OP_MUL, 1.0f, VEC_F32)
DEF_TREE(prod_float64, double, double, LOAD_PLAIN, OP_MUL, 1.0, VEC_F64)
DEF_TREE(sqdev_float32, float, float, LOAD_SQ, OP_ADD, 0.0f, VEC_SQ_F32)
DEF_TREE(sqdev_float64, double, double, LOAD_SQ, OP_ADD, 0.0, VEC_SQ_F64)

static tree_fns tree_table[ST_R_COUNT][ST_NTYPES];

__attribute__((constructor)) static void init_tree_table(void)
{
    REG_TREE(ST_R_SUM, sum_float32, ST_FLOAT32, float)
    REG_TREE(ST_R_SUM, sum_float64, ST_FLOAT64, double)
    REG_TREE(ST_R_PROD, prod_float32, ST_FLOAT32, float)
    REG_TREE(ST_R_PROD, prod_float64, ST_FLOAT64, double)
    REG_TREE(ST_R_SUMSQDEV, sqdev_float32, ST_FLOAT32, float)
    REG_TREE(ST_R_SUMSQDEV, sqdev_float64, ST_FLOAT64, double)
    st_reduce_tree_part1(tree_table);
}

int st_reduce_tree_handles(int op, int dtype)
{
    return op >= 0 && op < ST_R_COUNT && dtype >= 0 && dtype < ST_NTYPES &&
           tree_table[op][dtype].inner != NULL;
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
static int64_t order_key(int64_t step) { return step == 0 ? INT64_MAX : step; }

/* out (keepdims shape, the accumulator's dtype) = the reduction of `in`
 * over `dims`; checked by st_reduce; in has at least one element. */
st_status st_reduce_tree(int op, st_tensor *out, const st_tensor *in, const uint8_t *dims,
                         const st_tensor *aux)
{
    const tree_fns *f = &tree_table[op][in->dtype];
    const int64_t item = st_itemsize(in->dtype), acc = st_itemsize(out->dtype);
    const int64_t B = (int64_t)f->lanes * TREE_STEPS;
    tree_task t; /* rsz and rst are written as far as nr, the rest here */
    t.nr = 0;
    t.to_scratch = 0;
    t.chunk = t.chunk_bytes = t.nchunks = 0;
    t.work = NULL;
    t.work_bytes = 0;
    t.depth = 0;
    t.gather = 0;
    t.wide = TREE_COLS;
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
    st_iter kit; /* written as far as its ndim */
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
        for (; j > 0 && order_key(kit.step[j - 1][0]) < order_key(s[0]);
             j--) { /* insertion, stable */
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
    st_iter_simplify(&kit, ST_ITER_C_ORDER); /* merge only */
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
    t.wide = ncols < TREE_WIDE_COLS ? (ncols > TREE_COLS ? ncols : TREE_COLS) : TREE_WIDE_COLS;
    const int64_t units = outer ? m / ncols * ((ncols + t.wide - 1) / t.wide) : m;
    int64_t chunk_blocks = nb, nchunks = 1;
    if (nt > 1 && units < 2 * nt && nb > 1) {
        chunk_blocks = 1;
        while (chunk_blocks * TREE_CHUNKS_PER_THREAD * nt < nb) chunk_blocks *= 2;
        while (chunk_blocks < nb &&
               ((nb + chunk_blocks - 1) / chunk_blocks) * m * acc > TREE_MAX_SCRATCH)
            chunk_blocks *= 2;
        nchunks = (nb + chunk_blocks - 1) / chunk_blocks;
    }
    /* the values of one output lie across the input (a transposed matrix
     * summed whole): copy them a piece at a time, in their order, into a
     * contiguous buffer, reading the memory along its smallest step */
    if (!outer && t.nr >= 2 && llabs(t.rst[t.nr - 1]) > item) {
        int p = -1;
        for (int d = 0; d < t.nr - 1; d++)
            if (llabs(t.rst[d]) < llabs(t.rst[t.nr - 1]) &&
                (p < 0 || llabs(t.rst[d]) < llabs(t.rst[p])))
                p = d;
        int64_t inner = 1; /* values in one index of dim p */
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
        t.work_bytes = ((int64_t)f->lanes + t.depth) * t.wide * acc +
                       ((t.wide * item + 7) & ~(int64_t)7) + B * (int64_t)sizeof(int64_t);
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
    } else if (nt <= 1) {
        st_iter_run_range(&kit, 0, m, kern, &t);
    } else {
        int64_t pieces = units < TREE_PIECES_PER_THREAD * nt ? units : TREE_PIECES_PER_THREAD * nt;
        if (pieces < 1) pieces = 1;
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
        for (int64_t p = 0; p < pieces; p++)
            st_iter_run_range(&kit, m * p / pieces, m * (p + 1) / pieces, kern, &t);
    }
    st_aligned_free(t.work);
    return ST_OK;
}
#endif /* ST_PART == 0 */
