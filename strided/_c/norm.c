/* norm.c -- p-norms (Torch7's norm, normall, dist) and renorm.
 *
 * The p-norm of a set of values x:
 *   p == 0     the count of nonzero values (NaN counts),
 *   p == inf   max |x|,  p == -inf  min |x| (0 and inf for no values),
 *   p == 1     sum |x|,  p == 2  sqrt(sum x^2),
 *   otherwise  (sum |x|^p)^(1/p)   (Torch7's formula, any p but NaN).
 * Every type is computed in double (Torch7 accumulates float32 norms in
 * double too, dist in float).  NaN in x gives NaN, except for p == 0.
 *
 * Over all elements the iteration order is cut into pieces whose number
 * depends only on the element count; pieces run on the threads and their
 * partial results are combined in order, so the result does not depend on
 * the thread count.  Along a dim, each lane is one serial sum (lanes run in
 * parallel); a single lane goes the all-elements way. */
#include "st_internal.h"
#include <math.h>
#include <stdlib.h>

enum { K_COUNT, K_ONE, K_TWO, K_MAX, K_MIN, K_POW };

typedef struct {
    int kind;
    double p;
} norm_kind;

static norm_kind kind_of(double p)
{
    norm_kind k = {K_POW, p};
    if (p == 0)
        k.kind = K_COUNT;
    else if (p == 1)
        k.kind = K_ONE;
    else if (p == 2)
        k.kind = K_TWO;
    else if (p == INFINITY)
        k.kind = K_MAX;
    else if (p == -INFINITY)
        k.kind = K_MIN;
    return k;
}

static double identity(int kind) { return kind == K_MIN ? INFINITY : 0.0; }

static double combine(int kind, double acc, double v)
{
    if (kind == K_MAX) return (v > acc || v != v) ? v : acc;
    if (kind == K_MIN) return (v < acc || v != v) ? v : acc;
    return acc + v;
}

static double finish(norm_kind k, double acc)
{
    if (k.kind == K_TWO) return sqrt(acc);
    if (k.kind == K_POW) return pow(acc, 1.0 / k.p);
    return acc;
}

/* Fold n elements |a - b| (b NULL: |a|) into acc.  Contiguous runs use 8
 * partial sums, so the loop vectorises; the partial sums are then added in
 * a fixed order. */
#define NORM_TERM(kind, d, p)                                                                      \
    ((kind) == K_COUNT ? (double)((d) != 0)                                                        \
     : (kind) == K_ONE ? fabs(d)                                                                   \
     : (kind) == K_TWO ? (d) * (d)                                                                 \
                       : pow(fabs(d), (p)))
