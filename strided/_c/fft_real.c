/* fft_real.c -- real transforms of ODD length by real-data radix passes
 * (halfcomplex storage), compiled per CPU level.  An even real line is
 * packed as n/2 complex points (fft.c, "real transforms"); an odd one
 * cannot be, and a complex transform of the whole line would do twice the
 * work.  Our own derivation of the classic scheme (real-data passes with
 * halfcomplex storage, as in FFTPACK's), written out here.
 *
 * Halfcomplex.  The DFT Z of a real sequence of odd length N is stored as
 * N reals: h[0] = Z_0, h[2u-1] = Re Z_u, h[2u] = Im Z_u for 1 <= u <= (N-1)/2
 * (Z_(N-u) = conj Z_u gives the rest).
 *
 * Forward (decimation in time, self-sorting).  n = f_0 f_1 ... f_(s-1) (the
 * plan's radices); stage t has ip = f_t, l1 = f_0 ... f_(t-1), ido = n /
 * (l1 ip), N = ido ip, and the forward transform runs the stages from the
 * last (ido = 1) to the first (l1 = 1).  Before stage t, for each k < l1 and
 * j < ip, Y_kj = the DFT of length ido of x[k + l1 j + l1 ip q] (q < ido) is
 * held halfcomplex at element ido (k + l1 j); the stage makes
 *     Z_k[i + ido v] = sum_j W_ip^(j v) (W_N^(j i) Y_kj[i])   (i < ido, v < ip)
 * (W_m = exp(-2 pi i / m)), the DFT of length N of x[k + l1 t], halfcomplex
 * at element N k.  Only i <= g = (ido-1)/2 is computed: Y_kj[ido-i] =
 * conj Y_kj[i].  For 1 <= i <= g, outputs v <= h = (ip-1)/2 are stored at
 * u = i + ido v (all of them <= (N-1)/2), outputs v > h conjugated at N - u
 * = (ido - i) + ido (ip-1-v), which is how the rows i > g are filled.  Rows
 * i = 0 are a real DFT of ip points.  The ip-point DFT uses the sums and
 * differences t_r +- t_(ip-r), which halve its work.
 *
 * Backward (the unnormalised inverse, exponent +) undoes the stages in the
 * other order (first to last), each the transpose of the above:
 *     Y'_kj[i] = conj(W_N^(j i)) sum_v W_ip^(-j v) Z_k[i + ido v],
 * reading Z_k[i + ido v] for v > h as the conjugate of the stored element at
 * (ido - i) + ido (ip-1-v).  After the last stage (ido = 1) element k + l1 j
 * is x[k + l1 j].
 *
 * Layout: a block of L lines, element e of lane l at [e*L + l].  Between
 * stages the k of a stage and the lanes make one contiguous run of l1 L
 * doubles (Y_kj[e] at [((e ip + j) l1 + k) L + l]), the innermost loop,
 * which vectorises even for a single line (but its stage of l1 = 1, a
 * copy of which is compiled for a run of 1).  Radices 3, 5, 7, 11 and 13
 * are compiled with the radix a constant (the small DFT unrolled, in
 * registers); other odd radices up to ST_FFT_MAX_RADIX run the same code
 * with the radix a variable. */
#include "fft_internal.h"

#define RMAX ST_FFT_MAX_RADIX
#define RMAXH ((ST_FFT_MAX_RADIX - 1) / 2)

/* GCC loses `restrict` on pointers derived inside the loops and gives up on
 * runtime alias checks for this many streams (as in fft_butterflies.c):
 * the inner loops read x and write distinct rows of y. */
#define FFT_IVDEP _Pragma("GCC ivdep")

/* Rows i = 0 of a stage for the radices compiled as a variable (17 and
 * up): the run in chunks of FFT_CHUNK positions, the sums and differences
 * on the stack, so that the loops over the chunk vectorise (a per-position
 * DFT of a variable size does not).  Same arithmetic, in the same order, as
 * the per-position loops of rfwd_body and rbwd_body. */
