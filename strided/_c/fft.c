/* fft.c -- discrete Fourier transforms along one dim of a strided tensor.
 *
 * Our own code; the algorithms are the textbook ones: Stockham's
 * self-sorting passes (decimation in frequency), the four-step split of a
 * long transform into two sets of short ones (Gentleman-Sande, Bailey),
 * Bluestein's chirp-z transform for lengths with a large prime factor.
 *
 * Precision.  Everything computes in float64, whatever the dtype:
 * complex64/float32 lines are widened on the way in and rounded once on the
 * way out, so a float32 transform is as good as float32 can hold.  Twiddles
 * are computed directly, exp(-2 pi i a / n) with the angle reduced to the
 * first octant by symmetry (exact integer arithmetic) and evaluated in long
 * double, never by recurrence: each is within an ulp, and the transform's
 * error grows like eps * log n.
 *
 * Layout.  A block of L lines of length n is gathered from the tensor into
 * two scratch arrays (real parts, imaginary parts) of n x L doubles,
 * element j of line l at [j*L + l].  A butterfly then works on L lanes with
 * plain vector arithmetic (no shuffles): the lane loops are what the
 * compiler vectorises (compiled per CPU level: ST_LEVELS, st_internal.h).
 *
 * One direction.  Only the forward transform, exp(-2 pi i jk/n), exists;
 * the inverse is the forward transform of the input with real and
 * imaginary parts exchanged, exchanged back on the way out
 * (swap(x) = i conj(x), and DFT(i conj(x)) = i conj(IDFT(x))).  The
 * exchange swaps two pointers (`fft_io`), so it costs nothing.
 *
 * Passes.  A plan factors n into radices (8s, then a 4 or two or a 2, then
 * 3, 5 and odd primes up to ST_FFT_MAX_RADIX).  Stage t with current length
 * nt, radix f, m = nt/f and run = L * (product of earlier radices) reads
 * x[run*(p + r*m) + i] (r < f) and writes y[run*(f*p + k) + i] (k < f) =
 * (radix-f DFT of the x's)_k * exp(-2 pi i p k / nt), for p < m and i < run:
 * i runs over contiguous memory, the twiddle is constant along it, and the
 * output comes out in natural order with no bit reversal.
 *
 * Plans.  Below FFT_SPLIT points a direct plan has stages (above).  From
 * FFT_SPLIT on it is split n = n1 n2 (four-step): n2 transforms of length
 * n1 down the columns of the n1 x n2 matrix view of a line, a twiddle,
 * n1 transforms of length n2 along the rows, each set in blocks of lanes;
 * the result lands in natural order without a transpose pass.  A length
 * with a prime factor above ST_FFT_MAX_RADIX goes through Bluestein:
 * X_k = w_k sum_j (x_j w_j) conj(w_(k-j)), w_j = exp(-pi i j^2 / n), a
 * circular convolution of length m >= 2n - 1 (m 5-smooth) done by two FFTs
 * of length m and a product with the cached spectrum of the chirp.
 *
 * Paths (run_job).  Lines whose working set fits FFT_L2_BYTES go in groups
 * (lanes of one block for stage and Bluestein plans; several lines through
 * one four-step for split plans), groups shared among threads, each with
 * its own scratch; the grouping depends on n alone, so results do not
 * depend on the thread count.  Longer lines go one at a time with the
 * threads sharing each one (the four-step's column and row blocks).
 *
 * Real transforms: see the section "real transforms" (an even length is
 * done by a complex transform of half the length). */
#include "st_internal.h"
#include <math.h>
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
#endif

/* Sizes chosen by measurement (docs/fft.md); none changes a result. */
#define FFT_MAX_FACTORS 64
#define FFT_SPLIT 16384        /* direct plans this long or longer: four-step */
#define FFT_L1_BYTES (32 << 10)       /* a block of lanes and its ping-pong */
#define FFT_L2_BYTES (512 << 10)      /* a group of lines (four-step's t) */
#define FFT_L3_BYTES (4 << 20)        /* a block of Bluestein lanes at most */
#define FFT_MAX_LANES 64
#define FFT_FS_LANES 16        /* four-step blocks: at least this many lanes */
#define FFT_TILE 32            /* gather/scatter: rows per tile */
#define FFT_POST_TILE 512      /* the real split step of a long line: rows per tile */
#define FFT_CHUNK 16           /* generic radix: positions per chunk */
#define FFT_CACHE 16           /* plans kept */
#define FFT_CACHE_BYTES ((int64_t)256 << 20)

typedef struct fft_plan {
    int64_t n;
    int nf;                              /* stages (direct plans below FFT_SPLIT) */
    int fac[FFT_MAX_FACTORS];
    int64_t twoff[FFT_MAX_FACTORS];      /* stage twiddles start at tw*[twoff] */
    int64_t rootoff[FFT_MAX_FACTORS];    /* generic radix f: exp(-2 pi i t/f), t < f */
    double *twr, *twi, *rtr, *rti;
    /* four-step (direct plans of FFT_SPLIT points or more, when n splits) */
    int64_t n1, n2, tbits;
    struct fft_plan *p1, *p2;
    double *thr, *thi, *tlr, *tli;       /* exp(-2 pi i (h << tbits)/n), exp(-2 pi i t/n) */
    /* Bluestein (a prime factor larger than ST_FFT_MAX_RADIX) */
    int64_t m;                           /* 0 for direct plans */
    struct fft_plan *pm;
    double *chr, *chi;                   /* exp(-pi i j^2 / n), j < n */
    double *kr, *ki;                     /* DFT of the conjugate chirp, divided by m */
    /* real transforms of 2n points (packed in n complex ones) */
    int real;
    double *hr, *hi;                     /* exp(-2 pi i k / 2n), k <= n */
    /* cache */
    int64_t bytes;
    int64_t refs;
    uint64_t stamp;
} fft_plan;

/* ------------------------------------------------------------------ twiddles */

/* exp(-2 pi i a / n) for 0 <= a < n (n < 2^60).  The angle is reduced with
 * integers to [0, pi/4] (the symmetries of cos and sin), then evaluated in
 * long double: within an ulp of the exact value, for any n. */
static void twiddle(int64_t a, int64_t n, double *re, double *im)
{
    int64_t num = 8 * (a % n), den = 8 * n;   /* angle = 2 pi num / den */
    int neg_s = 0, neg_c = 0, swap = 0;
    if (num > den / 2) { num = den - num; neg_s = 1; }      /* 2 pi - t */
    if (num > den / 4) { num = den / 2 - num; neg_c = 1; }  /* pi - t */
    if (num > den / 8) { num = den / 4 - num; swap = 1; }   /* pi/2 - t */
    long double t = 6.283185307179586476925286766559L * (long double)num / (long double)den;
    double c = (double)cosl(t), s = (double)sinl(t);
    if (swap) { double u = c; c = s; s = u; }
    if (neg_c) c = -c;
    if (neg_s) s = -s;
    *re = c;
    *im = -s;
}

/* ------------------------------------------------------------------ passes
 * x -> y for one stage; see the comment at the top for the indices.  Each
 * pass has a loop without twiddles for p = 0 (all of the last stage). */

/* The inner loops of the passes read and write distinct arrays (x and y,
 * and within y the k outputs of a butterfly are distinct rows), but GCC
 * loses `restrict` on pointers derived inside the outer loop and gives up
 * on runtime alias checks past 10 streams: without this a pass is scalar. */
#define FFT_IVDEP _Pragma("GCC ivdep")

#define CMUL_RE(ar, ai, br, bi) ((ar) * (br) - (ai) * (bi))
#define CMUL_IM(ar, ai, br, bi) ((ar) * (bi) + (ai) * (br))

ST_LEVEL_BODY void pass2(int64_t m, int64_t run, const double *twr, const double *twi,
                          const double *restrict xr, const double *restrict xi,
                          double *restrict yr, double *restrict yi)
{
    const int64_t d = run * m;
    for (int64_t p = 0; p < m; p++) {
        const double *ar = xr + run * p, *ai = xi + run * p;
        double *br = yr + 2 * run * p, *bi = yi + 2 * run * p;
        if (p == 0) {
            FFT_IVDEP
            for (int64_t i = 0; i < run; i++) {
                double a0r = ar[i], a0i = ai[i], a1r = ar[i + d], a1i = ai[i + d];
                br[i] = a0r + a1r;
                bi[i] = a0i + a1i;
                br[i + run] = a0r - a1r;
                bi[i + run] = a0i - a1i;
            }
            continue;
        }
        const double wr = twr[p], wi = twi[p];
        FFT_IVDEP
        for (int64_t i = 0; i < run; i++) {
            double a0r = ar[i], a0i = ai[i], a1r = ar[i + d], a1i = ai[i + d];
            double dr = a0r - a1r, di = a0i - a1i;
            br[i] = a0r + a1r;
            bi[i] = a0i + a1i;
            br[i + run] = CMUL_RE(dr, di, wr, wi);
            bi[i + run] = CMUL_IM(dr, di, wr, wi);
        }
    }
}

/* Stores of output k of a butterfly at position i: plain (p = 0) or times
 * the stage twiddle w_k (locals w<k>r, w<k>i loaded before the loop). */
#define ST_PLAIN(k, vr, vi)                                                          \
    do {                                                                             \
        br[i + (k) * run] = (vr);                                                    \
        bi[i + (k) * run] = (vi);                                                    \
    } while (0)
