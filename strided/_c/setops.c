/* setops.c -- the element work of the set functions (unique_*, isin) and
 * of searchsorted: runs of equal values in a sorted 1-D array, and binary
 * search of many needles in a sorted 1-D haystack.
 *
 * Order and equality.  "Sorted" means st_sort's ascending order
 * (ST_LT_<suffix> of st_internal.h: NaN after everything, complex by
 * (real, imag) with a NaN part after everything).  Equality is C's ==:
 * NaN equals nothing, so every NaN is a run of its own and is never
 * found; -0.0 equals +0.0; complex values are equal when both parts are.
 * Values that are == are also equal in the order (neither goes before the
 * other), so in a sorted array each set of equal values is one contiguous
 * run, and a binary search for v lands on the start of v's run.
 *
 * unique is three calls: st_sort (stable, with the permutation), then
 * st_run_starts (flags where runs begin, and counts them, so that the
 * caller can allocate outputs of that length), then st_unique_fill
 * (values, first indices, counts, inverse indices from the runs).  The
 * sort is stable, so the first element of a run is the value's first
 * occurrence in the input.
 *
 * Every size, dtype and index is checked before anything is read or
 * written: the permutation and the sorter are index arrays given from
 * outside, so each of their values is checked against its bound first.
 * The run and fill passes are O(n) walks split into chunks across threads
 * (a chunk starts from the number of runs begun before it); the searches
 * run under st_iter over (out, needles), split across threads like any
 * elementwise op. */
#include "st_internal.h"
#include <stdio.h>
#include <stdlib.h>

/* ---- checks ---------------------------------------------------------- */

/* t is a 1-D view (any stride) backed by storage; its length into *n. */
static st_status check_1d(const st_tensor *t, const char *name, const char *what, int64_t *n)
{
    *n = 0;
    if (!st_is_math_type(t->dtype))
        return st_fail(ST_E_TYPE, "%s: %s is %s, which has no kernel here", name, what,
                       st_dtype_name(t->dtype));
    if (t->ndim != 1)
        return st_fail(ST_E_VALUE, "%s: %s must be 1-D, got %d dims", name, what, t->ndim);
    char role[64];
    snprintf(role, sizeof role, "%s %s", name, what);
    st_status rc = st_check_storage(t, role);
    if (rc) return rc;
    *n = t->sizes[0];
    return ST_OK;
}

static st_status check_dtype_as(const st_tensor *t, int dtype, const char *name, const char *what)
{
    if (t->dtype != dtype)
        return st_fail(ST_E_TYPE, "%s: %s must be %s, got %s", name, what, st_dtype_name(dtype),
                       st_dtype_name(t->dtype));
    return ST_OK;
}

/* A 1-D output of `dtype` and exactly `len` elements, writable. */
static st_status check_out_1d(const st_tensor *t, int dtype, int64_t len, const char *name,
                              const char *what)
{
    int64_t n;
    st_status rc;
    if ((rc = check_dtype_as(t, dtype, name, what))) return rc;
    if ((rc = check_1d(t, name, what, &n))) return rc;
    if (n != len)
        return st_fail(ST_E_VALUE, "%s: %s has %lld elements, expected %lld", name, what,
                       (long long)n, (long long)len);
    char role[64];
    snprintf(role, sizeof role, "%s %s", name, what);
    return st_check_writable(t, role);
}

/* An output of `dtype` with exactly the shape of `like`, writable. */
static st_status check_out_like(const st_tensor *t, int dtype, const st_tensor *like,
                                const char *name, const char *what, const char *like_what)
{
    st_status rc;
    if ((rc = check_dtype_as(t, dtype, name, what))) return rc;
    int same = t->ndim == like->ndim;
    for (int d = 0; d < t->ndim && same; d++) same = t->sizes[d] == like->sizes[d];
    if (!same) {
        char want[256], got[256];
        st_shape_str(want, sizeof want, like->ndim, like->sizes);
        st_shape_str(got, sizeof got, t->ndim, t->sizes);
        return st_fail(ST_E_VALUE, "%s: %s has shape %s, expected %s's %s", name, what, got,
                       like_what, want);
    }
    char role[64];
    snprintf(role, sizeof role, "%s %s", name, what);
    return st_check_writable(t, role);
}

/* Outputs are written while inputs are still read (and out[i] of one
 * search while other needles are read), so no output may share memory
 * with an input or with another output.  NULL entries are skipped. */
