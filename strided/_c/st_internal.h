/* st_internal.h -- what the C sources share and Python never sees:
 * the per-type tables (X-macros), error helpers, the N-d iterator. */
#ifndef ST_INTERNAL_H
#define ST_INTERNAL_H
#include "strided.h"
#include <stdbool.h>
#include <complex.h>
#include <string.h>

_Static_assert(ST_MAX_DIMS == sizeof(((st_tensor *)0)->sizes) / sizeof(int64_t),
               "st_tensor.sizes must hold ST_MAX_DIMS entries");

typedef float complex st_c64;
typedef double complex st_c128;

/* ---- types as data -------------------------------------------------
 * M(CODE, suffix, ctype, realtype, extras...) for every element type of a
 * group.  Kernels are written once as a macro and instantiated per group;
 * the groups say which kernels make sense for which types.  (The suffix of
 * bool is `bool_`: `bool` itself is a macro and would expand.)  A macro
 * cannot expand inside itself, so nested loops over types use the _2 copy. */
#define ST_TYPES_BOOL(M, ...) M(ST_BOOL, bool_, _Bool, _Bool, __VA_ARGS__)
/* clang-format off */
#define ST_TYPES_SINT(M, ...)                                                   \
    M(ST_INT8, int8, int8_t, int8_t, __VA_ARGS__)                               \
    M(ST_INT16, int16, int16_t, int16_t, __VA_ARGS__)                           \
    M(ST_INT32, int32, int32_t, int32_t, __VA_ARGS__)                           \
    M(ST_INT64, int64, int64_t, int64_t, __VA_ARGS__)
#define ST_TYPES_UINT(M, ...)                                                   \
    M(ST_UINT8, uint8, uint8_t, uint8_t, __VA_ARGS__)                           \
    M(ST_UINT16, uint16, uint16_t, uint16_t, __VA_ARGS__)                       \
    M(ST_UINT32, uint32, uint32_t, uint32_t, __VA_ARGS__)                       \
    M(ST_UINT64, uint64, uint64_t, uint64_t, __VA_ARGS__)
#define ST_TYPES_FLOAT(M, ...)                                                  \
    M(ST_FLOAT32, float32, float, float, __VA_ARGS__)                           \
    M(ST_FLOAT64, float64, double, double, __VA_ARGS__)
#define ST_TYPES_COMPLEX(M, ...)                                                \
    M(ST_COMPLEX64, complex64, st_c64, float, __VA_ARGS__)                      \
    M(ST_COMPLEX128, complex128, st_c128, double, __VA_ARGS__)
/* clang-format on */
#define ST_TYPES_INT(M, ...)                                                                       \
    ST_TYPES_SINT(M, __VA_ARGS__)                                                                  \
    ST_TYPES_UINT(M, __VA_ARGS__)
#define ST_TYPES_REAL(M, ...)                                                                      \
    ST_TYPES_INT(M, __VA_ARGS__)                                                                   \
    ST_TYPES_FLOAT(M, __VA_ARGS__)
#define ST_TYPES_NUMERIC(M, ...)                                                                   \
    ST_TYPES_REAL(M, __VA_ARGS__)                                                                  \
    ST_TYPES_COMPLEX(M, __VA_ARGS__)
#define ST_TYPES_ALL(M, ...)                                                                       \
    ST_TYPES_BOOL(M, __VA_ARGS__)                                                                  \
    ST_TYPES_NUMERIC(M, __VA_ARGS__)
/* clang-format off */
#define ST_TYPES_ALL_2(M, ...)                                                  \
    M(ST_BOOL, bool_, _Bool, _Bool, __VA_ARGS__)                                \
    M(ST_INT8, int8, int8_t, int8_t, __VA_ARGS__)                               \
    M(ST_INT16, int16, int16_t, int16_t, __VA_ARGS__)                           \
    M(ST_INT32, int32, int32_t, int32_t, __VA_ARGS__)                           \
    M(ST_INT64, int64, int64_t, int64_t, __VA_ARGS__)                           \
    M(ST_UINT8, uint8, uint8_t, uint8_t, __VA_ARGS__)                           \
    M(ST_UINT16, uint16, uint16_t, uint16_t, __VA_ARGS__)                       \
    M(ST_UINT32, uint32, uint32_t, uint32_t, __VA_ARGS__)                       \
    M(ST_UINT64, uint64, uint64_t, uint64_t, __VA_ARGS__)                       \
    M(ST_FLOAT32, float32, float, float, __VA_ARGS__)                           \
    M(ST_FLOAT64, float64, double, double, __VA_ARGS__)                         \
    M(ST_COMPLEX64, complex64, st_c64, float, __VA_ARGS__)                      \
    M(ST_COMPLEX128, complex128, st_c128, double, __VA_ARGS__)
