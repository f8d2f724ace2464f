/* fast.c -- one-call entry points for the small calls Python makes most.
 *
 * A Python-level op costs a few hundred nanoseconds per cffi call and per
 * object it builds, so `a + b` on three elements spent ~10 us in shape,
 * dtype and layout bookkeeping around a kernel of a few nanoseconds.
 * These functions do the whole common case in one call and return a new
 * record; they return NULL, without raising, whenever the case is not the
 * common one (other dtypes, broadcasting, non-contiguous operands, an
 * error such as an integer division by zero), and the caller then takes
 * its general path, which makes the same decisions and raises the errors.
 * `dtypes` is a bit mask of the dtype codes the caller's face accepts for
 * the op (the array API's categories live in Python, as data). */
#include "st_internal.h"
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

static int same_sizes(const st_tensor *a, const st_tensor *b)
{
    if (a->ndim != b->ndim) return 0;
    for (int d = 0; d < a->ndim; d++)
        if (a->sizes[d] != b->sizes[d]) return 0;
    return 1;
}

/* A new C-contiguous record of these sizes, or NULL. */
/* A new C-contiguous record of these sizes, its elements zero when
 * `zeroed` (lazily zeroed pages when large), else unset; NULL on failure */
static st_tensor *new_record(int dtype, int ndim, const int64_t *sizes, int zeroed)
{
    st_tensor *out = st_tensor_new();
    if (out && (zeroed ? st_tensor_alloc_zeros : st_tensor_alloc)(out, dtype, ndim, sizes)) {
        st_tensor_free(out);
        return NULL;
    }
    return out;
}

static st_tensor *new_sized(int dtype, int ndim, const int64_t *sizes)
{
    return new_record(dtype, ndim, sizes, 0);
}

/* A new C-contiguous record with t's sizes, or NULL. */
static st_tensor *new_like(const st_tensor *t, int dtype)
{
    return new_sized(dtype, t->ndim, t->sizes);
}

/* t's dtype one of `dtypes` (a bit mask of codes), not a 16-bit float (they
 * compute in blocks: st_binary), its data there */
static int accepted_any_layout(uint32_t dtypes, const st_tensor *t)
{
    return t->dtype >= 0 && t->dtype < 32 && (dtypes >> t->dtype & 1) && !st_is_half(t->dtype) &&
           (t->storage || st_tensor_numel(t) == 0);
}

/* ... and C-contiguous */
static int accepted(uint32_t dtypes, const st_tensor *t)
{
    return accepted_any_layout(dtypes, t) && st_tensor_is_contiguous(t);
}

/* Up to this many elements an op runs on one thread and never streams its
 * output (st_threads_for, ST_STREAM_MIN_BYTES), so the kernel called on
 * one line is exactly what st_unary / st_binary would run, minus their
 * iterator set-up (the most of a small call's time in C).  Larger: theirs. */
#define LINE_MAX_ELEMENTS ST_PARALLEL_GRAIN

/* out = a op b, out fresh from new_like (contiguous, no other view of it),
 * a contiguous with out's element count, b too or a single element (a
 * scalar, read with step 0). */
static st_status binary_into(int op, st_tensor *out, const st_tensor *a, const st_tensor *b)
{
    int64_t n = st_tensor_numel(out);
    if (n > LINE_MAX_ELEMENTS) return st_binary(op, out, a, b);
    if (n == 0) return ST_OK;
    st_status rc = st_binary_check_divisor(op, a->dtype, b);
    if (rc) return rc;
    const int64_t item = st_itemsize(a->dtype);
    st_loop_fn loop = st_binary_kernel(op, a, &b); /* x ** 2, x ** 3 as st_binary */
    char *args[3] = {st_tensor_data(out), st_tensor_data(a), st_tensor_data(b)};
    const int64_t steps[3] = {st_itemsize(out->dtype), st_tensor_numel(a) == 1 ? 0 : item,
                              st_tensor_numel(b) == 1 ? 0 : item};
    loop(args, &n, steps, NULL);
    return ST_OK;
}

/* 1 when small broadcasts to big by repeating whole: its sizes, leading
 * 1s left out, are big's last ones, and it has no more dims than big
 * (x - mean(x, axis=0), x * scale: the rows of a matrix with a vector). */
static int repeats_into(const st_tensor *small, const st_tensor *big)
{
    int lead = 0;
    while (lead < small->ndim && small->sizes[lead] == 1) lead++;
    int k = small->ndim - lead;
    if (small->ndim > big->ndim) return 0;
    for (int d = 0; d < k; d++)
        if (small->sizes[lead + d] != big->sizes[big->ndim - k + d]) return 0;
    return 1;
}

