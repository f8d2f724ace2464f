/* t7scan.c -- Torch7's binary object format (File.lua's readObject) walked
 * in C: one call reads an object's records from a file descriptor or from
 * memory, each storage's elements straight into a new storage, and hands
 * over a flat list of records to make the objects from (pyarray.c's
 * t7_assemble, else strided/torch7/t7format.py, which says the format).
 * Python's own reader of the format does what this walk leaves alone: it
 * is called when the walk returns nonzero (bad or truncated data, whose
 * precise message it gives; a Lua function; a class version that is not
 * a plain number), so nothing here has to explain an error.
 *
 * Why: at 201 tensors of 600 KB, Python's per-object parsing (the reads
 * of each tag, index, name, size and geometry) cost about a third of a
 * load on top of the copy of the elements.  What is left is mostly the
 * kernel's copy out of the page cache, as for Lua.  Reads: a storage's
 * rest is read with the next object's head in one preadv (a storage that
 * lies in the window is copied from it); when a CPU is free at the start
 * (cpu_free) the rest of each big storage is read after the walk instead,
 * by this thread and a helper that take pieces in turn (read_deferred).
 * Measured on the shared 2-core EPYC (docs/performance.md): with the
 * other CPU free a second reader cut the copy by about 30%; with it busy,
 * loads were slower (the reader waits for the helper's piece), hence the
 * check.
 *
 * Safety: every length, count and size is checked against the bytes left
 * before anything is allocated or copied; nesting is bounded (T7_DEPTH);
 * a corrupted file makes the walk return 1, never read or write out of
 * bounds. */
#include "st_internal.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>

/* bytes read ahead for small items (what a storage that follows gets of
 * them is copied twice); after a storage of T7_BIG bytes or more, T7_TAIL */
#define T7_WINDOW ((int64_t)1 << 13)
#define T7_BIG ((int64_t)1 << 16)
#define T7_TAIL ((int64_t)1 << 10)
/* with a free CPU: a storage's rest of T7_DEFER bytes or more is read after
 * the walk in pieces of T7_PIECE, by two threads from T7_SHARED bytes */
#define T7_DEFER ((int64_t)1 << 18)
#define T7_PIECE ((int64_t)1 << 20)
#define T7_SHARED ((int64_t)4 << 20)
/* nested tables and objects (Python's reader, its recursion limit, goes
 * less deep) */
#define T7_DEPTH 1000
#define T7_STATE 5048 /* a torch.Generator's raw state */

/* bytes of a storage read from the file after the walk */
typedef struct {
    char *dst;
    int64_t at, n;
} t7_piece;

typedef struct {
    int fd; /* the source: fd (mem NULL) or memory */
    const char *mem;
    int64_t pos, end; /* data offsets */
    char *win;        /* fd: bytes [wbase, wbase + wlen) of the data */
    int64_t wbase, wlen, wcap;
    int longsize, referenced;
    int64_t *seen; /* open addressing set of object indices (+ ST_T7_EMPTY) */
    int64_t seen_cap, seen_n;
    const char *const *names;
    const int64_t *lens; /* their lengths (NULL: strlen each time) */
    const int64_t *kinds;
    int64_t nclasses;
    st_t7_scan *out;
    int64_t next_window; /* fd: the size of the next window read (short after a big storage) */
    int defer;           /* fd: big storages' bytes read after the walk, by two threads */
    t7_piece *pieces;    /* those bytes */
    int64_t npieces, cap_pieces, piece_bytes;
} walk;

#define SEEN_EMPTY INT64_MIN

static int grow(void **p, int64_t *cap, int64_t need, size_t item)
{
    if (need <= *cap) return 0;
    int64_t c = *cap ? *cap : 64;
    while (c < need) c *= 2;
    void *q = realloc(*p, (size_t)c * item);
    if (!q) return 1;
    *p = q;
    *cap = c;
    return 0;
}

static int put(walk *w, const int64_t *v, int n)
{
    st_t7_scan *o = w->out;
    if (grow((void **)&o->words, &o->cap_words, o->nwords + n, sizeof(int64_t))) return 1;
    memcpy(o->words + o->nwords, v, (size_t)n * sizeof(int64_t));
    o->nwords += n;
    return 0;
}

/* ---- the set of indices met */
static uint64_t mix(int64_t k)
{
    uint64_t x = (uint64_t)k * 0x9E3779B97F4A7C15ull;
    return x ^ (x >> 29);
}

