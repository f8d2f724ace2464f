/* fft_internal.h -- what the files of the FFT share: the plan record, the
 * sizes chosen by measurement, the line descriptor, and each file's entry
 * points.  The algorithms are told at the top of fft.c.
 *
 *   fft_butterflies.c   the radix passes (Stockham) and the engine that runs a direct
 *                       plan's stages over a block of lanes, per CPU level
 *   fft_lines.c         moving lines between a tensor and a block (gather, scatter)
 *   fft_plans.c         twiddles, plans (direct, four-step, Bluestein, real), the plan
 *                       cache and the scratch pool
 *   fft.c               execution: blocks, the four-step, real transforms, the paths
 *                       over a tensor's lines, the entry points */
#ifndef FFT_INTERNAL_H
#define FFT_INTERNAL_H

#include "st_internal.h"
#include <math.h>
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#else
static inline int omp_get_thread_num(void) { return 0; }
#endif

/* Sizes chosen by measurement (docs/fft.md); none changes a result. */
#define FFT_MAX_FACTORS 64
#define FFT_SPLIT 16384          /* direct plans this long or longer: four-step */
#define FFT_L1_BYTES (32 << 10)  /* a block of lanes and its ping-pong */
#define FFT_L2_BYTES (512 << 10) /* a group of lines (four-step's t) */
#define FFT_L3_BYTES (4 << 20)   /* a block of Bluestein lanes at most */
#define FFT_MAX_LANES 64
#define FFT_FS_LANES 16   /* four-step blocks: at least this many lanes */
#define FFT_TILE 32       /* gather/scatter: rows per tile */
#define FFT_POST_TILE 512 /* the real split step of a long line: rows per tile */
#define FFT_CHUNK 16      /* generic radix: positions per chunk */
#define FFT_CACHE 16      /* plans kept */
#define FFT_CACHE_BYTES ((int64_t)256 << 20)

typedef struct fft_plan {
    int64_t n;
    int nf; /* stages (direct plans below FFT_SPLIT) */
    int fac[FFT_MAX_FACTORS];
    int64_t twoff[FFT_MAX_FACTORS];   /* stage twiddles start at tw*[twoff] */
    int64_t rootoff[FFT_MAX_FACTORS]; /* generic radix f: exp(-2 pi i t/f), t < f */
    double *twr, *twi, *rtr, *rti;
    /* four-step (direct plans of FFT_SPLIT points or more, when n splits) */
    int64_t n1, n2, tbits;
    struct fft_plan *p1, *p2;
    double *thr, *thi, *tlr, *tli; /* exp(-2 pi i (h << tbits)/n), exp(-2 pi i t/n) */
    /* Bluestein (a prime factor larger than ST_FFT_MAX_RADIX) */
    int64_t m; /* 0 for direct plans */
    struct fft_plan *pm;
    double *chr, *chi; /* exp(-pi i j^2 / n), j < n */
    double *kr, *ki;   /* DFT of the conjugate chirp, divided by m */
    /* real transforms of 2n points (packed in n complex ones): real = 1;
     * real = FFT_REAL_ODD: a plan of real-data passes for n odd (fft_real.c),
     * whose fac/nf are its radices, twr/twi at twoff[s] stage s's twiddles
     * and rtr/rti at rootoff[s] cos and sin of 2 pi t / fac[s] */
    int real;
    double *hr, *hi; /* exp(-2 pi i k / 2n), k <= n */
    /* cache */
    int64_t bytes;
    int64_t refs;
    uint64_t stamp;
} fft_plan;

#define CMUL_RE(ar, ai, br, bi) ((ar) * (br) - (ai) * (bi))
#define CMUL_IM(ar, ai, br, bi) ((ar) * (bi) + (ai) * (br))

/* ------------------------------------------------------------------ moving lines
 * Where lines live: a tensor's memory (interleaved complex or real) or a
 * split scratch.  `re`/`im` point at element 0 of line 0's parts; NULL means
 * absent: read as zeros (real input), not written (real output).  Swapping
 * re and im gives the inverse transform (see the top). */
typedef struct {
    char *re, *im;
    int f32; /* parts are float, else double */
} fft_io;

static inline fft_io io_swap(fft_io io)
{
    char *t = io.re;
    io.re = io.im;
    io.im = t;
    return io;
}

static inline fft_io io_at(fft_io io, int64_t off)
{
    if (io.re) io.re += off;
    if (io.im) io.im += off;
    return io;
}

static inline fft_io io_split(double *re, double *im)
{
    fft_io io = {(char *)re, (char *)im, 0};
    return io;
}

#define LOAD(f32, p) ((f32) ? (double)*(const float *)(p) : *(const double *)(p))

/* fft_butterflies.c: the forward transform of the n x L block (xr, xi) of a
 * direct plan through its passes, ping-ponging with (yr, yi); *rr, *ri: where
 * the result is (the running CPU level's code) */
void fft_engine(const fft_plan *pl, int64_t L, double *xr, double *xi, double *yr, double *yi,
                double **rr, double **ri);

/* fft_lines.c */
void fft_gather(double *xr, double *xi, int64_t n, int64_t L, fft_io io, int64_t es,
                const int64_t *loff, const int64_t *cnt);
void fft_scatter(fft_io io, int64_t es, const int64_t *loff, const int64_t *cnt, const double *xr,
                 const double *xi, int64_t L, double scale);
void fft_hermitian_fill(double *xr, double *xi, int64_t n, int64_t L, int swapped);

/* fft_plans.c */
fft_plan *fft_plan_get(int64_t n, int real);
void fft_plan_release(fft_plan *p);
double *fft_scratch_get(int64_t count, int64_t *bytes);
void fft_scratch_put(double *p, int64_t bytes);

/* fft_real.c: odd real lines by real-data passes */
#define FFT_REAL_ODD 2
int fft_real_odd_ok(int64_t n);
int64_t fft_real_odd_lanes(const fft_plan *p);
int64_t fft_real_odd_scratch(const fft_plan *p, int64_t G);
void fft_real_odd_group(const fft_plan *p, int c2r, int sign, fft_io src, int64_t ses, int64_t scnt,
                        fft_io dst, int64_t des, int64_t dcnt, double scale, int64_t G,
                        const int64_t *oin, const int64_t *oout, double *s);

/* fft.c */
st_status fft_transform_line_split(const fft_plan *p, double *xr, double *xi);

#endif
