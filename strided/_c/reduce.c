/* reduce.c -- reductions over any set of dims, arg-reductions, cumulative
 * sums and products, nonzero counts.
 *
 * A reduction is an elementwise loop over the input's shape with the
 * output (keepdim form) broadcast by zero strides along the reduced dims:
 * one accumulate kernel `acc (op)= in` serves both the inner case (output
 * step 0: a whole segment folds into one accumulator, pairwise for float
 * sums) and the outer case (output walks with the input: a vector of
 * accumulators).  Threads split a kept dim when there is one big enough,
 * otherwise a reduced dim with one private accumulator block per thread,
 * combined at the end. */
#include "st_internal.h"
#include <math.h>
#include <float.h>
#include <limits.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define MAXP(a, b) (((a) > (b) || (a) != (a)) ? (a) : (b))
#define MINP(a, b) (((a) < (b) || (a) != (a)) ? (a) : (b))

/* ---- accumulator types: ints widen to 64 bits, floats keep their type ---- */
#define ACC_SUM_bool_ int64_t
#define ACC_SUM_int8 int64_t
#define ACC_SUM_int16 int64_t
#define ACC_SUM_int32 int64_t
#define ACC_SUM_int64 int64_t
#define ACC_SUM_uint8 uint64_t
#define ACC_SUM_uint16 uint64_t
#define ACC_SUM_uint32 uint64_t
#define ACC_SUM_uint64 uint64_t
#define ACC_SUM_float32 float
#define ACC_SUM_float64 double
#define ACC_SUM_complex64 st_c64
#define ACC_SUM_complex128 st_c128

static int sum_acc_dtype(int dtype)
{
    if (dtype == ST_BOOL || st_is_signed_int(dtype)) return ST_INT64;
    if (st_is_int(dtype)) return ST_UINT64;
    return dtype;
}

/* ---- pairwise summation ----
 * Contiguous leaves of up to 1024 elements fold into 32 partial sums (four
 * independent AVX-512 chains for float64, so the adds pipeline instead of
 * waiting on each other); strided leaves of 128 into 8; larger segments
 * split in halves.  The error stays O(log n) like numpy's. */
#define PAIRWISE_BLOCK 128
#define PAIRWISE_BLOCK_CONTIG 1024
#define PAIRWISE_LANES 32
#define DEF_PAIRWISE(SFX, T, A)                                                       \
    ST_SIMD static A pairwise_##SFX(const char *p, int64_t n, int64_t step)           \
    {                                                                                 \
        if (n < 8) {                                                                  \
            A s = 0;                                                                  \
            for (int64_t i = 0; i < n; i++) s += (A) * (const T *)(p + i * step);     \
            return s;                                                                 \
        }                                                                             \
        if (step == sizeof(T) && n >= PAIRWISE_LANES && n <= PAIRWISE_BLOCK_CONTIG) {  \
            const T *q = (const T *)p;                                                \
            A r[PAIRWISE_LANES];                                                      \
            for (int j = 0; j < PAIRWISE_LANES; j++) r[j] = (A)q[j];                  \
            int64_t i = PAIRWISE_LANES;                                               \
            for (; i + PAIRWISE_LANES <= n; i += PAIRWISE_LANES)                      \
                for (int j = 0; j < PAIRWISE_LANES; j++) r[j] += (A)q[i + j];         \
            for (int w = PAIRWISE_LANES / 2; w > 0; w /= 2)                           \
                for (int j = 0; j < w; j++) r[j] += r[j + w];                         \
            A s = r[0];                                                               \
            for (; i < n; i++) s += (A)q[i];                                          \
            return s;                                                                 \
        }                                                                             \
        if (n <= PAIRWISE_BLOCK) {                                                    \
            A r[8];                                                                   \
            for (int j = 0; j < 8; j++) r[j] = (A) * (const T *)(p + j * step);       \
            int64_t i = 8;                                                            \
            for (; i + 8 <= n; i += 8)                                                \
                for (int j = 0; j < 8; j++) r[j] += (A) * (const T *)(p + (i + j) * step); \
            A s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));  \
            for (; i < n; i++) s += (A) * (const T *)(p + i * step);                  \
            return s;                                                                 \
        }                                                                             \
        int64_t half = (n / 2) & ~(int64_t)(PAIRWISE_LANES - 1);                      \
        return pairwise_##SFX(p, half, step) + pairwise_##SFX(p + half * step, n - half, step); \
    }
