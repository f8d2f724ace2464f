/* index.c -- index kernels: index_select / index_copy / index_add /
 * index_fill, gather, scatter / scatter_add / scatter_fill, masked select /
 * copy / fill, nonzero.
 *
 * All the index forms reduce to two iterations over an index shape S:
 *   gather:  out[p] = in'[p + norm(idx'[p]) along dim]
 *   scatter: dst'[p + norm(idx'[p]) along dim] (op)= src'[p]   (or a value)
 * where the primed tensors are views of shape S with stride 0 along dim
 * (the kernel adds the index times the real stride), and index_select /
 * index_copy / index_fill see their 1-D index broadcast over S (stride 0
 * everywhere but dim).  Moves are type-agnostic, by item size; only the
 * accumulating forms have per-type add loops (bool: logical or; integers
 * wrap modulo 2^bits).
 *
 * Gather runs in any order on any number of threads.  Scatter runs in C
 * order, so that a repeated index resolves the same way every time (the
 * last write wins, additions happen in index order); threads split only
 * a dim that the destination walks, so no two threads write one element.
 *
 * Every index is checked against its bound in a pre-pass before anything
 * is written; an input sharing memory with the destination is read from a
 * copy.  masked_select, masked_copy and nonzero run serially in C order
 * (ST_ITER_C_ORDER | ST_ITER_SERIAL both when the iterator is built and
 * when it runs: st_iter_run may otherwise walk it in cache tiles). */
#include "st_internal.h"
#include <stdio.h>
#include <stdlib.h>

#define IDX_FLAGS (ST_IDX_BASE1 | ST_IDX_WRAP)

/* ---- index normalisation ---------------------------------------------
 * A user index v: v < 0 counts from the end (WRAP only), otherwise it
 * counts from `base` (0 or 1).  Valid iff the 0-based result is in
 * [0, size).  Kernels run after the pre-pass and normalise unchecked. */
static inline int idx_valid(int64_t v, int64_t size, int flags)
{
    int64_t i;
    if (v < 0) {
        if (!(flags & ST_IDX_WRAP)) return 0;
        i = v + size;
    } else {
        i = v - ((flags & ST_IDX_BASE1) ? 1 : 0);
    }
    return i >= 0 && i < size;
}

static inline int64_t idx_norm(int64_t v, int64_t size, int64_t base)
{
    return v < 0 ? v + size : v - base;
}

static int idx_base(int flags) { return (flags & ST_IDX_BASE1) ? 1 : 0; }

/* The valid user range of an index into `size` positions, for messages. */
static const char *range_str(char *buf, size_t len, int64_t size, int flags)
{
    long long n = size, b = idx_base(flags);
    if (!(flags & ST_IDX_WRAP) || n == 0)
        snprintf(buf, len, "[%lld, %lld)", b, n + b);
    else if (!b)
        snprintf(buf, len, "[%lld, %lld)", -n, n);
    else
        snprintf(buf, len, "[%lld, -1] or [1, %lld]", -n, n);
    return buf;
}

/* ---- index pre-pass: any bad index (parallel), then the first (C order) */
typedef struct {
    int64_t size;
    int flags;
    int bad;
    int64_t first;
    int64_t lo, hi; /* valid values are [lo, hi) unless split (WRAP and BASE1) */
    int split;
} idx_check;

/* Branch-free over the values (SIMD) when the valid ones form one range:
 * [-size, size) with WRAP, [base, size + base) without. */
ST_LEVEL_BODY void check_any_loop(char **args, const int64_t *np, const int64_t *s, void *extra)
{
    idx_check *c = extra;
    const int64_t n = *np, lo = c->lo, hi = c->hi;
    int bad = 0;
    if (c->split) {
        for (int64_t k = 0; k < n; k++)
            bad |= !idx_valid(*(const int64_t *)(args[0] + k * s[0]), c->size, c->flags);
    } else if (s[0] == sizeof(int64_t)) {
        const int64_t *v = (const int64_t *)args[0];
        for (int64_t k = 0; k < n; k++) bad |= (v[k] < lo) | (v[k] >= hi);
    } else {
        for (int64_t k = 0; k < n; k++) {
            const int64_t v = *(const int64_t *)(args[0] + k * s[0]);
            bad |= (v < lo) | (v >= hi);
        }
    }
    if (bad) __atomic_store_n(&c->bad, 1, __ATOMIC_RELAXED);
}
ST_LEVEL_FN(check_any_loop, (char **args, const int64_t *np, const int64_t *s, void *extra),
            (args, np, s, extra))

static void find_first_loop(char **args, const int64_t *np, const int64_t *s, void *extra)
{
    idx_check *c = extra;
    if (c->bad) return;
    for (int64_t k = 0; k < *np; k++) {
        int64_t v = *(const int64_t *)(args[0] + k * s[0]);
        if (!idx_valid(v, c->size, c->flags)) {
            c->bad = 1;
            c->first = v;
            return;
        }
    }
}

/* Every value of idx must index `size` positions along dim. */
static st_status check_indices(const st_tensor *idx, int64_t size, int flags, const char *name,
                               int dim)
{
    if (st_tensor_numel(idx) == 0) return ST_OK;
    st_status rc;
    st_iter it;
    const st_tensor *ops[1] = {idx};
    const int wrap = (flags & ST_IDX_WRAP) != 0, base = idx_base(flags);
    idx_check c = {size, flags, 0, 0, wrap ? -size : base, size + base, wrap && base};
    if ((rc = st_iter_init(&it, 1, ops, 0))) return rc;
    st_iter_run(&it, ST_PICK(check_any_loop), &c, 0);
    if (!c.bad) return ST_OK;
    c.bad = 0;
    if ((rc = st_iter_init(&it, 1, ops, ST_ITER_C_ORDER | ST_ITER_SERIAL))) return rc;
    st_iter_run(&it, find_first_loop, &c, ST_ITER_C_ORDER | ST_ITER_SERIAL);
    char range[96];
    /* the range in the caller's numbering: [-size, size + base) with WRAP
     * (0 not valid with BASE1 too), else [base, size + base) */
    return st_fail_index(c.first, wrap ? -size : base, size + base, dim + base,
                         "%s: index %lld out of range %s at dim %d", name, (long long)c.first,
                         range_str(range, sizeof range, size, flags), dim + base);
}

/* ---- shared argument checks ---- */
static st_status check_flags(int flags, const char *name)
{
    if (flags & ~IDX_FLAGS) return st_fail(ST_E_VALUE, "%s: unknown flags 0x%x", name, flags);
    return ST_OK;
}

/* t writable (or readable), named "<op> <role>" in the message. */
static st_status check_writable_as(const st_tensor *t, const char *name, const char *role)
{
    char what[64];
    snprintf(what, sizeof what, "%s %s", name, role);
    return st_check_writable(t, what);
}

static st_status check_storage_as(const st_tensor *t, const char *name, const char *role)
{
    char what[64];
    snprintf(what, sizeof what, "%s %s", name, role);
    return st_check_storage(t, what);
}

