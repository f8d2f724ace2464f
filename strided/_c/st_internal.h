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
#define ST_TYPES_INT(M, ...) ST_TYPES_SINT(M, __VA_ARGS__) ST_TYPES_UINT(M, __VA_ARGS__)
#define ST_TYPES_REAL(M, ...) ST_TYPES_INT(M, __VA_ARGS__) ST_TYPES_FLOAT(M, __VA_ARGS__)
#define ST_TYPES_NUMERIC(M, ...) ST_TYPES_REAL(M, __VA_ARGS__) ST_TYPES_COMPLEX(M, __VA_ARGS__)
#define ST_TYPES_ALL(M, ...) ST_TYPES_BOOL(M, __VA_ARGS__) ST_TYPES_NUMERIC(M, __VA_ARGS__)
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

/* The dtype code of a complex type's real part (others: itself). */
static inline int st_real_dtype(int dtype)
{
    return dtype == ST_COMPLEX64 ? ST_FLOAT32 : dtype == ST_COMPLEX128 ? ST_FLOAT64 : dtype;
}
static inline int st_is_complex(int dtype) { return dtype == ST_COMPLEX64 || dtype == ST_COMPLEX128; }
static inline int st_is_float(int dtype) { return dtype == ST_FLOAT32 || dtype == ST_FLOAT64; }
static inline int st_is_signed_int(int dtype) { return dtype >= ST_INT8 && dtype <= ST_INT64; }
static inline int st_is_int(int dtype) { return dtype >= ST_INT8 && dtype <= ST_UINT64; }

/* ---- the order of values: st_sort's ascending order, in which
 * searchsorted and isin (setops.c) search.  ST_LT(a, b): a goes before b.
 * Bool and integers: a < b.  Floats: NaN after everything, NaNs equal to
 * each other.  Complex: (real, imag) lexicographically, a NaN in either
 * part after everything.  -0.0 and +0.0 are equal.  ST_LT_<suffix> is the
 * order of each type, for kernels generated from the ST_TYPES_* lists. */
#define ST_LT_PLAIN(a, b) ((a) < (b))
#define ST_LT_FLOAT(a, b) (((a) < (b)) | (((b) != (b)) & ((a) == (a))))
#define ST_DEF_LT_COMPLEX(SFX, T, R, RE, IM)                                    \
    static inline int st_lt_##SFX(T a, T b)                                     \
    {                                                                           \
        R ar = RE(a), ai = IM(a), br = RE(b), bi = IM(b);                       \
        if (ar != ar || ai != ai) return 0;                                     \
        if (br != br || bi != bi) return 1;                                     \
        return ar < br || (ar == br && ai < bi);                                \
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
st_status st_fail(st_status code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
const char *st_dtype_name(int dtype);
/* Checks shared by every writing kernel. */
st_status st_check_writable(const st_tensor *t, const char *what);
st_status st_check_dtype(const st_tensor *t, int dtype, const char *what);
st_status st_check_storage(const st_tensor *t, const char *what);

/* ---- the kernel signature (numpy's ufunc inner loop) ----------------
 * args[k] points at operand k's first element, steps[k] is its byte step,
 * *n the element count; extra carries op-specific data. */
typedef void (*st_loop_fn)(char **args, const int64_t *n, const int64_t *steps,
                           void *extra);

/* A kernel's first statement: copy the operand pointers and steps into
 * locals named `args` and `s` (the parameters are args_ and s_).  A store
 * through char * may alias the caller's arrays, so without the copy the
 * compiler reloads them after every element store: a store-to-load round
 * trip per element that made strided loops 1.6x slower. */
#define ST_LOCAL_ARGS(N)                                                        \
    char *args[N];                                                              \
    int64_t s[N];                                                               \
    for (int k_ = 0; k_ < (N); k_++) {                                          \
        args[k_] = args_[k_];                                                   \
        s[k_] = s_[k_];                                                         \
    }

/* ---- the N-d iterator ------------------------------------------------
 * Operand 0 fixes the iteration shape; the others broadcast to it (zero
 * strides).  Size-1 dims are dropped, dims are ordered by operand 0's
 * stride (outermost first) unless ST_ITER_C_ORDER, and dims contiguous
 * together in every operand are merged.  The innermost dim is handed to
 * the kernel. */
#define ST_ITER_C_ORDER 1     /* keep C order: the kernel sees elements in order */
#define ST_ITER_SERIAL 2      /* never split across threads */

typedef struct {
    int nop;
    int ndim;                               /* >= 1 after init */
    int c_order;                            /* built with ST_ITER_C_ORDER: never reorder or tile */
    int64_t numel;
    int64_t size[ST_MAX_DIMS];              /* outermost first */
    int64_t step[ST_MAX_DIMS][ST_MAX_OPERANDS];   /* bytes */
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
/* Run kernel over the linear (iteration-order) element range [begin, end). */
void st_iter_run_range(const st_iter *it, int64_t begin, int64_t end,
                       st_loop_fn kernel, void *extra);

/* ---- lanes: for kernels that need a whole 1-D line along one dim -----
 * (argmax, cumulative sums, sort, gather).  Iterates over every position
 * of `outer` (the shape without the lane dim) and calls
 * lane(ptrs, extra) with ptrs[k] at the start of operand k's lane. */
typedef void (*st_lane_fn)(char **ptrs, void *extra);
typedef struct {
    int nop;
    int ndim;
    int64_t size[ST_MAX_DIMS];
    int64_t step[ST_MAX_DIMS][ST_MAX_OPERANDS];   /* bytes */
    char *data[ST_MAX_OPERANDS];
} st_lanes;
/* ops[k]'s dims other than `dim` are walked with the sizes of ops[0]. */
void st_lanes_init(st_lanes *ln, int nop, const st_tensor *const *ops, int dim);
void st_lanes_run(const st_lanes *ln, st_lane_fn lane, void *extra, int64_t work_per_lane);

/* ---- loops shared between families ---- */
st_loop_fn st_cast_loop(int src, int dst);     /* dst = (dst type) src */
st_loop_fn st_fill_loop(int64_t itemsize);     /* extra points at the value */

/* Kernels are compiled for AVX-512, AVX2 and baseline x86-64; the loader
 * picks the best clone for the machine (one build serves any x86-64). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(ST_NO_CLONES)
#define ST_SIMD __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define ST_SIMD
#endif

/* ---- threads ---- */
int st_threads_for(int64_t work);   /* how many threads `work` elements deserve */
#define ST_PARALLEL_GRAIN 32768

/* ---- small helpers ---- */
static inline int64_t st_bytes_per(int dtype) { return st_itemsize(dtype); }
void *st_aligned_alloc(int64_t nbytes);
void st_aligned_free(void *p);
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