DEF_PAIRWISE(float32, float, float)
DEF_PAIRWISE(float64, double, double)
DEF_PAIRWISE(complex64, st_c64, st_c64)
DEF_PAIRWISE(complex128, st_c128, st_c128)
#define IS_PAIRWISE_float32 1
#define IS_PAIRWISE_float64 1
#define IS_PAIRWISE_complex64 1
#define IS_PAIRWISE_complex128 1

/* ---- accumulate kernels: args {acc, in[, aux]} ---- */
/* FOLD(acc, x) folds one input value into the accumulator. */
#define DEF_ACCUMULATE(NAME, SFX, T, A, FOLD)                                         \
    ST_SIMD static void NAME##_##SFX(char **args_, const int64_t *np, const int64_t *s_, void *extra) \
    {                                                                                 \
        ST_LOCAL_ARGS(2)                                                              \
        (void)extra;                                                                  \
        const int64_t n = *np;                                                        \
        if (s[0] == 0) {                                                              \
            A acc = *(A *)args[0];                                                    \
            if (s[1] == sizeof(T)) {                                                  \
                const T *in = (const T *)args[1];                                     \
                for (int64_t i = 0; i < n; i++) { const T x = in[i]; FOLD(acc, x); }  \
            } else {                                                                  \
                for (int64_t i = 0; i < n; i++) {                                     \
                    const T x = *(const T *)(args[1] + i * s[1]);                     \
                    FOLD(acc, x);                                                     \
                }                                                                     \
            }                                                                         \
            *(A *)args[0] = acc;                                                      \
            return;                                                                   \
        }                                                                             \
        if (s[0] == sizeof(A) && s[1] == sizeof(T)) {                                 \
            A *o = (A *)args[0];                                                      \
            const T *in = (const T *)args[1];                                         \
            _Pragma("GCC ivdep") for (int64_t i = 0; i < n; i++) { const T x = in[i]; FOLD(o[i], x); } \
            return;                                                                   \
        }                                                                             \
        for (int64_t i = 0; i < n; i++) {                                             \
            const T x = *(const T *)(args[1] + i * s[1]);                             \
            FOLD(*(A *)(args[0] + i * s[0]), x);                                      \
        }                                                                             \
    }

#define FOLD_SUM(acc, x) ((acc) += (x))
#define FOLD_PROD(acc, x) ((acc) *= (x))
#define FOLD_MIN(acc, x) ((acc) = MINP((acc), (x)))
#define FOLD_MAX(acc, x) ((acc) = MAXP((acc), (x)))
#define FOLD_ALL(acc, x) ((acc) = (acc) && ((x) != 0))
#define FOLD_ANY(acc, x) ((acc) = (acc) || ((x) != 0))

/* float and complex sums fold a whole inner segment pairwise */
#define DEF_SUM_PAIRWISE(CODE, SFX, T, R, ...)                                        \
    DEF_ACCUMULATE(sum_plain, SFX, T, T, FOLD_SUM)                                    \
    static void sum_##SFX(char **args, const int64_t *np, const int64_t *s, void *extra) \
    {                                                                                 \
        if (s[0] == 0) {                                                              \
            *(T *)args[0] += pairwise_##SFX(args[1], *np, s[1]);                      \
            return;                                                                   \
        }                                                                             \
        sum_plain_##SFX(args, np, s, extra);                                          \
    }
#define DEF_SUM_INT(CODE, SFX, T, R, ...) DEF_ACCUMULATE(sum, SFX, T, ACC_SUM_##SFX, FOLD_SUM)
#define DEF_PROD(CODE, SFX, T, R, ...) DEF_ACCUMULATE(prod, SFX, T, ACC_SUM_##SFX, FOLD_PROD)
#define DEF_MINMAX(CODE, SFX, T, R, ...)                                              \
    DEF_ACCUMULATE(min, SFX, T, T, FOLD_MIN) DEF_ACCUMULATE(max, SFX, T, T, FOLD_MAX)
#define DEF_ALLANY(CODE, SFX, T, R, ...)                                              \
    DEF_ACCUMULATE(all, SFX, T, _Bool, FOLD_ALL) DEF_ACCUMULATE(any, SFX, T, _Bool, FOLD_ANY)

