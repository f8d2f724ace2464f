/* iter.c -- the one N-d iterator every elementwise kernel runs under
 * (after Torch7's THTensorApply.h and numpy's nditer):
 *   broadcast operands to operand 0's shape (zero strides), drop size-1
 *   dims, flip dims that every operand walks backwards, order dims by
 *   stride, merge dims that are contiguous together, then hand the
 *   innermost dim to a 1-D kernel, splitting the element range over
 *   threads when it is large enough to pay for them. */
#include "st_internal.h"
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#ifdef _OPENMP
#include <omp.h>
#endif

st_status st_iter_init(st_iter *it, int nop, const st_tensor *const *ops, int flags)
{
    return st_iter_init_shape(it, nop, ops, ops[0]->ndim, ops[0]->sizes, flags);
}

st_status st_iter_init_shape(st_iter *it, int nop, const st_tensor *const *ops, int nd,
                             const int64_t *shape, int flags)
{
    it->nop = nop;
    it->ndim = nd;
    it->numel = 1;
    it->c_order = (flags & ST_ITER_C_ORDER) != 0;
    for (int d = 0; d < nd; d++) {
        it->size[d] = shape[d];
        it->numel *= shape[d];
    }
    for (int k = 0; k < nop; k++) {
        const st_tensor *t = ops[k];
        int64_t item = st_itemsize(t->dtype);
        int lead = nd - t->ndim;
        if (lead < 0) goto mismatch;
        for (int d = 0; d < nd; d++) {
            int64_t step = 0;
            if (d >= lead) {
                int64_t sz = t->sizes[d - lead];
                if (sz != it->size[d] && sz != 1) goto mismatch;
                if (sz != 1) step = t->strides[d - lead] * item;
            }
            it->step[d][k] = step;
        }
        it->data[k] = st_tensor_data(t);
        continue;
    mismatch:
        {
            char want[256], got[256];
            st_shape_str(want, sizeof want, nd, shape);
            st_shape_str(got, sizeof got, t->ndim, t->sizes);
            return st_fail(ST_E_VALUE, "operand %d of shape %s does not broadcast to shape %s", k,
                           got, want);
        }
    }
    st_iter_simplify(it, flags);
    return ST_OK;
}

/* Is dim a outer to dim b?  Decided by the first operand that walks both. */
static int outer_to(const st_iter *it, int a, int b)
{
    for (int k = 0; k < it->nop; k++) {
        int64_t sa = llabs(it->step[a][k]), sb = llabs(it->step[b][k]);
        if (sa && sb && sa != sb) return sa > sb;
    }
    return a < b; /* undecided: keep C order */
}

static void swap_dims(st_iter *it, int a, int b)
{
    int64_t s = it->size[a];
    it->size[a] = it->size[b];
    it->size[b] = s;
    for (int k = 0; k < it->nop; k++) {
        int64_t t = it->step[a][k];
        it->step[a][k] = it->step[b][k];
        it->step[b][k] = t;
    }
}

/* A tiny inner dim that cannot merge (xpx.kron's a[:, None, :, None] *
 * b[None, :, None, :]: out (2000, 4, 200, 4), inner 4 with a's step 0)
 * costs a kernel call per 4 elements, several times the elements' own
 * work.  When the next dim is long and every operand's pass over it stays
 * inside a small window (revisited once per inner index while it is in
 * L1), the two swap: one call walks the long dim, strided, instead. */
#define ST_TINY_INNER 8
#define ST_TINY_WINDOW (16 * 1024) /* bytes an operand's pass over the long dim may span */

static void swap_tiny_inner(st_iter *it)
{
    const int in = it->ndim - 1;
    if (in < 1 || it->size[in] > ST_TINY_INNER || it->size[in - 1] < 2 * it->size[in]) return;
    for (int k = 0; k < it->nop; k++)
        if (llabs(it->step[in - 1][k]) * it->size[in - 1] > ST_TINY_WINDOW) return;
    swap_dims(it, in - 1, in);
}

