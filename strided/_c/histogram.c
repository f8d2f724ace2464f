/* histogram.c -- Torch7's histc and bhistc: counts of values in equal bins.
 *
 * The bin of x is Torch7's expression (lib/TH/generic/THTensorMath.c):
 *     (x >= lo && x <= hi) ? min((long)((x - lo) / (hi - lo) * nbins), nbins - 1)
 * computed in the input's own precision for floats (so float32 data falls
 * in the bins Torch7 gives it; lo and hi are rounded to float32 first, as
 * Torch7's `real` arguments are) and in double for integers.  x == hi goes
 * in the last bin; values outside [lo, hi] and NaN are not counted.  When
 * lo == hi the range is the data's min and max, NaN-propagating as
 * Torch7's minall/maxall: data with a NaN then counts nothing; when the
 * range is still a single value it is widened to [lo - 1, hi + 1].
 *
 * Counting: one pass, split into one contiguous piece of the iteration
 * order per thread, each counting into its own int64 histogram (plus a
 * slot for "not counted"); the histograms are added and converted to the
 * output dtype once.  The counts are exact (Torch7 adds 1.0 to a float
 * histogram, which stops counting at 2^24 in float32). */
#include "st_internal.h"
#include <math.h>
#include <stdlib.h>

typedef struct {
    double lo, hi; /* the range, in the input's precision for float32 */
    int64_t nbins;
    int64_t *counts; /* nbins + 1 slots: the last one takes what is not counted */
} hist_ctx;

/* Bins of a block of up to HB elements, computed apart from the counting
 * so that the arithmetic vectorises; slot nbins takes the rejected ones. */