static st_status check_apart(const st_tensor *const *outs, const char *const *out_names, int nout,
                             const st_tensor *const *ins, const char *const *in_names, int nin,
                             const char *name)
{
    for (int i = 0; i < nout; i++) {
        if (!outs[i]) continue;
        for (int j = 0; j < nin; j++)
            if (ins[j] && st_tensor_shares_memory(outs[i], ins[j]))
                return st_fail(ST_E_VALUE, "%s: %s shares memory with %s", name, out_names[i],
                               in_names[j]);
        for (int j = i + 1; j < nout; j++)
            if (outs[j] && st_tensor_shares_memory(outs[i], outs[j]))
                return st_fail(ST_E_VALUE, "%s: %s shares memory with %s", name, out_names[i],
                               out_names[j]);
    }
    return ST_OK;
}

/* Address of element i of a 1-D view (the view has storage when n > 0). */
static inline char *at_1d(const st_tensor *t, int64_t i)
{
    return (char *)st_tensor_data(t) + i * t->strides[0] * st_itemsize(t->dtype);
}

/* Every value of the 1-D int64 `idx` must lie in [0, bound): they are
 * about to be used as positions.  Names the first bad one. */
static st_status check_positions(const st_tensor *idx, int64_t bound, const char *name,
                                 const char *what)
{
    const int64_t n = idx->sizes[0];
    if (n == 0) return ST_OK;
    const char *p = at_1d(idx, 0);
    const int64_t step = idx->strides[0] * (int64_t)sizeof(int64_t);
    int bad = 0;
    for (int64_t i = 0; i < n; i++) {
        /* as unsigned, a negative value wraps to one above any bound */
        const uint64_t v = (uint64_t)*(const int64_t *)(p + i * step);
        bad |= v >= (uint64_t)bound;
    }
    if (!bad) return ST_OK;
    for (int64_t i = 0; i < n; i++) {
        const int64_t v = *(const int64_t *)(p + i * step);
        if (v < 0 || v >= bound)
            return st_fail_index(v, 0, bound, 0, "%s: %s[%lld] = %lld is out of range [0, %lld)",
                                 name, what, (long long)i, (long long)v, (long long)bound);
    }
    return ST_OK;
}

/* ---- chunks: the O(n) walks split across threads ----------------------
 * The walks over the sorted elements (flags, counts, fills) run on
 * SET_CHUNKS_PER_THREAD chunks per thread (a thread that is descheduled on
 * a busy machine leaves its chunks to the others); each chunk knows how
 * many runs begin before it from the counts of the chunks before it. */
#define SET_CHUNKS_PER_THREAD 4
#define SET_MAX_CHUNKS 256

static int set_chunks(int64_t n)
{
    int nt = st_threads_for(n);
    int nc = nt > 1 ? nt * SET_CHUNKS_PER_THREAD : 1;
    if (nc > SET_MAX_CHUNKS) nc = SET_MAX_CHUNKS;
    return nc;
}

static inline int64_t chunk_lo(int64_t n, int nc, int c) { return n * c / nc; }

/* ---- runs of equal values -------------------------------------------- */

/* starts[i] = (i == 0 || x[i] != x[i-1]) for i in [lo, hi); returns the
 * number of runs that begin there.  Contiguous values and flags (the
 * usual case: a fresh sort into fresh flags) take a loop GCC vectorises. */
#define DEF_RUNS(CODE, SFX, T, R, ...)                                                             \
    static int64_t runs_##SFX(const char *x, int64_t xstep, int64_t lo, int64_t hi, char *starts,  \
                              int64_t sstep)                                                       \
    {                                                                                              \
        int64_t count = 0;                                                                         \
        if (lo == 0 && hi > 0) {                                                                   \
            *(_Bool *)starts = 1;                                                                  \
            count = 1;                                                                             \
            lo = 1;                                                                                \
        }                                                                                          \
        if (xstep == sizeof(T) && sstep == 1) {                                                    \
            const T *v = (const T *)x;                                                             \
            _Bool *f = (_Bool *)starts;                                                            \
            for (int64_t i = lo; i < hi; i++) {                                                    \
                const _Bool start = !(v[i] == v[i - 1]);                                           \
                f[i] = start;                                                                      \
                count += start;                                                                    \
            }                                                                                      \
            return count;                                                                          \
        }                                                                                          \
        for (int64_t i = lo; i < hi; i++) {                                                        \
            const T v = *(const T *)(x + i * xstep), prev = *(const T *)(x + (i - 1) * xstep);     \
            const _Bool start = !(v == prev);                                                      \
            *(_Bool *)(starts + i * sstep) = start;                                                \
            count += start;                                                                        \
        }                                                                                          \
        return count;                                                                              \
    }
ST_TYPES_ALL(DEF_RUNS)

typedef int64_t (*runs_fn)(const char *, int64_t, int64_t, int64_t, char *, int64_t);
#define RUNS_ENTRY(CODE, SFX, ...) [CODE] = runs_##SFX,
static const runs_fn runs_loops[ST_NTYPES] = {ST_TYPES_ALL(RUNS_ENTRY)};