ST_TYPES_BOOL(DEF_SUM_INT)
ST_TYPES_INT(DEF_SUM_INT)
ST_TYPES_FLOAT(DEF_SUM_PAIRWISE)
ST_TYPES_COMPLEX(DEF_SUM_PAIRWISE)
ST_TYPES_ALL(DEF_PROD)
ST_TYPES_BOOL(DEF_MINMAX)
ST_TYPES_REAL(DEF_MINMAX)
ST_TYPES_ALL(DEF_ALLANY)

/* sum of |x - m|^2 with m read from args[2], which walks like the accumulator */
#define SQDEV_REAL(x, m) (((x) - (m)) * ((x) - (m)))
#define DEF_SUMSQDEV(CODE, SFX, T, R, SQ)                                             \
    static void sumsqdev_##SFX(char **args_, const int64_t *np, const int64_t *s_, void *extra) \
    {                                                                                 \
        ST_LOCAL_ARGS(3)                                                              \
        (void)extra;                                                                  \
        const int64_t n = *np;                                                        \
        if (s[0] == 0) {                                                              \
            const T m = *(const T *)args[2];                                          \
            R acc = 0;                                                                \
            for (int64_t i = 0; i < n; i++) {                                         \
                const T x = *(const T *)(args[1] + i * s[1]);                         \
                acc += SQ(x, m);                                                      \
            }                                                                         \
            *(R *)args[0] += acc;                                                     \
            return;                                                                   \
        }                                                                             \
        for (int64_t i = 0; i < n; i++) {                                             \
            const T x = *(const T *)(args[1] + i * s[1]);                             \
            const T m = *(const T *)(args[2] + i * s[2]);                             \
            *(R *)(args[0] + i * s[0]) += SQ(x, m);                                   \
        }                                                                             \
    }
#define SQDEV_COMPLEX(x, m) (creal((x) - (m)) * creal((x) - (m)) + cimag((x) - (m)) * cimag((x) - (m)))
ST_TYPES_FLOAT(DEF_SUMSQDEV, SQDEV_REAL)
ST_TYPES_COMPLEX(DEF_SUMSQDEV, SQDEV_COMPLEX)

/* ---- tables ---- */
static st_loop_fn reduce_loops[ST_R_COUNT][ST_NTYPES];
static signed char reduce_res[ST_R_COUNT][ST_NTYPES];

#define REG(OPC, NAME, SFX, CODE, RES)                                                \
    reduce_loops[OPC][CODE] = NAME##_##SFX;                                           \
    reduce_res[OPC][CODE] = (signed char)(RES);
#define REG_SUM(CODE, SFX, T, R, ...) REG(ST_R_SUM, sum, SFX, CODE, sum_acc_dtype(CODE))
#define REG_PROD(CODE, SFX, T, R, ...) REG(ST_R_PROD, prod, SFX, CODE, sum_acc_dtype(CODE))
#define REG_MINMAX(CODE, SFX, T, R, ...)                                              \
    REG(ST_R_MIN, min, SFX, CODE, CODE) REG(ST_R_MAX, max, SFX, CODE, CODE)
#define REG_ALLANY(CODE, SFX, T, R, ...)                                              \
    REG(ST_R_ALL, all, SFX, CODE, ST_BOOL) REG(ST_R_ANY, any, SFX, CODE, ST_BOOL)
#define REG_SQDEV(CODE, SFX, T, R, ...) REG(ST_R_SUMSQDEV, sumsqdev, SFX, CODE, st_real_dtype(CODE))

__attribute__((constructor)) static void init_reduce_tables(void)
{
    memset(reduce_res, -1, sizeof reduce_res);
    ST_TYPES_ALL(REG_SUM)
    ST_TYPES_ALL(REG_PROD)
    ST_TYPES_BOOL(REG_MINMAX)
    ST_TYPES_REAL(REG_MINMAX)
    ST_TYPES_ALL(REG_ALLANY)
    ST_TYPES_FLOAT(REG_SQDEV)
    ST_TYPES_COMPLEX(REG_SQDEV)
}

static const char *const reduce_names[ST_R_COUNT] = {
    [ST_R_SUM] = "sum", [ST_R_PROD] = "prod", [ST_R_MIN] = "min", [ST_R_MAX] = "max",
    [ST_R_ALL] = "all", [ST_R_ANY] = "any", [ST_R_SUMSQDEV] = "var"};

int st_reduce_result(int op, int dtype)
{
    if (op < 0 || op >= ST_R_COUNT || dtype < 0 || dtype >= ST_NTYPES) return -1;
    return reduce_res[op][dtype];
}

