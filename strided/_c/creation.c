/* creation.c -- the creation functions' passes, each one threaded kernel:
 * linear sequences (numpy's arange and linspace, Torch7's range) and the
 * ones of eye, Torch7's linspace and logspace.  (zeros need no pass:
 * st_tensor_alloc_zeros, core.c; fills are st_fill, copy.c.)
 *
 * A sequence is written in C order whatever out's strides: the element
 * count is cut into one contiguous range per thread and each range is run
 * through the iterator (st_iter_run_range) with its own running index.
 * Values are computed as double (complex: per part) a block at a time and
 * converted to out's type by copy.c's cast loops, so every dtype converts
 * exactly as st_copy converts a double (an integer one as an int64);
 * into a float64 (int64) out they are computed in place. */
#include "st_internal.h"
#include <math.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* a + k * d rounds twice, as numpy computes it: never one FMA */
#pragma GCC optimize("fp-contract=off")

#define LIN_BLOCK 256

typedef struct {
    const st_linear *p;
    int64_t k;       /* C-order index of the next element */
    int64_t n;       /* elements in all */
    st_loop_fn cast; /* double (complex128, int64) block -> out's type */
    int complex_;
    int direct; /* out is float64 (complex128): no conversion */
    int stream; /* float64 out, contiguous, large, in memory: streamed */
} lin_state;

/* Elements k0 .. k0 + m - 1 of part `part` into buf (every `stride`-th
 * double): the plain loop first, which vectorises, then the options */
static inline __attribute__((always_inline)) void lin_block(double *buf, int stride,
                                                            const st_linear *p, int part,
                                                            int64_t k0, int64_t m, int64_t total)
{
    const double a = p->a[part], d = p->d[part], k0d = (double)k0; /* exact: k < 2^53 */
    const int flags = p->flags;
    if (flags & (ST_LIN_DIVIDED | ST_LIN_COUNTER32)) {
        const double cap = (flags & ST_LIN_COUNTER32) ? 0x1p24 : 0x1p53, div = p->div;
        for (int64_t j = 0; j < m; j++) {
            double kk = k0d + (double)j;
            kk = kk < cap ? kk : cap;
            buf[j * stride] = (flags & ST_LIN_DIVIDED) ? a + (kk / div) * d : a + kk * d;
        }
    } else {
        for (int64_t j = 0; j < m; j++) buf[j * stride] = a + (k0d + (double)j) * d;
    }
    if ((flags & ST_LIN_SECOND) && k0 <= 1 && 1 < k0 + m) buf[(1 - k0) * stride] = p->second[part];
    if ((flags & ST_LIN_LAST) && k0 <= total - 1 && total - 1 < k0 + m)
        buf[(total - 1 - k0) * stride] = p->last[part];
    if (flags & ST_LIN_FLOOR)
        for (int64_t j = 0; j < m; j++) buf[j * stride] = floor(buf[j * stride]);
}

/* A block of m values in buf to out's elements at o (step os): streamed
 * when it is whole 64-byte lines of a contiguous out of buf's type, else
 * converted by the cast loop (a plain copy for buf's own type). */
static inline __attribute__((always_inline)) void
lin_emit(char *o, int64_t os, const void *buf, int64_t m, int64_t item, st_loop_fn cast, int stream)
{
    const int64_t bytes = m * item;
    if (stream && os == item && (uintptr_t)o % 64 == 0 && bytes % 64 == 0) {
        st_stream_store(o, buf, bytes);
        return;
    }
    char *ptrs[2] = {o, (char *)buf};
    const int64_t steps[2] = {os, item};
    cast(ptrs, &m, steps, NULL);
}

