/* strided.h -- the public C API of the strided core.
 *
 * This header is the single truth of the C API: the cffi build script reads
 * it for its cdef (dropping lines that start with '#', except numeric
 * #defines), and every C source includes it.  Keep it cdef-clean: plain
 * declarations, no macros with arguments, no complex types in signatures
 * (values travel through `const void *`).
 *
 * Conventions
 *   - Every function that can fail returns an st_status; 0 is success and
 *     st_last_error() then holds nothing of interest.  On failure nothing
 *     has been written and st_last_error() names what was wrong.
 *   - Sizes, offsets and strides are counted in elements, never bytes.
 *   - Dimension numbers and indices are 0-based here; the Torch7 face
 *     passes ST_IDX_BASE1 where Torch7 counts from one.
 */
#ifndef STRIDED_H
#define STRIDED_H
#include <stdint.h>
#include <stddef.h>

#define ST_MAX_DIMS 64
#define ST_MAX_OPERANDS 4

/* ---- status codes: mapped to Python exceptions by strided/_core.py ---- */
#define ST_OK 0
#define ST_E_VALUE 1    /* ValueError: bad size, shape mismatch        */
#define ST_E_INDEX 2    /* IndexError: index or dimension out of range */
#define ST_E_TYPE 3     /* TypeError: dtype not supported by the op     */
#define ST_E_MEMORY 4   /* MemoryError                                  */
#define ST_E_OVERFLOW 5 /* OverflowError: size arithmetic overflowed    */
#define ST_E_ZERODIV 6  /* ZeroDivisionError: integer division by zero  */
#define ST_E_READONLY 7 /* ValueError: write to read-only memory        */
#define ST_E_BORROWED 8 /* ValueError: resize of borrowed memory        */
#define ST_E_IO 9       /* OSError: the system refused a file operation */
typedef int st_status;

/* ---- element types: one dynamic type field -------------------------- */
#define ST_BOOL 0
#define ST_INT8 1
#define ST_INT16 2
#define ST_INT32 3
#define ST_INT64 4
#define ST_UINT8 5
#define ST_UINT16 6
#define ST_UINT32 7
#define ST_UINT64 8
#define ST_FLOAT32 9
#define ST_FLOAT64 10
#define ST_COMPLEX64 11
#define ST_COMPLEX128 12
/* The 16-bit floats: IEEE binary16 (Torch7's Half) and bfloat16 (the top
 * half of a float32: its range, 8 bits of precision).  They are copied
 * and cast to and from every type (st_copy), filled, viewed and moved
 * like any type; the kernels that compute take them through float32: a
 * block (elementwise) or a copy (reductions, matmul, sort...) is widened
 * to float32, the float32 kernel runs, and a float32 result is rounded
 * back once (st_*_result give the 16-bit type where float32 gives
 * float32).  Their elements are uint16_t bit patterns in C. */
#define ST_FLOAT16 13
#define ST_BFLOAT16 14
#define ST_NTYPES 15

/* ---- storage flags ---- */
#define ST_STORAGE_OWNED 1    /* allocated by the core, resizable  */
#define ST_STORAGE_READONLY 2 /* every writing kernel refuses it   */
#define ST_STORAGE_INLINE 8   /* small owned data inside the record's own block */
#define ST_STORAGE_MAPPED 16  /* a memory-mapped file (st_storage_map): not resizable */
#define ST_STORAGE_PAGES 32 /* zeroed data on fresh pages, untouched when made (st_storage_zeros) */

/* ---- index-kernel flags ---- */
#define ST_IDX_BASE1 1 /* indices count from one (Torch7)   */
#define ST_IDX_WRAP 2  /* negative indices count from end   */

typedef void (*st_release_fn)(void *ctx);

/* A block of memory, refcounted.  Owned memory is 64-byte aligned and
 * resizable; borrowed memory is released through `release(ctx)` exactly
 * once, when the last reference goes. */
typedef struct st_storage {
    char *data;
    int64_t nbytes;
    int64_t refcount;
    int flags;
    st_release_fn release;
    void *release_ctx;
    int64_t pins; /* live st_storage_view's into it: st_storage_resize refuses to move it */
} st_storage;

/* A view: storage + element offset + sizes + strides + dtype. */
typedef struct st_tensor {
    st_storage *storage; /* may be NULL for a tensor with no storage */
    int64_t offset;      /* in elements */
    int ndim;
    int dtype;
    int64_t refcount; /* Torch7 retain/free */
    int64_t sizes[64];
    int64_t strides[64];
} st_tensor;

/* ---- errors, types, threads ---------------------------------------- */
/* What the last failure of the calling thread was: its message, and its
 * status code (also after a function that returns a pointer returned NULL:
 * ST_E_MEMORY only when memory ran out, ST_E_OVERFLOW for a size too large
 * to compute, ST_E_VALUE for a negative one). */
const char *st_last_error(void);
st_status st_last_status(void);
/* 1 when the last failure of the calling thread was an index out of range
 * (ST_E_INDEX from an index kernel or setops' positions): *index is the
 * offending value, [*lo, *hi) the valid ones and *dim the dimension, all in
 * the numbering the caller used (1-based with ST_IDX_BASE1; with
 * ST_IDX_WRAP, lo is -size, and with both flags 0 inside [lo, hi) is not
 * valid either); 0 otherwise.  Any pointer may be NULL. */
int st_last_index_error(int64_t *index, int64_t *lo, int64_t *hi, int *dim);
int64_t st_itemsize(int dtype);
/* The thread count of the kernels (setnumthreads): any thread may set it
 * while others run kernels; each call reads it once. */
void st_set_num_threads(int n);
int st_get_num_threads(void);
/* 1 in a process made by fork() whose OpenMP threads could not be
 * carried over (the parent had run a parallel region and its runtime
 * refused to pause its threads before the fork): every kernel then runs on
 * its calling thread.  0 otherwise, a forked child included: it starts
 * threads of its own (core.c, threads). */
int st_threads_forked(void);
/* The instruction set the kernels run with: 4 = x86-64-v4 (AVX-512),
 * 3 = x86-64-v3 (AVX2, FMA), 0 = baseline x86-64.  Detected once, at the
 * first call (the library's load), from the CPU; the environment variable
 * STRIDED_CPU_LEVEL (0, 3 or 4) can lower it, never raise it past what the
 * CPU has; any other value is ignored. */
int st_cpu_level(void);

/* ---- storage ---- */
st_storage *st_storage_new(int64_t nbytes); /* NULL on error */
/* The same, its bytes zero: fresh anonymous pages, which the kernel zeroes
 * when first touched (flagged ST_STORAGE_PAGES; nothing is written here,
 * as numpy's calloc), or a cleared block (small, or reused from the cache
 * below 32 MiB: alloc.c). */
st_storage *st_storage_zeros(int64_t nbytes);
st_storage *st_storage_borrow(void *data, int64_t nbytes, int readonly, st_release_fn release,
                              void *ctx);
void st_storage_retain(st_storage *s);
/* The block cache (alloc.c): freed large blocks kept by size class for
 * reuse.  Release gives every cached block back to the system and returns
 * the bytes given; set_limit bounds the bytes kept (0: keep none) and
 * releases what is cached; stats writes {cached bytes, cached blocks, hits,
 * misses, limit} into out[5]. */
int64_t st_cache_release(void);
void st_cache_set_limit(int64_t bytes);
void st_cache_stats(int64_t *out);
void st_storage_release(st_storage *s);
st_status st_storage_resize(st_storage *s, int64_t nbytes);
/* A storage over `nbytes` of `parent` from byte `offset` (Torch7's
 * Storage(storage, offset, size)), read-only when the parent is.  It holds
 * a reference to the parent and pins it (parent->pins): st_storage_resize
 * refuses to move the parent's memory until the view's last reference goes,
 * however long tensors keep the view after its Python object is gone.
 * NULL on error (ST_E_VALUE: a range outside the parent). */
st_storage *st_storage_view(st_storage *parent, int64_t offset, int64_t nbytes);

