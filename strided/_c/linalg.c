/* linalg.c -- the LAPACK half of linear algebra: inv, solve, det/slogdet,
 * cholesky, qr, svd, eigh, eig, over stacks of matrices.
 *
 * Every entry point takes views of any layout: the last two dims of a view
 * are the matrices, the leading dims the batch, the same for every operand
 * (broadcasting between operands is the caller's job: it passes expanded
 * views, zero strides welcome).  Types: float32, float64, complex64,
 * complex128 (LAPACK's s, d, c, z); outputs are allocated by the caller
 * with the exact shape and dtype, checked here first.
 *
 * Each matrix is copied into a column-major workspace (LAPACK's layout),
 * so inputs are never written and any strides work.  A function whose
 * LAPACK routine can fail on some matrices (singular, not positive
 * definite, no convergence) stages every result in a batch workspace and
 * copies it out only when all succeeded: on failure nothing has been
 * written and the message names the matrix of the stack.  det and qr
 * cannot fail and write their results directly.
 *
 * Threads: a batch of small matrices (n <= LK_SMALL) is shared out over
 * our OpenMP threads, each with its own LAPACK work arrays; OpenBLAS runs
 * such sizes on the calling thread, so the two thread pools never compete.
 * Larger matrices run one after the other, each on OpenBLAS's threads
 * (sized to ours by st_blas_threads_for) once a dim reaches
 * LK_THREADED_DIM, on the calling thread below it. */
#include "st_lapack.h"
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- OpenBLAS's threads: LAPACK's only --------------------------------
 * OpenBLAS keeps its own pthread pool; strided's kernels use OpenMP.  Two
 * pools on the same cores compete: each one's idle threads spin for a
 * while after its work, stealing the cores the other needs (an elementwise
 * op right after a product ran 10-40x slower on 2 cores).  So matmul
 * never uses OpenBLAS's pool: it shares its products out over our own
 * threads, one single-threaded BLAS call each (st_blas_single_begin/end,
 * matmul.c), and only LAPACK, whose blocked algorithms call BLAS from
 * inside, runs on OpenBLAS's threads: before each LAPACK entry
 * st_blas_threads sizes the pool to st_get_num_threads() (strided.
 * setnumthreads), so the two never ask for more cores than the user
 * allowed.  strided/_c/__init__.py shortens the spin of OpenBLAS's idle
 * threads (OPENBLAS_THREAD_TIMEOUT) so that they sleep soon after LAPACK.
 *
 * The count is changed only when the next user needs another (a resize is
 * not free: OpenBLAS may wake or start threads), under a lock so that two
 * Python threads do not race on it.  This OpenBLAS is the pthreads build,
 * whose "thread-local" setter (openblas_set_num_threads_local) sets the
 * same global count, so the only way to keep a call on its calling thread
 * is the global count.  Single-threaded sections nest and overlap (a
 * counter); while one is open st_blas_threads leaves the count at 1, so a
 * concurrent LAPACK call from another Python thread runs on one thread
 * (slower, never wrong). */
static int blas_nthreads; /* what OpenBLAS was last set to; 0: never */
static int blas_single;   /* open single-threaded sections */
static pthread_mutex_t blas_lock = PTHREAD_MUTEX_INITIALIZER;

static void blas_set_locked(int n)
{
    if (blas_nthreads != n) {
        scipy_openblas_set_num_threads(n);
        __atomic_store_n(&blas_nthreads, n, __ATOMIC_RELEASE);
    }
}

/* OpenBLAS's threads pay for a LAPACK call only when the matrix has a
 * dim this long: below it the blocked algorithms' BLAS-2 steps (syevd's
 * tridiagonal reduction, geqrf's and potrf's panels) hand each thread a
 * few rows and wait for all of them, column after column.  Measured (AMD
 * EPYC Zen 4, 2 cores, OpenBLAS 0.3.34) on 2 threads against 1: eigh
 * n = 200 12.4 ms against 3.0, n = 800 106 against 78, n = 1600 406
 * against 529; qr and cholesky of n = 500 22 and 5.1 against 12 and 1.8;
 * solve and inv even; an SVD of 20000 x 100 44 against 48. */
#define LK_THREADED_DIM 1024

void st_blas_threads_for(int64_t dim)
{
    int want = dim >= LK_THREADED_DIM ? st_get_num_threads() : 1;
    if (__atomic_load_n(&blas_nthreads, __ATOMIC_ACQUIRE) == want) return;
    pthread_mutex_lock(&blas_lock);
    if (!blas_single) blas_set_locked(want);
    pthread_mutex_unlock(&blas_lock);
}

void st_blas_threads(void) { st_blas_threads_for(INT64_MAX); }

void st_blas_single_begin(void)
{
    pthread_mutex_lock(&blas_lock);
    blas_single++;
    blas_set_locked(1);
    pthread_mutex_unlock(&blas_lock);
}

/* the count stays at 1 until a LAPACK call wants more (st_blas_threads) */
void st_blas_single_end(void)
{
    pthread_mutex_lock(&blas_lock);
    blas_single--;
    pthread_mutex_unlock(&blas_lock);
}

/* ---- LAPACK by dtype -----------------------------------------------------
 * One wrapper per routine; each returns LAPACK's info.  Routines whose four
 * variants take the same arguments go through LK_CALL; the others (real
 * and complex variants differ: rwork, wr/wi) spell their cases out.
 * Routines with character arguments are the `_base` forms, which take the
 * hidden Fortran string lengths at the end. */
int lk_getrf(int dt, int n, void *a, int *ipiv)
{
    int info = 0, lda = n > 1 ? n : 1;
    LK_CALL(dt, getrf, &n, &n, a, &lda, ipiv, &info);
    return info;
}

static int lk_gesv(int dt, int n, int nrhs, void *a, int *ipiv, void *b)
{
    int info = 0, ld = n > 1 ? n : 1;
    LK_CALL(dt, gesv, &n, &nrhs, a, &ld, ipiv, b, &ld, &info);
    return info;
}

int lk_potrf(int dt, char uplo, int n, void *a)
{
    int info = 0, lda = n > 1 ? n : 1;
    LK_CALL(dt, potrf_base, &uplo, &n, a, &lda, &info, (FORTRAN_STRLEN)1);
    return info;
}

int lk_geqrf(int dt, int m, int n, void *a, void *tau, void *work, int lwork)
{
    int info = 0, lda = m > 1 ? m : 1;
    LK_CALL(dt, geqrf, &m, &n, a, &lda, tau, work, &lwork, &info);
    return info;
}

int lk_orgqr(int dt, int m, int n, int k, void *a, const void *tau, void *work, int lwork)
{
    int info = 0, lda = m > 1 ? m : 1;
    switch (dt) {
    case ST_FLOAT32:
        LAPACK_sorgqr(&m, &n, &k, a, &lda, tau, work, &lwork, &info);
        break;
    case ST_FLOAT64:
        LAPACK_dorgqr(&m, &n, &k, a, &lda, tau, work, &lwork, &info);
        break;
    case ST_COMPLEX64:
        LAPACK_cungqr(&m, &n, &k, a, &lda, tau, work, &lwork, &info);
        break;
    case ST_COMPLEX128:
        LAPACK_zungqr(&m, &n, &k, a, &lda, tau, work, &lwork, &info);
        break;
    }
    return info;
}

