/* core.c -- storage, view records, errors, threads.
 * Everything here is metadata; no element is touched. */
#include "st_internal.h"
#include "st_op_names.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>
#include <errno.h>
#include <pthread.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* ---- errors: one record per thread, since kernels run without the GIL:
 * the message, the code, and for an out-of-range index the index, its
 * valid range and its dim (in the caller's numbering) */
static _Thread_local char st_errmsg[512];
static _Thread_local struct {
    st_status code;
    int has_index;
    int64_t index, lo, hi;
    int dim;
} st_err;

static st_status vfail(st_status code, const char *fmt, va_list ap)
{
    vsnprintf(st_errmsg, sizeof st_errmsg, fmt, ap);
    st_err.code = code;
    st_err.has_index = 0;
    return code;
}

st_status st_fail(st_status code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(code, fmt, ap);
    va_end(ap);
    return code;
}

st_status st_fail_index(int64_t index, int64_t lo, int64_t hi, int dim, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(ST_E_INDEX, fmt, ap);
    va_end(ap);
    st_err.has_index = 1;
    st_err.index = index;
    st_err.lo = lo;
    st_err.hi = hi;
    st_err.dim = dim;
    return ST_E_INDEX;
}

const char *st_last_error(void) { return st_errmsg; }

st_status st_last_status(void) { return st_err.code; }

int st_last_index_error(int64_t *index, int64_t *lo, int64_t *hi, int *dim)
{
    if (!st_err.has_index) return 0;
    if (index) *index = st_err.index;
    if (lo) *lo = st_err.lo;
    if (hi) *hi = st_err.hi;
    if (dim) *dim = st_err.dim;
    return 1;
}

/* ---- types ---- */
static const int64_t itemsizes[ST_NTYPES] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 4, 8, 8, 16, 2, 2};
static const char *const dtype_names[ST_NTYPES] = {
    "bool",   "int8",    "int16",   "int32",     "int64",      "uint8",   "uint16",  "uint32",
    "uint64", "float32", "float64", "complex64", "complex128", "float16", "bfloat16"};

int64_t st_itemsize(int dtype) { return (dtype >= 0 && dtype < ST_NTYPES) ? itemsizes[dtype] : 0; }

const char *st_dtype_name(int dtype)
{
    return (dtype >= 0 && dtype < ST_NTYPES) ? dtype_names[dtype] : "?";
}

const char *st_op_name(int family, int op)
{
    switch (family) {
    case ST_OPS_UNARY:
        return op >= 0 && op < ST_U_COUNT ? st_unary_names[op] : NULL;
    case ST_OPS_BINARY:
        return op >= 0 && op < ST_B_COUNT ? st_binary_names[op] : NULL;
    case ST_OPS_REDUCE:
        return op >= 0 && op < ST_R_COUNT ? st_reduce_names[op] : NULL;
    }
    return NULL;
}

/* ---- threads ----
 * The setting (setnumthreads) is one int read and written atomically: any
 * Python thread may change it while others run kernels.  A kernel sizes
 * what it shares out by one reading (st_threads_for, st_get_num_threads),
 * so a change takes effect at the next call.
 *
 * fork: GNU OpenMP keeps the threads of a parallel region parked for the
 * next one, in a pool that belongs to the thread that started the region.
 * fork() copies only the calling thread, but libgomp's records of its pool
 * still count the others: the child's first region of more than one thread
 * would wait for them forever (a region of one thread never touches them).
 * So the pthread_atfork prepare handler pauses the forking thread's pool
 * (omp_pause_resource_all: its threads exit, as after a fresh start) and the
 * child starts new threads on its first region, like a new process; the
 * parent's next region does the same.  Should the runtime refuse (inside a
 * parallel region, or a runtime without pause), the child handler notes
 * that the pool is lost when the process had asked for a team of more than
 * one thread, and from then on st_threads_for answers 1: every kernel of
 * that child runs on its calling thread, with the results of any thread
 * count.  (OpenBLAS has its own pool and its own atfork handler: it stops
 * its threads before fork and the child starts new ones on its first call.) */
static int st_nthreads = 0;      /* 0: not set yet, use OpenMP's default */
static int st_team_asked = 0;    /* st_threads_for answered > 1 in this process */
static int st_team_lost = 0;     /* a fork child whose parent had, and the pool not paused */
static __thread int pool_paused; /* the prepare handler paused this thread's pool */