/* The identity of op for the accumulator dtype, written into buf. */
static void identity(int op, int dtype, void *buf)
{
    memset(buf, 0, 16);
    int one = op == ST_R_PROD || op == ST_R_ALL;
    int hi = op == ST_R_MIN;   /* min starts from the top of the range */
    if (op == ST_R_MIN || op == ST_R_MAX) {
        switch (dtype) {
#define SET_EXTREME(CODE, T, LO, HI)                                                  \
    case CODE: *(T *)buf = hi ? (HI) : (LO); return;
            SET_EXTREME(ST_BOOL, _Bool, 0, 1)
            SET_EXTREME(ST_INT8, int8_t, INT8_MIN, INT8_MAX)
            SET_EXTREME(ST_INT16, int16_t, INT16_MIN, INT16_MAX)
            SET_EXTREME(ST_INT32, int32_t, INT32_MIN, INT32_MAX)
            SET_EXTREME(ST_INT64, int64_t, INT64_MIN, INT64_MAX)
            SET_EXTREME(ST_UINT8, uint8_t, 0, UINT8_MAX)
            SET_EXTREME(ST_UINT16, uint16_t, 0, UINT16_MAX)
            SET_EXTREME(ST_UINT32, uint32_t, 0, UINT32_MAX)
            SET_EXTREME(ST_UINT64, uint64_t, 0, UINT64_MAX)
            SET_EXTREME(ST_FLOAT32, float, -INFINITY, INFINITY)
            SET_EXTREME(ST_FLOAT64, double, -INFINITY, INFINITY)
#undef SET_EXTREME
        default: return;
        }
    }
    if (!one) return;
    switch (dtype) {
#define SET_ONE(CODE, SFX, T, R, ...) case CODE: *(T *)buf = 1; return;
        ST_TYPES_ALL(SET_ONE)
#undef SET_ONE
    default: return;
    }
}

/* Run `it` (operand 0 the accumulator).  The result must not depend on the
 * thread count, so the plan is a function of the shape alone and threads
 * only share out its pieces:
 *   - when the largest kept dim has at least SPLIT_KEPT_MIN positions (or
 *     nothing else fits), that dim is split: every accumulator is computed
 *     whole by one thread, in the serial order, so this never changes a bit;
 *   - otherwise a large reduction splits its largest reduced dim into a
 *     number of chunks fixed by the shape (each at least ST_PARALLEL_GRAIN
 *     elements, at most SPLIT_MAX_CHUNKS), each folding into a private
 *     accumulator block; the blocks are combined in chunk order, also when
 *     one thread runs them all. */
#define SPLIT_KEPT_MIN 16
#define SPLIT_MAX_CHUNKS 64
#define SPLIT_MAX_SCRATCH ((int64_t)4 << 20)   /* bytes of private accumulators */