/* Elements of a short repeated operand laid end to end in a buffer, so
 * that the kernel runs over many repetitions per call: a call costs tens
 * of nanoseconds, a row of a 1000x10 matrix far less. */
#define TILE_ELEMENTS 512

/* out = a op b, out fresh from new_like(big) with at most LINE_MAX_ELEMENTS
 * elements, the other operand repeating whole (repeats_into): the kernel
 * over runs of whole repetitions, a short repeated operand read from a
 * tile of copies of it. */
static st_status binary_repeated(int op, st_tensor *out, const st_tensor *a, const st_tensor *b)
{
    int64_t n = st_tensor_numel(out), na = st_tensor_numel(a), nb = st_tensor_numel(b);
    if (n == 0) return ST_OK;
    st_status rc = st_binary_check_divisor(op, a->dtype, b);
    if (rc) return rc;
    const int64_t item = st_itemsize(a->dtype), out_item = st_itemsize(out->dtype);
    const int small_is_a = na < nb;
    int64_t line = small_is_a ? na : nb;
    char *po = st_tensor_data(out), *pa = st_tensor_data(a), *pb = st_tensor_data(b);
    char *small = small_is_a ? pa : pb;
    _Alignas(64) char tile[TILE_ELEMENTS * 16]; /* 16: the largest item (complex128) */
    if (line <= TILE_ELEMENTS / 2) {
        int64_t copies = TILE_ELEMENTS / line;
        for (int64_t c = 0; c < copies; c++)
            memcpy(tile + c * line * item, small, (size_t)(line * item));
        line *= copies;
        small = tile;
    }
    const int64_t steps[3] = {out_item, item, item};
    st_loop_fn loop = st_binary_loop(op, a->dtype);
    for (int64_t at = 0; at < n; at += line) {
        char *args[3] = {po + at * out_item, small_is_a ? small : pa + at * item,
                         small_is_a ? pb + at * item : small};
        int64_t len = n - at < line ? n - at : line; /* the last run: whole repetitions */
        loop(args, &len, steps, NULL);
    }
    return ST_OK;
}

/* The broadcast shape of the k tensors ts (numpy's rules) into nd/sizes:
 * 1, or 0 when they do not broadcast or the count would overflow. */
static int broadcast_sizes(int k, const st_tensor *const *ts, int *nd, int64_t *sizes)
{
    int n = 0;
    for (int i = 0; i < k; i++) n = ts[i]->ndim > n ? ts[i]->ndim : n;
    int64_t count = 1;
    for (int d = 0; d < n; d++) {
        sizes[d] = 1;
        for (int i = 0; i < k; i++) {
            int di = d - (n - ts[i]->ndim);
            int64_t si = di >= 0 ? ts[i]->sizes[di] : 1;
            if (si != 1 && sizes[d] != 1 && si != sizes[d]) return 0;
            if (si != 1) sizes[d] = si;
        }
        if (__builtin_mul_overflow(count, sizes[d], &count)) return 0;
    }
    *nd = n;
    return 1;
}

/* A new record of these sizes laid out in memory like the first input of
 * the same sizes that is not contiguous (numpy's order 'K', as
 * strided.core.ops.empty_like_layout lays it out): dims by decreasing
 * |stride|, ties in order, then viewed back in the given dim order, so an
 * op on transposed inputs walks every operand contiguously.  C order when
 * no input fits (or the first that does has its dims in C order already,
 * or a zero stride). */
static st_tensor *new_like_layout(int dtype, int nd, const int64_t *sizes, int nin,
                                  const st_tensor *const *ins)
{
    for (int k = 0; k < nin; k++) {
        const st_tensor *t = ins[k];
        if (nd < 2 || t->ndim != nd || memcmp(t->sizes, sizes, (size_t)nd * sizeof *sizes) ||
            st_tensor_is_contiguous(t))
            continue;
        int order[ST_MAX_DIMS], zero = 0, identity = 1;
        for (int d = 0; d < nd; d++) {
            order[d] = d;
            zero |= t->strides[d] == 0;
        }
        if (zero) continue;
        for (int i = 1; i < nd; i++) /* stable: only a strictly larger step moves out */
            for (int j = i; j > 0 && llabs(t->strides[order[j - 1]]) < llabs(t->strides[order[j]]);
                 j--) {
                int o = order[j];
                order[j] = order[j - 1];
                order[j - 1] = o;
            }
        for (int d = 0; d < nd; d++) identity &= order[d] == d;
        if (identity) break;
        int64_t permuted[ST_MAX_DIMS], strides[ST_MAX_DIMS];
        for (int i = 0; i < nd; i++) permuted[i] = sizes[order[i]];
        st_tensor *out = new_sized(dtype, nd, permuted);
        if (!out) return NULL;
        for (int i = 0; i < nd; i++) strides[order[i]] = out->strides[i];
        memcpy(out->sizes, sizes, (size_t)nd * sizeof *sizes);
        memcpy(out->strides, strides, (size_t)nd * sizeof *strides);
        return out;
    }
    return new_sized(dtype, nd, sizes);
}