static void before_fork(void)
{
    /* a child that lost its pool leaves it alone: pausing would wait for
     * threads that are not there (its children stay on one thread too) */
    if (__atomic_load_n(&st_team_lost, __ATOMIC_RELAXED)) {
        pool_paused = 0;
        return;
    }
#ifdef _OPENMP
    pool_paused = omp_pause_resource_all(omp_pause_hard) == 0;
#else
    pool_paused = 1; /* no pool */
#endif
}

static void forked_child(void)
{
    /* the child has one thread: the one that called fork (its pool_paused) */
    if (!pool_paused && __atomic_load_n(&st_team_asked, __ATOMIC_ACQUIRE))
        __atomic_store_n(&st_team_lost, 1, __ATOMIC_RELAXED);
}

void st_set_num_threads(int n)
{
    if (n < 1) n = 1;
    __atomic_store_n(&st_nthreads, n, __ATOMIC_RELAXED);
}

int st_get_num_threads(void)
{
    int n = __atomic_load_n(&st_nthreads, __ATOMIC_RELAXED);
    if (n > 0) return n;
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

int st_threads_forked(void) { return __atomic_load_n(&st_team_lost, __ATOMIC_RELAXED); }

int st_threads_for(int64_t work)
{
    if (st_threads_forked()) return 1;
    int nt = st_get_num_threads();
    if (nt <= 1 || work < 2 * ST_PARALLEL_GRAIN) return 1;
    int64_t most = work / ST_PARALLEL_GRAIN;
    if (most < nt) nt = (int)most;
    /* noted before the region starts its threads, so a fork that copies
     * them copies the note too (stored once: no line ping-pong after) */
    if (!__atomic_load_n(&st_team_asked, __ATOMIC_RELAXED))
        __atomic_store_n(&st_team_asked, 1, __ATOMIC_RELEASE);
    return nt;
}

/* ---- CPU level ---- */
int st_level_known = -1;
static pthread_once_t cpu_level_once = PTHREAD_ONCE_INIT;

static void detect_cpu_level(void)
{
    int level = 0;
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(ST_NO_CLONES)
    __builtin_cpu_init();
    level = __builtin_cpu_supports("x86-64-v4") ? 4 : __builtin_cpu_supports("x86-64-v3") ? 3 : 0;
#endif
    /* a test or a user may ask for a lower level (to run the narrower
     * kernels on a wider machine), never for instructions the CPU lacks */
    const char *env = getenv("STRIDED_CPU_LEVEL");
    if (env && (!strcmp(env, "0") || !strcmp(env, "3") || !strcmp(env, "4")) &&
        env[0] - '0' < level)
        level = env[0] - '0';
    __atomic_store_n(&st_level_known, level, __ATOMIC_RELEASE);
}

int st_cpu_level(void)
{
    pthread_once(&cpu_level_once, detect_cpu_level);
    return st_level_known;
}

/* Owned data comes from alloc.c's blocks (a cache of large mappings). */
#define ST_INLINE_MAX 128 /* bytes of data kept inside the storage record */

/* Under AddressSanitizer (the STRIDED_DEBUG=1 build, .ci/sanitizers) an
 * inline storage's unused room is poisoned, as alloc.c poisons a block's
 * slack: a kernel that reads or writes past a storage's end is reported. */
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define ST_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (size_t)(n))
#else
#define ST_POISON(p, n) ((void)(p), (void)(n))
#endif

/* ---- storage ---- */
/* A storage record over a block of alloc.c (zeroed: st_block_zeros, whose
 * fresh pages are flagged ST_STORAGE_PAGES), or NULL with the error set. */
static st_storage *owned_block(int64_t nbytes, int zeroed)
{
    st_storage *s = calloc(1, sizeof *s);
    if (!s) {
        st_fail(ST_E_MEMORY, "out of memory for a storage record");
        return NULL;
    }
    int fresh = 0;
    s->data = zeroed ? st_block_zeros(nbytes, &fresh) : st_aligned_alloc(nbytes);
    if (!s->data) {
        free(s);
        st_fail(ST_E_MEMORY, "cannot allocate %lld bytes", (long long)nbytes);
        return NULL;
    }
    s->nbytes = nbytes;
    s->refcount = 1;
    s->flags = ST_STORAGE_OWNED | (fresh ? ST_STORAGE_PAGES : 0);
    return s;
}

