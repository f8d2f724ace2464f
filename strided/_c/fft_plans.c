/* fft_plans.c -- FFT plans: twiddles (computed directly, never by
 * recurrence), the factorisation into passes, four-step and Bluestein plans,
 * real-transform plans; the cache of plans shared by every call and the
 * scratch pool. */
#include "fft_internal.h"

/* ------------------------------------------------------------------ twiddles */

/* exp(-2 pi i a / n) for 0 <= a < n (n < 2^60).  The angle is reduced with
 * integers to [0, pi/4] (the symmetries of cos and sin), then evaluated in
 * long double: within an ulp of the exact value, for any n. */
static void twiddle(int64_t a, int64_t n, double *re, double *im)
{
    int64_t num = 8 * (a % n), den = 8 * n; /* angle = 2 pi num / den */
    int neg_s = 0, neg_c = 0, swap = 0;
    if (num > den / 2) {
        num = den - num;
        neg_s = 1;
    } /* 2 pi - t */
    if (num > den / 4) {
        num = den / 2 - num;
        neg_c = 1;
    } /* pi - t */
    if (num > den / 8) {
        num = den / 4 - num;
        swap = 1;
    } /* pi/2 - t */
    long double t = 6.283185307179586476925286766559L * (long double)num / (long double)den;
    double c = (double)cosl(t), s = (double)sinl(t);
    if (swap) {
        double u = c;
        c = s;
        s = u;
    }
    if (neg_c) c = -c;
    if (neg_s) s = -s;
    *re = c;
    *im = -s;
}

/* ------------------------------------------------------------------ plans */

static void plan_free(fft_plan *p)
{
    if (!p) return;
    st_aligned_free(p->twr);
    st_aligned_free(p->twi);
    st_aligned_free(p->rtr);
    st_aligned_free(p->rti);
    st_aligned_free(p->thr);
    st_aligned_free(p->thi);
    st_aligned_free(p->tlr);
    st_aligned_free(p->tli);
    st_aligned_free(p->chr);
    st_aligned_free(p->chi);
    st_aligned_free(p->kr);
    st_aligned_free(p->ki);
    st_aligned_free(p->hr);
    st_aligned_free(p->hi);
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
    while (n % 2 == 0) {
        n /= 2;
        e++;
    }
    if (e) big = 2;
    if (e == 1) fac[k++] = 2;
    for (; e >= 3 && e != 4; e -= 3) fac[k++] = 8;
    for (; e >= 2; e -= 2) fac[k++] = 4;
    for (int64_t f = 3; f * f <= n; f += 2)
        while (n % f == 0) {
            if (f > ST_FFT_MAX_RADIX) return f > n / f ? f : n / f; /* Bluestein anyway */
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
    if (!p->n1) return 1; /* not split: stages instead */
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
    if (fft_transform_line_split(p->pm, p->kr, p->ki)) return -1;
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

/* Can an odd real line of n points go through real-data passes?  Radices
 * up to ST_FFT_MAX_RADIX only (else Bluestein, on the complex path), and a
 * line whose block and ping-pong fit FFT_L2_BYTES (longer lines take the
 * complex path, whose four-step the threads share). */
int fft_real_odd_ok(int64_t n)
{
    int fac[FFT_MAX_FACTORS], nf = 0;
    if (n % 2 == 0 || n * 2 * (int64_t)sizeof(double) > FFT_L2_BYTES) return 0;
    return factorize(n, fac, &nf) <= ST_FFT_MAX_RADIX;
}

/* The stages of an odd real plan (fft_real.c): stage s has ip = fac[s],
 * l1 = fac[0] .. fac[s-1], ido = n / (l1 ip), N = ido ip; its twiddles
 * W_N^(j i) for 1 <= j < ip, 1 <= i <= (ido-1)/2 at [(j-1) (ido-1)/2 + i-1],
 * and cos, +sin of 2 pi t / ip for t < ip. */
static int plan_real_odd(fft_plan *p)
{
    p->real = FFT_REAL_ODD;
    if (factorize(p->n, p->fac, &p->nf) > ST_FFT_MAX_RADIX) return -1; /* fft_real_odd_ok */
    int64_t ntw = 0, nroot = 0, l1 = 1;
    for (int s = 0; s < p->nf; s++) {
        const int ip = p->fac[s];
        const int64_t ido = p->n / (l1 * ip);
        p->twoff[s] = ntw;
        ntw += (int64_t)(ip - 1) * ((ido - 1) / 2);
        p->rootoff[s] = nroot;
        nroot += ip;
        l1 *= ip;
    }
    p->twr = dalloc(ntw + 1, &p->bytes);
    p->twi = dalloc(ntw + 1, &p->bytes);
    p->rtr = dalloc(nroot + 1, &p->bytes);
    p->rti = dalloc(nroot + 1, &p->bytes);
    if (!p->twr || !p->twi || !p->rtr || !p->rti) return -1;
    l1 = 1;
    for (int s = 0; s < p->nf; s++) {
        const int ip = p->fac[s];
        const int64_t ido = p->n / (l1 * ip), g = (ido - 1) / 2, N = ido * ip;
        double *wr = p->twr + p->twoff[s], *wi = p->twi + p->twoff[s];
        for (int j = 1; j < ip; j++)
            for (int64_t i = 1; i <= g; i++)
                twiddle(j * i, N, &wr[(j - 1) * g + i - 1], &wi[(j - 1) * g + i - 1]);
        double *cr = p->rtr + p->rootoff[s], *sn = p->rti + p->rootoff[s];
        for (int t = 0; t < ip; t++) {
            twiddle(t, ip, &cr[t], &sn[t]);
            sn[t] = -sn[t]; /* twiddle gives exp(-...): the sine negated */
        }
        l1 *= ip;
    }
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
    if (real == FFT_REAL_ODD) {
        if (plan_real_odd(p)) {
            plan_free(p);
            return NULL;
        }
        return p;
    }
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
fft_plan *fft_plan_get(int64_t n, int real)
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
    fft_plan *fresh = plan_new_kind(n, 1, real); /* outside the lock: it can take a while */
    if (!fresh) return NULL;
    fresh->refs = 1;
#pragma omp critical(st_fft_cache)
    {
        for (int i = 0; i < FFT_CACHE && !p; i++)
            if (cache[i] && cache[i]->n == n && cache[i]->real == real)
                p = cache[i]; /* another thread won */
        if (p) {
            p->refs++;
            p->stamp = ++cache_clock;
        } else if (fresh->bytes <= FFT_CACHE_BYTES) {
            /* evict the least recently used until there is a slot and room */
            for (;;) {
                int64_t total = fresh->bytes;
                int free_slot = -1, lru = -1;
                for (int i = 0; i < FFT_CACHE; i++) {
                    if (!cache[i]) {
                        free_slot = i;
                        continue;
                    }
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

void fft_plan_release(fft_plan *p)
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

double *fft_scratch_get(int64_t count, int64_t *bytes)
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

void fft_scratch_put(double *p, int64_t bytes)
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
