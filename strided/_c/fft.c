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
 * done by a complex transform of half the length, an odd one by real-data
 * passes in fft_real.c).
 *
 * Files: fft_internal.h lists them; this one runs the transforms (blocks,
 * the four-step, real transforms, the paths, the entry points). */
#include "fft_internal.h"

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
ST_LEVEL_FN(mul_rows,
            (double *restrict xr, double *restrict xi, const double *wr, const double *wi,
             int64_t n, int64_t L),
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
    if (p->m) { /* Bluestein */
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
    } else if (p->n1) { /* four-step, in place */
        int64_t off[FFT_MAX_LANES];
        for (int64_t l = 0; l < L; l++) off[l] = l * (int64_t)sizeof(double);
        const fft_io io = io_split(xr, xi);
        const int64_t es = L * (int64_t)sizeof(double);
        fourstep(p, L, io, es, off, n, io, es, off, n, 1.0, work, work + 2 * n * L, 1);
    } else {
        fft_engine(p, L, xr, xi, work, work + n * L, rr, ri);
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
ST_LEVEL_FN(fs_twiddle,
            (const fft_plan *p, const double *restrict yr, const double *restrict yi, int64_t L,
             const int64_t *j2, double *restrict tr, double *restrict ti),
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
            fft_gather(xr, xi, n1, L, src, n2 * ses, loff, cnt);
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
            fft_scatter(dst, n1 * des, loff, cnt, rr, ri, L, scale);
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
 * ignored, as a real signal's spectrum has none).  Odd n: real-data
 * passes (fft_real.c), half the work of a complex transform; lengths with
 * a prime factor beyond ST_FFT_MAX_RADIX, or too long for one thread's L2,
 * the full complex transform of the line with zero imaginary parts. */

/* rows k0 .. k1-1 of the half spectrum X (N+1 rows) from Z (N rows),
 * written at rows 0 .. k1-k0-1 of x */
ST_LEVEL_BODY void real_post(const fft_plan *p, int sign, const double *restrict zr,
                             const double *restrict zi, double *restrict xr, double *restrict xi,
                             int64_t L, int64_t k0, int64_t k1)
{
    const int64_t N = p->n;
    for (int64_t k = k0; k < k1; k++) {
        const int64_t a = k % N, b = (N - k) % N;
        const double wr = p->hr[k], wi = sign < 0 ? p->hi[k] : -p->hi[k];
        for (int64_t l = 0; l < L; l++) {
            const double ar = zr[a * L + l], ai = zi[a * L + l];
            const double br = zr[b * L + l], bi = zi[b * L + l];
            const double er = 0.5 * (ar + br), ei = 0.5 * (ai - bi);
            const double orr = 0.5 * (ai + bi), oi = -0.5 * (ar - br); /* O = -i D */
            xr[(k - k0) * L + l] = er + CMUL_RE(wr, wi, orr, oi);
            xi[(k - k0) * L + l] = ei + CMUL_IM(wr, wi, orr, oi);
        }
    }
}
ST_LEVEL_FN(real_post,
            (const fft_plan *p, int sign, const double *restrict zr, const double *restrict zi,
             double *restrict xr, double *restrict xi, int64_t L, int64_t k0, int64_t k1),
            (p, sign, zr, zi, xr, xi, L, k0, k1))

/* rows k0 .. k1-1 of Z (N rows) from the half spectrum X (N+1 rows) */
ST_LEVEL_BODY void real_pre(const fft_plan *p, int sign, const double *restrict xr,
                            const double *restrict xi, double *restrict zr, double *restrict zi,
                            int64_t L, int64_t k0, int64_t k1)
{
    const int64_t N = p->n;
    for (int64_t k = k0; k < k1; k++) {
        const int64_t b = N - k;
        const double wr = p->hr[k], wi = sign < 0 ? p->hi[k] : -p->hi[k];
        const double keep = k ? 1.0 : 0.0; /* Im X_0 and Im X_N do not count */
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
ST_LEVEL_FN(real_pre,
            (const fft_plan *p, int sign, const double *restrict xr, const double *restrict xi,
             double *restrict zr, double *restrict zi, int64_t L, int64_t k0, int64_t k1),
            (p, sign, xr, xi, zr, zi, L, k0, k1))

/* ------------------------------------------------------------------ paths */

typedef struct {
    fft_io src, dst; /* line 0 */
    int64_t ses, scnt, des, dcnt;
    int herm, swapped;
    double scale;
    int packed; /* real transforms: PACK_R2C, PACK_C2R (even), ODD_R2C, ODD_C2R */
    int sign;   /* of the exponent: -1 forward, +1 inverse */
} fft_line;

#define PACK_R2C 1
#define PACK_C2R 2
#define ODD_R2C 3 /* odd lengths: real-data passes (fft_real.c) */
#define ODD_C2R 4

typedef struct {
    const fft_plan *p;
    fft_line ln;
    int nb; /* batch dims, outermost first */
    int64_t bsize[ST_MAX_DIMS], bin[ST_MAX_DIMS], bout[ST_MAX_DIMS]; /* bytes */
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
        for (int d = job->nb - 1; d >= 0; d--) { /* odometer step */
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
    if (p->real == FFT_REAL_ODD) return fft_real_odd_lanes(p);
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
static void packed_tail(const fft_line *ln, double *ar, double *ai, int64_t L, const int64_t *oin)
{
    if (ln->scnt % 2 == 0) return;
    const int64_t row = ln->scnt / 2, off = (ln->scnt - 1) * ln->ses;
    const char *x = ln->sign < 0 ? ln->src.re : ln->src.im; /* the even elements */
    double *re = ln->sign < 0 ? ar : ai;
    for (int64_t l = 0; l < L; l++) re[row * L + l] = LOAD(ln->src.f32, x + oin[l] + off);
}

static int64_t group_scratch(const fft_plan *p, const fft_line *ln, int64_t G)
{
    if (ln->packed >= ODD_R2C) return fft_real_odd_scratch(p, G);
    if (ln->packed) return 2 * (p->n + 1) * G + 2 * p->n * G + block_work(p, G);
    return (direct_lines(p, ln) ? 0 : 2 * p->n * G) + block_work(p, G);
}

/* A group of G even real lines (packed) on one thread; s: group_scratch. */
static void run_group_packed(const fft_plan *p, const fft_line *ln, int64_t G, const int64_t *oin,
                             const int64_t *oout, double *s)
{
    const int64_t N = p->n;
    double *yr = s, *yi = s + (N + 1) * G;           /* half spectrum */
    double *ar = yi + (N + 1) * G, *ai = ar + N * G; /* packed line */
    double *work = ai + N * G, *r1, *r2;
    int64_t cnt[FFT_MAX_LANES], dcnt[FFT_MAX_LANES];
    const int inv = ln->sign > 0; /* the inverse sign: parts exchanged */
    if (ln->packed == PACK_R2C) {
        for (int64_t l = 0; l < G; l++) {
            cnt[l] = ln->scnt / 2;
            dcnt[l] = ln->dcnt;
        }
        fft_gather(ar, ai, N, G, ln->src, 2 * ln->ses, oin, cnt);
        packed_tail(ln, ar, ai, G, oin);
        transform_block(p, G, ar, ai, work, &r1, &r2);
        ST_PICK(real_post)(p, ln->sign, inv ? r2 : r1, inv ? r1 : r2, yr, yi, G, 0, N + 1);
        fft_scatter(ln->dst, ln->des, oout, dcnt, yr, yi, G, ln->scale);
        return;
    }
    for (int64_t l = 0; l < G; l++) {
        cnt[l] = ln->scnt;
        dcnt[l] = N;
    }
    fft_gather(yr, yi, N + 1, G, ln->src, ln->ses, oin, cnt);
    ST_PICK(real_pre)(p, ln->sign, yr, yi, inv ? ai : ar, inv ? ar : ai, G, 0, N);
    transform_block(p, G, ar, ai, work, &r1, &r2);
    fft_scatter(ln->dst, 2 * ln->des, oout, dcnt, inv ? r2 : r1, inv ? r1 : r2, G, ln->scale);
}

/* One group of G lines (offsets oin, oout) on one thread; s: group_scratch. */
static void run_group(const fft_plan *p, const fft_line *ln, int64_t G, const int64_t *oin,
                      const int64_t *oout, double *s)
{
    const int64_t n = p->n;
    int64_t scnt[FFT_MAX_LANES], dcnt[FFT_MAX_LANES], off[FFT_MAX_LANES];
    if (ln->packed >= ODD_R2C) {
        fft_real_odd_group(p, ln->packed == ODD_C2R, ln->sign, ln->src, ln->ses, ln->scnt, ln->dst,
                           ln->des, ln->dcnt, ln->scale, G, oin, oout, s);
        return;
    }
    if (ln->packed) {
        run_group_packed(p, ln, G, oin, oout, s);
        return;
    }
    if (direct_lines(p, ln)) {
        fourstep(p, G, ln->src, ln->ses, oin, ln->scnt, ln->dst, ln->des, oout, ln->dcnt, ln->scale,
                 s, s + 2 * n * G, 1);
        return;
    }
    double *xr = s, *xi = s + n * G, *work = s + 2 * n * G, *rr, *ri;
    for (int64_t l = 0; l < G; l++) {
        scnt[l] = ln->scnt;
        dcnt[l] = ln->dcnt;
    }
    fft_gather(xr, xi, n, G, ln->src, ln->ses, oin, scnt);
    if (ln->herm) fft_hermitian_fill(xr, xi, n, G, ln->swapped);
    if (p->n1) { /* from the completed block to the tensor */
        for (int64_t l = 0; l < G; l++) off[l] = l * (int64_t)sizeof(double);
        fourstep(p, G, io_split(xr, xi), G * (int64_t)sizeof(double), off, n, ln->dst, ln->des,
                 oout, ln->dcnt, ln->scale, work, work + 2 * n * G, 1);
        return;
    }
    transform_block(p, G, xr, xi, work, &rr, &ri);
    fft_scatter(ln->dst, ln->des, oout, dcnt, rr, ri, G, ln->scale);
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
    double *scratch = fft_scratch_get(bsz * nt, &bytes);
    if (!scratch)
        return st_fail(ST_E_MEMORY, "fft: cannot allocate %lld bytes of scratch", (long long)bytes);
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
    fft_scratch_put(scratch, bytes);
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

static void mul_line(double *restrict xr, double *restrict xi, const double *wr, const double *wi,
                     int64_t n, int nt)
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
    line_inplace(p->pm, ai, ar, sub, nt); /* inverse: parts exchanged */
    mul_line(ar, ai, p->chr, p->chi, n, nt);
    memcpy(xr, ar, (size_t)n * sizeof(double));
    memcpy(xi, ai, (size_t)n * sizeof(double));
}

/* Scratch (doubles) of line_big. */
static int64_t big_scratch(const fft_plan *p, const fft_line *ln, int nt)
{
    (void)ln; /* the signature of the other kinds' scratch functions */
    return 2 * p->n + line_scratch(p, nt);
}

/* The split steps of one long line against the tensor itself (no copy of
 * the line): rows k0 .. k1-1 of X written to (post) or read from (pre) dst /
 * src at k*es bytes, through their parts.  cnt: the elements src has. */
/* X_k for the interior k0 .. k1-1 (0 < k < N) of one line, straight into
 * contiguous interleaved complex T (double or float) at o: Z_k and Z_(N-k)
 * walk towards each other, a loop the compiler vectorises. */
#define DEF_POST_LINE(NAME, T) ST_LEVELS(DEF_POST_LINE_ISA, NAME, T)
#define DEF_POST_LINE_ISA(ISA, ATTR, NAME, T)                                                      \
    ATTR static void NAME##ISA(const fft_plan *p, int sign, const double *restrict zr,             \
                               const double *restrict zi, T *restrict o, double scale, int64_t k0, \
                               int64_t k1)                                                         \
    {                                                                                              \
        const int64_t N = p->n;                                                                    \
        const double ws = sign < 0 ? 1.0 : -1.0, h = 0.5 * scale;                                  \
        for (int64_t k = k0; k < k1; k++) {                                                        \
            const double ar = zr[k], ai = zi[k], br = zr[N - k], bi = zi[N - k];                   \
            const double wr = p->hr[k], wi = ws * p->hi[k];                                        \
            const double er = ar + br, ei = ai - bi, orr = ai + bi, oi = br - ar;                  \
            o[2 * k] = (T)(h * (er + CMUL_RE(wr, wi, orr, oi)));                                   \
            o[2 * k + 1] = (T)(h * (ei + CMUL_IM(wr, wi, orr, oi)));                               \
        }                                                                                          \
    }
DEF_POST_LINE(post_line_f64, double)
DEF_POST_LINE(post_line_f32, float)

/* Z_k for the interior 0 < k < N of one line from contiguous interleaved
 * complex T at x holding X_0 .. X_N. */
#define DEF_PRE_LINE(NAME, T) ST_LEVELS(DEF_PRE_LINE_ISA, NAME, T)
#define DEF_PRE_LINE_ISA(ISA, ATTR, NAME, T)                                                       \
    ATTR static void NAME##ISA(const fft_plan *p, int sign, const T *restrict x,                   \
                               double *restrict zr, double *restrict zi, int64_t k0, int64_t k1)   \
    {                                                                                              \
        const int64_t N = p->n;                                                                    \
        const double ws = sign < 0 ? 1.0 : -1.0;                                                   \
        for (int64_t k = k0; k < k1; k++) {                                                        \
            const double ar = x[2 * k], ai = x[2 * k + 1];                                         \
            const double br = x[2 * (N - k)], bi = x[2 * (N - k) + 1];                             \
            const double wr = p->hr[k], wi = ws * p->hi[k];                                        \
            const double dr = ar - br, di = ai + bi;                                               \
            zr[k] = (ar + br) - CMUL_IM(dr, di, wr, wi);                                           \
            zi[k] = (ai - bi) + CMUL_RE(dr, di, wr, wi);                                           \
        }                                                                                          \
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
static void post_tiles(const fft_plan *p, int sign, const double *zr, const double *zi, fft_io dst,
                       int64_t es, double scale, int64_t k0, int64_t k1)
{
    double xr[FFT_POST_TILE], xi[FFT_POST_TILE];
    for (int64_t a = k0; a < k1; a += FFT_POST_TILE) {
        const int64_t cnt = k1 - a < FFT_POST_TILE ? k1 - a : FFT_POST_TILE, off = a * es;
        ST_PICK(real_post)(p, sign, zr, zi, xr, xi, 1, a, a + cnt);
        fft_scatter(dst, es, &off, &cnt, xr, xi, 1, scale);
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
    const int64_t a = k0 > 1 ? k0 : 1, b = k1 < N ? k1 : N; /* the interior */
    if (a < b) {
        if (dst.f32)
            ST_PICK(post_line_f32)(p, sign, zr, zi, (float *)dst.re, scale, a, b);
        else
            ST_PICK(post_line_f64)(p, sign, zr, zi, (double *)dst.re, scale, a, b);
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
            if (src.f32)
                ST_PICK(pre_line_f32)(p, sign, (const float *)src.re, zr, zi, a, k1);
            else
                ST_PICK(pre_line_f64)(p, sign, (const double *)src.re, zr, zi, a, k1);
        }
        if (k0 > 0) return;
        k1 = 1; /* k = 0 below */
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
            fft_gather(ar, ai, N, 1, ln->src, 2 * ln->ses, &zero, &pairs);
            packed_tail(ln, ar, ai, 1, &zero);
            line_transform(p, ar, ai, rest, nt);
        }
#pragma omp parallel for num_threads(nt) if (nt > 1) schedule(static, 1)
        for (int t = 0; t < nt; t++) {
            const int64_t k0 = t * chunk, k1 = k0 + chunk < N + 1 ? k0 + chunk : N + 1;
            if (k0 < k1)
                real_post_io(p, ln->sign, inv ? ai : ar, inv ? ar : ai, ln->dst, ln->des, ln->scale,
                             k0, k1);
        }
        return;
    }
#pragma omp parallel for num_threads(nt) if (nt > 1) schedule(static, 1)
    for (int t = 0; t < nt; t++) {
        const int64_t k0 = t * chunk, k1 = k0 + chunk < N ? k0 + chunk : N;
        if (k0 < k1)
            real_pre_io(p, ln->sign, ln->src, ln->ses, ln->scnt, inv ? ai : ar, inv ? ar : ai, k0,
                        k1);
    }
    /* the result's parts are x_2j, x_2j+1 (exchanged for the inverse sign) */
    const fft_io out = inv ? io_swap(ln->dst) : ln->dst;
    if (p->n1) {
        fourstep(p, 1, split, d8, &zero, N, out, 2 * ln->des, &zero, N, ln->scale, rest,
                 rest + 2 * N, nt);
        return;
    }
    line_transform(p, ar, ai, rest, nt);
    fft_scatter(out, 2 * ln->des, &zero, &N, ar, ai, 1, ln->scale);
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
    if (!p->m && direct_lines(p, ln)) { /* straight from the tensor to the tensor */
        fourstep(p, 1, ln->src, ln->ses, &zero, ln->scnt, ln->dst, ln->des, &zero, ln->dcnt,
                 ln->scale, rest, rest + 2 * n, nt);
        return;
    }
    fft_gather(xr, xi, n, 1, ln->src, ln->ses, &zero, &ln->scnt);
    if (ln->herm) fft_hermitian_fill(xr, xi, n, 1, ln->swapped);
    line_transform(p, xr, xi, rest, nt);
    fft_scatter(ln->dst, ln->des, &zero, &ln->dcnt, xr, xi, 1, ln->scale);
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
    double *s = fft_scratch_get(big_scratch(p, &job->ln, nt), &bytes);
    if (!s)
        return st_fail(ST_E_MEMORY, "fft: cannot allocate %lld bytes of scratch", (long long)bytes);
    for (int64_t line = 0; line < job->nlines; line++) {
        int64_t oin, oout;
        line_offsets(job, line, 1, &oin, &oout);
        fft_line ln = job->ln;
        ln.src = io_at(ln.src, oin);
        ln.dst = io_at(ln.dst, oout);
        line_big(p, &ln, s, nt);
    }
    fft_scratch_put(s, bytes);
    return ST_OK;
}

/* Forward transform of one split line in place (Bluestein's kernel). */
st_status fft_transform_line_split(const fft_plan *p, double *xr, double *xi)
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
        return st_fail(ST_E_VALUE,
                       "%s: input and output need the same number of dims (at least "
                       "1), got %d and %d",
                       what, in->ndim, out->ndim);
    if (dim < 0 || dim >= in->ndim)
        return st_fail(ST_E_INDEX, "%s: dim %d out of range for %d dims", what, dim, in->ndim);
    for (int d = 0; d < in->ndim; d++)
        if (d != dim && in->sizes[d] != out->sizes[d]) {
            st_shape_str(si, sizeof si, in->ndim, in->sizes);
            st_shape_str(so, sizeof so, out->ndim, out->sizes);
            return st_fail(ST_E_VALUE, "%s: input %s and output %s differ on dim %d", what, si, so,
                           d);
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
    if (n < 1)
        return st_fail(ST_E_VALUE, "%s: the transform length must be >= 1, got %lld", what,
                       (long long)n);
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
 * through a complex plan of n/2 points (the top of the section above), the
 * odd ones through real-data passes (fft_real.c) when fft_real_odd_ok, else
 * as complex lines with zero imaginary parts. */
static st_status run_job(fft_job *job, const st_tensor *in, const st_tensor *out, int dim,
                         int64_t n, int64_t nread, int real)
{
    if (job->nlines == 0) return ST_OK;
    const int64_t m = in->sizes[dim];
    fft_line *ln = &job->ln;
    ln->sign = ln->swapped ? 1 : -1;
    ln->packed = real && n % 2 == 0 ? real : 0;
    if (real && n % 2 && fft_real_odd_ok(n)) ln->packed = real == PACK_R2C ? ODD_R2C : ODD_C2R;
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
    } else if (ln->packed >= ODD_R2C) {
        /* the parts as they are; the sign is applied inside */
        ln->src = io_of(in, 0);
        ln->dst = io_of(out, 0);
    }
    if (m == 0) ln->src.re = ln->src.im = NULL; /* nothing to read: zeros */
    fft_plan *p = ln->packed >= ODD_R2C ? fft_plan_get(n, FFT_REAL_ODD)
                  : ln->packed          ? fft_plan_get(n / 2, 1)
                                        : fft_plan_get(n, 0);
    if (!p)
        return st_fail(ST_E_MEMORY, "fft: cannot allocate the plan for %lld points", (long long)n);
    job->p = p;
    st_status rc = is_big(p) ? run_big(job) : run_lines(job);
    fft_plan_release(p);
    return rc;
}

st_status st_fft_c2c(st_tensor *out, const st_tensor *in, int dim, int forward, double scale)
{
    fft_job job;
    st_status rc;
    if (!st_is_complex(in->dtype))
        return st_fail(ST_E_TYPE, "fft: the input must be complex, got %s",
                       st_dtype_name(in->dtype));
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
        return st_fail(ST_E_VALUE,
                       "rfft: the output has %lld elements along dim %d, expected "
                       "n/2 + 1 = %lld",
                       (long long)out->sizes[dim], dim, (long long)(n / 2 + 1));
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
