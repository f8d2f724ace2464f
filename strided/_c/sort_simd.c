/* sort_simd.c -- AVX-512 quicksort of unsigned keys (32 and 64 bits).
 *
 * sort.c maps the values of a lane to unsigned keys whose order is the
 * sort's order (and back afterwards); this file only sorts keys, in place,
 * ascending.  Keys equal as numbers are indistinguishable, so an unstable
 * sort gives the same result as a stable one.
 *
 * The algorithm (our own; the idea of vector partitioning is old):
 *   - quicksort with a pivot from the median of a sorted sample;
 *   - the partition keeps one vector from each end of the range in
 *     registers, so the range can be overwritten in place: each step reads
 *     the next vector from the side with less free room, and writes its
 *     keys below the pivot to the left edge and the others to the right
 *     edge (compress in a register, then a masked store: AMD Zen 4
 *     microcodes compress-to-memory);
 *   - keys equal to a pivot that is the range's minimum are split off by a
 *     second partition (x <= p), so runs of equal keys cost O(n) per level;
 *   - ranges of at most 128 keys (8 or 16 vectors) are sorted by a bitonic
 *     network in registers, padded with the largest key;
 *   - a recursion deeper than twice log2(n) falls back to a heap sort;
 *   - st_vsort_team_*: called by every thread of a team, ranges above
 *     VS_TASK_MIN become OpenMP tasks that the team shares.
 *
 * The kernels are compiled for AVX-512F only (#pragma GCC target), and
 * st_vsort_ready() says whether the CPU level (st_cpu_level(), which
 * STRIDED_CPU_LEVEL can lower) is 4; sort.c falls back to its radix sort
 * when it is not, so one build serves any x86-64. */
#include "st_internal.h"
#ifdef _OPENMP
#include <omp.h>
#endif

#include "st_vsort.h"

/* Registers of the base-case network per key width (8 or 16; measured:
 * 128 keys either way), and vectors per partition step (2 VS_U W keys at
 * least in a range that is partitioned: 2 VS_U <= VS_NR##KB). */
#define VS_NR32 8
#define VS_NR64 16
#define VS_NR_MAX 16
#define VS_U 4
#define VS_TASK_MIN 16384 /* ranges above this many keys: a task of their own */

/* ---- heap sort: the fallback when pivots keep failing ---- */
#define DEF_HEAP(KB, K)                                                                            \
    static void vs_sift_##KB(K *a, int64_t i, int64_t n)                                           \
    {                                                                                              \
        const K x = a[i];                                                                          \
        for (int64_t c = 2 * i + 1; c < n; c = 2 * i + 1) {                                        \
            if (c + 1 < n && a[c + 1] > a[c]) c++;                                                 \
            if (a[c] <= x) break;                                                                  \
            a[i] = a[c];                                                                           \
            i = c;                                                                                 \
        }                                                                                          \
        a[i] = x;                                                                                  \
    }                                                                                              \
    static void vs_heapsort_##KB(K *a, int64_t n)                                                  \
    {                                                                                              \
        for (int64_t i = n / 2; i-- > 0;) vs_sift_##KB(a, i, n);                                   \
        for (int64_t m = n - 1; m > 0; m--) {                                                      \
            const K t = a[0];                                                                      \
            a[0] = a[m];                                                                           \
            a[m] = t;                                                                              \
            vs_sift_##KB(a, 0, m);                                                                 \
        }                                                                                          \
    }
DEF_HEAP(32, uint32_t)
DEF_HEAP(64, uint64_t)

static inline int vs_log2(int64_t n) { return n > 1 ? 63 - __builtin_clzll((uint64_t)n) : 0; }

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#include <immintrin.h>

/* vs_order64[m]: the lanes of an 8-lane vector with their bit of m set, in
 * order, then the others: one permutation partitions a vector of 64-bit
 * keys.  Filled when the library loads, before any thread can sort. */
static uint8_t vs_order64[256][8];