/* ---- memory-mapped files (Torch7's Storage(filename, shared, size, sharedMem)) ---- */
/* PRIVATE: the file opened read-only, mapped copy-on-write (writes stay in
 * this process); SHARED: opened read-write (created when missing, mode
 * 0600), mapped shared (writes reach the file); SHAREDMEM: as SHARED, on
 * the POSIX shared memory object `path` (shm_open), unlinked when the
 * storage goes */
#define ST_MAP_PRIVATE 0
#define ST_MAP_SHARED 1
#define ST_MAP_SHAREDMEM 2
/* A storage over the first nbytes of file `path`; nbytes == 0: as much of
 * the file as makes whole elements of `unit` bytes (>= 1; an empty file
 * gives an empty storage).  A private mapping refuses nbytes beyond the
 * file's size (ST_E_VALUE); a shared one grows the file to nbytes,
 * zero-filled, keeping its content.  The storage is flagged
 * ST_STORAGE_MAPPED (not resizable) and unmapped when its last reference
 * goes.  NULL on failure, st_last_status() saying why: ST_E_IO when the
 * system refused (open, stat, truncate, mmap; a directory: EISDIR) with
 * *os_errno its errno, else ST_E_VALUE (a bad size, unit or mode, a path
 * that is not a regular file) with *os_errno 0. */
st_storage *st_storage_map(const char *path, int64_t nbytes, int64_t unit, int mode, int *os_errno);

/* ---- Torch7's binary object format (t7scan.c) ---- */
/* One object of a .t7 stream walked: from file descriptor fd (mem NULL;
 * read with pread, the fd's position untouched) or from memory mem, the
 * data being bytes [start, end); longs of longsize (4 or 8) bytes; with
 * referenced, an index met before (or among the n_known `known`) is a
 * reference.  Classes: names[i] is built in with kinds[i] (a storage: its
 * element size; or one of the kinds below); any other class is a Lua
 * object whose fields follow as a table.  out gets the records, in the
 * order read, as int64 words:
 *   NIL | NUMBER bits | STRING at len | BOOLEAN v | REF index
 *   TABLE index count, then count (key, value) records
 *   TENSOR index class nd sizes[nd] strides[nd] offset, then its storage's record
 *   STORAGE index class size slot       (out->storages[slot], made here)
 *   GENERATOR index at                  (its 5048 state bytes)
 *   OBJECT index version name_at name_len 0, then its fields' record
 * where `at` is an offset in out->bytes (from fd: a storage's elements read
 * with the next object's head, or by two threads: st_t7_readers).  Returns
 * 0, or 1 for what it leaves to Python's reader (bad or truncated data, a
 * Lua function, an odd version), out then empty.  Every length is checked before memory is
 * touched.  st_t7_scan_free releases the storages not taken (set to NULL). */
#define ST_T7_NIL 0
#define ST_T7_NUMBER 1
#define ST_T7_STRING 2
#define ST_T7_TABLE 3
#define ST_T7_BOOLEAN 5
#define ST_T7_REF 9
#define ST_T7_TENSOR 10
#define ST_T7_STORAGE 11
#define ST_T7_GENERATOR 12
#define ST_T7_OBJECT 13
#define ST_T7_KIND_TENSOR 0
#define ST_T7_KIND_GENERATOR -1
typedef struct st_t7_scan {
    int64_t *words;
    int64_t nwords;
    char *bytes;
    int64_t nbytes;
    st_storage **storages;
    int64_t nstorages;
    int64_t end; /* the data offset after the object */
    int64_t cap_words, cap_bytes, cap_storages;
} st_t7_scan;
int st_t7_walk(int fd, const char *mem, int64_t start, int64_t end, int longsize, int referenced,
               const int64_t *known, int64_t n_known, const char *const *names,
               const int64_t *kinds, int64_t nclasses, st_t7_scan *out);
void st_t7_scan_free(st_t7_scan *s);
/* How many threads read a walk's storages from a file descriptor: 0 (the
 * default) two when the core may use two threads and a CPU is free at the
 * walk's start (the storages of 256 KiB and more read after the walk, from
 * 4 MiB of them by this thread and a helper), else one; 1 always one; 2
 * two whenever the core's threads allow (tests, measurements).  Returns
 * the previous mode. */
int st_t7_readers(int mode);

/* ---- tensor records ---- */
st_tensor *st_tensor_new(void);    /* empty, 0-d, no storage */
void st_tensor_free(st_tensor *t); /* drops storage ref, frees record */
/* Point t at `storage` with the given geometry.  Checks sizes >= 0, that
 * numel * itemsize does not overflow, and that every reachable element lies
 * inside the storage.  `strides == NULL` means C-contiguous. */
st_status st_tensor_set(st_tensor *t, st_storage *storage, int dtype, int64_t offset, int ndim,
                        const int64_t *sizes, const int64_t *strides);
/* New owned storage of the right size, C-contiguous strides. */
st_status st_tensor_alloc(st_tensor *t, int dtype, int ndim, const int64_t *sizes);
/* The same over st_storage_zeros: every element 0 (zeros, eye) without a pass. */
st_status st_tensor_alloc_zeros(st_tensor *t, int dtype, int ndim, const int64_t *sizes);
int64_t st_tensor_numel(const st_tensor *t);
int st_tensor_is_contiguous(const st_tensor *t);
void *st_tensor_data(const st_tensor *t); /* address of element 0 */
/* 1 when a and b may share memory in a way that an elementwise kernel
 * writing a while reading b would see its own writes (not the exact same view). */
int st_tensor_overlaps(const st_tensor *a, const st_tensor *b);
/* Byte extent [lo, hi) of the elements a view reaches, relative to storage data. */
st_status st_tensor_extent(const st_tensor *t, int64_t *lo, int64_t *hi);

/* ---- copy, cast, fill ---------------------------------------------- */
/* dst[...] = (dst.dtype) src[...]; src broadcasts to dst; any strides;
 * overlapping src and dst are handled through a temporary. */
st_status st_copy(st_tensor *dst, const st_tensor *src);
/* Concatenation: parts[0..n) copied one after the other along dim of out
 * (each converted to out's dtype), one C call for both faces' concat/cat.
 * Checked before anything is written: out writable, n >= 1, dim in [0, ndim),
 * every part of out's ndim and its sizes off dim, and the parts' sizes at
 * dim adding up to out's. */
st_status st_cat(st_tensor *out, int n, const st_tensor *const *parts, int dim);
/* value points to one element of dst's dtype. */
st_status st_fill(st_tensor *dst, const void *value);
/* One IEEE binary16 (ST_FLOAT16) or bfloat16 value: the bits of x
 * rounded to nearest, ties to even (float16 beyond its largest finite
 * value, 65504, from 65520 on: infinity; a NaN stays a quiet NaN with its
 * sign), and the double of one's bits (exact).  st_copy converts with the
 * same rounding. */
uint16_t st_double_to_half(double x);
double st_half_to_double(uint16_t h);
uint16_t st_double_to_bfloat16(double x);
double st_bfloat16_to_double(uint16_t h);

/* ---- elementwise ---------------------------------------------------- */
/* ---- unary op codes: generated by gen_inventory.py from inventory.py; do not edit ---- */
/* clang-format off */
#define ST_U_NEGATIVE 0
#define ST_U_POSITIVE 1
#define ST_U_ABS 2
#define ST_U_SQRT 3
#define ST_U_EXP 4
#define ST_U_EXPM1 5
#define ST_U_LOG 6
#define ST_U_LOG1P 7
#define ST_U_LOG2 8
#define ST_U_LOG10 9
#define ST_U_SIN 10
#define ST_U_COS 11
#define ST_U_TAN 12
#define ST_U_ASIN 13
#define ST_U_ACOS 14
#define ST_U_ATAN 15
#define ST_U_SINH 16
#define ST_U_COSH 17
#define ST_U_TANH 18
#define ST_U_ASINH 19
#define ST_U_ACOSH 20
#define ST_U_ATANH 21
#define ST_U_FLOOR 22
#define ST_U_CEIL 23
#define ST_U_TRUNC 24
#define ST_U_ROUND 25
#define ST_U_SIGN 26
#define ST_U_SQUARE 27
#define ST_U_RECIPROCAL 28
#define ST_U_LOGICAL_NOT 29
#define ST_U_BITWISE_INVERT 30
#define ST_U_ISNAN 31
#define ST_U_ISINF 32
#define ST_U_ISFINITE 33
#define ST_U_SIGNBIT 34
#define ST_U_REAL 35
#define ST_U_IMAG 36
#define ST_U_CONJ 37
#define ST_U_SIGMOID 38
#define ST_U_RSQRT 39
#define ST_U_FRAC 40
#define ST_U_COUNT 41
/* clang-format on */
/* ---- end of the generated unary op codes ---- */

