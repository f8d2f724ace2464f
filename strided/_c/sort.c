/* sort.c -- stable sort along one dim, with the permutation.
 *
 * Every lane is read into a scratch buffer of (value, position) records,
 * sorted there and written back, so the input may be the values output
 * itself (x.sort() in place): a lane is read whole before it is written.
 * Lanes run in parallel, each with its own scratch: small lanes on the
 * stack, larger ones from a pool of one buffer per thread, claimed per lane.
 *
 * Order (decided once, in st_internal.h: ST_LT_<suffix>):
 *   ascending:  x before y iff x < y; NaN after everything, NaNs equal;
 *               complex compares (real, imag) lexicographically and a NaN
 *               in either part puts it after everything.
 *   descending: the exact reverse among unequal values (NaN first).
 *   Equal values (0.0 and -0.0 included) keep their input order both ways.
 *
 * Two algorithms give that one order:
 *   - a bottom-up merge sort (insertion-sorted runs, then ping-pong merges),
 *     generated for every dtype: O(n log n), stable by construction;
 *   - a radix sort, for bool, integers and floats in lanes of at least
 *     RADIX_MIN elements: the value maps to an unsigned key of its width
 *     whose order is the order above, and an MSD radix sort of the keys
 *     (stable counting passes, insertion-sorted leaves) writes the values
 *     back from their keys; one long lane is split across threads.  See
 *     "radix sort" below;
 *   - for values alone (no permutation) of 32- and 64-bit integers and
 *     floats into a contiguous output lane, on a CPU with AVX-512: the same
 *     keys written into the output lane itself, sorted there by the
 *     vector quicksort of sort_simd.c and mapped back in place (no scratch
 *     but the set-aside zeros and NaNs).  Equal keys are equal values but
 *     for a zero's sign and a NaN's payload, which are put back as the
 *     radix sort does, so the result is the stable sort's, bit for bit.
 *     See "vector quicksort" below. */
#include "st_internal.h"
#include <stdio.h>
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
static int omp_get_num_threads(void) { return 1; }
#endif

#include "st_vsort.h"

#define SORT_RUN 16        /* insertion-sorted run length */
#define RADIX_MIN 128      /* lanes at least this long use the radix sort */
#define SMALL_SCRATCH 8192 /* lane scratch up to this many bytes: on the stack */

struct sort_ctx;
typedef void (*sort_kernel)(char **p, struct sort_ctx *c, char *buf);

typedef struct sort_ctx {
    int64_t n;                       /* lane length */
    int64_t in_step, v_step, i_step; /* bytes */
    int vslot, islot;                /* lane operand of values / indices, -1: none */
    int64_t base;                    /* added to written positions (0 or 1) */
    int desc;
    sort_kernel kernel;
    const struct rdx_type *rty; /* the radix sort's type, NULL: merge sort */
    const struct vqs_type *vty; /* the vector quicksort's type */
    int rdx_threads;            /* threads for one radix lane (1: lanes in parallel) */
    int64_t scratch;            /* bytes per lane */
    int nbuf;                   /* pool: one buffer per thread */
    char **bufs;
    int *busy;
    int failed;
} sort_ctx;

/* record order: ascending (st_internal.h's ST_LT_<suffix>, shared with the
 * searches of setops.c so that searchsorted agrees with sort), or its reverse */
#define ASC(LT, x, y) LT((x).v, (y).v)
#define DESC(LT, x, y) LT((y).v, (x).v)

/* ---- merge sort: sorts a[0..n) using b[0..n) as scratch ---- */
#define DEF_MSORT(NAME, R, ORD, LT)                                                                \
    static void NAME(R *a, R *b, int64_t n)                                                        \
    {                                                                                              \
        for (int64_t lo = 0; lo < n; lo += SORT_RUN) {                                             \
            int64_t hi = lo + SORT_RUN < n ? lo + SORT_RUN : n;                                    \
            for (int64_t i = lo + 1; i < hi; i++) {                                                \
                R x = a[i];                                                                        \
                int64_t j = i;                                                                     \
                while (j > lo && ORD(LT, x, a[j - 1])) {                                           \
                    a[j] = a[j - 1];                                                               \
                    j--;                                                                           \
                }                                                                                  \
                a[j] = x;                                                                          \
            }                                                                                      \
        }                                                                                          \
        R *src = a, *dst = b;                                                                      \
        for (int64_t w = SORT_RUN; w < n; w *= 2) {                                                \
            for (int64_t lo = 0; lo < n; lo += 2 * w) {                                            \
                int64_t mid = lo + w < n ? lo + w : n;                                             \
                int64_t hi = lo + 2 * w < n ? lo + 2 * w : n;                                      \
                if (mid == hi || !ORD(LT, src[mid], src[mid - 1])) {                               \
                    memcpy(dst + lo, src + lo, (size_t)(hi - lo) * sizeof(R));                     \
                    continue;                                                                      \
                }                                                                                  \
                const R *pi = src + lo, *pj = src + mid;                                           \
                const R *const ei = src + mid, *const ej = src + hi;                               \
                R *pk = dst + lo;                                                                  \
                while (pi < ei && pj < ej) {                                                       \
                    /* the right run goes first only when strictly before */                       \
                    int right = ORD(LT, *pj, *pi);                                                 \
                    *pk++ = *(right ? pj : pi);                                                    \
                    pj += right;                                                                   \
                    pi += !right;                                                                  \
                }                                                                                  \
                if (pi < ei) memcpy(pk, pi, (size_t)(ei - pi) * sizeof(R));                        \
                if (pj < ej) memcpy(pk, pj, (size_t)(ej - pj) * sizeof(R));                        \
            }                                                                                      \
            R *t = src;                                                                            \
            src = dst;                                                                             \
            dst = t;                                                                               \
        }                                                                                          \
        if (src != a) memcpy(a, src, (size_t)n * sizeof(R));                                       \
    }