#define HB 256
#define DEF_BINS(CODE, SFX, T, R, CT)                                                              \
    ST_LEVEL_BODY void bins_body_##SFX(const char *p, int64_t step, int64_t m, CT lo, CT hi,       \
                                       int64_t nbins, int64_t *restrict b)                         \
    {                                                                                              \
        const CT width = hi - lo, nb = (CT)nbins;                                                  \
        for (int64_t i = 0; i < m; i++) {                                                          \
            CT x = (CT) * (const T *)(p + i * step);                                               \
            int ok = (x >= lo) & (x <= hi);                                                        \
            CT v = ok ? (x - lo) / width * nb : (CT)0;                                             \
            ok &= v == v;                                                                          \
            int64_t k = (int64_t)(ok ? v : (CT)0);                                                 \
            k = k < nbins - 1 ? k : nbins - 1;                                                     \
            b[i] = ok ? k : nbins;                                                                 \
        }                                                                                          \
    }                                                                                              \
    ST_LEVEL_FN(bins_body_##SFX,                                                                   \
                (const char *p, int64_t step, int64_t m, CT lo, CT hi, int64_t nbins,              \
                 int64_t *restrict b),                                                             \
                (p, step, m, lo, hi, nbins, b))                                                    \
    static void bins_##SFX(const char *p, int64_t step, int64_t m, CT lo, CT hi, int64_t nbins,    \
                           int64_t *restrict b)                                                    \
    {                                                                                              \
        ST_PICK(bins_body_##SFX)(p, step, m, lo, hi, nbins, b);                                    \
    }                                                                                              \
    static void hist_##SFX(char **args_, const int64_t *np, const int64_t *s_, void *extra)        \
    {                                                                                              \
        ST_LOCAL_ARGS(1)                                                                           \
        hist_ctx *c = extra;                                                                       \
        int64_t b[HB], *restrict counts = c->counts;                                               \
        for (int64_t i0 = 0; i0 < *np; i0 += HB) {                                                 \
            int64_t m = *np - i0 < HB ? *np - i0 : HB;                                             \
            bins_##SFX(args[0] + i0 * s[0], s[0], m, (CT)c->lo, (CT)c->hi, c->nbins, b);           \
            for (int64_t i = 0; i < m; i++) counts[b[i]]++;                                        \
        }                                                                                          \
    }                                                                                              \
    /* one row of bhistc: p[0] the row of the input, p[1] its row of counts */                     \
    static void hist_row_##SFX(char **p, void *extra)                                              \
    {                                                                                              \
        hist_ctx *c = extra;                                                                       \
        int64_t b[HB], *restrict counts = (int64_t *)p[1];                                         \
        const int64_t n = c->counts[0], step = c->counts[1];                                       \
        for (int64_t i0 = 0; i0 < n; i0 += HB) {                                                   \
            int64_t m = n - i0 < HB ? n - i0 : HB;                                                 \
            bins_##SFX(p[0] + i0 * step, step, m, (CT)c->lo, (CT)c->hi, c->nbins, b);              \
            for (int64_t i = 0; i < m; i++) counts[b[i]]++;                                        \
        }                                                                                          \
    }
#define DEF_BINS_INT(CODE, SFX, T, R, ...) DEF_BINS(CODE, SFX, T, R, double)
#define DEF_BINS_FLOAT(CODE, SFX, T, R, ...) DEF_BINS(CODE, SFX, T, R, T)
ST_TYPES_INT(DEF_BINS_INT)
ST_TYPES_FLOAT(DEF_BINS_FLOAT)

/* ---- min and max of the data (NaN-propagating), per piece ---- */
/* m ? a : b for vectors, m a comparison's result (all ones or zeros per lane) */
#define MM_BLEND(M, A, B)                                                                          \
    ((__typeof__(A))(((M) & (__typeof__(M))(A)) | (~(M) & (__typeof__(M))(B))))
typedef struct {
    double min, max;
    int any, nan;
} minmax_ctx;
#define DEF_MINMAX(CODE, SFX, T, R, ...)                                                           \
    ST_LEVEL_BODY void minmax_run_body_##SFX(const char *p, int64_t step, int64_t n, T *lo_,       \
                                             T *hi_, int *nan_)                                    \
    {                                                                                              \
        T lo = *lo_, hi = *hi_;                                                                    \
        int nan = 0;                                                                               \
        int64_t i = 0;                                                                             \
        if (step == (int64_t)sizeof(T)) { /* contiguous: in vectors */                             \
            typedef T vt __attribute__((vector_size(32), aligned(sizeof(T))));                     \
            enum { VL = 32 / sizeof(T) };                                                          \
            const T *x = (const T *)p;                                                             \
            vt vlo = (vt){0} + lo, vhi = (vt){0} + hi, vnan = (vt){0};                             \
            for (; i + VL <= n; i += VL) {                                                         \
                const vt v = *(const vt *)(x + i);                                                 \
                vlo = MM_BLEND(v < vlo, v, vlo);                                                   \
                vhi = MM_BLEND(v > vhi, v, vhi);                                                   \
                vnan = MM_BLEND(v != v, v, vnan); /* a NaN lands in vnan */                        \
            }                                                                                      \
            for (int j = 0; j < VL; j++) {                                                         \
                lo = vlo[j] < lo ? vlo[j] : lo;                                                    \
                hi = vhi[j] > hi ? vhi[j] : hi;                                                    \
                nan |= vnan[j] != vnan[j];                                                         \
            }                                                                                      \
        }                                                                                          \
        for (; i < n; i++) {                                                                       \
            T x = *(const T *)(p + i * step);                                                      \
            nan |= x != x;                                                                         \
            lo = x < lo ? x : lo;                                                                  \
            hi = x > hi ? x : hi;                                                                  \
        }                                                                                          \
        *lo_ = lo, *hi_ = hi, *nan_ |= nan;                                                        \
    }                                                                                              \
    ST_LEVEL_FN(minmax_run_body_##SFX,                                                             \
                (const char *p, int64_t step, int64_t n, T *lo_, T *hi_, int *nan_),               \
                (p, step, n, lo_, hi_, nan_))                                                      \
    static void minmax_run_##SFX(const char *p, int64_t step, int64_t n, T *lo_, T *hi_,           \
                                 int *nan_)                                                        \
    {                                                                                              \
        ST_PICK(minmax_run_body_##SFX)(p, step, n, lo_, hi_, nan_);                                \
    }                                                                                              \
    static void minmax_##SFX(char **args_, const int64_t *np, const int64_t *s_, void *extra)      \
    {                                                                                              \
        ST_LOCAL_ARGS(1)                                                                           \
        minmax_ctx *c = extra;                                                                     \
        if (*np == 0) return;                                                                      \
        T lo = *(const T *)args[0], hi = lo;                                                       \
        int nan = 0;                                                                               \
        minmax_run_##SFX(args[0], s[0], *np, &lo, &hi, &nan);                                      \
        if (!c->any || lo < c->min) c->min = lo;                                                   \
        if (!c->any || hi > c->max) c->max = hi;                                                   \
        c->any = 1;                                                                                \
        c->nan |= nan;                                                                             \
    }
ST_TYPES_REAL(DEF_MINMAX)

#define CASE_HIST(CODE, SFX, T, R, ...)                                                            \
    case CODE:                                                                                     \
        *minmax = minmax_##SFX;                                                                    \
        *hist = hist_##SFX;                                                                        \
        *row = hist_row_##SFX;                                                                     \
        return ST_OK;
static st_status hist_loops(int dtype, st_loop_fn *minmax, st_loop_fn *hist, st_lane_fn *row,
                            const char *name)
{
    switch (dtype) {
        ST_TYPES_REAL(CASE_HIST)
    default:
        return st_fail(ST_E_TYPE, "%s: x must be an integer or floating tensor, got %s", name,
                       st_dtype_name(dtype));
    }
}

/* Pieces of the iteration order of `it`, one per thread, each run with its
 * own context ctx + t * ctx_size. */
static void run_pieces(const st_iter *it, st_loop_fn f, char *ctx, size_t ctx_size, int nt)
{
    if (nt <= 1) {
        st_iter_run_range(it, 0, it->numel, f, ctx);
        return;
    }
#pragma omp parallel for num_threads(nt) schedule(static, 1)
    for (int t = 0; t < nt; t++)
        st_iter_run_range(it, it->numel * t / nt, it->numel * (t + 1) / nt, f,
                          ctx + (size_t)t * ctx_size);
}

/* The range: [lo, hi] as given (rounded to float32 for float32 data), or
 * the data's when lo == hi, widened by 1 each way when a single value; both
 * NaN when the data has a NaN (then nothing is counted). */
static st_status hist_range(const st_tensor *in, st_loop_fn minmax, double *lo, double *hi,
                            const char *name)
{
    if (in->dtype == ST_FLOAT32) {
        *lo = (float)*lo;
        *hi = (float)*hi;
    }
    if (!isfinite(*lo) || !isfinite(*hi))
        return st_fail(ST_E_VALUE,
                       "%s: min and max must be finite in x's dtype (%s), got %g "
                       "and %g",
                       name, st_dtype_name(in->dtype), *lo, *hi);
    if (*lo == *hi) {
        minmax_ctx parts[64];
        int nt = st_threads_for(st_tensor_numel(in));
        if (nt > 64) nt = 64;
        memset(parts, 0, sizeof parts);
        if (st_tensor_numel(in) > 0) {
            st_iter it;
            const st_tensor *ops[1] = {in};
            st_status rc = st_iter_init(&it, 1, ops, 0);
            if (rc) return rc;
            run_pieces(&it, minmax, (char *)parts, sizeof parts[0], nt);
        }
        minmax_ctx all = {0};
        for (int t = 0; t < nt; t++) {
            if (!parts[t].any) continue;
            if (!all.any || parts[t].min < all.min) all.min = parts[t].min;
            if (!all.any || parts[t].max > all.max) all.max = parts[t].max;
            all.any = 1;
            all.nan |= parts[t].nan;
        }
        if (all.nan) {
            *lo = *hi = NAN; /* Torch7: minall and maxall are NaN, nothing is counted */
            return ST_OK;
        }
        if (all.any) *lo = all.min, *hi = all.max;
        if (!isfinite(*lo) || !isfinite(*hi))
            return st_fail(ST_E_VALUE,
                           "%s: the range of the data, [%g, %g], is not finite "
                           "(give min and max)",
                           name, *lo, *hi);
    }
    if (*lo == *hi) {
        *lo -= 1;
        *hi += 1;
    }
    if (in->dtype == ST_FLOAT32) {
        *lo = (float)*lo;
        *hi = (float)*hi;
    }
    return ST_OK;
}

static int is_real(int dtype) { return st_is_int(dtype) || st_is_float(dtype); }

/* Copy int64 counts (a contiguous block, row stride `ld` elements) into hist. */
static st_status write_counts(st_tensor *hist, int64_t *counts, int64_t ld)
{
    st_storage *s = st_storage_borrow(
        counts, (int64_t)sizeof(int64_t) * ld * (hist->ndim == 2 ? hist->sizes[0] : 1), 1, NULL,
        NULL);
    if (!s) return ST_E_MEMORY;
    st_tensor *src = st_tensor_new();
    if (!src) {
        st_storage_release(s);
        return st_fail(ST_E_MEMORY, "out of memory");
    }
    int64_t strides[2] = {ld, 1};
    if (hist->ndim == 1) strides[0] = 1;
    st_status rc = st_tensor_set(src, s, ST_INT64, 0, hist->ndim, hist->sizes, strides);
    st_storage_release(s);
    if (!rc) rc = st_copy(hist, src);
    st_tensor_free(src);
    return rc;
}

/* The checks histc and bhistc share, and their loops. */
static st_status hist_checks(const st_tensor *hist, const st_tensor *in, st_loop_fn *minmax,
                             st_loop_fn *count, st_lane_fn *row, const char *name)
{
    st_status rc;
    if ((rc = hist_loops(in->dtype, minmax, count, row, name))) return rc;
    if ((rc = st_check_storage(in, "x")) || (rc = st_check_writable(hist, "hist"))) return rc;
    if (!is_real(hist->dtype))
        return st_fail(ST_E_TYPE, "%s: hist must be an integer or floating tensor, got %s", name,
                       st_dtype_name(hist->dtype));
    return ST_OK;
}

st_status st_histc(st_tensor *hist, const st_tensor *in, double lo, double hi)
{
    st_status rc;
    st_loop_fn minmax = NULL, count = NULL;
    st_lane_fn row = NULL;
    if ((rc = hist_checks(hist, in, &minmax, &count, &row, "histc"))) return rc;
    if (hist->ndim != 1 || hist->sizes[0] < 1)
        return st_fail(ST_E_VALUE,
                       "histc: hist must be 1-D with at least one bin, got %d dims "
                       "and %lld elements",
                       hist->ndim, (long long)st_tensor_numel(hist));
    const int64_t nbins = hist->sizes[0], n = st_tensor_numel(in);
    if ((rc = hist_range(in, minmax, &lo, &hi, "histc"))) return rc;
    /* threads only when each has a fair share of elements per bin it must add */
    int nt = st_threads_for(n);
    if (nt > 1 && nbins > n / (4 * nt)) nt = 1;
    int64_t *counts = calloc((size_t)nt * (size_t)(nbins + 1), sizeof(int64_t));
    hist_ctx *ctx = malloc((size_t)nt * sizeof(hist_ctx));
    if (!counts || !ctx) {
        free(counts);
        free(ctx);
        return st_fail(ST_E_MEMORY, "histc: out of memory for %lld bins", (long long)nbins);
    }
    for (int t = 0; t < nt; t++)
        ctx[t] = (hist_ctx){lo, hi, nbins, counts + (size_t)t * (size_t)(nbins + 1)};
    if (n > 0 && !isnan(lo)) {
        st_iter it;
        const st_tensor *ops[1] = {in};
        if ((rc = st_iter_init(&it, 1, ops, 0))) goto done;
        run_pieces(&it, count, (char *)ctx, sizeof ctx[0], nt);
    }
    for (int t = 1; t < nt; t++)
        for (int64_t b = 0; b < nbins; b++) counts[b] += ctx[t].counts[b];
    rc = write_counts(hist, counts, nbins + 1);
done:
    free(counts);
    free(ctx);
    return rc;
}

st_status st_bhistc(st_tensor *hist, const st_tensor *in, double lo, double hi)
{
    st_status rc;
    st_loop_fn minmax = NULL, count = NULL;
    st_lane_fn row = NULL;
    if ((rc = hist_checks(hist, in, &minmax, &count, &row, "bhistc"))) return rc;
    if (in->ndim != 2) return st_fail(ST_E_VALUE, "bhistc: x must be 2-D, got %d dims", in->ndim);
    if (hist->ndim != 2 || hist->sizes[0] != in->sizes[0] || hist->sizes[1] < 1)
        return st_fail(ST_E_VALUE,
                       "bhistc: hist must be 2-D with x's %lld rows and at least "
                       "one bin",
                       (long long)in->sizes[0]);
    const int64_t rows = in->sizes[0], nbins = hist->sizes[1];
    if ((rc = hist_range(in, minmax, &lo, &hi, "bhistc"))) return rc;
    if (rows == 0) return ST_OK;
    st_tensor *tmp = st_tensor_new();
    int64_t sizes[2] = {rows, nbins + 1};
    if (!tmp || st_tensor_alloc(tmp, ST_INT64, 2, sizes)) {
        st_tensor_free(tmp);
        return st_fail(ST_E_MEMORY, "bhistc: out of memory for %lld x %lld bins", (long long)rows,
                       (long long)nbins);
    }
    int64_t *counts = st_tensor_data(tmp);
    memset(counts, 0, (size_t)(rows * (nbins + 1)) * sizeof(int64_t));
    if (!isnan(lo) && in->sizes[1] > 0) {
        int64_t geom[2] = {in->sizes[1], in->strides[1] * st_itemsize(in->dtype)};
        hist_ctx c = {lo, hi, nbins, geom};
        st_lanes ln;
        const st_tensor *ops[2] = {in, tmp};
        st_lanes_init(&ln, 2, ops, 1);
        st_lanes_run(&ln, row, &c, in->sizes[1]);
    }
    rc = write_counts(hist, counts, nbins + 1);
    st_tensor_free(tmp);
    return rc;
}
