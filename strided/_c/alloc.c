/* alloc.c -- the core's memory blocks, and the cache that reuses them.
 *
 * Every owned storage and every kernel scratch buffer comes from here
 * (st_aligned_alloc / st_block_zeros, given back by st_aligned_free).
 * Data is 64-byte aligned; a free needs no size.
 *
 * Small blocks (below ST_MAP_MIN) come from malloc, which recycles them
 * from its own bins; a 64-byte head before the data says so, and their
 * data is never page-aligned.  Large ones are anonymous mappings of the core's own,
 * rounded up to a size class (four classes per power of two, so at most a
 * quarter of a block is slack, and slack never touched costs no memory),
 * and when freed they go into a cache by class instead of back to the
 * system: the next request of that class takes the newest one, whose pages
 * are already faulted in.  Without it every result of a few MB faulted its
 * pages in again on every call (a fault costs about 1-10 us per 4 KiB page
 * in a VM: `x - y` on 1e6 float64 took 6 ms where numpy, whose malloc
 * recycles heap memory, takes 0.4).  PyTorch keeps such a caching
 * allocator; glibc gets part of the effect by raising its mmap threshold.
 * A mapping's data starts at its first byte (page-aligned, which is how a
 * free tells it from a heap block) and its record lives apart, found by
 * address in a hash table: nothing is written into its pages, so a zeroed
 * result never read is never faulted in (writing a head there faulted a
 * whole 2 MiB huge page in, 40 us, on every zeros() of 32 MB).
 *
 * The cache is bounded (st_cache_limit: STRIDED_CACHE_MB, default an
 * eighth of the machine's memory up to 2 GiB), forgets blocks that were
 * not taken again within ST_CACHE_AGE frees (a finished phase's sizes do
 * not stay resident), gives everything back when a mapping fails or when
 * the system runs short of memory (MemAvailable checked at most once a
 * second, on frees), and on request (st_cache_release).  It is one mutex,
 * held for list operations only (never across a system call), and taken
 * around fork so that the child's copy is consistent.
 *
 * Huge pages: a mapping of 2 MiB or more is aligned to 2 MiB and marked
 * MADV_HUGEPAGE when the kernel's transparent huge pages are enabled for
 * madvised memory (read at load time).  Measured on the AMD EPYC VM of
 * 2026-12 (docs/performance.md): first touch of 8 MB took 0.24 ms with
 * huge pages and 8.3 ms without (best of 15), and a later pass over hot
 * pages ran 2x faster (fewer TLB misses).
 *
 * Zeroed requests (st_block_zeros): a fresh mapping is zero already (the
 * kernel clears each page at first touch); a cached block is cleared by
 * the threads (it holds a freed array's bytes, which must never show).
 * From ST_ZEROS_FRESH bytes on a zeroed request always takes zero pages
 * (a fresh mapping, or a cached block whose pages are dropped with
 * MADV_DONTNEED): there the peers' calloc also returns lazily zeroed
 * pages, and a result never read in full (eye) is never faulted in.
 *
 * Under AddressSanitizer (STRIDED_DEBUG=1) a block's slack and a cached
 * block's whole data are poisoned, so a kernel that reads past a storage
 * or into a freed one is reported. */
#include "st_internal.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (size_t)(n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (size_t)(n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#define HEAD 64 /* a heap block's head, before its data */
#define PAGE ((size_t)4096)
#define HUGE_PAGE ((size_t)2 << 20)
#define N_CLASSES 256
#define N_BUCKETS 4096 /* the address table's chains */

/* A mapping's record (malloc'd, apart from its pages). */
typedef struct block {
    char *data; /* the mapping */
    size_t len; /* its length: its class's size */
    int cls;
    uint64_t tick;               /* while cached: the free that cached it */
    struct block *next;          /* while cached: the next of its class (newest first) */
    struct block *older, *newer; /* while cached: the age list */
    struct block *chain;         /* while handed out: the next in its address bucket */
} block;