#define DEF_NORM(CODE, SFX, T, R, ...)                                                             \
    ST_LEVEL_BODY double fold_body_##SFX(const char *a, int64_t sa, const char *b, int64_t sb,     \
                                         int64_t n, norm_kind k, double acc)                       \
    {                                                                                              \
        const int kind = k.kind;                                                                   \
        const double p = k.p;                                                                      \
        if (kind == K_MAX || kind == K_MIN) {                                                      \
            for (int64_t i = 0; i < n; i++) {                                                      \
                double d = (double)*(const T *)(a + i * sa);                                       \
                if (b) d -= (double)*(const T *)(b + i * sb);                                      \
                acc = combine(kind, acc, fabs(d));                                                 \
            }                                                                                      \
            return acc;                                                                            \
        }                                                                                          \
        int64_t i = 0;                                                                             \
        if (sa == (int64_t)sizeof(T) && (!b || sb == (int64_t)sizeof(T)) && n >= 8) {              \
            const T *x = (const T *)a, *y = (const T *)b;                                          \
            double s8[8] = {0};                                                                    \
            for (; i + 8 <= n; i += 8)                                                             \
                for (int j = 0; j < 8; j++) {                                                      \
                    double d = (double)x[i + j] - (y ? (double)y[i + j] : 0.0);                    \
                    s8[j] += NORM_TERM(kind, d, p);                                                \
                }                                                                                  \
            acc += ((s8[0] + s8[1]) + (s8[2] + s8[3])) + ((s8[4] + s8[5]) + (s8[6] + s8[7]));      \
        }                                                                                          \
        for (; i < n; i++) {                                                                       \
            double d = (double)*(const T *)(a + i * sa);                                           \
            if (b) d -= (double)*(const T *)(b + i * sb);                                          \
            acc += NORM_TERM(kind, d, p);                                                          \
        }                                                                                          \
        return acc;                                                                                \
    }                                                                                              \
    ST_LEVEL_FN_RET(double, fold_body_##SFX,                                                       \
                    (const char *a, int64_t sa, const char *b, int64_t sb, int64_t n, norm_kind k, \
                     double acc),                                                                  \
                    (a, sa, b, sb, n, k, acc))                                                     \
    static double fold_##SFX(const char *a, int64_t sa, const char *b, int64_t sb, int64_t n,      \
                             norm_kind k, double acc)                                              \
    {                                                                                              \
        return ST_PICK(fold_body_##SFX)(a, sa, b, sb, n, k, acc);                                  \
    }
ST_TYPES_REAL(DEF_NORM)

typedef double (*fold_fn)(const char *, int64_t, const char *, int64_t, int64_t, norm_kind, double);
#define CASE_FOLD(CODE, SFX, T, R, ...)                                                            \
    case CODE:                                                                                     \
        return fold_##SFX;
static fold_fn fold_for(int dtype)
{
    switch (dtype) {
        ST_TYPES_REAL(CASE_FOLD)
    default:
        return NULL;
    }
}

typedef struct {
    fold_fn fold;
    norm_kind k;
    double acc;
    int two; /* a second operand */
} piece;

static void piece_loop(char **args_, const int64_t *np, const int64_t *s_, void *extra)
{
    ST_LOCAL_ARGS(2)
    piece *c = extra;
    c->acc = c->fold(args[0], s[0], c->two ? args[1] : NULL, s[1], *np, c->k, c->acc);
}

#define NORM_PIECE ((int64_t)1 << 16)

/* The norm of all of a (- b); threads: 0 keeps it on the calling thread. */
static st_status norm_all(const st_tensor *a, const st_tensor *b, norm_kind k, double *result,
                          int threads)
{
    fold_fn fold = fold_for(a->dtype);
    const int64_t n = st_tensor_numel(a);
    double acc = identity(k.kind);
    if (n > 0) {
        st_iter it;
        const st_tensor *ops[2] = {a, b};
        st_status rc = st_iter_init(&it, b ? 2 : 1, ops, 0);
        if (rc) return rc;
        int64_t npieces = (n + NORM_PIECE - 1) / NORM_PIECE;
        if (npieces > 256) npieces = 256;
        piece parts[256];
        for (int64_t q = 0; q < npieces; q++)
            parts[q] = (piece){fold, k, identity(k.kind), b != NULL};
        int nt = threads ? st_threads_for(n) : 1;
        if (nt > npieces) nt = (int)npieces;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
        for (int64_t q = 0; q < npieces; q++)
            st_iter_run_range(&it, n * q / npieces, n * (q + 1) / npieces, piece_loop, &parts[q]);
        for (int64_t q = 0; q < npieces; q++) acc = combine(k.kind, acc, parts[q].acc);
    }
    *result = finish(k, acc);
    return ST_OK;
}

static st_status check_x(const st_tensor *t, const char *name, const char *what)
{
    if (!st_is_int(t->dtype) && !st_is_float(t->dtype))
        return st_fail(ST_E_TYPE, "%s: %s must be an integer or floating tensor, got %s", name,
                       what, st_dtype_name(t->dtype));
    return st_check_storage(t, what);
}

st_status st_norm_all(const st_tensor *a, const st_tensor *b, double p, double *result)
{
    st_status rc;
    const char *name = b ? "dist" : "norm";
    if ((rc = check_x(a, name, b ? "a" : "x"))) return rc;
    if (p != p) return st_fail(ST_E_VALUE, "%s: p must not be NaN", name);
    if (b) {
        if ((rc = check_x(b, name, "b"))) return rc;
        if (b->dtype != a->dtype)
            return st_fail(ST_E_TYPE, "dist: b is %s but a is %s", st_dtype_name(b->dtype),
                           st_dtype_name(a->dtype));
        if (b->ndim != a->ndim || memcmp(a->sizes, b->sizes, sizeof(int64_t) * a->ndim))
            return st_fail(ST_E_VALUE, "dist: a and b must have the same shape");
    }
    return norm_all(a, b, kind_of(p), result, 1);
}

typedef struct {
    fold_fn fold;
    norm_kind k;
    int64_t n, step;
    int out_dtype;
} lane_ctx;

static void norm_lane(char **p, void *extra)
{
    const lane_ctx *c = extra;
    double r = finish(c->k, c->fold(p[0], c->step, NULL, 0, c->n, c->k, identity(c->k.kind)));
    if (c->out_dtype == ST_FLOAT32)
        *(float *)p[1] = (float)r;
    else
        *(double *)p[1] = r;
}

st_status st_norm(st_tensor *out, const st_tensor *in, double p, int dim)
{
    st_status rc;
    if ((rc = check_x(in, "norm", "x"))) return rc;
    if (p != p) return st_fail(ST_E_VALUE, "norm: p must not be NaN");
    if (dim < 0 || dim >= (in->ndim ? in->ndim : 1))
        return st_fail(ST_E_INDEX, "norm: dim %d out of range [0, %d)", dim,
                       in->ndim ? in->ndim : 1);
    const int res = in->dtype == ST_FLOAT32 ? ST_FLOAT32 : ST_FLOAT64;
    if ((rc = st_check_dtype(out, res, "norm: out"))) return rc;
    if ((rc = st_check_writable(out, "norm: out"))) return rc;
    if (out->ndim != in->ndim)
        return st_fail(ST_E_VALUE, "norm: out must have x's %d dims, got %d", in->ndim, out->ndim);
    for (int d = 0; d < in->ndim; d++)
        if (out->sizes[d] != (d == dim ? 1 : in->sizes[d]))
            return st_fail(ST_E_VALUE, "norm: out has size %lld at dim %d, expected %lld",
                           (long long)out->sizes[d], d, (long long)(d == dim ? 1 : in->sizes[d]));
    if (st_tensor_shares_memory(out, in))
        return st_fail(ST_E_VALUE, "norm: out must not share memory with x");
    const int64_t nout = st_tensor_numel(out);
    if (nout == 0) return ST_OK;
    const norm_kind k = kind_of(p);
    if (nout == 1) { /* one lane: all of it, on every thread */
        double r;
        if ((rc = norm_all(in, NULL, k, &r, 1))) return rc;
        if (res == ST_FLOAT32)
            *(float *)st_tensor_data(out) = (float)r;
        else
            *(double *)st_tensor_data(out) = r;
        return ST_OK;
    }
    lane_ctx c = {fold_for(in->dtype), k, in->ndim ? in->sizes[dim] : 1,
                  in->ndim ? in->strides[dim] * st_itemsize(in->dtype) : 0, res};
    st_lanes ln;
    const st_tensor *ops[2] = {in, out};
    st_lanes_init(&ln, 2, ops, in->ndim ? dim : -1);
    st_lanes_run(&ln, norm_lane, &c, c.n);
    return ST_OK;
}

/* ---- renorm ---- */
#define DEF_SCALE(CODE, SFX, T, R, ...)                                                            \
    ST_LEVEL_BODY void scale_body_##SFX(char **args_, const int64_t *np, const int64_t *s_,        \
                                        void *extra)                                               \
    {                                                                                              \
        ST_LOCAL_ARGS(3)                                                                           \
        (void)extra;                                                                               \
        for (int64_t i = 0; i < *np; i++)                                                          \
            *(T *)(args[0] + i * s[0]) =                                                           \
                *(const T *)(args[1] + i * s[1]) * *(const T *)(args[2] + i * s[2]);               \
    }                                                                                              \
    ST_LEVEL_FN(scale_body_##SFX,                                                                  \
                (char **args_, const int64_t *np, const int64_t *s_, void *extra),                 \
                (args_, np, s_, extra))                                                            \
    static void scale_##SFX(char **args_, const int64_t *np, const int64_t *s_, void *extra)       \
    {                                                                                              \
        ST_PICK(scale_body_##SFX)(args_, np, s_, extra);                                           \
    }
ST_TYPES_FLOAT(DEF_SCALE)

st_status st_renorm(st_tensor *out, const st_tensor *in, double p, int dim, double maxnorm)
{
    st_status rc;
    if (!st_is_float(in->dtype))
        return st_fail(ST_E_TYPE, "renorm: x must be float32 or float64, got %s",
                       st_dtype_name(in->dtype));
    if ((rc = st_check_storage(in, "renorm: x"))) return rc;
    if (!(p > 0)) return st_fail(ST_E_VALUE, "renorm: p must be > 0, got %g", p);
    if (in->ndim < 1) return st_fail(ST_E_VALUE, "renorm: x must have at least one dim");
    if (dim < 0 || dim >= in->ndim)
        return st_fail(ST_E_INDEX, "renorm: dim %d out of range [0, %d)", dim, in->ndim);
    if ((rc = st_check_dtype(out, in->dtype, "renorm: out"))) return rc;
    if ((rc = st_check_writable(out, "renorm: out"))) return rc;
    if (out->ndim != in->ndim || memcmp(out->sizes, in->sizes, sizeof(int64_t) * in->ndim))
        return st_fail(ST_E_VALUE, "renorm: out must have x's shape");
    if (st_tensor_overlaps(out, in))
        return st_fail(ST_E_VALUE, "renorm: out shares memory with x (other than being x itself)");
    const int64_t m = in->sizes[dim];
    if (st_tensor_numel(in) == 0) return ST_OK;
    const norm_kind k = kind_of(p);
    const int64_t item = st_itemsize(in->dtype);
    /* the factors, one per index along dim, in x's dtype */
    st_tensor *f = st_tensor_new();
    if (!f || st_tensor_alloc(f, in->dtype, 1, &m)) {
        st_tensor_free(f);
        return st_fail(ST_E_MEMORY, "renorm: out of memory");
    }
    char *fd = st_tensor_data(f);
    st_tensor sub = *in; /* in.select(dim, i): a record on the stack, read only */
    sub.ndim = in->ndim - 1;
    for (int d = dim; d < sub.ndim; d++) {
        sub.sizes[d] = in->sizes[d + 1];
        sub.strides[d] = in->strides[d + 1];
    }
    const int64_t per = st_tensor_numel(in) / m;
    int nt = st_threads_for(st_tensor_numel(in));
    if (nt > m) nt = (int)m;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t i = 0; i < m; i++) {
        st_tensor s = sub;
        s.offset = in->offset + i * in->strides[dim];
        double norm;
        norm_all(&s, NULL, k, &norm, nt == 1 && per >= 2 * ST_PARALLEL_GRAIN);
        double factor = norm > maxnorm ? maxnorm / (norm + 1e-7) : 1.0;
        if (in->dtype == ST_FLOAT32)
            ((float *)fd)[i] = (float)factor;
        else
            ((double *)fd)[i] = factor;
    }
    (void)item;
    /* out = x * factor, the factors broadcast along the other dims */
    st_tensor fb = *in;
    fb.storage = f->storage;
    fb.offset = 0;
    for (int d = 0; d < in->ndim; d++) fb.strides[d] = d == dim ? 1 : 0;
    st_iter it;
    const st_tensor *ops[3] = {out, in, &fb};
    if (!(rc = st_iter_init(&it, 3, ops, 0)))
        st_iter_run(&it, in->dtype == ST_FLOAT32 ? scale_float32 : scale_float64, NULL, 0);
    st_tensor_free(f);
    return rc;
}