st_status st_run_starts(st_tensor *starts, const st_tensor *sorted, int64_t *count)
{
    static const char name[] = "run_starts";
    int64_t n;
    st_status rc;
    if ((rc = check_1d(sorted, name, "sorted", &n))) return rc;
    if ((rc = check_out_1d(starts, ST_BOOL, n, name, "starts"))) return rc;
    const st_tensor *outs[] = {starts};
    const st_tensor *ins[] = {sorted};
    const char *out_names[] = {"starts"}, *in_names[] = {"sorted"};
    if ((rc = check_apart(outs, out_names, 1, ins, in_names, 1, name))) return rc;
    *count = 0;
    if (n == 0) return ST_OK;
    const runs_fn runs = runs_loops[sorted->dtype];
    const char *x = at_1d(sorted, 0);
    char *f = at_1d(starts, 0);
    const int64_t xstep = sorted->strides[0] * st_itemsize(sorted->dtype),
                  sstep = starts->strides[0];
    const int nc = set_chunks(n);
    int64_t total = 0;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : total) if (nc > 1)
    for (int c = 0; c < nc; c++)
        total += runs(x, xstep, chunk_lo(n, nc, c), chunk_lo(n, nc, c + 1), f, sstep);
    *count = total;
    return ST_OK;
}

/* ---- from runs to unique values, first indices, counts, inverse ------ */

/* The flags set in each chunk (per[c]) and in all; the first flag must be
 * set (the first element always begins a run), or the run numbers would
 * start at -1 and index before the outputs. */
static st_status count_starts(const st_tensor *starts, int64_t n, int nc, int64_t *per,
                              const char *name, int64_t *count)
{
    *count = 0;
    if (n == 0) return ST_OK;
    const char *p = at_1d(starts, 0);
    const int64_t step = starts->strides[0];
    /* read as bytes: a bool byte other than 0 or 1 must not be undefined behaviour */
    if (!*(const uint8_t *)p)
        return st_fail(ST_E_VALUE,
                       "%s: starts[0] is not set, but the first element always "
                       "begins a run",
                       name);
    int64_t total = 0;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : total) if (nc > 1)
    for (int c = 0; c < nc; c++) {
        int64_t k = 0;
        for (int64_t i = chunk_lo(n, nc, c); i < chunk_lo(n, nc, c + 1); i++)
            k += *(const uint8_t *)(p + i * step) != 0;
        per[c] = k;
        total += k;
    }
    *count = total;
    return ST_OK;
}

typedef struct {
    int64_t n, itemsize;
    const char *x, *starts, *perm;
    int64_t xstep, sstep, pstep; /* bytes */
    char *values, *indices, *counts, *inverse;
    int64_t vstep, istep, cstep, invstep; /* bytes */
} fill_ctx;

/* What chunk [lo, hi) leaves of the counts to the fix-up: `head`
 * elements before its first flag continue the run in progress (all of
 * them when it has no flag); the last run it begins, `tail_run`, has
 * `tail` elements in it so far (-1: it begins none). */
typedef struct {
    int64_t head, tail, tail_run;
} fill_edge;

/* One chunk of the walk over the sorted elements; `r` is the number of
 * the run in progress at lo (the runs begun before it, minus one).  Values
 * move as unsigned integers of their size (no per-dtype code: a copy is a
 * copy), complex ones as two.  Values and first indices are stored at
 * every element, into their run's slot at a run's first element and into
 * a dummy otherwise: a pointer chosen without a branch, where a test of
 * the flag would mispredict at every run of unpredictable length. */
#define DEF_FILL(NAME, U, W)                                                                       \
    static void NAME(const fill_ctx *c, int64_t lo, int64_t hi, int64_t r, fill_edge *e)           \
    {                                                                                              \
        int64_t begin = -1;                                                                        \
        U dummy_v[W];                                                                              \
        int64_t dummy_i;                                                                           \
        e->head = hi - lo;                                                                         \
        e->tail_run = -1;                                                                          \
        for (int64_t i = lo; i < hi; i++) {                                                        \
            const _Bool f = *(const uint8_t *)(c->starts + i * c->sstep) != 0;                     \
            if (c->counts && f) {                                                                  \
                if (begin < 0)                                                                     \
                    e->head = i - lo;                                                              \
                else                                                                               \
                    *(int64_t *)(c->counts + r * c->cstep) = i - begin;                            \
                begin = i;                                                                         \
            }                                                                                      \
            r += f;                                                                                \
            if (c->values) {                                                                       \
                U *dst = f ? (U *)(c->values + r * c->vstep) : dummy_v;                            \
                const U *src = (const U *)(c->x + i * c->xstep);                                   \
                for (int w = 0; w < W; w++) dst[w] = src[w];                                       \
            }                                                                                      \
            if (c->indices || c->inverse) {                                                        \
                const int64_t at = *(const int64_t *)(c->perm + i * c->pstep);                     \
                if (c->indices) {                                                                  \
                    int64_t *dst = f ? (int64_t *)(c->indices + r * c->istep) : &dummy_i;          \
                    *dst = at;                                                                     \
                }                                                                                  \
                if (c->inverse) *(int64_t *)(c->inverse + at * c->invstep) = r;                    \
            }                                                                                      \
        }                                                                                          \
        if (!c->counts) { /* the edges only serve the counts */                                    \
            return;                                                                                \
        }                                                                                          \
        if (begin >= 0) {                                                                          \
            e->tail_run = r;                                                                       \
            e->tail = hi - begin;                                                                  \
        }                                                                                          \
        (void)dummy_v;                                                                             \
        (void)dummy_i;                                                                             \
    }