/* clang-format on */

/* The dtype code of a complex type's real part (others: itself). */
static inline int st_real_dtype(int dtype)
{
    return dtype == ST_COMPLEX64 ? ST_FLOAT32 : dtype == ST_COMPLEX128 ? ST_FLOAT64 : dtype;
}
static inline int st_is_complex(int dtype)
{
    return dtype == ST_COMPLEX64 || dtype == ST_COMPLEX128;
}
static inline int st_is_float(int dtype) { return dtype == ST_FLOAT32 || dtype == ST_FLOAT64; }
static inline int st_is_signed_int(int dtype) { return dtype >= ST_INT8 && dtype <= ST_INT64; }
static inline int st_is_int(int dtype) { return dtype >= ST_INT8 && dtype <= ST_UINT64; }
/* The 16-bit floats (st_half.h), which no ST_TYPES_* list holds: copy.c
 * casts them, the computing kernels take them through float32 (half.c). */
static inline int st_is_half(int dtype) { return dtype == ST_FLOAT16 || dtype == ST_BFLOAT16; }
/* A type that the arithmetic kernels know themselves: every type but the
 * 16-bit floats. */
static inline int st_is_math_type(int dtype)
{
    return dtype >= 0 && dtype < ST_NTYPES && !st_is_half(dtype);
}
/* half.c: fn(outs, ins, ctx) run on float32 copies of the 16-bit float
 * operands among outs and ins (NULL ones pass), each 16-bit output
 * rounded back from its float32 result; the others as they are. */
typedef st_status (*st_f32_fn)(st_tensor **outs, const st_tensor **ins, void *ctx);
st_status st_via_float32(st_f32_fn fn, void *ctx, int nout, st_tensor *const *outs, int nin,
                         const st_tensor *const *ins);
/* The result dtype of an op on a 16-bit float, from float32's: a float32
 * result is rounded back to the 16-bit type, any other stays (-1: none). */
static inline int st_half_result(int res32, int half) { return res32 == ST_FLOAT32 ? half : res32; }

/* ---- the order of values: st_sort's ascending order, in which
 * searchsorted and isin (setops.c) search.  ST_LT(a, b): a goes before b.
 * Bool and integers: a < b.  Floats: NaN after everything, NaNs equal to
 * each other.  Complex: (real, imag) lexicographically, a NaN in either
 * part after everything.  -0.0 and +0.0 are equal.  ST_LT_<suffix> is the
 * order of each type, for kernels generated from the ST_TYPES_* lists. */
#define ST_LT_PLAIN(a, b) ((a) < (b))
#define ST_LT_FLOAT(a, b) (((a) < (b)) | (((b) != (b)) & ((a) == (a))))
#define ST_DEF_LT_COMPLEX(SFX, T, R, RE, IM)                                                       \
    static inline int st_lt_##SFX(T a, T b)                                                        \
    {                                                                                              \
        R ar = RE(a), ai = IM(a), br = RE(b), bi = IM(b);                                          \
        if (ar != ar || ai != ai) return 0;                                                        \
        if (br != br || bi != bi) return 1;                                                        \
        return ar < br || (ar == br && ai < bi);                                                   \
    }