static st_status run_reduction(const st_iter *it, st_loop_fn loop, st_tensor *out, int op)
{
    int nt = st_threads_for(it->numel);
    /* the kept dim (accumulator walks it) and the reduced dim of largest size */
    int kept = -1, red = -1;
    for (int d = 0; d < it->ndim; d++) {
        if (it->step[d][0] != 0) {
            if (kept < 0 || it->size[d] > it->size[kept]) kept = d;
        } else if (red < 0 || it->size[d] > it->size[red]) {
            red = d;
        }
    }
    int64_t item = st_itemsize(out->dtype);
    int64_t acc_bytes = st_tensor_numel(out) * item;
    int64_t nchunks = 1;
    if (red >= 0 && (kept < 0 || it->size[kept] < SPLIT_KEPT_MIN) && st_tensor_is_contiguous(out)) {
        nchunks = it->numel / ST_PARALLEL_GRAIN;
        if (nchunks > it->size[red]) nchunks = it->size[red];
        if (nchunks > SPLIT_MAX_CHUNKS) nchunks = SPLIT_MAX_CHUNKS;
        while (nchunks > 1 && nchunks * acc_bytes > SPLIT_MAX_SCRATCH) nchunks /= 2;
    }
    if (nchunks <= 1) {
        if (nt <= 1 || kept < 0) {
            st_iter_run_range(it, 0, it->numel, loop, NULL);
            return ST_OK;
        }
        int nk = it->size[kept] < nt ? (int)it->size[kept] : nt;
#pragma omp parallel for num_threads(nk) schedule(static, 1)
        for (int t = 0; t < nk; t++) {
            st_iter sub = *it;
            int64_t a = it->size[kept] * t / nk, b = it->size[kept] * (t + 1) / nk;
            sub.size[kept] = b - a;
            sub.numel = it->numel / it->size[kept] * (b - a);
            for (int k = 0; k < it->nop; k++) sub.data[k] += a * it->step[kept][k];
            st_iter_run_range(&sub, 0, sub.numel, loop, NULL);
        }
        return ST_OK;
    }
    /* split the reduced dim: private accumulators shaped like `out` */
    char *parts = st_aligned_alloc(acc_bytes * nchunks);
    if (!parts)
        return st_fail(ST_E_MEMORY, "cannot allocate %lld partial accumulators",
                       (long long)nchunks);
    char *out0 = st_tensor_data(out);
    char ident[16];
    identity(op == ST_R_SUMSQDEV ? ST_R_SUM : op, out->dtype, ident);
    int nc = (int)nchunks;
#pragma omp parallel for num_threads(nt < nc ? nt : nc) schedule(static) if (nt > 1)
    for (int t = 0; t < nc; t++) {
        char *mine = parts + acc_bytes * t;
        for (int64_t i = 0; i < acc_bytes; i += item) memcpy(mine + i, ident, (size_t)item);
        st_iter sub = *it;
        int64_t a = it->size[red] * t / nc, b = it->size[red] * (t + 1) / nc;
        sub.size[red] = b - a;
        sub.numel = it->numel / it->size[red] * (b - a);
        for (int k = 1; k < it->nop; k++) sub.data[k] += a * it->step[red][k];
        sub.data[0] = mine + (it->data[0] - out0);
        st_iter_run_range(&sub, 0, sub.numel, loop, NULL);
    }
    /* combine in chunk order: out (op)= each partial; sums of squares combine as sums */
    int comb = op == ST_R_SUMSQDEV ? ST_R_SUM : op;
    st_loop_fn combine = reduce_loops[comb][out->dtype];
    int64_t n = st_tensor_numel(out), steps[2] = {item, item};
    for (int t = 0; t < nc; t++) {
        char *args[2] = {out0, parts + acc_bytes * t};
        combine(args, &n, steps, NULL);
    }
    st_aligned_free(parts);
    return ST_OK;
}

st_status st_reduce(int op, st_tensor *out, const st_tensor *in, const uint8_t *dims,
                    const st_tensor *aux)
{
    st_status rc;
    if (op < 0 || op >= ST_R_COUNT) return st_fail(ST_E_VALUE, "unknown reduction %d", op);
    int res = st_reduce_result(op, in->dtype);
    if (res < 0)
        return st_fail(ST_E_TYPE, "%s is not defined for %s", reduce_names[op],
                       st_dtype_name(in->dtype));
    if ((rc = st_check_dtype(out, res, "reduction output"))) return rc;
    if ((rc = st_check_writable(out, "reduction output"))) return rc;
    if ((rc = st_check_storage(in, "reduction input"))) return rc;
    if (out->ndim != in->ndim)
        return st_fail(ST_E_VALUE, "reduction output has %d dims, the input %d", out->ndim,
                       in->ndim);
    for (int d = 0; d < in->ndim; d++) {
        int64_t want = dims[d] ? 1 : in->sizes[d];
        if (out->sizes[d] != want)
            return st_fail(ST_E_VALUE, "reduction output has size %lld at dim %d, expected %lld",
                           (long long)out->sizes[d], d, (long long)want);
    }
    if (op == ST_R_SUMSQDEV) {
        if (!aux) return st_fail(ST_E_VALUE, "var needs the mean");
        if ((rc = st_check_dtype(aux, in->dtype, "var's mean"))) return rc;
        if (aux->ndim != out->ndim) return st_fail(ST_E_VALUE, "var's mean has the wrong shape");
        for (int d = 0; d < out->ndim; d++)
            if (aux->sizes[d] != out->sizes[d])
                return st_fail(ST_E_VALUE, "var's mean has the wrong shape");
    }
    if (st_tensor_overlaps(out, in) || (aux && st_tensor_overlaps(out, aux)))
        return st_fail(ST_E_VALUE, "reduction output overlaps its input");
    char ident[16];
    identity(op == ST_R_SUMSQDEV ? ST_R_SUM : op, res, ident);
    if ((rc = st_fill(out, ident))) return rc;
    if (st_tensor_numel(in) == 0) return ST_OK;
    const st_tensor *ops[3] = {out, in, aux};
    st_iter it;
    if ((rc = st_iter_init_shape(&it, aux ? 3 : 2, ops, in->ndim, in->sizes, 0))) return rc;
    return run_reduction(&it, reduce_loops[op][in->dtype], out, op);
}