#define ST_TW(k, vr, vi)                                                             \
    do {                                                                             \
        const double vr_ = (vr), vi_ = (vi);                                         \
        br[i + (k) * run] = CMUL_RE(vr_, vi_, w##k##r, w##k##i);                     \
        bi[i + (k) * run] = CMUL_IM(vr_, vi_, w##k##r, w##k##i);                     \
    } while (0)
#define LOAD_TW(k) const double w##k##r = wr[(k) - 1], w##k##i = wi[(k) - 1]

#define PASS3_LOOP(STORE)                                                            \
    FFT_IVDEP                                                                        \
    for (int64_t i = 0; i < run; i++) {                                              \
        double a0r = ar[i], a0i = ai[i];                                             \
        double t1r = ar[i + d] + ar[i + 2 * d], t1i = ai[i + d] + ai[i + 2 * d];     \
        double t3r = h * (ar[i + d] - ar[i + 2 * d]), t3i = h * (ai[i + d] - ai[i + 2 * d]); \
        double t2r = a0r - 0.5 * t1r, t2i = a0i - 0.5 * t1i;                         \
        br[i] = a0r + t1r;                                                           \
        bi[i] = a0i + t1i;                                                           \
        STORE(1, t2r + t3i, t2i - t3r);       /* t2 - i t3 */                        \
        STORE(2, t2r - t3i, t2i + t3r);       /* t2 + i t3 */                        \
    }

ST_LEVEL_BODY void pass3(int64_t m, int64_t run, const double *twr, const double *twi,
                          const double *restrict xr, const double *restrict xi,
                          double *restrict yr, double *restrict yi)
{
    const double h = 0.86602540378443864676;   /* sin(2 pi / 3) */
    const int64_t d = run * m;
    for (int64_t p = 0; p < m; p++) {
        const double *ar = xr + run * p, *ai = xi + run * p;
        double *br = yr + 3 * run * p, *bi = yi + 3 * run * p;
        const double *wr = twr + 2 * p, *wi = twi + 2 * p;
        if (p == 0) {
            PASS3_LOOP(ST_PLAIN)
        } else {
            LOAD_TW(1);
            LOAD_TW(2);
            PASS3_LOOP(ST_TW)
        }
    }
}

ST_LEVEL_BODY void pass4(int64_t m, int64_t run, const double *twr, const double *twi,
                          const double *restrict xr, const double *restrict xi,
                          double *restrict yr, double *restrict yi)
{
    const int64_t d = run * m;
    for (int64_t p = 0; p < m; p++) {
        const double *ar = xr + run * p, *ai = xi + run * p;
        double *br = yr + 4 * run * p, *bi = yi + 4 * run * p;
        if (p == 0) {
            FFT_IVDEP
            for (int64_t i = 0; i < run; i++) {
                double t0r = ar[i] + ar[i + 2 * d], t0i = ai[i] + ai[i + 2 * d];
                double t1r = ar[i] - ar[i + 2 * d], t1i = ai[i] - ai[i + 2 * d];
                double t2r = ar[i + d] + ar[i + 3 * d], t2i = ai[i + d] + ai[i + 3 * d];
                /* t3 = -i (a1 - a3) */
                double t3r = ai[i + d] - ai[i + 3 * d], t3i = ar[i + 3 * d] - ar[i + d];
                br[i] = t0r + t2r;
                bi[i] = t0i + t2i;
                br[i + run] = t1r + t3r;
                bi[i + run] = t1i + t3i;
                br[i + 2 * run] = t0r - t2r;
                bi[i + 2 * run] = t0i - t2i;
                br[i + 3 * run] = t1r - t3r;
                bi[i + 3 * run] = t1i - t3i;
            }
            continue;
        }
        const double w1r = twr[3 * p], w1i = twi[3 * p], w2r = twr[3 * p + 1],
                     w2i = twi[3 * p + 1], w3r = twr[3 * p + 2], w3i = twi[3 * p + 2];
        FFT_IVDEP
        for (int64_t i = 0; i < run; i++) {
            double t0r = ar[i] + ar[i + 2 * d], t0i = ai[i] + ai[i + 2 * d];
            double t1r = ar[i] - ar[i + 2 * d], t1i = ai[i] - ai[i + 2 * d];
            double t2r = ar[i + d] + ar[i + 3 * d], t2i = ai[i + d] + ai[i + 3 * d];
            double t3r = ai[i + d] - ai[i + 3 * d], t3i = ar[i + 3 * d] - ar[i + d];
            double b1r = t1r + t3r, b1i = t1i + t3i;
            double b2r = t0r - t2r, b2i = t0i - t2i;
            double b3r = t1r - t3r, b3i = t1i - t3i;
            br[i] = t0r + t2r;
            bi[i] = t0i + t2i;
            br[i + run] = CMUL_RE(b1r, b1i, w1r, w1i);
            bi[i + run] = CMUL_IM(b1r, b1i, w1r, w1i);
            br[i + 2 * run] = CMUL_RE(b2r, b2i, w2r, w2i);
            bi[i + 2 * run] = CMUL_IM(b2r, b2i, w2r, w2i);
            br[i + 3 * run] = CMUL_RE(b3r, b3i, w3r, w3i);
            bi[i + 3 * run] = CMUL_IM(b3r, b3i, w3r, w3i);
        }
    }
}

#define PASS5_LOOP(STORE)                                                            \
    FFT_IVDEP                                                                        \
    for (int64_t i = 0; i < run; i++) {                                              \
        double a0r = ar[i], a0i = ai[i];                                             \
        double t1r = ar[i + d] + ar[i + 4 * d], t1i = ai[i + d] + ai[i + 4 * d];     \
        double t2r = ar[i + 2 * d] + ar[i + 3 * d], t2i = ai[i + 2 * d] + ai[i + 3 * d]; \
        double t3r = ar[i + d] - ar[i + 4 * d], t3i = ai[i + d] - ai[i + 4 * d];     \
        double t4r = ar[i + 2 * d] - ar[i + 3 * d], t4i = ai[i + 2 * d] - ai[i + 3 * d]; \
        double m1r = a0r + c1 * t1r + c2 * t2r, m1i = a0i + c1 * t1i + c2 * t2i;      \
        double m2r = a0r + c2 * t1r + c1 * t2r, m2i = a0i + c2 * t1i + c1 * t2i;      \
        double n1r = s1 * t3r + s2 * t4r, n1i = s1 * t3i + s2 * t4i;                  \
        double n2r = s2 * t3r - s1 * t4r, n2i = s2 * t3i - s1 * t4i;                  \
        br[i] = a0r + t1r + t2r;                                                     \
        bi[i] = a0i + t1i + t2i;                                                     \
        /* b1 = m1 - i n1, b4 = m1 + i n1, b2 = m2 - i n2, b3 = m2 + i n2 */          \
        STORE(1, m1r + n1i, m1i - n1r);                                              \
        STORE(2, m2r + n2i, m2i - n2r);                                              \
        STORE(3, m2r - n2i, m2i + n2r);                                              \
        STORE(4, m1r - n1i, m1i + n1r);                                              \
    }

ST_LEVEL_BODY void pass5(int64_t m, int64_t run, const double *twr, const double *twi,
                          const double *restrict xr, const double *restrict xi,
                          double *restrict yr, double *restrict yi)
{
    const double c1 = 0.30901699437494742410, c2 = -0.80901699437494742410;  /* cos 2pi/5, 4pi/5 */
    const double s1 = 0.95105651629515357212, s2 = 0.58778525229247312917;   /* sin 2pi/5, 4pi/5 */
    const int64_t d = run * m;
    for (int64_t p = 0; p < m; p++) {
        const double *ar = xr + run * p, *ai = xi + run * p;
        double *br = yr + 5 * run * p, *bi = yi + 5 * run * p;
        const double *wr = twr + 4 * p, *wi = twi + 4 * p;
        if (p == 0) {
            PASS5_LOOP(ST_PLAIN)
        } else {
            LOAD_TW(1);
            LOAD_TW(2);
            LOAD_TW(3);
            LOAD_TW(4);
            PASS5_LOOP(ST_TW)
        }
    }
}

/* Radix 8 as a radix-2 step (with exp(-2 pi i r/8) on the differences)
 * and two radix-4 DFTs: b_(2k) = DFT4(a_r + a_(r+4)), b_(2k+1) =
 * DFT4((a_r - a_(r+4)) w8^r).  Fewer passes over the block than radix 4. */
#define DFT4(c0r, c0i, c1r, c1i, c2r, c2i, c3r, c3i, d0r, d0i, d1r, d1i, d2r, d2i, d3r, d3i) \
    do {                                                                             \
        double s02r = c0r + c2r, s02i = c0i + c2i, d02r = c0r - c2r, d02i = c0i - c2i; \
        double s13r = c1r + c3r, s13i = c1i + c3i, d13r = c1r - c3r, d13i = c1i - c3i; \
        d0r = s02r + s13r; d0i = s02i + s13i;                                        \
        d2r = s02r - s13r; d2i = s02i - s13i;                                        \
        d1r = d02r + d13i; d1i = d02i - d13r;   /* d02 - i d13 */                    \
        d3r = d02r - d13i; d3i = d02i + d13r;   /* d02 + i d13 */                    \
    } while (0)

#define PASS8_LOOP(STORE)                                                            \
    FFT_IVDEP                                                                        \
    for (int64_t i = 0; i < run; i++) {                                              \
        double u0r = ar[i] + ar[i + 4 * d], u0i = ai[i] + ai[i + 4 * d];             \
        double v0r = ar[i] - ar[i + 4 * d], v0i = ai[i] - ai[i + 4 * d];             \
        double u1r = ar[i + d] + ar[i + 5 * d], u1i = ai[i + d] + ai[i + 5 * d];     \
        double e1r = ar[i + d] - ar[i + 5 * d], e1i = ai[i + d] - ai[i + 5 * d];     \
        double u2r = ar[i + 2 * d] + ar[i + 6 * d], u2i = ai[i + 2 * d] + ai[i + 6 * d]; \
        double e2r = ar[i + 2 * d] - ar[i + 6 * d], e2i = ai[i + 2 * d] - ai[i + 6 * d]; \
        double u3r = ar[i + 3 * d] + ar[i + 7 * d], u3i = ai[i + 3 * d] + ai[i + 7 * d]; \
        double e3r = ar[i + 3 * d] - ar[i + 7 * d], e3i = ai[i + 3 * d] - ai[i + 7 * d]; \
        /* v1 = e1 (1 - i)/sqrt2, v2 = -i e2, v3 = e3 (-1 - i)/sqrt2 */               \
        double v1r = h * (e1r + e1i), v1i = h * (e1i - e1r);                         \
        double v2r = e2i, v2i = -e2r;                                                \
        double v3r = h * (e3i - e3r), v3i = -h * (e3r + e3i);                        \
        double b0r, b0i, b1r, b1i, b2r, b2i, b3r, b3i, b4r, b4i, b5r, b5i, b6r, b6i, b7r, b7i; \
        DFT4(u0r, u0i, u1r, u1i, u2r, u2i, u3r, u3i, b0r, b0i, b2r, b2i, b4r, b4i, b6r, b6i); \
        DFT4(v0r, v0i, v1r, v1i, v2r, v2i, v3r, v3i, b1r, b1i, b3r, b3i, b5r, b5i, b7r, b7i); \
        br[i] = b0r;                                                                 \
        bi[i] = b0i;                                                                 \
        STORE(1, b1r, b1i);                                                          \
        STORE(2, b2r, b2i);                                                          \
        STORE(3, b3r, b3i);                                                          \
        STORE(4, b4r, b4i);                                                          \
        STORE(5, b5r, b5i);                                                          \
        STORE(6, b6r, b6i);                                                          \
        STORE(7, b7r, b7i);                                                          \
    }

ST_LEVEL_BODY void pass8(int64_t m, int64_t run, const double *twr, const double *twi,
                          const double *restrict xr, const double *restrict xi,
                          double *restrict yr, double *restrict yi)
{
    const double h = 0.70710678118654752440;
    const int64_t d = run * m;
    for (int64_t p = 0; p < m; p++) {
        const double *ar = xr + run * p, *ai = xi + run * p;
        double *br = yr + 8 * run * p, *bi = yi + 8 * run * p;
        const double *wr = twr + 7 * p, *wi = twi + 7 * p;
        if (p == 0) {
            PASS8_LOOP(ST_PLAIN)
        } else {
            LOAD_TW(1);
            LOAD_TW(2);
            LOAD_TW(3);
            LOAD_TW(4);
            LOAD_TW(5);
            LOAD_TW(6);
            LOAD_TW(7);
            PASS8_LOOP(ST_TW)
        }
    }
}

/* Any odd radix f (7 .. ST_FFT_MAX_RADIX): O(f^2) per f outputs, using the
 * symmetric sums and differences a_r +- a_(f-r), which halve the work.  Runs
 * go in chunks of FFT_CHUNK positions so the sums fit on the stack. */
ST_LEVEL_BODY void passg(int f, int64_t m, int64_t run, const double *twr, const double *twi,
                          const double *rtr, const double *rti,
                          const double *restrict xr, const double *restrict xi,
                          double *restrict yr, double *restrict yi)
{
    const int h = (f - 1) / 2;
    const int64_t d = run * m;
    double spr[(ST_FFT_MAX_RADIX - 1) / 2][FFT_CHUNK], spi[(ST_FFT_MAX_RADIX - 1) / 2][FFT_CHUNK];
    double smr[(ST_FFT_MAX_RADIX - 1) / 2][FFT_CHUNK], smi[(ST_FFT_MAX_RADIX - 1) / 2][FFT_CHUNK];
    for (int64_t p = 0; p < m; p++) {
        const double *ar = xr + run * p, *ai = xi + run * p;
        double *br = yr + (int64_t)f * run * p, *bi = yi + (int64_t)f * run * p;
        const double *wr = twr + (int64_t)(f - 1) * p, *wi = twi + (int64_t)(f - 1) * p;
        for (int64_t i0 = 0; i0 < run; i0 += FFT_CHUNK) {
            const int c = run - i0 < FFT_CHUNK ? (int)(run - i0) : FFT_CHUNK;
            double s0r[FFT_CHUNK], s0i[FFT_CHUNK];
            FFT_IVDEP
            for (int i = 0; i < c; i++) {
                s0r[i] = ar[i0 + i];
                s0i[i] = ai[i0 + i];
            }
            for (int r = 1; r <= h; r++) {
                const double *ur = ar + i0 + r * d, *ui = ai + i0 + r * d;
                const double *vr = ar + i0 + (f - r) * d, *vi = ai + i0 + (f - r) * d;
                FFT_IVDEP
                for (int i = 0; i < c; i++) {
                    spr[r - 1][i] = ur[i] + vr[i];
                    spi[r - 1][i] = ui[i] + vi[i];
                    smr[r - 1][i] = ur[i] - vr[i];
                    smi[r - 1][i] = ui[i] - vi[i];
                    s0r[i] += spr[r - 1][i];
                    s0i[i] += spi[r - 1][i];
                }
            }
            FFT_IVDEP
            for (int i = 0; i < c; i++) {
                br[i0 + i] = s0r[i];
                bi[i0 + i] = s0i[i];
            }
            for (int k = 1; k <= h; k++) {
                double accr[FFT_CHUNK], acci[FFT_CHUNK], bsr[FFT_CHUNK], bsi[FFT_CHUNK];
                FFT_IVDEP
                for (int i = 0; i < c; i++) {
                    accr[i] = ar[i0 + i];
                    acci[i] = ai[i0 + i];
                    bsr[i] = 0.0;
                    bsi[i] = 0.0;
                }
                for (int r = 1; r <= h; r++) {
                    const int t = (int)(((int64_t)r * k) % f);
                    const double cr = rtr[t], sn = -rti[t];   /* cos, sin of 2 pi rk/f */
                    FFT_IVDEP
                    for (int i = 0; i < c; i++) {
                        accr[i] += cr * spr[r - 1][i];
                        acci[i] += cr * spi[r - 1][i];
                        bsr[i] += sn * smr[r - 1][i];
                        bsi[i] += sn * smi[r - 1][i];
                    }
                }
                /* b_k = acc - i bs, b_(f-k) = acc + i bs */
                double *bkr = br + i0 + k * run, *bki = bi + i0 + k * run;
                double *bmr = br + i0 + (f - k) * run, *bmi = bi + i0 + (f - k) * run;
                if (p == 0) {
                    FFT_IVDEP
                    for (int i = 0; i < c; i++) {
                        bkr[i] = accr[i] + bsi[i];
                        bki[i] = acci[i] - bsr[i];
                        bmr[i] = accr[i] - bsi[i];
                        bmi[i] = acci[i] + bsr[i];
                    }
                } else {
                    const double wkr = wr[k - 1], wki = wi[k - 1];
                    const double wmr = wr[f - k - 1], wmi = wi[f - k - 1];
                    FFT_IVDEP
                    for (int i = 0; i < c; i++) {
                        double ur = accr[i] + bsi[i], ui = acci[i] - bsr[i];
                        double vr = accr[i] - bsi[i], vi = acci[i] + bsr[i];
                        bkr[i] = CMUL_RE(ur, ui, wkr, wki);
                        bki[i] = CMUL_IM(ur, ui, wkr, wki);
                        bmr[i] = CMUL_RE(vr, vi, wmr, wmi);
                        bmi[i] = CMUL_IM(vr, vi, wmr, wmi);
                    }
                }
            }
        }
    }
}

/* The forward transform of the n x L block (xr, xi) of a direct plan, through
 * its passes, ping-ponging with (yr, yi).  *rr, *ri: where the result is. */
ST_LEVEL_BODY void engine(const fft_plan *pl, int64_t L, double *xr, double *xi, double *yr,
                          double *yi, double **rr, double **ri)
{
    int64_t nt = pl->n, run = L;
    double *ar = xr, *ai = xi, *br = yr, *bi = yi;
    for (int s = 0; s < pl->nf; s++) {
        const int f = pl->fac[s];
        const int64_t m = nt / f;
        const double *twr = pl->twr + pl->twoff[s], *twi = pl->twi + pl->twoff[s];
        switch (f) {
        case 2: pass2(m, run, twr, twi, ar, ai, br, bi); break;
        case 3: pass3(m, run, twr, twi, ar, ai, br, bi); break;
        case 4: pass4(m, run, twr, twi, ar, ai, br, bi); break;
        case 5: pass5(m, run, twr, twi, ar, ai, br, bi); break;
        case 8: pass8(m, run, twr, twi, ar, ai, br, bi); break;
        default:
            passg(f, m, run, twr, twi, pl->rtr + pl->rootoff[s], pl->rti + pl->rootoff[s],
                  ar, ai, br, bi);
        }
        double *t = ar; ar = br; br = t;
        t = ai; ai = bi; bi = t;
        run *= f;
        nt = m;
    }
    *rr = ar;
    *ri = ai;
}
/* engine_v4, _v3, _v0: the passes inlined, compiled for each CPU level */
ST_LEVEL_FN(engine, (const fft_plan *pl, int64_t L, double *xr, double *xi, double *yr,
                     double *yi, double **rr, double **ri), (pl, L, xr, xi, yr, yi, rr, ri))

/* ------------------------------------------------------------------ moving lines
 * Where lines live: a tensor's memory (interleaved complex or real) or a
 * split scratch.  `re`/`im` point at element 0 of line 0's parts; NULL means
 * absent: read as zeros (real input), not written (real output).  Swapping
 * re and im gives the inverse transform (see the top). */
typedef struct {
    char *re, *im;
    int f32;                 /* parts are float, else double */
} fft_io;

static fft_io io_swap(fft_io io)
{
    char *t = io.re;
    io.re = io.im;
    io.im = t;
    return io;
}

static fft_io io_at(fft_io io, int64_t off)
{
    if (io.re) io.re += off;
    if (io.im) io.im += off;
    return io;
}

static fft_io io_split(double *re, double *im)
{
    fft_io io = {(char *)re, (char *)im, 0};
    return io;
}

/* Lanes l0 .. (returned end) whose starts are equally spaced by a step
 * (*ls) smaller than the element step: the columns of a matrix, lines along
 * a non-last axis.  Those are moved row by row (element j of every lane of
 * the run: one contiguous stretch of memory); other lanes lane by lane (each
 * contiguous when lines lie along the last axis), in tiles of FFT_TILE rows
 * so that the block's rows stay in L1 while the lanes pass over them. */
static int64_t lane_run(const int64_t *loff, int64_t l0, int64_t L, int64_t es, int64_t *ls)
{
    *ls = 0;
    if (l0 + 1 >= L) return l0 + 1;
    const int64_t step = loff[l0 + 1] - loff[l0];
    if (step == 0 || llabs(step) >= llabs(es)) return l0 + 1;
    int64_t l1 = l0 + 2;
    while (l1 < L && loff[l1] - loff[l1 - 1] == step) l1++;
    if (l1 - l0 < 4) return l0 + 1;
    *ls = step;
    return l1;
}

static int starts_run(const int64_t *loff, int64_t l, int64_t L, int64_t es)
{
    int64_t ls;
    lane_run(loff, l, L, es, &ls);
    return ls != 0;
}

#define LOAD(f32, p) ((f32) ? (double)*(const float *)(p) : *(const double *)(p))

/* rows: x[j*L + l] for the lanes of one run (src at lane 0 of the run) */
#define ROWS_IN(T)                                                                   \
    for (int64_t j = 0; j < full; j++) {                                             \
        double *ar = xr + j * L, *ai = xi + j * L;                                   \
        const char *r = re ? re + j * es : NULL, *i = im ? im + j * es : NULL;       \
        if (r && i) {                                                                \
            for (int64_t l = 0; l < w; l++) {                                        \
                ar[l] = *(const T *)(r + l * ls);                                    \
                ai[l] = *(const T *)(i + l * ls);                                    \
            }                                                                        \
        } else {                                                                     \
            for (int64_t l = 0; l < w; l++) {                                        \
                ar[l] = r ? *(const T *)(r + l * ls) : 0.0;                          \
                ai[l] = i ? *(const T *)(i + l * ls) : 0.0;                          \
            }                                                                        \
        }                                                                            \
    }

static void gather_rows(double *xr, double *xi, int64_t n, int64_t L, int64_t w, fft_io io,
                        int64_t es, const int64_t *loff, const int64_t *cnt, int64_t ls)
{
    int64_t full = n;
    for (int64_t l = 0; l < w; l++) full = cnt[l] < full ? cnt[l] : full;
    const char *re = io.re ? io.re + loff[0] : NULL, *im = io.im ? io.im + loff[0] : NULL;
    const int64_t tsz = io.f32 ? (int64_t)sizeof(float) : (int64_t)sizeof(double);
    if (re && im && ls == 2 * tsz && (im == re + tsz || re == im + tsz)) {
        /* consecutive complex elements (parts exchanged or not): a
         * vectorisable de-interleave */
        const char *base = re < im ? re : im;
        double *x0 = re < im ? xr : xi, *x1 = re < im ? xi : xr;
        if (io.f32)
            for (int64_t j = 0; j < full; j++) {
                const float *src = (const float *)(base + j * es);
                double *a0 = x0 + j * L, *a1 = x1 + j * L;
                for (int64_t l = 0; l < w; l++) {
                    a0[l] = src[2 * l];
                    a1[l] = src[2 * l + 1];
                }
            }
        else
            for (int64_t j = 0; j < full; j++) {
                const double *src = (const double *)(base + j * es);
                double *a0 = x0 + j * L, *a1 = x1 + j * L;
                for (int64_t l = 0; l < w; l++) {
                    a0[l] = src[2 * l];
                    a1[l] = src[2 * l + 1];
                }
            }
    } else if (!io.f32 && ls == (int64_t)sizeof(double)) {
        /* split parts, consecutive lanes (a scratch line): plain copies */
        for (int64_t j = 0; j < full; j++) {
            const double *r = re ? (const double *)(re + j * es) : NULL;
            const double *i = im ? (const double *)(im + j * es) : NULL;
            double *ar = xr + j * L, *ai = xi + j * L;
            for (int64_t l = 0; l < w; l++) {
                ar[l] = r ? r[l] : 0.0;
                ai[l] = i ? i[l] : 0.0;
            }
        }
    } else if (io.f32) {
        ROWS_IN(float)
    } else {
        ROWS_IN(double)
    }
    for (int64_t l = 0; l < w; l++)        /* ragged ends */
        for (int64_t j = full; j < n; j++) {
            const int64_t o = loff[l] + j * es;
            const int in = j < cnt[l];
            xr[j * L + l] = in && io.re ? LOAD(io.f32, io.re + o) : 0.0;
            xi[j * L + l] = in && io.im ? LOAD(io.f32, io.im + o) : 0.0;
        }
}

#define LANE_IN(T)                                                                   \
    if (re && im)                                                                    \
        for (; j < c; j++) {                                                         \
            ar[j * L] = *(const T *)(re + j * es);                                   \
            ai[j * L] = *(const T *)(im + j * es);                                   \
        }                                                                            \
    else if (re || im) {                                                             \
        const char *src = re ? re : im;                                              \
        double *a = re ? ar : ai, *z = re ? ai : ar;                                 \
        for (; j < c; j++) {                                                         \
            a[j * L] = *(const T *)(src + j * es);                                   \
            z[j * L] = 0.0;                                                          \
        }                                                                            \
    }

static void gather_lanes(double *xr, double *xi, int64_t n, int64_t L, int64_t w, fft_io io,
                         int64_t es, const int64_t *loff, const int64_t *cnt)
{
    for (int64_t j0 = 0; j0 < n; j0 += FFT_TILE) {
        const int64_t j1 = n - j0 < FFT_TILE ? n : j0 + FFT_TILE;
        for (int64_t l = 0; l < w; l++) {
            const char *re = io.re ? io.re + loff[l] : NULL, *im = io.im ? io.im + loff[l] : NULL;
            double *ar = xr + l, *ai = xi + l;
            const int64_t c = cnt[l] < j1 ? (cnt[l] > j0 ? cnt[l] : j0) : j1;
            int64_t j = j0;
            if (io.f32) {
                LANE_IN(float)
            } else {
                LANE_IN(double)
            }
            for (; j < j1; j++) ar[j * L] = ai[j * L] = 0.0;
        }
    }
}

/* The block X[j*L + l] = element j of lane l (at loff[l] + j*es bytes from
 * io's parts) for j < cnt[l], zeros for cnt[l] <= j < n. */
static void gather(double *xr, double *xi, int64_t n, int64_t L, fft_io io, int64_t es,
                   const int64_t *loff, const int64_t *cnt)
{
    for (int64_t l0 = 0, l1, ls; l0 < L; l0 = l1) {
        l1 = lane_run(loff, l0, L, es, &ls);
        if (ls) {
            gather_rows(xr + l0, xi + l0, n, L, l1 - l0, io, es, loff + l0, cnt + l0, ls);
            continue;
        }
        while (l1 < L && !starts_run(loff, l1, L, es)) l1++;
        gather_lanes(xr + l0, xi + l0, n, L, l1 - l0, io, es, loff + l0, cnt + l0);
    }
}

#define ROWS_OUT(T)                                                                  \
    for (int64_t j = 0; j < full; j++) {                                             \
        const double *ar = xr + j * L, *ai = xi + j * L;                             \
        char *r = re ? re + j * es : NULL, *i = im ? im + j * es : NULL;             \
        if (r && i) {                                                                \
            for (int64_t l = 0; l < w; l++) {                                        \
                *(T *)(r + l * ls) = (T)(scale * ar[l]);                             \
                *(T *)(i + l * ls) = (T)(scale * ai[l]);                             \
            }                                                                        \
        } else if (r) {                                                              \
            for (int64_t l = 0; l < w; l++) *(T *)(r + l * ls) = (T)(scale * ar[l]);  \
        } else if (i) {                                                              \
            for (int64_t l = 0; l < w; l++) *(T *)(i + l * ls) = (T)(scale * ai[l]);  \
        }                                                                            \
    }

static void scatter_rows(fft_io io, int64_t es, const int64_t *loff, const int64_t *cnt,
                         const double *xr, const double *xi, int64_t L, int64_t w, int64_t ls,
                         double scale)
{
    int64_t full = INT64_MAX;
    for (int64_t l = 0; l < w; l++) full = cnt[l] < full ? cnt[l] : full;
    char *re = io.re ? io.re + loff[0] : NULL, *im = io.im ? io.im + loff[0] : NULL;
    const int64_t tsz = io.f32 ? (int64_t)sizeof(float) : (int64_t)sizeof(double);
    if (re && im && ls == 2 * tsz && (im == re + tsz || re == im + tsz)) {
        /* consecutive complex elements (parts exchanged or not): a
         * vectorisable interleave */
        char *base = re < im ? re : im;
        const double *x0 = re < im ? xr : xi, *x1 = re < im ? xi : xr;
        if (io.f32)
            for (int64_t j = 0; j < full; j++) {
                float *d = (float *)(base + j * es);
                const double *a0 = x0 + j * L, *a1 = x1 + j * L;
                for (int64_t l = 0; l < w; l++) {
                    d[2 * l] = (float)(scale * a0[l]);
                    d[2 * l + 1] = (float)(scale * a1[l]);
                }
            }
        else
            for (int64_t j = 0; j < full; j++) {
                double *d = (double *)(base + j * es);
                const double *a0 = x0 + j * L, *a1 = x1 + j * L;
                for (int64_t l = 0; l < w; l++) {
                    d[2 * l] = scale * a0[l];
                    d[2 * l + 1] = scale * a1[l];
                }
            }
    } else if (!io.f32 && ls == (int64_t)sizeof(double)) {
        /* split parts, consecutive lanes (a scratch line): plain copies */
        for (int64_t j = 0; j < full; j++) {
            double *r = re ? (double *)(re + j * es) : NULL;
            double *i = im ? (double *)(im + j * es) : NULL;
            const double *ar = xr + j * L, *ai = xi + j * L;
            if (r)
                for (int64_t l = 0; l < w; l++) r[l] = scale * ar[l];
            if (i)
                for (int64_t l = 0; l < w; l++) i[l] = scale * ai[l];
        }
    } else if (io.f32) {
        ROWS_OUT(float)
    } else {
        ROWS_OUT(double)
    }
    for (int64_t l = 0; l < w; l++)        /* ragged ends */
        for (int64_t j = full; j < cnt[l]; j++) {
            const int64_t o = loff[l] + j * es;
            if (io.f32) {
                if (io.re) *(float *)(io.re + o) = (float)(scale * xr[j * L + l]);
                if (io.im) *(float *)(io.im + o) = (float)(scale * xi[j * L + l]);
            } else {
                if (io.re) *(double *)(io.re + o) = scale * xr[j * L + l];
                if (io.im) *(double *)(io.im + o) = scale * xi[j * L + l];
            }
        }
}

#define LANE_OUT(T)                                                                  \
    for (int64_t j = j0; j < c; j++) {                                               \
        if (re) *(T *)(re + j * es) = (T)(scale * ar[j * L]);                        \
        if (im) *(T *)(im + j * es) = (T)(scale * ai[j * L]);                        \
    }

static void scatter_lanes(fft_io io, int64_t es, const int64_t *loff, const int64_t *cnt,
                          const double *xr, const double *xi, int64_t L, int64_t w, double scale)
{
    int64_t most = 0;
    for (int64_t l = 0; l < w; l++) most = cnt[l] > most ? cnt[l] : most;
    for (int64_t j0 = 0; j0 < most; j0 += FFT_TILE) {
        const int64_t j1 = most - j0 < FFT_TILE ? most : j0 + FFT_TILE;
        for (int64_t l = 0; l < w; l++) {
            char *re = io.re ? io.re + loff[l] : NULL, *im = io.im ? io.im + loff[l] : NULL;
            const double *ar = xr + l, *ai = xi + l;
            const int64_t c = cnt[l] < j1 ? cnt[l] : j1;
            if (io.f32) {
                LANE_OUT(float)
            } else {
                LANE_OUT(double)
            }
        }
    }
}

/* Element j of lane l (at loff[l] + j*es bytes) = scale * X[j*L + l], j < cnt[l]. */
static void scatter(fft_io io, int64_t es, const int64_t *loff, const int64_t *cnt,
                    const double *xr, const double *xi, int64_t L, double scale)
{
    for (int64_t l0 = 0, l1, ls; l0 < L; l0 = l1) {
        l1 = lane_run(loff, l0, L, es, &ls);
        if (ls) {
            scatter_rows(io, es, loff + l0, cnt + l0, xr + l0, xi + l0, L, l1 - l0, ls, scale);
            continue;
        }
        while (l1 < L && !starts_run(loff, l1, L, es)) l1++;
        scatter_lanes(io, es, loff + l0, cnt + l0, xr + l0, xi + l0, L, l1 - l0, scale);
    }
}

/* c2r: rows n-k = conj(rows k) for 0 < k < n - n/2, and the imaginary parts
 * of rows 0 and n/2 (n even) zeroed.  In swapped storage the imaginary parts
 * are in xr. */
static void hermitian_fill(double *xr, double *xi, int64_t n, int64_t L, int swapped)
{
    double *imag = swapped ? xr : xi, *real = swapped ? xi : xr;
    for (int64_t k = 1; k < n - n / 2; k++)
        for (int64_t l = 0; l < L; l++) {
            real[(n - k) * L + l] = real[k * L + l];
            imag[(n - k) * L + l] = -imag[k * L + l];
        }
    for (int64_t l = 0; l < L; l++) {
        imag[l] = 0.0;
        if (n % 2 == 0) imag[(n / 2) * L + l] = 0.0;
    }
}

/* ------------------------------------------------------------------ plans */

static void plan_free(fft_plan *p)
{
    if (!p) return;
    st_aligned_free(p->twr); st_aligned_free(p->twi);
    st_aligned_free(p->rtr); st_aligned_free(p->rti);
    st_aligned_free(p->thr); st_aligned_free(p->thi);
    st_aligned_free(p->tlr); st_aligned_free(p->tli);
    st_aligned_free(p->chr); st_aligned_free(p->chi);
    st_aligned_free(p->kr); st_aligned_free(p->ki);
    st_aligned_free(p->hr); st_aligned_free(p->hi);
    plan_free(p->p1);
    plan_free(p->p2);
    plan_free(p->pm);
    free(p);
}

static double *dalloc(int64_t count, int64_t *bytes)
{
    *bytes += count * (int64_t)sizeof(double);
    return st_aligned_alloc(count * (int64_t)sizeof(double));
}

/* n's radices in pass order (8s and 4s or a 2, 3s, 5s, then odd primes ascending);
 * returns the largest prime factor. */
static int64_t factorize(int64_t n, int *fac, int *nf)
{
    int k = 0;
    int64_t big = 1;
    /* 2^e as 8s, with a 4 or two 4s or a 2 for the rest */
    int e = 0;
    while (n % 2 == 0) { n /= 2; e++; }
    if (e) big = 2;
    if (e == 1) fac[k++] = 2;
    for (; e >= 3 && e != 4; e -= 3) fac[k++] = 8;
    for (; e >= 2; e -= 2) fac[k++] = 4;
    for (int64_t f = 3; f * f <= n; f += 2)
        while (n % f == 0) {
            if (f > ST_FFT_MAX_RADIX) return f > n / f ? f : n / f;   /* Bluestein anyway */
            fac[k++] = (int)f;
            n /= f;
            big = f;
        }
    if (n > 1) {
        if (n > ST_FFT_MAX_RADIX) return n;
        fac[k++] = (int)n;
        big = n > big ? n : big;
    }
    *nf = k;
    return big;
}

/* The smallest 2^a 3^b 5^c >= t: the length of Bluestein's convolution. */
static int64_t good_size(int64_t t)
{
    int64_t best = INT64_MAX;
    for (int64_t f5 = 1; f5 < 2 * t; f5 *= 5)
        for (int64_t f35 = f5; f35 < 2 * t; f35 *= 3) {
            int64_t v = f35;
            while (v < t) v *= 2;
            if (v < best) best = v;
        }
    return best;
}

static fft_plan *plan_new(int64_t n, int fourstep_ok);
static st_status transform_line_split(const fft_plan *p, double *xr, double *xi);

/* Stage twiddles and generic roots of a direct plan. */
static int plan_stages(fft_plan *p)
{
    int64_t ntw = 0, nroot = 0, nt = p->n;
    for (int s = 0; s < p->nf; s++) {
        const int f = p->fac[s];
        p->twoff[s] = ntw;
        ntw += (int64_t)(f - 1) * (nt / f);
        p->rootoff[s] = nroot;
        if (f > 5 && f != 8) nroot += f;
        nt /= f;
    }
    p->twr = dalloc(ntw + 1, &p->bytes);
    p->twi = dalloc(ntw + 1, &p->bytes);
    p->rtr = dalloc(nroot + 1, &p->bytes);
    p->rti = dalloc(nroot + 1, &p->bytes);
    if (!p->twr || !p->twi || !p->rtr || !p->rti) return -1;
    nt = p->n;
    for (int s = 0; s < p->nf; s++) {
        const int f = p->fac[s];
        const int64_t m = nt / f;
        double *wr = p->twr + p->twoff[s], *wi = p->twi + p->twoff[s];
        for (int64_t q = 0; q < m; q++)
            for (int k = 1; k < f; k++)
                twiddle(q * k, nt, &wr[q * (f - 1) + k - 1], &wi[q * (f - 1) + k - 1]);
        if (f > 5 && f != 8)
            for (int t = 0; t < f; t++)
                twiddle(t, f, &p->rtr[p->rootoff[s] + t], &p->rti[p->rootoff[s] + t]);
        nt = m;
    }
    return 0;
}

/* n = n1 * n2 with n1 the largest divisor <= sqrt(n); 0 when too unbalanced
 * for the four-step split to pay. */
static int64_t split_of(int64_t n)
{
    int64_t n1 = (int64_t)sqrtl((long double)n);
    while (n1 * n1 > n) n1--;
    while (n1 > 1 && n % n1) n1--;
    return n1 >= 8 ? n1 : 0;
}

static int plan_fourstep(fft_plan *p)
{
    p->n1 = split_of(p->n);
    if (!p->n1) return 1;                   /* not split: stages instead */
    p->n2 = p->n / p->n1;
    /* the halves run in blocks of lanes: stage plans, whatever their length
     * (splitting them again measured slower: more passes over the data) */
    p->p1 = plan_new(p->n1, 0);
    p->p2 = plan_new(p->n2, 0);
    if (!p->p1 || !p->p2) return -1;
    p->bytes += p->p1->bytes + p->p2->bytes;
    int b = 0;
    while (((int64_t)1 << (2 * b)) < p->n) b++;
    p->tbits = b;
    const int64_t nlo = (int64_t)1 << b, nhi = (p->n >> b) + 1;
    p->tlr = dalloc(nlo, &p->bytes);
    p->tli = dalloc(nlo, &p->bytes);
    p->thr = dalloc(nhi, &p->bytes);
    p->thi = dalloc(nhi, &p->bytes);
    if (!p->tlr || !p->tli || !p->thr || !p->thi) return -1;
    for (int64_t t = 0; t < nlo; t++) twiddle(t % p->n, p->n, &p->tlr[t], &p->tli[t]);
    for (int64_t h = 0; h < nhi; h++) twiddle((h << b) % p->n, p->n, &p->thr[h], &p->thi[h]);
    return 0;
}

static int plan_bluestein(fft_plan *p)
{
    const int64_t n = p->n, m = good_size(2 * n - 1);
    p->m = m;
    p->pm = plan_new(m, 1);
    if (!p->pm) return -1;
    p->bytes += p->pm->bytes;
    p->chr = dalloc(n, &p->bytes);
    p->chi = dalloc(n, &p->bytes);
    p->kr = dalloc(m, &p->bytes);
    p->ki = dalloc(m, &p->bytes);
    if (!p->chr || !p->chi || !p->kr || !p->ki) return -1;
    /* w_j = exp(-pi i j^2 / n) = exp(-2 pi i (j^2 mod 2n) / 2n), j^2 mod 2n
     * kept exactly by (j+1)^2 = j^2 + 2j + 1 */
    int64_t sq = 0;
    for (int64_t j = 0; j < n; j++) {
        twiddle(sq, 2 * n, &p->chr[j], &p->chi[j]);
        sq = (sq + 2 * j + 1) % (2 * n);
    }
    /* the kernel h_t = conj(w_t) for |t| < n, circularly; its DFT over m */
    for (int64_t t = 0; t < m; t++) p->kr[t] = p->ki[t] = 0.0;
    for (int64_t t = 0; t < n; t++) {
        p->kr[t] = p->chr[t];
        p->ki[t] = -p->chi[t];
        if (t) {
            p->kr[m - t] = p->chr[t];
            p->ki[m - t] = -p->chi[t];
        }
    }
    if (transform_line_split(p->pm, p->kr, p->ki)) return -1;
    const double inv = 1.0 / (double)m;
    for (int64_t t = 0; t < m; t++) {
        p->kr[t] *= inv;
        p->ki[t] *= inv;
    }
    return 0;
}

/* The split twiddles of a real transform of 2n points. */
static int plan_real(fft_plan *p)
{
    p->real = 1;
    p->hr = dalloc(p->n + 1, &p->bytes);
    p->hi = dalloc(p->n + 1, &p->bytes);
    if (!p->hr || !p->hi) return -1;
    for (int64_t k = 0; k <= p->n; k++) twiddle(k, 2 * p->n, &p->hr[k], &p->hi[k]);
    return 0;
}

/* A new plan for n complex points (NULL when out of memory); fourstep_ok:
 * a long direct plan may split (else it has stages, for blocks of lanes);
 * real: also the twiddles of a real transform of 2n points. */
static fft_plan *plan_new_kind(int64_t n, int fourstep_ok, int real)
{
    fft_plan *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->n = n;
    p->bytes = sizeof *p;
    int rc;
    if (factorize(n, p->fac, &p->nf) > ST_FFT_MAX_RADIX)
        rc = plan_bluestein(p);
    else {
        rc = n >= FFT_SPLIT && fourstep_ok ? plan_fourstep(p) : 1;
        if (rc == 1) rc = plan_stages(p);
    }
    if (!rc && real) rc = plan_real(p);
    if (rc) {
        plan_free(p);
        return NULL;
    }
    return p;
}

static fft_plan *plan_new(int64_t n, int fourstep_ok) { return plan_new_kind(n, fourstep_ok, 0); }

/* ---- the cache: plans shared by every call, guarded by one lock; a plan
 * holds one reference for the cache and one per call using it. */
static fft_plan *cache[FFT_CACHE];
static uint64_t cache_clock;

static void plan_unref_locked(fft_plan *p)
{
    if (--p->refs == 0) plan_free(p);
}

/* The cached plan of n complex points (real: with the real twiddles). */
static fft_plan *plan_get(int64_t n, int real)
{
    fft_plan *p = NULL;
#pragma omp critical(st_fft_cache)
    for (int i = 0; i < FFT_CACHE; i++)
        if (cache[i] && cache[i]->n == n && cache[i]->real == real) {
            p = cache[i];
            p->refs++;
            p->stamp = ++cache_clock;
            break;
        }
    if (p) return p;
    fft_plan *fresh = plan_new_kind(n, 1, real);      /* outside the lock: it can take a while */
    if (!fresh) return NULL;
    fresh->refs = 1;
#pragma omp critical(st_fft_cache)
    {
        for (int i = 0; i < FFT_CACHE && !p; i++)
            if (cache[i] && cache[i]->n == n && cache[i]->real == real) p = cache[i];    /* another thread won */
        if (p) {
            p->refs++;
            p->stamp = ++cache_clock;
        } else if (fresh->bytes <= FFT_CACHE_BYTES) {
            /* evict the least recently used until there is a slot and room */
            for (;;) {
                int64_t total = fresh->bytes;
                int free_slot = -1, lru = -1;
                for (int i = 0; i < FFT_CACHE; i++) {
                    if (!cache[i]) { free_slot = i; continue; }
                    total += cache[i]->bytes;
                    if (lru < 0 || cache[i]->stamp < cache[lru]->stamp) lru = i;
                }
                if (free_slot >= 0 && total <= FFT_CACHE_BYTES) {
                    fresh->refs++;
                    fresh->stamp = ++cache_clock;
                    cache[free_slot] = fresh;
                    break;
                }
                plan_unref_locked(cache[lru]);
                cache[lru] = NULL;
            }
        }
    }
    if (p) {
#pragma omp critical(st_fft_cache)
        plan_unref_locked(fresh);
        return p;
    }
    return fresh;
}

static void plan_release(fft_plan *p)
{
#pragma omp critical(st_fft_cache)
    plan_unref_locked(p);
}

void st_fft_clear_cache(void)
{
#pragma omp critical(st_fft_cache)
    for (int i = 0; i < FFT_CACHE; i++)
        if (cache[i]) {
            plan_unref_locked(cache[i]);
            cache[i] = NULL;
        }
}

/* ------------------------------------------------------------------ scratch
 * One buffer is kept between calls: a fresh multi-megabyte block costs a
 * page fault (and the kernel zeroing the page) per 4 KiB on first touch,
 * more than the transform itself.  Concurrent calls get their own. */
#define FFT_POOL_MAX ((int64_t)64 << 20)
static double *pool_buf;
static int64_t pool_bytes;

static double *scratch_get(int64_t count, int64_t *bytes)
{
    double *p = NULL;
    *bytes = count * (int64_t)sizeof(double);
#pragma omp critical(st_fft_pool)
    if (pool_buf && pool_bytes >= *bytes) {
        p = pool_buf;
        *bytes = pool_bytes;
        pool_buf = NULL;
    }
    return p ? p : st_aligned_alloc(*bytes);
}

static void scratch_put(double *p, int64_t bytes)
{
    if (bytes <= FFT_POOL_MAX) {
#pragma omp critical(st_fft_pool)
        if (!pool_buf || pool_bytes < bytes) {
            double *t = pool_buf;
            pool_buf = p;
            pool_bytes = bytes;
            p = t;
        }
    }
    st_aligned_free(p);
}

/* ------------------------------------------------------------------ blocks */

/* The working length of a plan: what its scratch is sized by. */
static int64_t plan_len(const fft_plan *p) { return p->m ? p->m : p->n; }

/* Lanes per block of a stage plan (or a Bluestein one): a power of two, as
 * many as fit FFT_L1_BYTES with the block and its ping-pong, at least 8 (a
 * vector); it depends on n alone, so results do not depend on threads. */
static int64_t lanes_for(const fft_plan *p)
{
    const int64_t per_lane = 4 * plan_len(p) * (int64_t)sizeof(double);
    int64_t L = FFT_MAX_LANES;
    while (L > 8 && L * per_lane > FFT_L1_BYTES) L /= 2;
    return L;
}

static int64_t fs_block(const fft_plan *p);

/* Doubles of scratch transform_block needs for L lanes, besides the block. */
static int64_t block_work(const fft_plan *p, int64_t L)
{
    if (p->m) return 2 * p->m * L + block_work(p->pm, L);
    if (p->n1) return 2 * p->n * L + fs_block(p);
    return 2 * p->n * L;
}

/* x[j*L + l] *= (wr[j] + i wi[j]) for j < n: a chirp or kernel along the
 * rows, the same for every lane. */
ST_LEVEL_BODY void mul_rows(double *restrict xr, double *restrict xi, const double *wr,
                             const double *wi, int64_t n, int64_t L)
{
    for (int64_t j = 0; j < n; j++) {
        const double cr = wr[j], ci = wi[j];
        double *ar = xr + j * L, *ai = xi + j * L;
        for (int64_t l = 0; l < L; l++) {
            double u = ar[l], v = ai[l];
            ar[l] = CMUL_RE(u, v, cr, ci);
            ai[l] = CMUL_IM(u, v, cr, ci);
        }
    }
}
ST_LEVEL_FN(mul_rows, (double *restrict xr, double *restrict xi, const double *wr,
                       const double *wi, int64_t n, int64_t L),
                       (xr, xi, wr, wi, n, L))

static void fourstep(const fft_plan *p, int64_t B, fft_io src, int64_t ses, const int64_t *soff,
                     int64_t scnt, fft_io dst, int64_t des, const int64_t *doff, int64_t dcnt,
                     double scale, double *t, double *blk, int nt);

/* Forward transform of the n x L block x (element j of lane l at [j*L + l]),
 * any plan; work: block_work(p, L) doubles.  The result is left at *rr, *ri:
 * x itself, or (stage plans) the start of work. */
static void transform_block(const fft_plan *p, int64_t L, double *xr, double *xi, double *work,
                            double **rr, double **ri)
{
    const int64_t n = p->n;
    if (p->m) {                                    /* Bluestein */
        const int64_t m = p->m, mL = m * L;
        double *ar = work, *ai = work + mL, *sub = work + 2 * mL, *cr, *ci, *dr, *di;
        memcpy(ar, xr, (size_t)(n * L) * sizeof(double));
        memcpy(ai, xi, (size_t)(n * L) * sizeof(double));
        memset(ar + n * L, 0, (size_t)((m - n) * L) * sizeof(double));
        memset(ai + n * L, 0, (size_t)((m - n) * L) * sizeof(double));
        ST_PICK(mul_rows)(ar, ai, p->chr, p->chi, n, L);
        transform_block(p->pm, L, ar, ai, sub, &cr, &ci);
        ST_PICK(mul_rows)(cr, ci, p->kr, p->ki, m, L);
        /* the inverse transform: forward with the parts exchanged; its
         * ping-pong is whichever buffer does not hold the data */
        transform_block(p->pm, L, ci, cr, cr == ar ? sub : ar, &di, &dr);
        memcpy(xr, dr, (size_t)(n * L) * sizeof(double));
        memcpy(xi, di, (size_t)(n * L) * sizeof(double));
        ST_PICK(mul_rows)(xr, xi, p->chr, p->chi, n, L);
    } else if (p->n1) {                            /* four-step, in place */
        int64_t off[FFT_MAX_LANES];
        for (int64_t l = 0; l < L; l++) off[l] = l * (int64_t)sizeof(double);
        const fft_io io = io_split(xr, xi);
        const int64_t es = L * (int64_t)sizeof(double);
        fourstep(p, L, io, es, off, n, io, es, off, n, 1.0, work, work + 2 * n * L, 1);
    } else {
        ST_PICK(engine)(p, L, xr, xi, work, work + n * L, rr, ri);
        return;
    }
    *rr = xr;
    *ri = xi;
}

/* ------------------------------------------------------------------ four-step
 * n = n1 n2, j = j1 n2 + j2, k = k1 + n1 k2:
 *   X_k = sum_j2 W_n2^(j2 k2) [W_n^(j2 k1) (sum_j1 x_j W_n1^(j1 k1))].
 * Columns (fixed j2, length n1) go in blocks of lanes through p1, times the
 * twiddle, into t; rows of t (fixed k1, length n2) through p2, to the
 * destination at k1 + n1 k2: natural order, no transpose pass. */

/* Lanes of the four-step's column and row blocks: at least FFT_FS_LANES,
 * so that every row of a block moves FFT_FS_LANES elements of contiguous
 * memory (the columns of the tensor, the rows of the result). */
static int64_t fs_lanes(const fft_plan *sub)
{
    const int64_t L = lanes_for(sub);
    return L > FFT_FS_LANES ? L : FFT_FS_LANES;
}

static int64_t fs_block(const fft_plan *p)
{
    const int64_t la = fs_lanes(p->p1), lc = fs_lanes(p->p2);
    const int64_t a = la * p->n1 * 2 + block_work(p->p1, la);
    const int64_t c = lc * p->n2 * 2 + block_work(p->p2, lc);
    return a > c ? a : c;
}

/* The column block y (n1 x L) times exp(-2 pi i k1 j2[l] / n) (two-level
 * table), into its slot of t (the same layout, contiguous). */
ST_LEVEL_BODY void fs_twiddle(const fft_plan *p, const double *restrict yr,
                               const double *restrict yi, int64_t L, const int64_t *j2,
                               double *restrict tr, double *restrict ti)
{
    const int64_t mask = ((int64_t)1 << p->tbits) - 1;
    memcpy(tr, yr, (size_t)L * sizeof(double));
    memcpy(ti, yi, (size_t)L * sizeof(double));
    for (int64_t k1 = 1; k1 < p->n1; k1++)
        for (int64_t l = 0; l < L; l++) {
            const int64_t a = k1 * j2[l], hi = a >> p->tbits, lo = a & mask;
            const double wr = CMUL_RE(p->thr[hi], p->thi[hi], p->tlr[lo], p->tli[lo]);
            const double wi = CMUL_IM(p->thr[hi], p->thi[hi], p->tlr[lo], p->tli[lo]);
            const double u = yr[k1 * L + l], v = yi[k1 * L + l];
            tr[k1 * L + l] = CMUL_RE(u, v, wr, wi);
            ti[k1 * L + l] = CMUL_IM(u, v, wr, wi);
        }
}
ST_LEVEL_FN(fs_twiddle, (const fft_plan *p, const double *restrict yr,
                         const double *restrict yi, int64_t L, const int64_t *j2,
                         double *restrict tr, double *restrict ti),
                         (p, yr, yi, L, j2, tr, ti))

/* Rows r0 .. r0+L-1 of the four-step (row r = b n1 + k1: element j2 is
 * column c = b n2 + j2, at [k1*Lc + c % la] of column block c / la, whose
 * lane count is Lc) into the block X[j2*L + lr]. */
static void fs_rows_in(const fft_plan *p, int64_t ncol, int64_t la, const double *tr,
                       const double *ti, int64_t r0, int64_t L, double *restrict xr,
                       double *restrict xi)
{
    const int64_t n1 = p->n1, n2 = p->n2;
    for (int64_t lr = 0; lr < L;) {
        /* lanes lr .. le-1 are consecutive rows of one line b */
        const int64_t b = (r0 + lr) / n1, k1 = (r0 + lr) % n1;
        const int64_t le = lr + (n1 - k1 < L - lr ? n1 - k1 : L - lr);
        for (int64_t c = b * n2, cend = c + n2; c < cend;) {
            const int64_t cb = c / la, l0 = c - cb * la;
            const int64_t lcb = ncol - cb * la < la ? ncol - cb * la : la;
            const int64_t l1 = cend - cb * la < lcb ? cend - cb * la : lcb;
            const double *sr = tr + cb * la * n1, *si = ti + cb * la * n1;
            /* a contiguous tile of t, transposed: written along the lanes */
            const double *tr0 = sr + (k1 - lr) * lcb, *ti0 = si + (k1 - lr) * lcb;
            for (int64_t l = l0; l < l1; l++) {
                double *dr = xr + (c - b * n2 - l0 + l) * L, *di = xi + (c - b * n2 - l0 + l) * L;
                for (int64_t q = lr; q < le; q++) {
                    dr[q] = tr0[q * lcb + l];
                    di[q] = ti0[q * lcb + l];
                }
            }
            c += l1 - l0;
        }
        lr = le;
    }
}

/* B lines through a split plan: line b's element j at soff[b] + j*ses bytes
 * from src's parts (j < scnt, zeros beyond), its element k to doff[b] +
 * k*des bytes from dst's parts (k < dcnt), times scale.  t: 2 B n doubles;
 * blk: nt blocks of fs_block(p) doubles.  dst may be src: every source
 * element is read before the first write. */
static void fourstep(const fft_plan *p, int64_t B, fft_io src, int64_t ses, const int64_t *soff,
                     int64_t scnt, fft_io dst, int64_t des, const int64_t *doff, int64_t dcnt,
                     double scale, double *t, double *blk, int nt)
{
    const int64_t n = p->n, n1 = p->n1, n2 = p->n2;
    const int64_t la = fs_lanes(p->p1), lc = fs_lanes(p->p2), ncol = B * n2, nrow = B * n1;
    const int64_t nba = (ncol + la - 1) / la, nbc = (nrow + lc - 1) / lc, bsz = fs_block(p);
    double *tr = t, *ti = t + B * n;
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        double *xr = blk + omp_get_thread_num() * bsz;
        int64_t loff[FFT_MAX_LANES], cnt[FFT_MAX_LANES], jj[FFT_MAX_LANES];
        /* columns c = b n2 + j2: element j1 is line b's element j1 n2 + j2;
         * column block c / la goes to t at c / la * la * n1, as [k1*L + l] */
#pragma omp for schedule(dynamic, 1)
        for (int64_t blkno = 0; blkno < nba; blkno++) {
            const int64_t c0 = blkno * la, L = ncol - c0 < la ? ncol - c0 : la;
            double *xi = xr + n1 * L, *rr, *ri;
            for (int64_t l = 0; l < L; l++) {
                const int64_t b = (c0 + l) / n2, j2 = (c0 + l) % n2;
                jj[l] = j2;
                loff[l] = soff[b] + j2 * ses;
                cnt[l] = scnt > j2 ? (scnt - j2 + n2 - 1) / n2 : 0;
                if (cnt[l] > n1) cnt[l] = n1;
            }
            gather(xr, xi, n1, L, src, n2 * ses, loff, cnt);
            transform_block(p->p1, L, xr, xi, xi + n1 * L, &rr, &ri);
            ST_PICK(fs_twiddle)(p, rr, ri, L, jj, tr + c0 * n1, ti + c0 * n1);
        }
        /* rows r = b n1 + k1: row k1 of line b's n1 x n2 matrix; its element
         * k2 is line b's result k1 + n1 k2 */
#pragma omp for schedule(dynamic, 1)
        for (int64_t blkno = 0; blkno < nbc; blkno++) {
            const int64_t r0 = blkno * lc, L = nrow - r0 < lc ? nrow - r0 : lc;
            double *xi = xr + n2 * L, *rr, *ri;
            fs_rows_in(p, ncol, la, tr, ti, r0, L, xr, xi);
            transform_block(p->p2, L, xr, xi, xi + n2 * L, &rr, &ri);
            for (int64_t l = 0; l < L; l++) {
                const int64_t b = (r0 + l) / n1, k1 = (r0 + l) % n1;
                loff[l] = doff[b] + k1 * des;
                cnt[l] = dcnt > k1 ? (dcnt - k1 + n1 - 1) / n1 : 0;
                if (cnt[l] > n2) cnt[l] = n2;
            }
            scatter(dst, n1 * des, loff, cnt, rr, ri, L, scale);
        }
    }
}

/* ------------------------------------------------------------------ real transforms
 * A real line of n = 2N points is read as N complex ones, z_j = x_2j + i
 * x_2j+1 (no copy: the imaginary parts are the odd elements), and one
 * complex transform of N points does the work of 2N.  With Z = DFT_N(z) and
 * w_k = exp(s 2 pi i k / n) (s the sign):
 *     X_k = E_k + w_k O_k,  E_k = (Z_k + conj Z_(N-k)) / 2,
 *                           O_k = (Z_k - conj Z_(N-k)) / 2i,   k = 0 .. N;
 * and back (c2r), from the half spectrum X_0 .. X_N:
 *     Z_k = E_k + i O_k,  E_k = X_k + conj X_(N-k),
 *                         O_k = (X_k - conj X_(N-k)) w_k,       k < N,
 * then z = DFT_N(Z) holds x_2j, x_2j+1 (imaginary parts of X_0 and X_N
 * ignored, as a real signal's spectrum has none).  Odd n: the full complex
 * transform of the line with zero imaginary parts. */

/* rows k0 .. k1-1 of the half spectrum X (N+1 rows) from Z (N rows),
 * written at rows 0 .. k1-k0-1 of x */
ST_LEVEL_BODY void real_post(const fft_plan *p, int sign, const double *restrict zr,
                              const double *restrict zi, double *restrict xr,
                              double *restrict xi, int64_t L, int64_t k0, int64_t k1)
{
    const int64_t N = p->n;
    for (int64_t k = k0; k < k1; k++) {
        const int64_t a = k % N, b = (N - k) % N;
        const double wr = p->hr[k], wi = sign < 0 ? p->hi[k] : -p->hi[k];
        for (int64_t l = 0; l < L; l++) {
            const double ar = zr[a * L + l], ai = zi[a * L + l];
            const double br = zr[b * L + l], bi = zi[b * L + l];
            const double er = 0.5 * (ar + br), ei = 0.5 * (ai - bi);
            const double orr = 0.5 * (ai + bi), oi = -0.5 * (ar - br);   /* O = -i D */
            xr[(k - k0) * L + l] = er + CMUL_RE(wr, wi, orr, oi);
            xi[(k - k0) * L + l] = ei + CMUL_IM(wr, wi, orr, oi);
        }
    }
}
ST_LEVEL_FN(real_post, (const fft_plan *p, int sign, const double *restrict zr,
                        const double *restrict zi, double *restrict xr, double *restrict xi,
                        int64_t L, int64_t k0, int64_t k1),
                        (p, sign, zr, zi, xr, xi, L, k0, k1))

/* rows k0 .. k1-1 of Z (N rows) from the half spectrum X (N+1 rows) */
ST_LEVEL_BODY void real_pre(const fft_plan *p, int sign, const double *restrict xr,
                             const double *restrict xi, double *restrict zr,
                             double *restrict zi, int64_t L, int64_t k0, int64_t k1)
{
    const int64_t N = p->n;
    for (int64_t k = k0; k < k1; k++) {
        const int64_t b = N - k;
        const double wr = p->hr[k], wi = sign < 0 ? p->hi[k] : -p->hi[k];
        const double keep = k ? 1.0 : 0.0;      /* Im X_0 and Im X_N do not count */
        for (int64_t l = 0; l < L; l++) {
            const double ar = xr[k * L + l], ai = keep * xi[k * L + l];
            const double br = xr[b * L + l], bi = keep * xi[b * L + l];
            const double dr = ar - br, di = ai + bi;
            const double orr = CMUL_RE(dr, di, wr, wi), oi = CMUL_IM(dr, di, wr, wi);
            zr[k * L + l] = (ar + br) - oi;
            zi[k * L + l] = (ai - bi) + orr;
        }
    }
}
ST_LEVEL_FN(real_pre, (const fft_plan *p, int sign, const double *restrict xr,
                       const double *restrict xi, double *restrict zr, double *restrict zi,
                       int64_t L, int64_t k0, int64_t k1),
                       (p, sign, xr, xi, zr, zi, L, k0, k1))

/* ------------------------------------------------------------------ paths */

typedef struct {
    fft_io src, dst;                  /* line 0 */
    int64_t ses, scnt, des, dcnt;
    int herm, swapped;
    double scale;
    int packed;                       /* even real transforms: PACK_R2C, PACK_C2R */
    int sign;                         /* of the exponent: -1 forward, +1 inverse */
} fft_line;

#define PACK_R2C 1
#define PACK_C2R 2

typedef struct {
    const fft_plan *p;
    fft_line ln;
    int nb;                           /* batch dims, outermost first */
    int64_t bsize[ST_MAX_DIMS], bin[ST_MAX_DIMS], bout[ST_MAX_DIMS];   /* bytes */
    int64_t nlines;
} fft_job;

/* byte offsets of lines first .. first+L-1 in the input and the output */
static void line_offsets(const fft_job *job, int64_t first, int64_t L, int64_t *oin, int64_t *oout)
{
    int64_t idx[ST_MAX_DIMS], rest = first, a = 0, b = 0;
    for (int d = job->nb - 1; d >= 0; d--) {
        idx[d] = rest % job->bsize[d];
        rest /= job->bsize[d];
        a += idx[d] * job->bin[d];
        b += idx[d] * job->bout[d];
    }
    for (int64_t l = 0; l < L; l++) {
        oin[l] = a;
        oout[l] = b;
        for (int d = job->nb - 1; d >= 0; d--) {     /* odometer step */
            a += job->bin[d];
            b += job->bout[d];
            if (++idx[d] < job->bsize[d]) break;
            a -= idx[d] * job->bin[d];
            b -= idx[d] * job->bout[d];
            idx[d] = 0;
        }
    }
}

/* Lines per group in the lines path: a split plan's t (2 G n doubles) fits
 * FFT_L2_BYTES; other plans: lanes_for. */
static int64_t group_for(const fft_plan *p)
{
    if (p->m) {
        /* Bluestein: two m-point buffers per lane dwarf the line.  A full
         * vector of lanes pays even from L3 (measured), but not beyond
         * FFT_L3_BYTES: then fewer lanes, at least one */
        const int64_t per_lane = (2 * p->n + block_work(p, 1)) * (int64_t)sizeof(double);
        const int64_t most = lanes_for(p);
        if (most * per_lane <= FFT_L3_BYTES) return most;
        return FFT_L3_BYTES / per_lane > 1 ? FFT_L3_BYTES / per_lane : 1;
    }
    if (!p->n1) return lanes_for(p);
    int64_t g = FFT_L2_BYTES / (2 * p->n * (int64_t)sizeof(double));
    return g < 1 ? 1 : g > FFT_MAX_LANES ? FFT_MAX_LANES : g;
}

/* The split plans take lines straight from the tensor unless the input must
 * be completed first (c2r's mirrored half). */
static int direct_lines(const fft_plan *p, const fft_line *ln) { return p->n1 && !ln->herm; }

/* r2c with an odd count m of real elements read: the last one, x_(m-1), is
 * the real part of packed element (m-1)/2 (the gather read m/2 pairs). */
static void packed_tail(const fft_line *ln, double *ar, double *ai, int64_t L,
                        const int64_t *oin)
{
    if (ln->scnt % 2 == 0) return;
    const int64_t row = ln->scnt / 2, off = (ln->scnt - 1) * ln->ses;
    const char *x = ln->sign < 0 ? ln->src.re : ln->src.im;    /* the even elements */
    double *re = ln->sign < 0 ? ar : ai;
    for (int64_t l = 0; l < L; l++) re[row * L + l] = LOAD(ln->src.f32, x + oin[l] + off);
}

static int64_t group_scratch(const fft_plan *p, const fft_line *ln, int64_t G)
{
    if (ln->packed) return 2 * (p->n + 1) * G + 2 * p->n * G + block_work(p, G);
    return (direct_lines(p, ln) ? 0 : 2 * p->n * G) + block_work(p, G);
}

/* A group of G even real lines (packed) on one thread; s: group_scratch. */
static void run_group_packed(const fft_plan *p, const fft_line *ln, int64_t G,
                             const int64_t *oin, const int64_t *oout, double *s)
{
    const int64_t N = p->n;
    double *yr = s, *yi = s + (N + 1) * G;                  /* half spectrum */
    double *ar = yi + (N + 1) * G, *ai = ar + N * G;        /* packed line */
    double *work = ai + N * G, *r1, *r2;
    int64_t cnt[FFT_MAX_LANES], dcnt[FFT_MAX_LANES];
    const int inv = ln->sign > 0;        /* the inverse sign: parts exchanged */
    if (ln->packed == PACK_R2C) {
        for (int64_t l = 0; l < G; l++) {
            cnt[l] = ln->scnt / 2;
            dcnt[l] = ln->dcnt;
        }
        gather(ar, ai, N, G, ln->src, 2 * ln->ses, oin, cnt);
        packed_tail(ln, ar, ai, G, oin);
        transform_block(p, G, ar, ai, work, &r1, &r2);
        ST_PICK(real_post)(p, ln->sign, inv ? r2 : r1, inv ? r1 : r2, yr, yi, G, 0, N + 1);
        scatter(ln->dst, ln->des, oout, dcnt, yr, yi, G, ln->scale);
        return;
    }
    for (int64_t l = 0; l < G; l++) {
        cnt[l] = ln->scnt;
        dcnt[l] = N;
    }
    gather(yr, yi, N + 1, G, ln->src, ln->ses, oin, cnt);
    ST_PICK(real_pre)(p, ln->sign, yr, yi, inv ? ai : ar, inv ? ar : ai, G, 0, N);
    transform_block(p, G, ar, ai, work, &r1, &r2);
    scatter(ln->dst, 2 * ln->des, oout, dcnt, inv ? r2 : r1, inv ? r1 : r2, G, ln->scale);
}

/* One group of G lines (offsets oin, oout) on one thread; s: group_scratch. */
static void run_group(const fft_plan *p, const fft_line *ln, int64_t G, const int64_t *oin,
                      const int64_t *oout, double *s)
{
    const int64_t n = p->n;
    int64_t scnt[FFT_MAX_LANES], dcnt[FFT_MAX_LANES], off[FFT_MAX_LANES];
    if (ln->packed) {
        run_group_packed(p, ln, G, oin, oout, s);
        return;
    }
    if (direct_lines(p, ln)) {
        fourstep(p, G, ln->src, ln->ses, oin, ln->scnt, ln->dst, ln->des, oout, ln->dcnt,
                 ln->scale, s, s + 2 * n * G, 1);
        return;
    }
    double *xr = s, *xi = s + n * G, *work = s + 2 * n * G, *rr, *ri;
    for (int64_t l = 0; l < G; l++) {
        scnt[l] = ln->scnt;
        dcnt[l] = ln->dcnt;
    }
    gather(xr, xi, n, G, ln->src, ln->ses, oin, scnt);
    if (ln->herm) hermitian_fill(xr, xi, n, G, ln->swapped);
    if (p->n1) {                 /* from the completed block to the tensor */
        for (int64_t l = 0; l < G; l++) off[l] = l * (int64_t)sizeof(double);
        fourstep(p, G, io_split(xr, xi), G * (int64_t)sizeof(double), off, n, ln->dst, ln->des,
                 oout, ln->dcnt, ln->scale, work, work + 2 * n * G, 1);
        return;
    }
    transform_block(p, G, xr, xi, work, &rr, &ri);
    scatter(ln->dst, ln->des, oout, dcnt, rr, ri, G, ln->scale);
}

static st_status run_lines(const fft_job *job)
{
    const fft_plan *p = job->p;
    int64_t G = group_for(p);
    if (G > job->nlines) G = job->nlines;
    const int64_t ngroups = (job->nlines + G - 1) / G, bsz = group_scratch(p, &job->ln, G);
    int nt = st_threads_for(job->nlines * plan_len(p));
    if (nt > ngroups) nt = (int)ngroups;
    int64_t bytes;
    double *scratch = scratch_get(bsz * nt, &bytes);
    if (!scratch) return st_fail(ST_E_MEMORY, "fft: cannot allocate %lld bytes of scratch",
                                 (long long)bytes);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        double *s = scratch + omp_get_thread_num() * bsz;
        int64_t oin[FFT_MAX_LANES], oout[FFT_MAX_LANES];
#pragma omp for schedule(dynamic, 1)
        for (int64_t g = 0; g < ngroups; g++) {
            const int64_t first = g * G, lines = job->nlines - first < G ? job->nlines - first : G;
            line_offsets(job, first, lines, oin, oout);
            run_group(p, &job->ln, lines, oin, oout, s);
        }
    }
    scratch_put(scratch, bytes);
    return ST_OK;
}