st_storage *st_storage_new(int64_t nbytes)
{
    if (nbytes < 0) {
        st_fail(ST_E_VALUE, "storage size must be >= 0, got %lld bytes", (long long)nbytes);
        return NULL;
    }
    if (nbytes > INT64_MAX - 64) {
        st_fail(ST_E_OVERFLOW, "storage of %lld bytes is too large", (long long)nbytes);
        return NULL;
    }
    if (nbytes <= ST_INLINE_MAX) {
        /* small data lives in the record's own block, 64-byte aligned: one
         * malloc that glibc serves from its per-thread cache, where an
         * aligned allocation takes the arena lock (most of `zeros(3)`) */
        st_storage *s = malloc(sizeof *s + 63 + ST_INLINE_MAX);
        if (!s) {
            st_fail(ST_E_MEMORY, "out of memory for a storage record");
            return NULL;
        }
        memset(s, 0, sizeof *s);
        s->data = (char *)(((uintptr_t)(s + 1) + 63) & ~(uintptr_t)63);
        s->nbytes = nbytes;
        ST_POISON(s + 1, s->data - (char *)(s + 1));
        ST_POISON(s->data + nbytes, (char *)(s + 1) + 63 + ST_INLINE_MAX - (s->data + nbytes));
        s->refcount = 1;
        s->flags = ST_STORAGE_OWNED | ST_STORAGE_INLINE;
        return s;
    }
    return owned_block(nbytes, 0);
}

st_storage *st_storage_zeros(int64_t nbytes)
{
    if (nbytes <= ST_INLINE_MAX || nbytes > INT64_MAX - 64) {
        st_storage *s = st_storage_new(nbytes);
        if (s && nbytes > 0) memset(s->data, 0, (size_t)nbytes);
        return s;
    }
    return owned_block(nbytes, 1);
}

st_storage *st_storage_borrow(void *data, int64_t nbytes, int readonly, st_release_fn release,
                              void *ctx)
{
    if (nbytes < 0) {
        st_fail(ST_E_VALUE, "borrowed size must be >= 0, got %lld bytes", (long long)nbytes);
        return NULL;
    }
    if (!data && nbytes > 0) {
        st_fail(ST_E_VALUE, "cannot borrow %lld bytes at address NULL", (long long)nbytes);
        return NULL;
    }
    if ((uintptr_t)data + (uint64_t)nbytes < (uintptr_t)data) {
        st_fail(ST_E_OVERFLOW, "%lld bytes at address %p wrap around the address space",
                (long long)nbytes, data);
        return NULL;
    }
    st_storage *s = calloc(1, sizeof *s);
    if (!s) {
        st_fail(ST_E_MEMORY, "out of memory for a storage record");
        return NULL;
    }
    s->data = data;
    s->nbytes = nbytes;
    s->refcount = 1;
    s->flags = readonly ? ST_STORAGE_READONLY : 0;
    s->release = release;
    s->release_ctx = ctx;
    return s;
}

void st_storage_retain(st_storage *s)
{
    if (s) __atomic_add_fetch(&s->refcount, 1, __ATOMIC_RELAXED);
}

void st_storage_release(st_storage *s)
{
    if (!s) return;
    if (__atomic_sub_fetch(&s->refcount, 1, __ATOMIC_ACQ_REL) != 0) return;
    if ((s->flags & ST_STORAGE_OWNED) && !(s->flags & ST_STORAGE_INLINE))
        st_aligned_free(s->data);
    else if (s->release)
        s->release(s->release_ctx);
    free(s);
}