DEF_FILL(fill_chunk_1, uint8_t, 1)
DEF_FILL(fill_chunk_2, uint16_t, 1)
DEF_FILL(fill_chunk_4, uint32_t, 1)
DEF_FILL(fill_chunk_8, uint64_t, 1)
DEF_FILL(fill_chunk_16, uint64_t, 2)

typedef void (*fill_fn)(const fill_ctx *, int64_t, int64_t, int64_t, fill_edge *);

static fill_fn fill_for(int64_t itemsize)
{
    switch (itemsize) {
    case 1:
        return fill_chunk_1;
    case 2:
        return fill_chunk_2;
    case 4:
        return fill_chunk_4;
    case 8:
        return fill_chunk_8;
    default:
        return fill_chunk_16;
    }
}

st_status st_unique_fill(st_tensor *values, st_tensor *indices, st_tensor *counts,
                         st_tensor *inverse, const st_tensor *sorted, const st_tensor *perm,
                         const st_tensor *starts)
{
    static const char name[] = "unique";
    int64_t n, ns, np, count;
    st_status rc;
    if ((rc = check_1d(sorted, name, "sorted", &n))) return rc;
    if ((rc = check_dtype_as(starts, ST_BOOL, name, "starts"))) return rc;
    if ((rc = check_1d(starts, name, "starts", &ns))) return rc;
    if (ns != n)
        return st_fail(ST_E_VALUE, "%s: starts has %lld elements but sorted %lld", name,
                       (long long)ns, (long long)n);
    if ((indices || inverse) && !perm)
        return st_fail(ST_E_VALUE, "%s: indices and inverse need the permutation perm", name);
    if (perm) {
        if ((rc = check_dtype_as(perm, ST_INT64, name, "perm"))) return rc;
        if ((rc = check_1d(perm, name, "perm", &np))) return rc;
        if (np != n)
            return st_fail(ST_E_VALUE, "%s: perm has %lld elements but sorted %lld", name,
                           (long long)np, (long long)n);
    }
    const int nc = set_chunks(n);
    int64_t per[SET_MAX_CHUNKS];
    if ((rc = count_starts(starts, n, nc, per, name, &count))) return rc;
    if (values && (rc = check_out_1d(values, sorted->dtype, count, name, "values"))) return rc;
    if (indices && (rc = check_out_1d(indices, ST_INT64, count, name, "indices"))) return rc;
    if (counts && (rc = check_out_1d(counts, ST_INT64, count, name, "counts"))) return rc;
    if (inverse && (rc = check_out_1d(inverse, ST_INT64, n, name, "inverse"))) return rc;
    const st_tensor *outs[] = {values, indices, counts, inverse};
    const char *out_names[] = {"values", "indices", "counts", "inverse"};
    const st_tensor *ins[] = {sorted, perm, starts};
    const char *in_names[] = {"sorted", "perm", "starts"};
    if ((rc = check_apart(outs, out_names, 4, ins, in_names, 3, name))) return rc;
    /* inverse is written at perm's values: each must be a position of it */
    if (inverse && (rc = check_positions(perm, n, name, "perm"))) return rc;
    if (n == 0) return ST_OK;

    const int64_t item = st_itemsize(sorted->dtype);
    /* clang-format off */
    fill_ctx c = {
        .n = n, .itemsize = item,
        .x = at_1d(sorted, 0), .xstep = sorted->strides[0] * item,
        .starts = at_1d(starts, 0), .sstep = starts->strides[0],
        .perm = perm ? at_1d(perm, 0) : NULL, .pstep = perm ? perm->strides[0] * 8 : 0,
        .values = values ? at_1d(values, 0) : NULL, .vstep = values ? values->strides[0] * item : 0,
        .indices = indices ? at_1d(indices, 0) : NULL, .istep = indices ? indices->strides[0] * 8 : 0,
        .counts = counts ? at_1d(counts, 0) : NULL, .cstep = counts ? counts->strides[0] * 8 : 0,
        .inverse = inverse ? at_1d(inverse, 0) : NULL,
        .invstep = inverse ? inverse->strides[0] * 8 : 0,
    };
    /* clang-format on */
    int64_t before[SET_MAX_CHUNKS]; /* runs begun before chunk c */
    fill_edge edge[SET_MAX_CHUNKS];
    int64_t acc = 0;
    for (int k = 0; k < nc; k++) {
        before[k] = acc;
        acc += per[k];
    }
    const fill_fn fill = fill_for(item);
#pragma omp parallel for schedule(dynamic, 1) if (nc > 1)
    for (int k = 0; k < nc; k++)
        fill(&c, chunk_lo(n, nc, k), chunk_lo(n, nc, k + 1), before[k] - 1, &edge[k]);
    /* the count of each chunk's last run: its elements there, and the heads
     * of the chunks after it up to and including the next one that begins
     * a run */
    if (c.counts)
        for (int k = 0; k < nc; k++) {
            if (edge[k].tail_run < 0) continue;
            int64_t total = edge[k].tail;
            for (int j = k + 1; j < nc; j++) {
                total += edge[j].head;
                if (edge[j].tail_run >= 0) break;
            }
            *(int64_t *)(c.counts + edge[k].tail_run * c.cstep) = total;
        }
    return ST_OK;
}