/* singular values s (real), U (ldu = m) and VT (ldvt); rwork: complex only */
static int lk_gesdd(int dt, char jobz, int m, int n, void *a, void *s, void *u, void *vt, int ldvt,
                    void *work, int lwork, void *rwork, int *iwork)
{
    int info = 0, lda = m > 1 ? m : 1, ldu = lda;
    if (ldvt < 1) ldvt = 1;
    const FORTRAN_STRLEN one = 1;
    switch (dt) {
    case ST_FLOAT32:
        LAPACK_sgesdd_base(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, iwork,
                           &info, one);
        break;
    case ST_FLOAT64:
        LAPACK_dgesdd_base(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, iwork,
                           &info, one);
        break;
    case ST_COMPLEX64:
        LAPACK_cgesdd_base(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, rwork,
                           iwork, &info, one);
        break;
    case ST_COMPLEX128:
        LAPACK_zgesdd_base(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, rwork,
                           iwork, &info, one);
        break;
    }
    return info;
}

/* QR with Q kept in compact WY form: R above the diagonal of a, the
 * reflectors below, their nb x n block factors in t (ldt nb) */
static int lk_geqrt(int dt, int m, int n, int nb, void *a, void *t, void *work)
{
    int info = 0, lda = m > 1 ? m : 1;
    LK_CALL(dt, geqrt, &m, &n, &nb, a, &lda, t, &nb, work, &info);
    return info;
}

/* c (m x n, ldc m) = Q c, Q geqrt's k reflectors in v (ldv m) and t;
 * work: n * nb elements */
static int lk_gemqrt(int dt, int m, int n, int k, int nb, const void *v, const void *t, void *c,
                     void *work)
{
    int info = 0, ld = m > 1 ? m : 1;
    char side = 'L', trans = 'N';
    LK_CALL(dt, gemqrt_base, &side, &trans, &m, &n, &k, &nb, v, &ld, t, &nb, c, &ld, work, &info,
            (FORTRAN_STRLEN)1, (FORTRAN_STRLEN)1);
    return info;
}

/* syevd for real types, heevd for complex (lower triangle); w real */
static int lk_syevd(int dt, char jobz, int n, void *a, void *w, void *work, int lwork, void *rwork,
                    int lrwork, int *iwork, int liwork)
{
    int info = 0, lda = n > 1 ? n : 1;
    char uplo = 'L';
    const FORTRAN_STRLEN one = 1;
    switch (dt) {
    case ST_FLOAT32:
        LAPACK_ssyevd_base(&jobz, &uplo, &n, a, &lda, w, work, &lwork, iwork, &liwork, &info, one,
                           one);
        break;
    case ST_FLOAT64:
        LAPACK_dsyevd_base(&jobz, &uplo, &n, a, &lda, w, work, &lwork, iwork, &liwork, &info, one,
                           one);
        break;
    case ST_COMPLEX64:
        LAPACK_cheevd_base(&jobz, &uplo, &n, a, &lda, w, work, &lwork, rwork, &lrwork, iwork,
                           &liwork, &info, one, one);
        break;
    case ST_COMPLEX128:
        LAPACK_zheevd_base(&jobz, &uplo, &n, a, &lda, w, work, &lwork, rwork, &lrwork, iwork,
                           &liwork, &info, one, one);
        break;
    }
    return info;
}

int lk_geev(int dt, char jobvr, int n, void *a, void *w, void *vr, void *work, int lwork,
            void *rwork)
{
    int info = 0, lda = n > 1 ? n : 1, ldvl = 1, ldvr = lda;
    char jobvl = 'N';
    const FORTRAN_STRLEN one = 1;
    char dummy[32]; /* VL, never referenced with jobvl = 'N' */
    switch (dt) {
    case ST_FLOAT32:
        LAPACK_sgeev_base(&jobvl, &jobvr, &n, a, &lda, w, (float *)w + n, (float *)dummy, &ldvl, vr,
                          &ldvr, work, &lwork, &info, one, one);
        break;
    case ST_FLOAT64:
        LAPACK_dgeev_base(&jobvl, &jobvr, &n, a, &lda, w, (double *)w + n, (double *)dummy, &ldvl,
                          vr, &ldvr, work, &lwork, &info, one, one);
        break;
    case ST_COMPLEX64:
        LAPACK_cgeev_base(&jobvl, &jobvr, &n, a, &lda, w, (st_c64 *)dummy, &ldvl, vr, &ldvr, work,
                          &lwork, rwork, &info, one, one);
        break;
    case ST_COMPLEX128:
        LAPACK_zgeev_base(&jobvl, &jobvr, &n, a, &lda, w, (st_c128 *)dummy, &ldvl, vr, &ldvr, work,
                          &lwork, rwork, &info, one, one);
        break;
    }
    return info;
}

/* ---- O(n) and O(n^2) loops around the O(n^3) LAPACK ---------------------- */
/* The work size a LAPACK query (lwork = -1) left in work[0] (its real
 * part), rounded up: single-precision LAPACK reports it as a float, which
 * can round large values down. */
int64_t lk_query_size(int dt, const void *w)
{
    double v = creal(lk_get(dt, w, 0));
    if (!(v >= 1)) return 1;
    return (int64_t)(v * (1 + 1e-6)) + 1;
}

int lk_finite(int dt, const void *p, int64_t n_el)
{
    int64_t nr = st_is_complex(dt) ? 2 * n_el : n_el;
    int ok = 1;
    if (dt == ST_FLOAT32 || dt == ST_COMPLEX64) {
        const float *f = (const float *)p;
        for (int64_t i = 0; i < nr; i++) ok &= isfinite(f[i]) != 0;
    } else {
        const double *f = (const double *)p;
        for (int64_t i = 0; i < nr; i++) ok &= isfinite(f[i]) != 0;
    }
    return ok;
}

int lk_finite_triangle(int dt, const char *w, int64_t n, int64_t item, int upper)
{
    for (int64_t j = 0; j < n; j++)
        if (upper ? !lk_finite(dt, w + j * n * item, j + 1)
                  : !lk_finite(dt, w + (j + j * n) * item, n - j))
            return 0;
    return 1;
}

void lk_copy_out(char *dst, int64_t rs, int64_t cs, const char *w, int64_t ldw, int64_t rows,
                 int64_t cols, int64_t item, int keep)
{
    if (!keep) {
        st_copy2d(dst, rs, cs, w, 1, ldw, rows, cols, item);
        return;
    }
#define LK_TRI(T)                                                                                  \
    do {                                                                                           \
        T *d_ = (T *)dst;                                                                          \
        const T *w_ = (const T *)w;                                                                \
        for (int64_t i = 0; i < rows; i++)                                                         \
            for (int64_t j = 0; j < cols; j++)                                                     \
                d_[i * rs + j * cs] = (keep > 0 ? i <= j : i >= j) ? w_[i + j * ldw]               \
                                      : keep == 2 || keep == -2    ? w_[j + i * ldw]               \
                                                                   : (T)0;                         \
    } while (0)
    switch (item) {
    case 4:
        LK_TRI(float);
        break;
    case 8:
        LK_TRI(double);
        break;
    default:
        LK_TRI(st_c128);
        break;
    }
#undef LK_TRI
}