/* a op b of any sizes that broadcast, any layouts, into a new result laid
 * out by new_like_layout, by st_binary */
static st_tensor *binary_broadcast(int op, int res, const st_tensor *a, const st_tensor *b)
{
    int nd;
    int64_t sizes[ST_MAX_DIMS];
    const st_tensor *both[2] = {a, b};
    if (!broadcast_sizes(2, both, &nd, sizes)) return NULL;
    for (int k = 0; k < 2; k++)
        if (!both[k]->storage && st_tensor_numel(both[k])) return NULL;
    st_tensor *out = new_like_layout(res, nd, sizes, 2, both);
    if (!out || st_binary(op, out, a, b)) {
        st_tensor_free(out);
        return NULL;
    }
    return out;
}

st_tensor *st_binary_new(int op, uint32_t dtypes, const st_tensor *a, const st_tensor *b)
{
    if (a->dtype != b->dtype || a->dtype < 0 || a->dtype >= 32 || !(dtypes >> a->dtype & 1))
        return NULL;
    if (!accepted(dtypes, a) || !accepted(dtypes, b)) {
        int res = st_binary_result(op, a->dtype);
        return res < 0 ? NULL : binary_broadcast(op, res, a, b);
    }
    int same = same_sizes(a, b);
    const st_tensor *big = repeats_into(b, a) ? a : repeats_into(a, b) ? b : NULL;
    int res = st_binary_result(op, a->dtype);
    if (res < 0) return NULL;
    if (!same && (!big || st_tensor_numel(big) > LINE_MAX_ELEMENTS))
        return binary_broadcast(op, res, a, b);
    st_tensor *out = new_like(same ? a : big, res);
    /* one element repeated: one line, read with step 0 */
    int one_line = same || st_tensor_numel(a) == 1 || st_tensor_numel(b) == 1;
    if (out && (one_line ? binary_into(op, out, a, b) : binary_repeated(op, out, a, b))) {
        st_tensor_free(out);
        return NULL;
    }
    return out;
}

st_tensor *st_where_new(const st_tensor *cond, const st_tensor *a, const st_tensor *b)
{
    const st_tensor *ops[3] = {cond, a, b};
    int nd;
    int64_t sizes[ST_MAX_DIMS];
    if (cond->dtype != ST_BOOL || a->dtype != b->dtype || !broadcast_sizes(3, ops, &nd, sizes))
        return NULL;
    for (int k = 0; k < 3; k++)
        if (!ops[k]->storage && st_tensor_numel(ops[k])) return NULL;
    st_tensor *out = new_sized(a->dtype, nd, sizes);
    if (!out || st_where(out, cond, a, b)) {
        st_tensor_free(out);
        return NULL;
    }
    return out;
}

/* Store a Python scalar as one element of `dtype` into buf, as the array
 * API converts it (an int: range-checked for integer dtypes, through
 * double for floating ones; a float: floating dtypes only).  0 when the
 * scalar does not go plainly into that dtype. */
#define STORE_INT(CODE, SFX, T, R, ...)                                                            \
    case CODE:                                                                                     \
        if (!is_int || !(ivalue >= 0 ? (uint64_t)(T)ivalue == (uint64_t)ivalue                     \
                                     : ST_SIGNED(T) && (int64_t)(T)ivalue == ivalue))              \
            return 0;                                                                              \
        *(T *)buf = (T)ivalue;                                                                     \
        return 1;
#define STORE_FLOAT(CODE, SFX, T, R, ...)                                                          \
    case CODE:                                                                                     \
        *(T *)buf = is_int ? (T)(double)ivalue : (T)fvalue;                                        \
        return 1;
static int store_scalar(int dtype, void *buf, int is_int, int64_t ivalue, double fvalue)
{
    switch (dtype) {
        ST_TYPES_INT(STORE_INT)
        ST_TYPES_FLOAT(STORE_FLOAT)
    default:
        return 0;
    }
}

/* The bool mask over in's leading dims as a view of in's rank (trailing
 * dims of size 1, step 0), which the mask kernels broadcast to in: 1 when
 * mask is that (bool, 1 <= ndim <= in's, its sizes in's first ones), else
 * 0.  The view borrows mask's storage (not retained: used while mask is). */