/* ---- arg-reductions along one dim (lanes) ---- */
typedef struct { int64_t n, step; } lane_geom;

#define DEF_ARG(CODE, SFX, T, R, ...)                                                 \
    static void argmax_##SFX(char **p, void *extra)                                   \
    {                                                                                 \
        const lane_geom *g = extra;                                                   \
        T best = *(const T *)p[0];                                                    \
        int64_t at = 0;                                                               \
        if (best == best)                                                             \
            for (int64_t i = 1; i < g->n; i++) {                                      \
                T x = *(const T *)(p[0] + i * g->step);                               \
                if (x > best || x != x) { best = x; at = i; if (x != x) break; }       \
            }                                                                         \
        *(int64_t *)p[1] = at;                                                        \
    }                                                                                 \
    static void argmin_##SFX(char **p, void *extra)                                   \
    {                                                                                 \
        const lane_geom *g = extra;                                                   \
        T best = *(const T *)p[0];                                                    \
        int64_t at = 0;                                                               \
        if (best == best)                                                             \
            for (int64_t i = 1; i < g->n; i++) {                                      \
                T x = *(const T *)(p[0] + i * g->step);                               \
                if (x < best || x != x) { best = x; at = i; if (x != x) break; }       \
            }                                                                         \
        *(int64_t *)p[1] = at;                                                        \
    }
ST_TYPES_BOOL(DEF_ARG)
ST_TYPES_REAL(DEF_ARG)
#define CASE_ARG(CODE, SFX, T, R, ...) case CODE: lane = is_max ? argmax_##SFX : argmin_##SFX; break;

static st_status check_lane_dim(const st_tensor *in, int dim, const char *what)
{
    if (dim < 0 || dim >= (in->ndim ? in->ndim : 1))
        return st_fail(ST_E_INDEX, "%s: dim %d out of range [0, %d)", what, dim,
                       in->ndim ? in->ndim : 1);
    return ST_OK;
}

st_status st_argreduce(int is_max, st_tensor *out, const st_tensor *in, int dim)
{
    st_status rc;
    const char *name = is_max ? "argmax" : "argmin";
    if ((rc = check_lane_dim(in, dim, name))) return rc;
    if ((rc = st_check_dtype(out, ST_INT64, "argmax/argmin output"))) return rc;
    if ((rc = st_check_writable(out, "argmax/argmin output"))) return rc;
    int64_t n = in->ndim ? in->sizes[dim] : 1;
    if (n == 0 && st_tensor_numel(in) == 0 && in->ndim)
        return st_fail(ST_E_VALUE, "%s of an empty sequence (dim %d has size 0)", name, dim);
    if (out->ndim != in->ndim) return st_fail(ST_E_VALUE, "%s output must keep the dims", name);
    for (int d = 0; d < in->ndim; d++)
        if (out->sizes[d] != (d == dim ? 1 : in->sizes[d]))
            return st_fail(ST_E_VALUE, "%s output has size %lld at dim %d", name,
                           (long long)out->sizes[d], d);
    st_lane_fn lane = NULL;
    switch (in->dtype) {
        ST_TYPES_BOOL(CASE_ARG)
        ST_TYPES_REAL(CASE_ARG)
    default:
        return st_fail(ST_E_TYPE, "%s is not defined for %s", name, st_dtype_name(in->dtype));
    }
    if (st_tensor_numel(out) == 0) return ST_OK;
    lane_geom g = {n, in->ndim ? in->strides[dim] * st_itemsize(in->dtype) : 0};
    st_lanes ln;
    const st_tensor *ops[2] = {in, out};
    st_lanes_init(&ln, 2, ops, in->ndim ? dim : -1);
    st_lanes_run(&ln, lane, &g, n);
    return ST_OK;
}