st_status st_storage_resize(st_storage *s, int64_t nbytes)
{
    if (s->flags & ST_STORAGE_MAPPED)
        return st_fail(ST_E_BORROWED,
                       "cannot resize a memory-mapped file (%lld bytes) to %lld "
                       "bytes",
                       (long long)s->nbytes, (long long)nbytes);
    if (!(s->flags & ST_STORAGE_OWNED))
        return st_fail(ST_E_BORROWED, "cannot resize borrowed memory (%lld bytes) to %lld bytes",
                       (long long)s->nbytes, (long long)nbytes);
    if (nbytes < 0)
        return st_fail(ST_E_VALUE, "storage size must be >= 0, got %lld bytes", (long long)nbytes);
    if (nbytes == s->nbytes) return ST_OK;
    /* moving the data would leave a storage view's pointer dangling */
    const int64_t pins = __atomic_load_n(&s->pins, __ATOMIC_ACQUIRE);
    if (pins)
        return st_fail(ST_E_BORROWED,
                       "cannot resize a storage (%lld bytes) to %lld bytes while "
                       "%lld storage view(s) of part of it are alive: they point into its memory",
                       (long long)s->nbytes, (long long)nbytes, (long long)pins);
    /* moving the data would leave a DLPack consumer's pointer dangling */
    if (__atomic_load_n(&s->flags, __ATOMIC_RELAXED) & ST_STORAGE_EXPORTED)
        return st_fail(ST_E_BORROWED,
                       "cannot resize memory exported through DLPack (%lld bytes) "
                       "to %lld bytes: a consumer may hold its address; resize a copy",
                       (long long)s->nbytes, (long long)nbytes);
    char *p = st_aligned_alloc(nbytes);
    if (!p) return st_fail(ST_E_MEMORY, "cannot allocate %lld bytes", (long long)nbytes);
    memcpy(p, s->data, (size_t)(nbytes < s->nbytes ? nbytes : s->nbytes));
    /* the new tail may hold a freed block's bytes: it reads as zeros */
    if (nbytes > s->nbytes) memset(p + s->nbytes, 0, (size_t)(nbytes - s->nbytes));
    if (!(s->flags & ST_STORAGE_INLINE)) st_aligned_free(s->data);
    __atomic_and_fetch(&s->flags, ~(ST_STORAGE_INLINE | ST_STORAGE_PAGES), __ATOMIC_RELAXED);
    s->data = p;
    s->nbytes = nbytes;
    return ST_OK;
}

static void view_release(void *ctx)
{
    st_storage *parent = ctx;
    __atomic_sub_fetch(&parent->pins, 1, __ATOMIC_ACQ_REL);
    st_storage_release(parent);
}

st_storage *st_storage_view(st_storage *parent, int64_t offset, int64_t nbytes)
{
    if (offset < 0 || nbytes < 0 || offset > parent->nbytes || nbytes > parent->nbytes - offset) {
        st_fail(ST_E_VALUE,
                "a view of %lld bytes at byte %lld does not fit in a storage of "
                "%lld bytes",
                (long long)nbytes, (long long)offset, (long long)parent->nbytes);
        return NULL;
    }
    st_storage *s =
        st_storage_borrow(parent->data ? parent->data + offset : NULL, nbytes,
                          (parent->flags & ST_STORAGE_READONLY) != 0, view_release, parent);
    if (!s) return NULL;
    st_storage_retain(parent);
    __atomic_add_fetch(&parent->pins, 1, __ATOMIC_ACQ_REL);
    return s;
}

/* ---- memory-mapped files ----
 * As TH's THMapAllocator (THAllocator.c), on POSIX: open, grow a shared
 * file when asked for more than it holds, mmap, close the descriptor (the
 * mapping keeps the file).  Unlike TH, growing the file keeps its first
 * byte (TH wrote a '\0' at offset 0 after ftruncate) and an empty file
 * maps to an empty storage (TH's mmap of 0 bytes failed). */
typedef struct {
    void *addr;
    size_t len;
    char *shm_name; /* SHAREDMEM: unlinked on release */
} st_map_ctx;

static void map_release(void *ctx_)
{
    st_map_ctx *ctx = ctx_;
    if (ctx->addr) munmap(ctx->addr, ctx->len);
    if (ctx->shm_name) {
        shm_unlink(ctx->shm_name);
        free(ctx->shm_name);
    }
    free(ctx);
}

static st_storage *map_fail_errno(int *os_errno, int err, int fd, const char *what,
                                  const char *path)
{
    if (fd >= 0) close(fd);
    if (os_errno) *os_errno = err;
    st_fail(ST_E_IO, "%s <%s>: %s", what, path, strerror(err));
    return NULL;
}