static int leading_mask(const st_tensor *in, const st_tensor *mask, st_tensor *view)
{
    if (mask->dtype != ST_BOOL || mask->ndim < 1 || mask->ndim > in->ndim ||
        (!mask->storage && st_tensor_numel(mask)) || (!in->storage && st_tensor_numel(in)))
        return 0;
    *view = *mask;
    for (int d = 0; d < in->ndim; d++) {
        if (d < mask->ndim && mask->sizes[d] != in->sizes[d]) return 0;
        view->sizes[d] = d < mask->ndim ? mask->sizes[d] : 1;
        view->strides[d] = d < mask->ndim ? mask->strides[d] : 0;
    }
    view->ndim = in->ndim;
    return 1;
}

st_tensor *st_mask_select_new(const st_tensor *in, const st_tensor *mask)
{
    st_tensor m;
    int64_t rows, sizes[ST_MAX_DIMS];
    if (!leading_mask(in, mask, &m) || st_nonzero_count(mask, &rows)) return NULL;
    sizes[0] = rows;
    const int rest = in->ndim - mask->ndim;
    memcpy(sizes + 1, in->sizes + mask->ndim, (size_t)rest * sizeof *sizes);
    st_tensor *out = new_sized(in->dtype, rest + 1, sizes);
    if (!out) return NULL;
    /* the selected rows, element after element: out seen flat */
    int64_t flat = st_tensor_numel(out), one = 1;
    st_tensor *line = st_view_new(out, out->offset, 1, &flat, &one);
    st_status rc = line ? st_masked_select(line, in, &m) : ST_E_MEMORY;
    st_tensor_free(line);
    if (rc) {
        st_tensor_free(out);
        return NULL;
    }
    return out;
}

st_tensor *st_take_new(const st_tensor *in, int dim, const st_tensor *idx)
{
    if (idx->dtype != ST_INT64 || idx->ndim != 1 || dim < 0 || dim >= in->ndim) return NULL;
    int64_t sizes[ST_MAX_DIMS];
    memcpy(sizes, in->sizes, (size_t)in->ndim * sizeof *sizes);
    sizes[dim] = idx->sizes[0];
    st_tensor *out = new_sized(in->dtype, in->ndim, sizes);
    if (out && st_index_select(out, in, dim, idx, ST_IDX_WRAP)) {
        st_tensor_free(out); /* an index out of range: the general path says which */
        return NULL;
    }
    return out;
}

int st_mask_assign(st_tensor *dst, const st_tensor *mask, const st_tensor *src, int is_int,
                   int64_t ivalue, double fvalue)
{
    st_tensor m;
    _Alignas(16) char buf[16];
    if (!leading_mask(dst, mask, &m)) return 0;
    if (!src)
        return store_scalar(dst->dtype, buf, is_int, ivalue, fvalue) &&
               st_masked_fill(dst, &m, buf) == ST_OK;
    if (src->dtype != dst->dtype || src->ndim != dst->ndim - mask->ndim + 1) return 0;
    int64_t rows;
    if (st_nonzero_count(mask, &rows) || src->sizes[0] != rows) return 0;
    for (int d = 1; d < src->ndim; d++)
        if (src->sizes[d] != dst->sizes[mask->ndim + d - 1]) return 0;
    return st_masked_copy(dst, &m, src) == ST_OK;
}

int st_binary_into(int op, uint32_t dtypes, st_tensor *x, const st_tensor *y, int is_int,
                   int64_t ivalue, double fvalue)
{
    if (x->dtype < 0 || x->dtype >= 32 || !(dtypes >> x->dtype & 1) ||
        st_binary_result(op, x->dtype) != x->dtype || !x->storage ||
        (x->storage->flags & ST_STORAGE_READONLY))
        return 0;
    if (!y) {
        /* a Python number: a 0-d view of buf on the stack (st_binary keeps nothing) */
        _Alignas(16) char buf[16];
        if (!store_scalar(x->dtype, buf, is_int, ivalue, fvalue)) return 0;
        st_storage storage = {.data = buf, .nbytes = sizeof buf, .refcount = 1};
        st_tensor scalar;
        memset(&scalar, 0, offsetof(st_tensor, sizes));
        scalar.storage = &storage;
        scalar.dtype = x->dtype;
        scalar.refcount = 1;
        return !st_binary_check_divisor(op, x->dtype, &scalar) &&
               st_binary(op, x, x, &scalar) == ST_OK;
    }
    /* y of x's dtype broadcasting to exactly x's shape */
    if (y->dtype != x->dtype || y->ndim > x->ndim || (!y->storage && st_tensor_numel(y))) return 0;
    for (int d = 0; d < y->ndim; d++) {
        const int64_t n = y->sizes[d], want = x->sizes[x->ndim - y->ndim + d];
        if (n != want && n != 1) return 0;
    }
    if (same_sizes(x, y) && st_binary_inplace_small(op, x, y)) return 1;
    return !st_binary_check_divisor(op, x->dtype, y) && st_binary(op, x, x, y) == ST_OK;
}