/* ---- binary op codes: generated by gen_inventory.py from inventory.py; do not edit ---- */
/* clang-format off */
#define ST_B_ADD 0
#define ST_B_SUBTRACT 1
#define ST_B_MULTIPLY 2
#define ST_B_DIVIDE 3
#define ST_B_FLOOR_DIVIDE 4
#define ST_B_REMAINDER 5
#define ST_B_POW 6
#define ST_B_ATAN2 7
#define ST_B_HYPOT 8
#define ST_B_COPYSIGN 9
#define ST_B_NEXTAFTER 10
#define ST_B_LOGADDEXP 11
#define ST_B_MAXIMUM 12
#define ST_B_MINIMUM 13
#define ST_B_FMOD 14
#define ST_B_BITWISE_AND 15
#define ST_B_BITWISE_OR 16
#define ST_B_BITWISE_XOR 17
#define ST_B_LEFT_SHIFT 18
#define ST_B_RIGHT_SHIFT 19
#define ST_B_LOGICAL_AND 20
#define ST_B_LOGICAL_OR 21
#define ST_B_LOGICAL_XOR 22
#define ST_B_EQUAL 23
#define ST_B_NOT_EQUAL 24
#define ST_B_LESS 25
#define ST_B_LESS_EQUAL 26
#define ST_B_GREATER 27
#define ST_B_GREATER_EQUAL 28
#define ST_B_TRUNC_DIVIDE 29
#define ST_B_TORCH7_REMAINDER 30/* Torch7's: a - b * floor(a / b), NaN for b == 0 (integers: remainder) */
#define ST_B_COUNT 31
/* clang-format on */
/* ---- end of the generated binary op codes ---- */

/* Result dtype of an op on operands of `dtype`, or -1 when the core has
 * no kernel for that pair.  The Python layers read their dtype tables
 * from these, so the C kernels stay the one truth of what exists. */
int st_unary_result(int op, int dtype);
int st_binary_result(int op, int dtype);
/* The name of an op in error messages (inventory.py's), or NULL for an
 * unknown family or code. */
#define ST_OPS_UNARY 0
#define ST_OPS_BINARY 1
#define ST_OPS_REDUCE 2
const char *st_op_name(int family, int op);

/* out = op(a); a broadcasts to out; a.dtype is the kernel's dtype. */
st_status st_unary(int op, st_tensor *out, const st_tensor *a);
/* out = op(a, b); a and b have one dtype and broadcast to out. */
st_status st_binary(int op, st_tensor *out, const st_tensor *a, const st_tensor *b);
/* out = op(a, b) computed in `dtype`: a and b of any dtypes are converted
 * to it (st_copy's rules) a cache-sized block at a time, never into a
 * full-size temporary.  Same results as casting first, then st_binary. */
st_status st_binary_as(int op, int dtype, st_tensor *out, const st_tensor *a, const st_tensor *b);
/* out = cond ? a : b (cond bool; a, b, out one dtype; all broadcast). */
st_status st_where(st_tensor *out, const st_tensor *cond, const st_tensor *a, const st_tensor *b);
/* out = min(max(a, lo), hi), NaN-propagating; lo or hi may be NULL. */
st_status st_clamp(st_tensor *out, const st_tensor *a, const st_tensor *lo, const st_tensor *hi);

/* ---- fused elementwise expressions (fuse.c) -------------------------
 * A program of instructions over registers evaluates one expression of
 * several inputs in a single pass over blocks of a few KB: each
 * instruction runs its op's own kernel on the block, reading inputs in
 * place (broadcast: step 0) and registers (per-thread block buffers); the
 * last one writes the output.  No full-size temporary. */
#define ST_FUSE_UNARY 0        /* dst = op(a)                        */
#define ST_FUSE_BINARY 1       /* dst = op(a, b)                     */
#define ST_FUSE_CAST 2         /* dst = a converted from dtype to res */
#define ST_FUSE_MAX_INPUTS 256 /* arrays and constants */
#define ST_FUSE_MAX_ARRAYS 32  /* inputs of more than one element */
#define ST_FUSE_MAX_REGS 16
#define ST_FUSE_MAX_INSTRS 256
typedef struct {
    int kind;  /* ST_FUSE_UNARY, ST_FUSE_BINARY or ST_FUSE_CAST */
    int op;    /* the unary or binary op code (a cast: unused) */
    int dtype; /* the dtype the instruction reads (a cast: its source) */
    int res;   /* the dtype it gives: the op's result (a cast: its target) */
    int dst;   /* the register it writes, or -1: the output (the last instruction) */
    int a, b;  /* operands: register r >= 0, or input k as -(k + 1); b: binary only */
} st_fuse_instr;
/* out = the program's value at every element, the inputs broadcast to
 * out's sizes (an input of one element, such as a constant, is read at
 * every element; at most ST_FUSE_MAX_ARRAYS others).  The program is checked first (ST_E_VALUE: a bad code,
 * register or operand; ST_E_TYPE: a dtype that does not chain, an op
 * without a kernel for its dtype, an output of another dtype than the
 * last instruction's); an integer division by zero or a negative integer
 * power fails as st_binary does (the output is then partly written).
 * out must not overlap an input. */
st_status st_fuse(st_tensor *out, int nin, const st_tensor *const *ins, int ninstr,
                  const st_fuse_instr *prog);

/* ---- memory bandwidth (bandwidth.c): STREAM's copy and triad ---------
 * a = b and a = b + s * c over n float64, each thread of the kernels'
 * count on one contiguous part, with streaming stores when nontemporal
 * (benchmarks/roofline.py times them: the roof of its percentages). */
void st_stream_copy(double *a, const double *b, int64_t n, int nontemporal);
void st_stream_triad(double *a, const double *b, const double *c, double s, int64_t n,
                     int nontemporal);

/* ---- small calls in one C call (fast.c) ------------------------------
 * A new record holding op's result, or NULL (no error raised) when the
 * case is not the plain one: operands of another dtype than `dtypes` (a
 * bit mask of dtype codes) allows, of different dtypes or sizes, not
 * C-contiguous, or any failure.  The caller then takes its general path.
 * st_binary_new also takes one operand repeating whole over the other (its
 * sizes, leading 1s left out, the other's last ones, and no more dims:
 * a matrix with a row vector) up to ST_PARALLEL_GRAIN result elements,
 * and any two operands of one dtype whose sizes broadcast, strided ones
 * included; st_binary_scalar_new a strided `a` too.  A result of a strided
 * operand's whole shape is laid out in memory as that operand is (numpy's
 * order 'K', as strided.core.ops.empty_like_layout). */
st_tensor *st_binary_new(int op, uint32_t dtypes, const st_tensor *a, const st_tensor *b);
/* cond ? a : b (cond bool, a and b of one dtype, the three broadcast) into
 * a new C-contiguous result; NULL when declined, as above. */
st_tensor *st_where_new(const st_tensor *cond, const st_tensor *a, const st_tensor *b);
/* x = x op y in place (x's in-place operator): y of x's dtype broadcasting
 * to exactly x's shape, or, y NULL, a Python int (is_int: ivalue) or float
 * (fvalue) converted as st_binary_scalar_new converts it; op's result of
 * x's dtype, x writable.  1 when done; 0 when declined (x untouched). */
int st_binary_into(int op, uint32_t dtypes, st_tensor *x, const st_tensor *y, int is_int,
                   int64_t ivalue, double fvalue);
/* in[mask] (the array API's boolean index) for a bool mask whose sizes are
 * in's leading ones: the selected rows (count, in's other sizes...) into a
 * new C-contiguous result; NULL when declined, as above. */