static int seen(const walk *w, int64_t k)
{
    if (!w->seen_cap) return 0;
    for (uint64_t i = mix(k) & (uint64_t)(w->seen_cap - 1);;
         i = (i + 1) & (uint64_t)(w->seen_cap - 1)) {
        if (w->seen[i] == k) return 1;
        if (w->seen[i] == SEEN_EMPTY) return 0;
    }
}

static int mark(walk *w, int64_t k)
{
    if (2 * (w->seen_n + 1) > w->seen_cap) { /* at most half full */
        int64_t cap = w->seen_cap ? 2 * w->seen_cap : 256;
        int64_t *old = w->seen, oldcap = w->seen_cap;
        w->seen = malloc((size_t)cap * sizeof(int64_t));
        if (!w->seen) {
            w->seen = old;
            return 1;
        }
        for (int64_t i = 0; i < cap; i++) w->seen[i] = SEEN_EMPTY;
        w->seen_cap = cap;
        w->seen_n = 0;
        for (int64_t i = 0; i < oldcap; i++)
            if (old[i] != SEEN_EMPTY) mark(w, old[i]);
        free(old);
    }
    uint64_t i = mix(k) & (uint64_t)(w->seen_cap - 1);
    while (w->seen[i] != SEEN_EMPTY && w->seen[i] != k) i = (i + 1) & (uint64_t)(w->seen_cap - 1);
    if (w->seen[i] == SEEN_EMPTY) {
        w->seen[i] = k;
        w->seen_n++;
    }
    return 0;
}

/* ---- reading: a pointer to the next n bytes (checked against the end), or NULL */
static const char *take(walk *w, int64_t n)
{
    if (n < 0 || n > w->end - w->pos) return NULL;
    int64_t at = w->pos;
    w->pos += n;
    if (w->mem) return w->mem + at;
    if (at >= w->wbase && at + n <= w->wbase + w->wlen) return w->win + (at - w->wbase);
    int64_t want = w->next_window ? w->next_window : T7_WINDOW;
    w->next_window = 0;
    if (want < n) want = n;
    if (want > w->end - at) want = w->end - at;
    if (grow((void **)&w->win, &w->wcap, want, 1)) return NULL;
    int64_t got = 0;
    while (got < want) {
        ssize_t k = pread(w->fd, w->win + got, (size_t)(want - got), (off_t)(at + got));
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) break;
        got += k;
    }
    w->wbase = at;
    w->wlen = got;
    return got >= n ? w->win : NULL;
}

static int rd_int(walk *w, int64_t *v)
{
    const char *p = take(w, 4);
    int32_t x;
    if (!p) return 1;
    memcpy(&x, p, 4);
    *v = x;
    return 0;
}

static int rd_long(walk *w, int64_t *v)
{
    const char *p = take(w, w->longsize);
    if (!p) return 1;
    if (w->longsize == 4) {
        int32_t x;
        memcpy(&x, p, 4);
        *v = x;
    } else {
        memcpy(v, p, 8);
    }
    return 0;
}

/* n bytes into the arena; *at its offset there */
static int rd_bytes(walk *w, int64_t n, int64_t *at)
{
    st_t7_scan *o = w->out;
    const char *p = take(w, n);
    if (!p || grow((void **)&o->bytes, &o->cap_bytes, o->nbytes + n, 1)) return 1;
    memcpy(o->bytes + o->nbytes, p, (size_t)n);
    *at = o->nbytes;
    o->nbytes += n;
    return 0;
}

static int rd_string(walk *w, int64_t *at, int64_t *n)
{
    return rd_int(w, n) || *n < 0 || rd_bytes(w, *n, at);
}