void lk_identity(int dt, char *dst, int64_t rs, int64_t cs, int64_t rows, int64_t cols)
{
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++) lk_put(dt, dst, i * rs + j * cs, i == j ? 1 : 0);
}

/* ---- the batch (st_lapack.h) -------------------------------------------- */
void lk_batch_of(lk_batch *bt, const st_tensor *a, int nb)
{
    bt->nb = nb;
    bt->count = 1;
    for (int d = 0; d < nb; d++) {
        bt->size[d] = a->sizes[d];
        bt->count *= a->sizes[d];
    }
}

char *lk_at(const lk_batch *bt, const st_tensor *t, int64_t idx)
{
    int64_t off = 0;
    for (int d = bt->nb - 1; d >= 0; d--) {
        int64_t i = idx % bt->size[d];
        idx /= bt->size[d];
        off += i * t->strides[d];
    }
    char *base = (char *)st_tensor_data(t); /* NULL: a view without elements */
    return base ? base + off * st_itemsize(t->dtype) : NULL;
}

void lk_which(char *buf, size_t len, const lk_batch *bt, int64_t idx)
{
    if (bt->nb == 0) {
        snprintf(buf, len, "the matrix");
        return;
    }
    int64_t coord[ST_MAX_DIMS];
    for (int d = bt->nb - 1; d >= 0; d--) {
        coord[d] = idx % bt->size[d];
        idx /= bt->size[d];
    }
    char c[200];
    st_shape_str(c, sizeof c, bt->nb, coord);
    snprintf(buf, len, "matrix %s of the stack", c);
}

/* Threads for a stack of `count` matrices of side n (see the top). */
int lk_threads(int64_t count, int64_t n)
{
    if (count < 2 || n > LK_SMALL) return 1;
    int64_t side = n > 2 ? n : 2, work = count * side * side * side;
    int nt = st_threads_for(work);
    if (nt > ST_BLAS_MAX_CALLERS) nt = ST_BLAS_MAX_CALLERS;
    return nt > count ? (int)count : nt;
}

void lk_note(lk_fail *f, int64_t item, int info)
{
#pragma omp critical(lk_fail)
    {
        if (f->item < 0 || item < f->item) {
            f->item = item;
            f->info = info;
        }
    }
}

/* scratch for nt threads of `per` bytes and a stage of `stage` bytes */
st_status lk_alloc(const char *fn, int64_t per, int nt, int64_t stage, char **scratch,
                   char **staged)
{
    int64_t total;
    *scratch = *staged = NULL;
    if (per < 0 || stage < 0 || __builtin_mul_overflow(per, (int64_t)nt, &total) ||
        __builtin_add_overflow(total, stage, &total))
        return st_fail(ST_E_OVERFLOW, "%s: the workspace size overflows", fn);
    char *p = st_aligned_alloc(total > 0 ? total : 64);
    if (!p)
        return st_fail(ST_E_MEMORY, "%s: cannot allocate %lld bytes of workspace", fn,
                       (long long)total);
    *scratch = p;
    *staged = p + per * nt;
    return ST_OK;
}

/* ---- checks (before anything is touched) ---------------------------------- */
st_status lk_check_in(const char *fn, const char *what, const st_tensor *a, int square)
{
    char s[256];
    if (a->dtype < 0 || a->dtype >= ST_NTYPES ||
        !(st_is_float(a->dtype) || st_is_complex(a->dtype)))
        return st_fail(ST_E_TYPE,
                       "%s: %s must have a floating-point dtype (float32, float64, "
                       "complex64, complex128), got %s",
                       fn, what, st_dtype_name(a->dtype));
    if (a->ndim < 2) {
        st_shape_str(s, sizeof s, a->ndim, a->sizes);
        return st_fail(ST_E_VALUE,
                       "%s: %s must be a matrix or a stack of matrices (at least 2 "
                       "dims), got shape %s",
                       fn, what, s);
    }
    if (square && a->sizes[a->ndim - 1] != a->sizes[a->ndim - 2]) {
        st_shape_str(s, sizeof s, a->ndim, a->sizes);
        return st_fail(ST_E_VALUE, "%s: %s must be square matrices (..., M, M), got shape %s", fn,
                       what, s);
    }
    int64_t m = a->sizes[a->ndim - 2], n = a->sizes[a->ndim - 1], mn;
    if (!st_fits_int(m) || !st_fits_int(n) || __builtin_mul_overflow(m, n, &mn) ||
        !st_fits_int(mn)) {
        st_shape_str(s, sizeof s, a->ndim, a->sizes);
        return st_fail(ST_E_OVERFLOW,
                       "%s: matrices of shape %s are too large for LAPACK's "
                       "32-bit indices",
                       fn, s);
    }
    return st_check_storage(a, what);
}

st_status lk_check_real(const char *fn, const char *what, const st_tensor *a)
{
    if (a->dtype == ST_FLOAT32 || a->dtype == ST_FLOAT64) return ST_OK;
    return st_fail(ST_E_TYPE, "%s: %s must be float32 or float64, got %s", fn, what,
                   st_dtype_name(a->dtype));
}

st_status lk_check_option(const char *fn, const char *what, char c, const char *two)
{
    if (c == two[0] || c == two[1]) return ST_OK;
    return st_fail(ST_E_VALUE, "%s: %s must be '%c' or '%c', got character code %d", fn, what,
                   two[0], two[1], (int)(unsigned char)c);
}

st_status lk_check_out(const char *fn, const char *what, const st_tensor *o, int dt,
                       const lk_batch *bt, int ntail, const int64_t *tail)
{
    char s[256], w[256];
    if (o->dtype != dt)
        return st_fail(ST_E_TYPE, "%s: %s must be %s, got %s", fn, what, st_dtype_name(dt),
                       st_dtype_name(o->dtype));
    int64_t want[ST_MAX_DIMS];
    for (int d = 0; d < bt->nb; d++) want[d] = bt->size[d];
    for (int d = 0; d < ntail; d++) want[bt->nb + d] = tail[d];
    int bad = o->ndim != bt->nb + ntail;
    for (int d = 0; d < o->ndim && !bad; d++) bad = o->sizes[d] != want[d];
    if (bad) {
        st_shape_str(s, sizeof s, o->ndim, o->sizes);
        st_shape_str(w, sizeof w, bt->nb + ntail, want);
        return st_fail(ST_E_VALUE, "%s: %s has shape %s, expected %s", fn, what, s, w);
    }
    return st_check_writable(o, what);
}

/* outputs that are written while inputs are still read, or written by
 * several threads, must not share memory with each other or the input */
st_status lk_check_apart(const char *fn, const st_tensor *const *ts, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (ts[i] && ts[j] && st_tensor_shares_memory(ts[i], ts[j]))
                return st_fail(ST_E_VALUE,
                               "%s: outputs must not share memory with each other "
                               "or with the input",
                               fn);
    return ST_OK;
}

