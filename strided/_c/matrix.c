/* matrix.c -- Torch7's cross, tril and triu (lib/TH/generic/THTensorMath.c;
 * its linspace and logspace: creation.c).
 *
 * cross reads the three elements of a and b of a lane before it writes the
 * lane of out, so out may be a or b itself (Torch7's in-place a:cross(b)
 * overwrites a[0] before reading it again); integers multiply in uint64 and
 * wrap as Torch7's do, cast back to their type; floats and complex numbers
 * multiply and subtract in their type, each product rounded as the
 * elementwise multiply rounds it (strided.compat's linalg.cross).  tril/triu copy or zero
 * each element by its column minus row, bytes moved by item size, so every
 * dtype works; out may be in itself. */
#include "st_internal.h"
#include <math.h>

typedef struct {
    int64_t sa, sb, so; /* byte steps along the 3-long dim */
} cross_geom;

#define CROSS_CT_INT uint64_t
#define DEF_CROSS(CODE, SFX, T, R, CT)                                                             \
    static void cross_##SFX(char **p, void *extra)                                                 \
    {                                                                                              \
        const cross_geom *g = extra;                                                               \
        const CT a0 = (CT) * (const T *)p[1], a1 = (CT) * (const T *)(p[1] + g->sa),               \
                 a2 = (CT) * (const T *)(p[1] + 2 * g->sa);                                        \
        const CT b0 = (CT) * (const T *)p[2], b1 = (CT) * (const T *)(p[2] + g->sb),               \
                 b2 = (CT) * (const T *)(p[2] + 2 * g->sb);                                        \
        *(T *)p[0] = (T)(a1 * b2 - a2 * b1);                                                       \
        *(T *)(p[0] + g->so) = (T)(a2 * b0 - a0 * b2);                                             \
        *(T *)(p[0] + 2 * g->so) = (T)(a0 * b1 - a1 * b0);                                         \
    }
#define DEF_CROSS_INT(CODE, SFX, T, R, ...) DEF_CROSS(CODE, SFX, T, R, uint64_t)
#define DEF_CROSS_FLOAT(CODE, SFX, T, R, ...) DEF_CROSS(CODE, SFX, T, R, T)
ST_TYPES_INT(DEF_CROSS_INT)
ST_TYPES_FLOAT(DEF_CROSS_FLOAT)
ST_TYPES_COMPLEX(DEF_CROSS_FLOAT)
#define CASE_CROSS(CODE, SFX, T, R, ...)                                                           \
    case CODE:                                                                                     \
        return cross_##SFX;
static st_lane_fn cross_fn(int dtype)
{
    switch (dtype) {
        ST_TYPES_NUMERIC(CASE_CROSS)
    default:
        return NULL;
    }
}

static int same_shape(const st_tensor *a, const st_tensor *b)
{
    return a->ndim == b->ndim && !memcmp(a->sizes, b->sizes, sizeof(int64_t) * a->ndim);
}

st_status st_cross(st_tensor *out, const st_tensor *a, const st_tensor *b, int dim)
{
    st_status rc;
    st_lane_fn f = cross_fn(a->dtype);
    if (!f)
        return st_fail(ST_E_TYPE, "cross: a must be an integer, floating or complex tensor, got %s",
                       st_dtype_name(a->dtype));
    if (b->dtype != a->dtype || out->dtype != a->dtype)
        return st_fail(ST_E_TYPE, "cross: a, b and out must have one dtype, got %s, %s and %s",
                       st_dtype_name(a->dtype), st_dtype_name(b->dtype), st_dtype_name(out->dtype));
    if (!same_shape(a, b) || !same_shape(a, out))
        return st_fail(ST_E_VALUE, "cross: a, b and out must have the same shape");
    if (dim < 0 || dim >= a->ndim)
        return st_fail(ST_E_INDEX, "cross: dim %d out of range [0, %d)", dim, a->ndim);
    if (a->sizes[dim] != 3)
        return st_fail(ST_E_VALUE, "cross: dim %d has size %lld, not 3", dim,
                       (long long)a->sizes[dim]);
    if ((rc = st_check_storage(a, "a")) || (rc = st_check_storage(b, "b")) ||
        (rc = st_check_writable(out, "out")))
        return rc;
    if (st_tensor_overlaps(out, a) || st_tensor_overlaps(out, b))
        return st_fail(ST_E_VALUE, "cross: out shares memory with a or b (other than being "
                                   "one of them)");
    if (st_tensor_numel(out) == 0) return ST_OK;
    const int64_t item = st_itemsize(a->dtype);
    cross_geom g = {a->strides[dim] * item, b->strides[dim] * item, out->strides[dim] * item};
    st_lanes ln;
    const st_tensor *ops[3] = {out, a, b};
    st_lanes_init(&ln, 3, ops, dim);
    st_lanes_run(&ln, f, &g, 3);
    return ST_OK;
}