__attribute__((constructor)) static void vs_fill_order64(void)
{
    for (int m = 0; m < 256; m++) {
        int at = 0;
        for (int l = 0; l < 8; l++)
            if (m >> l & 1) vs_order64[m][at++] = (uint8_t)l;
        for (int l = 0; l < 8; l++)
            if (!(m >> l & 1)) vs_order64[m][at++] = (uint8_t)l;
    }
}

int st_vsort_ready(void) { return st_cpu_level() >= 4; /* x86-64-v4 includes AVX-512F */ }

#pragma GCC push_options
#pragma GCC target("avx512f")

/* ---- per width: the few vector operations the sort needs ----
 * W lanes of K in a __m512i, masks as unsigned. */
#define VS_W64 8
#define VS_W32 16
#define VS_ALWAYS static inline __attribute__((always_inline))

VS_ALWAYS __m512i v64_set1(uint64_t x) { return _mm512_set1_epi64((long long)x); }
VS_ALWAYS __m512i v64_loadn(const uint64_t *p, int m)
{
    return _mm512_mask_loadu_epi64(v64_set1(UINT64_MAX), (__mmask8)((1u << m) - 1), p);
}
VS_ALWAYS void v64_storen(uint64_t *p, int m, __m512i v)
{
    _mm512_mask_storeu_epi64(p, (__mmask8)((1u << m) - 1), v);
}
VS_ALWAYS unsigned v64_lt(__m512i v, __m512i p) { return _mm512_cmplt_epu64_mask(v, p); }
VS_ALWAYS __m512i v64_compress(unsigned m, __m512i v)
{
    return _mm512_maskz_compress_epi64((__mmask8)m, v);
}
VS_ALWAYS __m512i v64_min(__m512i a, __m512i b) { return _mm512_min_epu64(a, b); }
VS_ALWAYS __m512i v64_max(__m512i a, __m512i b) { return _mm512_max_epu64(a, b); }
VS_ALWAYS __m512i v64_blend(unsigned m, __m512i a, __m512i b)
{
    return _mm512_mask_blend_epi64((__mmask8)m, a, b);
}
/* lane l takes lane l ^ j */
VS_ALWAYS __m512i v64_swap(__m512i v, int j)
{
    switch (j) {
    case 1:
        return _mm512_permutex_epi64(v, 0xB1); /* 1 0 3 2 */
    case 2:
        return _mm512_permutex_epi64(v, 0x4E); /* 2 3 0 1 */
    default:
        return _mm512_shuffle_i64x2(v, v, 0x4E); /* halves */
    }
}

/* v's keys in lanes lt first (in order), then the others; stored whole at
 * both edges: the left edge keeps the first, the right edge the last */
VS_ALWAYS void v64_split(uint64_t *left, uint64_t *right, unsigned lt, __m512i v)
{
    const __m512i idx = _mm512_cvtepu8_epi64(_mm_loadl_epi64((const __m128i *)vs_order64[lt]));
    const __m512i o = _mm512_permutexvar_epi64(idx, v);
    _mm512_storeu_si512(left, o);
    _mm512_storeu_si512(right, o);
}

VS_ALWAYS __m512i v32_set1(uint32_t x) { return _mm512_set1_epi32((int)x); }
VS_ALWAYS __m512i v32_loadn(const uint32_t *p, int m)
{
    return _mm512_mask_loadu_epi32(v32_set1(UINT32_MAX), (__mmask16)((1u << m) - 1), p);
}
VS_ALWAYS void v32_storen(uint32_t *p, int m, __m512i v)
{
    _mm512_mask_storeu_epi32(p, (__mmask16)((1u << m) - 1), v);
}
VS_ALWAYS unsigned v32_lt(__m512i v, __m512i p) { return _mm512_cmplt_epu32_mask(v, p); }
VS_ALWAYS __m512i v32_compress(unsigned m, __m512i v)
{
    return _mm512_maskz_compress_epi32((__mmask16)m, v);
}
VS_ALWAYS __m512i v32_min(__m512i a, __m512i b) { return _mm512_min_epu32(a, b); }
VS_ALWAYS __m512i v32_max(__m512i a, __m512i b) { return _mm512_max_epu32(a, b); }
VS_ALWAYS __m512i v32_blend(unsigned m, __m512i a, __m512i b)
{
    return _mm512_mask_blend_epi32((__mmask16)m, a, b);
}
/* 16 lanes: no table; the keys below the pivot compressed to the left
 * edge, the others expanded to the top lanes of the right edge's vector */