#define DEF_LIN_KERNEL(ISA, ATTR, ...)                                                             \
    ATTR static void lin_kernel##ISA(char **args_, const int64_t *np, const int64_t *s_,           \
                                     void *extra)                                                  \
    {                                                                                              \
        ST_LOCAL_ARGS(1)                                                                           \
        lin_state *st = extra;                                                                     \
        const st_linear *p = st->p;                                                                \
        const int64_t n = *np, k0 = st->k, total = st->n;                                          \
        st->k += n;                                                                                \
        double buf[2 * LIN_BLOCK] __attribute__((aligned(64)));                                    \
        const int64_t item = st->complex_ ? 16 : 8;                                                \
        if (st->direct && !st->stream && s[0] == item) { /* computed in place */                   \
            double *o = (double *)args[0];                                                         \
            lin_block(o, st->complex_ ? 2 : 1, p, 0, k0, n, total);                                \
            if (st->complex_) lin_block(o + 1, 2, p, 1, k0, n, total);                             \
            return;                                                                                \
        }                                                                                          \
        for (int64_t j0 = 0; j0 < n; j0 += LIN_BLOCK) {                                            \
            const int64_t m = n - j0 < LIN_BLOCK ? n - j0 : LIN_BLOCK;                             \
            if (st->complex_) {                                                                    \
                lin_block(buf, 2, p, 0, k0 + j0, m, total);                                        \
                lin_block(buf + 1, 2, p, 1, k0 + j0, m, total);                                    \
            } else {                                                                               \
                lin_block(buf, 1, p, 0, k0 + j0, m, total);                                        \
            }                                                                                      \
            lin_emit(args[0] + j0 * s[0], s[0], buf, m, item, st->cast, st->stream);               \
        }                                                                                          \
    }
ST_LEVELS(DEF_LIN_KERNEL, )

/* int64 sequences: start + k * step, wrapping modulo 2^64 */
typedef struct {
    int64_t start, step;
    int64_t k;
    st_loop_fn cast;
    int direct, stream;
} int_state;

#define DEF_INT_KERNEL(ISA, ATTR, ...)                                                             \
    ATTR static void int_kernel##ISA(char **args_, const int64_t *np, const int64_t *s_,           \
                                     void *extra)                                                  \
    {                                                                                              \
        ST_LOCAL_ARGS(1)                                                                           \
        int_state *st = extra;                                                                     \
        const int64_t n = *np, k0 = st->k;                                                         \
        const uint64_t a = (uint64_t)st->start, d = (uint64_t)st->step;                            \
        st->k += n;                                                                                \
        int64_t buf[LIN_BLOCK] __attribute__((aligned(64)));                                       \
        if (st->direct && !st->stream && s[0] == 8) { /* computed in place */                      \
            int64_t *o = (int64_t *)args[0];                                                       \
            const uint64_t b = a + (uint64_t)k0 * d;                                               \
            for (int64_t j = 0; j < n; j++) o[j] = (int64_t)(b + (uint64_t)j * d);                 \
            return;                                                                                \
        }                                                                                          \
        for (int64_t j0 = 0; j0 < n; j0 += LIN_BLOCK) {                                            \
            const int64_t m = n - j0 < LIN_BLOCK ? n - j0 : LIN_BLOCK;                             \
            const uint64_t b = a + (uint64_t)(k0 + j0) * d;                                        \
            for (int64_t j = 0; j < m; j++) buf[j] = (int64_t)(b + (uint64_t)j * d);               \
            lin_emit(args[0] + j0 * s[0], s[0], buf, m, 8, st->cast, st->stream);                  \
        }                                                                                          \
    }
ST_LEVELS(DEF_INT_KERNEL, )

/* Run `kernel` over out in C order, one contiguous index range per thread;
 * state is an array of nt copies of size `size`, the first filled in: each
 * thread's copy starts at its range's first index (its int64 field at
 * byte offset k_at).  work: the element count, weighted for costly
 * elements, that sets the thread count. */
static void run_ordered(st_tensor *out, st_loop_fn kernel, void *state, size_t size, size_t k_at,
                        int stream, int64_t work)
{
    st_iter it;
    const st_tensor *ops[1] = {out};
    st_iter_init(&it, 1, ops, ST_ITER_C_ORDER); /* one operand: cannot fail */
    const int64_t total = it.numel;
    int nt = st_threads_for(work);
    if (nt > 8) nt = 8;
    char copies[8][64] __attribute__((aligned(64)));
#pragma omp parallel for num_threads(nt) schedule(static, 1) if (nt > 1)
    for (int t = 0; t < nt; t++) {
        /* edges on 64-byte lines of a contiguous out: no line shared */
        int64_t a = (total * t / nt) & ~(int64_t)15, b = (total * (t + 1) / nt) & ~(int64_t)15;
        if (t == nt - 1) b = total;
        memcpy(copies[t], state, size);
        memcpy(copies[t] + k_at, &a, sizeof a);
        if (b > a) st_iter_run_range(&it, a, b, kernel, copies[t]);
        if (stream) ST_SFENCE();
    }
}

