/* lapack_t7.c -- LAPACK routines called as Torch7's TH calls them: trtrs,
 * gels, potrs, potri, pstrf, geqrf, orgqr, ormqr, geev, syev, gesvd and
 * getri (gesv and potrf are in linalg.c, beside the solve and the cholesky
 * whose code they share), over stacks of matrices.
 *
 * Each returns what its routine computes (LAPACK's results, 0-based
 * pivots), written through the outputs' strides: the Python layer
 * (strided/core/linalg.py) gives the outputs Torch7's layouts.  As in
 * linalg.c, whose helpers (st_lapack.h) run the stack: operands of any
 * layout with identical batch dims, every check before anything is
 * written, a column-major workspace per matrix, small matrices shared out
 * over our threads.  Routines that can fail on a matrix (singular, not
 * positive definite, no convergence) stage their results and write nothing
 * when one fails, naming it; the others write directly.  Real types only
 * (float32, float64), Torch7's; character options are LAPACK's. */
#include "st_lapack.h"
#include <stdio.h>

#define L1 ((FORTRAN_STRLEN)1)
/* the s or d routine; the arguments are pointers to the element type */
#define T7_REAL(dt, name, ...)                                                                     \
    do {                                                                                           \
        if ((dt) == ST_FLOAT32)                                                                    \
            LAPACK_s##name(__VA_ARGS__);                                                           \
        else                                                                                       \
            LAPACK_d##name(__VA_ARGS__);                                                           \
    } while (0)

static int ld_of(int64_t rows) { return rows > 1 ? (int)rows : 1; }

/* ---- one job: a routine over the stack ---------------------------------------
 * compute() runs the routine on matrix `it` with the calling thread's
 * scratch (`per` bytes) and the matrix's stage (`one` bytes) and returns
 * its info (or LK_NONFINITE); once every matrix succeeded emit() copies
 * each stage to the outputs (emit NULL: compute wrote them itself, for
 * routines that cannot fail); else failed() makes the error of the first
 * failure. */
typedef struct t7_job t7_job;
typedef int (*t7_compute)(const t7_job *j, int64_t it, char *scratch, char *stage);
typedef void (*t7_emit)(const t7_job *j, int64_t it, const char *stage);
typedef st_status (*t7_failed)(const t7_job *j, const lk_fail *f, const char *stage);
struct t7_job {
    const char *fn;
    lk_batch bt;
    int dt;
    int64_t item;
    int64_t m, n, k; /* the routine's sizes */
    int64_t lwork;   /* its work array, in elements */
    char opt[3];     /* its character options (syev's uplo, opt[1], also names the
                               * triangle in t7_fail_iterative's message) */
    int keep;        /* matrix_out's lk_copy_out mode */
    double tol;
    const st_tensor *in[3];
    st_tensor *out[3];
    const char *failure; /* the message failed() formats */
};

/* Runs job j with `per` bytes of scratch per thread and `one` bytes of
 * stage per matrix, `side` (its larger dim) choosing the threads. */
static st_status t7_run(t7_job *j, int64_t per, int64_t one, int64_t side, t7_compute compute,
                        t7_emit emit, t7_failed failed, const char *failure)
{
    j->failure = failure;
    st_blas_threads();
    int nt = lk_threads(j->bt.count, side);
    char *scratch, *staged;
    st_status rc = lk_alloc(j->fn, per, nt, lk_bytes(j->bt.count, one, 1), &scratch, &staged);
    if (rc) return rc;
    lk_fail f = {-1, 0};
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1) if (nt > 1)
    for (int64_t it = 0; it < j->bt.count; it++) {
        int info = compute(j, it, scratch + omp_get_thread_num() * per, staged + it * one);
        if (info) lk_note(&f, it, info);
    }
    if (f.item >= 0)
        rc = failed(j, &f, staged + f.item * one);
    else if (emit)
        for (int64_t it = 0; it < j->bt.count; it++) emit(j, it, staged + it * one);
    st_aligned_free(scratch);
    return rc;
}

/* "%s: ... %s ... [%d, %d]": fn, the matrix, LAPACK's 1-based index as 0-based */
static st_status t7_fail_index(const t7_job *j, const lk_fail *f, const char *stage)
{
    char which[256];
    (void)stage;
    lk_which(which, sizeof which, &j->bt, f->item);
    return st_fail(ST_E_VALUE, j->failure, j->fn, which, f->info - 1, f->info - 1);
}

/* non-finite input or no convergence; j->failure takes (which, info) */
static st_status t7_fail_iterative(const t7_job *j, const lk_fail *f, const char *stage)
{
    (void)stage;
    return lk_iterative_failure(j->fn, &j->bt, f,
                                j->opt[1] == 'U'   ? " in its upper triangle"
                                : j->opt[1] == 'L' ? " in its lower triangle"
                                                   : "",
                                j->failure);
}

/* LAPACK's work size from a query's answer, within its 32-bit integers */
static void t7_lwork(t7_job *j, const void *answer)
{
    j->lwork = lk_query_size(j->dt, answer);
    if (!st_fits_int(j->lwork)) j->lwork = INT_MAX;
}