VS_ALWAYS void v32_split(uint32_t *left, uint32_t *right, unsigned lt, __m512i v)
{
    const __mmask16 ge = (__mmask16)~lt;
    _mm512_storeu_si512(left, _mm512_maskz_compress_epi32((__mmask16)lt, v));
    const __mmask16 top = (__mmask16)(0xFFFFu << __builtin_popcount(lt));
    _mm512_storeu_si512(right, _mm512_maskz_expand_epi32(top, _mm512_maskz_compress_epi32(ge, v)));
}
VS_ALWAYS __m512i v32_swap(__m512i v, int j)
{
    switch (j) {
    case 1:
        return _mm512_shuffle_epi32(v, (_MM_PERM_ENUM)0xB1); /* 1 0 3 2 */
    case 2:
        return _mm512_shuffle_epi32(v, (_MM_PERM_ENUM)0x4E); /* 2 3 0 1 */
    case 4:
        return _mm512_shuffle_i64x2(v, v, 0xB1); /* 128-bit pairs */
    default:
        return _mm512_shuffle_i64x2(v, v, 0x4E); /* halves */
    }
}

/* lanes l of a W-lane vector with (l & j) != 0, j a power of two below W */
static inline unsigned vs_bits(int W, int j)
{
    unsigned m = 0;
    for (int l = 0; l < W; l++) m |= (unsigned)((l & j) != 0) << l;
    return m;
}