/* ---- binary search ---------------------------------------------------- */

typedef struct {
    const char *base; /* haystack element 0 */
    int64_t step;     /* haystack byte step */
    int64_t n;
    const char *sorter;  /* NULL, or int64 positions: element i is base[sorter[i]] */
    int64_t sorter_step; /* bytes */
    int right, invert;
} search_ctx;

/* Per type: the i-th haystack element in sorted order; the number of
 * elements before v (lower bound: x[i-1] < v <= x[i]) and not after v
 * (upper bound: x[i-1] <= v < x[i]), both in the order of sort; then the
 * loops for searchsorted (int64 out) and isin (bool out: v found at its
 * lower bound and == to it).
 *
 * The searches are branch-free halvings: the answer lies in
 * [base, base + len]; each step looks at x[base + half] and moves base up
 * by half or not (a conditional move), so no step costs a mispredicted
 * branch; every index read is below base + len <= n.  The haystack is
 * usually larger than the caches and each step of one search waits for the
 * load of the step before, so SEARCH_GROUP needles are searched together,
 * step by step: len is the same for all of them, and their loads of one
 * step are independent, so the memory system serves them at once instead
 * of one after the other (on 10^6 needles in 10^6 doubles, 5-8x faster
 * than one needle at a time).  The loops copy the context into a local:
 * the stores to out could otherwise alias it and force reloads. */
#define SEARCH_GROUP 16