/* A large out of the computed type is streamed when it is in memory
 * already; a fresh one (just mapped: every creation function's) is
 * written in place with plain stores (st_stream_worth, copy.c, says why) */
static int stream_for(const st_tensor *out, int dtype_direct)
{
    return out->dtype == dtype_direct && st_tensor_is_contiguous(out) &&
           st_stream_worth(out, 0, NULL, NULL);
}

st_status st_linear_fill(st_tensor *out, const st_linear *p)
{
    st_status rc;
    if (!st_is_math_type(out->dtype) && !st_is_half(out->dtype))
        return st_fail(ST_E_TYPE, "linear sequence: unknown dtype code %d", out->dtype);
    if ((rc = st_check_writable(out, "out"))) return rc;
    if ((p->flags & ST_LIN_DIVIDED) && !(p->div > 0))
        return st_fail(ST_E_VALUE, "linear sequence: div must be > 0, got %g", p->div);
    const int64_t n = st_tensor_numel(out);
    if (n == 0) return ST_OK;
    if (n > ((int64_t)1 << 53))
        return st_fail(ST_E_VALUE, "linear sequence: %lld elements, more than 2^53", (long long)n);
    const int cplx = st_is_complex(out->dtype);
    lin_state st = {p,
                    0,
                    n,
                    NULL,
                    cplx,
                    out->dtype == (cplx ? ST_COMPLEX128 : ST_FLOAT64),
                    stream_for(out, ST_FLOAT64)};
    st.cast = st_cast_loop(st.complex_ ? ST_COMPLEX128 : ST_FLOAT64, out->dtype);
    _Static_assert(sizeof(lin_state) <= 64, "a thread's state fits its slot");
    run_ordered(out, ST_PICK(lin_kernel), &st, sizeof st, offsetof(lin_state, k), st.stream, n);
    return ST_OK;
}

st_status st_arange_int(st_tensor *out, int64_t start, int64_t step)
{
    st_status rc;
    if (!st_is_math_type(out->dtype) && !st_is_half(out->dtype))
        return st_fail(ST_E_TYPE, "arange: unknown dtype code %d", out->dtype);
    if ((rc = st_check_writable(out, "out"))) return rc;
    if (st_tensor_numel(out) == 0) return ST_OK;
    int_state st = {start,
                    step,
                    0,
                    st_cast_loop(ST_INT64, out->dtype),
                    out->dtype == ST_INT64,
                    stream_for(out, ST_INT64)};
    _Static_assert(sizeof(int_state) <= 64, "a thread's state fits its slot");
    run_ordered(out, ST_PICK(int_kernel), &st, sizeof st, offsetof(int_state, k), st.stream,
                st_tensor_numel(out));
    return ST_OK;
}

/* ---- eye: the ones of the k-th diagonal of a matrix ----
 * zeroed: out is known to hold zeros (a fresh st_tensor_alloc_zeros), so
 * only the diagonal is written and the pages off it are never touched;
 * else every row is written, zeros and its one.  Rows are shared out over
 * the threads: on fresh pages a row's first write is a page fault, which
 * two threads take in parallel. */
st_status st_eye(st_tensor *out, int64_t k, int zeroed)
{
    st_status rc;
    if (out->ndim != 2) return st_fail(ST_E_VALUE, "eye: out must be 2-D, got %d dims", out->ndim);
    if (!st_is_math_type(out->dtype) && !st_is_half(out->dtype))
        return st_fail(ST_E_TYPE, "eye: unknown dtype code %d", out->dtype);
    if ((rc = st_check_writable(out, "out"))) return rc;
    const int64_t rows = out->sizes[0], cols = out->sizes[1];
    if (rows == 0 || cols == 0) return ST_OK;
    const int64_t item = st_itemsize(out->dtype);
    /* one and zero in out's type, through the cast loop */
    char one[16] __attribute__((aligned(16))) = {0}, zero[16] = {0};
    {
        double v = 1.0;
        char *ptrs[2] = {one, (char *)&v};
        const int64_t n1 = 1, steps[2] = {item, 8};
        st_cast_loop(ST_FLOAT64, out->dtype)(ptrs, &n1, steps, NULL);
    }
    char *base = st_tensor_data(out);
    const int64_t rs = out->strides[0] * item, cs = out->strides[1] * item;
    const int64_t work = zeroed ? rows * 512 : rows * cols; /* a page fault weighs ~ 512 stores */
    int nt = st_threads_for(work);
    if (nt > rows) nt = (int)rows;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t r = 0; r < rows; r++) {
        char *row = base + r * rs;
        const int64_t c = r + k; /* the diagonal's column in this row */
        /* zero is all-zero bytes in every type */
        if (!zeroed && cs == item)
            memset(row, 0, (size_t)(cols * item));
        else if (!zeroed)
            for (int64_t j = 0; j < cols; j++) memcpy(row + j * cs, zero, (size_t)item);
        if (c >= 0 && c < cols) memcpy(row + c * cs, one, (size_t)item);
    }
    return ST_OK;
}