st_tensor *st_mask_select_new(const st_tensor *in, const st_tensor *mask);
/* in's slices idx[0], idx[1], ... along dim (the array API's take, and
 * x[idx] at dim 0): idx a 1-D int64 tensor, negative indices counting from
 * the end, into a new C-contiguous result; NULL when declined, as above
 * (another index dtype or shape, an index out of range). */
st_tensor *st_take_new(const st_tensor *in, int dim, const st_tensor *idx);
/* dst[mask] = value for such a mask: src (of dst's dtype and exactly the
 * shape in[mask] has) or, src NULL, a Python int (is_int: ivalue) or float
 * (fvalue) converted as st_binary_scalar_new converts it.  1 when done; 0
 * when declined (any other case or failure), dst then untouched. */
int st_mask_assign(st_tensor *dst, const st_tensor *mask, const st_tensor *src, int is_int,
                   int64_t ivalue, double fvalue);
/* op(a, scalar) (scalar_first: op(scalar, a)) for a Python int (is_int:
 * ivalue) or float (fvalue) converted to a's dtype as the array API does:
 * NULL also when it does not convert plainly (out of range, a float with
 * an integer array, complex or bool arrays). */
st_tensor *st_binary_scalar_new(int op, uint32_t dtypes, const st_tensor *a, int is_int,
                                int64_t ivalue, double fvalue, int scalar_first);
st_tensor *st_unary_new(int op, uint32_t dtypes, const st_tensor *a);
/* A 1-D contiguous record of n elements copied from src (NULL: zeros), or NULL. */
st_tensor *st_vector_new(int dtype, int64_t n, const void *src);
/* A C-contiguous record of these sizes, every element zero (lazily zeroed
 * pages when large), or NULL (a bad dtype or size, or out of memory). */
st_tensor *st_zeros_new(int dtype, int ndim, const int64_t *sizes);
/* x = x op y in place (the Torch7 face's x:add(y)) when x is writable, x
 * and y are C-contiguous with the same sizes (at least one dimension: a
 * 0-d record is declined) and dtype, op gives that
 * dtype, y is x's own memory or apart from it, and the call is small (one
 * thread): 1 when done; 0 otherwise, x untouched and no error raised (also
 * when the op would fail, e.g. an integer division by zero): the caller's
 * general path decides. */
int st_binary_inplace_small(int op, st_tensor *x, const st_tensor *y);
/* The Array's views, casts, assignments and products (compat, through
 * pyarray.c), as NULL / 0 when declined like the calls above:
 * st_view_new: a new record over t's storage with this geometry (checked
 * as st_tensor_set checks it); st_astype_new: a C-contiguous copy of a
 * converted to dtype; st_fill_scalar: every element of t = a Python int
 * (is_int) or float converted as st_binary_scalar_new converts it, 1 when
 * done (0: t read-only or the value does not go plainly into t's dtype);
 * st_assign_small: dst = src of dst's dtype and sizes (or 0-d), 1 when done
 * (overlap handled as st_copy handles it); st_matmul_new: a @ b for 1-D or
 * 2-D a and b of one dtype allowed by `dtypes`, none empty, as numpy's
 * matmul shapes them. */
st_tensor *st_view_new(const st_tensor *t, int64_t offset, int ndim, const int64_t *sizes,
                       const int64_t *strides);
st_tensor *st_astype_new(const st_tensor *a, int dtype);
/* st_reshape_strides: the strides viewing (sizes, strides) as new_sizes
 * (the same element count), 1, or 0 when only a copy can have that shape;
 * st_reshape_new: a reshaped to sizes (the same count): a view when the
 * layout allows, else when copy_ok a C-contiguous copy, else NULL. */
int st_reshape_strides(int ndim, const int64_t *sizes, const int64_t *strides, int new_ndim,
                       const int64_t *new_sizes, int64_t *new_strides);
st_tensor *st_reshape_new(const st_tensor *a, int ndim, const int64_t *sizes, int copy_ok);
int st_fill_scalar(st_tensor *t, int is_int, int64_t ivalue, double fvalue);
int st_assign_small(st_tensor *dst, const st_tensor *src);
st_tensor *st_matmul_new(uint32_t dtypes, const st_tensor *a, const st_tensor *b);

/* ---- reductions ------------------------------------------------------ */
/* ---- reduce op codes: generated by gen_inventory.py from inventory.py; do not edit ---- */
/* clang-format off */
#define ST_R_SUM 0
#define ST_R_PROD 1
#define ST_R_MIN 2
#define ST_R_MAX 3
#define ST_R_ALL 4
#define ST_R_ANY 5
#define ST_R_SUMSQDEV 6         /* sum |x - m|^2, m given as `aux` (var/std) */
#define ST_R_COUNT 7
/* clang-format on */
/* ---- end of the generated reduce op codes ---- */

/* dtype of the accumulator (and so of `out`) for an op on `dtype`, or -1. */
int st_reduce_result(int op, int dtype);
/* Reduce `in` over the dims flagged in `dims` (dims[d] != 0).  `out` has
 * in's ndim with size 1 on reduced dims (keepdim form) and dtype
 * st_reduce_result(op, in.dtype).  `aux` (SUMSQDEV only) has out's shape. */
st_status st_reduce(int op, st_tensor *out, const st_tensor *in, const uint8_t *dims,
                    const st_tensor *aux);
/* The same over every dim of `in`, into a one-element `out` of any rank
 * (a 0-d result needs no keepdim view); `aux` one element too, or NULL. */
st_status st_reduce_all(int op, st_tensor *out, const st_tensor *in, const st_tensor *aux);
/* A new C-contiguous result of op (st_reduce_result's dtype) over the dims
 * of `in` flagged in the bit mask `dims`, those dims dropped unless
 * keepdims; mean (ST_R_SUM on a float32 or float64 result only): the sum
 * divided by the count reduced.  NULL, without raising, when declined (no
 * such op for the dtype, min/max over an empty dim, a failure): the
 * caller's general path decides, as for fast.c's other calls. */
st_tensor *st_reduce_new(int op, int mean, const st_tensor *in, uint64_t dims, int keepdims);
/* The variance (take_sqrt: the standard deviation) of a float32 or float64
 * `in` over the dims flagged in `dims`, as a new C-contiguous result (those
 * dims dropped unless keepdims): the mean (st_reduce_new's), the sum of
 * squared deviations from it, divided by max(count - correction, 0), each
 * step rounded as the faces' composition of those ops rounds it.  NULL,
 * without raising, when declined (another dtype, a failure). */
st_tensor *st_var_new(const st_tensor *in, uint64_t dims, int keepdims, double correction,
                      int take_sqrt);
/* The first position (0-based) of the max (min) along dim, or over the
 * elements of a C-contiguous `in` in order when dim < 0, as a new int64
 * result (keepdims: in's ndim, size 1 where reduced); NULL when declined
 * (an empty lane, a non-contiguous `in` with dim < 0, a failure). */
st_tensor *st_argreduce_new(int is_max, const st_tensor *in, int dim, int keepdims);
/* Position (0-based, along `dim`) of the first min/max of each lane; out
 * is int64 in keepdim form.  NaN counts as the extreme (first NaN wins). */
st_status st_argreduce(int is_max, st_tensor *out, const st_tensor *in, int dim);
/* Running sum/product along dim; out has in's shape and dtype
 * st_reduce_result(ST_R_SUM / ST_R_PROD, in.dtype). */
st_status st_cumulative(int is_prod, st_tensor *out, const st_tensor *in, int dim);
st_status st_count_nonzero(const st_tensor *in, int64_t *count);

/* ---- matrix product -------------------------------------------------- */
/* out[..., n, m] = a[..., n, k] @ b[..., k, m]: a, b at least 2-D, batch
 * dims broadcast (numpy's matmul), one dtype for all three (integers wrap,
 * bool is or-of-ands, floats accumulate in their own type), any strides.
 * k == 0 gives zeros; an out sharing memory with a or b is computed
 * through a temporary. */
st_status st_matmul(st_tensor *out, const st_tensor *a, const st_tensor *b);