/* a storage of n elements of `item` bytes, its elements read into it */
static int rd_storage(walk *w, int64_t n, int64_t item, int64_t *slot)
{
    st_t7_scan *o = w->out;
    if (n < 0 || n > (w->end - w->pos) / item) return 1;
    int64_t nbytes = n * item, at = w->pos;
    if (grow((void **)&o->storages, &o->cap_storages, o->nstorages + 1, sizeof(st_storage *)))
        return 1;
    st_storage *s = st_storage_new(nbytes);
    if (!s) return 1;
    o->storages[o->nstorages] = s; /* released by st_t7_scan_free unless taken */
    *slot = o->nstorages++;
    w->pos += nbytes;
    if (!nbytes) return 0;
    char *dst = (char *)s->data;
    if (w->mem) {
        memcpy(dst, w->mem + at, (size_t)nbytes);
        return 0;
    }
    int64_t have = 0; /* what the window holds already */
    if (at >= w->wbase && at < w->wbase + w->wlen) {
        have = w->wbase + w->wlen - at;
        if (have > nbytes) have = nbytes;
        memcpy(dst, w->win + (at - w->wbase), (size_t)have);
    }
    if (have == nbytes) return 0;
    if (w->defer && nbytes - have >= T7_DEFER) { /* read after the walk, in pieces */
        for (int64_t k = have; k < nbytes; k += T7_PIECE) {
            if (grow((void **)&w->pieces, &w->cap_pieces, w->npieces + 1, sizeof(t7_piece)))
                return 1;
            const int64_t n = nbytes - k < T7_PIECE ? nbytes - k : T7_PIECE;
            w->pieces[w->npieces++] = (t7_piece){dst + k, at + k, n};
            w->piece_bytes += n;
        }
        w->next_window = T7_TAIL; /* the next head: its storage's first bytes copied twice */
        return 0;
    }
    /* the rest, and the bytes after it into the window: one system call
     * (the next object's head is read with this storage); a storage's
     * first bytes read into the window are copied twice, so after a big
     * one the window is short */
    const int64_t after = at + nbytes;
    int64_t tail = nbytes >= T7_BIG ? T7_TAIL : T7_WINDOW;
    if (tail > w->end - after) tail = w->end - after;
    if (grow((void **)&w->win, &w->wcap, tail, 1)) tail = 0;
    w->wlen = 0; /* the window is written over */
    while (have < nbytes) {
        struct iovec iov[2] = {{dst + have, (size_t)(nbytes - have)}, {w->win, (size_t)tail}};
        ssize_t k = preadv(w->fd, iov, tail ? 2 : 1, (off_t)(at + have));
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return 1;
        if (k > nbytes - have) { /* the storage is whole, the window holds the rest */
            w->wbase = after;
            w->wlen = k - (nbytes - have);
            have = nbytes;
        } else {
            have += k;
        }
    }
    return 0;
}

/* ---- the deferred reads: the calling thread and a helper take pieces in
 * turn; the caller never waits for a helper that has not started a piece
 * (on a busy machine it may never run: the caller then reads them all),
 * only for the pieces it took; the state goes with the last of the two. */
typedef struct {
    int fd;
    const t7_piece *pieces;
    int64_t n;
    int64_t next, done; /* atomics: the next piece to take, the pieces read */
    int bad, refs;      /* atomics */
    pthread_mutex_t lock;
    pthread_cond_t all_done;
} t7_shared;

static int read_piece(int fd, const t7_piece *p)
{
    int64_t got = 0;
    while (got < p->n) {
        ssize_t k = pread(fd, p->dst + got, (size_t)(p->n - got), (off_t)(p->at + got));
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return 1;
        got += k;
    }
    return 0;
}

/* takes and reads pieces until none is left */
static void read_pieces(t7_shared *s)
{
    for (;;) {
        const int64_t i = __atomic_fetch_add(&s->next, 1, __ATOMIC_RELAXED);
        if (i >= s->n) return;
        if (read_piece(s->fd, &s->pieces[i])) __atomic_store_n(&s->bad, 1, __ATOMIC_RELAXED);
        if (__atomic_add_fetch(&s->done, 1, __ATOMIC_ACQ_REL) == s->n) {
            pthread_mutex_lock(&s->lock);
            pthread_cond_signal(&s->all_done);
            pthread_mutex_unlock(&s->lock);
        }
    }
}

static void shared_drop(t7_shared *s)
{
    if (__atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL)) return;
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->all_done);
    free((void *)s->pieces);
    free(s);
}

static void *helper(void *arg)
{
    read_pieces(arg);
    shared_drop(arg);
    return NULL;
}