/* one lane: read into records, sort, write values and positions */
#define DEF_MSORT_LANE(CODE, SFX, T, R, ...)                                                       \
    typedef struct {                                                                               \
        T v;                                                                                       \
        int64_t i;                                                                                 \
    } rec_##SFX;                                                                                   \
    DEF_MSORT(msort_asc_##SFX, rec_##SFX, ASC, ST_LT_##SFX)                                        \
    DEF_MSORT(msort_desc_##SFX, rec_##SFX, DESC, ST_LT_##SFX)                                      \
    static void msort_lane_##SFX(char **p, sort_ctx *c, char *buf)                                 \
    {                                                                                              \
        const int64_t n = c->n;                                                                    \
        rec_##SFX *a = (rec_##SFX *)buf, *b = a + n;                                               \
        for (int64_t j = 0; j < n; j++) {                                                          \
            a[j].v = *(const T *)(p[0] + j * c->in_step);                                          \
            a[j].i = j;                                                                            \
        }                                                                                          \
        if (c->desc)                                                                               \
            msort_desc_##SFX(a, b, n);                                                             \
        else                                                                                       \
            msort_asc_##SFX(a, b, n);                                                              \
        if (c->vslot >= 0)                                                                         \
            for (int64_t j = 0; j < n; j++) *(T *)(p[c->vslot] + j * c->v_step) = a[j].v;          \
        if (c->islot >= 0)                                                                         \
            for (int64_t j = 0; j < n; j++)                                                        \
                *(int64_t *)(p[c->islot] + j * c->i_step) = a[j].i + c->base;                      \
    }
ST_TYPES_ALL(DEF_MSORT_LANE)

/* ---- radix sort ----------------------------------------------------------
 * MSD radix sort of unsigned keys whose order is the sort's order: each
 * value maps to a key of its own width (NaN to the largest key, -0.0 to
 * +0.0's key, signed integers with the sign bit flipped; descending flips
 * every bit).  Keys live in their own array, apart from the positions
 * (uint32, carried only when the permutation is wanted), so a pass moves 4
 * or 8 bytes per element for a sort and 8 or 12 for an argsort.
 *
 * The first pass splits by the (up to) 11 bits just below the prefix that
 * every key shares (from the keys' min and max), with all threads: chunk t
 * of the lane counts its digits, then scatters to offsets that put its
 * elements of a bucket after chunk t-1's.  Each thread then sorts the
 * buckets that start in its share of the lane, alone: a bucket splits again
 * by its next digit (a digit every key shares is skipped without moving
 * anything) until it is small enough for an insertion sort, or its keys are
 * all equal; the leaves write the outputs directly, the value back from its
 * key and the position as int64.  Every scatter is a stable counting pass
 * and the insertion sort is stable, so equal keys keep input order.
 *
 * Keys are made from the lane before anything is written, so the lane may
 * be its own output (in place).  Keys forget what they blur: the sign of a
 * zero and a NaN's payload.  When the lane has a -0.0 or a NaN and values
 * are wanted, those elements are copied aside in input order before any
 * output is written and put back into their runs at the end (equal keys
 * keep input order, so the run of zeros is the input's zeros in order). */
#define RDX_MAX_T 64       /* threads one lane may use */
#define RDX_TOP_BITS 11    /* widest digit (2048 buckets) */
#define RDX_LEAF 16        /* buckets this small: insertion sort */
#define RDX_SPREAD_BITS 1  /* inner digits: twice as many buckets as keys */
#define RDX_PAR_MIN 131072 /* a lane this long may be split across threads */

/* Order-preserving keys of each type's width.  Floats: x + 0 turns -0.0
 * into +0.0; a negative flips every bit, a positive only its sign bit. */
static inline uint64_t key_f64(double x)
{
    double y = x + 0.0;
    uint64_t u;
    memcpy(&u, &y, sizeof u);
    uint64_t k = u ^ ((uint64_t)((int64_t)u >> 63) | ((uint64_t)1 << 63));
    return x != x ? UINT64_MAX : k;
}
static inline double unkey_f64(uint64_t k)
{
    uint64_t u = k ^ (~(uint64_t)((int64_t)k >> 63) | ((uint64_t)1 << 63));
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}
static inline uint32_t key_f32(float x)
{
    float y = x + 0.0f;
    uint32_t u;
    memcpy(&u, &y, sizeof u);
    uint32_t k = u ^ ((uint32_t)((int32_t)u >> 31) | ((uint32_t)1 << 31));
    return x != x ? UINT32_MAX : k;
}
static inline float unkey_f32(uint32_t k)
{
    uint32_t u = k ^ (~(uint32_t)((int32_t)k >> 31) | ((uint32_t)1 << 31));
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}
/* per type: key type, key of x, value of key k, is it a float */
#define RDX_SIGNED(UT, x) ((UT)((UT)(x) ^ ((UT)1 << (8 * sizeof(UT) - 1))))
#define RDX_bool_ uint32_t, (uint32_t)((x) != 0), (_Bool)(k), 0
#define RDX_int8 uint32_t, RDX_SIGNED(uint8_t, x), (int8_t)RDX_SIGNED(uint8_t, k), 0
#define RDX_int16 uint32_t, RDX_SIGNED(uint16_t, x), (int16_t)RDX_SIGNED(uint16_t, k), 0
#define RDX_int32 uint32_t, RDX_SIGNED(uint32_t, x), (int32_t)RDX_SIGNED(uint32_t, k), 0
#define RDX_int64 uint64_t, RDX_SIGNED(uint64_t, x), (int64_t)RDX_SIGNED(uint64_t, k), 0
#define RDX_uint8 uint32_t, (uint32_t)(x), (uint8_t)(k), 0
#define RDX_uint16 uint32_t, (uint32_t)(x), (uint16_t)(k), 0
#define RDX_uint32 uint32_t, (uint32_t)(x), (uint32_t)(k), 0
#define RDX_uint64 uint64_t, (uint64_t)(x), (uint64_t)(k), 0
#define RDX_float32 uint32_t, key_f32(x), unkey_f32(k), 1
#define RDX_float64 uint64_t, key_f64(x), unkey_f64(k), 1

/* what the keys blur, counted per chunk (floats only), and the keys' range */
typedef struct {
    int64_t nan, zero, negzero, neg;
    uint64_t kmin, kmax;
} rdx_chunk;

struct rdx_type;
typedef struct {
    const struct rdx_type *ty;
    int64_t n;
    int T; /* chunks of the first pass */
    uint64_t flip;
    const char *in;
    int64_t in_step;
    char *pv, *pi; /* outputs (NULL: not wanted) */
    int64_t v_step, i_step, base;
    void *keys[2];                /* keys, and where the first pass puts them */
    uint32_t *pos[2];             /* positions (when pi): [1] after the first pass */
    uint32_t *hist;               /* [T][2048]: first pass counts of chunk t */
    char *side;                   /* zeros and NaNs set aside (floats, values wanted) */
    int64_t bound[RDX_MAX_T + 1]; /* chunk t: [bound[t], bound[t+1]) */
    rdx_chunk ch[RDX_MAX_T];
    int top_shift, top_bits, all_equal;
    int64_t zero_at[RDX_MAX_T], nan_at[RDX_MAX_T];  /* chunk t's first slot in side */
    int64_t zero_run, nan_run, zero_keep, nan_keep; /* runs in the output, elements set aside */
} rdx_job;

typedef struct rdx_type {
    int tbytes, tbits, kbytes, is_float;
    void (*keys)(rdx_job *jb, int t);
    void (*collect)(const rdx_job *jb, int t);
    /* output positions [lo, hi) from keys ks[lo..hi) and positions ps */
    void (*emit)(const rdx_job *jb, const void *ks, const uint32_t *ps, int64_t lo, int64_t hi);
    void (*copy)(const rdx_job *jb, int t);
} rdx_type;

static inline int rdx_ceil_log2(int64_t m)
{
    int b = 0;
    while (((int64_t)1 << b) < m) b++;
    return b;
}

/* ---- per key width: the first pass and the per-thread recursion ---- */
#define DEF_RDX_WIDTH(KB, K)                                                                       \
    static void rdx_top_count_##KB(const rdx_job *jb, int t)                                       \
    {                                                                                              \
        const K *ks = jb->keys[0];                                                                 \
        const int shift = jb->top_shift;                                                           \
        const K mask = ((K)1 << jb->top_bits) - 1;                                                 \
        uint32_t *h = jb->hist + (size_t)t * (1 << RDX_TOP_BITS);                                  \
        memset(h, 0, sizeof(uint32_t) << RDX_TOP_BITS);                                            \
        for (int64_t j = jb->bound[t]; j < jb->bound[t + 1]; j++) h[(ks[j] >> shift) & mask]++;    \
    }                                                                                              \
    /* chunk t to offsets off[] (positions j: its input positions) */                              \
    static void rdx_top_move_##KB(const rdx_job *jb, int t, uint32_t *off)                         \
    {                                                                                              \
        const K *ks = jb->keys[0];                                                                 \
        K *kd = jb->keys[1];                                                                       \
        uint32_t *pd = jb->pos[1];                                                                 \
        const int shift = jb->top_shift;                                                           \
        const K mask = ((K)1 << jb->top_bits) - 1;                                                 \
        const int64_t lo = jb->bound[t], hi = jb->bound[t + 1];                                    \
        if (pd) {                                                                                  \
            for (int64_t j = lo; j < hi; j++) {                                                    \
                const K k = ks[j];                                                                 \
                const uint32_t p = off[(k >> shift) & mask]++;                                     \
                kd[p] = k;                                                                         \
                pd[p] = (uint32_t)j;                                                               \
            }                                                                                      \
        } else {                                                                                   \
            for (int64_t j = lo; j < hi; j++) {                                                    \
                const K k = ks[j];                                                                 \
                kd[off[(k >> shift) & mask]++] = k;                                                \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static void rdx_insertion_##KB(K *a, uint32_t *pa, int64_t lo, int64_t hi)                     \
    {                                                                                              \
        for (int64_t i = lo + 1; i < hi; i++) {                                                    \
            const K k = a[i];                                                                      \
            const uint32_t p = pa ? pa[i] : 0;                                                     \
            int64_t j = i;                                                                         \
            for (; j > lo && k < a[j - 1]; j--) {                                                  \
                a[j] = a[j - 1];                                                                   \
                if (pa) pa[j] = pa[j - 1];                                                         \
            }                                                                                      \
            a[j] = k;                                                                              \
            if (pa) pa[j] = p;                                                                     \
        }                                                                                          \
    }                                                                                              \
    /* Sort [lo, hi) of a (pa), whose keys agree above bit `left`, into b (pb); */                 \
    /* a is scratch.  A digit spreads the keys over about twice as many       */                   \
    /* buckets as there are keys; buckets still large sort recursively, and   */                   \
    /* one insertion sweep over the range (nearly in order by then, so its    */                   \
    /* branches are predictable) orders the small ones. */                                         \
    static void rdx_msd_##KB(K *a, uint32_t *pa, K *b, uint32_t *pb, int64_t lo, int64_t hi,       \
                             int left)                                                             \
    {                                                                                              \
        const int64_t m = hi - lo;                                                                 \
        int shift = left;                                                                          \
        while (left > 0 && m > RDX_LEAF) {                                                         \
            int bits = rdx_ceil_log2(m) + RDX_SPREAD_BITS;                                         \
            if (bits > RDX_TOP_BITS) bits = RDX_TOP_BITS;                                          \
            if (bits > left) bits = left;                                                          \
            shift = left - bits;                                                                   \
            const int nb = 1 << bits;                                                              \
            const K mask = (K)nb - 1;                                                              \
            uint32_t cnt[nb];                                                                      \
            memset(cnt, 0, sizeof cnt);                                                            \
            for (int64_t j = lo; j < hi; j++) cnt[(a[j] >> shift) & mask]++;                       \
            int one = 0;                                                                           \
            uint32_t run = (uint32_t)lo;                                                           \
            for (int d = 0; d < nb; d++) {                                                         \
                const uint32_t c = cnt[d];                                                         \
                one |= c == (uint32_t)m;                                                           \
                cnt[d] = run;                                                                      \
                run += c;                                                                          \
            }                                                                                      \
            left = shift;                                                                          \
            if (one) continue; /* a digit every key shares: nothing to move */                     \
            if (pa) {                                                                              \
                for (int64_t j = lo; j < hi; j++) {                                                \
                    const uint32_t p = cnt[(a[j] >> shift) & mask]++;                              \
                    b[p] = a[j];                                                                   \
                    pb[p] = pa[j];                                                                 \
                }                                                                                  \
            } else {                                                                               \
                for (int64_t j = lo; j < hi; j++) b[cnt[(a[j] >> shift) & mask]++] = a[j];         \
            }                                                                                      \
            if (shift == 0) return; /* equal keys share a bucket, in input order */                \
            /* cnt[d] is now the end of bucket d */                                                \
            int64_t start = lo;                                                                    \
            for (int d = 0; d < nb; d++) {                                                         \
                const int64_t end = cnt[d];                                                        \
                if (end - start > RDX_LEAF) {                                                      \
                    rdx_msd_##KB(b, pb, a, pa, start, end, shift);                                 \
                    memcpy(b + start, a + start, (size_t)(end - start) * sizeof(K));               \
                    if (pa) memcpy(pb + start, pa + start, (size_t)(end - start) * 4);             \
                }                                                                                  \
                start = end;                                                                       \
            }                                                                                      \
            rdx_insertion_##KB(b, pb, lo, hi);                                                     \
            return;                                                                                \
        }                                                                                          \
        /* small, or every key equal: in order as they are (insertion is stable) */                \
        if (left > 0) rdx_insertion_##KB(a, pa, lo, hi);                                           \
        memcpy(b + lo, a + lo, (size_t)m * sizeof(K));                                             \
        if (pa) memcpy(pb + lo, pa + lo, (size_t)m * 4);                                           \
    }                                                                                              \
    /* a bucket of the first pass, sorted and written out */                                       \
    static void rdx_bucket_##KB(const rdx_job *jb, int64_t lo, int64_t hi)                         \
    {                                                                                              \
        rdx_msd_##KB((K *)jb->keys[1], jb->pos[1], (K *)jb->keys[0], jb->pos[0], lo, hi,           \
                     jb->top_shift);                                                               \
        jb->ty->emit(jb, jb->keys[0], jb->pos[0], lo, hi);                                         \
    }
DEF_RDX_WIDTH(32, uint32_t)
DEF_RDX_WIDTH(64, uint64_t)

/* ---- per dtype: keys and the keys' range, the float classes, leaves, the copy */
#define DEF_RDX_TYPE(CODE, SFX, T, R, ...) DEF_RDX_TYPE_(SFX, T, RDX_##SFX)
#define DEF_RDX_TYPE_(SFX, T, ...) DEF_RDX_TYPE__(SFX, T, __VA_ARGS__)
#define DEF_RDX_TYPE__(SFX, T, K, KEYX, UNKEYK, ISF)                                               \
    static inline K rdx_key_##SFX(T x) { return KEYX; }                                            \
    static inline T rdx_unkey_##SFX(K k) { return UNKEYK; }                                        \
    /* the sign bit of x's own bits (a -0.0 among the zeros) */                                    \
    static inline int rdx_sign_##SFX(T x)                                                          \
    {                                                                                              \
        K u = 0;                                                                                   \
        memcpy(&u, &x, sizeof x);                                                                  \
        return (int)((u >> (8 * sizeof(T) - 1)) & 1);                                              \
    }                                                                                              \
    ST_LEVEL_BODY void rdx_keys_body_##SFX(rdx_job *jb, int t)                                     \
    {                                                                                              \
        K *kd = jb->keys[0];                                                                       \
        const K flip = (K)jb->flip;                                                                \
        const int64_t step = jb->in_step, lo = jb->bound[t], hi = jb->bound[t + 1];                \
        K kmin = (K) ~(K)0, kmax = 0;                                                              \
        if (step == sizeof(T)) {                                                                   \
            const T *x = (const T *)jb->in;                                                        \
            for (int64_t j = lo; j < hi; j++) {                                                    \
                const K k = rdx_key_##SFX(x[j]) ^ flip;                                            \
                kd[j] = k;                                                                         \
                kmin = k < kmin ? k : kmin;                                                        \
                kmax = k > kmax ? k : kmax;                                                        \
            }                                                                                      \
        } else {                                                                                   \
            for (int64_t j = lo; j < hi; j++) {                                                    \
                const K k = rdx_key_##SFX(*(const T *)(jb->in + j * step)) ^ flip;                 \
                kd[j] = k;                                                                         \
                kmin = k < kmin ? k : kmin;                                                        \
                kmax = k > kmax ? k : kmax;                                                        \
            }                                                                                      \
        }                                                                                          \
        rdx_chunk *c = &jb->ch[t];                                                                 \
        c->kmin = kmin;                                                                            \
        c->kmax = kmax;                                                                            \
        c->nan = c->zero = c->negzero = c->neg = 0;                                                \
        if (!ISF || !jb->pv) return;                                                               \
        int64_t nan = 0, zero = 0, negzero = 0, neg = 0;                                           \
        for (int64_t j = lo; j < hi; j++) {                                                        \
            const T x = *(const T *)(jb->in + j * step);                                           \
            nan += x != x;                                                                         \
            zero += x == 0;                                                                        \
            negzero += (x == 0) & rdx_sign_##SFX(x);                                               \
            neg += rdx_key_##SFX(x) < rdx_key_##SFX((T)0);                                         \
        }                                                                                          \
        c->nan = nan;                                                                              \
        c->zero = zero;                                                                            \
        c->negzero = negzero;                                                                      \
        c->neg = neg;                                                                              \
    }                                                                                              \
    ST_LEVEL_DISPATCH(rdx_keys_##SFX, rdx_keys_body_##SFX, (rdx_job * jb, int t), (jb, t))         \
    static void rdx_collect_##SFX(const rdx_job *jb, int t)                                        \
    {                                                                                              \
        T *zs = (T *)jb->side + jb->zero_at[t], *ns = (T *)jb->side + jb->nan_at[t];               \
        const int keepz = jb->zero_keep > 0;                                                       \
        const int64_t step = jb->in_step;                                                          \
        for (int64_t j = jb->bound[t]; j < jb->bound[t + 1]; j++) {                                \
            const T x = *(const T *)(jb->in + j * step);                                           \
            if (x == 0 && keepz)                                                                   \
                *zs++ = x;                                                                         \
            else if (x != x)                                                                       \
                *ns++ = x;                                                                         \
        }                                                                                          \
    }                                                                                              \
    static void rdx_emit_##SFX(const rdx_job *jb, const void *ksv, const uint32_t *ps, int64_t lo, \
                               int64_t hi)                                                         \
    {                                                                                              \
        const K *ks = ksv;                                                                         \
        const K flip = (K)jb->flip;                                                                \
        if (jb->pv) {                                                                              \
            char *pv = jb->pv;                                                                     \
            const int64_t vs = jb->v_step;                                                         \
            for (int64_t j = lo; j < hi; j++) *(T *)(pv + j * vs) = rdx_unkey_##SFX(ks[j] ^ flip); \
        }                                                                                          \
        if (jb->pi) {                                                                              \
            char *pi = jb->pi;                                                                     \
            const int64_t is = jb->i_step, base = jb->base;                                        \
            for (int64_t j = lo; j < hi; j++) *(int64_t *)(pi + j * is) = (int64_t)ps[j] + base;   \
        }                                                                                          \
    }                                                                                              \
    static void rdx_copy_##SFX(const rdx_job *jb, int t)                                           \
    {                                                                                              \
        for (int64_t j = jb->bound[t]; j < jb->bound[t + 1]; j++) {                                \
            if (jb->pv) *(T *)(jb->pv + j * jb->v_step) = *(const T *)(jb->in + j * jb->in_step);  \
            if (jb->pi) *(int64_t *)(jb->pi + j * jb->i_step) = j + jb->base;                      \
        }                                                                                          \
    }
ST_TYPES_BOOL(DEF_RDX_TYPE)
ST_TYPES_REAL(DEF_RDX_TYPE)

#define RDX_ENTRY(CODE, SFX, T, R, ...) RDX_ENTRY_(CODE, SFX, T, RDX_##SFX)
#define RDX_ENTRY_(CODE, SFX, T, ...) RDX_ENTRY__(CODE, SFX, T, __VA_ARGS__)
#define RDX_ENTRY__(CODE, SFX, T, K, KEYX, UNKEYK, ISF)                                            \
    [CODE] = {sizeof(T),      CODE == ST_BOOL ? 1 : 8 * (int)sizeof(T),                            \
              sizeof(K),      ISF,                                                                 \
              rdx_keys_##SFX, rdx_collect_##SFX,                                                   \
              rdx_emit_##SFX, rdx_copy_##SFX},
static const rdx_type rdx_types[ST_NTYPES] = {ST_TYPES_BOOL(RDX_ENTRY) ST_TYPES_REAL(RDX_ENTRY)};

/* The bytes of scratch a job needs, and (jb given) where each part goes. */
static int64_t rdx_layout(rdx_job *jb, char *buf, const rdx_type *ty, int64_t n, int T,
                          int want_pos, int want_side)
{
    int64_t at = 0;
#define RDX_PART(PTR, BYTES)                                                                       \
    do {                                                                                           \
        if (jb) PTR = (void *)(buf + at);                                                          \
        at += ((int64_t)(BYTES) + 63) & ~(int64_t)63;                                              \
    } while (0)
    void *k0 = NULL, *k1 = NULL, *p0 = NULL, *p1 = NULL, *h = NULL, *side = NULL;
    RDX_PART(k0, n * ty->kbytes);
    RDX_PART(k1, n * ty->kbytes);
    if (want_pos) {
        RDX_PART(p0, n * 4);
        RDX_PART(p1, n * 4);
    }
    RDX_PART(h, ((int64_t)T << RDX_TOP_BITS) * 4);
    if (want_side) RDX_PART(side, n * ty->tbytes);
#undef RDX_PART
    if (jb) {
        jb->keys[0] = k0;
        jb->keys[1] = k1;
        jb->pos[0] = p0;
        jb->pos[1] = p1;
        jb->hist = h;
        jb->side = side;
        jb->T = T;
    }
    return at;
}

/* After the first sweep: the first digit (just below the common prefix of
 * every key), where the float classes go. */
static void rdx_plan(rdx_job *jb)
{
    const int T = jb->T;
    uint64_t kmin = UINT64_MAX, kmax = 0;
    rdx_chunk s = {0};
    for (int t = 0; t < T; t++) {
        const rdx_chunk *c = &jb->ch[t];
        kmin = c->kmin < kmin ? c->kmin : kmin;
        kmax = c->kmax > kmax ? c->kmax : kmax;
        s.nan += c->nan;
        s.zero += c->zero;
        s.negzero += c->negzero;
        s.neg += c->neg;
    }
    jb->all_equal = kmin == kmax;
    if (!jb->all_equal) {
        const int left = 64 - __builtin_clzll(kmin ^ kmax); /* bits below the prefix */
        jb->top_bits = left < RDX_TOP_BITS ? left : RDX_TOP_BITS;
        jb->top_shift = left - jb->top_bits;
    }
    jb->zero_keep = jb->nan_keep = 0;
    if (jb->ty->is_float && jb->pv && !jb->all_equal) {
        const int desc = jb->flip != 0;
        jb->zero_keep = s.negzero ? s.zero : 0;
        jb->nan_keep = s.nan;
        jb->nan_run = desc ? 0 : jb->n - s.nan;
        jb->zero_run = desc ? jb->n - s.zero - s.neg : s.neg;
        int64_t z = 0, a = jb->zero_keep;
        for (int t = 0; t < T; t++) {
            jb->zero_at[t] = z;
            jb->nan_at[t] = a;
            z += jb->zero_keep ? jb->ch[t].zero : 0;
            a += jb->ch[t].nan;
        }
    }
}

/* The set-aside zeros and NaNs back into their runs, in input order. */
static void rdx_restore(const rdx_job *jb)
{
    const int64_t tb = jb->ty->tbytes;
    for (int64_t i = 0; i < jb->zero_keep; i++)
        memcpy(jb->pv + (jb->zero_run + i) * jb->v_step, jb->side + i * tb, (size_t)tb);
    for (int64_t i = 0; i < jb->nan_keep; i++)
        memcpy(jb->pv + (jb->nan_run + i) * jb->v_step, jb->side + (jb->zero_keep + i) * tb,
               (size_t)tb);
}

/* A barrier among the job's threads (none when it runs alone: it may then
 * be inside another team's loop, where a barrier would not be ours). */
static inline void rdx_sync(int nthr)
{
    if (nthr > 1) {
#pragma omp barrier
    }
}

/* The whole sort of one lane, as thread tid of nthr (chunks t = tid, tid +
 * nthr, ...). */
static void rdx_run(rdx_job *jb, int tid, int nthr)
{
    const rdx_type *ty = jb->ty;
    const int T = jb->T, nb = 1 << RDX_TOP_BITS, wide = ty->kbytes == 8;
    for (int t = tid; t < T; t += nthr) ty->keys(jb, t);
    rdx_sync(nthr);
    if (tid == 0) rdx_plan(jb);
    rdx_sync(nthr);
    if (jb->all_equal) { /* nothing to sort: the lane as it is */
        for (int t = tid; t < T; t += nthr) ty->copy(jb, t);
        return;
    }
    for (int t = tid; t < T; t += nthr) {
        if (jb->zero_keep || jb->nan_keep) ty->collect(jb, t); /* before any output */
        if (wide)
            rdx_top_count_64(jb, t);
        else
            rdx_top_count_32(jb, t);
    }
    rdx_sync(nthr);
    /* bucket b's start, and where chunk t writes it: after smaller buckets
     * and after chunks < t's elements of b */
    uint32_t start[1 << RDX_TOP_BITS], off[1 << RDX_TOP_BITS];
    uint32_t run = 0;
    for (int b = 0; b < nb; b++) {
        start[b] = run;
        for (int t = 0; t < T; t++) run += jb->hist[((size_t)t << RDX_TOP_BITS) + b];
    }
    for (int t = tid; t < T; t += nthr) {
        for (int b = 0; b < nb; b++) {
            uint32_t o = start[b];
            for (int u = 0; u < t; u++) o += jb->hist[((size_t)u << RDX_TOP_BITS) + b];
            off[b] = o;
        }
        if (wide)
            rdx_top_move_64(jb, t, off);
        else
            rdx_top_move_32(jb, t, off);
    }
    rdx_sync(nthr);
    /* each thread: the buckets that start in its share of the lane */
    for (int b = 0; b < nb; b++) {
        const int64_t lo = start[b], hi = b + 1 < nb ? start[b + 1] : jb->n;
        if (hi == lo || (lo * nthr) / jb->n != tid) continue;
        if (wide)
            rdx_bucket_64(jb, lo, hi);
        else
            rdx_bucket_32(jb, lo, hi);
    }
    rdx_sync(nthr);
    if (tid == 0) rdx_restore(jb);
}

/* Chunks of the first pass: T near-equal parts. */
static void rdx_chunks(rdx_job *jb)
{
    for (int t = 0; t <= jb->T; t++) jb->bound[t] = jb->n * t / jb->T;
}

/* One lane through the radix sort, on c->rdx_threads threads. */
static void rdx_lane(char **p, sort_ctx *c, char *buf)
{
    rdx_job jb;
    const rdx_type *ty = c->rty;
    const int want_side = ty->is_float && c->vslot >= 0;
    rdx_layout(&jb, buf, ty, c->n, c->rdx_threads, c->islot >= 0, want_side);
    jb.ty = ty;
    jb.n = c->n;
    jb.in = p[0];
    jb.in_step = c->in_step;
    jb.pv = c->vslot >= 0 ? p[c->vslot] : NULL;
    jb.pi = c->islot >= 0 ? p[c->islot] : NULL;
    jb.v_step = c->v_step;
    jb.i_step = c->i_step;
    jb.base = c->base;
    jb.flip = !c->desc ? 0 : ty->tbits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << ty->tbits) - 1;
    rdx_chunks(&jb);
    if (jb.T > 1) {
#pragma omp parallel num_threads(jb.T)
        rdx_run(&jb, omp_get_thread_num(), omp_get_num_threads());
    } else {
        rdx_run(&jb, 0, 1);
    }
}

/* ---- vector quicksort ------------------------------------------------------
 * Values only, 32- and 64-bit types whose key has the value's width, output
 * lane contiguous: the keys are written into the output lane (read from the
 * input first, element by element, so in place works), sorted there by
 * sort_simd.c and turned back into values in place.  Keys blur a zero's sign
 * and a NaN's payload: chunk t of the lane copies its zeros and NaNs aside
 * while it makes its keys (zeros up from side[bound[t]], NaNs down from
 * side[bound[t + 1]], both in input order), and they go back into their runs
 * at the end, as in the radix sort.  Threads share the key and value passes
 * by chunks and the sort by tasks. */
#define VQS_MIN 32    /* lanes at least this long */
#define VQS_BLOCK 512 /* key pass: blocks checked for zeros and NaNs first */

struct vqs_type;
typedef struct {
    const struct vqs_type *ty;
    int64_t n;
    int T;
    uint64_t flip;
    const char *in;
    int64_t in_step;
    char *out; /* the values lane: keys, then values */
    char *side;
    int64_t bound[RDX_MAX_T + 1];
    int64_t zero[RDX_MAX_T], negzero[RDX_MAX_T], nan[RDX_MAX_T], neg[RDX_MAX_T];
} vqs_job;

typedef struct vqs_type {
    int kbits, is_float;
    void (*keys)(vqs_job *jb, int t);
    void (*values)(vqs_job *jb, int t);
} vqs_type;

/* clang-format off */
#define VQS_TYPES(M)                                                                  \
    M(ST_INT32, int32, int32_t) M(ST_INT64, int64, int64_t)                           \
    M(ST_UINT32, uint32, uint32_t) M(ST_UINT64, uint64, uint64_t)                     \
    M(ST_FLOAT32, float32, float) M(ST_FLOAT64, float64, double)
/* clang-format on */

#define DEF_VQS_TYPE(CODE, SFX, T) DEF_VQS_TYPE_(SFX, T, RDX_##SFX)
#define DEF_VQS_TYPE_(SFX, T, ...) DEF_VQS_TYPE__(SFX, T, __VA_ARGS__)
#define DEF_VQS_TYPE__(SFX, T, K, KEYX, UNKEYK, ISF)                                               \
    /* x = the lane's element j */                                                                 \
    _Static_assert(sizeof(K) == sizeof(T), "vector quicksort: key of the value's width");          \
    ST_LEVEL_BODY void vqs_keys_body_##SFX(vqs_job *jb, int t)                                     \
    {                                                                                              \
        K *kd = (K *)jb->out;                                                                      \
        const K flip = (K)jb->flip, kzero = rdx_key_##SFX((T)0);                                   \
        const char *in = jb->in;                                                                   \
        const int64_t step = jb->in_step, lo = jb->bound[t], hi = jb->bound[t + 1];                \
        int64_t zero = 0, negzero = 0, nan = 0, neg = 0;                                           \
        T *zs = (T *)jb->side + lo, *ns = (T *)jb->side + hi;                                      \
        for (int64_t b = lo; b < hi; b += VQS_BLOCK) {                                             \
            const int64_t e = b + VQS_BLOCK < hi ? b + VQS_BLOCK : hi;                             \
            if (ISF) {                                                                             \
                int64_t special = 0;                                                               \
                if (step == sizeof(T)) {                                                           \
                    const T *x = (const T *)in;                                                    \
                    for (int64_t j = b; j < e; j++) special += (x[j] == 0) | (x[j] != x[j]);       \
                } else {                                                                           \
                    for (int64_t j = b; j < e; j++) {                                              \
                        const T x = *(const T *)(in + j * step);                                   \
                        special += (x == 0) | (x != x);                                            \
                    }                                                                              \
                }                                                                                  \
                for (int64_t j = b; special && j < e; j++) {                                       \
                    const T x = *(const T *)(in + j * step);                                       \
                    if (x == 0) {                                                                  \
                        *zs++ = x;                                                                 \
                        negzero += rdx_sign_##SFX(x);                                              \
                        zero++;                                                                    \
                    } else if (x != x) {                                                           \
                        *--ns = x;                                                                 \
                        nan++;                                                                     \
                    }                                                                              \
                }                                                                                  \
            }                                                                                      \
            if (step == sizeof(T)) {                                                               \
                const T *x = (const T *)in;                                                        \
                for (int64_t j = b; j < e; j++) {                                                  \
                    const K k = rdx_key_##SFX(x[j]);                                               \
                    neg += k < kzero;                                                              \
                    kd[j] = k ^ flip;                                                              \
                }                                                                                  \
            } else {                                                                               \
                for (int64_t j = b; j < e; j++) {                                                  \
                    const K k = rdx_key_##SFX(*(const T *)(in + j * step));                        \
                    neg += k < kzero;                                                              \
                    kd[j] = k ^ flip;                                                              \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
        jb->zero[t] = zero;                                                                        \
        jb->negzero[t] = negzero;                                                                  \
        jb->nan[t] = nan;                                                                          \
        jb->neg[t] = neg;                                                                          \
    }                                                                                              \
    ST_LEVEL_DISPATCH(vqs_keys_##SFX, vqs_keys_body_##SFX, (vqs_job * jb, int t), (jb, t))         \
    ST_LEVEL_BODY void vqs_values_body_##SFX(vqs_job *jb, int t)                                   \
    {                                                                                              \
        const K *ks = (const K *)jb->out;                                                          \
        T *vd = (T *)jb->out;                                                                      \
        const K flip = (K)jb->flip;                                                                \
        for (int64_t j = jb->bound[t]; j < jb->bound[t + 1]; j++) {                                \
            const K k = ks[j] ^ flip;                                                              \
            vd[j] = rdx_unkey_##SFX(k);                                                            \
        }                                                                                          \
    }                                                                                              \
    ST_LEVEL_DISPATCH(vqs_values_##SFX, vqs_values_body_##SFX, (vqs_job * jb, int t), (jb, t))
VQS_TYPES(DEF_VQS_TYPE)

#define VQS_ENTRY(CODE, SFX, T) VQS_ENTRY_(CODE, SFX, T, RDX_##SFX)
#define VQS_ENTRY_(CODE, SFX, T, ...) VQS_ENTRY__(CODE, SFX, T, __VA_ARGS__)
#define VQS_ENTRY__(CODE, SFX, T, K, KEYX, UNKEYK, ISF)                                            \
    [CODE] = {8 * (int)sizeof(K), ISF, vqs_keys_##SFX, vqs_values_##SFX},
static const vqs_type vqs_types[ST_NTYPES] = {VQS_TYPES(VQS_ENTRY)};

/* The set-aside zeros (when one is -0.0) and NaNs back into their runs. */
static void vqs_restore(const vqs_job *jb, int64_t tbytes)
{
    int64_t zero = 0, negzero = 0, nan = 0, neg = 0;
    for (int t = 0; t < jb->T; t++) {
        zero += jb->zero[t];
        negzero += jb->negzero[t];
        nan += jb->nan[t];
        neg += jb->neg[t];
    }
    const int desc = jb->flip != 0;
    char *zrun = jb->out + (desc ? jb->n - zero - neg : neg) * tbytes;
    char *nrun = jb->out + (desc ? 0 : jb->n - nan) * tbytes;
    for (int t = 0; t < jb->T; t++) {
        const char *zs = jb->side + jb->bound[t] * tbytes;
        const char *ns = jb->side + jb->bound[t + 1] * tbytes;
        if (negzero) {
            memcpy(zrun, zs, (size_t)(jb->zero[t] * tbytes));
            zrun += jb->zero[t] * tbytes;
        }
        for (int64_t i = 0; i < jb->nan[t]; i++) { /* stored downwards */
            ns -= tbytes;
            memcpy(nrun, ns, (size_t)tbytes);
            nrun += tbytes;
        }
    }
}

/* One lane through the vector quicksort, on c->rdx_threads threads.  The
 * side buffer (floats) is its own, from plain malloc: most lanes never
 * touch it, and untouched pages cost nothing (st_aligned_alloc's huge
 * pages would be faulted in whole by the allocator's header). */
static void vqs_lane(char **p, sort_ctx *c, char *unused)
{
    (void)unused;
    vqs_job jb;
    const vqs_type *ty = c->vty;
    char *buf = NULL;
    if (ty->is_float && !(buf = malloc((size_t)c->scratch))) {
        __atomic_store_n(&c->failed, 1, __ATOMIC_RELAXED);
        return;
    }
    jb.ty = ty;
    jb.n = c->n;
    jb.T = c->rdx_threads;
    jb.in = p[0];
    jb.in_step = c->in_step;
    jb.out = p[c->vslot];
    jb.side = buf;
    jb.flip = !c->desc ? 0 : ty->kbits == 64 ? ~(uint64_t)0 : (uint64_t)UINT32_MAX;
    for (int t = 0; t <= jb.T; t++) jb.bound[t] = jb.n * t / jb.T;
    if (jb.T > 1) { /* one team for the three phases */
#pragma omp parallel num_threads(jb.T)
        {
            const int tid = omp_get_thread_num(), nth = omp_get_num_threads();
            for (int t = tid; t < jb.T; t += nth) ty->keys(&jb, t);
#pragma omp barrier
            if (ty->kbits == 64)
                st_vsort_team_u64((uint64_t *)jb.out, jb.n);
            else
                st_vsort_team_u32((uint32_t *)jb.out, jb.n);
            for (int t = tid; t < jb.T; t += nth) ty->values(&jb, t);
        }
    } else {
        ty->keys(&jb, 0);
        if (ty->kbits == 64)
            st_vsort_u64((uint64_t *)jb.out, jb.n);
        else
            st_vsort_u32((uint32_t *)jb.out, jb.n);
        ty->values(&jb, 0);
    }
    if (ty->is_float) vqs_restore(&jb, ty->kbits / 8);
    free(buf);
}

/* ---- the lane function: scratch, then the kernel ---- */
static char *claim_scratch(const sort_ctx *c, int *slot)
{
    for (int s = 0; s < c->nbuf; s++) {
        int expect = 0;
        if (__atomic_compare_exchange_n(&c->busy[s], &expect, 1, 0, __ATOMIC_ACQUIRE,
                                        __ATOMIC_RELAXED)) {
            *slot = s;
            return c->bufs[s];
        }
    }
    *slot = -1; /* more lanes at once than threads foreseen: a buffer of its own */
    return st_aligned_alloc(c->scratch);
}

static void sort_lane(char **p, void *extra)
{
    sort_ctx *c = extra;
    if (c->vty) { /* its own scratch */
        c->kernel(p, c, NULL);
        return;
    }
    if (c->scratch <= SMALL_SCRATCH) {
        _Alignas(64) char local[SMALL_SCRATCH];
        c->kernel(p, c, local);
        return;
    }
    int slot;
    char *buf = claim_scratch(c, &slot);
    if (!buf) {
        __atomic_store_n(&c->failed, 1, __ATOMIC_RELAXED);
        return;
    }
    c->kernel(p, c, buf);
    if (slot >= 0)
        __atomic_store_n(&c->busy[slot], 0, __ATOMIC_RELEASE);
    else
        st_aligned_free(buf);
}

/* ---- checks and helpers ---- */

static st_status check_output(const st_tensor *out, const st_tensor *in, int dtype,
                              const char *what)
{
    st_status rc;
    char role[32];
    snprintf(role, sizeof role, "sort %s", what);
    if (out->dtype != dtype)
        return st_fail(ST_E_TYPE, "sort: %s must be %s, got %s", what, st_dtype_name(dtype),
                       st_dtype_name(out->dtype));
    int same = out->ndim == in->ndim;
    for (int d = 0; d < in->ndim && same; d++) same = out->sizes[d] == in->sizes[d];
    if (!same) {
        char want[256], got[256];
        st_shape_str(want, sizeof want, in->ndim, in->sizes);
        st_shape_str(got, sizeof got, out->ndim, out->sizes);
        return st_fail(ST_E_VALUE, "sort: %s has shape %s, expected the input's %s", what, got,
                       want);
    }
    if ((rc = st_check_writable(out, role))) return rc;
    return ST_OK;
}

static int self_overlapping(const st_tensor *t)
{
    for (int d = 0; d < t->ndim; d++)
        if (t->sizes[d] > 1 && t->strides[d] == 0) return 1;
    return 0;
}

/* The input must be read from a copy when an output touches it other than
 * as the exact same view, lane for lane (in-place sort is fine). */
static int must_copy_input(const st_tensor *out, const st_tensor *in)
{
    if (!out) return 0;
    if (st_tensor_overlaps(out, in)) return 1;
    return self_overlapping(out) && st_tensor_shares_memory(out, in);
}

static int64_t work_per_lane(int64_t n)
{
    int64_t w = n, lg = 1;
    while (w > 1) {
        w >>= 1;
        lg++;
    }
    return n * lg;
}

#define CASE_MSORT(CODE, SFX, T, R, ...)                                                           \
    case CODE:                                                                                     \
        c->kernel = msort_lane_##SFX;                                                              \
        rec = sizeof(rec_##SFX);                                                                   \
        break;

/* Pick the kernel for in's dtype and lane length, the threads of one radix
 * lane; scratch bytes per lane.  One or a few long lanes are each split
 * across the threads (the lanes then run one after another); otherwise
 * lanes run in parallel, one thread each. */
static st_status choose_kernel(sort_ctx *c, int dtype, int want_values, int64_t nlanes)
{
    int64_t rec = 0, n = c->n, bytes;
    switch (dtype) {
        ST_TYPES_ALL(CASE_MSORT)
    default:
        return st_fail(ST_E_TYPE, "sort is not defined for %s", st_dtype_name(dtype));
    }
    const rdx_type *ty = &rdx_types[dtype];
    const vqs_type *vty = &vqs_types[dtype];
    c->rty = NULL;
    c->vty = NULL;
    c->rdx_threads = 1;
    int nt = st_get_num_threads();
    if (n >= RDX_PAR_MIN && nlanes < 2 * (int64_t)nt) {
        int T = st_threads_for(n);
        c->rdx_threads = T < RDX_MAX_T ? T : RDX_MAX_T;
    }
    if (vty->keys && want_values && c->islot < 0 && c->v_step == vty->kbits / 8 && n >= VQS_MIN &&
        st_vsort_ready()) {
        c->kernel = vqs_lane;
        c->vty = vty;
        c->scratch = vty->is_float ? n * (vty->kbits / 8) : 0;
        return ST_OK;
    }
    if (ty->keys && n >= RADIX_MIN && n <= (int64_t)UINT32_MAX) {
        c->kernel = rdx_lane;
        c->rty = ty;
        c->scratch = rdx_layout(NULL, NULL, ty, n, c->rdx_threads, c->islot >= 0,
                                ty->is_float && want_values);
        return ST_OK;
    }
    c->rdx_threads = 1;
    if (__builtin_mul_overflow(n, 2 * rec, &bytes) || bytes > INT64_MAX / 2)
        return st_fail(ST_E_OVERFLOW, "sort: scratch for a lane of %lld elements overflows",
                       (long long)n);
    c->scratch = bytes;
    return ST_OK;
}

/* One scratch buffer per thread that st_lanes_run will start. */
static st_status make_pool(sort_ctx *c, int64_t nlanes, int64_t work)
{
    c->nbuf = 0;
    c->bufs = NULL;
    c->busy = NULL;
    if (c->scratch <= SMALL_SCRATCH || c->vty) return ST_OK;
    int64_t nb = st_threads_for(nlanes * work);
    if (nb > nlanes) nb = nlanes;
    if (nb < 1) nb = 1;
    c->bufs = calloc((size_t)nb, sizeof *c->bufs);
    c->busy = calloc((size_t)nb, sizeof *c->busy);
    if (!c->bufs || !c->busy) return st_fail(ST_E_MEMORY, "sort: out of memory");
    for (int k = 0; k < nb; k++) {
        c->bufs[k] = st_aligned_alloc(c->scratch);
        if (!c->bufs[k])
            return st_fail(ST_E_MEMORY, "sort: cannot allocate %lld bytes of scratch",
                           (long long)c->scratch);
        c->nbuf = k + 1;
    }
    return ST_OK;
}

static void free_pool(sort_ctx *c)
{
    for (int k = 0; k < c->nbuf; k++) st_aligned_free(c->bufs[k]);
    free(c->bufs);
    free(c->busy);
}

/* a 16-bit float sorts as its float32 values (the same order), half.c */
typedef struct {
    int dim, descending, flags;
} sort_args;
static st_status sort_f32(st_tensor **outs, const st_tensor **ins, void *ctx)
{
    const sort_args *a = ctx;
    return st_sort(outs[0], outs[1], ins[0], a->dim, a->descending, a->flags);
}

st_status st_sort(st_tensor *values, st_tensor *indices, const st_tensor *in, int dim,
                  int descending, int flags)
{
    st_status rc;
    if (st_is_half(in->dtype) && (!values || values->dtype == in->dtype)) {
        sort_args a = {dim, descending, flags};
        st_tensor *outs[2] = {values, indices};
        const st_tensor *ins[1] = {in};
        return st_via_float32(sort_f32, &a, 2, outs, 1, ins);
    }
    if (flags & ~(ST_IDX_BASE1 | ST_IDX_WRAP))
        return st_fail(ST_E_VALUE, "sort: unknown flags 0x%x", flags);
    if (in->dtype < 0 || in->dtype >= ST_NTYPES)
        return st_fail(ST_E_TYPE, "sort: unknown dtype code %d", in->dtype);
    if ((rc = st_check_storage(in, "sort input"))) return rc;
    int nd = in->ndim ? in->ndim : 1, b = (flags & ST_IDX_BASE1) ? 1 : 0;
    if (dim < 0 || dim >= nd)
        return st_fail(ST_E_INDEX, "sort: dim %d out of range [%d, %d)", dim + b, b, nd + b);
    if (values && (rc = check_output(values, in, in->dtype, "values"))) return rc;
    if (indices && (rc = check_output(indices, in, ST_INT64, "indices"))) return rc;
    if (values && indices && st_tensor_shares_memory(values, indices))
        return st_fail(ST_E_VALUE, "sort: values and indices share memory");
    if ((!values && !indices) || st_tensor_numel(in) == 0) return ST_OK;

    const st_tensor *src = in;
    st_tensor *tmp = NULL;
    if (must_copy_input(values, in) || must_copy_input(indices, in)) {
        tmp = st_tensor_temp_like(in, in->dtype);
        if (!tmp) return st_last_status();
        if ((rc = st_copy(tmp, in))) {
            st_tensor_free(tmp);
            return rc;
        }
        src = tmp;
    }
    sort_ctx c = {0};
    c.n = src->ndim ? src->sizes[dim] : 1;
    c.in_step = src->ndim ? src->strides[dim] * st_itemsize(src->dtype) : 0;
    c.vslot = c.islot = -1;
    c.base = b;
    c.desc = descending != 0;
    const st_tensor *ops[3];
    int nop = 0;
    ops[nop++] = src;
    if (values) {
        c.vslot = nop;
        c.v_step = values->ndim ? values->strides[dim] * st_itemsize(values->dtype) : 0;
        ops[nop++] = values;
    }
    if (indices) {
        c.islot = nop;
        c.i_step = indices->ndim ? indices->strides[dim] * (int64_t)sizeof(int64_t) : 0;
        ops[nop++] = indices;
    }
    int64_t nlanes = st_tensor_numel(src) / c.n, work = work_per_lane(c.n);
    rc = choose_kernel(&c, src->dtype, values != NULL, nlanes);
    /* a lane split across threads: lanes one after another (work 1 keeps
     * st_lanes_run serial for so few lanes) */
    if (c.rdx_threads > 1) work = 1;
    if (!rc) rc = make_pool(&c, nlanes, work);
    if (!rc) {
        st_lanes ln;
        st_lanes_init(&ln, nop, ops, src->ndim ? dim : -1);
        st_lanes_run(&ln, sort_lane, &c, work);
        if (c.failed)
            rc = st_fail(ST_E_MEMORY, "sort: cannot allocate %lld bytes of scratch for a lane",
                         (long long)c.scratch);
    }
    free_pool(&c);
    st_tensor_free(tmp);
    return rc;
}