st_storage *st_storage_map(const char *path, int64_t nbytes, int64_t unit, int mode, int *os_errno)
{
    if (os_errno) *os_errno = 0;
    if (!path) {
        st_fail(ST_E_VALUE, "st_storage_map: no file name");
        return NULL;
    }
    if (mode != ST_MAP_PRIVATE && mode != ST_MAP_SHARED && mode != ST_MAP_SHAREDMEM) {
        st_fail(ST_E_VALUE, "st_storage_map: unknown mode %d for <%s>", mode, path);
        return NULL;
    }
    if (unit < 1) {
        st_fail(ST_E_VALUE, "st_storage_map: unit must be >= 1, got %lld", (long long)unit);
        return NULL;
    }
    if (nbytes < 0 || (uint64_t)nbytes > (uint64_t)SIZE_MAX || nbytes > (int64_t)(INT64_MAX / 2)) {
        st_fail(ST_E_VALUE, "cannot map %lld bytes of <%s>", (long long)nbytes, path);
        return NULL;
    }
    int shared = mode != ST_MAP_PRIVATE;
    int fd;
    if (mode == ST_MAP_SHAREDMEM)
        fd = shm_open(path, O_RDWR | O_CREAT, (mode_t)0600);
    else
        fd = open(path, shared ? O_RDWR | O_CREAT : O_RDONLY, (mode_t)0600);
    if (fd == -1)
        return map_fail_errno(os_errno, errno, -1,
                              mode == ST_MAP_SHAREDMEM ? "cannot open the shared memory object"
                              : shared                 ? "cannot open the file read-write"
                                                       : "cannot open the file read-only",
                              path);
    struct stat st;
    if (fstat(fd, &st) == -1) return map_fail_errno(os_errno, errno, fd, "cannot stat", path);
    if (S_ISDIR(st.st_mode))
        return map_fail_errno(os_errno, EISDIR, fd, "cannot map a directory", path);
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        st_fail(ST_E_VALUE, "cannot map <%s>: not a regular file", path);
        return NULL;
    }
    int64_t size = nbytes;
    if (nbytes == 0) {
        size = (int64_t)st.st_size / unit * unit;
    } else if (nbytes > (int64_t)st.st_size) {
        if (!shared) {
            close(fd);
            st_fail(ST_E_VALUE,
                    "file <%s> holds %lld bytes, fewer than the %lld to map "
                    "(a read-only mapping cannot grow the file)",
                    path, (long long)st.st_size, (long long)nbytes);
            return NULL;
        }
        if (ftruncate(fd, (off_t)nbytes) == -1)
            return map_fail_errno(os_errno, errno, fd, "cannot grow", path);
    }
    st_map_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) {
        close(fd);
        st_fail(ST_E_MEMORY, "out of memory for a mapping record");
        return NULL;
    }
    if (mode == ST_MAP_SHAREDMEM) {
        ctx->shm_name = strdup(path);
        if (!ctx->shm_name) {
            close(fd);
            free(ctx);
            st_fail(ST_E_MEMORY, "out of memory for a mapping record");
            return NULL;
        }
    }
    if (size > 0) {
        void *p = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE,
                       shared ? MAP_SHARED : MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            int err = errno;
            free(ctx->shm_name);
            free(ctx);
            return map_fail_errno(os_errno, err, fd, "cannot map", path);
        }
        ctx->addr = p;
        ctx->len = (size_t)size;
    }
    close(fd); /* the mapping keeps the file */
    st_storage *s = st_storage_borrow(ctx->addr, size, 0, map_release, ctx);
    if (!s) {
        map_release(ctx);
        return NULL;
    }
    s->flags |= ST_STORAGE_MAPPED;
    return s;
}

/* ---- tensor records ----
 * A record is 1056 bytes, just over the largest size glibc keeps in its
 * lock-free per-thread cache (1032), so every small op paid malloc's
 * locked path twice (a fifth of the time of `a + b` on 3 elements).  Each
 * thread keeps a few freed records of its own instead.  A thread's cache
 * is freed when the thread ends: the first record it keeps sets a pthread
 * key whose destructor frees them (a server starting a thread per request
 * would otherwise keep a few KiB per thread it ever ran). */