static int lk_real_of(int dt) { return st_real_dtype(dt); }
static int lk_complex_of(int dt)
{
    return dt == ST_FLOAT32 || dt == ST_COMPLEX64 ? ST_COMPLEX64 : ST_COMPLEX128;
}

/* ---- inv ------------------------------------------------------------------
 * gesv against the identity (as numpy does) rather than getri: the same
 * LU, and exact zeros stay +0 (getri's triangular inverse makes -0). */
/* The error of an iterative method (svd, eigh, eig) that failed on matrix
 * f->item of the stack: non-finite input (refused before LAPACK saw it),
 * or LAPACK's own failure to converge, `diverged` taking (which, info). */
st_status lk_iterative_failure(const char *fn, const lk_batch *bt, const lk_fail *f,
                               const char *nonfinite_tail, const char *diverged)
{
    char which[256], msg[512];
    lk_which(which, sizeof which, bt, f->item);
    if (f->info == LK_NONFINITE)
        return st_fail(ST_E_VALUE, "%s: %s contains non-finite values (inf or NaN)%s", fn, which,
                       nonfinite_tail);
    snprintf(msg, sizeof msg, diverged, which, f->info);
    return st_fail(ST_E_VALUE, "%s: %s", fn, msg);
}

/* The stack of solves behind inv, solve and gesv: out = a^-1 b for every
 * matrix of the batch, with b the identity when b is NULL (inv), and the
 * LU factors of a in lu unless it is NULL.  Each solve works on a private
 * copy of a; results are staged and written only when every matrix of the
 * stack succeeded.  `aname` names a in the message of a singular matrix
 * (NULL for inv). */
static st_status lk_gesv_stack(const char *fn, const char *aname, st_tensor *out, st_tensor *lu,
                               const st_tensor *a, const st_tensor *b, const lk_batch *bt,
                               int64_t n, int64_t k)
{
    int dt = a->dtype;
    int64_t item = st_itemsize(dt);
    st_blas_threads_for(n);
    int nt = lk_threads(bt->count, n);
    /* per thread: a's copy (staged instead when its factors are wanted), ipiv */
    int64_t x_b = lk_bytes(n, k, item), a_b = lk_bytes(n, n, item),
            per = (lu ? 0 : a_b) + lk_bytes(n, 1, sizeof(int)), one_b = x_b + (lu ? a_b : 0);
    char *scratch, *staged;
    st_status rc;
    if ((rc = lk_alloc(fn, per, nt, lk_bytes(bt->count, one_b, 1), &scratch, &staged))) return rc;
    lk_fail f = {-1, 0};
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1) if (nt > 1)
    for (int64_t it = 0; it < bt->count; it++) {
        char *mine = scratch + omp_get_thread_num() * per;
        char *wb = staged + it * one_b, *wa = lu ? wb + x_b : mine;
        int *ipiv = (int *)(lu ? mine : mine + a_b);
        st_copy2d(wa, 1, n, lk_at(bt, a, it), a->strides[a->ndim - 2], a->strides[a->ndim - 1], n,
                  n, item);
        if (b)
            st_copy2d(wb, 1, n, lk_at(bt, b, it), b->strides[b->ndim - 2], b->strides[b->ndim - 1],
                      n, k, item);
        else
            lk_identity(dt, wb, 1, n, n, n);
        int info = lk_gesv(dt, (int)n, (int)k, wa, ipiv, wb);
        if (info) lk_note(&f, it, info);
    }
    if (f.item >= 0) {
        char which[256];
        lk_which(which, sizeof which, bt, f.item);
        if (aname)
            rc = st_fail(ST_E_VALUE,
                         "%s: %s is singular: %s (U[%d, %d] of its LU "
                         "factorization is exactly zero)",
                         fn, aname, which, f.info - 1, f.info - 1);
        else
            rc = st_fail(ST_E_VALUE,
                         "%s: %s is singular (U[%d, %d] of its LU factorization "
                         "is exactly zero)",
                         fn, which, f.info - 1, f.info - 1);
    } else {
        for (int64_t it = 0; it < bt->count; it++) {
            char *wb = staged + it * one_b;
            lk_copy_out(lk_at(bt, out, it), out->strides[out->ndim - 2],
                        out->strides[out->ndim - 1], wb, n, n, k, item, 0);
            if (lu)
                lk_copy_out(lk_at(bt, lu, it), lu->strides[lu->ndim - 2], lu->strides[lu->ndim - 1],
                            wb + x_b, n, n, n, item, 0);
        }
    }
    st_aligned_free(scratch);
    return rc;
}

st_status st_linalg_inv(st_tensor *out, const st_tensor *a)
{
    const char *fn = "inv";
    st_status rc;
    if ((rc = lk_check_in(fn, "x", a, 1))) return rc;
    lk_batch bt;
    lk_batch_of(&bt, a, a->ndim - 2);
    int64_t n = a->sizes[a->ndim - 1], tail[2] = {n, n};
    if ((rc = lk_check_out(fn, "out", out, a->dtype, &bt, 2, tail))) return rc;
    if (bt.count == 0 || n == 0) return ST_OK;
    return lk_gesv_stack(fn, NULL, out, NULL, a, NULL, &bt, n, n);
}

/* ---- solve ------------------------------------------------------------------ */
/* solve's and gesv's checks, then the stack of solves; aname, bname name
 * a and b in messages */
static st_status lk_solve(const char *fn, const char *aname, const char *bname, st_tensor *out,
                          st_tensor *lu, const st_tensor *a, const st_tensor *b)
{
    st_status rc;
    char sa[256], sb[256];
    if ((rc = lk_check_in(fn, aname, a, 1))) return rc;
    if ((rc = lk_check_in(fn, bname, b, 0))) return rc;
    int dt = a->dtype;
    if (b->dtype != dt)
        return st_fail(ST_E_TYPE, "%s: %s and %s must have one dtype, got %s and %s", fn, aname,
                       bname, st_dtype_name(dt), st_dtype_name(b->dtype));
    lk_batch bt;
    lk_batch_of(&bt, a, a->ndim - 2);
    int64_t n = a->sizes[a->ndim - 1], k = b->sizes[b->ndim - 1];
    int bad = b->ndim != a->ndim || b->sizes[b->ndim - 2] != n;
    for (int d = 0; d < bt.nb && !bad; d++) bad = b->sizes[d] != a->sizes[d];
    if (bad) {
        st_shape_str(sa, sizeof sa, a->ndim, a->sizes);
        st_shape_str(sb, sizeof sb, b->ndim, b->sizes);
        return st_fail(ST_E_VALUE,
                       "%s: %s %s must have %s's batch dims and %lld rows "
                       "(%s %s); broadcasting is the caller's",
                       fn, bname, sb, aname, (long long)n, aname, sa);
    }
    int64_t tail[2] = {n, k}, square[2] = {n, n};
    if ((rc = lk_check_out(fn, "out", out, dt, &bt, 2, tail))) return rc;
    if (lu) {
        const st_tensor *outs[2] = {out, lu};
        if ((rc = lk_check_out(fn, "LU", lu, dt, &bt, 2, square)) ||
            (rc = lk_check_apart(fn, outs, 2)))
            return rc;
    }
    if (bt.count == 0 || n == 0 || (k == 0 && !lu)) return ST_OK;
    return lk_gesv_stack(fn, aname, out, lu, a, b, &bt, n, k);
}