/* ---- moving matrices between the operands and the workspaces ----------------- */
/* the rows x cols matrix `it` of t into the column-major block w (ld) */
static void t7_load(const t7_job *j, char *w, int64_t ld, const st_tensor *t, int64_t it,
                    int64_t rows, int64_t cols)
{
    st_copy2d(w, 1, ld, lk_at(&j->bt, t, it), t->strides[t->ndim - 2], t->strides[t->ndim - 1],
              rows, cols, j->item);
}

/* the first n elements of vector `it` of t into contiguous w */
static void t7_load_vec(const t7_job *j, char *w, const st_tensor *t, int64_t it, int64_t n)
{
    st_copy2d(w, 1, 0, lk_at(&j->bt, t, it), t->strides[t->ndim - 1], 0, n, 1, j->item);
}

/* matrix `it` of t = the rows x cols column-major block w (ld); keep: lk_copy_out's */
static void t7_store(const t7_job *j, st_tensor *t, int64_t it, const char *w, int64_t ld,
                     int64_t rows, int64_t cols, int keep)
{
    lk_copy_out(lk_at(&j->bt, t, it), t->strides[t->ndim - 2], t->strides[t->ndim - 1], w, ld, rows,
                cols, j->item, keep);
}

/* vector `it` of t = n contiguous elements at w (of t's dtype) */
static void t7_store_vec(const t7_job *j, st_tensor *t, int64_t it, const char *w, int64_t n)
{
    st_copy2d(lk_at(&j->bt, t, it), t->strides[t->ndim - 1], 0, w, 1, 0, n, 1,
              st_itemsize(t->dtype));
}

/* ---- checks ------------------------------------------------------------------ */
/* a: the job's main operand, a real matrix or stack; sets the batch and type */
static st_status t7_begin(t7_job *j, const char *what, const st_tensor *a, int square)
{
    st_status rc = lk_check_real(j->fn, what, a);
    if (rc || (rc = lk_check_in(j->fn, what, a, square))) return rc;
    lk_batch_of(&j->bt, a, a->ndim - 2);
    j->dt = a->dtype;
    j->item = st_itemsize(a->dtype);
    return ST_OK;
}

/* t: another operand, of the main operand's dtype and batch dims, with
 * `tail` more dims (2: a matrix, 1: a vector) and, when rows >= 0, that
 * many rows (a matrix) or elements (a vector) */
static st_status t7_operand(const t7_job *j, const char *what, const st_tensor *t, int tail,
                            int64_t rows)
{
    char s[256], w[256];
    if (t->dtype != j->dt)
        return st_fail(ST_E_TYPE, "%s: %s must have A's dtype %s, got %s", j->fn, what,
                       st_dtype_name(j->dt), st_dtype_name(t->dtype));
    int bad = t->ndim != j->bt.nb + tail || (rows >= 0 && t->sizes[j->bt.nb] != rows);
    for (int d = 0; d < j->bt.nb && !bad; d++) bad = t->sizes[d] != j->bt.size[d];
    if (bad) {
        st_shape_str(s, sizeof s, t->ndim, t->sizes);
        st_shape_str(w, sizeof w, j->bt.nb, j->bt.size);
        if (rows >= 0)
            return st_fail(ST_E_VALUE,
                           "%s: %s has shape %s; it must be a %s with the batch dims "
                           "%s of A and %lld %s",
                           j->fn, what, s, tail == 2 ? "matrix" : "vector", w, (long long)rows,
                           tail == 2 ? "rows" : "elements");
        return st_fail(ST_E_VALUE,
                       "%s: %s has shape %s; it must be a %s with the batch dims %s "
                       "of A",
                       j->fn, what, s, tail == 2 ? "matrix" : "vector", w);
    }
    if (tail == 2) return lk_check_in(j->fn, what, t, 0);
    if (!st_fits_int(t->sizes[t->ndim - 1]))
        return st_fail(ST_E_OVERFLOW, "%s: %s is too long for LAPACK's 32-bit indices", j->fn,
                       what);
    return st_check_storage(t, what);
}

/* An output of the routine: `tail` dims after the batch (sizes), dtype dt */
static st_status t7_output(const t7_job *j, const char *what, const st_tensor *o, int dt,
                           int64_t rows, int64_t cols, int tail)
{
    int64_t shape[2] = {rows, cols};
    return lk_check_out(j->fn, what, o, dt, &j->bt, tail, shape);
}

/* The outputs share no memory with each other, nor (when the routine
 * writes while reading, direct) with the inputs. */
static st_status t7_apart(const t7_job *j, int direct)
{
    for (int i = 0; i < 3; i++) {
        if (!j->out[i]) continue;
        for (int k = 0; k < 3; k++) {
            const st_tensor *other[2] = {k > i ? j->out[k] : NULL, direct ? j->in[k] : NULL};
            for (int o = 0; o < 2; o++)
                if (other[o] && st_tensor_shares_memory(j->out[i], other[o]))
                    return st_fail(ST_E_VALUE,
                                   "%s: outputs must not share memory with each "
                                   "other%s",
                                   j->fn, direct ? " or with the inputs" : "");
        }
    }
    return ST_OK;
}

/* out[0] (n x n) from the stage, lk_copy_out's j->keep */
static void matrix_out(const t7_job *j, int64_t it, const char *st)
{
    t7_store(j, j->out[0], it, st, ld_of(j->n), j->n, j->n, j->keep);
}