#define RECORD_CACHE 16
static __thread st_tensor *record_cache[RECORD_CACHE];
static __thread int records_cached;
static __thread int record_key_set; /* this thread's destructor is armed */
static pthread_key_t record_key;
static int record_key_ok; /* the key exists: caching allowed */

static void free_record_cache(void *unused)
{
    (void)unused;
    while (records_cached) free(record_cache[--records_cached]);
    /* a record freed later in the thread's exit arms the key again, and
     * glibc then runs the destructor again */
    record_key_set = 0;
}

/* Load time: the record cache's key and the fork handler (see threads). */
__attribute__((constructor)) static void core_init(void)
{
    record_key_ok = pthread_key_create(&record_key, free_record_cache) == 0;
    pthread_atfork(before_fork, NULL, forked_child);
}

st_tensor *st_tensor_new(void)
{
    st_tensor *t = records_cached ? record_cache[--records_cached] : malloc(sizeof *t);
    if (!t) {
        st_fail(ST_E_MEMORY, "out of memory for a tensor record");
        return NULL;
    }
    memset(t, 0, sizeof *t);
    t->dtype = ST_FLOAT64;
    t->refcount = 1;
    return t;
}

void st_tensor_free(st_tensor *t)
{
    if (!t) return;
    st_storage_release(t->storage);
    if (records_cached < RECORD_CACHE && record_key_ok &&
        (record_key_set || pthread_setspecific(record_key, &record_key_set) == 0)) {
        record_key_set = 1;
        record_cache[records_cached++] = t;
    } else {
        free(t);
    }
}

int64_t st_tensor_numel(const st_tensor *t)
{
    int64_t n = 1;
    for (int d = 0; d < t->ndim; d++) n *= t->sizes[d];
    return n;
}

int st_tensor_is_contiguous(const st_tensor *t)
{
    int64_t expect = 1;
    for (int d = t->ndim - 1; d >= 0; d--) {
        if (t->sizes[d] == 1) continue;
        if (t->sizes[d] == 0) return 1;
        if (t->strides[d] != expect) return 0;
        expect *= t->sizes[d];
    }
    return 1;
}

void *st_tensor_data(const st_tensor *t)
{
    if (!t->storage) return NULL;
    return t->storage->data + t->offset * st_itemsize(t->dtype);
}

/* The element extent [lo, hi] in elements relative to the offset, with
 * overflow checks; used both to validate a view and to test overlap. */
static st_status view_extent(int ndim, const int64_t *sizes, const int64_t *strides, int64_t *lo,
                             int64_t *hi, int64_t *numel)
{
    int64_t n = 1, l = 0, h = 0;
    for (int d = 0; d < ndim; d++) {
        if (sizes[d] < 0)
            return st_fail(ST_E_VALUE, "size of dimension %d must be >= 0, got %lld", d,
                           (long long)sizes[d]);
        if (__builtin_mul_overflow(n, sizes[d], &n))
            return st_fail(ST_E_OVERFLOW, "number of elements overflows at dimension %d", d);
    }
    if (n > 0) {
        for (int d = 0; d < ndim; d++) {
            int64_t reach;
            if (__builtin_mul_overflow(sizes[d] - 1, strides[d], &reach))
                return st_fail(ST_E_OVERFLOW, "extent of dimension %d overflows", d);
            if (reach < 0) {
                if (__builtin_add_overflow(l, reach, &l))
                    return st_fail(ST_E_OVERFLOW, "extent of the view overflows");
            } else if (__builtin_add_overflow(h, reach, &h))
                return st_fail(ST_E_OVERFLOW, "extent of the view overflows");
        }
    }
    *lo = l;
    *hi = h;
    *numel = n;
    return ST_OK;
}