/* ---- cumulative sum and product (lanes) ---- */
typedef struct { int64_t n, in_step, out_step; } cum_geom;
#define DEF_CUM(CODE, SFX, T, R, ...)                                                 \
    static void cumsum_##SFX(char **p, void *extra)                                   \
    {                                                                                 \
        const cum_geom *g = extra;                                                    \
        ACC_SUM_##SFX acc = 0;                                                        \
        for (int64_t i = 0; i < g->n; i++) {                                          \
            acc += *(const T *)(p[0] + i * g->in_step);                               \
            *(ACC_SUM_##SFX *)(p[1] + i * g->out_step) = acc;                         \
        }                                                                             \
    }                                                                                 \
    static void cumprod_##SFX(char **p, void *extra)                                  \
    {                                                                                 \
        const cum_geom *g = extra;                                                    \
        ACC_SUM_##SFX acc = 1;                                                        \
        for (int64_t i = 0; i < g->n; i++) {                                          \
            acc *= *(const T *)(p[0] + i * g->in_step);                               \
            *(ACC_SUM_##SFX *)(p[1] + i * g->out_step) = acc;                         \
        }                                                                             \
    }
ST_TYPES_ALL(DEF_CUM)
#define CASE_CUM(CODE, SFX, T, R, ...) case CODE: lane = is_prod ? cumprod_##SFX : cumsum_##SFX; break;

st_status st_cumulative(int is_prod, st_tensor *out, const st_tensor *in, int dim)
{
    st_status rc;
    const char *name = is_prod ? "cumprod" : "cumsum";
    if ((rc = check_lane_dim(in, dim, name))) return rc;
    if ((rc = st_check_dtype(out, sum_acc_dtype(in->dtype), "cumulative output"))) return rc;
    if ((rc = st_check_writable(out, "cumulative output"))) return rc;
    if ((rc = st_check_storage(in, "cumulative input"))) return rc;
    if (out->ndim != in->ndim) return st_fail(ST_E_VALUE, "%s output must have the input's shape", name);
    for (int d = 0; d < in->ndim; d++)
        if (out->sizes[d] != in->sizes[d])
            return st_fail(ST_E_VALUE, "%s output must have the input's shape", name);
    if (st_tensor_numel(in) == 0) return ST_OK;
    if (st_tensor_overlaps(out, in)) {
        st_tensor *tmp = st_tensor_temp_like(in, in->dtype);
        if (!tmp) return ST_E_MEMORY;
        rc = st_copy(tmp, in);
        if (!rc) rc = st_cumulative(is_prod, out, tmp, dim);
        st_tensor_free(tmp);
        return rc;
    }
    st_lane_fn lane = NULL;
    switch (in->dtype) { ST_TYPES_ALL(CASE_CUM) default: break; }
    int64_t n = in->ndim ? in->sizes[dim] : 1;
    cum_geom g = {n, in->ndim ? in->strides[dim] * st_itemsize(in->dtype) : 0,
                  out->ndim ? out->strides[dim] * st_itemsize(out->dtype) : 0};
    st_lanes ln;
    const st_tensor *ops[2] = {in, out};
    st_lanes_init(&ln, 2, ops, in->ndim ? dim : -1);
    st_lanes_run(&ln, lane, &g, n);
    return ST_OK;
}

/* ---- count of nonzero elements ---- */
#define DEF_COUNT(CODE, SFX, T, R, ...)                                               \
    static void count_##SFX(char **args_, const int64_t *np, const int64_t *s_, void *extra) \
    {                                                                                 \
        ST_LOCAL_ARGS(1)                                                              \
        int64_t c = 0;                                                                \
        for (int64_t i = 0; i < *np; i++) c += *(const T *)(args[0] + i * s[0]) != 0;  \
        __atomic_add_fetch((int64_t *)extra, c, __ATOMIC_RELAXED);                    \
    }
ST_TYPES_ALL(DEF_COUNT)
#define CASE_COUNT(CODE, SFX, T, R, ...) case CODE: loop = count_##SFX; break;

st_status st_count_nonzero(const st_tensor *in, int64_t *count)
{
    st_status rc;
    *count = 0;
    if ((rc = st_check_storage(in, "count_nonzero input"))) return rc;
    if (st_tensor_numel(in) == 0) return ST_OK;
    st_loop_fn loop = NULL;
    switch (in->dtype) { ST_TYPES_ALL(CASE_COUNT) default: break; }
    st_iter it;
    const st_tensor *ops[1] = {in};
    if ((rc = st_iter_init(&it, 1, ops, 0))) return rc;
    st_iter_run(&it, loop, count, 0);
    return ST_OK;
}