#define DEF_VSORT(KB, K)                                                                           \
    /* Bitonic sort of NR registers (NR*W keys, ascending in register order):    */                \
    /* for each block size k and distance j, key i meets key i ^ j and the    */                   \
    /* smaller goes first when i's block of k ascends ((i & k) == 0).         */                   \
    VS_ALWAYS void vs_network_##KB(__m512i *v, const int NR)                                       \
    {                                                                                              \
        const int W = VS_W##KB;                                                                    \
        _Pragma("GCC unroll 16")                                                                   \
        for (int k = 2; k <= NR * W; k *= 2) {                                                     \
            _Pragma("GCC unroll 16")                                                               \
            for (int j = k / 2; j >= 1; j /= 2) {                                                  \
                if (j >= W) {                                                                      \
                    const int rj = j / W;                                                          \
                    _Pragma("GCC unroll 16")                                                       \
                    for (int r = 0; r < NR; r++) {                                                 \
                        if (r & rj) continue;                                                      \
                        const int q = r | rj, asc = ((r * W) & k) == 0;                            \
                        const __m512i lo = v##KB##_min(v[r], v[q]);                                \
                        const __m512i hi = v##KB##_max(v[r], v[q]);                                \
                        v[r] = asc ? lo : hi;                                                      \
                        v[q] = asc ? hi : lo;                                                      \
                    }                                                                              \
                } else {                                                                           \
                    _Pragma("GCC unroll 16")                                                       \
                    for (int r = 0; r < NR; r++) {                                                 \
                        /* lanes that keep the larger key */                                       \
                        const unsigned kpat = k < W           ? vs_bits(W, k)                      \
                                              : ((r * W) & k) ? (1u << W) - 1                      \
                                                              : 0;                                 \
                        const unsigned take_max = vs_bits(W, j) ^ kpat;                            \
                        const __m512i o = v##KB##_swap(v[r], j);                                   \
                        v[r] =                                                                     \
                            v##KB##_blend(take_max, v##KB##_min(v[r], o), v##KB##_max(v[r], o));   \
                    }                                                                              \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    /* NR registers from a[0..n) (padded with the largest key), sorted, back */                    \
    VS_ALWAYS void vs_small_nr_##KB(K *a, int64_t n, const int NR)                                 \
    {                                                                                              \
        const int W = VS_W##KB;                                                                    \
        __m512i v[VS_NR_MAX];                                                                      \
        _Pragma("GCC unroll 16")                                                                   \
        for (int r = 0; r < NR; r++) {                                                             \
            int64_t m = n - (int64_t)r * W;                                                        \
            m = m < 0 ? 0 : m > W ? W : m;                                                         \
            v[r] = v##KB##_loadn(a + r * W, (int)m);                                               \
        }                                                                                          \
        vs_network_##KB(v, NR);                                                                    \
        _Pragma("GCC unroll 16")                                                                   \
        for (int r = 0; r < NR; r++) {                                                             \
            int64_t m = n - (int64_t)r * W;                                                        \
            m = m < 0 ? 0 : m > W ? W : m;                                                         \
            v##KB##_storen(a + r * W, (int)m, v[r]);                                               \
        }                                                                                          \
    }                                                                                              \
    static void vs_small_##KB(K *a, int64_t n)                                                     \
    {                                                                                              \
        const int W = VS_W##KB;                                                                    \
        if (n <= W)                                                                                \
            vs_small_nr_##KB(a, n, 1);                                                             \
        else if (n <= 2 * W)                                                                       \
            vs_small_nr_##KB(a, n, 2);                                                             \
        else if (n <= 4 * W)                                                                       \
            vs_small_nr_##KB(a, n, 4);                                                             \
        else if (VS_NR##KB < 16 || n <= 8 * W)                                                     \
            vs_small_nr_##KB(a, n, 8);                                                             \
        else                                                                                       \
            vs_small_nr_##KB(a, n, 16);                                                            \
    }                                                                                              \
    /* The median of a sorted sample of NR registers spread over a[0..n). */                       \
    static K vs_pivot_##KB(const K *a, int64_t n)                                                  \
    {                                                                                              \
        const int W = VS_W##KB, NR = n >= 65536 ? 4 : 1;                                           \
        K s[4 * VS_W##KB];                                                                         \
        const int64_t ns = (int64_t)NR * W, step = n / ns;                                         \
        for (int64_t i = 0; i < ns; i++) s[i] = a[i * step + step / 2];                            \
        if (NR == 4)                                                                               \
            vs_small_nr_##KB(s, ns, 4);                                                            \
        else                                                                                       \
            vs_small_nr_##KB(s, ns, 1);                                                            \
        return s[ns / 2];                                                                          \
    }                                                                                              \
    /* One vector's keys: those below the pivot to the left edge, the rest   */                    \
    /* to the right edge (which moves down). */                                                    \
    VS_ALWAYS void vs_put_##KB(K *a, int64_t *wl, int64_t *wr, __m512i v, unsigned in, __m512i p)  \
    {                                                                                              \
        const unsigned lt = v##KB##_lt(v, p) & in, ge = ~lt & in;                                  \
        const int nl = __builtin_popcount(lt), ng = __builtin_popcount(ge);                        \
        v##KB##_storen(a + *wl, nl, v##KB##_compress(lt, v));                                      \
        *wl += nl;                                                                                 \
        *wr -= ng;                                                                                 \
        v##KB##_storen(a + *wr, ng, v##KB##_compress(ge, v));                                      \
    }                                                                                              \
    /* The same when both edges have room for a whole vector: plain stores  */                     \
    /* (the slots past the keys written are free and overwritten later). */                        \
    VS_ALWAYS void vs_put_room_##KB(K *a, int64_t *wl, int64_t *wr, __m512i v, __m512i p)          \
    {                                                                                              \
        const unsigned lt = v##KB##_lt(v, p);                                                      \
        const int nl = __builtin_popcount(lt);                                                     \
        v##KB##_split(a + *wl, a + *wr - VS_W##KB, lt, v);                                         \
        *wl += nl;                                                                                 \
        *wr -= VS_W##KB - nl;                                                                      \
    }                                                                                              \
    /* Partition a[0..n) (n >= 2 VS_U W) in place: a[0..k) < p <= a[k..n); k. */                   \
    /* VS_U vectors from each end wait in registers; each step reads VS_U     */                   \
    /* more from the side with less room (chosen without a branch: it is      */                   \
    /* random) and writes them out, so both edges always have room. */                             \
    static int64_t vs_partition_##KB(K *a, int64_t n, K pivot)                                     \
    {                                                                                              \
        const int W = VS_W##KB, UW = VS_U * VS_W##KB;                                              \
        const unsigned all = (1u << W) - 1;                                                        \
        const __m512i p = v##KB##_set1(pivot);                                                     \
        __m512i first[VS_U], last[VS_U], v[VS_U];                                                  \
        _Pragma("GCC unroll 16")                                                                   \
        for (int u = 0; u < VS_U; u++) {                                                           \
            first[u] = _mm512_loadu_si512(a + u * W);                                              \
            last[u] = _mm512_loadu_si512(a + n - UW + u * W);                                      \
        }                                                                                          \
        int64_t l = UW, r = n - UW, wl = 0, wr = n; /* unread: [l, r) */                           \
        while (r - l >= UW) {                                                                      \
            const int left = l - wl <= wr - r;                                                     \
            const int64_t at = left ? l : r - UW;                                                  \
            l += left ? UW : 0;                                                                    \
            r -= left ? 0 : UW;                                                                    \
            _Pragma("GCC unroll 16")                                                               \
            for (int u = 0; u < VS_U; u++) v[u] = _mm512_loadu_si512(a + at + u * W);              \
            _Pragma("GCC unroll 16")                                                               \
            for (int u = 0; u < VS_U; u++) vs_put_room_##KB(a, &wl, &wr, v[u], p);                 \
        }                                                                                          \
        /* the rest (under VS_U vectors) into registers too: then every    */                      \
        /* unwritten slot is free */                                                               \
        int cnt[VS_U];                                                                             \
        _Pragma("GCC unroll 16")                                                                   \
        for (int u = 0; u < VS_U; u++) {                                                           \
            int64_t m = r - l - (int64_t)u * W;                                                    \
            cnt[u] = m < 0 ? 0 : m > W ? W : (int)m;                                               \
            v[u] = v##KB##_loadn(a + l + u * W, cnt[u]);                                           \
        }                                                                                          \
        _Pragma("GCC unroll 16")                                                                   \
        for (int u = 0; u < VS_U; u++) {                                                           \
            vs_put_##KB(a, &wl, &wr, v[u], (1u << cnt[u]) - 1, p);                                 \
            vs_put_##KB(a, &wl, &wr, first[u], all, p);                                            \
            vs_put_##KB(a, &wl, &wr, last[u], all, p);                                             \
        }                                                                                          \
        return wl;                                                                                 \
    }                                                                                              \
    /* One quicksort step on a[0..n): the pivot's partition; returns k, the   */                   \
    /* left part's length, and sets *skip to the keys after it that are       */                   \
    /* already in place (a pivot that was the minimum: its equal keys). */                         \
    static int64_t vs_step_##KB(K *a, int64_t n, int64_t *skip)                                    \
    {                                                                                              \
        const K p = vs_pivot_##KB(a, n);                                                           \
        *skip = 0;                                                                                 \
        int64_t k = vs_partition_##KB(a, n, p);                                                    \
        if (k > 0) return k;                                                                       \
        /* every key >= p and p is one of them: split off the keys == p */                         \
        if (p == (K) ~(K)0) {                                                                      \
            *skip = n;                                                                             \
            return 0;                                                                              \
        }                                                                                          \
        *skip = vs_partition_##KB(a, n, (K)(p + 1));                                               \
        return 0;                                                                                  \
    }                                                                                              \
    static void vs_quick_##KB(K *a, int64_t n, int depth)                                          \
    {                                                                                              \
        while (n > VS_NR##KB * VS_W##KB) {                                                         \
            if (depth-- <= 0) {                                                                    \
                vs_heapsort_##KB(a, n);                                                            \
                return;                                                                            \
            }                                                                                      \
            int64_t skip;                                                                          \
            const int64_t k = vs_step_##KB(a, n, &skip);                                           \
            if (k == 0) {                                                                          \
                a += skip;                                                                         \
                n -= skip;                                                                         \
                continue;                                                                          \
            }                                                                                      \
            /* the shorter side by recursion, the longer by the loop */                            \
            if (k < n - k) {                                                                       \
                vs_quick_##KB(a, k, depth);                                                        \
                a += k;                                                                            \
                n -= k;                                                                            \
            } else {                                                                               \
                vs_quick_##KB(a + k, n - k, depth);                                                \
                n = k;                                                                             \
            }                                                                                      \
        }                                                                                          \
        if (n > 1) vs_small_##KB(a, n);                                                            \
    }                                                                                              \
    /* The same, handing one side of every large range to another thread. */                       \
    static void vs_quick_tasks_##KB(K *a, int64_t n, int depth)                                    \
    {                                                                                              \
        while (n > VS_TASK_MIN && depth > 0) {                                                     \
            depth--;                                                                               \
            int64_t skip;                                                                          \
            const int64_t k = vs_step_##KB(a, n, &skip);                                           \
            if (k == 0) {                                                                          \
                a += skip;                                                                         \
                n -= skip;                                                                         \
                continue;                                                                          \
            }                                                                                      \
            K *b = a;                                                                              \
            const int64_t m = k < n - k ? k : n - k;                                               \
            if (k < n - k) {                                                                       \
                a += k;                                                                            \
                n -= k;                                                                            \
            } else {                                                                               \
                b = a + k;                                                                         \
                n = k;                                                                             \
            }                                                                                      \
            _Pragma("omp task firstprivate(b, m, depth)")                                          \
            vs_quick_tasks_##KB(b, m, depth);                                                      \
        }                                                                                          \
        vs_quick_##KB(a, n, depth);                                                                \
    }                                                                                              \
    static void vs_sort_##KB(K *a, int64_t n) { vs_quick_##KB(a, n, 2 * vs_log2(n) + 4); }         \
    /* called by every thread of the current team: one starts, all share    */                     \
    /* the tasks, all return when the keys are sorted */                                           \
    static void vs_sort_team_##KB(K *a, int64_t n)                                                 \
    {                                                                                              \
        _Pragma("omp single")                                                                      \
        vs_quick_tasks_##KB(a, n, 2 * vs_log2(n) + 4);                                             \
    }
DEF_VSORT(32, uint32_t)
DEF_VSORT(64, uint64_t)

#pragma GCC pop_options

/* callers have seen st_vsort_ready() == 1 */
void st_vsort_u32(uint32_t *a, int64_t n) { vs_sort_32(a, n); }
void st_vsort_u64(uint64_t *a, int64_t n) { vs_sort_64(a, n); }
void st_vsort_team_u32(uint32_t *a, int64_t n) { vs_sort_team_32(a, n); }
void st_vsort_team_u64(uint64_t *a, int64_t n) { vs_sort_team_64(a, n); }

#else /* no AVX-512 kernels in this build: sort.c never calls them */

int st_vsort_ready(void) { return 0; }
void st_vsort_u32(uint32_t *a, int64_t n) { vs_heapsort_32(a, n); }
void st_vsort_u64(uint64_t *a, int64_t n) { vs_heapsort_64(a, n); }
void st_vsort_team_u32(uint32_t *a, int64_t n)
{
#pragma omp single
    vs_heapsort_32(a, n);
}
void st_vsort_team_u64(uint64_t *a, int64_t n)
{
#pragma omp single
    vs_heapsort_64(a, n);
}
#endif