/* ---- trtrs: x = op(A)^-1 B, A triangular --------------------------------------- */
static int trtrs_one(const t7_job *j, int64_t it, char *w, char *st)
{
    int n = (int)j->n, k = (int)j->k, ld = ld_of(n), info = 0;
    t7_load(j, w, ld, j->in[0], it, n, n);
    t7_load(j, st, ld, j->in[1], it, n, k);
    T7_REAL(j->dt, trtrs_base, &j->opt[0], &j->opt[1], &j->opt[2], &n, &k, (void *)w, &ld,
            (void *)st, &ld, &info, L1, L1, L1);
    return info;
}

/* out[0] (n x k) from the stage */
static void solution_out(const t7_job *j, int64_t it, const char *st)
{
    t7_store(j, j->out[0], it, st, ld_of(j->n), j->n, j->k, 0);
}

st_status st_linalg_trtrs(st_tensor *x, const st_tensor *a, const st_tensor *b, char uplo,
                          char trans, char diag)
{
    t7_job j = {.fn = "trtrs", .opt = {uplo, trans, diag}, .in = {a, b}, .out = {x}};
    st_status rc;
    if ((rc = t7_begin(&j, "A", a, 1)) || (rc = lk_check_option(j.fn, "uplo", uplo, "UL")) ||
        (rc = lk_check_option(j.fn, "trans", trans, "NT")) ||
        (rc = lk_check_option(j.fn, "diag", diag, "NU")))
        return rc;
    j.n = a->sizes[a->ndim - 1];
    if ((rc = t7_operand(&j, "B", b, 2, j.n))) return rc;
    j.k = b->sizes[b->ndim - 1];
    if ((rc = t7_output(&j, "X", x, j.dt, j.n, j.k, 2)) || (rc = t7_apart(&j, 0))) return rc;
    if (j.bt.count == 0 || j.n == 0) return ST_OK;
    return t7_run(&j, lk_bytes(j.n, j.n, j.item), lk_bytes(j.n, j.k, j.item), j.n, trtrs_one,
                  solution_out, t7_fail_index,
                  "%s: A is singular: %s has a zero on its diagonal (A[%d, %d])");
}

/* ---- gels: least squares (m >= n) or minimum norm (m < n) ----------------------- */
static int gels_call(const t7_job *j, void *a, void *b, void *work, int lwork)
{
    int m = (int)j->m, n = (int)j->n, k = (int)j->k, lda = ld_of(m), ldb = ld_of(m > n ? m : n),
        info = 0;
    T7_REAL(j->dt, gels_base, "N", &m, &n, &k, a, &lda, b, &ldb, work, &lwork, &info, L1);
    return info;
}

/* stage: gels's A (m x n), then its B (max(m, n) x k) */
static int gels_one(const t7_job *j, int64_t it, char *work, char *st)
{
    char *sb = st + lk_bytes(j->m, j->n, j->item);
    t7_load(j, st, ld_of(j->m), j->in[0], it, j->m, j->n);
    t7_load(j, sb, ld_of(j->m > j->n ? j->m : j->n), j->in[1], it, j->m, j->k);
    return gels_call(j, st, sb, work, (int)j->lwork);
}

static void gels_out(const t7_job *j, int64_t it, const char *st)
{
    int64_t ldb = j->m > j->n ? j->m : j->n;
    t7_store(j, j->out[0], it, st + lk_bytes(j->m, j->n, j->item), ld_of(ldb), ldb, j->k, 0);
    t7_store(j, j->out[1], it, st, ld_of(j->m), j->m, j->n, 0);
}

st_status st_linalg_gels(st_tensor *x, st_tensor *qr, const st_tensor *a, const st_tensor *b)
{
    t7_job j = {.fn = "gels", .in = {a, b}, .out = {x, qr}};
    st_status rc;
    if ((rc = t7_begin(&j, "A", a, 0))) return rc;
    j.m = a->sizes[a->ndim - 2];
    j.n = a->sizes[a->ndim - 1];
    if ((rc = t7_operand(&j, "B", b, 2, j.m))) return rc;
    j.k = b->sizes[b->ndim - 1];
    int64_t ldb = j.m > j.n ? j.m : j.n;
    if ((rc = t7_output(&j, "X", x, j.dt, ldb, j.k, 2)) ||
        (rc = t7_output(&j, "QR", qr, j.dt, j.m, j.n, 2)) || (rc = t7_apart(&j, 0)))
        return rc;
    if (j.bt.count == 0) return ST_OK;
    st_blas_threads();
    char buf[64], answer[64];
    gels_call(&j, buf, buf, answer, -1);
    t7_lwork(&j, answer);
    return t7_run(&j, lk_bytes(j.lwork, 1, j.item),
                  lk_bytes(j.m, j.n, j.item) + lk_bytes(ldb, j.k, j.item), ldb, gels_one, gels_out,
                  t7_fail_index,
                  "%s: A does not have full rank: %s has a zero diagonal element in the "
                  "triangular factor of its QR (m >= n) or LQ (m < n) factorization ([%d, %d])");
}