#define DEF_SEARCH(CODE, SFX, T, R, ...)                                                           \
    static inline T elem_##SFX(const search_ctx *c, int64_t i)                                     \
    {                                                                                              \
        const int64_t k = c->sorter ? *(const int64_t *)(c->sorter + i * c->sorter_step) : i;      \
        return *(const T *)(c->base + k * c->step);                                                \
    }                                                                                              \
    /* e goes before v: e < v for the left bound, !(v < e) for the right */                        \
    static inline _Bool before_##SFX(T e, T v, _Bool right)                                        \
    {                                                                                              \
        return right ? !ST_LT_##SFX(v, e) : ST_LT_##SFX(e, v);                                     \
    }                                                                                              \
    /* pos[j] = the bound of v[j], j < g; inlined with g a constant for whole  */                  \
    /* groups, and with sorted's own order or a sorter's (no test per load) */                     \
    __attribute__((always_inline)) static inline void bounds_##SFX(                                \
        const search_ctx *c, const T *v, const int g, const _Bool right, const _Bool indirect,     \
        int64_t *pos)                                                                              \
    {                                                                                              \
        const char *base = c->base, *srt = c->sorter;                                              \
        const int64_t step = c->step, sstep = c->sorter_step;                                      \
        _Pragma("GCC unroll 16")                                                                   \
        for (int j = 0; j < g; j++) pos[j] = 0;                                                    \
        if (c->n == 0) return;                                                                     \
        int64_t len = c->n;                                                                        \
        while (len > 1) {                                                                          \
            const int64_t half = len / 2;                                                          \
            _Pragma("GCC unroll 16")                                                               \
            for (int j = 0; j < g; j++) {                                                          \
                const int64_t i = pos[j] + half;                                                   \
                const int64_t k = indirect ? *(const int64_t *)(srt + i * sstep) : i;              \
                const T e = *(const T *)(base + k * step);                                         \
                /* a mask, not a choice: GCC turns a ?: of a float compare into */                 \
                /* a branch, which mispredicts half the time and serialises */                     \
                pos[j] += half & -(int64_t)before_##SFX(e, v[j], right);                           \
            }                                                                                      \
            len -= half;                                                                           \
        }                                                                                          \
        for (int j = 0; j < g; j++) pos[j] += before_##SFX(elem_##SFX(c, pos[j]), v[j], right);    \
    }                                                                                              \
    static void bounds_any_##SFX(const search_ctx *c, const T *v, int g, _Bool right,              \
                                 int64_t *pos)                                                     \
    {                                                                                              \
        if (g == SEARCH_GROUP) {                                                                   \
            if (c->sorter)                                                                         \
                bounds_##SFX(c, v, SEARCH_GROUP, right, 1, pos);                                   \
            else if (right)                                                                        \
                bounds_##SFX(c, v, SEARCH_GROUP, 1, 0, pos);                                       \
            else                                                                                   \
                bounds_##SFX(c, v, SEARCH_GROUP, 0, 0, pos);                                       \
        } else {                                                                                   \
            bounds_##SFX(c, v, g, right, c->sorter != NULL, pos);                                  \
        }                                                                                          \
    }                                                                                              \
    static void search_##SFX(char **args_, const int64_t *np, const int64_t *s_, void *extra)      \
    {                                                                                              \
        ST_LOCAL_ARGS(2)                                                                           \
        const search_ctx c = *(const search_ctx *)extra;                                           \
        const int64_t n = *np;                                                                     \
        T v[SEARCH_GROUP];                                                                         \
        int64_t pos[SEARCH_GROUP];                                                                 \
        for (int64_t k0 = 0; k0 < n; k0 += SEARCH_GROUP) {                                         \
            const int g = n - k0 < SEARCH_GROUP ? (int)(n - k0) : SEARCH_GROUP;                    \
            for (int j = 0; j < g; j++) v[j] = *(const T *)(args[1] + (k0 + j) * s[1]);            \
            bounds_any_##SFX(&c, v, g, c.right, pos);                                              \
            for (int j = 0; j < g; j++) *(int64_t *)(args[0] + (k0 + j) * s[0]) = pos[j];          \
        }                                                                                          \
    }                                                                                              \
    static void isin_##SFX(char **args_, const int64_t *np, const int64_t *s_, void *extra)        \
    {                                                                                              \
        ST_LOCAL_ARGS(2)                                                                           \
        const search_ctx c = *(const search_ctx *)extra;                                           \
        const int64_t n = *np;                                                                     \
        T v[SEARCH_GROUP];                                                                         \
        int64_t pos[SEARCH_GROUP];                                                                 \
        for (int64_t k0 = 0; k0 < n; k0 += SEARCH_GROUP) {                                         \
            const int g = n - k0 < SEARCH_GROUP ? (int)(n - k0) : SEARCH_GROUP;                    \
            for (int j = 0; j < g; j++) v[j] = *(const T *)(args[1] + (k0 + j) * s[1]);            \
            bounds_any_##SFX(&c, v, g, 0, pos);                                                    \
            for (int j = 0; j < g; j++) {                                                          \
                const _Bool found = pos[j] < c.n && elem_##SFX(&c, pos[j]) == v[j];                \
                *(_Bool *)(args[0] + (k0 + j) * s[0]) = found != c.invert;                         \
            }                                                                                      \
        }                                                                                          \
    }
ST_TYPES_ALL(DEF_SEARCH)

#define SEARCH_ENTRY(CODE, SFX, ...) [CODE] = search_##SFX,
#define ISIN_ENTRY(CODE, SFX, ...) [CODE] = isin_##SFX,
static const st_loop_fn search_loops[ST_NTYPES] = {ST_TYPES_ALL(SEARCH_ENTRY)};
static const st_loop_fn isin_loops[ST_NTYPES] = {ST_TYPES_ALL(ISIN_ENTRY)};

/* Checks shared by searchsorted and isin: a 1-D haystack, needles of its
 * dtype, out of `out_dtype` and needles' shape, nothing shared. */