st_status st_linalg_solve(st_tensor *out, const st_tensor *a, const st_tensor *b)
{
    return lk_solve("solve", "x1", "x2", out, NULL, a, b);
}

st_status st_linalg_gesv(st_tensor *x, st_tensor *lu, const st_tensor *a, const st_tensor *b)
{
    st_status rc = lk_check_real("gesv", "A", a);
    return rc ? rc : lk_solve("gesv", "A", "B", x, lu, a, b);
}

/* ---- det, slogdet ------------------------------------------------------------ */
st_status st_linalg_det(st_tensor *det, st_tensor *sign, st_tensor *logabs, const st_tensor *a)
{
    const char *fn = det ? "det" : "slogdet";
    st_status rc;
    if ((rc = lk_check_in(fn, "x", a, 1))) return rc;
    if (!det && !(sign && logabs))
        return st_fail(ST_E_VALUE, "det: give det, or sign and logabsdet");
    lk_batch bt;
    lk_batch_of(&bt, a, a->ndim - 2);
    int dt = a->dtype, rdt = lk_real_of(dt);
    if (det && (rc = lk_check_out(fn, "det", det, dt, &bt, 0, NULL))) return rc;
    if (sign && (rc = lk_check_out(fn, "sign", sign, dt, &bt, 0, NULL))) return rc;
    if (logabs && (rc = lk_check_out(fn, "logabsdet", logabs, rdt, &bt, 0, NULL))) return rc;
    const st_tensor *all[4] = {a, det, sign, logabs};
    if ((rc = lk_check_apart(fn, all, 4))) return rc;
    if (bt.count == 0) return ST_OK;
    int64_t n = a->sizes[a->ndim - 1], item = st_itemsize(dt);
    st_blas_threads_for(n);
    int nt = lk_threads(bt.count, n);
    int64_t per = lk_bytes(n, n, item) + lk_bytes(n, 1, sizeof(int));
    char *scratch, *unused;
    if ((rc = lk_alloc(fn, per, nt, 0, &scratch, &unused))) return rc;
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1) if (nt > 1)
    for (int64_t it = 0; it < bt.count; it++) {
        char *w = scratch + omp_get_thread_num() * per;
        int *ipiv = (int *)(w + lk_bytes(n, n, item));
        /* det = (-1)^swaps prod(u_ii); slogdet from the same factors:
         * sign = (-1)^swaps prod(u_ii / |u_ii|), logabs = sum(log |u_ii|).
         * A zero pivot gives det 0, sign 0, logabs -inf (the standard);
         * accumulated in double whatever the precision. */
        st_c128 prod = 1, sg = 1;
        double lg = 0;
        if (n > 0) {
            st_copy2d(w, 1, n, lk_at(&bt, a, it), a->strides[a->ndim - 2], a->strides[a->ndim - 1],
                      n, n, item);
            lk_getrf(dt, (int)n, w, ipiv); /* info > 0: a zero pivot, seen below */
            for (int64_t i = 0; i < n; i++) {
                st_c128 u = lk_get(dt, w, i + i * n);
                double au = cabs(u);
                if (ipiv[i] != i + 1) {
                    prod = -prod;
                    sg = -sg;
                }
                prod *= u;
                sg *= au == 0 ? 0 : u / au;
                lg += log(au);
            }
        }
        if (det) lk_put(dt, lk_at(&bt, det, it), 0, prod);
        if (sign) lk_put(dt, lk_at(&bt, sign, it), 0, sg);
        if (logabs) lk_put(rdt, lk_at(&bt, logabs, it), 0, lg);
    }
    st_aligned_free(scratch);
    return ST_OK;
}

/* ---- cholesky --------------------------------------------------------------- */
/* cholesky and potrf: the factor of the `upper` triangle, zeros in the other */
static st_status lk_cholesky(const char *fn, const char *what, st_tensor *out, const st_tensor *a,
                             int upper)
{
    st_status rc;
    if ((rc = lk_check_in(fn, what, a, 1))) return rc;
    lk_batch bt;
    lk_batch_of(&bt, a, a->ndim - 2);
    int64_t n = a->sizes[a->ndim - 1], tail[2] = {n, n};
    int dt = a->dtype;
    if ((rc = lk_check_out(fn, "out", out, dt, &bt, 2, tail))) return rc;
    if (bt.count == 0 || n == 0) return ST_OK;
    int64_t item = st_itemsize(dt);
    st_blas_threads_for(n);
    int nt = lk_threads(bt.count, n);
    char *scratch, *staged;
    if ((rc = lk_alloc(fn, 0, nt, lk_bytes(bt.count, n * n, item), &scratch, &staged))) return rc;
    lk_fail f = {-1, 0};
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1) if (nt > 1)
    for (int64_t it = 0; it < bt.count; it++) {
        char *w = staged + it * n * n * item;
        st_copy2d(w, 1, n, lk_at(&bt, a, it), a->strides[a->ndim - 2], a->strides[a->ndim - 1], n,
                  n, item);
        int info = lk_potrf(dt, upper ? 'U' : 'L', (int)n, w);
        if (info) lk_note(&f, it, info);
    }
    if (f.item >= 0) {
        char which[256];
        lk_which(which, sizeof which, &bt, f.item);
        rc = st_fail(ST_E_VALUE,
                     "%s: %s is not positive definite (its leading minor of "
                     "order %d is not)",
                     fn, which, f.info);
    } else {
        /* potrf leaves the other triangle as it was: zeros go there */
        for (int64_t it = 0; it < bt.count; it++)
            lk_copy_out(lk_at(&bt, out, it), out->strides[out->ndim - 2],
                        out->strides[out->ndim - 1], staged + it * n * n * item, n, n, n, item,
                        upper ? 1 : -1);
    }
    st_aligned_free(scratch);
    return rc;
}

st_status st_linalg_cholesky(st_tensor *out, const st_tensor *a, int upper)
{
    return lk_cholesky("cholesky", "x", out, a, upper);
}

st_status st_linalg_potrf(st_tensor *out, const st_tensor *a, char uplo)
{
    st_status rc = lk_check_real("potrf", "A", a);
    if (!rc) rc = lk_check_option("potrf", "uplo", uplo, "UL");
    return rc ? rc : lk_cholesky("potrf", "A", out, a, uplo == 'U');
}