/* ---- tril / triu ---- */
#define DEF_TRI_ROW(BYTES, T)                                                                      \
    static void tri_row_##BYTES(char *o, int64_t so, const char *x, int64_t sx, int64_t m,         \
                                int64_t lo, int64_t hi)                                            \
    {                                                                                              \
        for (int64_t c = 0; c < m; c++) {                                                          \
            T v;                                                                                   \
            if (c >= lo && c < hi)                                                                 \
                memcpy(&v, x + c * sx, sizeof v);                                                  \
            else                                                                                   \
                memset(&v, 0, sizeof v);                                                           \
            memcpy(o + c * so, &v, sizeof v);                                                      \
        }                                                                                          \
    }
typedef struct {
    uint64_t a, b;
} st_16bytes;
DEF_TRI_ROW(1, uint8_t)
DEF_TRI_ROW(2, uint16_t)
DEF_TRI_ROW(4, uint32_t)
DEF_TRI_ROW(8, uint64_t)
DEF_TRI_ROW(16, st_16bytes)

st_status st_tri(st_tensor *out, const st_tensor *in, int64_t k, int upper)
{
    st_status rc;
    const char *name = upper ? "triu" : "tril";
    if (in->ndim < 2)
        return st_fail(ST_E_VALUE, "%s: x must have at least 2 dims, got %d", name, in->ndim);
    if (out->dtype != in->dtype)
        return st_fail(ST_E_TYPE, "%s: out must be %s, got %s", name, st_dtype_name(in->dtype),
                       st_dtype_name(out->dtype));
    if (!same_shape(out, in)) return st_fail(ST_E_VALUE, "%s: out must have x's shape", name);
    if ((rc = st_check_storage(in, "x")) || (rc = st_check_writable(out, "out"))) return rc;
    if (st_tensor_overlaps(out, in))
        return st_fail(ST_E_VALUE, "%s: out shares memory with x (other than being x itself)",
                       name);
    const int64_t total = st_tensor_numel(in);
    if (total == 0) return ST_OK;
    const int nd = in->ndim;
    const int64_t rows = in->sizes[nd - 2], m = in->sizes[nd - 1], nrows = total / m;
    const int64_t item = st_itemsize(in->dtype);
    const int64_t so = out->strides[nd - 1] * item, sx = in->strides[nd - 1] * item;
    char *obase = st_tensor_data(out);
    const char *xbase = st_tensor_data(in);
    void (*row)(char *, int64_t, const char *, int64_t, int64_t, int64_t, int64_t) =
        item == 1   ? tri_row_1
        : item == 2 ? tri_row_2
        : item == 4 ? tri_row_4
        : item == 8 ? tri_row_8
                    : tri_row_16;
    int nt = st_threads_for(total);
    if (nt > nrows) nt = (int)nrows;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t i = 0; i < nrows; i++) {
        /* row i: the batch index and the row within the matrix */
        int64_t rem = i, ooff = 0, xoff = 0;
        for (int d = nd - 2; d >= 0; d--) {
            int64_t idx = rem % in->sizes[d];
            rem /= in->sizes[d];
            ooff += idx * out->strides[d];
            xoff += idx * in->strides[d];
        }
        const int64_t r = i % rows;
        /* kept columns: triu c - r >= k, tril c - r <= k */
        int64_t lo = upper ? r + k : 0, hi = upper ? m : r + k + 1;
        lo = lo < 0 ? 0 : lo > m ? m : lo;
        hi = hi < 0 ? 0 : hi > m ? m : hi;
        row(obase + ooff * item, so, xbase + xoff * item, sx, m, lo, hi);
    }
    return ST_OK;
}