st_status st_tensor_set(st_tensor *t, st_storage *storage, int dtype, int64_t offset, int ndim,
                        const int64_t *sizes, const int64_t *strides)
{
    if (dtype < 0 || dtype >= ST_NTYPES) return st_fail(ST_E_TYPE, "unknown dtype code %d", dtype);
    if (ndim < 0 || ndim > ST_MAX_DIMS)
        return st_fail(ST_E_VALUE, "number of dimensions must be in [0, %d], got %d", ST_MAX_DIMS,
                       ndim);
    if (offset < 0)
        return st_fail(ST_E_VALUE, "storage offset must be >= 0, got %lld", (long long)offset);
    int64_t st[ST_MAX_DIMS];
    if (strides) {
        memcpy(st, strides, sizeof(int64_t) * (size_t)ndim);
    } else {
        int64_t s = 1;
        for (int d = ndim - 1; d >= 0; d--) {
            st[d] = s;
            if (sizes[d] > 0 && __builtin_mul_overflow(s, sizes[d], &s))
                return st_fail(ST_E_OVERFLOW, "number of elements overflows at dimension %d", d);
        }
    }
    int64_t lo, hi, numel, item = st_itemsize(dtype);
    st_status rc = view_extent(ndim, sizes, st, &lo, &hi, &numel);
    if (rc) return rc;
    int64_t bytes;
    if (__builtin_mul_overflow(numel, item, &bytes))
        return st_fail(ST_E_OVERFLOW, "%lld elements of %lld bytes overflow", (long long)numel,
                       (long long)item);
    if (numel > 0) {
        if (!storage)
            return st_fail(ST_E_VALUE, "a view of %lld elements needs a storage", (long long)numel);
        int64_t first, last, end;
        if (__builtin_add_overflow(offset, lo, &first) ||
            __builtin_add_overflow(offset, hi, &last) || __builtin_add_overflow(last, 1, &end) ||
            __builtin_mul_overflow(end, item, &end))
            return st_fail(ST_E_OVERFLOW, "extent of the view overflows");
        if (first < 0)
            return st_fail(ST_E_INDEX, "view reaches element %lld, before the storage start",
                           (long long)first);
        if (end > storage->nbytes)
            return st_fail(ST_E_INDEX, "view reaches byte %lld but the storage holds %lld bytes",
                           (long long)end, (long long)storage->nbytes);
    }
    if (storage) st_storage_retain(storage);
    st_storage_release(t->storage);
    t->storage = storage;
    t->dtype = dtype;
    t->offset = offset;
    t->ndim = ndim;
    for (int d = 0; d < ndim; d++) {
        t->sizes[d] = sizes[d];
        t->strides[d] = st[d];
    }
    return ST_OK;
}

static st_status tensor_alloc(st_tensor *t, int dtype, int ndim, const int64_t *sizes, int zero)
{
    if (dtype < 0 || dtype >= ST_NTYPES) return st_fail(ST_E_TYPE, "unknown dtype code %d", dtype);
    if (ndim < 0 || ndim > ST_MAX_DIMS)
        return st_fail(ST_E_VALUE, "number of dimensions must be in [0, %d], got %d", ST_MAX_DIMS,
                       ndim);
    int64_t n = 1, bytes;
    for (int d = 0; d < ndim; d++) {
        if (sizes[d] < 0)
            return st_fail(ST_E_VALUE, "size of dimension %d must be >= 0, got %lld", d,
                           (long long)sizes[d]);
        if (__builtin_mul_overflow(n, sizes[d], &n))
            return st_fail(ST_E_OVERFLOW, "number of elements overflows at dimension %d", d);
    }
    if (__builtin_mul_overflow(n, st_itemsize(dtype), &bytes) || bytes > INT64_MAX / 2)
        return st_fail(ST_E_OVERFLOW, "%lld elements of %s overflow the address space",
                       (long long)n, st_dtype_name(dtype));
    /* a bool element must hold 0 or 1 (kernels compare them as bytes), so
     * fresh bool memory is never left uninitialised */
    st_storage *s = zero || dtype == ST_BOOL ? st_storage_zeros(bytes) : st_storage_new(bytes);
    if (!s) return st_last_status();
    st_status rc = st_tensor_set(t, s, dtype, 0, ndim, sizes, NULL);
    st_storage_release(s); /* t holds the one reference now */
    return rc;
}

st_status st_tensor_alloc(st_tensor *t, int dtype, int ndim, const int64_t *sizes)
{
    return tensor_alloc(t, dtype, ndim, sizes, 0);
}

st_status st_tensor_alloc_zeros(st_tensor *t, int dtype, int ndim, const int64_t *sizes)
{
    return tensor_alloc(t, dtype, ndim, sizes, 1);
}

