/* bandwidth.c -- the machine's memory bandwidth, measured by our own C:
 * STREAM's copy (a = b) and triad (a = b + s * c) over float64 on the
 * kernels' threads (st_get_num_threads), each thread on one contiguous
 * part, with normal or streaming stores (the way the elementwise kernels
 * store, ST_STREAMED).  benchmarks/roofline.py times them and reports each
 * memory-bound case as a share of the best rate. */
#include "st_internal.h"
#include <omp.h>

#define DEF_STREAM_ISA(ISA, ATTR, ...)                                                             \
    ATTR static void copy_part##ISA(double *a, const double *b, int64_t n, void *extra)            \
    {                                                                                              \
        ST_STREAMED(double, a, n, extra, b[i]);                                                    \
    }                                                                                              \
    ATTR static void triad_part##ISA(double *a, const double *b, const double *c, double s,        \
                                     int64_t n, void *extra)                                       \
    {                                                                                              \
        ST_STREAMED(double, a, n, extra, b[i] + s * c[i]);                                         \
    }
ST_LEVELS(DEF_STREAM_ISA, )

/* [lo, hi) of thread t of k over n elements, edges on 64-byte lines */
static void part(int64_t n, int t, int k, int64_t *lo, int64_t *hi)
{
    *lo = (n * t / k) & ~(int64_t)7;
    *hi = t == k - 1 ? n : (n * (t + 1) / k) & ~(int64_t)7;
}

void st_stream_copy(double *a, const double *b, int64_t n, int nontemporal)
{
    void *extra = nontemporal ? ST_STREAM : NULL;
    const int nt = st_threads_forked() ? 1 : st_get_num_threads();
#pragma omp parallel num_threads(nt)
    {
        int64_t lo, hi;
        part(n, omp_get_thread_num(), omp_get_num_threads(), &lo, &hi);
        ST_PICK(copy_part)(a + lo, b + lo, hi - lo, extra);
        if (nontemporal) ST_SFENCE();
    }
}

void st_stream_triad(double *a, const double *b, const double *c, double s, int64_t n,
                     int nontemporal)
{
    void *extra = nontemporal ? ST_STREAM : NULL;
    const int nt = st_threads_forked() ? 1 : st_get_num_threads();
#pragma omp parallel num_threads(nt)
    {
        int64_t lo, hi;
        part(n, omp_get_thread_num(), omp_get_num_threads(), &lo, &hi);
        ST_PICK(triad_part)(a + lo, b + lo, c + lo, s, hi - lo, extra);
        if (nontemporal) ST_SFENCE();
    }
}