/* ---- long lines: one at a time, the threads sharing each one ---- */

/* Scratch (doubles) of line_inplace for a split or stage plan q. */
static int64_t inplace_scratch(const fft_plan *q, int nt)
{
    return q->n1 ? 2 * q->n + fs_block(q) * nt : block_work(q, 1);
}

/* Forward transform of the split line x (q->n points, direct plan) in place. */
static void line_inplace(const fft_plan *q, double *xr, double *xi, double *s, int nt)
{
    const int64_t zero = 0, d8 = sizeof(double);
    if (q->n1) {
        const fft_io io = io_split(xr, xi);
        fourstep(q, 1, io, d8, &zero, q->n, io, d8, &zero, q->n, 1.0, s, s + 2 * q->n, nt);
        return;
    }
    double *rr, *ri;
    transform_block(q, 1, xr, xi, s, &rr, &ri);
    if (rr != xr) {
        memcpy(xr, rr, (size_t)q->n * sizeof(double));
        memcpy(xi, ri, (size_t)q->n * sizeof(double));
    }
}

static void mul_line(double *restrict xr, double *restrict xi, const double *wr,
                     const double *wi, int64_t n, int nt)
{
#pragma omp parallel for num_threads(nt) if (nt > 1) schedule(static)
    for (int64_t j = 0; j < n; j++) {
        const double u = xr[j], v = xi[j];
        xr[j] = CMUL_RE(u, v, wr[j], wi[j]);
        xi[j] = CMUL_IM(u, v, wr[j], wi[j]);
    }
}