static struct {
    pthread_mutex_t lock;
    block *by_class[N_CLASSES]; /* newest first */
    block *oldest, *newest;
    block *out[N_BUCKETS]; /* the mappings handed out, by address */
    int64_t bytes, blocks; /* what is cached */
    int64_t limit;         /* bytes at most; 0: no cache */
    uint64_t ticks;        /* frees into the cache so far */
    int64_t hits, misses;  /* large requests served from the cache / by a new mapping */
    int huge;              /* mark large mappings MADV_HUGEPAGE */
    int64_t pressure_at;   /* when MemAvailable was last read (s) */
} cache = {.lock = PTHREAD_MUTEX_INITIALIZER};

static size_t bucket_of(const char *data)
{
    return ((uintptr_t)data >> 12) * 0x9E3779B97F4A7C15ull >> 52; /* 12 bits */
}

/* callers hold the lock */
static void remember(block *h)
{
    block **b = &cache.out[bucket_of(h->data)];
    h->chain = *b;
    *b = h;
}

static block *forget(char *data)
{
    block **pp = &cache.out[bucket_of(data)];
    while (*pp && (*pp)->data != data) pp = &(*pp)->chain;
    block *h = *pp;
    if (h) *pp = h->chain;
    return h;
}

/* ---- size classes: 4 per power of two ---- */
static int class_of(size_t need, size_t *size)
{
    int e = 63 - __builtin_clzll(need);
    size_t step = (size_t)1 << (e - 2);
    size_t s = (need + step - 1) & ~(step - 1);
    *size = s;
    return e * 4 + (int)((s >> (e - 2)) - 4);
}

/* ---- mappings ---- */
static block *map_fresh(size_t len, int cls)
{
    block *h = malloc(sizeof *h);
    if (!h) return NULL;
    const int huge = cache.huge && len >= HUGE_PAGE;
    const size_t over = huge ? len + HUGE_PAGE : len;
    char *p = mmap(NULL, over, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        free(h);
        return NULL;
    }
    char *b = p;
    if (huge) {
        /* a huge page needs 2 MiB alignment: trim the mapping to it */
        b = (char *)(((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
        if (b > p) munmap(p, (size_t)(b - p));
        if (p + over > b + len) munmap(b + len, (size_t)(p + over - (b + len)));
#ifdef MADV_HUGEPAGE
        madvise(b, len, MADV_HUGEPAGE);
#endif
    }
    h->data = b;
    h->cls = cls;
    h->len = len;
    return h;
}

static void unmap(block *h)
{
    UNPOISON(h->data, h->len); /* the next mapping there must not inherit the poison */
    munmap(h->data, h->len);
    free(h);
}

/* ---- the cache (callers hold the lock) ---- */
static void unlink_age(block *h)
{
    if (h->older)
        h->older->newer = h->newer;
    else
        cache.oldest = h->newer;
    if (h->newer)
        h->newer->older = h->older;
    else
        cache.newest = h->older;
    cache.bytes -= (int64_t)h->len;
    cache.blocks--;
}

static block *pop_class(int cls)
{
    if (cls >= N_CLASSES) return NULL;
    block *h = cache.by_class[cls];
    if (!h) return NULL;
    cache.by_class[cls] = h->next;
    unlink_age(h);
    return h;
}

/* Takes the oldest cached block off both lists. */
static block *pop_oldest(void)
{
    block *h = cache.oldest;
    block **pp = &cache.by_class[h->cls];
    while (*pp != h) pp = &(*pp)->next;
    *pp = h->next;
    unlink_age(h);
    return h;
}

static int64_t seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return (int64_t)ts.tv_sec;
}

/* 1 when the system has less memory available than the cache holds, or
 * less than a sixteenth of its memory: the cache should go. */
static int memory_short(int64_t cached)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f) return 0;
    char line[128];
    long long total_kb = 0, avail_kb = -1;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "MemTotal: %lld kB", &total_kb) == 1) continue;
        if (sscanf(line, "MemAvailable: %lld kB", &avail_kb) == 1) break;
    }
    fclose(f);
    if (avail_kb < 0) return 0;
    return avail_kb * 1024 < cached || avail_kb < total_kb / 16;
}

static void unmap_list(block *h)
{
    while (h) {
        block *next = h->next;
        unmap(h);
        h = next;
    }
}

/* Keeps a freed mapping for reuse, or gives it back; called with the
 * lock held, returns with it released. */