/* ---- Torch7's linspace/logspace: TH's formula, each step in out's type ----
 * THTensor_(linspace) writes a + i*(b-a)/(real)(n-1) with a, b and the
 * counter i of the tensor's real type (so the last point need not be b);
 * logspace raises 10 to that with the scalar pow/powf of libm.  This file
 * does not include st_mvec.h, so GCC never swaps in libmvec's vector pow
 * (up to 4 ulp away): the numbers are Lua's to the bit.  TH's counter
 * counts i++ in the real type; a thread starting at element k sets it to
 * k, which is what k increments give: exactly k below 2^24 (float) or 2^53
 * (double), where i + 1 == i and it stays. */
typedef struct {
    double a, b;
    int64_t n;
    int log10;
    int64_t k;
} spaced_state;

#define DEF_SPACED(CODE, SFX, T, R, ...) ST_LEVELS(DEF_SPACED_ISA, SFX, T)
#define DEF_SPACED_ISA(ISA, ATTR, SFX, T)                                                          \
    ATTR static void spaced_##SFX##ISA(char **args_, const int64_t *np, const int64_t *s_,         \
                                       void *extra)                                                \
    {                                                                                              \
        ST_LOCAL_ARGS(1)                                                                           \
        spaced_state *sp = extra;                                                                  \
        const T a = (T)sp->a, b = (T)sp->b, d = (T)(sp->n - 1);                                    \
        const double cap = sizeof(T) == sizeof(float) ? 0x1p24 : 0x1p53;                           \
        const int64_t n = *np, k0 = sp->k;                                                         \
        sp->k += n;                                                                                \
        T *o = (T *)args[0];                                                                       \
        if (s[0] == sizeof(T) && !sp->log10) {                                                     \
            for (int64_t j = 0; j < n; j++) {                                                      \
                const double kk = (double)(k0 + j);                                                \
                const T i = (T)(kk < cap ? kk : cap);                                              \
                o[j] = sp->n == 1 ? a : a + i * (b - a) / d;                                       \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        for (int64_t j = 0; j < n; j++) {                                                          \
            const double kk = (double)(k0 + j);                                                    \
            const T i = (T)(kk < cap ? kk : cap);                                                  \
            T v = sp->n == 1 ? a : a + i * (b - a) / d;                                            \
            if (sp->log10)                                                                         \
                v = sizeof(T) == sizeof(float) ? (T)powf(10.0f, (float)v)                          \
                                               : (T)pow(10.0, (double)v);                          \
            *(T *)(args[0] + j * s[0]) = v;                                                        \
        }                                                                                          \
    }
ST_TYPES_FLOAT(DEF_SPACED)
#define CASE_SPACED(CODE, SFX, T, R, ...)                                                          \
    case CODE:                                                                                     \
        fn = ST_PICK(spaced_##SFX);                                                                \
        break;

st_status st_spaced(st_tensor *out, double a, double b, int log10)
{
    st_status rc;
    const char *name = log10 ? "logspace" : "linspace";
    st_loop_fn fn = NULL;
    switch (out->dtype) {
        ST_TYPES_FLOAT(CASE_SPACED)
    default:
        return st_fail(ST_E_TYPE, "%s: out must be float32 or float64, got %s", name,
                       st_dtype_name(out->dtype));
    }
    if ((rc = st_check_writable(out, "out"))) return rc;
    spaced_state sp = {a, b, st_tensor_numel(out), log10 != 0, 0};
    if (sp.n == 0) return ST_OK;
    /* logspace: a pow per element weighs ~ 30 stores */
    run_ordered(out, fn, &sp, sizeof sp, offsetof(spaced_state, k), 0, log10 ? sp.n * 32 : sp.n);
    return ST_OK;
}
