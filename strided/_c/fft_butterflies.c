/* fft_butterflies.c -- the radix passes of the FFT (Stockham, decimation in
 * frequency) and the engine that runs a direct plan's stages over a block of
 * lanes, compiled per CPU level.  The algorithms: the top of fft.c. */
#include "fft_internal.h"

/* ------------------------------------------------------------------ passes
 * x -> y for one stage; see the comment at the top for the indices.  Each
 * pass has a loop without twiddles for p = 0 (all of the last stage). */

/* The inner loops of the passes read and write distinct arrays (x and y,
 * and within y the k outputs of a butterfly are distinct rows), but GCC
 * loses `restrict` on pointers derived inside the outer loop and gives up
 * on runtime alias checks past 10 streams: without this a pass is scalar. */
#define FFT_IVDEP _Pragma("GCC ivdep")

/* Stores of output k of a butterfly at position i: plain (p = 0) or times
 * the stage twiddle w_k (locals w<k>r, w<k>i loaded before the loop). */
#define ST_PLAIN(k, vr, vi)                                                                        \
    do {                                                                                           \
        br[i + (k) * run] = (vr);                                                                  \
        bi[i + (k) * run] = (vi);                                                                  \
    } while (0)
#define ST_TW(k, vr, vi)                                                                           \
    do {                                                                                           \
        const double vr_ = (vr), vi_ = (vi);                                                       \
        br[i + (k) * run] = CMUL_RE(vr_, vi_, w##k##r, w##k##i);                                   \
        bi[i + (k) * run] = CMUL_IM(vr_, vi_, w##k##r, w##k##i);                                   \
    } while (0)
#define LOAD_TW(k) const double w##k##r = wr[(k) - 1], w##k##i = wi[(k) - 1]

#define PASS2_LOOP(STORE)                                                                          \
    FFT_IVDEP                                                                                      \
    for (int64_t i = 0; i < run; i++) {                                                            \
        double a0r = ar[i], a0i = ai[i], a1r = ar[i + d], a1i = ai[i + d];                         \
        br[i] = a0r + a1r;                                                                         \
        bi[i] = a0i + a1i;                                                                         \
        STORE(1, a0r - a1r, a0i - a1i);                                                            \
    }

ST_LEVEL_BODY void pass2(int64_t m, int64_t run, const double *twr, const double *twi,
                         const double *restrict xr, const double *restrict xi, double *restrict yr,
                         double *restrict yi)
{
    const int64_t d = run * m;
    for (int64_t p = 0; p < m; p++) {
        const double *ar = xr + run * p, *ai = xi + run * p;
        double *br = yr + 2 * run * p, *bi = yi + 2 * run * p;
        const double *wr = twr + p, *wi = twi + p;
        if (p == 0) {
            PASS2_LOOP(ST_PLAIN)
        } else {
            LOAD_TW(1);
            PASS2_LOOP(ST_TW)
        }
    }
}

#define PASS3_LOOP(STORE)                                                                          \
    FFT_IVDEP                                                                                      \
    for (int64_t i = 0; i < run; i++) {                                                            \
        double a0r = ar[i], a0i = ai[i];                                                           \
        double t1r = ar[i + d] + ar[i + 2 * d], t1i = ai[i + d] + ai[i + 2 * d];                   \
        double t3r = h * (ar[i + d] - ar[i + 2 * d]), t3i = h * (ai[i + d] - ai[i + 2 * d]);       \
        double t2r = a0r - 0.5 * t1r, t2i = a0i - 0.5 * t1i;                                       \
        br[i] = a0r + t1r;                                                                         \
        bi[i] = a0i + t1i;                                                                         \
        STORE(1, t2r + t3i, t2i - t3r); /* t2 - i t3 */                                            \
        STORE(2, t2r - t3i, t2i + t3r); /* t2 + i t3 */                                            \
    }

ST_LEVEL_BODY void pass3(int64_t m, int64_t run, const double *twr, const double *twi,
                         const double *restrict xr, const double *restrict xi, double *restrict yr,
                         double *restrict yi)
{
    const double h = 0.86602540378443864676; /* sin(2 pi / 3) */
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

#define PASS4_LOOP(STORE)                                                                          \
    FFT_IVDEP                                                                                      \
    for (int64_t i = 0; i < run; i++) {                                                            \
        double t0r = ar[i] + ar[i + 2 * d], t0i = ai[i] + ai[i + 2 * d];                           \
        double t1r = ar[i] - ar[i + 2 * d], t1i = ai[i] - ai[i + 2 * d];                           \
        double t2r = ar[i + d] + ar[i + 3 * d], t2i = ai[i + d] + ai[i + 3 * d];                   \
        /* t3 = -i (a1 - a3) */                                                                    \
        double t3r = ai[i + d] - ai[i + 3 * d], t3i = ar[i + 3 * d] - ar[i + d];                   \
        br[i] = t0r + t2r;                                                                         \
        bi[i] = t0i + t2i;                                                                         \
        STORE(1, t1r + t3r, t1i + t3i);                                                            \
        STORE(2, t0r - t2r, t0i - t2i);                                                            \
        STORE(3, t1r - t3r, t1i - t3i);                                                            \
    }

ST_LEVEL_BODY void pass4(int64_t m, int64_t run, const double *twr, const double *twi,
                         const double *restrict xr, const double *restrict xi, double *restrict yr,
                         double *restrict yi)
{
    const int64_t d = run * m;
    for (int64_t p = 0; p < m; p++) {
        const double *ar = xr + run * p, *ai = xi + run * p;
        double *br = yr + 4 * run * p, *bi = yi + 4 * run * p;
        const double *wr = twr + 3 * p, *wi = twi + 3 * p;
        if (p == 0) {
            PASS4_LOOP(ST_PLAIN)
        } else {
            LOAD_TW(1);
            LOAD_TW(2);
            LOAD_TW(3);
            PASS4_LOOP(ST_TW)
        }
    }
}

#define PASS5_LOOP(STORE)                                                                          \
    FFT_IVDEP                                                                                      \
    for (int64_t i = 0; i < run; i++) {                                                            \
        double a0r = ar[i], a0i = ai[i];                                                           \
        double t1r = ar[i + d] + ar[i + 4 * d], t1i = ai[i + d] + ai[i + 4 * d];                   \
        double t2r = ar[i + 2 * d] + ar[i + 3 * d], t2i = ai[i + 2 * d] + ai[i + 3 * d];           \
        double t3r = ar[i + d] - ar[i + 4 * d], t3i = ai[i + d] - ai[i + 4 * d];                   \
        double t4r = ar[i + 2 * d] - ar[i + 3 * d], t4i = ai[i + 2 * d] - ai[i + 3 * d];           \
        double m1r = a0r + c1 * t1r + c2 * t2r, m1i = a0i + c1 * t1i + c2 * t2i;                   \
        double m2r = a0r + c2 * t1r + c1 * t2r, m2i = a0i + c2 * t1i + c1 * t2i;                   \
        double n1r = s1 * t3r + s2 * t4r, n1i = s1 * t3i + s2 * t4i;                               \
        double n2r = s2 * t3r - s1 * t4r, n2i = s2 * t3i - s1 * t4i;                               \
        br[i] = a0r + t1r + t2r;                                                                   \
        bi[i] = a0i + t1i + t2i;                                                                   \
        /* b1 = m1 - i n1, b4 = m1 + i n1, b2 = m2 - i n2, b3 = m2 + i n2 */                       \
        STORE(1, m1r + n1i, m1i - n1r);                                                            \
        STORE(2, m2r + n2i, m2i - n2r);                                                            \
        STORE(3, m2r - n2i, m2i + n2r);                                                            \
        STORE(4, m1r - n1i, m1i + n1r);                                                            \
    }

ST_LEVEL_BODY void pass5(int64_t m, int64_t run, const double *twr, const double *twi,
                         const double *restrict xr, const double *restrict xi, double *restrict yr,
                         double *restrict yi)
{
    const double c1 = 0.30901699437494742410, c2 = -0.80901699437494742410; /* cos 2pi/5, 4pi/5 */
    const double s1 = 0.95105651629515357212, s2 = 0.58778525229247312917;  /* sin 2pi/5, 4pi/5 */
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
#define DFT4(c0r, c0i, c1r, c1i, c2r, c2i, c3r, c3i, d0r, d0i, d1r, d1i, d2r, d2i, d3r, d3i)       \
    do {                                                                                           \
        double s02r = c0r + c2r, s02i = c0i + c2i, d02r = c0r - c2r, d02i = c0i - c2i;             \
        double s13r = c1r + c3r, s13i = c1i + c3i, d13r = c1r - c3r, d13i = c1i - c3i;             \
        d0r = s02r + s13r;                                                                         \
        d0i = s02i + s13i;                                                                         \
        d2r = s02r - s13r;                                                                         \
        d2i = s02i - s13i;                                                                         \
        d1r = d02r + d13i;                                                                         \
        d1i = d02i - d13r; /* d02 - i d13 */                                                       \
        d3r = d02r - d13i;                                                                         \
        d3i = d02i + d13r; /* d02 + i d13 */                                                       \
    } while (0)

#define PASS8_LOOP(STORE)                                                                          \
    FFT_IVDEP                                                                                      \
    for (int64_t i = 0; i < run; i++) {                                                            \
        double u0r = ar[i] + ar[i + 4 * d], u0i = ai[i] + ai[i + 4 * d];                           \
        double v0r = ar[i] - ar[i + 4 * d], v0i = ai[i] - ai[i + 4 * d];                           \
        double u1r = ar[i + d] + ar[i + 5 * d], u1i = ai[i + d] + ai[i + 5 * d];                   \
        double e1r = ar[i + d] - ar[i + 5 * d], e1i = ai[i + d] - ai[i + 5 * d];                   \
        double u2r = ar[i + 2 * d] + ar[i + 6 * d], u2i = ai[i + 2 * d] + ai[i + 6 * d];           \
        double e2r = ar[i + 2 * d] - ar[i + 6 * d], e2i = ai[i + 2 * d] - ai[i + 6 * d];           \
        double u3r = ar[i + 3 * d] + ar[i + 7 * d], u3i = ai[i + 3 * d] + ai[i + 7 * d];           \
        double e3r = ar[i + 3 * d] - ar[i + 7 * d], e3i = ai[i + 3 * d] - ai[i + 7 * d];           \
        /* v1 = e1 (1 - i)/sqrt2, v2 = -i e2, v3 = e3 (-1 - i)/sqrt2 */                            \
        double v1r = h * (e1r + e1i), v1i = h * (e1i - e1r);                                       \
        double v2r = e2i, v2i = -e2r;                                                              \
        double v3r = h * (e3i - e3r), v3i = -h * (e3r + e3i);                                      \
        double b0r, b0i, b1r, b1i, b2r, b2i, b3r, b3i, b4r, b4i, b5r, b5i, b6r, b6i, b7r, b7i;     \
        DFT4(u0r, u0i, u1r, u1i, u2r, u2i, u3r, u3i, b0r, b0i, b2r, b2i, b4r, b4i, b6r, b6i);      \
        DFT4(v0r, v0i, v1r, v1i, v2r, v2i, v3r, v3i, b1r, b1i, b3r, b3i, b5r, b5i, b7r, b7i);      \
        br[i] = b0r;                                                                               \
        bi[i] = b0i;                                                                               \
        STORE(1, b1r, b1i);                                                                        \
        STORE(2, b2r, b2i);                                                                        \
        STORE(3, b3r, b3i);                                                                        \
        STORE(4, b4r, b4i);                                                                        \
        STORE(5, b5r, b5i);                                                                        \
        STORE(6, b6r, b6i);                                                                        \
        STORE(7, b7r, b7i);                                                                        \
    }

ST_LEVEL_BODY void pass8(int64_t m, int64_t run, const double *twr, const double *twi,
                         const double *restrict xr, const double *restrict xi, double *restrict yr,
                         double *restrict yi)
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
                         const double *rtr, const double *rti, const double *restrict xr,
                         const double *restrict xi, double *restrict yr, double *restrict yi)
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
                    const double cr = rtr[t], sn = -rti[t]; /* cos, sin of 2 pi rk/f */
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
        case 2:
            pass2(m, run, twr, twi, ar, ai, br, bi);
            break;
        case 3:
            pass3(m, run, twr, twi, ar, ai, br, bi);
            break;
        case 4:
            pass4(m, run, twr, twi, ar, ai, br, bi);
            break;
        case 5:
            pass5(m, run, twr, twi, ar, ai, br, bi);
            break;
        case 8:
            pass8(m, run, twr, twi, ar, ai, br, bi);
            break;
        default:
            passg(f, m, run, twr, twi, pl->rtr + pl->rootoff[s], pl->rti + pl->rootoff[s], ar, ai,
                  br, bi);
        }
        double *t = ar;
        ar = br;
        br = t;
        t = ai;
        ai = bi;
        bi = t;
        run *= f;
        nt = m;
    }
    *rr = ar;
    *ri = ai;
}
/* engine_v4, _v3, _v0: the passes inlined, compiled for each CPU level */
ST_LEVEL_FN(engine,
            (const fft_plan *pl, int64_t L, double *xr, double *xi, double *yr, double *yi,
             double **rr, double **ri),
            (pl, L, xr, xi, yr, yi, rr, ri))

void fft_engine(const fft_plan *pl, int64_t L, double *xr, double *xi, double *yr, double *yi,
                double **rr, double **ri)
{
    ST_PICK(engine)(pl, L, xr, xi, yr, yi, rr, ri);
}