static st_status check_search(const st_tensor *out, int out_dtype, const st_tensor *sorted,
                              const st_tensor *sorter, const st_tensor *needles, const char *name,
                              int64_t *n)
{
    st_status rc;
    char role[64];
    if ((rc = check_1d(sorted, name, "sorted", n))) return rc;
    if (needles->dtype != sorted->dtype)
        return st_fail(ST_E_TYPE, "%s: needles are %s but sorted is %s", name,
                       needles->dtype >= 0 && needles->dtype < ST_NTYPES
                           ? st_dtype_name(needles->dtype)
                           : "of an unknown dtype",
                       st_dtype_name(sorted->dtype));
    snprintf(role, sizeof role, "%s needles", name);
    if ((rc = st_check_storage(needles, role))) return rc;
    if ((rc = check_out_like(out, out_dtype, needles, name, "out", "needles"))) return rc;
    const st_tensor *outs[] = {out};
    const char *out_names[] = {"out"};
    const st_tensor *ins[] = {sorted, sorter, needles};
    const char *in_names[] = {"sorted", "sorter", "needles"};
    return check_apart(outs, out_names, 1, ins, in_names, 3, name);
}

static search_ctx search_over(const st_tensor *sorted, int64_t n)
{
    search_ctx c = {0};
    c.n = n;
    if (n > 0) {
        c.base = at_1d(sorted, 0);
        c.step = sorted->strides[0] * st_itemsize(sorted->dtype);
    }
    return c;
}

static st_status run_search(st_tensor *out, const st_tensor *needles, st_loop_fn loop,
                            search_ctx *c)
{
    if (st_tensor_numel(needles) == 0) return ST_OK;
    st_iter it;
    const st_tensor *ops[2] = {out, needles};
    st_status rc = st_iter_init(&it, 2, ops, 0);
    if (rc) return rc;
    st_iter_run(&it, loop, c, 0);
    return ST_OK;
}

st_status st_searchsorted(st_tensor *out, const st_tensor *sorted, const st_tensor *sorter,
                          const st_tensor *needles, int right)
{
    static const char name[] = "searchsorted";
    int64_t n, ns = 0;
    st_status rc;
    if (sorter) {
        if ((rc = check_dtype_as(sorter, ST_INT64, name, "sorter"))) return rc;
        if ((rc = check_1d(sorter, name, "sorter", &ns))) return rc;
    }
    if ((rc = check_search(out, ST_INT64, sorted, sorter, needles, name, &n))) return rc;
    if (sorter) {
        if (ns != n)
            return st_fail(ST_E_VALUE, "%s: sorter has %lld elements but sorted %lld", name,
                           (long long)ns, (long long)n);
        if ((rc = check_positions(sorter, n, name, "sorter"))) return rc;
    }
    search_ctx c = search_over(sorted, n);
    c.right = right != 0;
    if (sorter && n > 0) {
        c.sorter = at_1d(sorter, 0);
        c.sorter_step = sorter->strides[0] * (int64_t)sizeof(int64_t);
    }
    return run_search(out, needles, search_loops[sorted->dtype], &c);
}

st_status st_isin(st_tensor *out, const st_tensor *needles, const st_tensor *sorted, int invert)
{
    static const char name[] = "isin";
    int64_t n;
    st_status rc;
    if ((rc = check_search(out, ST_BOOL, sorted, NULL, needles, name, &n))) return rc;
    search_ctx c = search_over(sorted, n);
    c.invert = invert != 0;
    return run_search(out, needles, isin_loops[sorted->dtype], &c);
}

/* ---- unique of integers over a small span --------------------------
 * Integers whose values span fewer numbers than there are elements (or
 * than UNIQUE_SPAN_MIN; class labels: scikit-learn calls unique_* several
 * times per metric) are counted instead of sorted: one pass for the span,
 * one that counts each value (and notes its first position), a walk of the
 * counts in value order, and for the inverse a pass that looks each
 * element's rank up.  The results are the sorted path's exactly: ascending
 * values, each value's first position, its count, each element's value
 * number. */
#define UNIQUE_SPAN_MIN 4096          /* a span this small is counted at any n */
#define UNIQUE_SPAN_MAX_ABS (1 << 22) /* a wider one never is (32 MiB of counts) */

typedef struct {
    /* [lo, hi] of n elements one step (bytes) apart; 0 when a value does
     * not fit int64 (uint64 above INT64_MAX) */
    int (*span)(const char *x, int64_t step, int64_t n, int64_t *lo, int64_t *hi);
    /* count[v - lo] += 1 for each element v; first[v - lo] its first position */
    void (*tally)(const char *x, int64_t step, int64_t n, int64_t lo, int64_t *count,
                  int64_t *first);
    /* inv[i] = rank[x[i] - lo] */
    void (*rank)(const char *x, int64_t step, int64_t n, int64_t lo, const int64_t *rank,
                 int64_t *inv);
    void (*put)(char *dst, int64_t v); /* *dst = v, in the type */
} span_ops;