/* Scratch (doubles) of line_transform. */
static int64_t line_scratch(const fft_plan *p, int nt)
{
    return p->m ? 2 * p->m + inplace_scratch(p->pm, nt) : inplace_scratch(p, nt);
}

/* Forward transform of the split line x in place, any plan, nt threads. */
static void line_transform(const fft_plan *p, double *xr, double *xi, double *s, int nt)
{
    if (!p->m) {
        line_inplace(p, xr, xi, s, nt);
        return;
    }
    const int64_t n = p->n, m = p->m;
    double *ar = s, *ai = s + m, *sub = s + 2 * m;
    memcpy(ar, xr, (size_t)n * sizeof(double));
    memcpy(ai, xi, (size_t)n * sizeof(double));
    memset(ar + n, 0, (size_t)(m - n) * sizeof(double));
    memset(ai + n, 0, (size_t)(m - n) * sizeof(double));
    mul_line(ar, ai, p->chr, p->chi, n, nt);
    line_inplace(p->pm, ar, ai, sub, nt);
    mul_line(ar, ai, p->kr, p->ki, m, nt);
    line_inplace(p->pm, ai, ar, sub, nt);     /* inverse: parts exchanged */
    mul_line(ar, ai, p->chr, p->chi, n, nt);
    memcpy(xr, ar, (size_t)n * sizeof(double));
    memcpy(xi, ai, (size_t)n * sizeof(double));
}

