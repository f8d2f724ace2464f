/* sort.c -- stable sort along one dim, with the permutation.
 *
 * Every lane is read into a scratch buffer of (value, position) records,
 * sorted there and written back, so the input may be the values output
 * itself (x.sort() in place): a lane is read whole before it is written.
 * Lanes run in parallel, each with its own scratch: small lanes on the
 * stack, larger ones from a pool of one buffer per thread, claimed per lane.
 *
 * Order (decided once, in st_internal.h: ST_LT_<suffix>):
 *   ascending:  x before y iff x < y; NaN after everything, NaNs equal;
 *               complex compares (real, imag) lexicographically and a NaN
 *               in either part puts it after everything.
 *   descending: the exact reverse among unequal values (NaN first).
 *   Equal values (0.0 and -0.0 included) keep their input order both ways.
 *
 * Two algorithms give that one order:
 *   - a bottom-up merge sort (insertion-sorted runs, then ping-pong merges),
 *     generated for every dtype: O(n log n), stable by construction;
 *   - an LSD radix sort, for bool, integers and floats in long lanes: the
 *     value maps to an unsigned key of its width whose order is the order
 *     above (NaN to the largest key, -0.0 to +0.0's key; descending flips
 *     every bit), one counting pass per byte, skipping bytes every key
 *     shares.  LSD passes are stable, so equal keys keep input order; the
 *     values are then read back by position from a copy of the lane. */
#include "st_internal.h"
#include <stdio.h>
#include <stdlib.h>

#define SORT_RUN 16            /* insertion-sorted run length */
#define RADIX_MIN 128          /* lanes at least this long use the radix sort */
#define SMALL_SCRATCH 8192     /* lane scratch up to this many bytes: on the stack */

struct sort_ctx;
typedef void (*sort_kernel)(char **p, const struct sort_ctx *c, char *buf);

typedef struct sort_ctx {
    int64_t n;                         /* lane length */
    int64_t in_step, v_step, i_step;   /* bytes */
    int vslot, islot;                  /* lane operand of values / indices, -1: none */
    int64_t base;                      /* added to written positions (0 or 1) */
    int desc;
    sort_kernel kernel;
    int64_t scratch;                   /* bytes per lane */
    int nbuf;                          /* pool: one buffer per thread */
    char **bufs;
    int *busy;
    int failed;
} sort_ctx;

/* record order: ascending (st_internal.h's ST_LT_<suffix>, shared with the
 * searches of setops.c so that searchsorted agrees with sort), or its reverse */
#define ASC(LT, x, y) LT((x).v, (y).v)
#define DESC(LT, x, y) LT((y).v, (x).v)

/* ---- merge sort: sorts a[0..n) using b[0..n) as scratch ---- */
#define DEF_MSORT(NAME, R, ORD, LT)                                                   \
    static void NAME(R *a, R *b, int64_t n)                                           \
    {                                                                                 \
        for (int64_t lo = 0; lo < n; lo += SORT_RUN) {                                \
            int64_t hi = lo + SORT_RUN < n ? lo + SORT_RUN : n;                       \
            for (int64_t i = lo + 1; i < hi; i++) {                                   \
                R x = a[i];                                                           \
                int64_t j = i;                                                        \
                while (j > lo && ORD(LT, x, a[j - 1])) {                              \
                    a[j] = a[j - 1];                                                  \
                    j--;                                                              \
                }                                                                     \
                a[j] = x;                                                             \
            }                                                                         \
        }                                                                             \
        R *src = a, *dst = b;                                                         \
        for (int64_t w = SORT_RUN; w < n; w *= 2) {                                   \
            for (int64_t lo = 0; lo < n; lo += 2 * w) {                               \
                int64_t mid = lo + w < n ? lo + w : n;                                \
                int64_t hi = lo + 2 * w < n ? lo + 2 * w : n;                         \
                if (mid == hi || !ORD(LT, src[mid], src[mid - 1])) {                  \
                    memcpy(dst + lo, src + lo, (size_t)(hi - lo) * sizeof(R));        \
                    continue;                                                         \
                }                                                                     \
                const R *pi = src + lo, *pj = src + mid;                              \
                const R *const ei = src + mid, *const ej = src + hi;                  \
                R *pk = dst + lo;                                                     \
                while (pi < ei && pj < ej) {                                          \
                    /* the right run goes first only when strictly before */          \
                    int right = ORD(LT, *pj, *pi);                                    \
                    *pk++ = *(right ? pj : pi);                                       \
                    pj += right;                                                      \
                    pi += !right;                                                     \
                }                                                                     \
                if (pi < ei) memcpy(pk, pi, (size_t)(ei - pi) * sizeof(R));           \
                if (pj < ej) memcpy(pk, pj, (size_t)(ej - pj) * sizeof(R));           \
            }                                                                         \
            R *t = src;                                                               \
            src = dst;                                                                \
            dst = t;                                                                  \
        }                                                                             \
        if (src != a) memcpy(a, src, (size_t)n * sizeof(R));                          \
    }