void st_iter_simplify(st_iter *it, int flags)
{
    int nop = it->nop, nd = 0;
    int empty = it->numel == 0;
    /* drop size-1 dims (keep everything for an empty iteration: it runs nothing) */
    for (int d = 0; d < it->ndim; d++) {
        if (it->size[d] == 1 && !empty) continue;
        if (d != nd) {
            it->size[nd] = it->size[d];
            for (int k = 0; k < nop; k++) it->step[nd][k] = it->step[d][k];
        }
        nd++;
    }
    it->ndim = nd;
    if (!(flags & ST_ITER_C_ORDER) && !empty) {
        /* a dim every operand walks backwards is walked forwards instead */
        for (int d = 0; d < nd; d++) {
            int neg = 0, pos = 0;
            for (int k = 0; k < nop; k++) {
                neg |= it->step[d][k] < 0;
                pos |= it->step[d][k] > 0;
            }
            if (neg && !pos)
                for (int k = 0; k < nop; k++) {
                    it->data[k] += (it->size[d] - 1) * it->step[d][k];
                    it->step[d][k] = -it->step[d][k];
                }
        }
        /* insertion sort, outermost first; stable so ties keep C order */
        for (int i = 1; i < nd; i++)
            for (int j = i; j > 0 && !outer_to(it, j - 1, j) && outer_to(it, j, j - 1); j--)
                swap_dims(it, j - 1, j);
    }
    /* merge an outer dim into the inner one when every operand allows it */
    if (nd > 1) {
        int w = nd - 1; /* write position, walking from the innermost dim */
        for (int d = nd - 2; d >= 0; d--) {
            int ok = 1;
            for (int k = 0; k < nop && ok; k++) ok = it->step[d][k] == it->step[w][k] * it->size[w];
            if (ok) {
                it->size[w] *= it->size[d];
            } else {
                w--;
                it->size[w] = it->size[d];
                for (int k = 0; k < nop; k++) it->step[w][k] = it->step[d][k];
            }
        }
        int kept = nd - w;
        for (int d = 0; d < kept; d++) {
            it->size[d] = it->size[w + d];
            for (int k = 0; k < nop; k++) it->step[d][k] = it->step[w + d][k];
        }
        nd = kept;
    }
    if (nd == 0) { /* a single element */
        nd = 1;
        it->size[0] = 1;
        for (int k = 0; k < nop; k++) it->step[0][k] = 0;
    }
    it->ndim = nd;
    if (!(flags & ST_ITER_C_ORDER) && !empty) swap_tiny_inner(it);
}

/* The kernel over the linear range [begin, end); with a rows kernel, a
 * short inner dim's whole rows along dim ndim-2 go to it in one call. */
static void run_range(const st_iter *it, int64_t begin, int64_t end, st_loop_fn kernel,
                      st_rows_fn rows, void *extra)
{
    if (begin >= end) return;
    const int nd = it->ndim, nop = it->nop, in = nd - 1;
    int64_t idx[ST_MAX_DIMS];
    char *row[ST_MAX_OPERANDS], *args[ST_MAX_OPERANDS];
    int64_t inner_step[ST_MAX_OPERANDS], rows_steps[2 * ST_MAX_OPERANDS];
    int64_t rem = begin;
    for (int d = nd - 1; d >= 0; d--) {
        idx[d] = rem % it->size[d];
        rem /= it->size[d];
    }
    for (int k = 0; k < nop; k++) {
        row[k] = it->data[k];
        for (int d = 0; d < in; d++) row[k] += idx[d] * it->step[d][k];
        inner_step[k] = it->step[in][k];
    }
    const int by_rows = rows && in >= 1 && it->size[in] <= ST_ROWS_INNER_MAX;
    if (by_rows)
        for (int k = 0; k < nop; k++) {
            rows_steps[k] = inner_step[k];
            rows_steps[nop + k] = it->step[in - 1][k];
        }
    int64_t pos = begin;
    for (;;) {
        int64_t done = 1; /* rows of dim in - 1 this step finished */
        int64_t r = 0;
        if (by_rows && idx[in] == 0) {
            r = it->size[in - 1] - idx[in - 1];
            if (r > (end - pos) / it->size[in]) r = (end - pos) / it->size[in];
        }
        if (r >= 2) {
            const int64_t n2[2] = {it->size[in], r};
            rows(row, n2, rows_steps, extra);
            pos += r * it->size[in];
            done = r;
        } else {
            int64_t n = it->size[in] - idx[in];
            if (n > end - pos) n = end - pos;
            for (int k = 0; k < nop; k++) args[k] = row[k] + idx[in] * inner_step[k];
            kernel(args, &n, inner_step, extra);
            pos += n;
        }
        if (pos >= end) return;
        idx[in] = 0;
        for (int d = in - 1; d >= 0; d--) {
            for (int k = 0; k < nop; k++) row[k] += done * it->step[d][k];
            idx[d] += done;
            if (idx[d] < it->size[d]) break;
            for (int k = 0; k < nop; k++) row[k] -= it->size[d] * it->step[d][k];
            idx[d] = 0;
            done = 1;
        }
    }
}

void st_iter_run_range(const st_iter *it, int64_t begin, int64_t end, st_loop_fn kernel,
                       void *extra)
{
    run_range(it, begin, end, kernel, NULL, extra);
}