/* Scratch (doubles) of line_big. */
static int64_t big_scratch(const fft_plan *p, const fft_line *ln, int nt)
{
    return 2 * p->n + line_scratch(p, nt);
}

/* The split steps of one long line against the tensor itself (no copy of
 * the line): rows k0 .. k1-1 of X written to (post) or read from (pre) dst /
 * src at k*es bytes, through their parts.  cnt: the elements src has. */
/* X_k for the interior k0 .. k1-1 (0 < k < N) of one line, straight into
 * contiguous interleaved complex T (double or float) at o: Z_k and Z_(N-k)
 * walk towards each other, a loop the compiler vectorises. */
#define DEF_POST_LINE(NAME, T) ST_LEVELS(DEF_POST_LINE_ISA, NAME, T)
#define DEF_POST_LINE_ISA(ISA, ATTR, NAME, T)                                        \
    ATTR static void NAME##ISA(const fft_plan *p, int sign, const double *restrict zr, \
                             const double *restrict zi, T *restrict o, double scale, \
                             int64_t k0, int64_t k1)                                 \
    {                                                                                \
        const int64_t N = p->n;                                                      \
        const double ws = sign < 0 ? 1.0 : -1.0, h = 0.5 * scale;                    \
        for (int64_t k = k0; k < k1; k++) {                                          \
            const double ar = zr[k], ai = zi[k], br = zr[N - k], bi = zi[N - k];     \
            const double wr = p->hr[k], wi = ws * p->hi[k];                          \
            const double er = ar + br, ei = ai - bi, orr = ai + bi, oi = br - ar;    \
            o[2 * k] = (T)(h * (er + CMUL_RE(wr, wi, orr, oi)));                     \
            o[2 * k + 1] = (T)(h * (ei + CMUL_IM(wr, wi, orr, oi)));                 \
        }                                                                            \
    }