ST_DEF_LT_COMPLEX(complex64, st_c64, float, crealf, cimagf)
ST_DEF_LT_COMPLEX(complex128, st_c128, double, creal, cimag)
#define ST_LT_bool_ ST_LT_PLAIN
#define ST_LT_int8 ST_LT_PLAIN
#define ST_LT_int16 ST_LT_PLAIN
#define ST_LT_int32 ST_LT_PLAIN
#define ST_LT_int64 ST_LT_PLAIN
#define ST_LT_uint8 ST_LT_PLAIN
#define ST_LT_uint16 ST_LT_PLAIN
#define ST_LT_uint32 ST_LT_PLAIN
#define ST_LT_uint64 ST_LT_PLAIN
#define ST_LT_float32 ST_LT_FLOAT
#define ST_LT_float64 ST_LT_FLOAT
#define ST_LT_complex64 st_lt_complex64
#define ST_LT_complex128 st_lt_complex128

/* ---- errors ---- */
st_status st_fail(st_status code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* st_fail(ST_E_INDEX, ...) that also records the index, its valid range
 * [lo, hi) and its dim, in the caller's numbering (st_last_index_error). */
st_status st_fail_index(int64_t index, int64_t lo, int64_t hi, int dim, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
const char *st_dtype_name(int dtype);
/* Checks shared by every writing kernel. */
st_status st_check_writable(const st_tensor *t, const char *what);
st_status st_check_dtype(const st_tensor *t, int dtype, const char *what);
st_status st_check_storage(const st_tensor *t, const char *what);

/* ---- the kernel signature (numpy's ufunc inner loop) ----------------
 * args[k] points at operand k's first element, steps[k] is its byte step,
 * *n the element count; extra carries op-specific data. */
typedef void (*st_loop_fn)(char **args, const int64_t *n, const int64_t *steps, void *extra);
/* The same kernel over rows (PyTorch's loop2d): n[0] elements a row, n[1]
 * rows; steps[k] as above, steps[nop + k] operand k's step from a row to
 * the next.  A broadcast with a short inner dim (xpx.kron's product: rows
 * of 4-10 elements) costs a call per row through the 1-D kernel, several
 * times the row's own work; the rows form runs them in one call. */
typedef st_loop_fn st_rows_fn;
#define ST_ROWS_INNER_MAX 64 /* rows at most this long go to a rows kernel */

/* A rows kernel's body over one row kernel: LINE runs a row with the
 * locals args and s; np and s_ are the parameters. */
#define ST_ROWS_LOOP(N, LINE)                                                                      \
    ST_LOCAL_ARGS(N)                                                                               \
    for (int64_t r_ = 0; r_ < np[1]; r_++) {                                                       \
        LINE;                                                                                      \
        for (int k_ = 0; k_ < (N); k_++) args[k_] += s_[(N) + k_];                                 \
    }

/* A kernel's first statement: copy the operand pointers and steps into
 * locals named `args` and `s` (the parameters are args_ and s_).  A store
 * through char * may alias the caller's arrays, so without the copy the
 * compiler reloads them after every element store: a store-to-load round
 * trip per element that made strided loops 1.6x slower. */
#define ST_LOCAL_ARGS(N)                                                                           \
    char *args[N];                                                                                 \
    int64_t s[N];                                                                                  \
    for (int k_ = 0; k_ < (N); k_++) {                                                             \
        args[k_] = args_[k_];                                                                      \
        s[k_] = s_[k_];                                                                            \
    }

/* ---- the N-d iterator ------------------------------------------------
 * Operand 0 fixes the iteration shape; the others broadcast to it (zero
 * strides).  Size-1 dims are dropped, dims are ordered by operand 0's
 * stride (outermost first) unless ST_ITER_C_ORDER, and dims contiguous
 * together in every operand are merged.  The innermost dim is handed to
 * the kernel. */
#define ST_ITER_C_ORDER 1 /* keep C order: the kernel sees elements in order */
#define ST_ITER_SERIAL 2  /* never split across threads */
#define ST_ITER_FENCE                                                                              \
    4 /* each thread ends with a store fence (kernels that
                                 used streaming stores: see st_stream_store) */

typedef struct {
    int nop;
    int ndim;    /* >= 1 after init */
    int c_order; /* built with ST_ITER_C_ORDER: never reorder or tile */
    int64_t numel;
    int64_t size[ST_MAX_DIMS];                  /* outermost first */
    int64_t step[ST_MAX_DIMS][ST_MAX_OPERANDS]; /* bytes */
    char *data[ST_MAX_OPERANDS];
} st_iter;

/* Build the iterator; fails when an operand does not broadcast. */
st_status st_iter_init(st_iter *it, int nop, const st_tensor *const *ops, int flags);
/* Same, over an explicit shape that every operand broadcasts to. */
st_status st_iter_init_shape(st_iter *it, int nop, const st_tensor *const *ops, int ndim,
                             const int64_t *shape, int flags);
/* Drop size-1 dims, flip, order and merge (done by init). */
void st_iter_simplify(st_iter *it, int flags);
/* Run kernel over all elements, splitting across threads when large. */
void st_iter_run(const st_iter *it, st_loop_fn kernel, void *extra, int flags);
/* Same, with kernel's rows form (NULL: none) for short inner dims. */
void st_iter_run_rows(const st_iter *it, st_loop_fn kernel, st_rows_fn rows, void *extra,
                      int flags);
/* Run kernel over the linear (iteration-order) element range [begin, end). */
void st_iter_run_range(const st_iter *it, int64_t begin, int64_t end, st_loop_fn kernel,
                       void *extra);

/* ---- lanes: for kernels that need a whole 1-D line along one dim -----
 * (argmax, cumulative sums, sort, gather).  Iterates over every position
 * of `outer` (the shape without the lane dim) and calls
 * lane(ptrs, extra) with ptrs[k] at the start of operand k's lane. */
typedef void (*st_lane_fn)(char **ptrs, void *extra);
typedef struct {
    int nop;
    int ndim;
    int64_t size[ST_MAX_DIMS];
    int64_t step[ST_MAX_DIMS][ST_MAX_OPERANDS]; /* bytes */
    char *data[ST_MAX_OPERANDS];
} st_lanes;
/* ops[k]'s dims other than `dim` are walked with the sizes of ops[0]. */
void st_lanes_init(st_lanes *ln, int nop, const st_tensor *const *ops, int dim);
void st_lanes_run(const st_lanes *ln, st_lane_fn lane, void *extra, int64_t work_per_lane);
/* Same on at most max_threads threads (a kernel whose lanes index per-thread
 * buffers by omp_get_thread_num() passes the count it sized them for). */
void st_lanes_run_max(const st_lanes *ln, st_lane_fn lane, void *extra, int64_t work_per_lane,
                      int max_threads);

/* ---- ordered reductions (reduce_tree.c) ----
 * Float and complex sums, products and sums of squared deviations, in an
 * order fixed by the reduced elements alone (see reduce_tree.c).
 * st_reduce_tree takes st_reduce's checked arguments, in non-empty. */
int st_reduce_tree_handles(int op, int dtype);
st_status st_reduce_tree(int op, st_tensor *out, const st_tensor *in, const uint8_t *dims,
                         const st_tensor *aux);

/* ---- elementwise kernels run outside st_unary / st_binary (elementwise.c) ----
 * The kernel of op for one dtype (NULL: op undefined for it), for code that
 * runs it on lines of its own: fast.c's small calls, fuse.c's blocks. */
st_loop_fn st_unary_loop(int op, int dtype);
st_loop_fn st_binary_loop(int op, int dtype);
/* st_binary's check of b before an integer division, remainder or power
 * (ST_E_ZERODIV, ST_E_VALUE); ST_OK for every other op and dtype. */
st_status st_binary_check_divisor(int op, int dtype, const st_tensor *b);
/* The same check on n elements of b at byte step `step`, for a kernel run a
 * block at a time: the status it would fail with (no message set: the
 * caller may be a worker thread), ST_OK when b passes. */
st_status st_binary_block_check(int op, int dtype, const char *b, int64_t n, int64_t step);

/* A 16-bit float op (all operands of one dtype, float16 or bfloat16)
 * fused with its conversions (half_ew.c): the kernel for st_binary /
 * st_unary to run in place of the block path, or NULL when op or the
 * layout has none (the block path then runs).  Bit for bit the block
 * path's results. */
st_loop_fn st_half_binary_fused(int op, const st_tensor *out, const st_tensor *a,
                                const st_tensor *b);
st_loop_fn st_half_unary_fused(int op, const st_tensor *out, const st_tensor *a);

/* ---- loops shared between families ---- */
st_loop_fn st_cast_loop(int src, int dst); /* dst = (dst type) src */
st_loop_fn st_fill_loop(int64_t itemsize); /* extra points at the value */

/* ---- CPU levels: one build serves any x86-64 ----
 * A kernel that gains from wider vectors is compiled once per level that
 * st_cpu_level() (core.c) can answer: x86-64-v4 (AVX-512), x86-64-v3 (AVX2,
 * FMA) and baseline x86-64.  ST_LEVELS(DEF, args...) expands
 * DEF(_v4, ST_ATTR_V4, args...) DEF(_v3, ST_ATTR_V3, args...) DEF(_v0, , args...):
 * DEF names its function NAME##ISA and puts ATTR (a `target` attribute, so
 * the compiler vectorises for that ISA, vector extensions included) before
 * it.  ST_PICK(NAME) is the variant for the running level, picked when a
 * dispatch table is filled at load time or in a small per-call wrapper.
 * A plain function is written once as an ST_LEVEL_BODY (always inlined:
 * each variant compiles the body for its own ISA) and ST_LEVEL_FN(NAME,
 * (params), (args)) makes its variants (void functions; ST_LEVEL_FN_RET for a
 * body that returns a value).  (GCC's target_clones would pick
 * by itself, but its resolver cannot be steered by STRIDED_CPU_LEVEL.) */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(ST_NO_CLONES)
#define ST_ATTR_V4 __attribute__((target("arch=x86-64-v4")))
#define ST_ATTR_V3 __attribute__((target("arch=x86-64-v3")))
#define ST_LEVELS(DEF, ...)                                                                        \
    DEF(_v4, ST_ATTR_V4, __VA_ARGS__) DEF(_v3, ST_ATTR_V3, __VA_ARGS__) DEF(_v0, , __VA_ARGS__)
#define ST_PICK(F) (st_level() >= 4 ? F##_v4 : st_level() >= 3 ? F##_v3 : F##_v0)
#define ST_HAS_LEVELS 1 /* the _v3 and _v4 variants exist */
#else
#define ST_HAS_LEVELS 0
#define ST_ATTR_V4
#define ST_ATTR_V3
#define ST_LEVELS(DEF, ...) DEF(_v0, , __VA_ARGS__)
#define ST_PICK(F) F##_v0
#endif
/* A kernel that no wider vector speeds up (an integer division, a libm
 * call with no vector variant, Annex G complex arithmetic: scalar code at
 * every level) is compiled once, for the baseline: ST_LEVELS_BASE and
 * ST_PICK_BASE in place of ST_LEVELS and ST_PICK. */
#define ST_LEVELS_BASE(DEF, ...) DEF(_v0, , __VA_ARGS__)
#define ST_PICK_BASE(F) F##_v0

/* ---- one source, several objects ----
 * A large kernel file is compiled as several objects so that the build
 * runs them on every core at once: NAME_pK.c is `#define ST_PART K` then
 * `#include "NAME.c"`, NAME.c itself being part 0; the file guards what
 * belongs to part K with `#if ST_PART == K` (what every part needs, types,
 * helpers, templates, is not guarded). */
#ifndef ST_PART
#define ST_PART 0
#endif

/* st_cpu_level()'s answer once it is known, else -1: ST_PICK in a per-call
 * wrapper costs one load, not a call. */
extern int st_level_known;
static inline int st_level(void)
{
    int level = __atomic_load_n(&st_level_known, __ATOMIC_ACQUIRE);
    return level >= 0 ? level : st_cpu_level();
}
#define ST_LEVEL_BODY static inline __attribute__((always_inline))
#define ST_LEVEL_WRAP(ISA, ATTR, NAME, PARAMS, ARGS)                                               \
    ATTR static void NAME##ISA PARAMS { NAME ARGS; }
#define ST_LEVEL_FN(NAME, PARAMS, ARGS) ST_LEVELS(ST_LEVEL_WRAP, NAME, PARAMS, ARGS)
/* The same for a body that returns a value of type RET. */
#define ST_LEVEL_WRAP_RET(ISA, ATTR, RET, NAME, PARAMS, ARGS)                                      \
    ATTR static RET NAME##ISA PARAMS { return NAME ARGS; }
#define ST_LEVEL_FN_RET(RET, NAME, PARAMS, ARGS)                                                   \
    ST_LEVELS(ST_LEVEL_WRAP_RET, RET, NAME, PARAMS, ARGS)
/* The variants of BODY and NAME, one function that calls the running
 * level's (for tables initialised at compile time). */
#define ST_LEVEL_DISPATCH(NAME, BODY, PARAMS, ARGS)                                                \
    ST_LEVEL_FN(BODY, PARAMS, ARGS) static void NAME PARAMS { ST_PICK(BODY) ARGS; }

/* ---- streaming (non-temporal) stores, copy.c ----
 * A normal store first reads the line it writes (read for ownership), so
 * out = a + b over arrays larger than the caches moves 4 lines for every 3
 * it needs.  A kernel given extra == ST_STREAM computes blocks of
 * ST_STREAM_BLOCK bytes into an L1 buffer and hands each to
 * st_stream_store, which writes it around the caches.  The caller runs the
 * iterator with ST_ITER_FENCE so the streamed lines are visible when the
 * op returns.  st_stream_worth says when it pays (a large output that no
 * input shares memory with: an output read back soon would rather stay in
 * the cache, and an output that is also an input is in the cache already). */
extern char st_stream_tag;
#define ST_STREAM ((void *)&st_stream_tag)
#define ST_STREAM_BLOCK 2048
#define ST_STREAM_MIN_BYTES ((int64_t)32 << 20) /* all operands together, ~ the L3 */
/* dst 64-byte aligned, nbytes a multiple of 64 */
void st_stream_store(void *dst, const void *src, int64_t nbytes);
/* it: the iteration that will run (its rows decide too), NULL for one contiguous run */
int st_stream_worth(const st_tensor *out, int nin, const st_tensor *const *ins, const st_iter *it);
/* The number of leading elements of size `item` to store normally so that
 * dst + head is 64-byte aligned, or -1 when dst cannot stream (misaligned
 * for its type, or fewer than 2 blocks). */
static inline int64_t st_stream_head(const void *dst, int64_t n, int64_t item)
{
    uintptr_t p = (uintptr_t)dst;
    if (p % (uintptr_t)item || n * item < 128) return -1;
    return (int64_t)((-p & 63) / (uintptr_t)item);
}
/* The runs of out[0, n) (out a contiguous OT *): between ST_STREAM_RUNS
 * and ST_STREAM_RUNS_END, a statement fills d_[0, m_) with the elements
 * k_, ..., k_ + m_ - 1.  With extra == ST_STREAM the whole 64-byte lines
 * of out are runs of an L1 buffer, streamed out after each; the head and
 * tail (and the whole of out otherwise) are runs of out itself, so the
 * filling statement is compiled once per kernel, not once per case (the
 * build's largest cost when it was four loops). */
#define ST_STREAM_RUNS(OT, OUT, N, EXTRA)                                                          \
    do {                                                                                           \
        OT *const o_ = (OUT);                                                                      \
        const int64_t n_ = (N);                                                                    \
        const int64_t s_ = (EXTRA) == ST_STREAM ? st_stream_head(o_, n_, sizeof(OT)) : -1;         \
        enum { B_ = ST_STREAM_BLOCK / sizeof(OT) };                                                \
        OT buf_[B_] __attribute__((aligned(64)));                                                  \
        /* [h_, e_): whole lines, streamed; the rest stored in place */                            \
        const int64_t h_ = s_ < 0 ? n_ : s_;                                                       \
        const int64_t e_ =                                                                         \
            h_ + ((n_ - h_) * (int64_t)sizeof(OT) & ~(int64_t)63) / (int64_t)sizeof(OT);           \
        for (int64_t k_ = 0; k_ < n_;) {                                                           \
            int64_t m_;                                                                            \
            OT *d_;                                                                                \
            if (k_ < h_ || k_ >= e_) {                                                             \
                m_ = (k_ < h_ ? h_ : n_) - k_;                                                     \
                d_ = o_ + k_;                                                                      \
            } else {                                                                               \
                m_ = e_ - k_ < B_ ? e_ - k_ : B_;                                                  \
                d_ = buf_;                                                                         \
            }
/* the closing half of ST_STREAM_RUNS's braces */
/* clang-format off */
#define ST_STREAM_RUNS_END(OT)                                                                     \
            if (d_ == buf_) st_stream_store(o_ + k_, buf_, m_ * (int64_t)sizeof(OT));              \
            k_ += m_;                                                                              \
        }                                                                                          \
    } while (0)
/* clang-format on */
/* out[i] = ELEM for i in [0, n), ELEM an expression of i: its runs
 * (ST_STREAM_RUNS) filled by one loop. */
#define ST_STREAMED(OT, OUT, N, EXTRA, ELEM)                                                       \
    ST_STREAM_RUNS(OT, OUT, N, EXTRA)                                                              \
    _Pragma("GCC ivdep")                                                                           \
    for (int64_t j_ = 0; j_ < m_; j_++) {                                                          \
        const int64_t i = k_ + j_;                                                                 \
        (void)i;                                                                                   \
        d_[j_] = (ELEM);                                                                           \
    }                                                                                              \
    ST_STREAM_RUNS_END(OT)
/* Store fence after streaming stores (SSE, so every x86-64 has it). */
#if defined(__x86_64__) && defined(__GNUC__)
#define ST_SFENCE() __builtin_ia32_sfence()
#else
#define ST_SFENCE() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif

/* ---- threads ---- */
int st_threads_for(int64_t work); /* how many threads `work` elements deserve */
#define ST_PARALLEL_GRAIN 32768

/* ---- memory blocks (alloc.c) ----
 * 64-byte aligned, at least 64 bytes, given back by st_aligned_free.  From
 * ST_MAP_MIN bytes on a block is a mapping kept by the cache when freed:
 * st_aligned_alloc may then hand out a freed block's old bytes (for results
 * the caller writes in full); st_block_zeros never does (all zero; *fresh
 * = 1 when the bytes are untouched fresh pages, zeroed by the kernel at
 * first touch). */
#define ST_MAP_MIN ((size_t)128 << 10)
#define ST_CACHE_AGE 256                   /* frees a cached block waits to be taken again */
#define ST_ZEROS_FRESH ((int64_t)32 << 20) /* zeroed requests from here on: fresh pages */
void *st_aligned_alloc(int64_t nbytes);
void *st_block_zeros(int64_t nbytes, int *fresh);
void st_aligned_free(void *p);

/* a op b's kernel, x ** 2 and x ** 3 rewritten (then *b becomes a; elementwise.c) */
st_loop_fn st_binary_kernel(int op, const st_tensor *a, const st_tensor **b);

/* ---- small helpers ---- */
/* Whether integer type T is signed, and whether x of type T is below zero,
 * written so that the macro-made kernels of the unsigned types raise no
 * -Wtype-limits warning (x < 0 of an unsigned x is always false; a signed
 * x widens to int64_t exactly; the test in a function, inlined, is out of
 * the warning's sight). */
#define ST_SIGNED(T) ((T) - 1 < (T)1)
static inline int st_negative64(int64_t v) { return v < 0; }
#define ST_BELOW_ZERO(T, x) (ST_SIGNED(T) && st_negative64((int64_t)(x)))

/* 1 when a and b may touch the same bytes (the exact same view included:
 * an index kernel reads other positions than it writes). */
int st_tensor_shares_memory(const st_tensor *a, const st_tensor *b);
/* Replace *in by a contiguous copy (kept in *tmp, freed by the caller). */
st_status st_detach_copy(const st_tensor **in, st_tensor **tmp);
/* "(2, 3)" into buf, for messages. */
void st_shape_str(char *buf, size_t len, int ndim, const int64_t *sizes);
/* A contiguous temporary with t's dtype and sizes (caller frees with st_tensor_free). */
st_tensor *st_tensor_temp_like(const st_tensor *t, int dtype);

#endif