/* ---- qr ----------------------------------------------------------------------- */
st_status st_linalg_qr(st_tensor *q, st_tensor *r, const st_tensor *a, int complete)
{
    const char *fn = "qr";
    st_status rc;
    if ((rc = lk_check_in(fn, "x", a, 0))) return rc;
    lk_batch bt;
    lk_batch_of(&bt, a, a->ndim - 2);
    int dt = a->dtype;
    int64_t m = a->sizes[a->ndim - 2], n = a->sizes[a->ndim - 1], k = m < n ? m : n;
    int64_t qc = complete ? m : k, rr = complete ? m : k;
    int64_t qt[2] = {m, qc}, rt[2] = {rr, n};
    if ((rc = lk_check_out(fn, "Q", q, dt, &bt, 2, qt))) return rc;
    if ((rc = lk_check_out(fn, "R", r, dt, &bt, 2, rt))) return rc;
    const st_tensor *all[3] = {a, q, r};
    if ((rc = lk_check_apart(fn, all, 3))) return rc;
    if (bt.count == 0 || m == 0) return ST_OK;
    int64_t item = st_itemsize(dt), wc = n > qc ? n : qc; /* workspace columns */
    st_blas_threads_for(m > n ? m : n);
    char buf[64], tau0[64];
    int64_t lwork = 1;
    if (k > 0) {
        lk_geqrf(dt, (int)m, (int)n, buf, tau0, buf, -1);
        lwork = lk_query_size(dt, buf);
    }
    if (qc > 0) {
        lk_orgqr(dt, (int)m, (int)qc, (int)k, buf, tau0, buf, -1);
        int64_t l2 = lk_query_size(dt, buf);
        if (l2 > lwork) lwork = l2;
    }
    /* A tall matrix (m >= 2n, past the small sizes) is factored by geqrt:
     * recursive panels, BLAS-3 throughout, where geqrf's panels are BLAS-2
     * passes over all m rows (0.6x its time on 20000 x 200).  Its block
     * reflectors' T factors carry the tau that orgqr takes on their
     * diagonals. */
    int tall = m >= 2 * n && m > LK_SMALL && n > 0;
    int64_t nb = tall ? (n < 32 ? n : 32) : 0;
    if (lwork < nb * n) lwork = nb * n;
    if (!st_fits_int(lwork)) lwork = INT_MAX;
    int nt = lk_threads(bt.count, m > n ? m : n);
    int64_t t_b = lk_bytes(nb, n, item);
    int64_t per =
        lk_bytes(m, wc, item) + lk_bytes(k > 0 ? k : 1, 1, item) + lk_bytes(lwork, 1, item) + t_b;
    char *scratch, *unused;
    if ((rc = lk_alloc(fn, per, nt, 0, &scratch, &unused))) return rc;
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1) if (nt > 1)
    for (int64_t it = 0; it < bt.count; it++) {
        char *w = scratch + omp_get_thread_num() * per;
        char *tau = w + lk_bytes(m, wc, item);
        char *work = tau + lk_bytes(k > 0 ? k : 1, 1, item);
        if (n > 0)
            st_copy2d(w, 1, m, lk_at(&bt, a, it), a->strides[a->ndim - 2], a->strides[a->ndim - 1],
                      m, n, item);
        if (tall) {
            char *t = work + lk_bytes(lwork, 1, item);
            lk_geqrt(dt, (int)m, (int)n, (int)nb, w, t, work);
            for (int64_t c = 0; c < k; c++)
                memcpy(tau + c * item, t + (c % nb + c * nb) * item, (size_t)item);
        } else if (k > 0) {
            lk_geqrf(dt, (int)m, (int)n, w, tau, work, (int)lwork);
        }
        /* R: the upper triangle (zeros below; for complete with m > n the
         * rows past n are zero) */
        if (n > 0)
            lk_copy_out(lk_at(&bt, r, it), r->strides[r->ndim - 2], r->strides[r->ndim - 1], w, m,
                        rr, n, item, 1);
        /* Q from the reflectors (orgqr / ungqr fills columns past k with
         * the identity's) */
        if (qc > 0) {
            lk_orgqr(dt, (int)m, (int)qc, (int)k, w, tau, work, (int)lwork);
            lk_copy_out(lk_at(&bt, q, it), q->strides[q->ndim - 2], q->strides[q->ndim - 1], w, m,
                        m, qc, item, 0);
        }
    }
    st_aligned_free(scratch);
    return ST_OK;
}