/* ---- cache tiling ----
 * When one operand walks the inner dim with a large stride (a transposed
 * copy, a + b.T) but is contiguous along another dim, plain row order
 * touches a new cache line per element for that operand.  Walking square
 * tiles of those two dims instead reuses every line it loads. */
#define ST_TILE 64
#define ST_TILE_MIN_STEP 64 /* bytes: a step this large wastes a cache line */

/* The dim to tile with the inner one, or -1 when tiling would not help. */
static int tile_dim(const st_iter *it)
{
    int in = it->ndim - 1;
    if (it->ndim < 2 || it->numel < 4 * ST_TILE * ST_TILE) return -1;
    for (int k = 0; k < it->nop; k++) {
        if (llabs(it->step[in][k]) < ST_TILE_MIN_STEP) continue;
        int best = -1;
        for (int d = 0; d < in; d++) {
            int64_t s = llabs(it->step[d][k]);
            if (s && s <= 16 && it->size[d] >= ST_TILE / 4 &&
                (best < 0 || s < llabs(it->step[best][k])))
                best = d;
        }
        if (best >= 0) return best;
    }
    return -1;
}

static void run_tiles(const st_iter *it, int64_t t0, int64_t t1, st_loop_fn kernel, void *extra,
                      int64_t lb)
{
    /* it has the tiled dim at ndim-2 and the inner dim at ndim-1; tiles of
     * ST_TILE x lb */
    const int nd = it->ndim, nop = it->nop, a = nd - 2, b = nd - 1;
    const int64_t na = it->size[a], nb = it->size[b];
    const int64_t ta = (na + ST_TILE - 1) / ST_TILE, tb = (nb + lb - 1) / lb;
    int64_t inner_step[ST_MAX_OPERANDS];
    char *args[ST_MAX_OPERANDS];
    for (int k = 0; k < nop; k++) inner_step[k] = it->step[b][k];
    for (int64_t t = t0; t < t1; t++) {
        int64_t outer = t / (ta * tb), rem = t % (ta * tb);
        int64_t ia = rem / tb * ST_TILE, ib = rem % tb * lb;
        int64_t ea = ia + ST_TILE < na ? ia + ST_TILE : na;
        int64_t n = ib + lb < nb ? lb : nb - ib;
        char *base[ST_MAX_OPERANDS];
        for (int k = 0; k < nop; k++) base[k] = it->data[k] + ib * it->step[b][k];
        for (int d = a - 1; d >= 0; d--) {
            int64_t i = outer % it->size[d];
            outer /= it->size[d];
            for (int k = 0; k < nop; k++) base[k] += i * it->step[d][k];
        }
        for (int64_t i = ia; i < ea; i++) {
            for (int k = 0; k < nop; k++) args[k] = base[k] + i * it->step[a][k];
            kernel(args, &n, inner_step, extra);
        }
    }
}

static void run_tiled(const st_iter *src, int dim, st_loop_fn kernel, void *extra, int nt,
                      int fence, int64_t lb)
{
    st_iter it = *src;
    /* move `dim` next to the inner dim; the order of the others is kept */
    for (int d = dim; d < it.ndim - 2; d++) {
        int64_t s = it.size[d];
        it.size[d] = it.size[d + 1];
        it.size[d + 1] = s;
        for (int k = 0; k < it.nop; k++) {
            int64_t t = it.step[d][k];
            it.step[d][k] = it.step[d + 1][k];
            it.step[d + 1][k] = t;
        }
    }
    int64_t na = it.size[it.ndim - 2], nb = it.size[it.ndim - 1];
    int64_t ntiles = it.numel / (na * nb) * ((na + ST_TILE - 1) / ST_TILE) * ((nb + lb - 1) / lb);
    if (nt <= 1) {
        run_tiles(&it, 0, ntiles, kernel, extra, lb);
        if (fence) ST_SFENCE();
        return;
    }
#pragma omp parallel for num_threads(nt) schedule(static, 1)
    for (int t = 0; t < nt; t++) {
        run_tiles(&it, ntiles * t / nt, ntiles * (t + 1) / nt, kernel, extra, lb);
        if (fence) ST_SFENCE();
    }
}

/* The tiny inner dim swap_tiny_inner left in place because the long dim
 * next to it spans more than a window (k-means' `sq[:, None] - 2 * g` over
 * (20000, 8): a kernel call per row of 8).  The same swap, walked in tiles
 * of the long dim: each call runs ST_TINY_TILE elements down the long dim,
 * and the inner index's passes over a tile stay in L1 (two operands with
 * a cache line per element: 16 KB). */
#define ST_TINY_TILE 128
static int tiny_inner_tiles(const st_iter *it)
{
    const int in = it->ndim - 1;
    return in >= 1 && it->size[in] <= ST_TINY_INNER && it->size[in - 1] >= 2 * ST_TINY_TILE;
}