/* the walk's deferred pieces read (their array handed over); 1 on a short read */
static int read_deferred(int fd, t7_piece *pieces, int64_t n, int64_t bytes)
{
    t7_shared *s = bytes >= T7_SHARED ? malloc(sizeof *s) : NULL;
    if (!s) {
        int bad = 0;
        for (int64_t i = 0; i < n && !bad; i++) bad = read_piece(fd, &pieces[i]);
        free(pieces);
        return bad;
    }
    *s = (t7_shared){.fd = fd, .pieces = pieces, .n = n, .refs = 2};
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->all_done, NULL);
    pthread_attr_t attr;
    pthread_t t;
    sigset_t all, old; /* signals go to the other threads (Python's handler) */
    sigfillset(&all);
    int started = !pthread_attr_init(&attr);
    if (started) {
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        pthread_attr_setstacksize(&attr, (size_t)1 << 18);
        const int masked = !pthread_sigmask(SIG_SETMASK, &all, &old);
        started = !pthread_create(&t, &attr, helper, s);
        if (masked) pthread_sigmask(SIG_SETMASK, &old, NULL);
        pthread_attr_destroy(&attr);
    }
    if (!started) s->refs = 1;
    read_pieces(s);
    pthread_mutex_lock(&s->lock); /* the pieces the helper took */
    while (__atomic_load_n(&s->done, __ATOMIC_ACQUIRE) < n)
        pthread_cond_wait(&s->all_done, &s->lock);
    pthread_mutex_unlock(&s->lock);
    const int bad = __atomic_load_n(&s->bad, __ATOMIC_RELAXED);
    shared_drop(s);
    return bad;
}

static int readers_mode; /* st_t7_readers */

int st_t7_readers(int mode)
{
    return __atomic_exchange_n(&readers_mode, mode >= 0 && mode <= 2 ? mode : 0, __ATOMIC_RELAXED);
}

/* 1 when a CPU is free now: fewer tasks runnable this instant than CPUs
 * online (the reader counts itself), from /proc/loadavg's fourth field, as
 * libgomp's dynamic mode sizes its teams by the load.  A second reading
 * thread only pays on a free CPU: on a busy one it took a share of the
 * copy and the reader waited for it (docs/performance.md). */
static int cpu_free(void)
{
    static int fails;
    if (__atomic_load_n(&fails, __ATOMIC_RELAXED) > 2) return 0;
    int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
    char buf[128];
    ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
    if (fd >= 0) close(fd);
    const char *p = NULL;
    if (n > 0) {
        buf[n] = 0;
        p = buf;
        for (int k = 0; k < 3 && p; k++) /* past the three averages */
            if ((p = strchr(p, ' '))) p++;
    }
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    if (!p || online < 1) {
        __atomic_add_fetch(&fails, 1, __ATOMIC_RELAXED);
        return 0;
    }
    return strtol(p, NULL, 10) < online;
}

static int class_of(const walk *w, const char *name, int64_t len)
{
    for (int64_t i = 0; i < w->nclasses; i++)
        if ((w->lens ? w->lens[i] : (int64_t)strlen(w->names[i])) == len &&
            !memcmp(w->names[i], name, (size_t)len))
            return (int)i;
    return -1;
}

static int object(walk *w, int depth);

/* the body of a torch object of index `index` (its tag and index read) */
static int torch_object(walk *w, int64_t index, int depth)
{
    int64_t vat, vlen, version;
    if (rd_string(w, &vat, &vlen)) return 1;
    const char *v = w->out->bytes + vat;
    int64_t nat = vat, nlen = vlen; /* legacy files: the name in place of the version */
    if (vlen >= 2 && v[0] == 'V' && v[1] == ' ') {
        if (vlen < 3 || vlen > 11) return 1; /* Python's reader parses the rest */
        version = 0;
        for (int64_t i = 2; i < vlen; i++) {
            if (v[i] < '0' || v[i] > '9') return 1;
            version = 10 * version + (v[i] - '0');
        }
        if (rd_string(w, &nat, &nlen)) return 1;
    } else {
        version = 0;
    }
    int c = class_of(w, w->out->bytes + nat, nlen);
    int64_t kind = c < 0 ? 0 : w->kinds[c];
    if (c < 0) { /* a Lua class: its fields, a table */
        int64_t rec[6] = {ST_T7_OBJECT, index, version, nat, nlen, 0}, tag;
        if (w->referenced && mark(w, index)) return 1;
        const char *p = take(w, 4);
        if (!p) return 1;
        w->pos -= 4;
        int32_t t;
        memcpy(&t, p, 4);
        tag = t;
        return tag != 3 || put(w, rec, 6) || object(w, depth + 1);
    }
    if (kind == ST_T7_KIND_TENSOR) {
        int64_t rec[4] = {ST_T7_TENSOR, index, c, 0}, v;
        if (rd_int(w, &rec[3]) || rec[3] < 0 || rec[3] > ST_MAX_DIMS || put(w, rec, 4)) return 1;
        for (int64_t i = 0; i < 2 * rec[3] + 1; i++) /* sizes, strides, offset */
            if (rd_long(w, &v) || put(w, &v, 1)) return 1;
        if (object(w, depth + 1)) return 1;
    } else if (kind == ST_T7_KIND_GENERATOR) {
        int64_t rec[3] = {ST_T7_GENERATOR, index, 0};
        if (rd_bytes(w, T7_STATE, &rec[2]) || put(w, rec, 3)) return 1;
    } else { /* a storage: kind is its element size */
        int64_t rec[5] = {ST_T7_STORAGE, index, c, 0, 0};
        if (kind <= 0 || rd_long(w, &rec[3]) || rd_storage(w, rec[3], kind, &rec[4]) ||
            put(w, rec, 5))
            return 1;
    }
    return w->referenced && mark(w, index);
}