/* ---- svd ----------------------------------------------------------------------- */
st_status st_linalg_svd(st_tensor *u, st_tensor *s, st_tensor *vh, const st_tensor *a, int full)
{
    const char *fn = u ? "svd" : "svdvals";
    st_status rc;
    if ((rc = lk_check_in(fn, "x", a, 0))) return rc;
    if (!s || (!u) != (!vh)) return st_fail(ST_E_VALUE, "svd: give S, and U with Vh or neither");
    lk_batch bt;
    lk_batch_of(&bt, a, a->ndim - 2);
    int dt = a->dtype, rdt = lk_real_of(dt);
    int64_t m = a->sizes[a->ndim - 2], n = a->sizes[a->ndim - 1], k = m < n ? m : n;
    int64_t uc = full ? m : k, vr = full ? n : k;
    int64_t ut[2] = {m, uc}, vt[2] = {vr, n};
    if (u && (rc = lk_check_out(fn, "U", u, dt, &bt, 2, ut))) return rc;
    if ((rc = lk_check_out(fn, "S", s, rdt, &bt, 1, &k))) return rc;
    if (vh && (rc = lk_check_out(fn, "Vh", vh, dt, &bt, 2, vt))) return rc;
    const st_tensor *all[3] = {u, s, vh};
    if ((rc = lk_check_apart(fn, all, 3))) return rc;
    if (bt.count == 0) return ST_OK;
    if (k == 0) { /* no singular values; full U and Vh are identities */
        for (int64_t it = 0; it < bt.count && u && full; it++) {
            if (m > 0)
                lk_identity(dt, lk_at(&bt, u, it), u->strides[u->ndim - 2], u->strides[u->ndim - 1],
                            m, uc);
            if (n > 0)
                lk_identity(dt, lk_at(&bt, vh, it), vh->strides[vh->ndim - 2],
                            vh->strides[vh->ndim - 1], vr, n);
        }
        return ST_OK;
    }
    int64_t item = st_itemsize(dt), ritem = st_itemsize(rdt), mx = m > n ? m : n;
    char jobz = !u ? 'N' : full ? 'A' : 'S';
    int ldvt = (int)(vr > 1 ? vr : 1);
    /* A tall matrix (m >= 2n, past the small sizes; reduced U or none)
     * goes QR first, as gesdd itself does past m = 11n/6, but with geqrt
     * (recursive panels: BLAS-3 throughout) instead of geqrf (whose panels
     * are BLAS-2 passes over all m rows), the n x n SVD of R by gesdd, and
     * U = Q [U_R; 0] applied by gemqrt from Q's compact WY form instead of
     * orgqr's explicit Q and a gemm: on 20000 x 200 the QR took 0.6x and
     * forming U 0.55x of gesdd's steps (docs/linalg.md).  A full U (m x m)
     * keeps gesdd. */
    int tall = m >= 2 * n && mx > LK_SMALL && !(u && full);
    int64_t nb = tall ? (n < 32 ? n : 32) : 0, sm = tall ? n : m; /* gesdd's matrix: R or A */
    st_blas_threads_for(mx);
    char buf[64], one[64];
    int iw[8];
    lk_gesdd(dt, jobz, (int)sm, (int)n, one, one, one, one, ldvt, buf, -1, one, iw);
    int64_t lwork = lk_query_size(dt, buf);
    if (lwork < nb * n) lwork = nb * n; /* geqrt's and gemqrt's work */
    if (!st_fits_int(lwork)) lwork = INT_MAX;
    int64_t lrwork = 0;
    if (st_is_complex(dt)) /* LAPACK 3.7's bounds for ?gesdd's rwork */
        lrwork = jobz == 'N' ? 7 * k
                             : (5 * k * k + 5 * k > 2 * mx * k + 2 * k * k + k
                                    ? 5 * k * k + 5 * k
                                    : 2 * mx * k + 2 * k * k + k);
    int nt = lk_threads(bt.count, mx);
    /* per thread: A's copy, work, rwork, iwork; tall: T, R, U_R */
    int64_t a_b = lk_bytes(m, n, item), work_b = lk_bytes(lwork, 1, item),
            rwork_b = lk_bytes(lrwork, 1, ritem), iwork_b = lk_bytes(8 * k, 1, sizeof(int)),
            t_b = tall ? lk_bytes(nb, n, item) : 0, r_b = tall ? lk_bytes(n, n, item) : 0,
            ur_b = tall && u ? r_b : 0;
    int64_t per = a_b + work_b + rwork_b + iwork_b + t_b + r_b + ur_b;
    /* staged per matrix: S, then U and Vh */
    int64_t s_b = lk_bytes(k, 1, ritem), u_b = u ? lk_bytes(m, uc, item) : 0,
            v_b = u ? lk_bytes(vr, n, item) : 0, one_b = s_b + u_b + v_b;
    char *scratch, *staged;
    if (one_b < 0 || (rc = lk_alloc(fn, per, nt, lk_bytes(bt.count, one_b, 1), &scratch, &staged)))
        return one_b < 0 ? st_fail(ST_E_OVERFLOW, "%s: the workspace size overflows", fn) : rc;
    lk_fail f = {-1, 0};
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1) if (nt > 1)
    for (int64_t it = 0; it < bt.count; it++) {
        char *w = scratch + omp_get_thread_num() * per;
        char *work = w + a_b;
        char *rwork = work + work_b;
        int *iwork = (int *)(rwork + rwork_b);
        char *t = (char *)iwork + iwork_b, *r = t + t_b, *ur = r + r_b;
        char *st = staged + it * one_b;
        st_copy2d(w, 1, m, lk_at(&bt, a, it), a->strides[a->ndim - 2], a->strides[a->ndim - 1], m,
                  n, item);
        /* LAPACK's iterations are undefined on inf and NaN: refuse them */
        int info = lk_finite(dt, w, m * n) ? 0 : LK_NONFINITE;
        if (!info && tall) {
            /* geqrt fails only on bad arguments (checked above) */
            lk_geqrt(dt, (int)m, (int)n, (int)nb, w, t, work);
            lk_copy_out(r, 1, n, w, m, n, n, item, 1); /* R, zeros below */
            info = lk_gesdd(dt, jobz, (int)n, (int)n, r, st, u ? ur : work,
                            u ? st + s_b + u_b : work, ldvt, work, (int)lwork, rwork, iwork);
            if (!info && u) {
                char *us = st + s_b; /* U = Q [U_R; 0], m x n column-major */
                for (int64_t j = 0; j < n; j++) {
                    memcpy(us + j * m * item, ur + j * n * item, (size_t)(n * item));
                    memset(us + (j * m + n) * item, 0, (size_t)((m - n) * item));
                }
                lk_gemqrt(dt, (int)m, (int)n, (int)n, (int)nb, w, t, us, work);
            }
        } else if (!info) {
            info = lk_gesdd(dt, jobz, (int)m, (int)n, w, st, u ? st + s_b : work,
                            u ? st + s_b + u_b : work, ldvt, work, (int)lwork, rwork, iwork);
            /* jobz 'N' never references U and VT */
        }
        if (info) lk_note(&f, it, info);
    }
    if (f.item >= 0) {
        rc = lk_iterative_failure(fn, &bt, &f, "",
                                  "the SVD of %s did not converge (LAPACK ?gesdd info %d)");
    } else {
        for (int64_t it = 0; it < bt.count; it++) {
            char *st = staged + it * one_b;
            st_copy2d(lk_at(&bt, s, it), s->strides[s->ndim - 1], 0, st, 1, 0, k, 1, ritem);
            if (!u) continue;
            lk_copy_out(lk_at(&bt, u, it), u->strides[u->ndim - 2], u->strides[u->ndim - 1],
                        st + s_b, m, m, uc, item, 0);
            lk_copy_out(lk_at(&bt, vh, it), vh->strides[vh->ndim - 2], vh->strides[vh->ndim - 1],
                        st + s_b + u_b, vr > 1 ? vr : 1, vr, n, item, 0);
        }
    }
    st_aligned_free(scratch);
    return rc;
}

/* ---- eigh -------------------------------------------------------------------- */
st_status st_linalg_eigh(st_tensor *w, st_tensor *v, const st_tensor *a)
{
    const char *fn = v ? "eigh" : "eigvalsh";
    st_status rc;
    if ((rc = lk_check_in(fn, "x", a, 1))) return rc;
    lk_batch bt;
    lk_batch_of(&bt, a, a->ndim - 2);
    int dt = a->dtype, rdt = lk_real_of(dt);
    int64_t n = a->sizes[a->ndim - 1], vt[2] = {n, n};
    if ((rc = lk_check_out(fn, "eigenvalues", w, rdt, &bt, 1, &n))) return rc;
    if (v && (rc = lk_check_out(fn, "eigenvectors", v, dt, &bt, 2, vt))) return rc;
    const st_tensor *all[2] = {w, v};
    if ((rc = lk_check_apart(fn, all, 2))) return rc;
    if (bt.count == 0 || n == 0) return ST_OK;
    int64_t item = st_itemsize(dt), ritem = st_itemsize(rdt);
    char jobz = v ? 'V' : 'N';
    st_blas_threads_for(n);
    char buf[64], rbuf[64], one[64];
    int ibuf = 0;
    lk_syevd(dt, jobz, (int)n, one, one, buf, -1, rbuf, -1, &ibuf, -1);
    int64_t lwork = lk_query_size(dt, buf), liwork = ibuf > 1 ? ibuf : 1;
    int64_t lrwork = st_is_complex(dt) ? lk_query_size(rdt, rbuf) : 0;
    if (!st_fits_int(lwork) || !st_fits_int(lrwork)) lwork = lrwork = INT_MAX;
    int nt = lk_threads(bt.count, n);
    int64_t per = lk_bytes(n, n, item) + lk_bytes(lwork, 1, item) + lk_bytes(lrwork, 1, ritem) +
                  lk_bytes(liwork, 1, sizeof(int));
    /* staged per matrix: the eigenvalues, then the vectors (syevd leaves
     * them in the matrix itself) */
    int64_t w_b = lk_bytes(n, 1, ritem), v_b = v ? lk_bytes(n, n, item) : 0, one_b = w_b + v_b;
    char *scratch, *staged;
    if ((rc = lk_alloc(fn, per, nt, lk_bytes(bt.count, one_b, 1), &scratch, &staged))) return rc;
    lk_fail f = {-1, 0};
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1) if (nt > 1)
    for (int64_t it = 0; it < bt.count; it++) {
        char *mine = scratch + omp_get_thread_num() * per;
        char *work = mine + lk_bytes(n, n, item);
        char *rwork = work + lk_bytes(lwork, 1, item);
        int *iwork = (int *)(rwork + lk_bytes(lrwork, 1, ritem));
        char *st = staged + it * one_b;
        char *mat = v ? st + w_b : mine;
        st_copy2d(mat, 1, n, lk_at(&bt, a, it), a->strides[a->ndim - 2], a->strides[a->ndim - 1], n,
                  n, item);
        int info = lk_finite_triangle(dt, mat, n, item, 0) ? 0 : LK_NONFINITE;
        if (!info)
            info = lk_syevd(dt, jobz, (int)n, mat, st, work, (int)lwork, rwork, (int)lrwork, iwork,
                            (int)liwork);
        if (info) lk_note(&f, it, info);
    }
    if (f.item >= 0) {
        rc = lk_iterative_failure(fn, &bt, &f, " in its lower triangle",
                                  "the eigenvalues of %s did not converge (LAPACK info %d)");
    } else {
        for (int64_t it = 0; it < bt.count; it++) {
            char *st = staged + it * one_b;
            st_copy2d(lk_at(&bt, w, it), w->strides[w->ndim - 1], 0, st, 1, 0, n, 1, ritem);
            if (v)
                lk_copy_out(lk_at(&bt, v, it), v->strides[v->ndim - 2], v->strides[v->ndim - 1],
                            st + w_b, n, n, n, item, 0);
        }
    }
    st_aligned_free(scratch);
    return rc;
}