/* ---- potrs: x = A^-1 B from A's Cholesky factor -------------------------------- */
static int potrs_one(const t7_job *j, int64_t it, char *w, char *st)
{
    int n = (int)j->n, k = (int)j->k, ld = ld_of(n), info = 0;
    char *wb = w + lk_bytes(n, n, j->item);
    (void)st;
    t7_load(j, w, ld, j->in[0], it, n, n);
    t7_load(j, wb, ld, j->in[1], it, n, k);
    T7_REAL(j->dt, potrs_base, &j->opt[0], &n, &k, (void *)w, &ld, (void *)wb, &ld, &info, L1);
    t7_store(j, j->out[0], it, wb, ld, n, k, 0);
    return info; /* 0: potrs fails only on bad arguments */
}

st_status st_linalg_potrs(st_tensor *x, const st_tensor *chol, const st_tensor *b, char uplo)
{
    t7_job j = {.fn = "potrs", .opt = {uplo}, .in = {chol, b}, .out = {x}};
    st_status rc;
    if ((rc = t7_begin(&j, "chol", chol, 1)) || (rc = lk_check_option(j.fn, "uplo", uplo, "UL")))
        return rc;
    j.n = chol->sizes[chol->ndim - 1];
    if ((rc = t7_operand(&j, "B", b, 2, j.n))) return rc;
    j.k = b->sizes[b->ndim - 1];
    if ((rc = t7_output(&j, "X", x, j.dt, j.n, j.k, 2)) || (rc = t7_apart(&j, 1))) return rc;
    if (j.bt.count == 0 || j.n == 0 || j.k == 0) return ST_OK;
    return t7_run(&j, lk_bytes(j.n, j.n, j.item) + lk_bytes(j.n, j.k, j.item), 0, j.n, potrs_one,
                  NULL, NULL, NULL);
}

/* ---- potri: A^-1 from A's Cholesky factor, both triangles -------------------- */
static int potri_one(const t7_job *j, int64_t it, char *w, char *st)
{
    int n = (int)j->n, ld = ld_of(n), info = 0;
    (void)w;
    t7_load(j, st, ld, j->in[0], it, n, n);
    T7_REAL(j->dt, potri_base, &j->opt[0], &n, (void *)st, &ld, &info, L1);
    return info;
}

st_status st_linalg_potri(st_tensor *out, const st_tensor *chol, char uplo)
{
    t7_job j = {.fn = "potri", .opt = {uplo}, .in = {chol}, .out = {out}};
    st_status rc;
    if ((rc = t7_begin(&j, "chol", chol, 1)) || (rc = lk_check_option(j.fn, "uplo", uplo, "UL")))
        return rc;
    j.n = chol->sizes[chol->ndim - 1];
    if ((rc = t7_output(&j, "out", out, j.dt, j.n, j.n, 2))) return rc;
    if (j.bt.count == 0 || j.n == 0) return ST_OK;
    j.keep = uplo == 'U' ? 2 : -2; /* the other triangle mirrors the computed one */
    return t7_run(&j, 0, lk_bytes(j.n, j.n, j.item), j.n, potri_one, matrix_out, t7_fail_index,
                  "%s: chol is singular: %s has a zero on its diagonal (chol[%d, %d])");
}

/* ---- pstrf: Cholesky with complete pivoting -------------------------------------
 * stage: the factor (n x n), the pivots (n ints, 0-based), the rank (an int) */
static int pstrf_one(const t7_job *j, int64_t it, char *work, char *st)
{
    int n = (int)j->n, ld = ld_of(n), info = 0;
    int *piv = (int *)(st + lk_bytes(n, n, j->item)), *rank = piv + n;
    t7_load(j, st, ld, j->in[0], it, n, n);
    if (j->dt == ST_FLOAT32) {
        float tol = (float)j->tol;
        LAPACK_spstrf_base(&j->opt[0], &n, (float *)st, &ld, piv, rank, &tol, (float *)work, &info,
                           L1);
    } else {
        LAPACK_dpstrf_base(&j->opt[0], &n, (double *)st, &ld, piv, rank, &j->tol, (double *)work,
                           &info, L1);
    }
    for (int i = 0; i < n; i++) piv[i] -= 1;
    return info;
}

static void pstrf_out(const t7_job *j, int64_t it, const char *st)
{
    t7_store(j, j->out[0], it, st, ld_of(j->n), j->n, j->n, j->opt[0] == 'U' ? 1 : -1);
    t7_store_vec(j, j->out[1], it, st + lk_bytes(j->n, j->n, j->item), j->n);
}

static st_status pstrf_failed(const t7_job *j, const lk_fail *f, const char *st)
{
    char which[256];
    const int *rank = (const int *)(st + lk_bytes(j->n, j->n, j->item)) + j->n;
    lk_which(which, sizeof which, &j->bt, f->item);
    return st_fail(ST_E_VALUE,
                   "pstrf: %s is rank deficient or not positive semidefinite (the "
                   "pivoted factorization stopped at rank %d of %lld)",
                   which, *rank, (long long)j->n);
}