ST_LEVEL_BODY void rfwd_row0_chunked(const int ip, const int64_t ido, const int64_t R,
                                     const double *c, const double *s, const double *restrict x,
                                     double *restrict y)
{
    const int h = (ip - 1) / 2;
    double pr[RMAXH][FFT_CHUNK], mr[RMAXH][FFT_CHUNK], a0[FFT_CHUNK], acc[FFT_CHUNK];
    double re[FFT_CHUNK], im[FFT_CHUNK];
    for (int64_t q0 = 0; q0 < R; q0 += FFT_CHUNK) {
        const int cn = R - q0 < FFT_CHUNK ? (int)(R - q0) : FFT_CHUNK;
        for (int l = 0; l < cn; l++) acc[l] = a0[l] = x[q0 + l];
        for (int r = 1; r <= h; r++) {
            const double *u = x + r * R + q0, *v = x + (ip - r) * R + q0;
            for (int l = 0; l < cn; l++) {
                pr[r - 1][l] = u[l] + v[l];
                mr[r - 1][l] = u[l] - v[l];
                acc[l] += pr[r - 1][l];
            }
        }
        for (int l = 0; l < cn; l++) y[q0 + l] = acc[l];
        for (int v = 1; v <= h; v++) {
            for (int l = 0; l < cn; l++) {
                re[l] = a0[l];
                im[l] = 0.0;
            }
            int t = 0;
            for (int r = 1; r <= h; r++) {
                t += v;
                if (t >= ip) t -= ip;
                const double ct = c[t], st = s[t];
                for (int l = 0; l < cn; l++) {
                    re[l] += ct * pr[r - 1][l];
                    im[l] -= st * mr[r - 1][l];
                }
            }
            double *yr = y + (2 * ido * v - 1) * R + q0, *yi = y + 2 * ido * v * R + q0;
            for (int l = 0; l < cn; l++) {
                yr[l] = re[l];
                yi[l] = im[l];
            }
        }
    }
}

ST_LEVEL_BODY void rbwd_row0_chunked(const int ip, const int64_t ido, const int64_t R,
                                     const double *c, const double *s, const double *restrict x,
                                     double *restrict y)
{
    const int h = (ip - 1) / 2;
    double zr[RMAXH][FFT_CHUNK], zi[RMAXH][FFT_CHUNK], a0[FFT_CHUNK], acc[FFT_CHUNK];
    double C[FFT_CHUNK], S[FFT_CHUNK];
    for (int64_t q0 = 0; q0 < R; q0 += FFT_CHUNK) {
        const int cn = R - q0 < FFT_CHUNK ? (int)(R - q0) : FFT_CHUNK;
        for (int l = 0; l < cn; l++) acc[l] = a0[l] = x[q0 + l];
        for (int v = 1; v <= h; v++) {
            const double *ur = x + (2 * ido * v - 1) * R + q0, *ui = x + 2 * ido * v * R + q0;
            for (int l = 0; l < cn; l++) {
                zr[v - 1][l] = 2.0 * ur[l];
                zi[v - 1][l] = 2.0 * ui[l];
                acc[l] += zr[v - 1][l];
            }
        }
        for (int l = 0; l < cn; l++) y[q0 + l] = acc[l];
        for (int j = 1; j <= h; j++) {
            for (int l = 0; l < cn; l++) {
                C[l] = a0[l];
                S[l] = 0.0;
            }
            int t = 0;
            for (int v = 1; v <= h; v++) {
                t += j;
                if (t >= ip) t -= ip;
                const double ct = c[t], st = s[t];
                for (int l = 0; l < cn; l++) {
                    C[l] += ct * zr[v - 1][l];
                    S[l] += st * zi[v - 1][l];
                }
            }
            double *y1 = y + j * R + q0, *y2 = y + (ip - j) * R + q0;
            for (int l = 0; l < cn; l++) {
                y1[l] = C[l] - S[l];
                y2[l] = C[l] + S[l];
            }
        }
    }
}

/* One forward stage, x -> y, over runs of R = l1 L doubles (the k and the
 * lanes, contiguous: Y_kj[e] at [(e ip + j) R + q], Z_k[e] at [e R + q],
 * q = k L + l; at the first stage, ido = 1, that is x[(k + l1 j) L + l], at
 * the last, l1 = 1, the halfcomplex line).  cs, sn: cos and sin of 2 pi t /
 * ip (t < ip); twr, twi: W_N^(j i) at [(j-1) g + i-1]. */