/* ---- index kernels --------------------------------------------------- */
/* Every index is checked against its bound before anything is written. */
/* out = in.index_select(dim, idx); idx is a 1-D int64 tensor. */
st_status st_index_select(st_tensor *out, const st_tensor *in, int dim, const st_tensor *idx,
                          int flags);
/* dst.select(dim, idx[i]) = src.select(dim, i)   (accumulate: +=) */
st_status st_index_copy(st_tensor *dst, int dim, const st_tensor *idx, const st_tensor *src,
                        int accumulate, int flags);
st_status st_index_fill(st_tensor *dst, int dim, const st_tensor *idx, const void *value,
                        int flags);
/* out[..i..] = in[..idx[..i..]..] along dim; out has idx's shape. */
st_status st_gather(st_tensor *out, const st_tensor *in, int dim, const st_tensor *idx, int flags);
/* dst[..idx[..i..]..] = src[..i..] along dim (accumulate: +=). */
st_status st_scatter(st_tensor *dst, int dim, const st_tensor *idx, const st_tensor *src,
                     int accumulate, int flags);
st_status st_scatter_fill(st_tensor *dst, int dim, const st_tensor *idx, const void *value,
                          int flags);
/* Elements of in where mask (bool or uint8, broadcast to in) is set, in C
 * order, into the 1-D out of exactly that count. */
st_status st_masked_select(st_tensor *out, const st_tensor *in, const st_tensor *mask);
/* dst[mask] = successive elements of src (C order). */
st_status st_masked_copy(st_tensor *dst, const st_tensor *mask, const st_tensor *src);
st_status st_masked_fill(st_tensor *dst, const st_tensor *mask, const void *value);
/* Coordinates of the nonzero elements, C order, into int64 out [count, ndim]. */
st_status st_nonzero(st_tensor *out, const st_tensor *in, int flags);
/* The number of nonzero elements of in (st_nonzero's row count): as
 * st_count_nonzero, counted the way st_nonzero counts (by blocks, on every
 * thread, 8 bytes at a time for 1-byte types). */
st_status st_nonzero_count(const st_tensor *in, int64_t *count);

/* ---- sorting --------------------------------------------------------- */
/* Stable sort along dim.  values and/or indices (int64) may be NULL.
 * Ascending puts NaN last; descending is its exact reverse order among
 * unequal values (NaN first) and keeps equal values in input order. */
st_status st_sort(st_tensor *values, st_tensor *indices, const st_tensor *in, int dim,
                  int descending, int flags);

/* ---- random numbers -------------------------------------------------- */
/* (Torch7's generator and its fills: see the section at the end.) */

/* ---- set functions and binary search (setops.c) ---------------------
 * "sorted" is a 1-D view (any stride) in st_sort's ascending order (NaN
 * last; complex by (real, imag), a NaN part last).  Equality is ==: NaN
 * equals nothing, -0.0 equals +0.0.  Nothing checks that `sorted` is
 * sorted (an unsorted one gives meaningless answers, never a bad read);
 * every index array (perm, sorter) is checked against its bound first,
 * and no output may share memory with an input or another output. */
/* starts (bool, sorted's length) = 1 where a run of equal values begins:
 * at 0 and where sorted[i] != sorted[i-1]; *count = the number of runs. */
st_status st_run_starts(st_tensor *starts, const st_tensor *sorted, int64_t *count);
/* From the runs flagged in `starts` (starts[0] must be set when sorted has
 * elements) and perm (int64, sorted[i] = x[perm[i]], as st_sort gives it):
 *   values[r]        = the first element of run r       (sorted's dtype)
 *   indices[r]       = perm[first element of run r]      (int64)
 *   counts[r]        = the length of run r               (int64)
 *   inverse[perm[i]] = the run of sorted[i]              (int64, sorted's length)
 * values, indices and counts are 1-D with one element per run.  Any output
 * may be NULL; perm may be NULL when indices and inverse are.  After a
 * stable sort, indices are first occurrences. */
st_status st_unique_fill(st_tensor *values, st_tensor *indices, st_tensor *counts,
                         st_tensor *inverse, const st_tensor *sorted, const st_tensor *perm,
                         const st_tensor *starts);
/* unique of a 1-D integer tensor x whose values span fewer numbers than it
 * has elements (or than 4096): by counting, allocating into the blank
 * records given (values always; indices, inverse (n, flat) and counts
 * when not NULL) what st_sort, st_run_starts and st_unique_fill give.
 * 1 when done, 0 when declined (another dtype, a wider span, no elements:
 * the sorted path then), -1 on error (st_last_error). */
int st_unique_small_span(const st_tensor *x, st_tensor *values, st_tensor *indices,
                         st_tensor *inverse, st_tensor *counts);
/* out (int64, needles' shape) = where each needle goes in `sorted`:
 * right == 0: the i with sorted[i-1] < v <= sorted[i] (elements before v);
 * right != 0: the i with sorted[i-1] <= v < sorted[i].  sorter (int64, of
 * sorted's length, or NULL) makes sorted[sorter[i]] the i-th element; its
 * values must lie in [0, len).  needles have sorted's dtype. */
st_status st_searchsorted(st_tensor *out, const st_tensor *sorted, const st_tensor *sorter,
                          const st_tensor *needles, int right);
/* out (bool, needles' shape) = (some element of `sorted` == the needle),
 * negated when invert != 0; a NaN needle is never found.  needles have
 * sorted's dtype. */
st_status st_isin(st_tensor *out, const st_tensor *needles, const st_tensor *sorted, int invert);

/* ---- DLPack (dlpack.c) ------------------------------------------------
 * Our own declarations of the DLPack ABI (github.com/dmlc/dlpack, 1.1; the
 * legacy DLManagedTensor is DLPack 0.8's).  Field order and types follow
 * the specification exactly (dlpack.c checks every offset), so these are
 * the structs any DLPack producer writes and any consumer reads.  Enums
 * of the spec travel as the integers below (DLDeviceType is an int32_t
 * in the ABI, DLDataTypeCode a uint8_t). */
#define ST_DLPACK_MAJOR 1
#define ST_DLPACK_MINOR 1
#define ST_DL_CPU 1 /* kDLCPU: the one device we read or write */
#define ST_DL_INT 0 /* DLDataTypeCode values of the core's types */
#define ST_DL_UINT 1
#define ST_DL_FLOAT 2
#define ST_DL_BFLOAT 4
#define ST_DL_COMPLEX 5
#define ST_DL_BOOL 6
#define ST_DL_FLAG_READ_ONLY 1 /* DLManagedTensorVersioned.flags bits */
#define ST_DL_FLAG_IS_COPIED 2
/* Storage flag: the memory was handed out through DLPack, so a consumer
 * may hold its address: st_storage_resize refuses to move it, ever. */
#define ST_STORAGE_EXPORTED 4
/* st_dlpack_import's copy modes (from_dlpack's copy=False/None/True) */
#define ST_DLPACK_COPY_NEVER 0
#define ST_DLPACK_COPY_IF_NEEDED 1
#define ST_DLPACK_COPY_ALWAYS 2

typedef struct {
    uint32_t major;
    uint32_t minor;
} DLPackVersion;
typedef struct {
    int32_t device_type;
    int32_t device_id;
} DLDevice;
typedef struct {
    uint8_t code;
    uint8_t bits;
    uint16_t lanes;
} DLDataType;
typedef struct {
    void *data; /* element 0 is at data + byte_offset */
    DLDevice device;
    int32_t ndim;
    DLDataType dtype;
    int64_t *shape;
    int64_t *strides; /* in elements; NULL: C-contiguous */
    uint64_t byte_offset;
} DLTensor;
typedef struct DLManagedTensor {
    DLTensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;
typedef struct DLManagedTensorVersioned {
    DLPackVersion version;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensorVersioned *self);
    uint64_t flags;
    DLTensor dl_tensor;
} DLManagedTensorVersioned;