static void cache_put(block *h)
{
    block *drop = NULL;
    POISON(h->data, h->len);
    if ((int64_t)h->len > cache.limit) {
        h->next = drop;
        drop = h;
    } else {
        h->tick = ++cache.ticks;
        h->next = cache.by_class[h->cls];
        cache.by_class[h->cls] = h;
        h->older = cache.newest;
        h->newer = NULL;
        if (cache.newest)
            cache.newest->newer = h;
        else
            cache.oldest = h;
        cache.newest = h;
        cache.bytes += (int64_t)h->len;
        cache.blocks++;
        /* over the bound, or not taken again for ST_CACHE_AGE frees */
        while (cache.oldest &&
               (cache.bytes > cache.limit || cache.oldest->tick + ST_CACHE_AGE < cache.ticks)) {
            block *o = pop_oldest();
            o->next = drop;
            drop = o;
        }
    }
    int check = 0;
    if (cache.bytes >= ((int64_t)64 << 20)) {
        int64_t now = seconds_now();
        if (now != cache.pressure_at) {
            cache.pressure_at = now;
            check = 1;
        }
    }
    const int64_t cached = cache.bytes;
    pthread_mutex_unlock(&cache.lock);
    unmap_list(drop);
    if (check && memory_short(cached)) st_cache_release();
}

int64_t st_cache_release(void)
{
    pthread_mutex_lock(&cache.lock);
    block *all = NULL;
    const int64_t bytes = cache.bytes;
    while (cache.oldest) {
        block *o = pop_oldest();
        o->next = all;
        all = o;
    }
    pthread_mutex_unlock(&cache.lock);
    unmap_list(all);
    return bytes;
}

void st_cache_set_limit(int64_t bytes)
{
    pthread_mutex_lock(&cache.lock);
    cache.limit = bytes > 0 ? bytes : 0;
    pthread_mutex_unlock(&cache.lock);
    /* what no longer fits goes at the next free; drop it all now */
    st_cache_release();
}

void st_cache_stats(int64_t *out)
{
    pthread_mutex_lock(&cache.lock);
    out[0] = cache.bytes;
    out[1] = cache.blocks;
    out[2] = cache.hits;
    out[3] = cache.misses;
    out[4] = cache.limit;
    pthread_mutex_unlock(&cache.lock);
}

/* A mapping of at least `need` bytes: from the cache when one of its
 * class (or, when `reuse`, the next) is there (*cached = 1), else a fresh
 * one; `reuse` 0 asks for zero pages (a cached block's are dropped).  NULL
 * when the system refuses even after the cache has been given back. */
static block *map_take(size_t need, int reuse, int *cached)
{
    size_t len;
    const int cls = class_of(need, &len);
    block *h = NULL;
    pthread_mutex_lock(&cache.lock);
    h = pop_class(cls);
    if (!h && reuse) h = pop_class(cls + 1);
    if (h) {
        cache.hits++;
        remember(h);
    }
    pthread_mutex_unlock(&cache.lock);
    if (h && !reuse) {
        /* its pages go back: zero pages at the next touch, as a fresh
         * mapping's, without the mapping's system calls */
        UNPOISON(h->data, h->len);
        madvise(h->data, h->len, MADV_DONTNEED);
        POISON(h->data, h->len);
        *cached = 0;
        return h;
    }
    *cached = h != NULL;
    if (h) return h;
    h = map_fresh(len, cls);
    if (!h && st_cache_release() > 0) h = map_fresh(len, cls);
    if (h) {
        pthread_mutex_lock(&cache.lock);
        cache.misses++;
        remember(h);
        pthread_mutex_unlock(&cache.lock);
    }
    return h;
}

/* ---- blocks ---- */
static size_t usable(int64_t nbytes)
{
    /* at least one cache line, so that data is never NULL; whole lines, so
     * that streaming stores may write the last one */
    return nbytes > 0 ? (size_t)((nbytes + 63) & ~(int64_t)63) : 64;
}

typedef struct heap_head {
    uint64_t magic;
    void *raw; /* what malloc returned */
} heap_head;
#define HEAP_MAGIC 0x6b636f6c62706168ull /* "hapblock" */