ST_LEVEL_BODY void rfwd_body(const int ip, const int64_t ido, const int64_t R, const double *cs,
                             const double *sn, const double *twr, const double *twi,
                             const double *restrict x, double *restrict y)
{
    const int h = (ip - 1) / 2;
    const int64_t g = (ido - 1) / 2;
    double c[RMAX], s[RMAX]; /* local: the compiler may keep them in registers */
    for (int t = 0; t < ip; t++) {
        c[t] = cs[t];
        s[t] = sn[t];
    }
    /* i = 0: real DFTs of ip points */
    /* a variable radix (17 and up) in chunks; constant ones fold this away */
    const int64_t R0 = ip > 13 ? 0 : R;
    if (ip > 13) rfwd_row0_chunked(ip, ido, R, c, s, x, y);
    FFT_IVDEP
    for (int64_t q = 0; q < R0; q++) {
        double pr[RMAXH], mr[RMAXH];
        const double a0 = x[q];
        double sum = a0;
        for (int r = 1; r <= h; r++) {
            const double u = x[r * R + q], v = x[(ip - r) * R + q];
            pr[r - 1] = u + v;
            mr[r - 1] = u - v;
            sum += pr[r - 1];
        }
        y[q] = sum;
        for (int v = 1; v <= h; v++) {
            double re = a0, im = 0.0;
            int t = 0;
            for (int r = 1; r <= h; r++) {
                t += v;
                if (t >= ip) t -= ip; /* t = r v mod ip */
                re += c[t] * pr[r - 1];
                im -= s[t] * mr[r - 1];
            }
            y[(2 * ido * v - 1) * R + q] = re;
            y[2 * ido * v * R + q] = im;
        }
    }
    for (int64_t i = 1; i <= g; i++) {
        const double *ar = x + (2 * i - 1) * ip * R, *ai = x + 2 * i * ip * R;
        double *br = y + (2 * i - 1) * R, *bi = y + 2 * i * R;
        /* the conjugated outputs' rows: (ido - i) + ido (v - 1) */
        double *cr = y + (2 * (ido - i) - 1) * R, *ci = y + 2 * (ido - i) * R;
        double w1r[RMAXH], w1i[RMAXH], w2r[RMAXH], w2i[RMAXH];
        for (int r = 1; r <= h; r++) {
            w1r[r - 1] = twr[(r - 1) * g + i - 1];
            w1i[r - 1] = twi[(r - 1) * g + i - 1];
            w2r[r - 1] = twr[(ip - r - 1) * g + i - 1];
            w2i[r - 1] = twi[(ip - r - 1) * g + i - 1];
        }
        FFT_IVDEP
        for (int64_t q = 0; q < R; q++) {
            double ppr[RMAXH], ppi[RMAXH], mmr[RMAXH], mmi[RMAXH];
            const double t0r = ar[q], t0i = ai[q];
            double sr = t0r, si = t0i;
            for (int r = 1; r <= h; r++) {
                const int64_t o1 = r * R + q, o2 = (ip - r) * R + q;
                const double yr1 = ar[o1], yi1 = ai[o1], yr2 = ar[o2], yi2 = ai[o2];
                const double ur = CMUL_RE(w1r[r - 1], w1i[r - 1], yr1, yi1);
                const double ui = CMUL_IM(w1r[r - 1], w1i[r - 1], yr1, yi1);
                const double vr = CMUL_RE(w2r[r - 1], w2i[r - 1], yr2, yi2);
                const double vi = CMUL_IM(w2r[r - 1], w2i[r - 1], yr2, yi2);
                ppr[r - 1] = ur + vr;
                ppi[r - 1] = ui + vi;
                mmr[r - 1] = ur - vr;
                mmi[r - 1] = ui - vi;
                sr += ppr[r - 1];
                si += ppi[r - 1];
            }
            br[q] = sr;
            bi[q] = si;
            for (int v = 1; v <= h; v++) {
                double Ar = t0r, Ai = t0i, Br = 0.0, Bi = 0.0;
                int t = 0;
                for (int r = 1; r <= h; r++) {
                    t += v;
                    if (t >= ip) t -= ip;
                    Ar += c[t] * ppr[r - 1];
                    Ai += c[t] * ppi[r - 1];
                    Br += s[t] * mmr[r - 1];
                    Bi += s[t] * mmi[r - 1];
                }
                /* Z_v = A - i B at u = i + ido v; Z_(ip-v) = A + i B,
                 * conjugated, at (ido - i) + ido (v - 1) */
                br[2 * ido * v * R + q] = Ar + Bi;
                bi[2 * ido * v * R + q] = Ai - Br;
                cr[2 * ido * (v - 1) * R + q] = Ar - Bi;
                ci[2 * ido * (v - 1) * R + q] = -(Ai + Br);
            }
        }
    }
}