static int object(walk *w, int depth)
{
    int64_t tag;
    if (depth > T7_DEPTH || rd_int(w, &tag)) return 1;
    switch (tag) {
    case 0: {
        int64_t rec[1] = {ST_T7_NIL};
        return put(w, rec, 1);
    }
    case 1: {
        const char *p = take(w, 8);
        int64_t rec[2] = {ST_T7_NUMBER, 0};
        if (!p) return 1;
        memcpy(&rec[1], p, 8); /* the double's bits */
        return put(w, rec, 2);
    }
    case 2: {
        int64_t rec[3] = {ST_T7_STRING};
        return rd_string(w, &rec[1], &rec[2]) || put(w, rec, 3);
    }
    case 5: {
        int64_t rec[2] = {ST_T7_BOOLEAN};
        return rd_int(w, &rec[1]) || put(w, rec, 2);
    }
    case 3:
    case 4: {
        int64_t index;
        if (rd_int(w, &index)) return 1;
        if (w->referenced && seen(w, index)) {
            int64_t rec[2] = {ST_T7_REF, index};
            return put(w, rec, 2);
        }
        if (tag == 4) return torch_object(w, index, depth);
        int64_t rec[3] = {ST_T7_TABLE, index, 0};
        if (rd_int(w, &rec[2]) || rec[2] < 0 || rec[2] > (w->end - w->pos) / 8 ||
            (w->referenced && mark(w, index)) || put(w, rec, 3))
            return 1;
        for (int64_t i = 0; i < 2 * rec[2]; i++)
            if (object(w, depth + 1)) return 1;
        return 0;
    }
    default: /* a Lua function, or garbage */
        return 1;
    }
}

int st_t7_walk(int fd, const char *mem, int64_t start, int64_t end, int longsize, int referenced,
               const int64_t *known, int64_t n_known, const char *const *names,
               const int64_t *kinds, int64_t nclasses, st_t7_scan *out)
{
    memset(out, 0, sizeof *out);
    if (start < 0 || end < start || (longsize != 4 && longsize != 8)) return 1;
    walk w = {.fd = fd,
              .mem = mem,
              .pos = start,
              .end = end,
              .longsize = longsize,
              .referenced = referenced,
              .names = names,
              .kinds = kinds,
              .nclasses = nclasses,
              .out = out};
    int64_t *lens = nclasses > 0 ? malloc((size_t)nclasses * sizeof *lens) : NULL;
    for (int64_t i = 0; lens && i < nclasses; i++) lens[i] = (int64_t)strlen(names[i]);
    w.lens = lens;
    const int mode = __atomic_load_n(&readers_mode, __ATOMIC_RELAXED);
    w.defer = !mem && mode != 1 && st_get_num_threads() > 1 && !st_threads_forked() &&
              (mode == 2 || cpu_free());
    int bad = 0;
    for (int64_t i = 0; i < n_known && !bad; i++) bad = mark(&w, known[i]);
    bad = bad || object(&w, 0);
    if (!bad && w.npieces) /* (before the storages can go: no helper reads after) */
        bad = read_deferred(fd, w.pieces, w.npieces, w.piece_bytes);
    else
        free(w.pieces);
    free(lens);
    free(w.win);
    free(w.seen);
    out->end = w.pos;
    if (bad) st_t7_scan_free(out);
    return bad;
}

void st_t7_scan_free(st_t7_scan *s)
{
    for (int64_t i = 0; i < s->nstorages; i++)
        if (s->storages[i]) st_storage_release(s->storages[i]);
    free(s->words);
    free(s->bytes);
    free(s->storages);
    int64_t end = s->end;
    memset(s, 0, sizeof *s);
    s->end = end;
}
