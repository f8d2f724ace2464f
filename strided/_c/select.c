/* select.c -- selection along one dim: top-k, k-th value (median), mode.
 *
 * The order is st_sort's (st_internal.h's ST_LT_<suffix>): ascending puts
 * NaN after every number; "largest" is its reverse among unequal values.
 * Among equal values the earlier position comes first both ways, so
 *   topk(k, smallest) = the first k of the stable ascending sort,
 *   topk(k, largest)  = the first k of the stable descending sort,
 *   kthvalue(k)       = element k (from 0) of the stable ascending sort,
 * positions included: the answers are deterministic and can be checked
 * against any stable sort.  Nothing sorts a whole lane:
 *
 *   - kthvalue copies the lane's values into a scratch buffer, NaNs left
 *     out (they are after everything: a k among them is answered by
 *     counting), and runs an introselect (quickselect, median-of-3 pivots,
 *     Hoare partition; a heapsort when it recurses too deep, so O(n log n)
 *     at worst).  The position is found afterwards: with c the number of
 *     values below the k-th, it is that of the (k - c)-th occurrence of the
 *     value in the lane.
 *   - topk with k small beside the lane (16 k <= n) makes one pass that
 *     keeps (value, position) records of candidates: the first k, then
 *     only elements strictly before the worst record kept (a test against
 *     one threshold, done 64 elements at a time so it vectorises); when the
 *     buffer fills, an introselect keeps the best k and raises the
 *     threshold.  A long lane is split over threads, each keeping its own
 *     best k, merged at the end.  Larger k: records of the whole lane and
 *     one introselect.  sorted: the k records are then sorted (introsort).
 *   - mode sorts a copy of the input with st_sort (values only), counts the
 *     runs of each lane (runs end where sorted[i] != sorted[i+1], so every
 *     NaN is a run of its own, as in Torch7) and keeps the first longest:
 *     the smallest of the most frequent values.  Its position is that of
 *     its last occurrence in the lane (Torch7 answers some occurrence: the
 *     last one for lanes of up to 11 elements, where its quicksort is an
 *     insertion sort).
 *
 * Torch7's order (the `th` argument, for the Torch7 face): the positions
 * among equal values, and unsorted topk's order, are those TH's own
 * quickselect and quicksort leave (lib/TH/generic/THTensorMath.c: Sedgewick's
 * median-of-3 quicksort and Devillard's quickselect, not stable), ported
 * line for line below over (value, position) records.  They are run only
 * where the answer depends on them: a kthvalue whose value occurs more than
 * once in the lane, a sorted topk whose k + 1 best values are not all
 * distinct, every unsorted topk, every mode; elsewhere the answer is unique
 * and the fast paths above give it.  A lane holding a NaN keeps the stable
 * order (TH's loops assume a total order: its answers there are undefined). */
#include "st_internal.h"
#include <math.h>
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
#endif

#define SMALL_SORT 16

/* ---- introsort and introselect over an array of R, ordered by BEFORE ---- */
#define DEF_ALGOS(NAME, R, BEFORE)                                                                 \
    static void NAME##_isort(R *a, int64_t n)                                                      \
    {                                                                                              \
        for (int64_t i = 1; i < n; i++) {                                                          \
            R x = a[i];                                                                            \
            int64_t j = i;                                                                         \
            for (; j > 0 && BEFORE(x, a[j - 1]); j--) a[j] = a[j - 1];                             \
            a[j] = x;                                                                              \
        }                                                                                          \
    }                                                                                              \
    static void NAME##_sift(R *a, int64_t root, int64_t n)                                         \
    {                                                                                              \
        R x = a[root];                                                                             \
        for (;;) {                                                                                 \
            int64_t c = 2 * root + 1;                                                              \
            if (c >= n) break;                                                                     \
            if (c + 1 < n && BEFORE(a[c], a[c + 1])) c++;                                          \
            if (!BEFORE(x, a[c])) break;                                                           \
            a[root] = a[c];                                                                        \
            root = c;                                                                              \
        }                                                                                          \
        a[root] = x;                                                                               \
    }                                                                                              \
    static void NAME##_heapsort(R *a, int64_t n)                                                   \
    {                                                                                              \
        for (int64_t i = n / 2 - 1; i >= 0; i--) NAME##_sift(a, i, n);                             \
        for (int64_t i = n - 1; i > 0; i--) {                                                      \
            R t = a[0];                                                                            \
            a[0] = a[i];                                                                           \
            a[i] = t;                                                                              \
            NAME##_sift(a, 0, i);                                                                  \
        }                                                                                          \
    }                                                                                              \
    /* a[lo..hi] (hi - lo >= 2) around a median-of-3 pivot: returns its place */                   \
    static int64_t NAME##_partition(R *a, int64_t lo, int64_t hi)                                  \
    {                                                                                              \
        int64_t mid = lo + (hi - lo) / 2;                                                          \
        R t;                                                                                       \
        if (BEFORE(a[mid], a[lo])) t = a[mid], a[mid] = a[lo], a[lo] = t;                          \
        if (BEFORE(a[hi], a[lo])) t = a[hi], a[hi] = a[lo], a[lo] = t;                             \
        if (BEFORE(a[hi], a[mid])) t = a[hi], a[hi] = a[mid], a[mid] = t;                          \
        R p = a[mid];                                                                              \
        a[mid] = a[hi - 1], a[hi - 1] = p;                                                         \
        int64_t i = lo, j = hi - 1;                                                                \
        for (;;) {                                                                                 \
            while (BEFORE(a[++i], p)) {                                                            \
            }                                                                                      \
            while (BEFORE(p, a[--j])) {                                                            \
            }                                                                                      \
            if (i >= j) break;                                                                     \
            t = a[i], a[i] = a[j], a[j] = t;                                                       \
        }                                                                                          \
        a[hi - 1] = a[i], a[i] = p;                                                                \
        return i;                                                                                  \
    }                                                                                              \
    static void NAME##_sort(R *a, int64_t n)                                                       \
    {                                                                                              \
        int64_t lo_[64], hi_[64];                                                                  \
        int depth_[64], sp = 0;                                                                    \
        int depth = 2 * (64 - __builtin_clzll((unsigned long long)n | 1));                         \
        int64_t lo = 0, hi = n - 1;                                                                \
        for (;;) {                                                                                 \
            while (hi - lo >= SMALL_SORT) {                                                        \
                if (depth-- == 0) {                                                                \
                    NAME##_heapsort(a + lo, hi - lo + 1);                                          \
                    break;                                                                         \
                }                                                                                  \
                int64_t p = NAME##_partition(a, lo, hi);                                           \
                /* the smaller side goes on, the larger one on the stack */                        \
                if (p - lo < hi - p) {                                                             \
                    lo_[sp] = p + 1, hi_[sp] = hi, depth_[sp++] = depth;                           \
                    hi = p - 1;                                                                    \
                } else {                                                                           \
                    lo_[sp] = lo, hi_[sp] = p - 1, depth_[sp++] = depth;                           \
                    lo = p + 1;                                                                    \
                }                                                                                  \
            }                                                                                      \
            if (hi > lo) NAME##_isort(a + lo, hi - lo + 1);                                        \
            if (sp == 0) return;                                                                   \
            sp--;                                                                                  \
            lo = lo_[sp], hi = hi_[sp], depth = depth_[sp];                                        \
        }                                                                                          \
    }                                                                                              \
    /* a[k] is what a sorted a would have there; a[0..k) before or equal,   \
     * a(k..n) after or equal */                      \
    static void NAME##_select(R *a, int64_t n, int64_t k)                                          \
    {                                                                                              \
        int depth = 2 * (64 - __builtin_clzll((unsigned long long)n | 1));                         \
        int64_t lo = 0, hi = n - 1;                                                                \
        while (hi - lo >= SMALL_SORT) {                                                            \
            if (depth-- == 0) {                                                                    \
                NAME##_heapsort(a + lo, hi - lo + 1);                                              \
                return;                                                                            \
            }                                                                                      \
            int64_t p = NAME##_partition(a, lo, hi);                                               \
            if (k < p)                                                                             \
                hi = p - 1;                                                                        \
            else if (k > p)                                                                        \
                lo = p + 1;                                                                        \
            else                                                                                   \
                return;                                                                            \
        }                                                                                          \
        if (hi > lo) NAME##_isort(a + lo, hi - lo + 1);                                            \
    }