#define DEF_SPAN(CODE, SFX, T, R, ...)                                                             \
    static int span_##SFX(const char *x, int64_t step, int64_t n, int64_t *lo, int64_t *hi)        \
    {                                                                                              \
        T mn = *(const T *)x, mx = mn;                                                             \
        for (int64_t i = 1; i < n; i++) {                                                          \
            const T v = *(const T *)(x + i * step);                                                \
            mn = v < mn ? v : mn;                                                                  \
            mx = v > mx ? v : mx;                                                                  \
        }                                                                                          \
        if ((T) - 1 > 0 && ((uint64_t)mx >> 63)) return 0; /* unsigned, past int64 */              \
        *lo = (int64_t)mn, *hi = (int64_t)mx;                                                      \
        return 1;                                                                                  \
    }                                                                                              \
    static void tally_##SFX(const char *x, int64_t step, int64_t n, int64_t lo, int64_t *count,    \
                            int64_t *first)                                                        \
    {                                                                                              \
        for (int64_t i = 0; i < n; i++) {                                                          \
            const int64_t v = (int64_t)*(const T *)(x + i * step) - lo;                            \
            if (first && !count[v]) first[v] = i;                                                  \
            count[v]++;                                                                            \
        }                                                                                          \
    }                                                                                              \
    static void rank_##SFX(const char *x, int64_t step, int64_t n, int64_t lo,                     \
                           const int64_t *rank, int64_t *inv)                                      \
    {                                                                                              \
        for (int64_t i = 0; i < n; i++) inv[i] = rank[(int64_t)*(const T *)(x + i * step) - lo];   \
    }                                                                                              \
    static void put_##SFX(char *dst, int64_t v) { *(T *)dst = (T)v; }
ST_TYPES_INT(DEF_SPAN)

static int span_ops_for(int dtype, span_ops *ops)
{
    switch (dtype) {
#define CASE_SPAN(CODE, SFX, T, R, ...)                                                            \
    case CODE:                                                                                     \
        *ops = (span_ops){span_##SFX, tally_##SFX, rank_##SFX, put_##SFX};                         \
        return 1;
        ST_TYPES_INT(CASE_SPAN)
#undef CASE_SPAN
    default:
        return 0;
    }
}

int st_unique_small_span(const st_tensor *x, st_tensor *values, st_tensor *indices,
                         st_tensor *inverse, st_tensor *counts)
{
    const char *name = "unique";
    span_ops ops;
    int64_t n, lo, hi;
    if (!values || !span_ops_for(x->dtype, &ops)) return 0;
    if (check_1d(x, name, "input", &n)) return -1;
    if (n == 0) return 0;
    const int64_t item = st_itemsize(x->dtype), step = x->strides[0] * item;
    const char *p = at_1d(x, 0);
    /* the counts pass beats a sort while the counts are no more than the
     * elements (or a few pages) */
    const int64_t span_max = n > UNIQUE_SPAN_MIN ? n : UNIQUE_SPAN_MIN;
    if (!ops.span(p, step, n, &lo, &hi)) return 0;
    const uint64_t width = (uint64_t)hi - (uint64_t)lo; /* hi >= lo: exact, never overflows */
    if (width >= (uint64_t)span_max || width >= UNIQUE_SPAN_MAX_ABS) return 0;
    const int64_t span = hi - lo + 1;
    int64_t *count = calloc((size_t)span, sizeof(int64_t));
    int64_t *first = indices ? malloc((size_t)span * sizeof(int64_t)) : NULL;
    st_status rc = ST_OK;
    if (!count || (indices && !first)) {
        rc = st_fail(ST_E_MEMORY, "%s: cannot allocate %lld counts", name, (long long)span);
        goto done;
    }
    ops.tally(p, step, n, lo, count, first);
    int64_t k = 0;
    for (int64_t v = 0; v < span; v++) k += count[v] != 0;
    if ((rc = st_tensor_alloc(values, x->dtype, 1, &k))) goto done;
    if (indices && (rc = st_tensor_alloc(indices, ST_INT64, 1, &k))) goto done;
    if (counts && (rc = st_tensor_alloc(counts, ST_INT64, 1, &k))) goto done;
    if (inverse && (rc = st_tensor_alloc(inverse, ST_INT64, 1, &n))) goto done;
    char *val = st_tensor_data(values);
    int64_t *idx = indices ? st_tensor_data(indices) : NULL;
    int64_t *cnt = counts ? st_tensor_data(counts) : NULL;
    /* in value order; count[v] becomes v's rank, for the inverse */
    for (int64_t v = 0, r = 0; v < span; v++) {
        if (!count[v]) continue;
        ops.put(val + r * item, lo + v);
        if (idx) idx[r] = first[v];
        if (cnt) cnt[r] = count[v];
        count[v] = r++;
    }
    if (inverse) ops.rank(p, step, n, lo, count, st_tensor_data(inverse));
done:
    free(count);
    free(first);
    return rc ? -1 : 1;
}