void st_iter_run(const st_iter *it, st_loop_fn kernel, void *extra, int flags)
{
    st_iter_run_rows(it, kernel, NULL, extra, flags);
}

void st_iter_run_rows(const st_iter *it, st_loop_fn kernel, st_rows_fn rows, void *extra, int flags)
{
    int64_t total = it->numel;
    if (total == 0) return;
    int nt = (flags & ST_ITER_SERIAL) ? 1 : st_threads_for(total);
    const int any_order = !(it->c_order || (flags & ST_ITER_C_ORDER));
    int tdim = any_order ? tile_dim(it) : -1;
    const int fence = (flags & ST_ITER_FENCE) != 0;
    if (tdim >= 0) {
        run_tiled(it, tdim, kernel, extra, nt, fence, ST_TILE);
        return;
    }
    if (any_order && tiny_inner_tiles(it)) {
        st_iter swapped = *it;
        swap_dims(&swapped, it->ndim - 2, it->ndim - 1);
        run_tiled(&swapped, it->ndim - 2, kernel, extra, nt, fence, ST_TINY_TILE);
        return;
    }
    if (nt <= 1) {
        run_range(it, 0, total, kernel, rows, extra);
        if (fence) ST_SFENCE();
        return;
    }
#pragma omp parallel for num_threads(nt) schedule(static, 1)
    for (int t = 0; t < nt; t++) {
        /* chunk edges rounded to 16 elements so SIMD loops start aligned-ish */
        int64_t a = (total * t / nt) & ~(int64_t)15, b = (total * (t + 1) / nt) & ~(int64_t)15;
        if (t == nt - 1) b = total;
        run_range(it, a, b, kernel, rows, extra);
        if (fence) ST_SFENCE();
    }
}

/* ---- lanes ---- */
void st_lanes_init(st_lanes *ln, int nop, const st_tensor *const *ops, int dim)
{
    const st_tensor *ref = ops[0];
    int nd = 0;
    ln->nop = nop;
    for (int k = 0; k < nop; k++) ln->data[k] = st_tensor_data(ops[k]);
    for (int d = 0; d < ref->ndim; d++) {
        if (d == dim || ref->sizes[d] == 1) continue;
        ln->size[nd] = ref->sizes[d];
        for (int k = 0; k < nop; k++)
            ln->step[nd][k] = ops[k]->strides[d] * st_itemsize(ops[k]->dtype);
        nd++;
    }
    ln->ndim = nd;
}

static void lanes_range(const st_lanes *ln, int64_t begin, int64_t end, st_lane_fn lane,
                        void *extra)
{
    const int nd = ln->ndim, nop = ln->nop;
    int64_t idx[ST_MAX_DIMS];
    char *p[ST_MAX_OPERANDS], *args[ST_MAX_OPERANDS];
    int64_t rem = begin;
    for (int d = nd - 1; d >= 0; d--) {
        idx[d] = rem % ln->size[d];
        rem /= ln->size[d];
    }
    for (int k = 0; k < nop; k++) {
        p[k] = ln->data[k];
        for (int d = 0; d < nd; d++) p[k] += idx[d] * ln->step[d][k];
    }
    for (int64_t i = begin; i < end; i++) {
        for (int k = 0; k < nop; k++) args[k] = p[k];
        lane(args, extra);
        for (int d = nd - 1; d >= 0; d--) {
            for (int k = 0; k < nop; k++) p[k] += ln->step[d][k];
            if (++idx[d] < ln->size[d]) break;
            for (int k = 0; k < nop; k++) p[k] -= ln->size[d] * ln->step[d][k];
            idx[d] = 0;
        }
    }
}

void st_lanes_run(const st_lanes *ln, st_lane_fn lane, void *extra, int64_t work_per_lane)
{
    st_lanes_run_max(ln, lane, extra, work_per_lane, INT_MAX);
}

void st_lanes_run_max(const st_lanes *ln, st_lane_fn lane, void *extra, int64_t work_per_lane,
                      int max_threads)
{
    int64_t nlanes = 1;
    for (int d = 0; d < ln->ndim; d++) nlanes *= ln->size[d];
    if (nlanes == 0) return;
    int nt = st_threads_for(nlanes * (work_per_lane > 0 ? work_per_lane : 1));
    if (nt > nlanes) nt = (int)nlanes;
    if (nt > max_threads) nt = max_threads;
    if (nt <= 1) {
        lanes_range(ln, 0, nlanes, lane, extra);
        return;
    }
#pragma omp parallel for num_threads(nt) schedule(static, 1)
    for (int t = 0; t < nt; t++)
        lanes_range(ln, nlanes * t / nt, nlanes * (t + 1) / nt, lane, extra);
}