/* Export: a managed tensor over t's memory, or NULL (st_last_error says
 * why).  One malloc'd block holds the struct, t's sizes and t's strides
 * (in elements, any sign, exported as they are); data is the address of
 * element 0 (byte_offset 0), NULL when t has no elements.  It retains t's
 * storage and marks it ST_STORAGE_EXPORTED; its deleter releases the
 * storage and frees the block.  The versioned form carries `flags` plus
 * READ_ONLY when the storage is read-only; the legacy form cannot say
 * read-only, so it refuses read-only memory (ST_E_READONLY). */
DLManagedTensorVersioned *st_dlpack_export_versioned(const st_tensor *t, uint64_t flags);
DLManagedTensor *st_dlpack_export_legacy(const st_tensor *t);
/* Import: point t at a DLPack tensor (`managed` is a DLManagedTensorVersioned
 * when versioned, else a DLManagedTensor).  Takes ownership in every case:
 * on success t's storage calls the producer's deleter once, when its last
 * reference goes (at once after a copy); on failure the deleter has been
 * called.  Checked before any element is read: major version 1, device
 * kDLCPU, ndim, dtype (lanes 1), sizes, the extent the strides reach, the
 * address range, and alignment to the element type.  copy_mode NEVER
 * borrows (misaligned memory fails), IF_NEEDED borrows aligned memory and
 * copies misaligned memory, ALWAYS copies unless the producer flagged
 * IS_COPIED; a copy is owned and C-contiguous.  READ_ONLY makes the
 * borrowed storage read-only.  A tensor exported by this core is viewed
 * over its own storage again (no chain of borrowings). */
st_status st_dlpack_import(st_tensor *t, void *managed, int versioned, int copy_mode);
/* The capsule names of the Python protocol, statically allocated as it
 * requires: "dltensor", "dltensor_versioned" and their "used_" forms. */
const char *st_dlpack_capsule_name(int versioned, int used);
/* PyCapsule destructor (capsule is a PyObject *, GIL held) for capsules
 * over our exports: calls the deleter unless a consumer renamed the
 * capsule, which means it took ownership. */
void st_dlpack_capsule_destructor(void *capsule);
/* Managed tensors exported and not yet deleted; borrowed imports not yet
 * released (tests check that every deleter runs exactly once). */
int64_t st_dlpack_live_exports(void);
int64_t st_dlpack_live_imports(void);

/* ---- discrete Fourier transforms (fft.c) -------------------------------
 * One transform along `dim` of every line of `in` (all the other dims are a
 * batch), into `out`:
 *     out_k = scale * sum_j x_j exp(-+2 pi i j k / n),
 * the minus sign when `forward` != 0, the plus sign otherwise; any n >= 1
 * (mixed radix 4, 2, 3, 5 and odd primes up to ST_FFT_MAX_RADIX, Bluestein's
 * chirp-z beyond).  Every type computes in float64 and is rounded once on the
 * way out.  in's length m along dim need not be the transform's: the first
 * min(m, count read) elements are used and the rest are zeros (numpy's `n`).
 * in and out: the same ndim, the same sizes on every other dim, no memory
 * shared.  Lines run in parallel; a single long line is split (four-step). */
#define ST_FFT_MAX_RADIX 67        /* larger prime factors go through Bluestein */
#define ST_FFT_MAX_N 1099511627776 /* 2^40 points along one dim at most */
/* complex -> complex, one complex dtype; n = out's length along dim */
st_status st_fft_c2c(st_tensor *out, const st_tensor *in, int dim, int forward, double scale);
/* real -> complex half spectrum: out (complex of in's precision) holds
 * k = 0 .. n/2 (its length along dim must be n/2 + 1); reads up to n of in */
st_status st_fft_r2c(st_tensor *out, const st_tensor *in, int dim, int64_t n, int forward,
                     double scale);
/* Hermitian half spectrum -> real: in holds k = 0 .. n/2 (up to n/2 + 1
 * elements are read), the other half is its conjugate mirror; the imaginary
 * parts of k = 0 and (n even) k = n/2 are ignored; n = out's length along
 * dim; out is real of in's precision */
st_status st_fft_c2r(st_tensor *out, const st_tensor *in, int dim, int forward, double scale);
/* Plans (twiddles, chirps) are cached, the 16 most recently used; this
 * empties the cache (plans in use are freed when their call ends). */
void st_fft_clear_cache(void);

/* ---- BLAS and LAPACK (matmul.c, linalg.c) ----------------------------
 * float32, float64, complex64 and complex128 go to OpenBLAS (the
 * scipy-openblas32 package); OpenBLAS's thread count follows
 * st_set_num_threads. */
/* out = alpha * (a @ b) + beta * out, st_matmul's shapes and rules (batch
 * dims broadcast); alpha and beta point to one element of out's dtype
 * (numeric, not bool).  beta == 0: out is not read (NaN in it does not
 * propagate), as in BLAS. */
st_status st_addmm(st_tensor *out, const st_tensor *a, const st_tensor *b, const void *alpha,
                   const void *beta);
/* LAPACK over stacks of matrices (linalg.c).  The last two dims of each
 * view are the matrices, the leading dims the batch, identical for every
 * operand (the caller expands broadcast batches); any strides.  Input
 * dtypes: float32/64, complex64/128; outputs are given with their exact
 * shape and dtype (R: the real type of the input's precision, C: the
 * complex type).  Functions that can fail on a matrix (singular, not
 * positive definite, no convergence, non-finite input to an iterative
 * method) write nothing then, and the message names the matrix. */
/* out (..., n, n) = a^-1 (gesv against the identity); singular: ST_E_VALUE */
st_status st_linalg_inv(st_tensor *out, const st_tensor *a);
/* out (..., n, k) = a^-1 b for a (..., n, n), b (..., n, k) (gesv) */
st_status st_linalg_solve(st_tensor *out, const st_tensor *a, const st_tensor *b);
/* from one LU factorization (getrf): det (...) of a's dtype, or sign (...)
 * of a's dtype and logabs (...) of R; unused outputs NULL.  A zero pivot
 * gives det 0, sign 0, logabs -inf. */
st_status st_linalg_det(st_tensor *det, st_tensor *sign, st_tensor *logabs, const st_tensor *a);
/* out = L with a = L L^H (upper != 0: U with a = U^H U), zeros elsewhere (potrf) */
st_status st_linalg_cholesky(st_tensor *out, const st_tensor *a, int upper);
/* a (..., m, n) = q r (geqrf + orgqr/ungqr), k = min(m, n): reduced q
 * (..., m, k), r (..., k, n); complete q (..., m, m), r (..., m, n) */
st_status st_linalg_qr(st_tensor *q, st_tensor *r, const st_tensor *a, int complete);
/* a = u diag(s) vh (gesdd), s (..., k) of R descending; full: u (..., m, m),
 * vh (..., n, n), else (..., m, k), (..., k, n); u = vh = NULL: values only */
st_status st_linalg_svd(st_tensor *u, st_tensor *s, st_tensor *vh, const st_tensor *a, int full);
/* Hermitian / symmetric a (its lower triangle is read): w (..., n) of R
 * ascending, v (..., n, n) of a's dtype or NULL (syevd / heevd) */
st_status st_linalg_eigh(st_tensor *w, st_tensor *v, const st_tensor *a);
/* general square a: w (..., n) and v (..., n, n) or NULL, both of C (geev;
 * real input gives conjugate pairs as complex columns) */
st_status st_linalg_eig(st_tensor *w, st_tensor *v, const st_tensor *a);

/* ---- LAPACK routines as Torch7 calls them (linalg.c: gesv, potrf;
 * lapack_t7.c: the others) ---------------------------------------------
 * Stacks as above (identical batch dims, any strides, outputs of exact
 * shape; failures write nothing and name the matrix), real types only
 * (float32, float64), LAPACK's results and character options (uplo 'U'
 * or 'L', trans 'N' or 'T', diag 'N' or 'U' (unit), side 'L' or 'R').
 * The Python layer lays the outputs out as Torch7 does. */
/* x (..., n, k) = a^-1 b and lu (..., n, n) = a's LU factors, L unit
 * lower below the diagonal, U on and above (gesv); singular: ST_E_VALUE */