/* One backward stage: x (Z_k[e] at [e R + q]) -> y (Y'_kj[e] at
 * [(e ip + j) R + q]); the twiddles as for rfwd_body, conjugated. */
ST_LEVEL_BODY void rbwd_body(const int ip, const int64_t ido, const int64_t R, const double *cs,
                             const double *sn, const double *twr, const double *twi,
                             const double *restrict x, double *restrict y)
{
    const int h = (ip - 1) / 2;
    const int64_t g = (ido - 1) / 2;
    double c[RMAX], s[RMAX];
    for (int t = 0; t < ip; t++) {
        c[t] = cs[t];
        s[t] = sn[t];
    }
    /* i = 0: Y'_j[0] = Z_0 + 2 sum_v Re(Z_(ido v) W_ip^(-j v)), real */
    /* a variable radix (17 and up) in chunks; constant ones fold this away */
    const int64_t R0 = ip > 13 ? 0 : R;
    if (ip > 13) rbwd_row0_chunked(ip, ido, R, c, s, x, y);
    FFT_IVDEP
    for (int64_t q = 0; q < R0; q++) {
        double zr[RMAXH], zi[RMAXH];
        const double a0 = x[q];
        double sum = a0;
        for (int v = 1; v <= h; v++) {
            zr[v - 1] = 2.0 * x[(2 * ido * v - 1) * R + q];
            zi[v - 1] = 2.0 * x[2 * ido * v * R + q];
            sum += zr[v - 1];
        }
        y[q] = sum;
        for (int j = 1; j <= h; j++) {
            double C = a0, S = 0.0;
            int t = 0;
            for (int v = 1; v <= h; v++) {
                t += j;
                if (t >= ip) t -= ip; /* t = j v mod ip */
                C += c[t] * zr[v - 1];
                S += s[t] * zi[v - 1];
            }
            y[j * R + q] = C - S;
            y[(ip - j) * R + q] = C + S;
        }
    }
    for (int64_t i = 1; i <= g; i++) {
        const double *ar = x + (2 * i - 1) * R, *ai = x + 2 * i * R;
        const double *cr = x + (2 * (ido - i) - 1) * R, *ci = x + 2 * (ido - i) * R;
        double *br = y + (2 * i - 1) * ip * R, *bi = y + 2 * i * ip * R;
        double w1r[RMAXH], w1i[RMAXH], w2r[RMAXH], w2i[RMAXH]; /* conj(W_N^(j i)) */
        for (int j = 1; j <= h; j++) {
            w1r[j - 1] = twr[(j - 1) * g + i - 1];
            w1i[j - 1] = -twi[(j - 1) * g + i - 1];
            w2r[j - 1] = twr[(ip - j - 1) * g + i - 1];
            w2i[j - 1] = -twi[(ip - j - 1) * g + i - 1];
        }
        FFT_IVDEP
        for (int64_t q = 0; q < R; q++) {
            double ppr[RMAXH], ppi[RMAXH], mmr[RMAXH], mmi[RMAXH];
            const double s0r = ar[q], s0i = ai[q];
            double sr = s0r, si = s0i;
            for (int v = 1; v <= h; v++) {
                /* Z[i + ido v] stored; Z[i + ido (ip-v)] = conj of the
                 * element at (ido - i) + ido (v - 1) */
                const double ur = ar[2 * ido * v * R + q], ui = ai[2 * ido * v * R + q];
                const double qr = cr[2 * ido * (v - 1) * R + q];
                const double qi = -ci[2 * ido * (v - 1) * R + q];
                ppr[v - 1] = ur + qr;
                ppi[v - 1] = ui + qi;
                mmr[v - 1] = ur - qr;
                mmi[v - 1] = ui - qi;
                sr += ppr[v - 1];
                si += ppi[v - 1];
            }
            br[q] = sr;
            bi[q] = si;
            for (int j = 1; j <= h; j++) {
                double Ar = s0r, Ai = s0i, Br = 0.0, Bi = 0.0;
                int t = 0;
                for (int v = 1; v <= h; v++) {
                    t += j;
                    if (t >= ip) t -= ip;
                    Ar += c[t] * ppr[v - 1];
                    Ai += c[t] * ppi[v - 1];
                    Br += s[t] * mmr[v - 1];
                    Bi += s[t] * mmi[v - 1];
                }
                /* U_j = A + i B, U_(ip-j) = A - i B; times conj(W_N^(j i)) */
                const double ujr = Ar - Bi, uji = Ai + Br, uqr = Ar + Bi, uqi = Ai - Br;
                const int64_t o1 = j * R + q, o2 = (ip - j) * R + q;
                br[o1] = CMUL_RE(ujr, uji, w1r[j - 1], w1i[j - 1]);
                bi[o1] = CMUL_IM(ujr, uji, w1r[j - 1], w1i[j - 1]);
                br[o2] = CMUL_RE(uqr, uqi, w2r[j - 1], w2i[j - 1]);
                bi[o2] = CMUL_IM(uqr, uqi, w2r[j - 1], w2i[j - 1]);
            }
        }
    }
}