/* dim must name a dim of t (a 0-d tensor has one dim of size 1). */
static st_status check_dim(const st_tensor *t, int dim, int flags, const char *name)
{
    int n = t->ndim ? t->ndim : 1, b = idx_base(flags);
    if (dim < 0 || dim >= n)
        return st_fail(ST_E_INDEX, "%s: dim %d out of range [%d, %d)", name, dim + b, b, n + b);
    return ST_OK;
}

static st_status check_index_dtype(const st_tensor *idx, const char *name)
{
    if (idx->dtype != ST_INT64)
        return st_fail(ST_E_TYPE, "%s: index must be int64, got %s", name,
                       st_dtype_name(idx->dtype));
    return check_storage_as(idx, name, "index");
}

static st_status check_same_dtype(const st_tensor *a, const st_tensor *b, const char *what_a,
                                  const char *what_b, const char *name)
{
    if (a->dtype != b->dtype)
        return st_fail(ST_E_TYPE, "%s: %s is %s but %s is %s", name, what_a,
                       st_dtype_name(a->dtype), what_b, st_dtype_name(b->dtype));
    return ST_OK;
}

/* t must have exactly the shape (ndim, sizes). */
static st_status check_shape(const st_tensor *t, int ndim, const int64_t *sizes, const char *what,
                             const char *name)
{
    int same = t->ndim == ndim;
    for (int d = 0; d < ndim && same; d++) same = t->sizes[d] == sizes[d];
    if (same) return ST_OK;
    char want[256], got[256];
    st_shape_str(want, sizeof want, ndim, sizes);
    st_shape_str(got, sizeof got, t->ndim, t->sizes);
    return st_fail(ST_E_VALUE, "%s: %s has shape %s, expected %s", name, what, got, want);
}

/* A 1-D (or 0-d, one value) index; its length into *len. */
static st_status check_index_1d(const st_tensor *idx, const char *name, int64_t *len)
{
    st_status rc;
    if ((rc = check_index_dtype(idx, name))) return rc;
    if (idx->ndim > 1)
        return st_fail(ST_E_VALUE, "%s: index must be 1-D, got %d dims", name, idx->ndim);
    *len = st_tensor_numel(idx);
    return ST_OK;
}

/* mask (bool or uint8) must broadcast to (ndim, sizes). */
static st_status check_mask(const st_tensor *mask, int ndim, const int64_t *sizes, const char *name)
{
    st_status rc;
    if (mask->dtype != ST_BOOL && mask->dtype != ST_UINT8)
        return st_fail(ST_E_TYPE, "%s: mask must be bool or uint8, got %s", name,
                       st_dtype_name(mask->dtype));
    if ((rc = check_storage_as(mask, name, "mask"))) return rc;
    int lead = ndim - mask->ndim, ok = lead >= 0;
    for (int d = 0; d < mask->ndim && ok; d++)
        ok = mask->sizes[d] == 1 || mask->sizes[d] == sizes[d + lead];
    if (ok) return ST_OK;
    char want[256], got[256];
    st_shape_str(want, sizeof want, ndim, sizes);
    st_shape_str(got, sizeof got, mask->ndim, mask->sizes);
    return st_fail(ST_E_VALUE, "%s: mask of shape %s does not broadcast to shape %s", name, got,
                   want);
}

/* ---- memory sharing ---- */

/* *in is read from a copy when it shares memory with the destination. */
static st_status detach_from(const st_tensor *dst, const st_tensor **in, st_tensor **tmp)
{
    *tmp = NULL;
    if (!st_tensor_shares_memory(dst, *in)) return ST_OK;
    return st_detach_copy(in, tmp);
}

/* A destination whose zero strides make several positions one element. */
static int self_overlapping(const st_tensor *t)
{
    for (int d = 0; d < t->ndim; d++)
        if (t->sizes[d] > 1 && t->strides[d] == 0) return 1;
    return 0;
}

/* ---- views (records on the stack that borrow t's storage, no reference) */
/* t with `sizes` (no larger than its own) and stride 0 along zero_dim. */
static void view_with(st_tensor *v, const st_tensor *t, const int64_t *sizes, int zero_dim)
{
    *v = *t;
    for (int d = 0; d < t->ndim; d++) v->sizes[d] = sizes[d];
    if (zero_dim >= 0 && zero_dim < t->ndim) v->strides[zero_dim] = 0;
}

/* The 1-D (or one-value 0-d) index seen with shape (ndim, sizes): walks
 * dim, stands still along the others. */
static void broadcast_index(st_tensor *v, const st_tensor *idx, int ndim, const int64_t *sizes,
                            int dim)
{
    *v = *idx;
    v->ndim = ndim;
    for (int d = 0; d < ndim; d++) {
        v->sizes[d] = sizes[d];
        v->strides[d] = 0;
    }
    if (ndim > 0 && idx->ndim == 1) v->strides[dim] = idx->strides[0];
}

static int64_t dim_size(const st_tensor *t, int dim) { return t->ndim ? t->sizes[dim] : 1; }
static int64_t dim_step(const st_tensor *t, int dim)
{
    return t->ndim ? t->strides[dim] * st_itemsize(t->dtype) : 0;
}

/* ---- move kernels, by item size -------------------------------------
 * gather   args {out, idx, in}:  out = in[+ idx * dstride]
 * scatter  args {dst, idx, src}: dst[+ idx * dstride] = src
 * sfill    args {dst, idx}:      dst[+ idx * dstride] = value
 * mfill    args {dst, mask}:     dst = value where mask
 * mselect  args {in, mask}:      *out++ = in where mask   (serial)
 * mcopy    args {dst, mask}:     dst = *src++ where mask  (serial) */
typedef struct {
    int64_t dstride; /* bytes per step along dim of the indexed tensor */
    int64_t size;    /* its size along dim */
    int64_t base;    /* 0 or 1 */
    const void *value;
} idx_extra;

typedef struct {
    char *p;      /* next element to write (mselect) or read (mcopy) */
    int64_t step; /* bytes */
    int64_t left; /* elements still to write / read */
} stream_extra;

typedef struct {
    uint64_t lo, hi;
} idx_b128;
#define TAKE_AHEAD 64 /* elements a take's prefetch runs ahead */

#define LOAD_IDX(g, p) idx_norm(*(const int64_t *)(p), (g)->size, (g)->base)

/* out contiguous, one position per element of a contiguous index, the
 * source fixed (a take): SIMD gathers when the source is contiguous too */