st_status st_linalg_gesv(st_tensor *x, st_tensor *lu, const st_tensor *a, const st_tensor *b);
/* x (..., n, k) = op(a)^-1 b, op(a) = a or a^T (trans), a triangular: only
 * its uplo triangle is read, its diagonal taken as ones with diag 'U'
 * (trtrs); a zero on the diagonal: ST_E_VALUE */
st_status st_linalg_trtrs(st_tensor *x, const st_tensor *a, const st_tensor *b, char uplo,
                          char trans, char diag);
/* a (..., m, n) of full rank, b (..., m, k) (gels 'N'): x (..., max(m, n),
 * k) = gels's B: the least-squares (m >= n) or minimum-norm (m < n)
 * solution in its first n rows, for m > n the residuals' parts in the
 * others (the residual of column j is the 2-norm of x[n:, j]); qr (..., m,
 * n) = gels's factorization of a (QR for m >= n, LQ otherwise).  A zero
 * diagonal element of the triangular factor: ST_E_VALUE */
st_status st_linalg_gels(st_tensor *x, st_tensor *qr, const st_tensor *a, const st_tensor *b);
/* out (..., n, n) = the Cholesky factor of a's uplo triangle (U with a =
 * U^T U, or L with a = L L^T), zeros in the other (potrf); not positive
 * definite: ST_E_VALUE naming the leading minor */
st_status st_linalg_potrf(st_tensor *out, const st_tensor *a, char uplo);
/* x (..., n, k) = a^-1 b from a's Cholesky factor chol (its uplo triangle) (potrs) */
st_status st_linalg_potrs(st_tensor *x, const st_tensor *chol, const st_tensor *b, char uplo);
/* out (..., n, n) = a^-1, both triangles, from a's Cholesky factor chol
 * (its uplo triangle) (potri); a zero on chol's diagonal: ST_E_VALUE */
st_status st_linalg_potri(st_tensor *out, const st_tensor *chol, char uplo);
/* Cholesky with complete pivoting of a positive semidefinite a (its uplo
 * triangle), P^T a P = U^T U or L L^T (pstrf): out (..., n, n) the factor,
 * zeros in the other triangle; piv (..., n) int32, 0-based: P[piv[k], k] =
 * 1.  tol < 0: LAPACK's default, n eps max(diag).  Rank below n (rank
 * deficient, or not positive semidefinite): ST_E_VALUE, as Torch7 */
st_status st_linalg_pstrf(st_tensor *out, st_tensor *piv, const st_tensor *a, char uplo,
                          double tol);
/* a (..., m, n) = Q R as geqrf leaves it: qr (..., m, n) holds R on and
 * above the diagonal, the reflectors below; tau (..., min(m, n)) */
st_status st_linalg_geqrf(st_tensor *qr, st_tensor *tau, const st_tensor *a);
/* q (..., m, n) = a with its first k columns replaced by those of Q, from
 * the k = tau's length reflectors in a's columns (orgqr(m, k, k), as TH
 * calls it); k <= min(m, n) */
st_status st_linalg_orgqr(st_tensor *q, const st_tensor *a, const st_tensor *tau);
/* out (..., m, n) = op(Q) c (side 'L') or c op(Q) (side 'R'), op(Q) = Q or
 * Q^T (trans), Q from the k = tau's length reflectors in a's first k
 * columns; a has m (side 'L') or n (side 'R') rows (ormqr) */
st_status st_linalg_ormqr(st_tensor *out, const st_tensor *a, const st_tensor *tau,
                          const st_tensor *c, char side, char trans);
/* square a (geev): w (..., n, 2) the eigenvalues as (real, imaginary)
 * pairs, a conjugate pair adjacent, positive imaginary part first; vr
 * (..., n, n) or NULL the right eigenvectors (unit 2-norm) as LAPACK packs
 * them: column j for a real eigenvalue, columns j and j + 1 the real and
 * imaginary parts of the vector of the pair's first */
st_status st_linalg_geev(st_tensor *w, st_tensor *vr, const st_tensor *a);
/* symmetric a, its uplo triangle read (syev): w (..., n) ascending; jobz
 * 'V': v (..., n, n) the eigenvectors in columns; 'N': v NULL, or it gets
 * LAPACK's scratch matrix (what TH's symeig returns there) */
st_status st_linalg_syev(st_tensor *w, st_tensor *v, const st_tensor *a, char jobz, char uplo);
/* a (..., m, n) = u diag(s) vt (gesvd), k = min(m, n), s (..., k)
 * descending; job 'S': u (..., m, k), vt (..., k, n); job 'A': u (..., m,
 * m), vt (..., n, n) */
st_status st_linalg_gesvd(st_tensor *u, st_tensor *s, st_tensor *vt, const st_tensor *a, char job);
/* out (..., n, n) = a^-1 from getrf then getri; singular: ST_E_VALUE */
st_status st_linalg_getri(st_tensor *out, const st_tensor *a);

/* ==== Torch7's maths and random kernels (histogram.c, select.c, norm.c, ...) ====
 * 0-based like the rest; the Torch7 face adds its conventions. */

/* ---- histograms (histogram.c) -----------------------------------------
 * hist (1-D, nbins = its length >= 1, any integer or float dtype) = the
 * count of in's elements (integer or float, any shape) in nbins equal bins
 * over [lo, hi]: bin min((x - lo) / (hi - lo) * nbins, nbins - 1) (floats in
 * their own precision, lo and hi rounded to float32 for float32 data;
 * integers in double); x == hi is in the last bin; values outside [lo, hi]
 * and NaN are not counted.  lo == hi: the data's min and max (data with a
 * NaN then counts nothing, as Torch7's); still one value: [lo - 1, hi + 1].
 * lo and hi finite (ST_E_VALUE).  Counts are exact (int64, then converted). */
st_status st_histc(st_tensor *hist, const st_tensor *in, double lo, double hi);
/* per row of a 2-D in: hist (rows, nbins); lo == hi: min and max of all of in */
st_status st_bhistc(st_tensor *hist, const st_tensor *in, double lo, double hi);

/* ---- selection along a dim (select.c) -----------------------------------
 * Integer and float inputs.  The order is st_sort's (NaN after every
 * number); "largest" is its reverse among unequal values; equal values keep
 * their lane order both ways, so the answers (values and int64 positions
 * along dim) are those of the stable sort.  values (in's dtype) and indices
 * (int64) are both required and must not share memory with in. */
/* th != 0 (the Torch7 face): among equal values, the positions (and
 * unsorted topk's order) TH's own quickselect and quicksort give, in every
 * lane without a NaN (select.c). */
/* the k smallest (largest != 0: largest) of every lane, into values and
 * indices of in's shape with size k at dim; sorted != 0: in that order,
 * else in no particular order.  0 <= k <= the lane length. */
st_status st_topk(st_tensor *values, st_tensor *indices, const st_tensor *in, int64_t k, int dim,
                  int largest, int sorted, int th);
/* element k (from 0) of every lane's stable ascending sort; values and
 * indices have in's shape with size 1 at dim.  0 <= k < the lane length. */
st_status st_kthvalue(st_tensor *values, st_tensor *indices, const st_tensor *in, int64_t k,
                      int dim, int th);
/* the most frequent value of every lane (the smallest of the most frequent;
 * every NaN counts alone, as in Torch7) and the position of its last
 * occurrence; outputs as st_kthvalue's; lanes must not be empty. */
st_status st_mode(st_tensor *values, st_tensor *indices, const st_tensor *in, int dim, int th);

/* ---- norms (norm.c) -----------------------------------------------------
 * p-norm of a set of values: p == 0 the count of nonzeros; inf: max |x|;
 * -inf: min |x|; otherwise (sum |x|^p)^(1/p).  Integer and float inputs,
 * computed in double; p must not be NaN. */
/* out (keepdim form: size 1 at dim; float32 for float32 in, else float64) */
st_status st_norm(st_tensor *out, const st_tensor *in, double p, int dim);
/* over all elements of a (b == NULL) or of a - b (b: a's shape and dtype) */
st_status st_norm_all(const st_tensor *a, const st_tensor *b, double p, double *result);
/* out (in's shape and float dtype; may be in itself) = in, with each
 * in.select(dim, i) whose p-norm (p > 0) exceeds maxnorm scaled by
 * maxnorm / (norm + 1e-7) (Torch7's renorm) */
