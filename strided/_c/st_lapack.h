/* st_lapack.h -- what the LAPACK files (linalg.c, lapack_t7.c) share: the
 * stack of matrices, workspaces, checks and failures, element access by
 * dtype, and LAPACK wrappers that both call.  Defined in linalg.c, whose
 * top comment describes the scheme (column-major workspaces, staged
 * results, threads for stacks of small matrices). */
#ifndef ST_LAPACK_H
#define ST_LAPACK_H
#include "st_blas.h"
#include <complex.h>
#ifdef _OPENMP
#include <omp.h>
#else
static inline int omp_get_thread_num(void) { return 0; }
#endif

/* ---- LAPACK by dtype: s, d, c, z, for routines whose four variants take
 * the same arguments (the `_base` forms of routines with character
 * arguments take the hidden Fortran string lengths at the end). */
#define LK_CALL(dt, name, ...)                                                                     \
    do {                                                                                           \
        switch (dt) {                                                                              \
        case ST_FLOAT32:                                                                           \
            LAPACK_s##name(__VA_ARGS__);                                                           \
            break;                                                                                 \
        case ST_FLOAT64:                                                                           \
            LAPACK_d##name(__VA_ARGS__);                                                           \
            break;                                                                                 \
        case ST_COMPLEX64:                                                                         \
            LAPACK_c##name(__VA_ARGS__);                                                           \
            break;                                                                                 \
        case ST_COMPLEX128:                                                                        \
            LAPACK_z##name(__VA_ARGS__);                                                           \
            break;                                                                                 \
        }                                                                                          \
    } while (0)

/* Each returns LAPACK's info; leading dimensions are the row counts. */
int lk_getrf(int dt, int n, void *a, int *ipiv);
int lk_potrf(int dt, char uplo, int n, void *a);
int lk_geqrf(int dt, int m, int n, void *a, void *tau, void *work, int lwork);
/* orgqr for real types, ungqr for complex: Q from geqrf's reflectors */
int lk_orgqr(int dt, int m, int n, int k, void *a, const void *tau, void *work, int lwork);
/* right eigenvectors only.  Real types: w holds wr then wi (2n reals);
 * complex: n complex eigenvalues, rwork 2n reals. */
int lk_geev(int dt, char jobvr, int n, void *a, void *w, void *vr, void *work, int lwork,
            void *rwork);

/* ---- elements by dtype (O(n) and O(n^2) loops around the O(n^3) LAPACK) */
static inline st_c128 lk_get(int dt, const void *p, int64_t i)
{
    switch (dt) {
    case ST_FLOAT32:
        return ((const float *)p)[i];
    case ST_FLOAT64:
        return ((const double *)p)[i];
    case ST_COMPLEX64:
        return ((const st_c64 *)p)[i];
    default:
        return ((const st_c128 *)p)[i];
    }
}

static inline void lk_put(int dt, void *p, int64_t i, st_c128 v)
{
    switch (dt) {
    case ST_FLOAT32:
        ((float *)p)[i] = (float)creal(v);
        break;
    case ST_FLOAT64:
        ((double *)p)[i] = creal(v);
        break;
    case ST_COMPLEX64:
        ((st_c64 *)p)[i] = (st_c64)v;
        break;
    default:
        ((st_c128 *)p)[i] = v;
        break;
    }
}

/* The work size a LAPACK query (lwork = -1) left in work[0], rounded up. */
int64_t lk_query_size(int dt, const void *w);
/* every element finite (complex: both parts); a column-major n_el block */
int lk_finite(int dt, const void *p, int64_t n_el);
/* the lower (upper != 0: upper) triangle of a column-major n x n matrix
 * finite (what syevd and syev read) */
int lk_finite_triangle(int dt, const char *w, int64_t n, int64_t item, int upper);
/* dst (strides rs, cs) = the rows x cols column-major block at w (ldw),
 * keeping only the upper (keep > 0: i <= j) or lower (keep < 0: i >= j)
 * triangle and writing zeros elsewhere (keep 2 or -2: the triangle's
 * mirror image there, a symmetric matrix from one triangle of a square
 * block); keep == 0 copies everything. */
void lk_copy_out(char *dst, int64_t rs, int64_t cs, const char *w, int64_t ldw, int64_t rows,
                 int64_t cols, int64_t item, int keep);
/* dst (rows x cols, strides rs, cs) = the identity's first rows x cols */
void lk_identity(int dt, char *dst, int64_t rs, int64_t cs, int64_t rows, int64_t cols);

/* ---- the batch ----------------------------------------------------------- */
typedef struct {
    int nb;        /* batch dims: the leading dims of every operand */
    int64_t count; /* matrices in the stack */
    int64_t size[ST_MAX_DIMS];
} lk_batch;

void lk_batch_of(lk_batch *bt, const st_tensor *a, int nb);
/* address of item idx of t (its first bt->nb dims walk the batch) */
char *lk_at(const lk_batch *bt, const st_tensor *t, int64_t idx);
/* "matrix (1, 0) of the stack" or "the matrix", for messages */
void lk_which(char *buf, size_t len, const lk_batch *bt, int64_t idx);

/* Threads for a stack of `count` matrices of side n: our OpenMP threads
 * for sides up to LK_SMALL, else one (OpenBLAS's threads inside). */
#define LK_SMALL 64
int lk_threads(int64_t count, int64_t n);

/* The first failure of a batch run: the lowest item, its LAPACK info. */
typedef struct {
    int64_t item; /* -1: none */
    int info;     /* > 0: LAPACK's; LK_NONFINITE: the input was not finite */
} lk_fail;
#define LK_NONFINITE (-1000)
void lk_note(lk_fail *f, int64_t item, int info);

/* bytes = a * b * c (elements of `item` bytes), or -1 on overflow */
static inline int64_t lk_bytes(int64_t a, int64_t b, int64_t item)
{
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r) || __builtin_mul_overflow(r, item, &r)) return -1;
    return (r + 63) & ~(int64_t)63;
}

/* scratch for nt threads of `per` bytes and a stage of `stage` bytes (one
 * allocation: st_aligned_free(*scratch) frees both) */
st_status lk_alloc(const char *fn, int64_t per, int nt, int64_t stage, char **scratch,
                   char **staged);

/* ---- checks (before anything is touched) ---------------------------------- */
/* a floating matrix or stack (square: of square matrices) within LAPACK's
 * 32-bit sizes, backed by storage */
st_status lk_check_in(const char *fn, const char *what, const st_tensor *a, int square);
/* a of a real floating dtype (float32, float64), for the routines that
 * take no complex matrices */
st_status lk_check_real(const char *fn, const char *what, const st_tensor *a);
/* c is one of the two characters of `two` (LAPACK's options: "UL", "NT", ...) */
st_status lk_check_option(const char *fn, const char *what, char c, const char *two);
/* o must have dtype `dt` and shape (batch of a) + tail, and be writable */
st_status lk_check_out(const char *fn, const char *what, const st_tensor *o, int dt,
                       const lk_batch *bt, int ntail, const int64_t *tail);
/* no two of ts (NULLs skipped) share memory */
st_status lk_check_apart(const char *fn, const st_tensor *const *ts, int n);
/* The error of an iterative method that failed on matrix f->item: non-finite
 * input (refused before LAPACK saw it), or LAPACK's own failure to
 * converge, `diverged` taking (which, info). */
st_status lk_iterative_failure(const char *fn, const lk_batch *bt, const lk_fail *f,
                               const char *nonfinite_tail, const char *diverged);

#endif