st_status st_linalg_pstrf(st_tensor *out, st_tensor *piv, const st_tensor *a, char uplo, double tol)
{
    t7_job j = {.fn = "pstrf", .opt = {uplo}, .tol = tol, .in = {a}, .out = {out, piv}};
    st_status rc;
    if ((rc = t7_begin(&j, "A", a, 1)) || (rc = lk_check_option(j.fn, "uplo", uplo, "UL")))
        return rc;
    j.n = a->sizes[a->ndim - 1];
    if ((rc = t7_output(&j, "out", out, j.dt, j.n, j.n, 2)) ||
        (rc = t7_output(&j, "piv", piv, ST_INT32, j.n, 0, 1)) || (rc = t7_apart(&j, 0)))
        return rc;
    if (j.bt.count == 0 || j.n == 0) return ST_OK;
    return t7_run(&j, lk_bytes(2 * j.n, 1, j.item),
                  lk_bytes(j.n, j.n, j.item) + lk_bytes(j.n + 1, 1, sizeof(int)), j.n, pstrf_one,
                  pstrf_out, pstrf_failed, NULL);
}

/* ---- geqrf: reflectors and R in one matrix, and tau ---------------------------- */
/* scratch: the matrix (m x n), tau (k), work */
static int geqrf_one(const t7_job *j, int64_t it, char *w, char *st)
{
    char *tau = w + lk_bytes(j->m, j->n, j->item), *work = tau + lk_bytes(j->k, 1, j->item);
    (void)st;
    t7_load(j, w, ld_of(j->m), j->in[0], it, j->m, j->n);
    if (j->k > 0) lk_geqrf(j->dt, (int)j->m, (int)j->n, w, tau, work, (int)j->lwork);
    t7_store(j, j->out[0], it, w, ld_of(j->m), j->m, j->n, 0);
    t7_store_vec(j, j->out[1], it, tau, j->k);
    return 0;
}

st_status st_linalg_geqrf(st_tensor *qr, st_tensor *tau, const st_tensor *a)
{
    t7_job j = {.fn = "geqrf", .in = {a}, .out = {qr, tau}};
    st_status rc;
    if ((rc = t7_begin(&j, "A", a, 0))) return rc;
    j.m = a->sizes[a->ndim - 2];
    j.n = a->sizes[a->ndim - 1];
    j.k = j.m < j.n ? j.m : j.n;
    if ((rc = t7_output(&j, "QR", qr, j.dt, j.m, j.n, 2)) ||
        (rc = t7_output(&j, "tau", tau, j.dt, j.k, 0, 1)) || (rc = t7_apart(&j, 1)))
        return rc;
    if (j.bt.count == 0 || j.k == 0) return ST_OK;
    st_blas_threads();
    char buf[64], answer[64];
    lk_geqrf(j.dt, (int)j.m, (int)j.n, buf, buf, answer, -1);
    t7_lwork(&j, answer);
    int64_t per =
        lk_bytes(j.m, j.n, j.item) + lk_bytes(j.k, 1, j.item) + lk_bytes(j.lwork, 1, j.item);
    return t7_run(&j, per, 0, j.m > j.n ? j.m : j.n, geqrf_one, NULL, NULL, NULL);
}

/* ---- orgqr: Q's first k columns from k reflectors --------------------------------
 * As TH's orgqr: ?orgqr(m, k, k) on a copy of A, whose columns past k stay
 * A's.  scratch: the matrix (m x n), tau (k), work */
static int orgqr_one(const t7_job *j, int64_t it, char *w, char *st)
{
    char *tau = w + lk_bytes(j->m, j->n, j->item), *work = tau + lk_bytes(j->k, 1, j->item);
    (void)st;
    t7_load(j, w, ld_of(j->m), j->in[0], it, j->m, j->n);
    t7_load_vec(j, tau, j->in[1], it, j->k);
    lk_orgqr(j->dt, (int)j->m, (int)j->k, (int)j->k, w, tau, work, (int)j->lwork);
    t7_store(j, j->out[0], it, w, ld_of(j->m), j->m, j->n, 0);
    return 0;
}

st_status st_linalg_orgqr(st_tensor *q, const st_tensor *a, const st_tensor *tau)
{
    t7_job j = {.fn = "orgqr", .in = {a, tau}, .out = {q}};
    st_status rc;
    if ((rc = t7_begin(&j, "A", a, 0)) || (rc = t7_operand(&j, "tau", tau, 1, -1))) return rc;
    j.m = a->sizes[a->ndim - 2];
    j.n = a->sizes[a->ndim - 1];
    j.k = tau->sizes[tau->ndim - 1];
    if (j.k > j.m || j.k > j.n)
        return st_fail(ST_E_VALUE,
                       "orgqr: tau has %lld reflectors but A is %lld x %lld: at most "
                       "min(m, n) = %lld",
                       (long long)j.k, (long long)j.m, (long long)j.n,
                       (long long)(j.m < j.n ? j.m : j.n));
    if ((rc = t7_output(&j, "Q", q, j.dt, j.m, j.n, 2)) || (rc = t7_apart(&j, 1))) return rc;
    if (j.bt.count == 0 || j.m == 0 || j.n == 0) return ST_OK;
    st_blas_threads();
    char buf[64], answer[64];
    lk_orgqr(j.dt, (int)j.m, (int)j.k, (int)j.k, buf, buf, answer, -1);
    t7_lwork(&j, answer);
    int64_t per =
        lk_bytes(j.m, j.n, j.item) + lk_bytes(j.k, 1, j.item) + lk_bytes(j.lwork, 1, j.item);
    return t7_run(&j, per, 0, j.m > j.n ? j.m : j.n, orgqr_one, NULL, NULL, NULL);
}