/* ---- eig ----------------------------------------------------------------------- */
/* Real ?geev returns a complex conjugate pair (wi[j] > 0, then wi[j+1] < 0)
 * as two real columns: v[:, j] = re + i im, v[:, j+1] = re - i im. */
static void eig_real_out(int cdt, char *wo, int64_t ws, char *vo, int64_t vrs, int64_t vcs, int rdt,
                         const char *st, const char *vr, int64_t n)
{
    const char *wr = st, *wi = st + n * st_itemsize(rdt);
    for (int64_t j = 0; j < n; j++) {
        double re = creal(lk_get(rdt, wr, j)), im = creal(lk_get(rdt, wi, j));
        lk_put(cdt, wo, j * ws, CMPLX(re, im));
    }
    if (!vo) return;
    for (int64_t j = 0; j < n; j++) {
        double im = creal(lk_get(rdt, wi, j));
        if (im != 0 && j + 1 < n) {
            for (int64_t i = 0; i < n; i++) {
                double x = creal(lk_get(rdt, vr, i + j * n)),
                       y = creal(lk_get(rdt, vr, i + (j + 1) * n));
                lk_put(cdt, vo, i * vrs + j * vcs, CMPLX(x, y));
                lk_put(cdt, vo, i * vrs + (j + 1) * vcs, CMPLX(x, -y));
            }
            j++;
        } else {
            for (int64_t i = 0; i < n; i++)
                lk_put(cdt, vo, i * vrs + j * vcs, CMPLX(creal(lk_get(rdt, vr, i + j * n)), 0));
        }
    }
}

st_status st_linalg_eig(st_tensor *w, st_tensor *v, const st_tensor *a)
{
    const char *fn = v ? "eig" : "eigvals";
    st_status rc;
    if ((rc = lk_check_in(fn, "x", a, 1))) return rc;
    lk_batch bt;
    lk_batch_of(&bt, a, a->ndim - 2);
    int dt = a->dtype, cdt = lk_complex_of(dt), rdt = lk_real_of(dt), cx = st_is_complex(dt);
    int64_t n = a->sizes[a->ndim - 1], vt[2] = {n, n};
    if ((rc = lk_check_out(fn, "eigenvalues", w, cdt, &bt, 1, &n))) return rc;
    if (v && (rc = lk_check_out(fn, "eigenvectors", v, cdt, &bt, 2, vt))) return rc;
    const st_tensor *all[2] = {w, v};
    if ((rc = lk_check_apart(fn, all, 2))) return rc;
    if (bt.count == 0 || n == 0) return ST_OK;
    int64_t item = st_itemsize(dt), ritem = st_itemsize(rdt);
    char jobvr = v ? 'V' : 'N';
    st_blas_threads_for(n);
    char buf[64], one[64];
    lk_geev(dt, jobvr, (int)n, one, one, one, buf, -1, one);
    int64_t lwork = lk_query_size(dt, buf);
    if (!st_fits_int(lwork)) lwork = INT_MAX;
    int nt = lk_threads(bt.count, n);
    int64_t per =
        lk_bytes(n, n, item) + lk_bytes(lwork, 1, item) + lk_bytes(cx ? 2 * n : 0, 1, ritem);
    /* staged per matrix, in the input's type: the eigenvalues (complex: n;
     * real: wr and wi), then the vectors */
    int64_t w_b = lk_bytes(cx ? n : 2 * n, 1, cx ? item : ritem),
            v_b = v ? lk_bytes(n, n, item) : 0, one_b = w_b + v_b;
    char *scratch, *staged;
    if ((rc = lk_alloc(fn, per, nt, lk_bytes(bt.count, one_b, 1), &scratch, &staged))) return rc;
    lk_fail f = {-1, 0};
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1) if (nt > 1)
    for (int64_t it = 0; it < bt.count; it++) {
        char *mat = scratch + omp_get_thread_num() * per;
        char *work = mat + lk_bytes(n, n, item);
        char *rwork = work + lk_bytes(lwork, 1, item);
        char *st = staged + it * one_b;
        st_copy2d(mat, 1, n, lk_at(&bt, a, it), a->strides[a->ndim - 2], a->strides[a->ndim - 1], n,
                  n, item);
        int info = lk_finite(dt, mat, n * n) ? 0 : LK_NONFINITE;
        if (!info)
            info = lk_geev(dt, jobvr, (int)n, mat, st, v ? st + w_b : work, work, (int)lwork,
                           rwork); /* without vectors VR is never referenced */
        if (info) lk_note(&f, it, info);
    }
    if (f.item >= 0) {
        rc = lk_iterative_failure(fn, &bt, &f, "",
                                  "the QR algorithm did not converge for %s (LAPACK ?geev info "
                                  "%d)");
    } else {
        for (int64_t it = 0; it < bt.count; it++) {
            char *st = staged + it * one_b;
            char *wo = lk_at(&bt, w, it), *vo = v ? lk_at(&bt, v, it) : NULL;
            int64_t ws = w->strides[w->ndim - 1];
            if (cx) {
                st_copy2d(wo, ws, 0, st, 1, 0, n, 1, item);
                if (v)
                    lk_copy_out(vo, v->strides[v->ndim - 2], v->strides[v->ndim - 1], st + w_b, n,
                                n, n, item, 0);
            } else {
                eig_real_out(cdt, wo, ws, vo, v ? v->strides[v->ndim - 2] : 0,
                             v ? v->strides[v->ndim - 1] : 0, rdt, st, st + w_b, n);
            }
        }
    }
    st_aligned_free(scratch);
    return rc;
}