int st_binary_inplace_small(int op, st_tensor *x, const st_tensor *y)
{
    /* 0-d: declined (a scalar to the core, but Torch7's empty tensor) */
    if (x->ndim == 0 || x->dtype != y->dtype || st_binary_result(op, x->dtype) != x->dtype ||
        !same_sizes(x, y) || !accepted(~(uint32_t)0, x) || !accepted(~(uint32_t)0, y) ||
        (x->storage && (x->storage->flags & ST_STORAGE_READONLY)))
        return 0;
    int64_t n = st_tensor_numel(x);
    if (n > LINE_MAX_ELEMENTS) return 0;
    if (n == 0) return 1;
    const int64_t item = st_itemsize(x->dtype);
    char *px = st_tensor_data(x), *py = st_tensor_data(y);
    /* the same elements, or no element in common (contiguous: byte ranges) */
    if (px != py && px < py + n * item && py < px + n * item) return 0;
    if (st_binary_check_divisor(op, x->dtype, y)) return 0;
    const st_tensor *yk = y;
    st_loop_fn loop = st_binary_kernel(op, x, &yk); /* x ** 2, x ** 3 as st_binary */
    char *args[3] = {px, px, yk == y ? py : px};
    const int64_t steps[3] = {item, item, item};
    loop(args, &n, steps, NULL);
    return 1;
}

st_tensor *st_binary_scalar_new(int op, uint32_t dtypes, const st_tensor *a, int is_int,
                                int64_t ivalue, double fvalue, int scalar_first)
{
    if (!accepted_any_layout(dtypes, a)) return NULL;
    const int strided = !st_tensor_is_contiguous(a); /* (a transposed x: st_binary) */
    int res = st_binary_result(op, a->dtype);
    if (res < 0) return NULL;
    _Alignas(16) char buf[16];
    if (!store_scalar(a->dtype, buf, is_int, ivalue, fvalue)) return NULL;
    /* a 0-d view of buf, on the stack: st_binary reads it and keeps nothing */
    st_storage storage = {.data = buf, .nbytes = sizeof buf, .refcount = 1};
    st_tensor scalar;
    memset(&scalar, 0, offsetof(st_tensor, sizes));
    scalar.storage = &storage;
    scalar.dtype = a->dtype;
    scalar.refcount = 1;
    const st_tensor *x = scalar_first ? &scalar : a, *y = scalar_first ? a : &scalar;
    st_tensor *out = strided ? new_like_layout(res, a->ndim, a->sizes, 1, &a) : new_like(a, res);
    if (out && (strided ? st_binary(op, out, x, y) : binary_into(op, out, x, y))) {
        st_tensor_free(out);
        return NULL;
    }
    return out;
}

/* out = op(a), out fresh from new_like, a contiguous with its sizes. */
static st_status unary_into(int op, st_tensor *out, const st_tensor *a)
{
    int64_t n = st_tensor_numel(out);
    if (n > LINE_MAX_ELEMENTS) return st_unary(op, out, a);
    if (n == 0) return ST_OK;
    char *args[2] = {st_tensor_data(out), st_tensor_data(a)};
    const int64_t steps[2] = {st_itemsize(out->dtype), st_itemsize(a->dtype)};
    st_unary_loop(op, a->dtype)(args, &n, steps, NULL);
    return ST_OK;
}

st_tensor *st_unary_new(int op, uint32_t dtypes, const st_tensor *a)
{
    if (!accepted(dtypes, a)) return NULL;
    int res = st_unary_result(op, a->dtype);
    if (res < 0) return NULL;
    st_tensor *out = new_like(a, res);
    if (out && unary_into(op, out, a)) {
        st_tensor_free(out);
        return NULL;
    }
    return out;
}

st_tensor *st_zeros_new(int dtype, int ndim, const int64_t *sizes)
{
    if (dtype < 0 || dtype >= ST_NTYPES || ndim < 0 || ndim > ST_MAX_DIMS) return NULL;
    return new_record(dtype, ndim, sizes, 1);
}

st_tensor *st_vector_new(int dtype, int64_t n, const void *src)
{
    if (dtype < 0 || dtype >= ST_NTYPES || n < 0) return NULL;
    st_tensor *out = new_record(dtype, 1, &n, !src); /* no source: zeros */
    if (out && src) memcpy(out->storage->data, src, (size_t)(n * st_itemsize(dtype)));
    return out;
}

