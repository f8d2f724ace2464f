/* st_blas.h -- what matmul.c and linalg.c share about BLAS and LAPACK.
 *
 * The library is OpenBLAS from the scipy-openblas32 package (build.py finds
 * its headers and library).  Its symbols carry the prefix `scipy_`: the
 * package's cblas.h names them so already (scipy_cblas_dgemm, ...); its
 * lapack.h builds names through LAPACK_GLOBAL, which we define first so that
 * LAPACK_dgetrf is scipy_dgetrf_.  Both headers declare the real
 * prototypes, so every call is checked by the compiler.  Integers are 32
 * bits (`blasint`, `lapack_int`): callers check that sizes fit first. */
#ifndef ST_BLAS_H
#define ST_BLAS_H
#include "st_internal.h"
#include <limits.h>

#define LAPACK_GLOBAL(lcname, UCNAME) scipy_##lcname##_
#include <cblas.h>
#include <lapack.h>

_Static_assert(sizeof(blasint) == sizeof(int), "scipy-openblas32 has 32-bit BLAS integers");
_Static_assert(sizeof(lapack_int) == sizeof(int), "scipy-openblas32 has 32-bit LAPACK integers");

/* Set OpenBLAS's thread count to strided's (st_get_num_threads), when it
 * changed since the last call.  Called before every BLAS/LAPACK entry. */
void st_blas_threads(void);
/* The same for a LAPACK call on a matrix whose longest dim is `dim`: one
 * thread below LK_THREADED_DIM (linalg.c says why). */
void st_blas_threads_for(int64_t dim);

/* Open and close a section in which OpenBLAS runs every call on its calling
 * thread (its pool set to 1 thread; linalg.c says why it is global), for a
 * batch shared out over our own threads.  Every begin needs its end. */
void st_blas_single_begin(void);
void st_blas_single_end(void);

/* OpenBLAS runs a product of at most this many multiply-adds on the
 * calling thread (its SMP threshold: 65536 x GEMM_MULTITHREAD_THRESHOLD 4),
 * so a batch of such products can be shared out over our own threads
 * without two thread pools competing for the cores. */
#define ST_BLAS_SMALL_WORK 262144.0

/* Products of at most this many multiply-adds (a 256 x 256 x 256 one) in
 * a batch are shared out over our threads too, one product per thread,
 * OpenBLAS held to one thread (st_blas_single_begin): at these sizes
 * OpenBLAS's own split of one product pays a synchronisation per block
 * that whole products per thread do not. */
#define ST_BLAS_BATCH_WORK 16777216.0

/* At most this many of our threads call OpenBLAS at once: each call holds
 * one of OpenBLAS's memory buffers (2 x its MAX_THREADS, 64, in all), and
 * running out of them aborts the process. */
#define ST_BLAS_MAX_CALLERS 32

static inline int st_fits_int(int64_t v) { return v >= 0 && v <= INT_MAX; }

/* dst[i, j] = src[i, j] for a rows x cols matrix of `item`-byte elements;
 * strides in elements, any sign.  Moves whole elements (4, 8 or 16 bytes),
 * so the loop stays a typed load and store. */
static inline void st_copy2d(char *dst, int64_t drs, int64_t dcs, const char *src, int64_t srs,
                             int64_t scs, int64_t rows, int64_t cols, int64_t item)
{
#define ST_COPY2D_AS(T)                                                                            \
    do {                                                                                           \
        T *d_ = (T *)dst;                                                                          \
        const T *s_ = (const T *)src;                                                              \
        for (int64_t i = 0; i < rows; i++)                                                         \
            for (int64_t j = 0; j < cols; j++) d_[i * drs + j * dcs] = s_[i * srs + j * scs];      \
    } while (0)
    switch (item) {
    case 4:
        ST_COPY2D_AS(float);
        break;
    case 8:
        ST_COPY2D_AS(double);
        break;
    case 16:
        ST_COPY2D_AS(st_c128);
        break;
    default:
        for (int64_t i = 0; i < rows; i++)
            for (int64_t j = 0; j < cols; j++)
                memcpy(dst + (i * drs + j * dcs) * item, src + (i * srs + j * scs) * item,
                       (size_t)item);
    }
#undef ST_COPY2D_AS
}

#endif