static char *heap_block(size_t n)
{
    /* malloc and align by hand (posix_memalign takes the arena lock and
     * splits chunks on every call), never to a page: a page-aligned
     * pointer is a mapping's */
    char *raw = malloc(n + HEAD + 127);
    if (!raw) return NULL;
    char *data = (char *)(((uintptr_t)raw + HEAD + 63) & ~(uintptr_t)63);
    if (((uintptr_t)data & (PAGE - 1)) == 0) data += 64;
    heap_head *h = (heap_head *)(data - sizeof(heap_head));
    h->magic = HEAP_MAGIC;
    h->raw = raw;
    return data;
}

/* `reuse` 0: zero pages for a large block (fresh, or a cached block's dropped). */
static void *block_alloc(int64_t nbytes, int reuse, int *cached, int *mapped)
{
    const size_t n = usable(nbytes);
    const size_t used = nbytes > 0 ? (size_t)nbytes : 0;
    *cached = 0;
    *mapped = n >= ST_MAP_MIN;
    if (!*mapped) {
        char *data = heap_block(n);
        if (data) POISON(data + used, n - used);
        return data;
    }
    block *h = map_take(n, reuse, cached);
    if (!h) return NULL;
    UNPOISON(h->data, used);
    POISON(h->data + used, h->len - used);
    return h->data;
}

void *st_aligned_alloc(int64_t nbytes)
{
    int cached, mapped;
    return block_alloc(nbytes, 1, &cached, &mapped);
}

void st_aligned_free(void *p)
{
    if (!p) return;
    if (((uintptr_t)p & (PAGE - 1)) == 0) {
        pthread_mutex_lock(&cache.lock);
        block *h = forget(p);
        if (h) {
            cache_put(h); /* unlocks */
            return;
        }
        pthread_mutex_unlock(&cache.lock);
        abort(); /* not a block of ours: a bug in the core, never to go on from */
    }
    heap_head *h = (heap_head *)((char *)p - sizeof(heap_head));
    free(h->raw);
}

/* Clears n bytes at p on the threads (a cached block's old bytes). */
static void clear(char *p, size_t n)
{
    const int nt = st_threads_for((int64_t)(n / 8));
    if (nt <= 1) {
        memset(p, 0, n);
        return;
    }
    const size_t part = ((n / (size_t)nt) + 4095) & ~(size_t)4095;
#pragma omp parallel for num_threads(nt) schedule(static, 1)
    for (int k = 0; k < nt; k++) {
        size_t lo = (size_t)k * part;
        if (lo < n) memset(p + lo, 0, (lo + part < n ? part : n - lo));
    }
}

void *st_block_zeros(int64_t nbytes, int *fresh)
{
    int cached, mapped;
    const int reuse = nbytes < ST_ZEROS_FRESH;
    char *data = block_alloc(nbytes, reuse, &cached, &mapped);
    if (!data) return NULL;
    const size_t used = nbytes > 0 ? (size_t)nbytes : 0;
    if (!mapped || cached) clear(data, used);
    *fresh = mapped && !cached;
    return data;
}

/* Load time: the bound, huge pages, and the lock around fork. */
static void before_fork(void) { pthread_mutex_lock(&cache.lock); }
static void after_fork(void) { pthread_mutex_unlock(&cache.lock); }

static int thp_madvise_enabled(void)
{
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (!f) return 0;
    char line[128] = {0};
    const int ok = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    /* "always [madvise] never": enabled unless "[never]" is the choice */
    return ok && strstr(line, "[never]") == NULL;
}

__attribute__((constructor)) static void alloc_init(void)
{
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    int64_t limit = pages > 0 && page > 0 ? (int64_t)pages * page / 8 : (int64_t)256 << 20;
    if (limit > ((int64_t)2 << 30)) limit = (int64_t)2 << 30;
    const char *env = getenv("STRIDED_CACHE_MB");
    if (env && *env) {
        char *end;
        long long mb = strtoll(env, &end, 10);
        if (*end == '\0' && mb >= 0) limit = (int64_t)mb << 20;
    }
    cache.limit = limit;
    cache.huge = thp_madvise_enabled();
    pthread_atfork(before_fork, after_fork, after_fork);
}