st_status st_renorm(st_tensor *out, const st_tensor *in, double p, int dim, double maxnorm);

/* ---- convolutions (conv.c) ----------------------------------------------
 * Torch7's conv2/xcorr2 (nd = 2) and conv3/xcorr3 (nd = 3), stride 1:
 * full != 0 is mode 'F' (out size i + k - 1 per spatial dim), else 'V'
 * (i - k + 1; in must not be smaller than k); xcorr != 0 correlates, else
 * convolves (the kernel flipped).  Forms by (in.ndim, k.ndim): (nd, nd)
 * -> out (o...); (nd+1, nd+1) plane by plane -> (P, o...); (nd+1, nd+2)
 * with k (Q, P, t...) -> out (Q, o...), out[q] = sum_p in[p] (*) k[q, p].
 * in, k and out of one integer or float dtype (integers wrap); out may
 * share memory with in or k (the inputs are copied first). */
st_status st_conv(st_tensor *out, const st_tensor *in, const st_tensor *k, int nd, int full,
                  int xcorr);

/* ---- cross, tril/triu (matrix.c) ----------------------------------------- */
/* out = a x b along dim (size 3); one shape and integer or float dtype; out
 * may be a or b itself (integers wrap) */
st_status st_cross(st_tensor *out, const st_tensor *a, const st_tensor *b, int dim);
/* out = in with the elements of each matrix (the last two dims) above its
 * k-th diagonal (upper: below it) zeroed; any dtype; out may be in itself */
st_status st_tri(st_tensor *out, const st_tensor *in, int64_t k, int upper);
/* Torch7's linspace (log10 != 0: logspace) into out (float32 or float64,
 * any shape, n = its element count, filled in C order): a + i*(b-a)/(n-1)
 * (n = 1: a), a, b, i and each step in out's type, then 10^that by libm's
 * scalar pow/powf; the numbers of Lua Torch7's, to the bit */
st_status st_spaced(st_tensor *out, double a, double b, int log10);

/* ---- creation (creation.c): one threaded pass each ---- */
/* A linear sequence into out (any dtype, any shape, filled in C order):
 * element k is a + k*d computed in double, per part for a complex out
 * (part 0 real, 1 imaginary; a real out takes part 0), rounded twice as
 * numpy's arange and linspace (never one FMA), then converted as st_copy
 * converts a double (complex128 for a complex out).  flags:
 *   ST_LIN_SECOND    element 1 is `second` (numpy's arange: start + step,
 *                    with d its (start + step) - start)
 *   ST_LIN_LAST      the last element is `last` (linspace's endpoint)
 *   ST_LIN_DIVIDED   a + (k / div) * d (numpy's linspace when its step
 *                    (stop - start) / div underflows to 0); div > 0
 *   ST_LIN_FLOOR     each value rounded down before the conversion
 *                    (numpy's linspace into an integer dtype)
 *   ST_LIN_COUNTER32 k counted in float as Torch7's FloatTensor range does:
 *                    k stops growing at 2^24, where a float's k + 1 == k
 * At most 2^53 elements. */
typedef struct {
    double a[2], d[2];
    double second[2], last[2];
    double div;
    int flags;
} st_linear;
#define ST_LIN_SECOND 1
#define ST_LIN_LAST 2
#define ST_LIN_DIVIDED 4
#define ST_LIN_FLOOR 8
#define ST_LIN_COUNTER32 16
st_status st_linear_fill(st_tensor *out, const st_linear *p);
/* out (any dtype, C order) = start + k*step in int64, wrapping modulo 2^64,
 * then converted as st_copy converts an int64 (a narrower integer wraps):
 * numpy's integer arange, Torch7's range of an integer type. */
st_status st_arange_int(st_tensor *out, int64_t start, int64_t step);
/* The ones of out's k-th diagonal (out 2-D, any dtype); zeroed: out holds
 * zeros already (st_tensor_alloc_zeros) and only the diagonal is written,
 * else every other element is set to 0 too. */
st_status st_eye(st_tensor *out, int64_t k, int zeroed);

/* ---- Torch7's random numbers (random.c) ---------------------------------
 * A generator is Torch7's (lib/TH/THRandom.c): MT19937 with 32-bit outputs
 * and THRandom.c's transforms, so a seed gives Lua Torch7's numbers; its
 * state bytes (st_generator_state_size(), 5048) are those of Torch7's
 * getRNGState.  Every function takes a generator; NULL means the default
 * one (st_generator_default()).  Fills walk the view in C order on one
 * thread (TH_TENSOR_APPLY's order), whatever its layout. */
typedef struct st_generator st_generator;
st_generator *st_generator_new(uint64_t seed); /* NULL on memory error */
void st_generator_free(st_generator *g);
void st_generator_copy(st_generator *dst, const st_generator *src);
st_generator *st_generator_default(void);
/* manualSeed: the state from the low 32 bits, the seed kept whole */
void st_generator_seed(st_generator *g, uint64_t seed);
uint64_t st_generator_initial_seed(const st_generator *g);
int64_t st_generator_state_size(void);
void st_generator_get_state(const st_generator *g, void *buf);
/* refuses a state of another size or one Torch7 would call invalid */
st_status st_generator_set_state(st_generator *g, const void *buf, int64_t nbytes);
/* the next 32-bit output (Torch7's THRandom_random) */
uint64_t st_generator_random(st_generator *g);

#define ST_DIST_UNIFORM 0     /* a, b:        u * (b - a) + a, u = r / 2^32 */
#define ST_DIST_NORMAL 1      /* mean, std:   Box-Muller, std > 0 */
#define ST_DIST_EXPONENTIAL 2 /* lambda:      -1 / lambda * log(1 - u) */
#define ST_DIST_CAUCHY 3      /* median, sigma: median + sigma * tan(pi (u - 1/2)) */
#define ST_DIST_LOG_NORMAL 4  /* mean, std:   exp(normal(mean, std)), std > 0 */
#define ST_DIST_GEOMETRIC 5   /* p in (0, 1): floor(log(1 - u) / log(p)) + 1 */
#define ST_DIST_BERNOULLI 6   /* p in [0, 1]: u <= p */
/* one draw (Torch7's torch.uniform() etc.) */
st_status st_random_draw(st_generator *g, int dist, double a, double b, double *out);
/* fill t: uniform .. logNormal need float32/float64; geometric an integer
 * or float t; bernoulli also bool */
st_status st_random_fill(st_tensor *t, st_generator *g, int dist, double a, double b);
/* bernoulli with one probability per element: p (float32/64, t's shape) */
st_status st_random_bernoulli_tensor(st_tensor *t, st_generator *g, const st_tensor *p);
/* Torch7's random(): r % (the dtype's max + 1) (int8 [0, 127], int32
 * [0, 2^31), float32 [0, 2^24], int64/uint32/uint64/float64 [0, 2^32)) */
st_status st_random_bits(st_tensor *t, st_generator *g);
/* Torch7's random(a, b): r % (hi - lo + 1) + lo, hi >= lo */
st_status st_random_range(st_tensor *t, st_generator *g, int64_t lo, int64_t hi);
/* out (int64; 1-D (n) for 1-D probs, (rows, n) for 2-D) = n categories drawn
 * from each row of probs (float32/64, finite, >= 0, sum > 0, normalised
 * here), with or without replacement, by Torch7's cumulative-sum search */
st_status st_random_multinomial(st_tensor *out, st_generator *g, const st_tensor *probs,
                                int replacement);
/* Walker's alias tables of 1-D probs (which should sum to 1): J (int64)
 * and q (probs' dtype), both of probs' length */
st_status st_random_alias_setup(st_tensor *J, st_tensor *q, const st_tensor *probs);
/* out (int64, any shape) = categories drawn with the alias tables */
st_status st_random_alias_draw(st_tensor *out, st_generator *g, const st_tensor *J,
                               const st_tensor *q);
/* out (1-D of n, integer or float) = a random permutation of 0 .. n-1 */
st_status st_random_randperm(st_tensor *out, st_generator *g);

#endif