/* st_reduce over every dim into a one-element out of any rank: out (and
 * aux) seen through a view of in's rank, every size 1, so that the caller
 * need not build the keepdim shape and then drop it. */
static int as_ones(st_tensor *view, const st_tensor *t, int ndim)
{
    if (st_tensor_numel(t) != 1) return 0;
    *view = *t;
    view->ndim = ndim;
    for (int d = 0; d < ndim; d++) {
        view->sizes[d] = 1;
        view->strides[d] = 0;
    }
    return 1;
}

st_status st_reduce_all(int op, st_tensor *out, const st_tensor *in, const st_tensor *aux)
{
    st_tensor o, x;
    if (!as_ones(&o, out, in->ndim))
        return st_fail(ST_E_VALUE, "reduction output has %lld elements, expected 1",
                       (long long)st_tensor_numel(out));
    if (aux && !as_ones(&x, aux, in->ndim))
        return st_fail(ST_E_VALUE, "var's mean has the wrong shape");
    uint8_t all[ST_MAX_DIMS];
    memset(all, 1, sizeof all);
    return st_reduce(op, &o, in, all, aux ? &x : NULL);
}

/* op over the dims flagged in the bit mask `dims` of a, into a new
 * C-contiguous result (the keepdim shape seen through the result's own
 * storage while st_reduce writes it); mean: the sum divided by the number
 * of elements reduced, for float32 and float64 sums (as the Python path
 * divides: by the count converted to the sum's dtype). */
st_tensor *st_reduce_new(int op, int mean, const st_tensor *a, uint64_t dims, int keepdims)
{
    int res = st_reduce_result(op, a->dtype);
    if (res < 0 || (mean && (op != ST_R_SUM || (res != ST_FLOAT32 && res != ST_FLOAT64))))
        return NULL;
    if (a->ndim < 64 && dims >> a->ndim) return NULL;
    int64_t keep[ST_MAX_DIMS], sizes[ST_MAX_DIMS], count = 1;
    uint8_t flags[ST_MAX_DIMS];
    int nd = 0;
    for (int d = 0; d < a->ndim; d++) {
        flags[d] = dims >> d & 1;
        if (flags[d]) {
            if (!a->sizes[d] && (op == ST_R_MIN || op == ST_R_MAX)) return NULL;
            count *= a->sizes[d];
            keep[d] = 1;
            if (keepdims) sizes[nd++] = 1;
        } else {
            keep[d] = sizes[nd++] = a->sizes[d];
        }
    }
    st_tensor *out = new_sized(res, nd, sizes);
    if (!out) return NULL;
    st_tensor k = *out;
    k.ndim = a->ndim;
    for (int64_t d = a->ndim - 1, step = 1; d >= 0; step *= keep[d--]) {
        k.sizes[d] = keep[d];
        k.strides[d] = step;
    }
    if (st_reduce(op, &k, a, flags, NULL)) {
        st_tensor_free(out);
        return NULL;
    }
    if (mean) {
        int64_t n = st_tensor_numel(out);
        char *data = out->storage->data + out->offset * st_itemsize(res);
        if (res == ST_FLOAT64) {
            double *o = (double *)data, c = (double)count;
            for (int64_t i = 0; i < n; i++) o[i] /= c;
        } else {
            float *o = (float *)data, c = (float)(double)count;
            for (int64_t i = 0; i < n; i++) o[i] /= c;
        }
    }
    return out;
}

st_tensor *st_var_new(const st_tensor *a, uint64_t dims, int keepdims, double correction,
                      int take_sqrt)
{
    if ((a->dtype != ST_FLOAT32 && a->dtype != ST_FLOAT64) || (a->ndim < 64 && dims >> a->ndim))
        return NULL;
    st_tensor *m = st_reduce_new(ST_R_SUM, 1, a, dims, 1); /* the mean, keepdims */
    if (!m) return NULL;
    int64_t sizes[ST_MAX_DIMS], count = 1;
    uint8_t flags[ST_MAX_DIMS];
    int nd = 0;
    for (int d = 0; d < a->ndim; d++) {
        flags[d] = dims >> d & 1;
        if (flags[d]) count *= a->sizes[d];
        if (!flags[d] || keepdims) sizes[nd++] = flags[d] ? 1 : a->sizes[d];
    }
    st_tensor *out = new_sized(a->dtype, nd, sizes);
    if (!out) {
        st_tensor_free(m);
        return NULL;
    }
    st_tensor k = *m; /* out's elements through the mean's keepdim shape */
    k.storage = out->storage;
    k.offset = out->offset;
    st_status rc = st_reduce(ST_R_SUMSQDEV, &k, a, flags, m);
    st_tensor_free(m);
    if (rc) {
        st_tensor_free(out);
        return NULL;
    }
    const double diff = (double)count - correction, dof = 0 > diff ? 0.0 : diff; /* max(diff, 0) */
    const int64_t n = st_tensor_numel(out);
    char *data = out->storage->data + out->offset * st_itemsize(a->dtype);
    if (a->dtype == ST_FLOAT64) {
        double *o = (double *)data;
        for (int64_t i = 0; i < n; i++) o[i] = take_sqrt ? sqrt(o[i] / dof) : o[i] / dof;
    } else {
        float *o = (float *)data, f = (float)dof;
        for (int64_t i = 0; i < n; i++) o[i] = take_sqrt ? sqrtf(o[i] / f) : o[i] / f;
    }
    return out;
}