/* Each stage with the radix (3, 5, 7, 11, 13: a constant) and, for the stage of a
 * single line with l1 = 1, the run (1) known to the compiler. */
#define RPASS_CASES(BODY)                                                                          \
    switch (ip) {                                                                                  \
    case 3:                                                                                        \
        BODY(3, ido, RR, cs, sn, twr, twi, x, y);                                                  \
        break;                                                                                     \
    case 5:                                                                                        \
        BODY(5, ido, RR, cs, sn, twr, twi, x, y);                                                  \
        break;                                                                                     \
    case 7:                                                                                        \
        BODY(7, ido, RR, cs, sn, twr, twi, x, y);                                                  \
        break;                                                                                     \
    case 11:                                                                                       \
        BODY(11, ido, RR, cs, sn, twr, twi, x, y);                                                 \
        break;                                                                                     \
    case 13:                                                                                       \
        BODY(13, ido, RR, cs, sn, twr, twi, x, y);                                                 \
        break;                                                                                     \
    default:                                                                                       \
        BODY(ip, ido, RR, cs, sn, twr, twi, x, y);                                                 \
    }

ST_LEVEL_BODY void rpass(int fwd, int ip, int64_t ido, int64_t R, const double *cs,
                         const double *sn, const double *twr, const double *twi,
                         const double *restrict x, double *restrict y)
{
    if (R == 1) {
        const int64_t RR = 1;
        if (fwd) {
            RPASS_CASES(rfwd_body)
        } else {
            RPASS_CASES(rbwd_body)
        }
    } else {
        const int64_t RR = R;
        if (fwd) {
            RPASS_CASES(rfwd_body)
        } else {
            RPASS_CASES(rbwd_body)
        }
    }
}
ST_LEVEL_FN(rpass,
            (int fwd, int ip, int64_t ido, int64_t R, const double *cs, const double *sn,
             const double *twr, const double *twi, const double *restrict x, double *restrict y),
            (fwd, ip, ido, R, cs, sn, twr, twi, x, y))

/* The stages of plan p over the block x (n x L), ping-ponging with y;
 * returns where the result is.  fwd: real -> halfcomplex, else back. */