/* one lane: read into records, sort, write values and positions */
#define DEF_MSORT_LANE(CODE, SFX, T, R, ...)                                          \
    typedef struct { T v; int64_t i; } rec_##SFX;                                     \
    DEF_MSORT(msort_asc_##SFX, rec_##SFX, ASC, ST_LT_##SFX)                           \
    DEF_MSORT(msort_desc_##SFX, rec_##SFX, DESC, ST_LT_##SFX)                         \
    static void msort_lane_##SFX(char **p, const sort_ctx *c, char *buf)              \
    {                                                                                 \
        const int64_t n = c->n;                                                       \
        rec_##SFX *a = (rec_##SFX *)buf, *b = a + n;                                  \
        for (int64_t j = 0; j < n; j++) {                                             \
            a[j].v = *(const T *)(p[0] + j * c->in_step);                             \
            a[j].i = j;                                                               \
        }                                                                             \
        if (c->desc)                                                                  \
            msort_desc_##SFX(a, b, n);                                                \
        else                                                                          \
            msort_asc_##SFX(a, b, n);                                                 \
        if (c->vslot >= 0)                                                            \
            for (int64_t j = 0; j < n; j++) *(T *)(p[c->vslot] + j * c->v_step) = a[j].v; \
        if (c->islot >= 0)                                                            \
            for (int64_t j = 0; j < n; j++)                                           \
                *(int64_t *)(p[c->islot] + j * c->i_step) = a[j].i + c->base;         \
    }
ST_TYPES_ALL(DEF_MSORT_LANE)

/* ---- radix sort ---- */
typedef struct { uint64_t k; int64_t i; } krec;
#define RADIX_HIST (8 * 256)

/* Order-preserving keys of each type's width (the sort reads only that
 * many bytes).  Floats: NaN is the largest key; x + 0 turns -0.0 into +0.0. */
static inline uint64_t key_f64(double x)
{
    if (x != x) return UINT64_MAX;
    x = x + 0.0;
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return (u >> 63) ? ~u : u | ((uint64_t)1 << 63);
}
static inline uint64_t key_f32(float x)
{
    if (x != x) return UINT32_MAX;
    x = x + 0.0f;
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return (u >> 31) ? (uint32_t)~u : u | ((uint32_t)1 << 31);
}
#define KEY_bool_(x) ((uint64_t)((x) != 0))
#define KEY_int8(x) ((uint64_t)(uint8_t)((uint8_t)(x) ^ 0x80u))
#define KEY_int16(x) ((uint64_t)(uint16_t)((uint16_t)(x) ^ 0x8000u))
#define KEY_int32(x) ((uint64_t)((uint32_t)(x) ^ 0x80000000u))
#define KEY_int64(x) ((uint64_t)(x) ^ ((uint64_t)1 << 63))
#define KEY_uint8(x) ((uint64_t)(x))
#define KEY_uint16(x) ((uint64_t)(x))
#define KEY_uint32(x) ((uint64_t)(x))
#define KEY_uint64(x) ((uint64_t)(x))
#define KEY_float32(x) key_f32(x)
#define KEY_float64(x) key_f64(x)

/* Stable LSD sort of a[0..n) by the low `nbytes` bytes of the keys, b the
 * scratch; returns the array holding the result. */
static krec *radix_sort(krec *a, krec *b, int64_t n, int nbytes, int64_t *hist)
{
    memset(hist, 0, sizeof(int64_t) * 256 * (size_t)nbytes);
    for (int64_t i = 0; i < n; i++) {
        uint64_t k = a[i].k;
        for (int d = 0; d < nbytes; d++) hist[d * 256 + ((k >> (8 * d)) & 255)]++;
    }
    krec *src = a, *dst = b;
    for (int d = 0; d < nbytes; d++) {
        int64_t *h = hist + d * 256;
        int trivial = 0;
        for (int v = 0; v < 256 && !trivial; v++) trivial = h[v] == n;
        if (trivial) continue;   /* every key has the same byte here */
        int64_t sum = 0;
        for (int v = 0; v < 256; v++) {
            int64_t c = h[v];
            h[v] = sum;
            sum += c;
        }
        const int shift = 8 * d;
        for (int64_t i = 0; i < n; i++) {
            krec r = src[i];
            dst[h[(r.k >> shift) & 255]++] = r;
        }
        krec *t = src;
        src = dst;
        dst = t;
    }
    return src;
}

/* scratch: a[n], b[n], hist, then a copy of the lane when values are wanted */
#define DEF_RSORT_LANE(CODE, SFX, T, R, ...)                                          \
    static void rsort_lane_##SFX(char **p, const sort_ctx *c, char *buf)              \
    {                                                                                 \
        const int64_t n = c->n;                                                       \
        krec *a = (krec *)buf, *b = a + n;                                            \
        int64_t *hist = (int64_t *)(b + n);                                           \
        T *orig = (T *)(hist + RADIX_HIST);                                           \
        const uint64_t flip = c->desc ? ~(uint64_t)0 : 0;                             \
        const int keep = c->vslot >= 0;                                               \
        for (int64_t j = 0; j < n; j++) {                                             \
            const T x = *(const T *)(p[0] + j * c->in_step);                          \
            a[j].k = KEY_##SFX(x) ^ flip;                                             \
            a[j].i = j;                                                               \
            if (keep) orig[j] = x;                                                    \
        }                                                                             \
        const krec *r = radix_sort(a, b, n, (int)sizeof(T), hist);                    \
        if (keep)                                                                     \
            for (int64_t j = 0; j < n; j++)                                           \
                *(T *)(p[c->vslot] + j * c->v_step) = orig[r[j].i];                   \
        if (c->islot >= 0)                                                            \
            for (int64_t j = 0; j < n; j++)                                           \
                *(int64_t *)(p[c->islot] + j * c->i_step) = r[j].i + c->base;         \
    }
ST_TYPES_BOOL(DEF_RSORT_LANE)
ST_TYPES_REAL(DEF_RSORT_LANE)

/* ---- the lane function: scratch, then the kernel ---- */
static char *claim_scratch(const sort_ctx *c, int *slot)
{
    for (int s = 0; s < c->nbuf; s++) {
        int expect = 0;
        if (__atomic_compare_exchange_n(&c->busy[s], &expect, 1, 0, __ATOMIC_ACQUIRE,
                                        __ATOMIC_RELAXED)) {
            *slot = s;
            return c->bufs[s];
        }
    }
    *slot = -1;   /* more lanes at once than threads foreseen: a buffer of its own */
    return st_aligned_alloc(c->scratch);
}

static void sort_lane(char **p, void *extra)
{
    sort_ctx *c = extra;
    if (c->scratch <= SMALL_SCRATCH) {
        _Alignas(64) char local[SMALL_SCRATCH];
        c->kernel(p, c, local);
        return;
    }
    int slot;
    char *buf = claim_scratch(c, &slot);
    if (!buf) {
        __atomic_store_n(&c->failed, 1, __ATOMIC_RELAXED);
        return;
    }
    c->kernel(p, c, buf);
    if (slot >= 0)
        __atomic_store_n(&c->busy[slot], 0, __ATOMIC_RELEASE);
    else
        st_aligned_free(buf);
}

/* ---- checks and helpers ---- */

static st_status check_output(const st_tensor *out, const st_tensor *in, int dtype,
                              const char *what)
{
    st_status rc;
    char role[32];
    snprintf(role, sizeof role, "sort %s", what);
    if (out->dtype != dtype)
        return st_fail(ST_E_TYPE, "sort: %s must be %s, got %s", what, st_dtype_name(dtype),
                       st_dtype_name(out->dtype));
    int same = out->ndim == in->ndim;
    for (int d = 0; d < in->ndim && same; d++) same = out->sizes[d] == in->sizes[d];
    if (!same) {
        char want[256], got[256];
        st_shape_str(want, sizeof want, in->ndim, in->sizes);
        st_shape_str(got, sizeof got, out->ndim, out->sizes);
        return st_fail(ST_E_VALUE, "sort: %s has shape %s, expected the input's %s", what, got,
                       want);
    }
    if ((rc = st_check_writable(out, role))) return rc;
    return ST_OK;
}


static int self_overlapping(const st_tensor *t)
{
    for (int d = 0; d < t->ndim; d++)
        if (t->sizes[d] > 1 && t->strides[d] == 0) return 1;
    return 0;
}

/* The input must be read from a copy when an output touches it other than
 * as the exact same view, lane for lane (in-place sort is fine). */
static int must_copy_input(const st_tensor *out, const st_tensor *in)
{
    if (!out) return 0;
    if (st_tensor_overlaps(out, in)) return 1;
    return self_overlapping(out) && st_tensor_shares_memory(out, in);
}

static int64_t work_per_lane(int64_t n)
{
    int64_t w = n, lg = 1;
    while (w > 1) {
        w >>= 1;
        lg++;
    }
    return n * lg;
}

#define CASE_MSORT(CODE, SFX, T, R, ...)                                              \
    case CODE: c->kernel = msort_lane_##SFX; rec = sizeof(rec_##SFX); break;
#define CASE_RSORT(CODE, SFX, T, R, ...) case CODE: rkernel = rsort_lane_##SFX; break;

/* Pick the kernel for in's dtype and lane length; scratch bytes per lane. */
static st_status choose_kernel(sort_ctx *c, int dtype, int want_values)
{
    int64_t rec = 0, n = c->n, bytes;
    sort_kernel rkernel = NULL;
    switch (dtype) {
        ST_TYPES_ALL(CASE_MSORT)
    default:
        return st_fail(ST_E_TYPE, "sort is not defined for dtype code %d", dtype);
    }
    switch (dtype) {
        ST_TYPES_BOOL(CASE_RSORT)
        ST_TYPES_REAL(CASE_RSORT)
    default: break;
    }
    int ok;
    if (rkernel && n >= RADIX_MIN) {
        c->kernel = rkernel;
        int64_t keep = want_values ? st_itemsize(dtype) : 0;
        ok = !__builtin_mul_overflow(n, 2 * (int64_t)sizeof(krec) + keep, &bytes)
             && !__builtin_add_overflow(bytes, (int64_t)sizeof(int64_t) * RADIX_HIST, &bytes);
    } else {
        ok = !__builtin_mul_overflow(n, 2 * rec, &bytes);
    }
    if (!ok || bytes > INT64_MAX / 2)
        return st_fail(ST_E_OVERFLOW, "sort: scratch for a lane of %lld elements overflows",
                       (long long)n);
    c->scratch = bytes;
    return ST_OK;
}

/* One scratch buffer per thread that st_lanes_run will start. */
static st_status make_pool(sort_ctx *c, int64_t nlanes, int64_t work)
{
    c->nbuf = 0;
    c->bufs = NULL;
    c->busy = NULL;
    if (c->scratch <= SMALL_SCRATCH) return ST_OK;
    int64_t nb = st_threads_for(nlanes * work);
    if (nb > nlanes) nb = nlanes;
    if (nb < 1) nb = 1;
    c->bufs = calloc((size_t)nb, sizeof *c->bufs);
    c->busy = calloc((size_t)nb, sizeof *c->busy);
    if (!c->bufs || !c->busy) return st_fail(ST_E_MEMORY, "sort: out of memory");
    for (int k = 0; k < nb; k++) {
        c->bufs[k] = st_aligned_alloc(c->scratch);
        if (!c->bufs[k])
            return st_fail(ST_E_MEMORY, "sort: cannot allocate %lld bytes of scratch",
                           (long long)c->scratch);
        c->nbuf = k + 1;
    }
    return ST_OK;
}

static void free_pool(sort_ctx *c)
{
    for (int k = 0; k < c->nbuf; k++) st_aligned_free(c->bufs[k]);
    free(c->bufs);
    free(c->busy);
}

st_status st_sort(st_tensor *values, st_tensor *indices, const st_tensor *in, int dim,
                  int descending, int flags)
{
    st_status rc;
    if (flags & ~(ST_IDX_BASE1 | ST_IDX_WRAP))
        return st_fail(ST_E_VALUE, "sort: unknown flags 0x%x", flags);
    if (in->dtype < 0 || in->dtype >= ST_NTYPES)
        return st_fail(ST_E_TYPE, "sort: unknown dtype code %d", in->dtype);
    if ((rc = st_check_storage(in, "sort input"))) return rc;
    int nd = in->ndim ? in->ndim : 1, b = (flags & ST_IDX_BASE1) ? 1 : 0;
    if (dim < 0 || dim >= nd)
        return st_fail(ST_E_INDEX, "sort: dim %d out of range [%d, %d)", dim + b, b, nd + b);
    if (values && (rc = check_output(values, in, in->dtype, "values"))) return rc;
    if (indices && (rc = check_output(indices, in, ST_INT64, "indices"))) return rc;
    if (values && indices && st_tensor_shares_memory(values, indices))
        return st_fail(ST_E_VALUE, "sort: values and indices share memory");
    if ((!values && !indices) || st_tensor_numel(in) == 0) return ST_OK;

    const st_tensor *src = in;
    st_tensor *tmp = NULL;
    if (must_copy_input(values, in) || must_copy_input(indices, in)) {
        tmp = st_tensor_temp_like(in, in->dtype);
        if (!tmp) return ST_E_MEMORY;
        if ((rc = st_copy(tmp, in))) {
            st_tensor_free(tmp);
            return rc;
        }
        src = tmp;
    }
    sort_ctx c = {0};
    c.n = src->ndim ? src->sizes[dim] : 1;
    c.in_step = src->ndim ? src->strides[dim] * st_itemsize(src->dtype) : 0;
    c.vslot = c.islot = -1;
    c.base = b;
    c.desc = descending != 0;
    const st_tensor *ops[3];
    int nop = 0;
    ops[nop++] = src;
    if (values) {
        c.vslot = nop;
        c.v_step = values->ndim ? values->strides[dim] * st_itemsize(values->dtype) : 0;
        ops[nop++] = values;
    }
    if (indices) {
        c.islot = nop;
        c.i_step = indices->ndim ? indices->strides[dim] * (int64_t)sizeof(int64_t) : 0;
        ops[nop++] = indices;
    }
    int64_t nlanes = st_tensor_numel(src) / c.n, work = work_per_lane(c.n);
    rc = choose_kernel(&c, src->dtype, values != NULL);
    if (!rc) rc = make_pool(&c, nlanes, work);
    if (!rc) {
        st_lanes ln;
        st_lanes_init(&ln, nop, ops, src->ndim ? dim : -1);
        st_lanes_run(&ln, sort_lane, &c, work);
        if (c.failed)
            rc = st_fail(ST_E_MEMORY, "sort: cannot allocate %lld bytes of scratch for a lane",
                         (long long)c.scratch);
    }
    free_pool(&c);
    st_tensor_free(tmp);
    return rc;
}