/* The first position of the max (min) along dim of a, or of contiguous
 * a's elements in order (dim < 0), as a new int64 result (keepdims: a's
 * sizes with 1 at dim, or a's ndim ones); NULL when declined (no element to
 * find along dim, a non-contiguous a with dim < 0, a failure). */
st_tensor *st_argreduce_new(int is_max, const st_tensor *a, int dim, int keepdims)
{
    st_tensor in = *a;
    if (dim < 0) { /* flattened: a 1-D record of the same memory */
        if (!st_tensor_is_contiguous(a)) return NULL;
        in.ndim = 1;
        in.sizes[0] = st_tensor_numel(a);
        in.strides[0] = 1;
        dim = 0;
    }
    if (dim >= in.ndim || in.sizes[dim] == 0) return NULL;
    int64_t sizes[ST_MAX_DIMS];
    int nd = 0;
    for (int d = 0; d < in.ndim; d++)
        if (d != dim) sizes[nd++] = in.sizes[d];
    st_tensor *out = new_sized(ST_INT64, nd, sizes);
    if (!out) return NULL;
    st_tensor k = *out; /* the keepdim view st_argreduce writes */
    k.ndim = in.ndim;
    for (int64_t d = in.ndim - 1, step = 1; d >= 0; d--) {
        k.sizes[d] = d == dim ? 1 : in.sizes[d];
        k.strides[d] = step;
        step *= k.sizes[d];
    }
    if (st_argreduce(is_max, &k, &in, dim)) {
        st_tensor_free(out);
        return NULL;
    }
    if (keepdims) { /* a's ndim: the keepdim sizes (flattened: all 1) */
        out->ndim = a->ndim;
        for (int d = 0; d < a->ndim; d++) {
            out->sizes[d] = a->ndim == in.ndim ? k.sizes[d] : 1;
            out->strides[d] = a->ndim == in.ndim ? k.strides[d] : 1;
        }
    }
    return out;
}

/* ---- views, copies and products for the Array's small calls ---- */

st_tensor *st_view_new(const st_tensor *t, int64_t offset, int ndim, const int64_t *sizes,
                       const int64_t *strides)
{
    st_tensor *out = st_tensor_new();
    if (out && st_tensor_set(out, t->storage, t->dtype, offset, ndim, sizes, strides)) {
        st_tensor_free(out);
        return NULL;
    }
    return out;
}

/* The strides that view (sizes, strides) as new_sizes of the same count,
 * or 0 when the layout does not allow a view.  Chunk by chunk, as numpy's
 * no-copy reshape: each run of old dims contiguous in itself maps onto a
 * run of new dims of the same element count (size-1 dims on either side
 * take any stride). */
int st_reshape_strides(int ndim, const int64_t *sizes, const int64_t *strides, int new_ndim,
                       const int64_t *new_sizes, int64_t *new_strides)
{
    int64_t on[ST_MAX_DIMS], os[ST_MAX_DIMS], numel = 1;
    int nold = 0;
    for (int d = 0; d < ndim; d++) {
        numel *= sizes[d];
        if (sizes[d] != 1) {
            on[nold] = sizes[d];
            os[nold++] = strides[d];
        }
    }
    if (!numel || !ndim) { /* any layout: the C strides */
        for (int64_t d = new_ndim - 1, step = 1; d >= 0;
             step *= new_sizes[d] ? new_sizes[d] : 1, d--)
            new_strides[d] = step;
        return 1;
    }
    int oi = 0, ni = 0;
    while (ni < new_ndim || oi < nold) {
        if (ni < new_ndim && new_sizes[ni] == 1) {
            new_strides[ni++] = 1;
            continue;
        }
        if (oi >= nold || ni >= new_ndim) return 0;
        int oe = oi + 1, ne = ni + 1;
        int64_t oc = on[oi], nc = new_sizes[ni];
        while (oc != nc) {
            if (oc < nc) {
                if (oe >= nold) return 0;
                oc *= on[oe++];
            } else {
                if (ne >= new_ndim) return 0;
                nc *= new_sizes[ne++];
            }
        }
        for (int k = oi; k < oe - 1; k++)
            if (os[k] != os[k + 1] * on[k + 1]) return 0;
        int64_t step = os[oe - 1];
        for (int k = ne - 1; k >= ni; k--) {
            new_strides[k] = step;
            step *= new_sizes[k];
        }
        oi = oe;
        ni = ne;
    }
    return 1;
}