static double *rstages(const fft_plan *p, int fwd, int64_t L, double *x, double *y)
{
    const int nf = p->nf;
    int64_t l1s[FFT_MAX_FACTORS], l1 = 1;
    for (int s = 0; s < nf; s++) {
        l1s[s] = l1;
        l1 *= p->fac[s];
    }
    for (int q = 0; q < nf; q++) {
        const int s = fwd ? nf - 1 - q : q, ip = p->fac[s];
        const int64_t ido = p->n / (l1s[s] * ip);
        const double *cs = p->rtr + p->rootoff[s], *sn = p->rti + p->rootoff[s];
        const double *twr = p->twr + p->twoff[s], *twi = p->twi + p->twoff[s];
        ST_PICK(rpass)(fwd, ip, ido, l1s[s] * L, cs, sn, twr, twi, x, y);
        double *t = x;
        x = y;
        y = t;
    }
    return x;
}

/* ------------------------------------------------------------------ lines */

/* Lanes per group: as many as keep the block and its ping-pong (2 n L
 * doubles) in FFT_L1_BYTES, at least 8 (a vector), a power of two; it
 * depends on n alone, so results do not depend on threads. */
int64_t fft_real_odd_lanes(const fft_plan *p)
{
    const int64_t per_lane = 2 * p->n * (int64_t)sizeof(double);
    int64_t L = FFT_MAX_LANES;
    while (L > 8 && L * per_lane > FFT_L1_BYTES) L /= 2;
    return L;
}

/* Doubles of scratch for a group of G lines: the block, its ping-pong and
 * the split half spectrum ((n+1)/2 rows of each part). */
int64_t fft_real_odd_scratch(const fft_plan *p, int64_t G) { return 3 * (p->n + 1) * G; }

static int is_interleaved(fft_io io, int64_t es)
{
    const int64_t t = io.f32 ? (int64_t)sizeof(float) : (int64_t)sizeof(double);
    return io.re && io.im == io.re + t && es == 2 * t;
}

/* x[j*L + l] = element j of lane l (re only; at loff[l] + j*es bytes) for
 * j < cnt[l], zeros up to n.  Lanes equally spaced closer than es (the
 * columns of a matrix) go row by row, others lane by lane in tiles. */
static void gather_real(double *x, int64_t n, int64_t L, const char *re, int f32, int64_t es,
                        const int64_t *loff, const int64_t *cnt)
{
    int rows = L >= 4 && re;
    const int64_t ls = L > 1 ? loff[1] - loff[0] : 0;
    for (int64_t l = 0; l < L && rows; l++)
        rows = cnt[l] >= n && (l == 0 || loff[l] - loff[l - 1] == ls);
    if (rows && ls != 0 && llabs(ls) < llabs(es)) {
        for (int64_t j = 0; j < n; j++) {
            const char *r = re + loff[0] + j * es;
            double *d = x + j * L;
            if (f32)
                for (int64_t l = 0; l < L; l++) d[l] = *(const float *)(r + l * ls);
            else
                for (int64_t l = 0; l < L; l++) d[l] = *(const double *)(r + l * ls);
        }
        return;
    }
    for (int64_t j0 = 0; j0 < n; j0 += FFT_TILE) {
        const int64_t j1 = n - j0 < FFT_TILE ? n : j0 + FFT_TILE;
        for (int64_t l = 0; l < L; l++) {
            const int64_t c = !re ? j0 : cnt[l] < j1 ? (cnt[l] > j0 ? cnt[l] : j0) : j1;
            int64_t j = j0;
            if (c > j0) {
                const char *r = re + loff[l];
                if (f32)
                    for (; j < c; j++) x[j * L + l] = *(const float *)(r + j * es);
                else
                    for (; j < c; j++) x[j * L + l] = *(const double *)(r + j * es);
            }
            for (; j < j1; j++) x[j * L + l] = 0.0;
        }
    }
}

/* One line's halfcomplex spectrum h (n odd) to contiguous interleaved
 * complex T at o: X_0 = (h0, 0), X_u = (h[2u-1], neg h[2u]). */