/* ---- ormqr: Q C, Q^T C, C Q or C Q^T with Q from k reflectors -------------------- */
static int ormqr_call(const t7_job *j, void *a, void *tau, void *c, void *work, int lwork)
{
    int m = (int)j->m, n = (int)j->n, k = (int)j->k, lda = ld_of(j->opt[0] == 'L' ? m : n),
        ldc = ld_of(m), info = 0;
    T7_REAL(j->dt, ormqr_base, &j->opt[0], &j->opt[1], &m, &n, &k, a, &lda, tau, c, &ldc, work,
            &lwork, &info, L1, L1);
    return info;
}

/* scratch: the reflectors (nq x k), tau (k), C (m x n), work */
static int ormqr_one(const t7_job *j, int64_t it, char *w, char *st)
{
    int64_t nq = j->opt[0] == 'L' ? j->m : j->n;
    char *tau = w + lk_bytes(nq, j->k, j->item), *c = tau + lk_bytes(j->k, 1, j->item),
         *work = c + lk_bytes(j->m, j->n, j->item);
    (void)st;
    t7_load(j, w, ld_of(nq), j->in[0], it, nq, j->k);
    t7_load_vec(j, tau, j->in[1], it, j->k);
    t7_load(j, c, ld_of(j->m), j->in[2], it, j->m, j->n);
    ormqr_call(j, w, tau, c, work, (int)j->lwork);
    t7_store(j, j->out[0], it, c, ld_of(j->m), j->m, j->n, 0);
    return 0;
}

st_status st_linalg_ormqr(st_tensor *out, const st_tensor *a, const st_tensor *tau,
                          const st_tensor *c, char side, char trans)
{
    t7_job j = {.fn = "ormqr", .opt = {side, trans}, .in = {a, tau, c}, .out = {out}};
    st_status rc;
    if ((rc = t7_begin(&j, "A", a, 0)) || (rc = lk_check_option(j.fn, "side", side, "LR")) ||
        (rc = lk_check_option(j.fn, "trans", trans, "NT")) ||
        (rc = t7_operand(&j, "tau", tau, 1, -1)) || (rc = t7_operand(&j, "C", c, 2, -1)))
        return rc;
    j.m = c->sizes[c->ndim - 2];
    j.n = c->sizes[c->ndim - 1];
    j.k = tau->sizes[tau->ndim - 1];
    int64_t nq = side == 'L' ? j.m : j.n;
    if (a->sizes[a->ndim - 2] != nq || a->sizes[a->ndim - 1] < j.k || j.k > nq)
        return st_fail(ST_E_VALUE,
                       "ormqr: A (%lld x %lld) must have %lld rows (C's %s) and at "
                       "least as many columns as tau's %lld reflectors, at most %lld",
                       (long long)a->sizes[a->ndim - 2], (long long)a->sizes[a->ndim - 1],
                       (long long)nq, side == 'L' ? "rows" : "columns", (long long)j.k,
                       (long long)nq);
    if ((rc = t7_output(&j, "out", out, j.dt, j.m, j.n, 2)) || (rc = t7_apart(&j, 1))) return rc;
    if (j.bt.count == 0 || j.m == 0 || j.n == 0) return ST_OK;
    st_blas_threads();
    char buf[64], answer[64];
    ormqr_call(&j, buf, buf, buf, answer, -1);
    t7_lwork(&j, answer);
    int64_t per = lk_bytes(nq, j.k, j.item) + lk_bytes(j.k, 1, j.item) +
                  lk_bytes(j.m, j.n, j.item) + lk_bytes(j.lwork, 1, j.item);
    return t7_run(&j, per, 0, j.m > j.n ? j.m : j.n, ormqr_one, NULL, NULL, NULL);
}

/* ---- geev: eigenvalues as (re, im) pairs, right eigenvectors as LAPACK packs them --
 * stage: wr and wi (2n), then VR (n x n) */
static int geev_one(const t7_job *j, int64_t it, char *w, char *st)
{
    int64_t n = j->n;
    char *work = w + lk_bytes(n, n, j->item), *vr = st + lk_bytes(2 * n, 1, j->item);
    t7_load(j, w, ld_of(n), j->in[0], it, n, n);
    if (!lk_finite(j->dt, w, n * n)) return LK_NONFINITE;
    /* without vectors VR is never referenced */
    return lk_geev(j->dt, j->opt[0], (int)n, w, st, j->out[1] ? vr : work, work, (int)j->lwork,
                   NULL);
}

/* wr then wi in the stage are the columns of w (n x 2, ld n) */
static void geev_out(const t7_job *j, int64_t it, const char *st)
{
    t7_store(j, j->out[0], it, st, ld_of(j->n), j->n, 2, 0);
    if (j->out[1])
        t7_store(j, j->out[1], it, st + lk_bytes(2 * j->n, 1, j->item), ld_of(j->n), j->n, j->n, 0);
}