DEF_POST_LINE(post_line_f64, double)
DEF_POST_LINE(post_line_f32, float)

/* Z_k for the interior 0 < k < N of one line from contiguous interleaved
 * complex T at x holding X_0 .. X_N. */
#define DEF_PRE_LINE(NAME, T) ST_LEVELS(DEF_PRE_LINE_ISA, NAME, T)
#define DEF_PRE_LINE_ISA(ISA, ATTR, NAME, T)                                         \
    ATTR static void NAME##ISA(const fft_plan *p, int sign, const T *restrict x,     \
                             double *restrict zr, double *restrict zi, int64_t k0,    \
                             int64_t k1)                                             \
    {                                                                                \
        const int64_t N = p->n;                                                      \
        const double ws = sign < 0 ? 1.0 : -1.0;                                     \
        for (int64_t k = k0; k < k1; k++) {                                          \
            const double ar = x[2 * k], ai = x[2 * k + 1];                           \
            const double br = x[2 * (N - k)], bi = x[2 * (N - k) + 1];               \
            const double wr = p->hr[k], wi = ws * p->hi[k];                          \
            const double dr = ar - br, di = ai + bi;                                 \
            zr[k] = (ar + br) - CMUL_IM(dr, di, wr, wi);                             \
            zi[k] = (ai - bi) + CMUL_RE(dr, di, wr, wi);                             \
        }                                                                            \
    }