st_status st_tensor_extent(const st_tensor *t, int64_t *lo, int64_t *hi)
{
    int64_t l, h, n, item = st_itemsize(t->dtype);
    st_status rc = view_extent(t->ndim, t->sizes, t->strides, &l, &h, &n);
    if (rc) return rc;
    if (n == 0) {
        *lo = *hi = 0;
        return ST_OK;
    }
    *lo = (t->offset + l) * item;
    *hi = (t->offset + h + 1) * item;
    return ST_OK;
}

static char *base_address(const st_tensor *t) { return t->storage ? t->storage->data : NULL; }

int st_tensor_shares_memory(const st_tensor *a, const st_tensor *b)
{
    if (!a->storage || !b->storage) return 0;
    int64_t alo, ahi, blo, bhi;
    if (st_tensor_extent(a, &alo, &ahi) || st_tensor_extent(b, &blo, &bhi)) return 1;
    if (alo == ahi || blo == bhi) return 0;
    /* compare absolute addresses: two storages may borrow the same memory */
    uintptr_t a0 = (uintptr_t)base_address(a), b0 = (uintptr_t)base_address(b);
    return !(a0 + (uintptr_t)ahi <= b0 + (uintptr_t)blo ||
             b0 + (uintptr_t)bhi <= a0 + (uintptr_t)alo);
}

st_status st_detach_copy(const st_tensor **in, st_tensor **tmp)
{
    *tmp = st_tensor_temp_like(*in, (*in)->dtype);
    if (!*tmp) return st_last_status();
    st_status rc = st_copy(*tmp, *in);
    if (rc) {
        st_tensor_free(*tmp);
        *tmp = NULL;
        return rc;
    }
    *in = *tmp;
    return ST_OK;
}

void st_shape_str(char *buf, size_t len, int ndim, const int64_t *sizes)
{
    size_t used = (size_t)snprintf(buf, len, "(");
    for (int d = 0; d < ndim && used < len; d++)
        used +=
            (size_t)snprintf(buf + used, len - used, d ? ", %lld" : "%lld", (long long)sizes[d]);
    if (used < len) snprintf(buf + used, len - used, ndim == 1 ? ",)" : ")");
}

int st_tensor_overlaps(const st_tensor *a, const st_tensor *b)
{
    if (!st_tensor_shares_memory(a, b)) return 0;
    uintptr_t a0 = (uintptr_t)base_address(a), b0 = (uintptr_t)base_address(b);
    /* the exact same view (an in-place elementwise op) is safe */
    if (a0 + (uintptr_t)(a->offset * st_itemsize(a->dtype)) ==
            b0 + (uintptr_t)(b->offset * st_itemsize(b->dtype)) &&
        st_itemsize(a->dtype) == st_itemsize(b->dtype) && a->ndim == b->ndim) {
        int same = 1;
        for (int d = 0; d < a->ndim && same; d++)
            same =
                a->sizes[d] == b->sizes[d] && (a->sizes[d] == 1 || a->strides[d] == b->strides[d]);
        if (same) return 0;
    }
    return 1;
}

st_tensor *st_tensor_temp_like(const st_tensor *t, int dtype)
{
    st_tensor *tmp = st_tensor_new();
    if (!tmp) return NULL;
    if (st_tensor_alloc(tmp, dtype, t->ndim, t->sizes)) {
        st_tensor_free(tmp);
        return NULL;
    }
    return tmp;
}

/* ---- checks shared by the kernels ---- */
st_status st_check_storage(const st_tensor *t, const char *what)
{
    if (!t->storage && st_tensor_numel(t) > 0)
        return st_fail(ST_E_VALUE, "%s has no storage", what);
    return ST_OK;
}

st_status st_check_writable(const st_tensor *t, const char *what)
{
    st_status rc = st_check_storage(t, what);
    if (rc) return rc;
    if (t->storage && (t->storage->flags & ST_STORAGE_READONLY))
        return st_fail(ST_E_READONLY, "%s is read-only memory and cannot be written", what);
    return ST_OK;
}

st_status st_check_dtype(const st_tensor *t, int dtype, const char *what)
{
    if (t->dtype != dtype)
        return st_fail(ST_E_TYPE, "%s must be %s, got %s", what, st_dtype_name(dtype),
                       st_dtype_name(t->dtype));
    return ST_OK;
}