#define HC_OUT(T)                                                                                  \
    do {                                                                                           \
        T *o = (T *)dst.re;                                                                        \
        o[0] = (T)(scale * h[0]);                                                                  \
        o[1] = (T)0;                                                                               \
        for (int64_t u = 1; u < nout; u++) {                                                       \
            o[2 * u] = (T)(scale * h[2 * u - 1]);                                                  \
            o[2 * u + 1] = (T)(sneg * h[2 * u]);                                                   \
        }                                                                                          \
    } while (0)

/* A group of G odd real lines on one thread (see fft.c's run_group): r2c
 * (c2r = 0) reads real lines of scnt elements (zeros up to n) and writes
 * dcnt = (n+1)/2 complex ones; c2r reads scnt complex elements (zeros up to
 * (n+1)/2; the imaginary part of X_0 ignored) and writes n reals.  sign: of
 * the exponent; s: fft_real_odd_scratch doubles. */
void fft_real_odd_group(const fft_plan *p, int c2r, int sign, fft_io src, int64_t ses, int64_t scnt,
                        fft_io dst, int64_t des, int64_t dcnt, double scale, int64_t G,
                        const int64_t *oin, const int64_t *oout, double *s)
{
    const int64_t n = p->n, hn = (n + 1) / 2;
    double *x = s, *y = s + n * G, *yr = s + 2 * n * G, *yi = yr + hn * G;
    int64_t cnt[FFT_MAX_LANES];
    for (int64_t l = 0; l < FFT_MAX_LANES; l++) cnt[l] = scnt; /* all: G is at most this */
    if (!c2r) {
        gather_real(x, n, G, src.re, src.f32, ses, oin, cnt);
        const double *h = rstages(p, 1, G, x, y);
        /* the exponent +: the conjugate spectrum (the input is real) */
        const double neg = sign > 0 ? -1.0 : 1.0;
        if (G == 1 && is_interleaved(dst, des) && dcnt == hn) {
            const double sneg = neg * scale;
            const int64_t nout = hn;
            dst = io_at(dst, oout[0]);
            if (dst.f32)
                HC_OUT(float);
            else
                HC_OUT(double);
            return;
        }
        for (int64_t l = 0; l < G; l++) {
            yr[l] = h[l];
            yi[l] = 0.0;
        }
        for (int64_t u = 1; u < hn; u++)
            for (int64_t l = 0; l < G; l++) {
                yr[u * G + l] = h[(2 * u - 1) * G + l];
                yi[u * G + l] = neg * h[2 * u * G + l];
            }
        for (int64_t l = 0; l < G; l++) cnt[l] = dcnt;
        fft_scatter(dst, des, oout, cnt, yr, yi, G, scale);
        return;
    }
    /* c2r: the exponent - reads the conjugate half spectrum */
    const double neg = sign < 0 ? -1.0 : 1.0;
    const int64_t have = scnt < hn ? scnt : hn;
    if (G == 1 && is_interleaved(src, ses) && src.re) {
        const char *base = src.re + oin[0];
        x[0] = have > 0 ? LOAD(src.f32, base) : 0.0;
        if (src.f32) {
            const float *in = (const float *)base;
            for (int64_t u = 1; u < have; u++) {
                x[2 * u - 1] = in[2 * u];
                x[2 * u] = neg * in[2 * u + 1];
            }
        } else {
            const double *in = (const double *)base;
            for (int64_t u = 1; u < have; u++) {
                x[2 * u - 1] = in[2 * u];
                x[2 * u] = neg * in[2 * u + 1];
            }
        }
        for (int64_t e = have > 0 ? 2 * have - 1 : 1; e < n; e++) x[e] = 0.0;
    } else {
        fft_gather(yr, yi, hn, G, src, ses, oin, cnt);
        for (int64_t l = 0; l < G; l++) x[l] = yr[l];
        for (int64_t u = 1; u < hn; u++)
            for (int64_t l = 0; l < G; l++) {
                x[(2 * u - 1) * G + l] = yr[u * G + l];
                x[2 * u * G + l] = neg * yi[u * G + l];
            }
    }
    const double *r = rstages(p, 0, G, x, y);
    fft_io out = dst;
    out.im = NULL; /* real output: the parts' re only */
    for (int64_t l = 0; l < G; l++) cnt[l] = dcnt;
    fft_scatter(out, des, oout, cnt, r, r, G, scale);
}