DEF_PRE_LINE(pre_line_f64, double)
DEF_PRE_LINE(pre_line_f32, float)

/* Is io a contiguous run of interleaved complex (es = two parts, im after re)? */
static int io_packed_complex(fft_io io, int64_t es)
{
    const int64_t t = io.f32 ? (int64_t)sizeof(float) : (int64_t)sizeof(double);
    return io.re && io.im == io.re + t && es == 2 * t;
}

/* The split steps of one long line against the tensor itself (no copy of
 * the line): rows k0 .. k1-1 of X written to (post) or read from (pre) dst /
 * src at k*es bytes, through their parts.  cnt: the elements src has.
 * Contiguous tensors take the vectorised loops above. */
static void post_tiles(const fft_plan *p, int sign, const double *zr, const double *zi,
                       fft_io dst, int64_t es, double scale, int64_t k0, int64_t k1)
{
    double xr[FFT_POST_TILE], xi[FFT_POST_TILE];
    for (int64_t a = k0; a < k1; a += FFT_POST_TILE) {
        const int64_t cnt = k1 - a < FFT_POST_TILE ? k1 - a : FFT_POST_TILE, off = a * es;
        ST_PICK(real_post)(p, sign, zr, zi, xr, xi, 1, a, a + cnt);
        scatter(dst, es, &off, &cnt, xr, xi, 1, scale);
    }
}

static void real_post_io(const fft_plan *p, int sign, const double *zr, const double *zi,
                         fft_io dst, int64_t es, double scale, int64_t k0, int64_t k1)
{
    const int64_t N = p->n;
    if (!io_packed_complex(dst, es) || N < 2) {
        post_tiles(p, sign, zr, zi, dst, es, scale, k0, k1);
        return;
    }
    const int64_t a = k0 > 1 ? k0 : 1, b = k1 < N ? k1 : N;     /* the interior */
    if (a < b) {
        if (dst.f32) ST_PICK(post_line_f32)(p, sign, zr, zi, (float *)dst.re, scale, a, b);
        else ST_PICK(post_line_f64)(p, sign, zr, zi, (double *)dst.re, scale, a, b);
    }
    if (k0 == 0) post_tiles(p, sign, zr, zi, dst, es, scale, 0, 1);
    if (k1 == N + 1) post_tiles(p, sign, zr, zi, dst, es, scale, N, N + 1);
}

static void real_pre_io(const fft_plan *p, int sign, fft_io src, int64_t es, int64_t cnt,
                        double *zr, double *zi, int64_t k0, int64_t k1)
{
    const int64_t N = p->n;
    if (io_packed_complex(src, es) && cnt > N && N > 1) {
        const int64_t a = k0 > 1 ? k0 : 1;
        if (a < k1) {
            if (src.f32) ST_PICK(pre_line_f32)(p, sign, (const float *)src.re, zr, zi, a, k1);
            else ST_PICK(pre_line_f64)(p, sign, (const double *)src.re, zr, zi, a, k1);
        }
        if (k0 > 0) return;
        k1 = 1;                                        /* k = 0 below */
    }
    const double wsign = sign < 0 ? 1.0 : -1.0;
    for (int64_t k = k0; k < k1; k++) {
        const int64_t b = N - k;
        double ar = 0, ai = 0, br = 0, bi = 0;
        if (k < cnt) {
            if (src.re) ar = LOAD(src.f32, src.re + k * es);
            if (src.im && k) ai = LOAD(src.f32, src.im + k * es);
        }
        if (b < cnt) {
            if (src.re) br = LOAD(src.f32, src.re + b * es);
            if (src.im && k) bi = LOAD(src.f32, src.im + b * es);
        }
        const double wr = p->hr[k], wi = wsign * p->hi[k];
        const double dr = ar - br, di = ai + bi;
        const double orr = CMUL_RE(dr, di, wr, wi), oi = CMUL_IM(dr, di, wr, wi);
        zr[k] = (ar + br) - oi;
        zi[k] = (ai - bi) + orr;
    }
}