st_status st_linalg_geev(st_tensor *w, st_tensor *vr, const st_tensor *a)
{
    t7_job j = {.fn = "geev", .opt = {vr ? 'V' : 'N'}, .in = {a}, .out = {w, vr}};
    st_status rc;
    if ((rc = t7_begin(&j, "A", a, 1))) return rc;
    j.n = a->sizes[a->ndim - 1];
    if ((rc = t7_output(&j, "w", w, j.dt, j.n, 2, 2)) ||
        (vr && (rc = t7_output(&j, "VR", vr, j.dt, j.n, j.n, 2))) || (rc = t7_apart(&j, 0)))
        return rc;
    if (j.bt.count == 0 || j.n == 0) return ST_OK;
    st_blas_threads();
    char buf[64], answer[64];
    lk_geev(j.dt, j.opt[0], (int)j.n, buf, buf, buf, answer, -1, NULL);
    t7_lwork(&j, answer);
    return t7_run(&j, lk_bytes(j.n, j.n, j.item) + lk_bytes(j.lwork, 1, j.item),
                  lk_bytes(2 * j.n, 1, j.item) + (vr ? lk_bytes(j.n, j.n, j.item) : 0), j.n,
                  geev_one, geev_out, t7_fail_iterative,
                  "the QR algorithm did not converge for %s (LAPACK ?geev info %d)");
}

/* ---- syev: eigenvalues (ascending) and eigenvectors of a symmetric matrix ---------- */
static int syev_call(const t7_job *j, void *a, void *w, void *work, int lwork)
{
    int n = (int)j->n, lda = ld_of(n), info = 0;
    T7_REAL(j->dt, syev_base, &j->opt[0], &j->opt[1], &n, a, &lda, w, work, &lwork, &info, L1, L1);
    return info;
}

/* stage: the eigenvalues (n), then the matrix (n x n): syev leaves the
 * vectors there, or with jobz 'N' its scratch (what TH returns then) */
static int syev_one(const t7_job *j, int64_t it, char *w, char *st)
{
    int64_t n = j->n, vb = j->out[1] ? 0 : lk_bytes(n, n, j->item);
    char *mat = j->out[1] ? st + lk_bytes(n, 1, j->item) : w;
    t7_load(j, mat, ld_of(n), j->in[0], it, n, n);
    if (!lk_finite_triangle(j->dt, mat, n, j->item, j->opt[1] == 'U')) return LK_NONFINITE;
    return syev_call(j, mat, st, w + vb, (int)j->lwork);
}

static void syev_out(const t7_job *j, int64_t it, const char *st)
{
    t7_store_vec(j, j->out[0], it, st, j->n);
    if (j->out[1])
        t7_store(j, j->out[1], it, st + lk_bytes(j->n, 1, j->item), ld_of(j->n), j->n, j->n, 0);
}

st_status st_linalg_syev(st_tensor *w, st_tensor *v, const st_tensor *a, char jobz, char uplo)
{
    t7_job j = {.fn = "syev", .opt = {jobz, uplo}, .in = {a}, .out = {w, v}};
    st_status rc;
    if ((rc = t7_begin(&j, "A", a, 1)) || (rc = lk_check_option(j.fn, "jobz", jobz, "NV")) ||
        (rc = lk_check_option(j.fn, "uplo", uplo, "UL")))
        return rc;
    if (jobz == 'V' && !v)
        return st_fail(ST_E_VALUE, "syev: jobz 'V' needs the eigenvector output");
    j.n = a->sizes[a->ndim - 1];
    if ((rc = t7_output(&j, "eigenvalues", w, j.dt, j.n, 0, 1)) ||
        (v && (rc = t7_output(&j, "eigenvectors", v, j.dt, j.n, j.n, 2))) || (rc = t7_apart(&j, 0)))
        return rc;
    if (j.bt.count == 0 || j.n == 0) return ST_OK;
    st_blas_threads();
    char buf[64], answer[64];
    syev_call(&j, buf, buf, answer, -1);
    t7_lwork(&j, answer);
    int64_t mat = lk_bytes(j.n, j.n, j.item);
    return t7_run(&j, (v ? 0 : mat) + lk_bytes(j.lwork, 1, j.item),
                  lk_bytes(j.n, 1, j.item) + (v ? mat : 0), j.n, syev_one, syev_out,
                  t7_fail_iterative,
                  "the eigenvalues of %s did not converge (LAPACK ?syev info %d)");
}

/* ---- gesvd: A = U diag(S) VT --------------------------------------------------------
 * job 'S': U (m x k), VT (k x n); 'A': U (m x m), VT (n x n); k = min(m, n) */
static int gesvd_call(const t7_job *j, void *a, void *s, void *u, void *vt, void *work, int lwork)
{
    int m = (int)j->m, n = (int)j->n, lda = ld_of(m), ldvt = ld_of(j->opt[0] == 'A' ? n : j->k),
        info = 0;
    T7_REAL(j->dt, gesvd_base, &j->opt[0], &j->opt[0], &m, &n, a, &lda, s, u, &lda, vt, &ldvt, work,
            &lwork, &info, L1, L1);
    return info;
}