/* a reshaped to sizes (their product a's count): a view when the layout
 * allows one, else (copy_ok) a C-contiguous copy with those sizes, else
 * NULL */
st_tensor *st_reshape_new(const st_tensor *a, int ndim, const int64_t *sizes, int copy_ok)
{
    int64_t strides[ST_MAX_DIMS];
    if (st_reshape_strides(a->ndim, a->sizes, a->strides, ndim, sizes, strides))
        return st_view_new(a, a->offset, ndim, sizes, strides);
    if (!copy_ok) return NULL;
    st_tensor *out = st_astype_new(a, a->dtype);
    if (!out) return NULL;
    out->ndim = ndim; /* a fresh record over its own block: reshaped in place */
    for (int64_t d = ndim - 1, step = 1; d >= 0; step *= sizes[d--]) {
        out->sizes[d] = sizes[d];
        out->strides[d] = step;
    }
    return out;
}

st_tensor *st_astype_new(const st_tensor *a, int dtype)
{
    if (dtype < 0 || dtype >= ST_NTYPES) return NULL;
    st_tensor *out = new_like(a, dtype);
    if (out && st_copy(out, a)) {
        st_tensor_free(out);
        return NULL;
    }
    return out;
}

static int writable(const st_tensor *t)
{
    return !t->storage || !(t->storage->flags & ST_STORAGE_READONLY);
}

int st_fill_scalar(st_tensor *t, int is_int, int64_t ivalue, double fvalue)
{
    _Alignas(16) char buf[16];
    if (!writable(t) || !store_scalar(t->dtype, buf, is_int, ivalue, fvalue)) return 0;
    return st_fill(t, buf) == ST_OK;
}

int st_assign_small(st_tensor *dst, const st_tensor *src)
{
    if (!writable(dst) || dst->dtype != src->dtype || (src->ndim && !same_sizes(dst, src)))
        return 0;
    return st_copy(dst, src) == ST_OK;
}

/* A 2-D record on the stack viewing t (1-D: as a row when `row`, else a
 * column; 0-d: 1x1), the added dim's stride as views.unsqueeze gives it:
 * st_matmul keeps nothing of it. */
static void as_matrix(st_tensor *m, const st_tensor *t, int row)
{
    memcpy(m, t, offsetof(st_tensor, sizes));
    m->ndim = 2;
    if (t->ndim == 2) {
        memcpy(m->sizes, t->sizes, sizeof(int64_t[2]));
        memcpy(m->strides, t->strides, sizeof(int64_t[2]));
        return;
    }
    int64_t n = t->ndim ? t->sizes[0] : 1, s = t->ndim ? t->strides[0] : 1;
    m->sizes[0] = row ? 1 : n;
    m->sizes[1] = row ? n : 1;
    m->strides[0] = row ? s * n : s;
    m->strides[1] = row ? s : 1;
}

st_tensor *st_matmul_new(uint32_t dtypes, const st_tensor *a, const st_tensor *b)
{
    int an = a->ndim, bn = b->ndim;
    if (a->dtype != b->dtype || a->dtype < 0 || a->dtype >= 32 || !(dtypes >> a->dtype & 1) ||
        an < 1 || an > 2 || bn < 1 || bn > 2 || a->sizes[an - 1] != b->sizes[0] ||
        !st_tensor_numel(a) || !st_tensor_numel(b))
        return NULL;
    int64_t sizes[2];
    int ndim = 0;
    if (an == 2) sizes[ndim++] = a->sizes[0];
    if (bn == 2) sizes[ndim++] = b->sizes[1];
    st_tensor *out = st_tensor_new();
    if (!out) return NULL;
    if (st_tensor_alloc(out, a->dtype, ndim, sizes)) {
        st_tensor_free(out);
        return NULL;
    }
    st_tensor a2, b2, o2;
    as_matrix(&a2, a, 1);
    as_matrix(&b2, b, 0);
    as_matrix(&o2, out, an == 1); /* (n,) is a column, (m,) a row, () 1x1 */
    if (st_matmul(&o2, &a2, &b2)) {
        st_tensor_free(out);
        return NULL;
    }
    return out;
}