/* One long even real line (packed), the threads sharing it.  A direct plan
 * reads (r2c) or writes (c2r) the tensor's pairs itself in the four-step. */
static void line_big_packed(const fft_plan *p, const fft_line *ln, double *s, int nt)
{
    const int64_t N = p->n, zero = 0, pairs = ln->scnt / 2, d8 = sizeof(double);
    double *ar = s, *ai = s + N, *rest = ai + N;
    const int inv = ln->sign > 0;
    const int64_t chunk = (N + nt) / nt;
    const fft_io split = io_split(ar, ai);
    if (ln->packed == PACK_R2C) {
        if (p->n1 && ln->scnt % 2 == 0) {
            fourstep(p, 1, ln->src, 2 * ln->ses, &zero, pairs, split, d8, &zero, N, 1.0, rest,
                     rest + 2 * N, nt);
        } else {
            gather(ar, ai, N, 1, ln->src, 2 * ln->ses, &zero, &pairs);
            packed_tail(ln, ar, ai, 1, &zero);
            line_transform(p, ar, ai, rest, nt);
        }
#pragma omp parallel for num_threads(nt) if (nt > 1) schedule(static, 1)
        for (int t = 0; t < nt; t++) {
            const int64_t k0 = t * chunk, k1 = k0 + chunk < N + 1 ? k0 + chunk : N + 1;
            if (k0 < k1)
                real_post_io(p, ln->sign, inv ? ai : ar, inv ? ar : ai, ln->dst, ln->des,
                             ln->scale, k0, k1);
        }
        return;
    }
#pragma omp parallel for num_threads(nt) if (nt > 1) schedule(static, 1)
    for (int t = 0; t < nt; t++) {
        const int64_t k0 = t * chunk, k1 = k0 + chunk < N ? k0 + chunk : N;
        if (k0 < k1)
            real_pre_io(p, ln->sign, ln->src, ln->ses, ln->scnt, inv ? ai : ar, inv ? ar : ai,
                        k0, k1);
    }
    /* the result's parts are x_2j, x_2j+1 (exchanged for the inverse sign) */
    const fft_io out = inv ? io_swap(ln->dst) : ln->dst;
    if (p->n1) {
        fourstep(p, 1, split, d8, &zero, N, out, 2 * ln->des, &zero, N, ln->scale, rest,
                 rest + 2 * N, nt);
        return;
    }
    line_transform(p, ar, ai, rest, nt);
    scatter(out, 2 * ln->des, &zero, &N, ar, ai, 1, ln->scale);
}

/* One long line: src -> dst as ln says (offsets applied); s: big_scratch. */
static void line_big(const fft_plan *p, const fft_line *ln, double *s, int nt)
{
    const int64_t n = p->n, zero = 0;
    double *xr = s, *xi = s + n, *rest = s + 2 * n;
    if (ln->packed) {
        line_big_packed(p, ln, s, nt);
        return;
    }
    if (!p->m && direct_lines(p, ln)) {        /* straight from the tensor to the tensor */
        fourstep(p, 1, ln->src, ln->ses, &zero, ln->scnt, ln->dst, ln->des, &zero, ln->dcnt,
                 ln->scale, rest, rest + 2 * n, nt);
        return;
    }
    gather(xr, xi, n, 1, ln->src, ln->ses, &zero, &ln->scnt);
    if (ln->herm) hermitian_fill(xr, xi, n, 1, ln->swapped);
    line_transform(p, xr, xi, rest, nt);
    scatter(ln->dst, ln->des, &zero, &ln->dcnt, xr, xi, 1, ln->scale);
}

/* Lines whose working set outgrows L2 go one at a time, threads inside. */
static int is_big(const fft_plan *p)
{
    return plan_len(p) * 2 * (int64_t)sizeof(double) > FFT_L2_BYTES;
}

static st_status run_big(const fft_job *job)
{
    const fft_plan *p = job->p;
    const int nt = st_threads_for(plan_len(p));
    int64_t bytes;
    double *s = scratch_get(big_scratch(p, &job->ln, nt), &bytes);
    if (!s) return st_fail(ST_E_MEMORY, "fft: cannot allocate %lld bytes of scratch",
                           (long long)bytes);
    for (int64_t line = 0; line < job->nlines; line++) {
        int64_t oin, oout;
        line_offsets(job, line, 1, &oin, &oout);
        fft_line ln = job->ln;
        ln.src = io_at(ln.src, oin);
        ln.dst = io_at(ln.dst, oout);
        line_big(p, &ln, s, nt);
    }
    scratch_put(s, bytes);
    return ST_OK;
}

/* Forward transform of one split line in place (Bluestein's kernel). */
static st_status transform_line_split(const fft_plan *p, double *xr, double *xi)
{
    const int nt = st_threads_for(plan_len(p));
    double *s = st_aligned_alloc(line_scratch(p, nt) * (int64_t)sizeof(double));
    if (!s) return st_fail(ST_E_MEMORY, "fft: out of memory for the line scratch");
    line_transform(p, xr, xi, s, nt);
    st_aligned_free(s);
    return ST_OK;
}

/* ------------------------------------------------------------------ entry points */

/* Checks shared by the three transforms; fills the batch part of job. */
static st_status check_pair(const char *what, st_tensor *out, const st_tensor *in, int dim,
                            fft_job *job)
{
    char si[256], so[256];
    st_status rc;
    if ((rc = st_check_writable(out, "fft output")) || (rc = st_check_storage(in, "fft input")))
        return rc;
    if (in->ndim != out->ndim || in->ndim < 1)
        return st_fail(ST_E_VALUE, "%s: input and output need the same number of dims (at least "
                       "1), got %d and %d", what, in->ndim, out->ndim);
    if (dim < 0 || dim >= in->ndim)
        return st_fail(ST_E_INDEX, "%s: dim %d out of range for %d dims", what, dim, in->ndim);
    for (int d = 0; d < in->ndim; d++)
        if (d != dim && in->sizes[d] != out->sizes[d]) {
            st_shape_str(si, sizeof si, in->ndim, in->sizes);
            st_shape_str(so, sizeof so, out->ndim, out->sizes);
            return st_fail(ST_E_VALUE, "%s: input %s and output %s differ on dim %d", what, si,
                           so, d);
        }
    if (st_tensor_numel(out) > 0 && st_tensor_shares_memory(out, in))
        return st_fail(ST_E_VALUE, "%s: the output shares memory with the input", what);
    /* batch dims: every dim but `dim` of size > 1, ordered by the input's
     * stride (outermost first) so that neighbouring lines are near in memory */
    job->nb = 0;
    job->nlines = 1;
    const int64_t isz = st_itemsize(in->dtype), osz = st_itemsize(out->dtype);
    for (int d = 0; d < in->ndim; d++) {
        if (d == dim) continue;
        job->nlines *= out->sizes[d];
        if (out->sizes[d] == 1) continue;
        int k = job->nb++;
        while (k > 0 && llabs(job->bin[k - 1]) < llabs(in->strides[d] * isz)) {
            job->bsize[k] = job->bsize[k - 1];
            job->bin[k] = job->bin[k - 1];
            job->bout[k] = job->bout[k - 1];
            k--;
        }
        job->bsize[k] = out->sizes[d];
        job->bin[k] = in->strides[d] * isz;
        job->bout[k] = out->strides[d] * osz;
    }
    return ST_OK;
}

static st_status check_n(const char *what, int64_t n)
{
    if (n < 1) return st_fail(ST_E_VALUE, "%s: the transform length must be >= 1, got %lld",
                              what, (long long)n);
    if (n > ST_FFT_MAX_N)
        return st_fail(ST_E_VALUE, "%s: the transform length %lld exceeds 2^40", what,
                       (long long)n);
    return ST_OK;
}

/* A tensor's parts as an fft_io: complex (interleaved) or real. */
static fft_io io_of(const st_tensor *t, int swapped)
{
    fft_io io = {NULL, NULL, st_real_dtype(t->dtype) == ST_FLOAT32};
    if (st_tensor_numel(t) > 0) {
        io.re = st_tensor_data(t);
        if (st_is_complex(t->dtype)) io.im = io.re + st_itemsize(t->dtype) / 2;
    }
    return swapped ? io_swap(io) : io;
}

/* real: 0 (c2c), PACK_R2C or PACK_C2R; the even real transforms go packed
 * through a complex plan of n/2 points (the top of the section above). */
static st_status run_job(fft_job *job, const st_tensor *in, const st_tensor *out, int dim,
                         int64_t n, int64_t nread, int real)
{
    if (job->nlines == 0) return ST_OK;
    const int64_t m = in->sizes[dim];
    fft_line *ln = &job->ln;
    ln->sign = ln->swapped ? 1 : -1;
    ln->packed = real && n % 2 == 0 ? real : 0;
    ln->src = io_of(in, ln->swapped);
    ln->ses = in->strides[dim] * st_itemsize(in->dtype);
    ln->scnt = m < nread ? m : nread;
    ln->dst = io_of(out, ln->swapped);
    ln->des = out->strides[dim] * st_itemsize(out->dtype);
    ln->dcnt = out->sizes[dim];
    if (ln->packed == PACK_R2C) {
        /* the real line read as complex pairs (x_2j, x_2j+1); the parts are
         * exchanged for the inverse sign, the half spectrum is written as is */
        ln->src = io_of(in, 0);
        ln->src.im = ln->src.re ? ln->src.re + ln->ses : NULL;
        if (ln->swapped) ln->src = io_swap(ln->src);
        ln->dst = io_of(out, 0);
    } else if (ln->packed == PACK_C2R) {
        /* the half spectrum read as is; the output written as pairs */
        ln->src = io_of(in, 0);
        ln->dst = io_of(out, 0);
        ln->dst.im = ln->dst.re ? ln->dst.re + ln->des : NULL;
    }
    if (m == 0) ln->src.re = ln->src.im = NULL;      /* nothing to read: zeros */
    fft_plan *p = ln->packed ? plan_get(n / 2, 1) : plan_get(n, 0);
    if (!p) return st_fail(ST_E_MEMORY, "fft: cannot allocate the plan for %lld points",
                           (long long)n);
    job->p = p;
    st_status rc = is_big(p) ? run_big(job) : run_lines(job);
    plan_release(p);
    return rc;
}

st_status st_fft_c2c(st_tensor *out, const st_tensor *in, int dim, int forward, double scale)
{
    fft_job job;
    st_status rc;
    if (!st_is_complex(in->dtype))
        return st_fail(ST_E_TYPE, "fft: the input must be complex, got %s", st_dtype_name(in->dtype));
    if ((rc = st_check_dtype(out, in->dtype, "fft output"))) return rc;
    if ((rc = check_pair("fft", out, in, dim, &job))) return rc;
    const int64_t n = out->sizes[dim];
    if ((rc = check_n("fft", n))) return rc;
    job.ln.herm = 0;
    job.ln.swapped = !forward;
    job.ln.scale = scale;
    return run_job(&job, in, out, dim, n, n, 0);
}

st_status st_fft_r2c(st_tensor *out, const st_tensor *in, int dim, int64_t n, int forward,
                     double scale)
{
    fft_job job;
    st_status rc;
    if (!st_is_float(in->dtype))
        return st_fail(ST_E_TYPE, "rfft: the input must be float32 or float64, got %s",
                       st_dtype_name(in->dtype));
    if ((rc = st_check_dtype(out, in->dtype == ST_FLOAT32 ? ST_COMPLEX64 : ST_COMPLEX128,
                             "rfft output")))
        return rc;
    if ((rc = check_n("rfft", n))) return rc;
    if ((rc = check_pair("rfft", out, in, dim, &job))) return rc;
    if (out->sizes[dim] != n / 2 + 1)
        return st_fail(ST_E_VALUE, "rfft: the output has %lld elements along dim %d, expected "
                       "n/2 + 1 = %lld", (long long)out->sizes[dim], dim, (long long)(n / 2 + 1));
    job.ln.herm = 0;
    job.ln.swapped = !forward;
    job.ln.scale = scale;
    return run_job(&job, in, out, dim, n, n, PACK_R2C);
}

st_status st_fft_c2r(st_tensor *out, const st_tensor *in, int dim, int forward, double scale)
{
    fft_job job;
    st_status rc;
    if (!st_is_complex(in->dtype))
        return st_fail(ST_E_TYPE, "irfft: the input must be complex, got %s",
                       st_dtype_name(in->dtype));
    if ((rc = st_check_dtype(out, st_real_dtype(in->dtype), "irfft output"))) return rc;
    if ((rc = check_pair("irfft", out, in, dim, &job))) return rc;
    const int64_t n = out->sizes[dim];
    if ((rc = check_n("irfft", n))) return rc;
    job.ln.herm = 1;
    job.ln.swapped = !forward;
    job.ln.scale = scale;
    return run_job(&job, in, out, dim, n, n / 2 + 1, PACK_C2R);
}