/* the stage's parts: S (k), U (m x uc), VT (vr x n) */
static void gesvd_parts(const t7_job *j, int64_t *s_b, int64_t *u_b, int64_t *vr)
{
    int full = j->opt[0] == 'A';
    *vr = full ? j->n : j->k;
    *s_b = lk_bytes(j->k, 1, j->item);
    *u_b = lk_bytes(j->m, full ? j->m : j->k, j->item);
}

static int gesvd_one(const t7_job *j, int64_t it, char *w, char *st)
{
    int64_t s_b, u_b, vr;
    gesvd_parts(j, &s_b, &u_b, &vr);
    t7_load(j, w, ld_of(j->m), j->in[0], it, j->m, j->n);
    if (!lk_finite(j->dt, w, j->m * j->n)) return LK_NONFINITE;
    return gesvd_call(j, w, st, st + s_b, st + s_b + u_b, w + lk_bytes(j->m, j->n, j->item),
                      (int)j->lwork);
}

static void gesvd_out(const t7_job *j, int64_t it, const char *st)
{
    int64_t s_b, u_b, vr;
    gesvd_parts(j, &s_b, &u_b, &vr);
    t7_store_vec(j, j->out[1], it, st, j->k);
    t7_store(j, j->out[0], it, st + s_b, ld_of(j->m), j->m, j->opt[0] == 'A' ? j->m : j->k, 0);
    t7_store(j, j->out[2], it, st + s_b + u_b, ld_of(vr), vr, j->n, 0);
}

st_status st_linalg_gesvd(st_tensor *u, st_tensor *s, st_tensor *vt, const st_tensor *a, char job)
{
    t7_job j = {.fn = "gesvd", .opt = {job}, .in = {a}, .out = {u, s, vt}};
    st_status rc;
    if ((rc = t7_begin(&j, "A", a, 0)) || (rc = lk_check_option(j.fn, "job", job, "SA"))) return rc;
    j.m = a->sizes[a->ndim - 2];
    j.n = a->sizes[a->ndim - 1];
    j.k = j.m < j.n ? j.m : j.n;
    int64_t s_b, u_b, vr;
    gesvd_parts(&j, &s_b, &u_b, &vr);
    if ((rc = t7_output(&j, "U", u, j.dt, j.m, job == 'A' ? j.m : j.k, 2)) ||
        (rc = t7_output(&j, "S", s, j.dt, j.k, 0, 1)) ||
        (rc = t7_output(&j, "VT", vt, j.dt, vr, j.n, 2)) || (rc = t7_apart(&j, 0)))
        return rc;
    if (j.k == 0) /* no singular values; job 'A': identities, as svd gives them */
        return st_linalg_svd(u, s, vt, a, job == 'A');
    if (j.bt.count == 0) return ST_OK;
    st_blas_threads();
    char buf[64], answer[64];
    gesvd_call(&j, buf, buf, buf, buf, answer, -1);
    t7_lwork(&j, answer);
    return t7_run(&j, lk_bytes(j.m, j.n, j.item) + lk_bytes(j.lwork, 1, j.item),
                  s_b + u_b + lk_bytes(vr, j.n, j.item), j.m > j.n ? j.m : j.n, gesvd_one,
                  gesvd_out, t7_fail_iterative,
                  "the SVD of %s did not converge (LAPACK ?gesvd info %d: superdiagonals of its "
                  "bidiagonal form did not converge to zero)");
}

/* ---- getri: A^-1 from A's LU factorization ---------------------------------------- */
static int getri_call(const t7_job *j, void *a, const int *ipiv, void *work, int lwork)
{
    int n = (int)j->n, lda = ld_of(n), info = 0;
    T7_REAL(j->dt, getri, &n, a, &lda, ipiv, work, &lwork, &info);
    return info;
}

/* scratch: ipiv (n ints), work; stage: the matrix */
static int getri_one(const t7_job *j, int64_t it, char *w, char *st)
{
    t7_load(j, st, ld_of(j->n), j->in[0], it, j->n, j->n);
    int info = lk_getrf(j->dt, (int)j->n, st, (int *)w);
    return info ? info
                : getri_call(j, st, (int *)w, w + lk_bytes(j->n, 1, sizeof(int)), (int)j->lwork);
}

st_status st_linalg_getri(st_tensor *out, const st_tensor *a)
{
    t7_job j = {.fn = "getri", .in = {a}, .out = {out}};
    st_status rc;
    if ((rc = t7_begin(&j, "A", a, 1))) return rc;
    j.n = a->sizes[a->ndim - 1];
    if ((rc = t7_output(&j, "out", out, j.dt, j.n, j.n, 2))) return rc;
    if (j.bt.count == 0 || j.n == 0) return ST_OK;
    st_blas_threads();
    char buf[64], answer[64];
    int ipiv[1];
    getri_call(&j, buf, ipiv, answer, -1);
    t7_lwork(&j, answer);
    return t7_run(&j, lk_bytes(j.n, 1, sizeof(int)) + lk_bytes(j.lwork, 1, j.item),
                  lk_bytes(j.n, j.n, j.item), j.n, getri_one, matrix_out, t7_fail_index,
                  "%s: %s is singular (U[%d, %d] of its LU factorization is exactly zero)");
}