#define DEF_TAKE_ISA(ISA, ATTR, BITS, T)                                                           \
    ATTR static void take_##BITS##ISA(T *out, const int64_t *ix, const char *src, int64_t n,       \
                                      const idx_extra *g)                                          \
    {                                                                                              \
        const int64_t size = g->size, base = g->base, step = g->dstride;                           \
        if (step == sizeof(T)) {                                                                   \
            const T *from = (const T *)src;                                                        \
            int64_t k = 0;                                                                         \
            /* the loads miss the cache: ask for them TAKE_AHEAD elements early */                 \
            for (; k + TAKE_AHEAD < n; k++) {                                                      \
                const int64_t w = ix[k + TAKE_AHEAD];                                              \
                __builtin_prefetch(&from[w < 0 ? w + size : w - base]);                            \
                const int64_t v = ix[k];                                                           \
                out[k] = from[v < 0 ? v + size : v - base];                                        \
            }                                                                                      \
            for (; k < n; k++) {                                                                   \
                const int64_t v = ix[k];                                                           \
                out[k] = from[v < 0 ? v + size : v - base];                                        \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        for (int64_t k = 0; k < n; k++) {                                                          \
            const int64_t v = ix[k];                                                               \
            memcpy(&out[k], src + (v < 0 ? v + size : v - base) * step, sizeof(T));                \
        }                                                                                          \
    }

#define DEF_INDEX_MOVES(BITS, T)                                                                   \
    ST_LEVELS(DEF_TAKE_ISA, BITS, T)                                                               \
    static void gather_##BITS(char **args, const int64_t *np, const int64_t *s, void *extra)       \
    {                                                                                              \
        const idx_extra *g = extra;                                                                \
        const int64_t n = *np;                                                                     \
        if (s[0] == sizeof(T) && s[1] == sizeof(int64_t) && s[2] == 0) {                           \
            ST_PICK(take_##BITS)((T *)args[0], (const int64_t *)args[1], args[2], n, g);           \
            return;                                                                                \
        }                                                                                          \
        if (s[1] == 0) {                                                                           \
            const char *src = args[2] + LOAD_IDX(g, args[1]) * g->dstride;                         \
            if (s[0] == sizeof(T) && s[2] == sizeof(T)) {                                          \
                memcpy(args[0], src, (size_t)n * sizeof(T));                                       \
                return;                                                                            \
            }                                                                                      \
            for (int64_t k = 0; k < n; k++) memcpy(args[0] + k * s[0], src + k * s[2], sizeof(T)); \
            return;                                                                                \
        }                                                                                          \
        for (int64_t k = 0; k < n; k++)                                                            \
            memcpy(args[0] + k * s[0],                                                             \
                   args[2] + k * s[2] + LOAD_IDX(g, args[1] + k * s[1]) * g->dstride, sizeof(T));  \
    }                                                                                              \
    static void scatter_##BITS(char **args, const int64_t *np, const int64_t *s, void *extra)      \
    {                                                                                              \
        const idx_extra *g = extra;                                                                \
        const int64_t n = *np;                                                                     \
        if (s[1] == 0) {                                                                           \
            char *dst = args[0] + LOAD_IDX(g, args[1]) * g->dstride;                               \
            if (s[0] == sizeof(T) && s[2] == sizeof(T)) {                                          \
                memcpy(dst, args[2], (size_t)n * sizeof(T));                                       \
                return;                                                                            \
            }                                                                                      \
            for (int64_t k = 0; k < n; k++) memcpy(dst + k * s[0], args[2] + k * s[2], sizeof(T)); \
            return;                                                                                \
        }                                                                                          \
        for (int64_t k = 0; k < n; k++)                                                            \
            memcpy(args[0] + k * s[0] + LOAD_IDX(g, args[1] + k * s[1]) * g->dstride,              \
                   args[2] + k * s[2], sizeof(T));                                                 \
    }                                                                                              \
    static void sfill_##BITS(char **args, const int64_t *np, const int64_t *s, void *extra)        \
    {                                                                                              \
        const idx_extra *g = extra;                                                                \
        const int64_t n = *np;                                                                     \
        T v;                                                                                       \
        memcpy(&v, g->value, sizeof(T));                                                           \
        for (int64_t k = 0; k < n; k++)                                                            \
            memcpy(args[0] + k * s[0] + LOAD_IDX(g, args[1] + k * s[1]) * g->dstride, &v,          \
                   sizeof(T));                                                                     \
    }                                                                                              \
    static void mfill_##BITS(char **args, const int64_t *np, const int64_t *s, void *extra)        \
    {                                                                                              \
        const int64_t n = *np;                                                                     \
        T v;                                                                                       \
        memcpy(&v, extra, sizeof(T));                                                              \
        if (s[0] == sizeof(T)) {                                                                   \
            /* no self-overlap: store every element, picking the value or its */                   \
            /* own (an indexed pick, so the compiler keeps it branch-free) */                      \
            T *o = (T *)args[0];                                                                   \
            for (int64_t k = 0; k < n; k++) {                                                      \
                const T *from[2] = {&o[k], &v};                                                    \
                o[k] = *from[*(const uint8_t *)(args[1] + k * s[1]) != 0];                         \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        for (int64_t k = 0; k < n; k++)                                                            \
            if (*(const uint8_t *)(args[1] + k * s[1])) memcpy(args[0] + k * s[0], &v, sizeof(T)); \
    }                                                                                              \
    /* The streams are branch-free: every element is stored to the next     */                     \
    /* slot, which advances only when the mask is set; `left` (slots still  */                     \
    /* free) stops the loop before a store or load could pass the end.      */                     \
    static void mselect_##BITS(char **args, const int64_t *np, const int64_t *s, void *extra)      \
    {                                                                                              \
        stream_extra *o = extra;                                                                   \
        const int64_t n = *np, step = o->step;                                                     \
        char *out = o->p;                                                                          \
        int64_t left = o->left;                                                                    \
        for (int64_t k = 0; k < n && left > 0; k++) {                                              \
            const int64_t set = *(const uint8_t *)(args[1] + k * s[1]) != 0;                       \
            memcpy(out, args[0] + k * s[0], sizeof(T));                                            \
            out += set * step;                                                                     \
            left -= set;                                                                           \
        }                                                                                          \
        o->p = out;                                                                                \
        o->left = left;                                                                            \
    }                                                                                              \
    static void mcopy_##BITS(char **args, const int64_t *np, const int64_t *s, void *extra)        \
    {                                                                                              \
        stream_extra *i = extra;                                                                   \
        const int64_t n = *np;                                                                     \
        const char *src = i->p;                                                                    \
        int64_t left = i->left;                                                                    \
        for (int64_t k = 0; k < n && left > 0; k++) {                                              \
            const int64_t set = *(const uint8_t *)(args[1] + k * s[1]) != 0;                       \
            char *d = args[0] + k * s[0];                                                          \
            const char *from[2] = {d, src};                                                        \
            T t;                                                                                   \
            memcpy(&t, from[set], sizeof(T));                                                      \
            memcpy(d, &t, sizeof(T));                                                              \
            src += set * (int64_t)sizeof(T);                                                       \
            left -= set;                                                                           \
        }                                                                                          \
        i->p = (char *)src;                                                                        \
        i->left = left;                                                                            \
    }
DEF_INDEX_MOVES(8, uint8_t)
DEF_INDEX_MOVES(16, uint16_t)
DEF_INDEX_MOVES(32, uint32_t)
DEF_INDEX_MOVES(64, uint64_t)
DEF_INDEX_MOVES(128, idx_b128)

enum { K_GATHER, K_SCATTER, K_SFILL, K_MFILL, K_MSELECT, K_MCOPY, K_COUNT };
#define MOVE_ROW(NAME) {NAME##_8, NAME##_16, NAME##_32, NAME##_64, NAME##_128}
static const st_loop_fn move_loops[K_COUNT][5] = {MOVE_ROW(gather),  MOVE_ROW(scatter),
                                                  MOVE_ROW(sfill),   MOVE_ROW(mfill),
                                                  MOVE_ROW(mselect), MOVE_ROW(mcopy)};

static st_loop_fn move_loop(int kind, int dtype)
{
    switch (st_itemsize(dtype)) {
    case 1:
        return move_loops[kind][0];
    case 2:
        return move_loops[kind][1];
    case 4:
        return move_loops[kind][2];
    case 8:
        return move_loops[kind][3];
    default:
        return move_loops[kind][4];
    }
}

/* ---- accumulate kernels, per type: args {dst, idx, src} ---- */
#define ADD_OR(a, b) ((a) || (b))
/* integer additions wrap modulo 2^bits (unsigned arithmetic, no UB) */
#define ADD_WRAP(a, b) ((__typeof__(a))((uint64_t)(a) + (uint64_t)(b)))
#define ADD_PLAIN(a, b) ((a) + (b))
#define DEF_SCATTER_ADD(CODE, SFX, T, R, ADD)                                                      \
    static void scatter_add_##SFX(char **args, const int64_t *np, const int64_t *s, void *extra)   \
    {                                                                                              \
        const idx_extra *g = extra;                                                                \
        const int64_t n = *np;                                                                     \
        if (s[1] == 0) {                                                                           \
            char *dst = args[0] + LOAD_IDX(g, args[1]) * g->dstride;                               \
            for (int64_t k = 0; k < n; k++) {                                                      \
                T *o = (T *)(dst + k * s[0]);                                                      \
                *o = ADD(*o, *(const T *)(args[2] + k * s[2]));                                    \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        for (int64_t k = 0; k < n; k++) {                                                          \
            T *o = (T *)(args[0] + k * s[0] + LOAD_IDX(g, args[1] + k * s[1]) * g->dstride);       \
            *o = ADD(*o, *(const T *)(args[2] + k * s[2]));                                        \
        }                                                                                          \
    }
ST_TYPES_BOOL(DEF_SCATTER_ADD, ADD_OR)
ST_TYPES_INT(DEF_SCATTER_ADD, ADD_WRAP)
ST_TYPES_FLOAT(DEF_SCATTER_ADD, ADD_PLAIN)
ST_TYPES_COMPLEX(DEF_SCATTER_ADD, ADD_PLAIN)

#define CASE_ADD(CODE, SFX, T, R, ...)                                                             \
    case CODE:                                                                                     \
        return scatter_add_##SFX;
static st_loop_fn add_loop(int dtype)
{
    switch (dtype) {
        ST_TYPES_ALL(CASE_ADD)
    default:
        return NULL;
    }
}

/* ---- the two runners ---- */
/* out[p] = in[p, dim <- idx[p]] over out's shape; idxv and inv have out's
 * shape, inv with stride 0 along dim. */
static st_status run_gather(st_tensor *out, const st_tensor *idxv, const st_tensor *inv,
                            int64_t dstride, int64_t size, int flags)
{
    if (st_tensor_numel(out) == 0) return ST_OK;
    st_status rc;
    st_iter it;
    const st_tensor *ops[3] = {out, idxv, inv};
    if ((rc = st_iter_init(&it, 3, ops, 0))) return rc;
    idx_extra g = {dstride, size, idx_base(flags), NULL};
    st_iter_run(&it, move_loop(K_GATHER, out->dtype), &g, 0);
    return ST_OK;
}

/* Run a scatter iteration (operand 0 the destination view) in C order;
 * threads split the largest dim the destination walks, so that every
 * destination element is written by one thread in index order. */
static void run_ordered(const st_iter *it, st_loop_fn loop, void *extra, int serial)
{
    int nt = serial ? 1 : st_threads_for(it->numel);
    int kept = -1;
    for (int d = 0; d < it->ndim; d++)
        if (it->step[d][0] != 0 && it->size[d] > 1 && (kept < 0 || it->size[d] > it->size[kept]))
            kept = d;
    if (nt <= 1 || kept < 0) {
        st_iter_run_range(it, 0, it->numel, loop, extra);
        return;
    }
    int nchunks = it->size[kept] < nt ? (int)it->size[kept] : nt;
#pragma omp parallel for num_threads(nchunks) schedule(static, 1)
    for (int t = 0; t < nchunks; t++) {
        st_iter sub = *it;
        int64_t a = it->size[kept] * t / nchunks, b = it->size[kept] * (t + 1) / nchunks;
        sub.size[kept] = b - a;
        sub.numel = it->numel / it->size[kept] * (b - a);
        for (int k = 0; k < it->nop; k++) sub.data[k] += a * it->step[kept][k];
        st_iter_run_range(&sub, 0, sub.numel, loop, extra);
    }
}

/* dst[p, dim <- idx[p]] (op)= src[p] (or value) over idxv's shape; srcv
 * (NULL for a fill) has idxv's shape. */
static st_status run_scatter(st_tensor *dst, int dim, const st_tensor *idxv, const st_tensor *srcv,
                             const void *value, int accumulate, int flags)
{
    if (st_tensor_numel(idxv) == 0) return ST_OK;
    st_status rc;
    st_tensor dstv;
    view_with(&dstv, dst, idxv->sizes, dim);
    st_iter it;
    const st_tensor *ops[3] = {&dstv, idxv, srcv};
    if ((rc = st_iter_init(&it, srcv ? 3 : 2, ops, ST_ITER_C_ORDER))) return rc;
    idx_extra g = {dim_step(dst, dim), dim_size(dst, dim), idx_base(flags), value};
    st_loop_fn loop = !srcv        ? move_loop(K_SFILL, dst->dtype)
                      : accumulate ? add_loop(dst->dtype)
                                   : move_loop(K_SCATTER, dst->dtype);
    run_ordered(&it, loop, &g, self_overlapping(dst));
    return ST_OK;
}

/* The checks index_select and index_copy/index_add share.  `full` is
 * indexed along dim by the 1-D idx; `part` has full's shape with len(idx)
 * at dim; `dst` is whichever of the two is written, `src` the other. */
static st_status check_index_pair(const st_tensor *full, const char *full_role,
                                  const st_tensor *part, const char *part_role,
                                  const st_tensor *dst, const st_tensor *src, int dim,
                                  const st_tensor *idx, int flags, const char *name)
{
    st_status rc;
    int64_t len = 0;
    const char *dst_role = dst == full ? full_role : part_role;
    const char *src_role = src == full ? full_role : part_role;
    if ((rc = check_flags(flags, name))) return rc;
    if ((rc = check_index_1d(idx, name, &len))) return rc;
    if ((rc = check_same_dtype(dst, src, dst_role, src_role, name))) return rc;
    if ((rc = check_dim(full, dim, flags, name))) return rc;
    if ((rc = check_writable_as(dst, name, dst_role))) return rc;
    if ((rc = check_storage_as(src, name, src_role))) return rc;
    int64_t want[ST_MAX_DIMS];
    for (int d = 0; d < full->ndim; d++) want[d] = d == dim ? len : full->sizes[d];
    if ((rc = check_shape(part, full->ndim, want, part_role, name))) return rc;
    if (full->ndim == 0 && len != 1)
        return st_fail(ST_E_VALUE, "%s: a 0-d %s takes exactly one index, got %lld", name,
                       full_role, (long long)len);
    return ST_OK;
}

/* ---- index_select ---- */
st_status st_index_select(st_tensor *out, const st_tensor *in, int dim, const st_tensor *idx,
                          int flags)
{
    const char *name = "index_select";
    st_status rc = check_index_pair(in, "input", out, "output", out, in, dim, idx, flags, name);
    if (rc) return rc;
    const st_tensor *src = in, *ix = idx;
    st_tensor *tsrc = NULL, *tix = NULL;
    rc = detach_from(out, &src, &tsrc);
    if (!rc) rc = detach_from(out, &ix, &tix);
    if (!rc) rc = check_indices(ix, dim_size(src, dim), flags, name, dim);
    if (!rc) {
        st_tensor idxv, inv;
        broadcast_index(&idxv, ix, out->ndim, out->sizes, dim);
        view_with(&inv, src, out->sizes, dim);
        rc = run_gather(out, &idxv, &inv, dim_step(src, dim), dim_size(src, dim), flags);
    }
    st_tensor_free(tsrc);
    st_tensor_free(tix);
    return rc;
}

/* ---- index_copy / index_add / index_fill ---- */
st_status st_index_copy(st_tensor *dst, int dim, const st_tensor *idx, const st_tensor *src,
                        int accumulate, int flags)
{
    const char *name = accumulate ? "index_add" : "index_copy";
    st_status rc =
        check_index_pair(dst, "destination", src, "source", dst, src, dim, idx, flags, name);
    if (rc) return rc;
    if (accumulate && !add_loop(dst->dtype))
        return st_fail(ST_E_TYPE, "%s is not defined for %s", name, st_dtype_name(dst->dtype));
    const st_tensor *sr = src, *ix = idx;
    st_tensor *tsr = NULL, *tix = NULL;
    rc = detach_from(dst, &sr, &tsr);
    if (!rc) rc = detach_from(dst, &ix, &tix);
    if (!rc) rc = check_indices(ix, dim_size(dst, dim), flags, name, dim);
    if (!rc) {
        st_tensor idxv;
        broadcast_index(&idxv, ix, sr->ndim, sr->sizes, dim);
        rc = run_scatter(dst, dim, &idxv, sr, NULL, accumulate, flags);
    }
    st_tensor_free(tsr);
    st_tensor_free(tix);
    return rc;
}

st_status st_index_fill(st_tensor *dst, int dim, const st_tensor *idx, const void *value, int flags)
{
    const char *name = "index_fill";
    st_status rc;
    int64_t len = 0;
    if ((rc = check_flags(flags, name))) return rc;
    if ((rc = check_index_1d(idx, name, &len))) return rc;
    if ((rc = check_dim(dst, dim, flags, name))) return rc;
    if ((rc = check_writable_as(dst, name, "destination"))) return rc;
    if (!value) return st_fail(ST_E_VALUE, "%s: no fill value", name);
    int64_t sizes[ST_MAX_DIMS];
    for (int d = 0; d < dst->ndim; d++) sizes[d] = d == dim ? len : dst->sizes[d];
    const st_tensor *ix = idx;
    st_tensor *tix = NULL;
    rc = detach_from(dst, &ix, &tix);
    if (!rc) rc = check_indices(ix, dim_size(dst, dim), flags, name, dim);
    if (!rc && len > 0) {
        /* (a 0-d destination sees one index: it is filled once) */
        st_tensor idxv;
        broadcast_index(&idxv, ix, dst->ndim, sizes, dim);
        rc = run_scatter(dst, dim, &idxv, NULL, value, 0, flags);
    }
    st_tensor_free(tix);
    return rc;
}

/* ---- gather / scatter ---- */
st_status st_gather(st_tensor *out, const st_tensor *in, int dim, const st_tensor *idx, int flags)
{
    const char *name = "gather";
    st_status rc;
    if ((rc = check_flags(flags, name))) return rc;
    if ((rc = check_index_dtype(idx, name))) return rc;
    if ((rc = check_same_dtype(out, in, "output", "input", name))) return rc;
    if ((rc = check_dim(in, dim, flags, name))) return rc;
    if ((rc = check_writable_as(out, name, "output"))) return rc;
    if ((rc = check_storage_as(in, name, "input"))) return rc;
    if (idx->ndim != in->ndim)
        return st_fail(ST_E_VALUE, "%s: index has %d dims but the input %d", name, idx->ndim,
                       in->ndim);
    for (int d = 0; d < in->ndim; d++)
        if (d != dim && idx->sizes[d] > in->sizes[d])
            return st_fail(ST_E_VALUE, "%s: index has size %lld at dim %d but the input only %lld",
                           name, (long long)idx->sizes[d], d + idx_base(flags),
                           (long long)in->sizes[d]);
    if ((rc = check_shape(out, idx->ndim, idx->sizes, "output", name))) return rc;
    const st_tensor *src = in, *ix = idx;
    st_tensor *tsrc = NULL, *tix = NULL;
    rc = detach_from(out, &src, &tsrc);
    if (!rc) rc = detach_from(out, &ix, &tix);
    if (!rc) rc = check_indices(ix, dim_size(src, dim), flags, name, dim);
    if (!rc) {
        st_tensor inv;
        view_with(&inv, src, ix->sizes, dim);
        rc = run_gather(out, ix, &inv, dim_step(src, dim), dim_size(src, dim), flags);
    }
    st_tensor_free(tsrc);
    st_tensor_free(tix);
    return rc;
}

/* Checks shared by scatter and scatter_fill (src NULL for the fill). */
static st_status check_scatter(const st_tensor *dst, int dim, const st_tensor *idx,
                               const st_tensor *src, int flags, const char *name)
{
    st_status rc;
    if ((rc = check_flags(flags, name))) return rc;
    if ((rc = check_index_dtype(idx, name))) return rc;
    if (src && (rc = check_same_dtype(dst, src, "destination", "source", name))) return rc;
    if ((rc = check_dim(dst, dim, flags, name))) return rc;
    if ((rc = check_writable_as(dst, name, "destination"))) return rc;
    if (src && (rc = check_storage_as(src, name, "source"))) return rc;
    if (idx->ndim != dst->ndim)
        return st_fail(ST_E_VALUE, "%s: index has %d dims but the destination %d", name, idx->ndim,
                       dst->ndim);
    if (src && src->ndim != dst->ndim)
        return st_fail(ST_E_VALUE, "%s: source has %d dims but the destination %d", name, src->ndim,
                       dst->ndim);
    for (int d = 0; d < dst->ndim; d++) {
        if (d != dim && idx->sizes[d] > dst->sizes[d])
            return st_fail(ST_E_VALUE,
                           "%s: index has size %lld at dim %d but the destination only %lld", name,
                           (long long)idx->sizes[d], d + idx_base(flags), (long long)dst->sizes[d]);
        if (src && idx->sizes[d] > src->sizes[d])
            return st_fail(ST_E_VALUE, "%s: index has size %lld at dim %d but the source only %lld",
                           name, (long long)idx->sizes[d], d + idx_base(flags),
                           (long long)src->sizes[d]);
    }
    return ST_OK;
}

st_status st_scatter(st_tensor *dst, int dim, const st_tensor *idx, const st_tensor *src,
                     int accumulate, int flags)
{
    const char *name = accumulate ? "scatter_add" : "scatter";
    st_status rc;
    if ((rc = check_scatter(dst, dim, idx, src, flags, name))) return rc;
    if (accumulate && !add_loop(dst->dtype))
        return st_fail(ST_E_TYPE, "%s is not defined for %s", name, st_dtype_name(dst->dtype));
    const st_tensor *sr = src, *ix = idx;
    st_tensor *tsr = NULL, *tix = NULL;
    rc = detach_from(dst, &sr, &tsr);
    if (!rc) rc = detach_from(dst, &ix, &tix);
    if (!rc) rc = check_indices(ix, dim_size(dst, dim), flags, name, dim);
    if (!rc) {
        st_tensor srcv;
        view_with(&srcv, sr, ix->sizes, -1);
        rc = run_scatter(dst, dim, ix, &srcv, NULL, accumulate, flags);
    }
    st_tensor_free(tsr);
    st_tensor_free(tix);
    return rc;
}

st_status st_scatter_fill(st_tensor *dst, int dim, const st_tensor *idx, const void *value,
                          int flags)
{
    const char *name = "scatter_fill";
    st_status rc;
    if ((rc = check_scatter(dst, dim, idx, NULL, flags, name))) return rc;
    if (!value) return st_fail(ST_E_VALUE, "%s: no fill value", name);
    const st_tensor *ix = idx;
    st_tensor *tix = NULL;
    rc = detach_from(dst, &ix, &tix);
    if (!rc) rc = check_indices(ix, dim_size(dst, dim), flags, name, dim);
    if (!rc) rc = run_scatter(dst, dim, ix, NULL, value, 0, flags);
    st_tensor_free(tix);
    return rc;
}

/* ---- masks ---- */
static void count_set_loop(char **args, const int64_t *np, const int64_t *s, void *extra)
{
    int64_t c = 0;
    for (int64_t k = 0; k < *np; k++) c += *(const uint8_t *)(args[0] + k * s[0]) != 0;
    __atomic_add_fetch((int64_t *)extra, c, __ATOMIC_RELAXED);
}

/* Set positions of mask broadcast to (ndim, sizes). */
static st_status count_set(const st_tensor *mask, int ndim, const int64_t *sizes, int64_t *count)
{
    *count = 0;
    int64_t n = 1;
    for (int d = 0; d < ndim; d++) n *= sizes[d];
    if (n == 0) return ST_OK;
    st_iter it;
    const st_tensor *ops[1] = {mask};
    st_status rc = st_iter_init_shape(&it, 1, ops, ndim, sizes, 0);
    if (rc) return rc;
    st_iter_run(&it, count_set_loop, count, 0);
    return ST_OK;
}

/* The checks masked_select and masked_copy share: the mask broadcasts to
 * `full` (the tensor it selects from or writes into); `dst` is written,
 * `src` read; *count gets the number of set mask positions. */
static st_status check_masked_pair(const st_tensor *full, const st_tensor *mask,
                                   const st_tensor *dst, const char *dst_role, const st_tensor *src,
                                   const char *src_role, const char *name, int64_t *count)
{
    st_status rc;
    if ((rc = check_same_dtype(dst, src, dst_role, src_role, name))) return rc;
    if ((rc = check_mask(mask, full->ndim, full->sizes, name))) return rc;
    if ((rc = check_writable_as(dst, name, dst_role))) return rc;
    if ((rc = check_storage_as(src, name, src_role))) return rc;
    return count_set(mask, full->ndim, full->sizes, count);
}

/* The walk masked_select and masked_copy share: `walked` (the tensor read
 * from or written into, of shape full's) and the mask broadcast to it, in C
 * order on one thread, the packed side streamed through `packed`. */
static st_status run_masked(int kind, const st_tensor *walked, const st_tensor *mask,
                            const st_tensor *full, stream_extra *packed)
{
    st_iter it;
    const st_tensor *ops[2] = {walked, mask};
    st_status rc =
        st_iter_init_shape(&it, 2, ops, full->ndim, full->sizes, ST_ITER_C_ORDER | ST_ITER_SERIAL);
    if (!rc)
        st_iter_run(&it, move_loop(kind, full->dtype), packed, ST_ITER_C_ORDER | ST_ITER_SERIAL);
    return rc;
}

st_status st_masked_select(st_tensor *out, const st_tensor *in, const st_tensor *mask)
{
    const char *name = "masked_select";
    st_status rc;
    int64_t count;
    if ((rc = check_masked_pair(in, mask, out, "output", in, "input", name, &count))) return rc;
    if ((rc = check_shape(out, 1, &count, "output", name))) return rc;
    if (count == 0) return ST_OK;
    const st_tensor *src = in, *mk = mask;
    st_tensor *tsrc = NULL, *tmk = NULL;
    rc = detach_from(out, &src, &tsrc);
    if (!rc) rc = detach_from(out, &mk, &tmk);
    if (!rc) {
        stream_extra o = {st_tensor_data(out), out->strides[0] * st_itemsize(out->dtype), count};
        rc = run_masked(K_MSELECT, src, mk, in, &o);
    }
    st_tensor_free(tsrc);
    st_tensor_free(tmk);
    return rc;
}

st_status st_masked_copy(st_tensor *dst, const st_tensor *mask, const st_tensor *src)
{
    const char *name = "masked_copy";
    st_status rc;
    int64_t count, have = st_tensor_numel(src);
    if ((rc = check_masked_pair(dst, mask, dst, "destination", src, "source", name, &count)))
        return rc;
    if (have < count)
        return st_fail(ST_E_VALUE, "%s: mask sets %lld elements but the source has only %lld", name,
                       (long long)count, (long long)have);
    if (count == 0) return ST_OK;
    const st_tensor *sr = src, *mk = mask;
    st_tensor *tsr = NULL, *tmk = NULL;
    rc = ST_OK;
    if (!st_tensor_is_contiguous(src) || st_tensor_shares_memory(dst, src))
        rc = st_detach_copy(&sr, &tsr);
    if (!rc) rc = detach_from(dst, &mk, &tmk);
    if (!rc) {
        stream_extra i = {st_tensor_data(sr), st_itemsize(sr->dtype), count};
        rc = run_masked(K_MCOPY, dst, mk, dst, &i);
    }
    st_tensor_free(tsr);
    st_tensor_free(tmk);
    return rc;
}

st_status st_masked_fill(st_tensor *dst, const st_tensor *mask, const void *value)
{
    const char *name = "masked_fill";
    st_status rc;
    if ((rc = check_mask(mask, dst->ndim, dst->sizes, name))) return rc;
    if ((rc = check_writable_as(dst, name, "destination"))) return rc;
    if (!value) return st_fail(ST_E_VALUE, "%s: no fill value", name);
    if (st_tensor_numel(dst) == 0) return ST_OK;
    const st_tensor *mk = mask;
    st_tensor *tmk = NULL;
    /* elementwise: only a mask overlapping other than exactly needs a copy */
    rc = st_tensor_overlaps(dst, mask) ? st_detach_copy(&mk, &tmk) : ST_OK;
    st_iter it;
    const st_tensor *ops[2] = {dst, mk};
    if (!rc) rc = st_iter_init(&it, 2, ops, 0);
    if (!rc) st_iter_run(&it, move_loop(K_MFILL, dst->dtype), (void *)value, 0);
    st_tensor_free(tmk);
    return rc;
}

/* ---- nonzero ----
 * A contiguous input is cut into blocks of NZ_BLOCK elements: the threads
 * count the nonzero elements of every block, a prefix sum gives each
 * block's first output row, and the threads write their blocks' rows.  A
 * 1-D input writes positions in a tight loop; an N-d one keeps the
 * coordinates of the element it is at (an odometer over the full shape,
 * started at its block's first element).  A strided input runs serially.
 *
 * Rows are written branch-free: every element stores to the next row,
 * which advances only past a nonzero element; `left` (the rows still free
 * in the block) stops the loop before a store could reach the next
 * block's rows. */
#define NZ_BLOCK 65536

typedef struct {
    int ndim;
    int64_t base;
    const int64_t *sizes;
    int64_t coord[ST_MAX_DIMS];
    char *row;                  /* next output row */
    int64_t row_step, col_step; /* bytes */
    int64_t left;               /* rows still to write */
} nz_extra;

static inline void nz_store(const nz_extra *z, char *row)
{
    for (int d = 0; d < z->ndim; d++) *(int64_t *)(row + d * z->col_step) = z->coord[d] + z->base;
}

static inline void nz_advance(nz_extra *z)
{
    for (int d = z->ndim - 1; d >= 0; d--) {
        if (++z->coord[d] < z->sizes[d]) return;
        z->coord[d] = 0;
    }
}

/* How many of the 8 bytes at p are nonzero: a byte's high bit ends up set
 * iff the byte is nonzero (the low 7 bits carry into it, or it was set). */
static inline int64_t nz_bytes_set(const char *p)
{
    const uint64_t low7 = 0x7f7f7f7f7f7f7f7full;
    uint64_t w;
    memcpy(&w, p, sizeof w);
    return __builtin_popcountll((((w & low7) + low7) | w) & ~low7);
}

#define NZ_TEST(x)                                                                                 \
    _Generic((x),                                                                                  \
        st_c64: (crealf(x) != 0 || cimagf(x) != 0),                                                \
        st_c128: (creal(x) != 0 || cimag(x) != 0),                                                 \
        default: (x) != 0)
/* nonzero_<t>: the N-d odometer kernel (st_loop_fn, extra an nz_extra);
 * nzcount_<t>: nonzero elements of x[0..n); nzrows_<t>: 1-D rows. */
#define DEF_NZCOUNT_ISA(ISA, ATTR, SFX, T)                                                         \
    ATTR static int64_t nzcount_##SFX##ISA(const T *x, int64_t n)                                  \
    {                                                                                              \
        int64_t c = 0, k = 0;                                                                      \
        if (sizeof(T) == 1)                                                                        \
            for (; k + 8 <= n; k += 8) c += nz_bytes_set((const char *)(x + k));                   \
        for (; k < n; k++) c += NZ_TEST(x[k]) ? 1 : 0;                                             \
        return c;                                                                                  \
    }
#define DEF_NONZERO(CODE, SFX, T, R, ...)                                                          \
    static void nonzero_##SFX(char **args, const int64_t *np, const int64_t *s, void *extra)       \
    {                                                                                              \
        nz_extra *z = extra;                                                                       \
        char *row = z->row;                                                                        \
        int64_t left = z->left;                                                                    \
        for (int64_t k = 0; k < *np && left > 0; k++) {                                            \
            const T x = *(const T *)(args[0] + k * s[0]);                                          \
            const int64_t nz = NZ_TEST(x) ? 1 : 0;                                                 \
            nz_store(z, row);                                                                      \
            row += nz * z->row_step;                                                               \
            left -= nz;                                                                            \
            nz_advance(z);                                                                         \
        }                                                                                          \
        z->row = row;                                                                              \
        z->left = left;                                                                            \
    }                                                                                              \
    ST_LEVELS(DEF_NZCOUNT_ISA, SFX, T)                                                             \
    static int64_t nzcount_##SFX(const T *x, int64_t n) { return ST_PICK(nzcount_##SFX)(x, n); }   \
    static void nzrows_##SFX(const T *x, int64_t first, int64_t n, char *row, int64_t row_step,    \
                             int64_t left, int64_t base)                                           \
    {                                                                                              \
        int64_t k = 0;                                                                             \
        /* 8 elements at a time while more than 8 rows are free: no checks */                      \
        for (; k + 8 <= n && left > 8; k += 8) {                                                   \
            if (sizeof(T) == 1 && !nz_bytes_set((const char *)(x + k))) continue;                  \
            for (int i = 0; i < 8; i++) {                                                          \
                const int64_t nz = NZ_TEST(x[k + i]) ? 1 : 0;                                      \
                *(int64_t *)row = first + k + i + base;                                            \
                row += nz * row_step;                                                              \
                left -= nz;                                                                        \
            }                                                                                      \
        }                                                                                          \
        for (; k < n && left > 0; k++) {                                                           \
            const int64_t nz = NZ_TEST(x[k]) ? 1 : 0;                                              \
            *(int64_t *)row = first + k + base;                                                    \
            row += nz * row_step;                                                                  \
            left -= nz;                                                                            \
        }                                                                                          \
    }
ST_TYPES_ALL(DEF_NONZERO)

typedef struct {
    st_loop_fn loop;
    int64_t (*count)(const void *x, int64_t n);
    void (*rows)(const void *x, int64_t first, int64_t n, char *row, int64_t row_step, int64_t left,
                 int64_t base);
} nz_kernels;
#define NZ_ENTRY(CODE, SFX, T, R, ...)                                                             \
    [CODE] = {nonzero_##SFX, (int64_t (*)(const void *, int64_t))nzcount_##SFX,                    \
              (void (*)(const void *, int64_t, int64_t, char *, int64_t, int64_t,                  \
                        int64_t))nzrows_##SFX},
static const nz_kernels nz_table[ST_NTYPES] = {ST_TYPES_ALL(NZ_ENTRY)};

/* The contiguous path: block counts (cnt, nblocks + 1 entries, becomes
 * the blocks' first rows), then the rows. */
typedef struct {
    const nz_kernels *k;
    const char *data;
    int64_t itemsize, numel, nblocks;
    int64_t *first; /* [nblocks + 1] */
    int ndim;
    const int64_t *sizes;
    char *out;
    int64_t row_step, col_step, base;
} nz_job;

static void nz_count_blocks(nz_job *j, int64_t b0, int64_t b1)
{
    for (int64_t b = b0; b < b1; b++) {
        int64_t lo = b * NZ_BLOCK, n = j->numel - lo < NZ_BLOCK ? j->numel - lo : NZ_BLOCK;
        j->first[b + 1] = j->k->count(j->data + lo * j->itemsize, n);
    }
}

static void nz_write_blocks(const nz_job *j, int64_t b0, int64_t b1)
{
    for (int64_t b = b0; b < b1; b++) {
        int64_t lo = b * NZ_BLOCK, n = j->numel - lo < NZ_BLOCK ? j->numel - lo : NZ_BLOCK;
        int64_t left = j->first[b + 1] - j->first[b];
        if (left == 0) continue;
        char *row = j->out + j->first[b] * j->row_step;
        const char *x = j->data + lo * j->itemsize;
        if (j->ndim == 1) {
            j->k->rows(x, lo, n, row, j->row_step, left, j->base);
            continue;
        }
        nz_extra z = {.ndim = j->ndim,
                      .base = j->base,
                      .sizes = j->sizes,
                      .row = row,
                      .row_step = j->row_step,
                      .col_step = j->col_step,
                      .left = left};
        int64_t rem = lo;
        for (int d = j->ndim - 1; d >= 0; d--) {
            z.coord[d] = rem % j->sizes[d];
            rem /= j->sizes[d];
        }
        char *args[1] = {(char *)x};
        const int64_t steps[1] = {j->itemsize};
        j->k->loop(args, &n, steps, &z);
    }
}

/* Count (into *count) and write the coordinates of a contiguous input. */
static st_status nonzero_contiguous(st_tensor *out, const st_tensor *in, int flags,
                                    const nz_kernels *k, const char *name)
{
    nz_job j = {.k = k,
                .data = st_tensor_data(in),
                .itemsize = st_itemsize(in->dtype),
                .numel = st_tensor_numel(in),
                .ndim = in->ndim,
                .sizes = in->sizes,
                .base = idx_base(flags)};
    j.nblocks = (j.numel + NZ_BLOCK - 1) / NZ_BLOCK;
    j.first = malloc(sizeof(int64_t) * (size_t)(j.nblocks + 1));
    if (!j.first) return st_fail(ST_E_MEMORY, "%s: out of memory", name);
    int nt = st_threads_for(j.numel);
    if (nt > j.nblocks) nt = (int)j.nblocks;
    if (nt > 1) {
#pragma omp parallel for num_threads(nt) schedule(static, 1)
        for (int t = 0; t < nt; t++)
            nz_count_blocks(&j, j.nblocks * t / nt, j.nblocks * (t + 1) / nt);
    } else {
        nz_count_blocks(&j, 0, j.nblocks);
    }
    j.first[0] = 0;
    for (int64_t b = 0; b < j.nblocks; b++) j.first[b + 1] += j.first[b];
    int64_t want[2] = {j.first[j.nblocks], in->ndim};
    st_status rc = check_shape(out, 2, want, "output", name);
    if (!rc) {
        j.out = st_tensor_data(out);
        j.row_step = out->strides[0] * 8;
        j.col_step = out->strides[1] * 8;
        /* the threads split the rows, not the blocks: equal writing work */
        if (nt > 1) {
#pragma omp parallel for num_threads(nt) schedule(static, 1)
            for (int t = 0; t < nt; t++) {
                int64_t r0 = want[0] * t / nt, r1 = want[0] * (t + 1) / nt;
                /* blocks whose first row lies in [r0, r1) (empty blocks: anywhere) */
                int64_t b0 = 0, b1 = 0;
                while (b0 < j.nblocks && j.first[b0] < r0) b0++;
                b1 = b0;
                while (b1 < j.nblocks && (j.first[b1] < r1 || t == nt - 1)) b1++;
                nz_write_blocks(&j, b0, b1);
            }
        } else {
            nz_write_blocks(&j, 0, j.nblocks);
        }
    }
    free(j.first);
    return rc;
}

/* the 16-bit floats: their float32 values' (-0.0 is zero), half.c */
static st_status nonzero_count_f32(st_tensor **outs, const st_tensor **ins, void *count)
{
    (void)outs;
    return st_nonzero_count(ins[0], count);
}
static st_status nonzero_f32(st_tensor **outs, const st_tensor **ins, void *flags)
{
    return st_nonzero(outs[0], ins[0], *(int *)flags);
}

st_status st_nonzero_count(const st_tensor *in, int64_t *count)
{
    st_status rc;
    if (st_is_half(in->dtype)) return st_via_float32(nonzero_count_f32, count, 0, NULL, 1, &in);
    if ((rc = check_storage_as(in, "nonzero", "input"))) return rc;
    if (in->dtype < 0 || in->dtype >= ST_NTYPES || !nz_table[in->dtype].count)
        return st_fail(ST_E_TYPE, "nonzero is not defined for %s", st_dtype_name(in->dtype));
    if (!st_tensor_is_contiguous(in)) return st_count_nonzero(in, count);
    nz_job j = {.k = &nz_table[in->dtype],
                .data = st_tensor_data(in),
                .itemsize = st_itemsize(in->dtype),
                .numel = st_tensor_numel(in)};
    j.nblocks = (j.numel + NZ_BLOCK - 1) / NZ_BLOCK;
    int64_t sum = 0;
    int nt = st_threads_for(j.numel);
#pragma omp parallel for num_threads(nt > 1 ? nt : 1) reduction(+ : sum) schedule(static)
    for (int64_t b = 0; b < j.nblocks; b++) {
        int64_t lo = b * NZ_BLOCK, n = j.numel - lo < NZ_BLOCK ? j.numel - lo : NZ_BLOCK;
        sum += j.k->count(j.data + lo * j.itemsize, n);
    }
    *count = sum;
    return ST_OK;
}

st_status st_nonzero(st_tensor *out, const st_tensor *in, int flags)
{
    const char *name = "nonzero";
    st_status rc;
    if (st_is_half(in->dtype)) return st_via_float32(nonzero_f32, &flags, 1, &out, 1, &in);
    if ((rc = check_flags(flags, name))) return rc;
    if ((rc = st_check_dtype(out, ST_INT64, "nonzero output"))) return rc;
    if ((rc = check_writable_as(out, name, "output"))) return rc;
    if ((rc = check_storage_as(in, name, "input"))) return rc;
    if (in->dtype < 0 || in->dtype >= ST_NTYPES || !nz_table[in->dtype].loop)
        return st_fail(ST_E_TYPE, "%s is not defined for %s", name, st_dtype_name(in->dtype));
    const nz_kernels *k = &nz_table[in->dtype];
    const st_tensor *src = in;
    st_tensor *tsrc = NULL;
    if (in->ndim > 0 && st_tensor_is_contiguous(in) && st_tensor_numel(in) > 0) {
        rc = detach_from(out, &src, &tsrc);
        if (!rc) rc = nonzero_contiguous(out, src, flags, k, name);
        st_tensor_free(tsrc);
        return rc;
    }
    int64_t count;
    if ((rc = st_count_nonzero(in, &count))) return rc;
    int64_t want[2] = {count, in->ndim};
    if ((rc = check_shape(out, 2, want, "output", name))) return rc;
    if (count == 0 || in->ndim == 0) return ST_OK;
    rc = detach_from(out, &src, &tsrc);
    st_iter it;
    const st_tensor *ops[1] = {src};
    if (!rc) rc = st_iter_init(&it, 1, ops, ST_ITER_C_ORDER | ST_ITER_SERIAL);
    if (!rc) {
        nz_extra z = {.ndim = in->ndim,
                      .base = idx_base(flags),
                      .sizes = in->sizes,
                      .row = st_tensor_data(out),
                      .row_step = out->strides[0] * 8,
                      .col_step = out->strides[1] * 8,
                      .left = count};
        st_iter_run(&it, k->loop, &z, ST_ITER_C_ORDER | ST_ITER_SERIAL);
    }
    st_tensor_free(tsrc);
    return rc;
}