#define BLOCK 64
#define SAMPLE_MIN ((int64_t)1 << 15)
/* the extremes of each type: unbounded sample bounds */
#define TMIN_int8 INT8_MIN
#define TMIN_int16 INT16_MIN
#define TMIN_int32 INT32_MIN
#define TMIN_int64 INT64_MIN
#define TMIN_uint8 0
#define TMIN_uint16 0
#define TMIN_uint32 0
#define TMIN_uint64 0
#define TMIN_float32 (-INFINITY)
#define TMIN_float64 (-INFINITY)
#define TMAX_int8 INT8_MAX
#define TMAX_int16 INT16_MAX
#define TMAX_int32 INT32_MAX
#define TMAX_int64 INT64_MAX
#define TMAX_uint8 UINT8_MAX
#define TMAX_uint16 UINT16_MAX
#define TMAX_uint32 UINT32_MAX
#define TMAX_uint64 UINT64_MAX
#define TMAX_float32 INFINITY
#define TMAX_float64 INFINITY

/* Block scans, vectorised (a variant per CPU level, ST_LEVEL_FN_RET): a block of up to BLOCK elements
 * as a contiguous array (the lane itself, or gathered into tmp). */
#define DEF_SCANS(CODE, SFX, T, R, ...)                                                            \
    static inline const T *block_##SFX(const char *x, int64_t step, int64_t i, int64_t m, T *tmp)  \
    {                                                                                              \
        if (step == (int64_t)sizeof(T)) return (const T *)x + i;                                   \
        for (int64_t j = 0; j < m; j++) tmp[j] = *(const T *)(x + (i + j) * step);                 \
        return tmp;                                                                                \
    }                                                                                              \
    /* any candidate against the threshold: mode 0 !(v <= thr) (largest), 1 v < thr \
     * (smallest), 2 v == v (smallest under a NaN threshold) */              \
    ST_LEVEL_BODY int any_body_##SFX(const T *b, int64_t m, T thr, int mode)                       \
    {                                                                                              \
        int any = 0;                                                                               \
        if (m == BLOCK) {                                                                          \
            if (mode == 0)                                                                         \
                for (int j = 0; j < BLOCK; j++) any |= !(b[j] <= thr);                             \
            else if (mode == 1)                                                                    \
                for (int j = 0; j < BLOCK; j++) any |= b[j] < thr;                                 \
            else                                                                                   \
                for (int j = 0; j < BLOCK; j++) any |= b[j] == b[j];                               \
            return any;                                                                            \
        }                                                                                          \
        for (int64_t j = 0; j < m; j++)                                                            \
            any |= mode == 0 ? !(b[j] <= thr) : mode == 1 ? b[j] < thr : b[j] == b[j];             \
        return any;                                                                                \
    }                                                                                              \
    ST_LEVEL_FN_RET(int, any_body_##SFX, (const T *b, int64_t m, T thr, int mode),                 \
                    (b, m, thr, mode))                                                             \
    static int any_##SFX(const T *b, int64_t m, T thr, int mode)                                   \
    {                                                                                              \
        return ST_PICK(any_body_##SFX)(b, m, thr, mode);                                           \
    }                                                                                              \
    /* *lt += count(v < lo), *nan += count(v != v); returns whether some v is in    \
     * [lo, hi] */              \
    ST_LEVEL_BODY int count_body_##SFX(const T *b, int64_t m, T lo, T hi, int64_t *lt,             \
                                       int64_t *nan)                                               \
    {                                                                                              \
        int64_t l = 0, q = 0;                                                                      \
        int any = 0;                                                                               \
        if (m == BLOCK) {                                                                          \
            for (int j = 0; j < BLOCK; j++) {                                                      \
                l += b[j] < lo;                                                                    \
                q += b[j] != b[j];                                                                 \
                any |= (b[j] >= lo) & (b[j] <= hi);                                                \
            }                                                                                      \
        } else                                                                                     \
            for (int64_t j = 0; j < m; j++) {                                                      \
                l += b[j] < lo;                                                                    \
                q += b[j] != b[j];                                                                 \
                any |= (b[j] >= lo) & (b[j] <= hi);                                                \
            }                                                                                      \
        *lt += l, *nan += q;                                                                       \
        return any;                                                                                \
    }                                                                                              \
    ST_LEVEL_FN_RET(int, count_body_##SFX,                                                         \
                    (const T *b, int64_t m, T lo, T hi, int64_t *lt, int64_t *nan),                \
                    (b, m, lo, hi, lt, nan))                                                       \
    static int count_##SFX(const T *b, int64_t m, T lo, T hi, int64_t *lt, int64_t *nan)           \
    {                                                                                              \
        return ST_PICK(count_body_##SFX)(b, m, lo, hi, lt, nan);                                   \
    }
ST_TYPES_REAL(DEF_SCANS)

/* ---- per type: records, their two orders, the lane kernels ---- */
#define PLAIN_LT(a, b) ((a) < (b))
#define TH_BEFORE(x, y) (desc ? (x) > (y) : (x) < (y)) /* thsort's order */

typedef struct {
    int64_t n, step; /* lane length, byte step of the input */
    int64_t k;
    int64_t vstep, istep; /* byte steps of the outputs along dim (topk) */
    int largest, sorted;
    int filter;   /* topk: the one-pass candidate filter */
    int inner;    /* topk: split each lane over threads */
    int64_t cap;  /* records per filter buffer */
    void **bufs;  /* one scratch buffer per thread */
    int nbuf;     /* how many: no lane runs on more threads, whatever
                              setnumthreads says meanwhile */
    void *merge;  /* inner: the pieces' records */
    int th;       /* Torch7's order among ties (see the top) */
    int64_t ksel; /* topk: records selected (k, or k + 1 to see a tie at k) */
    void **full;  /* th: per thread, n records for TH's algorithms (lazily) */
    int nfull;    /* th: how many slots full has (the lanes run on no more) */
    int oom;      /* th: a buffer could not be allocated */
} sel_ctx;

/* this thread's buffer of n records for TH's algorithms (NULL: out of memory) */
/* thpart's block: positions scanned from each end at a time */
#define TH_BLOCK 128

static void *th_records(sel_ctx *c, int64_t recsize)
{
    const int t = omp_get_thread_num();
    if (t >= c->nfull) { /* cannot happen: the lanes run on at most nfull threads */
        __atomic_store_n(&c->oom, 1, __ATOMIC_RELAXED);
        return NULL;
    }
    void **slot = &c->full[t];
    /* the block cache's: a lane of 10^7 records is 160 MB, whose fresh pages
     * cost more than a quickselect's first pass */
    if (!*slot) *slot = st_aligned_alloc((c->n > 0 ? c->n : 1) * recsize);
    if (!*slot) __atomic_store_n(&c->oom, 1, __ATOMIC_RELAXED);
    return *slot;
}

#define DEF_SELECT(CODE, SFX, T, R, ...)                                                           \
    typedef struct {                                                                               \
        T v;                                                                                       \
        int64_t i;                                                                                 \
    } rec_##SFX;                                                                                   \
    static inline int small_##SFX(rec_##SFX a, rec_##SFX b)                                        \
    {                                                                                              \
        return ST_LT_##SFX(a.v, b.v) || (!ST_LT_##SFX(b.v, a.v) && a.i < b.i);                     \
    }                                                                                              \
    static inline int large_##SFX(rec_##SFX a, rec_##SFX b)                                        \
    {                                                                                              \
        return ST_LT_##SFX(b.v, a.v) || (!ST_LT_##SFX(a.v, b.v) && a.i < b.i);                     \
    }                                                                                              \
    DEF_ALGOS(rs_##SFX, rec_##SFX, small_##SFX)                                                    \
    DEF_ALGOS(rl_##SFX, rec_##SFX, large_##SFX)                                                    \
    DEF_ALGOS(v_##SFX, T, PLAIN_LT)                                                                \
    /* The swaps of TH's partition loop below from its start (i, j) while the     \
     * unscanned middle is long: a block of TH_BLOCK positions from each end is      \
     * scanned without branches for the positions the loop would stop at            \
     * (a[p] >= piv from the left, a[p] <= piv from the right, in scan order),      \
     * and the k-th of the left is swapped with the k-th of the right, as the       \
     * loop pairs them: before the scans meet each reads only values no swap       \
     * has touched.  (i, j) end at the last pair swapped, where the loop goes on    \
     * (it scans again what is left in the buffers, unchanged).  On random data    \
     * the loop mispredicted about one branch in two; this does not branch on     \
     * the values. */                \
    static void thpart_##SFX(rec_##SFX *a, T piv, int64_t *pi, int64_t *pj)                        \
    {                                                                                              \
        int64_t lpos[TH_BLOCK], rpos[TH_BLOCK];                                                    \
        int64_t li = *pi + 1, rj = *pj - 1, nl = 0, nr = 0, sl = 0, sr = 0;                        \
        while (rj - li + 1 >= 2 * TH_BLOCK) {                                                      \
            if (sl == nl) {                                                                        \
                nl = sl = 0;                                                                       \
                for (int64_t p = li; p < li + TH_BLOCK; p++) {                                     \
                    lpos[nl] = p;                                                                  \
                    nl += !(a[p].v < piv);                                                         \
                }                                                                                  \
                li += TH_BLOCK;                                                                    \
            }                                                                                      \
            if (sr == nr) {                                                                        \
                nr = sr = 0;                                                                       \
                for (int64_t p = rj; p > rj - TH_BLOCK; p--) {                                     \
                    rpos[nr] = p;                                                                  \
                    nr += !(a[p].v > piv);                                                         \
                }                                                                                  \
                rj -= TH_BLOCK;                                                                    \
            }                                                                                      \
            const int64_t m = nl - sl < nr - sr ? nl - sl : nr - sr;                               \
            for (int64_t q = 0; q < m; q++) {                                                      \
                const int64_t l = lpos[sl + q], r = rpos[sr + q];                                  \
                const rec_##SFX t = a[l];                                                          \
                a[l] = a[r], a[r] = t;                                                             \
            }                                                                                      \
            if (m) *pi = lpos[sl + m - 1], *pj = rpos[sr + m - 1];                                 \
            sl += m, sr += m;                                                                      \
        }                                                                                          \
    }                                                                                              \
    /* TH's quickselect (THTensor_(quickselect)): a[k] ends where a sorted a      \
     * has it; ties land where TH's swaps leave them (no NaN in a) */                \
    static void thsel_##SFX(rec_##SFX *a, int64_t n, int64_t k)                                    \
    {                                                                                              \
        int64_t lo = 0, hi = n - 1, i, j;                                                          \
        rec_##SFX t;                                                                               \
        for (;;) {                                                                                 \
            if (hi <= lo) return;                                                                  \
            if (hi == lo + 1) {                                                                    \
                if (a[lo].v > a[hi].v) t = a[lo], a[lo] = a[hi], a[hi] = t;                        \
                return;                                                                            \
            }                                                                                      \
            const int64_t mid = (lo + hi) >> 1;                                                    \
            t = a[mid], a[mid] = a[lo + 1], a[lo + 1] = t;                                         \
            if (a[lo + 1].v > a[hi].v) t = a[lo + 1], a[lo + 1] = a[hi], a[hi] = t;                \
            if (a[lo].v > a[hi].v) t = a[lo], a[lo] = a[hi], a[hi] = t;                            \
            if (a[lo + 1].v > a[lo].v) t = a[lo + 1], a[lo + 1] = a[lo], a[lo] = t;                \
            i = lo + 1, j = hi;                                                                    \
            const T piv = a[lo].v;                                                                 \
            if (hi - lo > 4 * TH_BLOCK) thpart_##SFX(a, piv, &i, &j);                              \
            for (;;) {                                                                             \
                do i++;                                                                            \
                while (a[i].v < piv);                                                              \
                do j--;                                                                            \
                while (a[j].v > piv);                                                              \
                if (j < i) break;                                                                  \
                t = a[i], a[i] = a[j], a[j] = t;                                                   \
            }                                                                                      \
            t = a[lo], a[lo] = a[j], a[j] = t;                                                     \
            if (j <= k) lo = i;                                                                    \
            if (j >= k) hi = j - 1;                                                                \
        }                                                                                          \
    }                                                                                              \
    /* TH's quicksortascend / quicksortdescend (desc): Sedgewick's quicksort,    \
     * subfiles of up to 10 left to one final insertion sort (no NaN in a) */                 \
    static void thsort_##SFX(rec_##SFX *a, int64_t n, int desc)                                    \
    {                                                                                              \
        int64_t beg[300], end[300], stack = 0, lo = 0, hi = n - 1, i, j;                           \
        rec_##SFX t;                                                                               \
        int done = n - 1 <= 10;                                                                    \
        while (!done) {                                                                            \
            const int64_t mid = (lo + hi) >> 1;                                                    \
            t = a[mid], a[mid] = a[lo + 1], a[lo + 1] = t;                                         \
            if (TH_BEFORE(a[hi].v, a[lo + 1].v)) t = a[lo + 1], a[lo + 1] = a[hi], a[hi] = t;      \
            if (TH_BEFORE(a[hi].v, a[lo].v)) t = a[lo], a[lo] = a[hi], a[hi] = t;                  \
            if (TH_BEFORE(a[lo].v, a[lo + 1].v)) t = a[lo + 1], a[lo + 1] = a[lo], a[lo] = t;      \
            i = lo + 1, j = hi;                                                                    \
            const T piv = a[lo].v;                                                                 \
            for (;;) {                                                                             \
                do i++;                                                                            \
                while (TH_BEFORE(a[i].v, piv));                                                    \
                do j--;                                                                            \
                while (TH_BEFORE(piv, a[j].v));                                                    \
                if (j < i) break;                                                                  \
                t = a[i], a[i] = a[j], a[j] = t;                                                   \
            }                                                                                      \
            t = a[lo], a[lo] = a[j], a[j] = t;                                                     \
            const int64_t left = j - lo, right = hi - i + 1;                                       \
            if (left <= 10 && right <= 10) {                                                       \
                if (stack == 0)                                                                    \
                    done = 1;                                                                      \
                else                                                                               \
                    stack--, lo = beg[stack], hi = end[stack];                                     \
            } else if (left <= 10 || right <= 10) {                                                \
                if (left > right)                                                                  \
                    hi = j - 1;                                                                    \
                else                                                                               \
                    lo = i;                                                                        \
            } else if (left > right) {                                                             \
                beg[stack] = lo, end[stack] = j - 1, stack++;                                      \
                lo = i;                                                                            \
            } else {                                                                               \
                beg[stack] = i, end[stack] = hi, stack++;                                          \
                hi = j - 1;                                                                        \
            }                                                                                      \
        }                                                                                          \
        for (i = n - 2; i >= 0; i--)                                                               \
            if (TH_BEFORE(a[i + 1].v, a[i].v)) {                                                   \
                const rec_##SFX piv = a[i];                                                        \
                j = i + 1;                                                                         \
                do {                                                                               \
                    a[j - 1] = a[j];                                                               \
                    j++;                                                                           \
                } while (j < n && TH_BEFORE(a[j].v, piv.v));                                       \
                a[j - 1] = piv;                                                                    \
            }                                                                                      \
    }                                                                                              \
    /* the lane as records into r; returns whether it holds a NaN */                               \
    static int th_copy_##SFX(rec_##SFX *r, const char *x, int64_t step, int64_t n)                 \
    {                                                                                              \
        int nan = 0;                                                                               \
        for (int64_t i = 0; i < n; i++) {                                                          \
            const T v = *(const T *)(x + i * step);                                                \
            r[i] = (rec_##SFX){v, i};                                                              \
            nan |= v != v;                                                                         \
        }                                                                                          \
        return nan;                                                                                \
    }                                                                                              \
    /* Torch7's topk of a lane (THTensor_(topk)): 0 when the lane holds a NaN */                   \
    static int th_topk_##SFX(char **p, sel_ctx *c)                                                 \
    {                                                                                              \
        const int64_t n = c->n, k = c->k;                                                          \
        rec_##SFX *r = th_records(c, sizeof(rec_##SFX));                                           \
        if (!r || th_copy_##SFX(r, p[0], c->step, n)) return 0;                                    \
        int64_t first = 0;                                                                         \
        if (c->largest) {                                                                          \
            first = n - k;                                                                         \
            if (first > 0) thsel_##SFX(r, n, first - 1);                                           \
            if (c->sorted) thsort_##SFX(r + first, k, 1);                                          \
        } else {                                                                                   \
            thsel_##SFX(r, n, k - 1);                                                              \
            if (c->sorted) thsort_##SFX(r, k - 1, 0); /* TH sorts the first k - 1 */               \
        }                                                                                          \
        for (int64_t j = 0; j < k; j++) {                                                          \
            *(T *)(p[1] + j * c->vstep) = r[first + j].v;                                          \
            *(int64_t *)(p[2] + j * c->istep) = r[first + j].i;                                    \
        }                                                                                          \
        return 1;                                                                                  \
    }                                                                                              \
    /* the best k records of positions [i0, i1) into buf (cap >= 2k records);        \
     * returns how many (min(k, i1 - i0)), in no order */             \
    static int64_t filter_##SFX(const char *x, int64_t step, int64_t i0, int64_t i1, int64_t k,    \
                                int largest, rec_##SFX *buf, int64_t cap)                          \
    {                                                                                              \
        int64_t cnt = 0, i = i0;                                                                   \
        T tmp[BLOCK];                                                                              \
        if (k == 0) return 0;                                                                      \
        for (; i < i1 && cnt < k; i++) buf[cnt++] = (rec_##SFX){*(const T *)(x + i * step), i};    \
        if (i == i1) return cnt;                                                                   \
        if (largest)                                                                               \
            rl_##SFX##_select(buf, cnt, k - 1);                                                    \
        else                                                                                       \
            rs_##SFX##_select(buf, cnt, k - 1);                                                    \
        T thr = buf[k - 1].v;                                                                      \
        while (i < i1) {                                                                           \
            /* a NaN threshold: nothing later beats it for largest; for smallest     \
             * every number does */             \
            const int mode = largest ? (thr != thr ? -1 : 0) : (thr != thr ? 2 : 1);               \
            if (mode < 0) break;                                                                   \
            const int64_t m = i1 - i < BLOCK ? i1 - i : BLOCK;                                     \
            const T *b = block_##SFX(x, step, i, m, tmp);                                          \
            if (!any_##SFX(b, m, thr, mode)) {                                                     \
                i += m;                                                                            \
                continue;                                                                          \
            }                                                                                      \
            for (int64_t j = 0; j < m; j++) {                                                      \
                const T v = b[j];                                                                  \
                if (largest ? ST_LT_##SFX(thr, v) : ST_LT_##SFX(v, thr)) {                         \
                    buf[cnt++] = (rec_##SFX){v, i + j};                                            \
                    if (cnt == cap) {                                                              \
                        if (largest)                                                               \
                            rl_##SFX##_select(buf, cnt, k - 1);                                    \
                        else                                                                       \
                            rs_##SFX##_select(buf, cnt, k - 1);                                    \
                        cnt = k;                                                                   \
                        thr = buf[k - 1].v;                                                        \
                    }                                                                              \
                }                                                                                  \
            }                                                                                      \
            i += m;                                                                                \
        }                                                                                          \
        if (cnt > k) {                                                                             \
            if (largest)                                                                           \
                rl_##SFX##_select(buf, cnt, k - 1);                                                \
            else                                                                                   \
                rs_##SFX##_select(buf, cnt, k - 1);                                                \
        }                                                                                          \
        return k;                                                                                  \
    }                                                                                              \
    /* the k-th through a sample: two bounds around it from a sample of the lane,    \
     * one (threaded) pass counting what is below the lower one and keeping the      \
     * records between them, a select among those.  1: *val, *at set; 0: the         \
     * bounds missed (or too much fell between them): use the plain way. */             \
    static int kth_sampled_##SFX(const char *x, int64_t step, int64_t n, int64_t k, int nt,        \
                                 T *val, int64_t *at, int64_t *nan_n, int64_t *eq_n)               \
    {                                                                                              \
        int64_t s = (int64_t)cbrt((double)n * (double)n);                                          \
        s = s < 1024 ? 1024 : s > n / 4 ? n / 4 : s;                                               \
        const int64_t gap = n / s;                                                                 \
        T *smp = malloc((size_t)s * sizeof(T));                                                    \
        if (!smp) return 0;                                                                        \
        int64_t sn = 0;                                                                            \
        /* runs of 16 neighbours at spread positions: few cache misses; a run of    \
         * w values starts within its w gaps so that it ends there: below s * gap <= n */              \
        for (int64_t j = 0; j < s; j += 16) {                                                      \
            const int64_t w = s - j < 16 ? s - j : 16;                                             \
            const int64_t at0 = j * gap + (j * 7919) % (gap * w - w + 1);                          \
            for (int64_t u = 0; u < w; u++) {                                                      \
                const T v = *(const T *)(x + (at0 + u) * step);                                    \
                smp[sn] = v;                                                                       \
                sn += v == v;                                                                      \
            }                                                                                      \
        }                                                                                          \
        if (sn == 0) {                                                                             \
            free(smp);                                                                             \
            return 0;                                                                              \
        }                                                                                          \
        const int64_t r = (int64_t)((double)k * (double)s / (double)n);                            \
        const int64_t delta = (int64_t)(2.0 * sqrt((double)s)) + 8; /* 4 sigma */                  \
        int64_t lo_i = r - delta, hi_i = r + delta;                                                \
        if (lo_i >= sn) lo_i = sn - 1;                                                             \
        T lo = TMIN_##SFX, hi = TMAX_##SFX;                                                        \
        if (lo_i >= 0) {                                                                           \
            v_##SFX##_select(smp, sn, lo_i);                                                       \
            lo = smp[lo_i];                                                                        \
        } else                                                                                     \
            lo_i = -1;                                                                             \
        if (hi_i < sn) {                                                                           \
            v_##SFX##_select(smp + lo_i + 1, sn - lo_i - 1, hi_i - lo_i - 1);                      \
            hi = smp[hi_i];                                                                        \
        } else                                                                                     \
            hi_i = sn;                                                                             \
        free(smp);                                                                                 \
        const int64_t cap =                                                                        \
            (int64_t)(2.0 * (double)n * (double)(hi_i - lo_i + 1) / (double)s / nt) + 4096;        \
        rec_##SFX *recs = malloc((size_t)(cap * nt) * sizeof(rec_##SFX));                          \
        if (!recs) return 0;                                                                       \
        int64_t lt[64] = {0}, nan[64] = {0}, got[64] = {0};                                        \
        int over = 0;                                                                              \
        _Pragma(                                                                                   \
            "omp parallel for num_threads(nt) schedule(static, 1) if (nt > 1) reduction(|:over)")  \
        for (int t = 0; t < nt; t++) {                                                             \
            T tmp[BLOCK];                                                                          \
            rec_##SFX *mine = recs + (int64_t)t * cap;                                             \
            int64_t c = 0, l = 0, q = 0;                                                           \
            const int64_t e = n * (t + 1) / nt;                                                    \
            for (int64_t i = n * t / nt; i < e; i += BLOCK) {                                      \
                const int64_t m = e - i < BLOCK ? e - i : BLOCK;                                   \
                const T *b = block_##SFX(x, step, i, m, tmp);                                      \
                if (!count_##SFX(b, m, lo, hi, &l, &q)) continue;                                  \
                if (c + m > cap) {                                                                 \
                    over = 1;                                                                      \
                    break;                                                                         \
                }                                                                                  \
                for (int64_t j = 0; j < m; j++) { /* branch-free: store, keep or not */            \
                    const T v = b[j];                                                              \
                    mine[c] = (rec_##SFX){v, i + j};                                               \
                    c += (v >= lo) & (v <= hi);                                                    \
                }                                                                                  \
            }                                                                                      \
            lt[t] = l, nan[t] = q, got[t] = c;                                                     \
        }                                                                                          \
        int64_t below = 0, nans = 0, mid = 0;                                                      \
        for (int t = 0; t < nt; t++) {                                                             \
            below += lt[t], nans += nan[t];                                                        \
            memmove(recs + mid, recs + (int64_t)t * cap, (size_t)got[t] * sizeof *recs);           \
            mid += got[t];                                                                         \
        }                                                                                          \
        int done = 0;                                                                              \
        if (!over && k >= n - nans) { /* a NaN: the (k - numbers)-th in lane order */              \
            int64_t rem = k - (n - nans);                                                          \
            for (int64_t i = 0; i < n; i++) {                                                      \
                const T v = *(const T *)(x + i * step);                                            \
                if (v != v && rem-- == 0) {                                                        \
                    *val = v, *at = i, done = 1;                                                   \
                    break;                                                                         \
                }                                                                                  \
            }                                                                                      \
        } else if (!over && k >= below && k < below + mid) {                                       \
            rs_##SFX##_select(recs, mid, k - below);                                               \
            *val = recs[k - below].v, *at = recs[k - below].i, done = 1;                           \
            /* every occurrence of the value lies between the bounds: its count */                 \
            int64_t eq = 0;                                                                        \
            for (int64_t j = 0; j < mid; j++) eq += recs[j].v == *val;                             \
            *nan_n = nans, *eq_n = eq;                                                             \
        }                                                                                          \
        free(recs);                                                                                \
        return done;                                                                               \
    }                                                                                              \
    /* p[0] the input lane, p[1] the values, p[2] the indices */                                   \
    static void topk_lane_##SFX(char **p, void *extra)                                             \
    {                                                                                              \
        sel_ctx *c = extra;                                                                        \
        const int64_t n = c->n, k = c->ksel;                                                       \
        rec_##SFX *buf = c->bufs[omp_get_thread_num()];                                            \
        int64_t cnt;                                                                               \
        /* unsorted: TH's arrangement whatever the values (a lane with a NaN,      \
         * where th_topk declines, takes the stable order below) */               \
        if (c->th && !c->sorted && th_topk_##SFX(p, c)) return;                                    \
        if (c->inner) {                                                                            \
            int nt = st_threads_for(n);                                                            \
            if (nt > c->nbuf) nt = c->nbuf;                                                        \
            if (nt > 64) nt = 64;                                                                  \
            rec_##SFX *all = c->merge;                                                             \
            int64_t got[64];                                                                       \
            _Pragma("omp parallel for num_threads(nt) schedule(static, 1)")                        \
            for (int t = 0; t < nt; t++)                                                           \
                got[t] = filter_##SFX(p[0], c->step, n * t / nt, n * (t + 1) / nt, k, c->largest,  \
                                      (rec_##SFX *)c->bufs[t], c->cap);                            \
            cnt = 0;                                                                               \
            for (int t = 0; t < nt; t++) {                                                         \
                memcpy(all + cnt, c->bufs[t], (size_t)got[t] * sizeof *all);                       \
                cnt += got[t];                                                                     \
            }                                                                                      \
            buf = all;                                                                             \
        } else if (c->filter) {                                                                    \
            cnt = filter_##SFX(p[0], c->step, 0, n, k, c->largest, buf, c->cap);                   \
        } else {                                                                                   \
            for (int64_t i = 0; i < n; i++)                                                        \
                buf[i] = (rec_##SFX){*(const T *)(p[0] + i * c->step), i};                         \
            cnt = n;                                                                               \
        }                                                                                          \
        if (k > 0 && k < cnt) {                                                                    \
            if (c->largest)                                                                        \
                rl_##SFX##_select(buf, cnt, k - 1);                                                \
            else                                                                                   \
                rs_##SFX##_select(buf, cnt, k - 1);                                                \
        }                                                                                          \
        if (c->sorted) {                                                                           \
            if (c->largest)                                                                        \
                rl_##SFX##_sort(buf, k);                                                           \
            else                                                                                   \
                rs_##SFX##_sort(buf, k);                                                           \
        }                                                                                          \
        if (c->th && c->sorted) {                                                                  \
            /* sorted, with the k + 1 best strictly ordered: the answer is unique */               \
            int unique = 1;                                                                        \
            for (int64_t j = 0; unique && j + 1 < k; j++)                                          \
                unique = c->largest ? buf[j + 1].v < buf[j].v : buf[j].v < buf[j + 1].v;           \
            if (!unique && th_topk_##SFX(p, c)) return;                                            \
        }                                                                                          \
        for (int64_t j = 0; j < c->k; j++) {                                                       \
            *(T *)(p[1] + j * c->vstep) = buf[j].v;                                                \
            *(int64_t *)(p[2] + j * c->istep) = buf[j].i;                                          \
        }                                                                                          \
    }                                                                                              \
    /* p[0] the input lane, p[1] the value, p[2] the index */                                      \
    static void kth_lane_##SFX(char **p, void *extra)                                              \
    {                                                                                              \
        sel_ctx *c = extra;                                                                        \
        const int64_t n = c->n, k = c->k, step = c->step;                                          \
        const char *x = p[0];                                                                      \
        int64_t at = 0, eq = -1, nan = -1; /* eq, nan: counted by the sampled way */               \
        if (n >= SAMPLE_MIN) {                                                                     \
            T v;                                                                                   \
            int nt = c->inner ? st_threads_for(n) : 1;                                             \
            nt = nt > 64 ? 64 : nt;                                                                \
            if (kth_sampled_##SFX(x, step, n, k, nt, &v, &at, &nan, &eq)) goto found;              \
        }                                                                                          \
        T *buf = c->bufs[omp_get_thread_num()];                                                    \
        int64_t m = 0;                                                                             \
        for (int64_t i = 0; i < n; i++) {                                                          \
            T v = *(const T *)(x + i * step);                                                      \
            buf[m] = v;                                                                            \
            m += v == v;                                                                           \
        }                                                                                          \
        if (k >= m) { /* a NaN: the (k - m)-th in lane order */                                    \
            int64_t r = k - m;                                                                     \
            for (int64_t i = 0; i < n; i++) {                                                      \
                T v = *(const T *)(x + i * step);                                                  \
                if (v != v && r-- == 0) {                                                          \
                    at = i;                                                                        \
                    break;                                                                         \
                }                                                                                  \
            }                                                                                      \
        } else {                                                                                   \
            v_##SFX##_select(buf, m, k);                                                           \
            const T kv = buf[k];                                                                   \
            int64_t below = 0;                                                                     \
            for (int64_t j = 0; j < k; j++) below += buf[j] < kv;                                  \
            int64_t r = k - below;                                                                 \
            for (int64_t i = 0; i < n; i++)                                                        \
                if (*(const T *)(x + i * step) == kv && r-- == 0) {                                \
                    at = i;                                                                        \
                    break;                                                                         \
                }                                                                                  \
        }                                                                                          \
    found:                                                                                         \
        if (c->th) {                                                                               \
            /* a value that occurs once has one position; else TH's quickselect */                 \
            const T kv = *(const T *)(x + at * step);                                              \
            if (eq < 0) {                                                                          \
                eq = nan = 0;                                                                      \
                for (int64_t i = 0; i < n; i++) {                                                  \
                    const T v = *(const T *)(x + i * step);                                        \
                    eq += v == kv;                                                                 \
                    nan += v != v;                                                                 \
                }                                                                                  \
            }                                                                                      \
            rec_##SFX *r = eq > 1 && !nan ? th_records(c, sizeof(rec_##SFX)) : NULL;               \
            if (r) {                                                                               \
                th_copy_##SFX(r, x, step, n);                                                      \
                thsel_##SFX(r, n, k);                                                              \
                at = r[k].i;                                                                       \
            }                                                                                      \
        }                                                                                          \
        *(T *)p[1] = *(const T *)(x + at * step);                                                  \
        *(int64_t *)p[2] = at;                                                                     \
    }                                                                                              \
    /* p[0] the sorted lane (contiguous), p[1] the input lane, p[2] value, p[3] index */           \
    static void mode_lane_##SFX(char **p, void *extra)                                             \
    {                                                                                              \
        const sel_ctx *c = extra;                                                                  \
        const int64_t n = c->n, step = c->step;                                                    \
        const T *s = (const T *)p[0]; /* c->k: the sorted copy's step, in elements */              \
        T best = s[0];                                                                             \
        int64_t best_run = 0, run = 0;                                                             \
        for (int64_t i = 0; i < n; i++) {                                                          \
            run++;                                                                                 \
            if (i == n - 1 || s[i * c->k] != s[(i + 1) * c->k]) {                                  \
                if (run > best_run) best_run = run, best = s[i * c->k];                            \
                run = 0;                                                                           \
            }                                                                                      \
        }                                                                                          \
        int64_t at = n - 1;                                                                        \
        for (; at > 0; at--) {                                                                     \
            T v = *(const T *)(p[1] + at * step);                                                  \
            if (best == best ? v == best : v != v) break;                                          \
        }                                                                                          \
        *(T *)p[2] = *(const T *)(p[1] + at * step);                                               \
        *(int64_t *)p[3] = at;                                                                     \
    }                                                                                              \
    /* Torch7's mode (THTensor_(mode)): TH's quicksort of the lane, then the      \
     * first longest run, at the position its last element came from.  A lane    \
     * with a NaN: the rule of mode_lane (records sorted stably, NaN last).       \
     * p[0] the input lane, p[1] the value, p[2] the index */                \
    static void mode_th_lane_##SFX(char **p, void *extra)                                          \
    {                                                                                              \
        sel_ctx *c = extra;                                                                        \
        const int64_t n = c->n, step = c->step;                                                    \
        rec_##SFX *r = th_records(c, sizeof(rec_##SFX));                                           \
        if (!r) return;                                                                            \
        const int nan = th_copy_##SFX(r, p[0], step, n);                                           \
        if (nan)                                                                                   \
            rs_##SFX##_sort(r, n);                                                                 \
        else                                                                                       \
            thsort_##SFX(r, n, 0);                                                                 \
        int64_t best = 0, best_run = 0, run = 0;                                                   \
        for (int64_t i = 0; i < n; i++) {                                                          \
            run++;                                                                                 \
            if (i == n - 1 || r[i].v != r[i + 1].v) {                                              \
                if (run > best_run) best_run = run, best = i;                                      \
                run = 0;                                                                           \
            }                                                                                      \
        }                                                                                          \
        int64_t at = r[best].i;                                                                    \
        if (nan) { /* the last occurrence in the lane */                                           \
            const T bv = r[best].v;                                                                \
            for (at = n - 1; at > 0; at--) {                                                       \
                const T v = *(const T *)(p[0] + at * step);                                        \
                if (bv == bv ? v == bv : v != v) break;                                            \
            }                                                                                      \
        }                                                                                          \
        *(T *)p[1] = *(const T *)(p[0] + at * step);                                               \
        *(int64_t *)p[2] = at;                                                                     \
    }
ST_TYPES_REAL(DEF_SELECT)

/* ---- checks ---- */
static st_status check_in(const st_tensor *in, int dim, const char *name)
{
    if (!st_is_int(in->dtype) && !st_is_float(in->dtype))
        return st_fail(ST_E_TYPE, "%s: x must be an integer or floating tensor, got %s", name,
                       st_dtype_name(in->dtype));
    if (dim < 0 || dim >= (in->ndim ? in->ndim : 1))
        return st_fail(ST_E_INDEX, "%s: dim %d out of range [0, %d)", name, dim,
                       in->ndim ? in->ndim : 1);
    return st_check_storage(in, name);
}

/* values (in's dtype) and indices (int64) of in's shape but `k` along dim */
static st_status check_outs(const st_tensor *values, const st_tensor *indices, const st_tensor *in,
                            int dim, int64_t k, const char *name)
{
    st_status rc;
    if (!values || !indices)
        return st_fail(ST_E_VALUE, "%s: values and indices are both required", name);
    if (values->dtype != in->dtype)
        return st_fail(ST_E_TYPE, "%s: values must be %s (x's dtype), got %s", name,
                       st_dtype_name(in->dtype), st_dtype_name(values->dtype));
    if (indices->dtype != ST_INT64)
        return st_fail(ST_E_TYPE, "%s: indices must be int64, got %s", name,
                       st_dtype_name(indices->dtype));
    if ((rc = st_check_writable(values, "values")) || (rc = st_check_writable(indices, "indices")))
        return rc;
    for (int w = 0; w < 2; w++) {
        const st_tensor *o = w ? indices : values;
        if (o->ndim != in->ndim)
            return st_fail(ST_E_VALUE, "%s: %s must have x's %d dims, got %d", name,
                           w ? "indices" : "values", in->ndim, o->ndim);
        for (int d = 0; d < in->ndim; d++)
            if (o->sizes[d] != (d == dim ? k : in->sizes[d]))
                return st_fail(ST_E_VALUE, "%s: %s has size %lld at dim %d, expected %lld", name,
                               w ? "indices" : "values", (long long)o->sizes[d], d,
                               (long long)(d == dim ? k : in->sizes[d]));
    }
    if (st_tensor_shares_memory(values, in) || st_tensor_shares_memory(indices, in) ||
        st_tensor_shares_memory(values, indices))
        return st_fail(ST_E_VALUE, "%s: values, indices and x must not share memory", name);
    return ST_OK;
}

static int64_t lane_len(const st_tensor *t, int dim) { return t->ndim ? t->sizes[dim] : 1; }
static int64_t lane_step(const st_tensor *t, int dim)
{
    return t->ndim ? t->strides[dim] * st_itemsize(t->dtype) : 0;
}

/* One scratch buffer of `bytes` per thread, or NULL. */
static void **alloc_bufs(int nbuf, int64_t bytes)
{
    void **b = calloc((size_t)nbuf, sizeof(void *));
    if (!b) return NULL;
    for (int t = 0; t < nbuf; t++)
        if (!(b[t] = malloc((size_t)(bytes > 0 ? bytes : 1)))) {
            for (int u = 0; u < t; u++) free(b[u]);
            free(b);
            return NULL;
        }
    return b;
}
static void free_bufs(void **b, int nbuf)
{
    if (!b) return;
    for (int t = 0; t < nbuf; t++) free(b[t]);
    free(b);
}

#define CASE_RECSIZE(CODE, SFX, T, R, ...)                                                         \
    case CODE:                                                                                     \
        return sizeof(rec_##SFX);
static int64_t rec_size(int dtype)
{
    switch (dtype) {
        ST_TYPES_REAL(CASE_RECSIZE)
    default:
        return 16;
    }
}
#define CASE_LANES(CODE, SFX, T, R, ...)                                                           \
    case CODE:                                                                                     \
        return which == 0   ? topk_lane_##SFX                                                      \
               : which == 1 ? kth_lane_##SFX                                                       \
               : which == 2 ? mode_lane_##SFX                                                      \
                            : mode_th_lane_##SFX;
static st_lane_fn lane_fn(int dtype, int which)
{
    switch (dtype) {
        ST_TYPES_REAL(CASE_LANES)
    default:
        return NULL;
    }
}

static int64_t lanes_count(const st_tensor *t, int dim)
{
    int64_t n = 1;
    for (int d = 0; d < t->ndim; d++)
        if (d != dim) n *= t->sizes[d];
    return n;
}

/* per-thread buffers for TH's algorithms (th), allocated by the lanes that need one */
static st_status th_begin(sel_ctx *c, int th, int nslots, const char *name)
{
    c->th = !!th;
    if (!th) return ST_OK;
    c->nfull = nslots; /* the caller's count: the setting may change meanwhile */
    c->full = calloc((size_t)nslots, sizeof(void *));
    return c->full ? ST_OK : st_fail(ST_E_MEMORY, "%s: out of memory", name);
}
static st_status th_end(sel_ctx *c, const char *name)
{
    if (!c->full) return ST_OK;
    for (int t = 0; t < c->nfull; t++) st_aligned_free(c->full[t]);
    free(c->full);
    return c->oom ? st_fail(ST_E_MEMORY, "%s: out of memory", name) : ST_OK;
}

st_status st_topk(st_tensor *values, st_tensor *indices, const st_tensor *in, int64_t k, int dim,
                  int largest, int sorted, int th)
{
    st_status rc;
    if ((rc = check_in(in, dim, "topk"))) return rc;
    const int64_t n = lane_len(in, dim);
    if (k < 0 || k > n)
        return st_fail(ST_E_INDEX, "topk: k = %lld out of range [0, %lld] for dim %d of size %lld",
                       (long long)k, (long long)n, dim, (long long)n);
    if (in->ndim == 0 && k != 1)
        return st_fail(ST_E_INDEX, "topk: k must be 1 for a 0-d x, got %lld", (long long)k);
    if ((rc = check_outs(values, indices, in, dim, k, "topk"))) return rc;
    const int64_t nlanes = lanes_count(in, dim);
    if (nlanes == 0 || k == 0) return ST_OK;
    const int nthreads = st_get_num_threads();
    sel_ctx c = {.n = n,
                 .step = lane_step(in, dim),
                 .k = k,
                 .vstep = lane_step(values, dim),
                 .istep = lane_step(indices, dim),
                 .largest = !!largest,
                 .sorted = !!sorted};
    /* Torch7's order, sorted: one more record shows whether the k-th is tied */
    const int64_t ks = th && sorted && k < n ? k + 1 : k;
    c.ksel = ks;
    c.filter = ks * 16 <= n;
    c.cap = 4 * ks > 1024 ? 4 * ks : 1024;
    if (c.cap > n) c.cap = n;
    c.inner = c.filter && nlanes < nthreads && st_threads_for(n) > 1;
    const int64_t rs = rec_size(in->dtype);
    const int nbuf = nthreads;
    void **bufs = alloc_bufs(nbuf, (c.filter ? c.cap : n) * rs);
    void *merge = c.inner ? malloc((size_t)(ks * nbuf * rs)) : NULL;
    if (!bufs || (c.inner && !merge) || th_begin(&c, th, nbuf, "topk")) {
        free_bufs(bufs, nbuf);
        free(merge);
        return st_fail(ST_E_MEMORY, "topk: out of memory");
    }
    c.bufs = bufs;
    c.nbuf = nbuf;
    c.merge = merge;
    st_lanes ln;
    const st_tensor *ops[3] = {in, values, indices};
    st_lanes_init(&ln, 3, ops, in->ndim ? dim : -1);
    st_lanes_run_max(&ln, lane_fn(in->dtype, 0), &c, c.inner ? 0 : n, nbuf);
    free_bufs(bufs, nbuf);
    free(merge);
    return th_end(&c, "topk");
}

st_status st_kthvalue(st_tensor *values, st_tensor *indices, const st_tensor *in, int64_t k,
                      int dim, int th)
{
    st_status rc;
    if ((rc = check_in(in, dim, "kthvalue"))) return rc;
    const int64_t n = lane_len(in, dim);
    if (k < 0 || k >= n)
        return st_fail(ST_E_INDEX,
                       "kthvalue: k = %lld out of range [0, %lld) for dim %d of size "
                       "%lld",
                       (long long)k, (long long)n, dim, (long long)n);
    if ((rc = check_outs(values, indices, in, dim, 1, "kthvalue"))) return rc;
    const int64_t nlanes = lanes_count(in, dim);
    if (nlanes == 0) return ST_OK;
    const int nbuf = st_get_num_threads();
    sel_ctx c = {.n = n, .step = lane_step(in, dim), .k = k};
    c.inner = n >= SAMPLE_MIN && nlanes < nbuf && st_threads_for(n) > 1;
    void **bufs = alloc_bufs(nbuf, n * st_itemsize(in->dtype));
    if (!bufs || th_begin(&c, th, nbuf, "kthvalue")) {
        free_bufs(bufs, nbuf);
        return st_fail(ST_E_MEMORY, "kthvalue: out of memory");
    }
    c.bufs = bufs;
    c.nbuf = nbuf;
    st_lanes ln;
    const st_tensor *ops[3] = {in, values, indices};
    st_lanes_init(&ln, 3, ops, in->ndim ? dim : -1);
    st_lanes_run_max(&ln, lane_fn(in->dtype, 1), &c, c.inner ? 0 : n, nbuf);
    free_bufs(bufs, nbuf);
    return th_end(&c, "kthvalue");
}

st_status st_mode(st_tensor *values, st_tensor *indices, const st_tensor *in, int dim, int th)
{
    st_status rc;
    if ((rc = check_in(in, dim, "mode"))) return rc;
    const int64_t n = lane_len(in, dim);
    if (n == 0)
        return st_fail(ST_E_VALUE, "mode: dim %d has size 0 (no mode of an empty lane)", dim);
    if ((rc = check_outs(values, indices, in, dim, 1, "mode"))) return rc;
    if (lanes_count(in, dim) == 0) return ST_OK;
    if (th) { /* TH's quicksort lane by lane */
        sel_ctx c = {.n = n, .step = lane_step(in, dim)};
        const int nslots = st_get_num_threads();
        if (th_begin(&c, th, nslots, "mode")) return st_fail(ST_E_MEMORY, "mode: out of memory");
        st_lanes ln;
        const st_tensor *ops[3] = {in, values, indices};
        st_lanes_init(&ln, 3, ops, in->ndim ? dim : -1);
        st_lanes_run_max(&ln, lane_fn(in->dtype, 3), &c, n, nslots);
        return th_end(&c, "mode");
    }
    st_tensor *sorted = st_tensor_temp_like(in, in->dtype);
    if (!sorted) return st_fail(ST_E_MEMORY, "mode: out of memory");
    if (in->ndim)
        rc = st_sort(sorted, NULL, in, dim, 0, 0);
    else
        rc = st_copy(sorted, in);
    if (rc) {
        st_tensor_free(sorted);
        return rc;
    }
    sel_ctx c = {.n = n, .step = lane_step(in, dim), .k = in->ndim ? sorted->strides[dim] : 0};
    st_lanes ln;
    const st_tensor *ops[4] = {sorted, in, values, indices};
    st_lanes_init(&ln, 4, ops, in->ndim ? dim : -1);
    st_lanes_run(&ln, lane_fn(in->dtype, 2), &c, n);
    st_tensor_free(sorted);
    return ST_OK;
}
