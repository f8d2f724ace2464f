/* random.c -- the core's random numbers: Torch7's own generator, so that
 * a seed gives Lua Torch7's values (the older xoshiro256** fills went when
 * the faces moved to this one). */
#include "st_internal.h"
#include <math.h>
#include <stdlib.h>

/* ======================================================================
 * Torch7's generator (lib/TH/THRandom.c): the Mersenne Twister MT19937
 * (Matsumoto and Nishimura, 2002 initialisation), 32-bit outputs, with
 * THRandom.c's transforms, so that a seed gives Lua Torch7's very numbers:
 * uniform(a, b) = r / 2^32 * (b - a) + a with r one 32-bit output; normal
 * by Box-Muller, two uniforms giving two values (cos, then sin), the second
 * kept in the generator; and Torch7's exponential, cauchy, logNormal,
 * geometric, bernoulli, random, multinomial and randperm.  The struct has
 * THGenerator's layout on LP64 (THRandom.h), so its bytes are those of
 * Torch7's getRNGState.  Fills walk their view in C order on one thread,
 * as TH_TENSOR_APPLY does.  Floating expressions are written as Torch7
 * writes them and never contracted into fused multiply-adds, so they round
 * as Torch7's do. */
#pragma GCC optimize("fp-contract=off")

#define MT_N 624
#define MT_M 397

struct st_generator {
    uint64_t initial_seed;
    int32_t left;
    int32_t seeded;
    uint64_t next;
    uint64_t state[MT_N];
    double normal_x, normal_y, normal_rho;
    int32_t normal_is_valid;
};
_Static_assert(sizeof(struct st_generator) == 5048, "THGenerator's layout");

void st_generator_seed(st_generator *g, uint64_t seed)
{
    memset(g, 0, sizeof *g);
    g->initial_seed = seed;
    g->state[0] = seed & 0xffffffffULL;
    for (int j = 1; j < MT_N; j++)
        g->state[j] = (1812433253ULL * (g->state[j - 1] ^ (g->state[j - 1] >> 30)) + (uint64_t)j) &
                      0xffffffffULL;
    g->left = 1;
    g->seeded = 1;
}

st_generator *st_generator_new(uint64_t seed)
{
    st_generator *g = malloc(sizeof *g);
    if (!g) {
        st_fail(ST_E_MEMORY, "cannot allocate a generator");
        return NULL;
    }
    st_generator_seed(g, seed);
    return g;
}

void st_generator_free(st_generator *g) { free(g); }

void st_generator_copy(st_generator *dst, const st_generator *src)
{
    memcpy(dst, src, sizeof *dst);
}

static st_generator default_generator;
static int default_seeded;
st_generator *st_generator_default(void)
{
    if (!__atomic_load_n(&default_seeded, __ATOMIC_ACQUIRE)) {
        /* Torch7 seeds its default generator from /dev/urandom; the Python
         * layer does that at import.  A C caller gets 5489 (MT19937's own
         * default) until it seeds. */
        static int once;
        if (!__atomic_exchange_n(&once, 1, __ATOMIC_ACQ_REL)) {
            st_generator_seed(&default_generator, 5489);
            __atomic_store_n(&default_seeded, 1, __ATOMIC_RELEASE);
        }
        while (!__atomic_load_n(&default_seeded, __ATOMIC_ACQUIRE)) {
        }
    }
    return &default_generator;
}

uint64_t st_generator_initial_seed(const st_generator *g) { return g->initial_seed; }

int64_t st_generator_state_size(void) { return (int64_t)sizeof(st_generator); }

void st_generator_get_state(const st_generator *g, void *buf) { memcpy(buf, g, sizeof *g); }

st_status st_generator_set_state(st_generator *g, const void *buf, int64_t nbytes)
{
    if (nbytes != (int64_t)sizeof *g)
        return st_fail(ST_E_VALUE, "generator state must be %lld bytes, got %lld",
                       (long long)sizeof *g, (long long)nbytes);
    st_generator s;
    memcpy(&s, buf, sizeof s);
    /* THGenerator_isValid */
    if (s.seeded != 1 || s.left <= 0 || s.left > MT_N || s.next > MT_N)
        return st_fail(ST_E_VALUE, "invalid generator state (seeded %d, left %d, next %llu)",
                       (int)s.seeded, (int)s.left, (unsigned long long)s.next);
    memcpy(g, &s, sizeof s);
    return ST_OK;
}

#define MT_MATRIX_A 0x9908b0dfULL
#define MT_UMASK 0x80000000ULL
#define MT_LMASK 0x7fffffffULL
#define MT_MIXBITS(u, v) (((u) & MT_UMASK) | ((v) & MT_LMASK))
#define MT_TWIST(u, v) ((MT_MIXBITS(u, v) >> 1) ^ ((v) & 1ULL ? MT_MATRIX_A : 0ULL))

/* The state's refill (THRandom.c's next_state), written with indices so
 * that each loop vectorises: the first reads only elements it has not
 * written yet, the second those it wrote 227 (MT_N - MT_M) elements
 * before, farther than a vector.  Compiled per CPU level. */
ST_LEVEL_BODY void mt_refill_body(uint64_t *s)
{
    for (int i = 0; i < MT_N - MT_M; i++) s[i] = s[i + MT_M] ^ MT_TWIST(s[i], s[i + 1]);
    for (int i = MT_N - MT_M; i < MT_N - 1; i++)
        s[i] = s[i + MT_M - MT_N] ^ MT_TWIST(s[i], s[i + 1]);
    s[MT_N - 1] = s[MT_M - 1] ^ MT_TWIST(s[MT_N - 1], s[0]);
}
ST_LEVEL_DISPATCH(mt_refill, mt_refill_body, (uint64_t *s), (s))

static void mt_next_state(st_generator *g)
{
    g->left = MT_N;
    g->next = 0;
    mt_refill(g->state);
}

#define MT_TEMPER(y)                                                                               \
    do {                                                                                           \
        (y) ^= ((y) >> 11);                                                                        \
        (y) ^= ((y) << 7) & 0x9d2c5680ULL;                                                         \
        (y) ^= ((y) << 15) & 0xefc60000ULL;                                                        \
        (y) ^= ((y) >> 18);                                                                        \
    } while (0)

/* k tempered outputs of state words s[0..k) (vectorised per CPU level) */
ST_LEVEL_BODY void mt_temper_body(const uint64_t *restrict s, uint64_t *restrict out, int64_t k)
{
    for (int64_t i = 0; i < k; i++) {
        uint64_t y = s[i];
        MT_TEMPER(y);
        out[i] = y;
    }
}
ST_LEVEL_DISPATCH(mt_temper, mt_temper_body,
                  (const uint64_t *restrict s, uint64_t *restrict out, int64_t k), (s, out, k))

uint64_t st_generator_random(st_generator *g)
{
    if (--g->left == 0) mt_next_state(g);
    uint64_t y = g->state[g->next++];
    MT_TEMPER(y);
    return y;
}

/* The next n outputs of g into out: exactly n calls of st_generator_random,
 * a run of state words tempered at a time (the words left before the next
 * refill, left - 1 of them, start at next). */
static void mt_outputs(st_generator *g, uint64_t *out, int64_t n)
{
    while (n > 0) {
        int64_t k = (int64_t)g->left - 1;
        if (k > n) k = n;
        if (k <= 0) { /* this call refills, then reads word 0 */
            *out++ = st_generator_random(g);
            n--;
            continue;
        }
        if (g->next + (uint64_t)k > MT_N) { /* a state set inconsistent: one at a time */
            for (int64_t i = 0; i < k; i++) out[i] = st_generator_random(g);
        } else {
            mt_temper(g->state + g->next, out, k);
            g->left -= (int32_t)k;
            g->next += (uint64_t)k;
        }
        out += k;
        n -= k;
    }
}

/* THRandom.c's transforms, expression for expression */
static inline double mt_unit(st_generator *g)
{
    return (double)st_generator_random(g) * (1.0 / 4294967296.0);
}
static inline double mt_uniform(st_generator *g, double a, double b)
{
    return mt_unit(g) * (b - a) + a;
}
static double mt_normal(st_generator *g, double mean, double stdv)
{
    if (!g->normal_is_valid) {
        g->normal_x = mt_unit(g);
        g->normal_y = mt_unit(g);
        g->normal_rho = sqrt(-2. * log(1.0 - g->normal_y));
        g->normal_is_valid = 1;
    } else
        g->normal_is_valid = 0;
    if (g->normal_is_valid) return g->normal_rho * cos(2. * M_PI * g->normal_x) * stdv + mean;
    return g->normal_rho * sin(2. * M_PI * g->normal_x) * stdv + mean;
}
static inline double mt_exponential(st_generator *g, double lambda)
{
    return -1. / lambda * log(1 - mt_unit(g));
}
static inline double mt_cauchy(st_generator *g, double median, double sigma)
{
    return median + sigma * tan(M_PI * (mt_unit(g) - 0.5));
}
static inline double mt_geometric(st_generator *g, double p)
{
    /* Torch7: (int)(...) + 1, undefined past INT_MAX; the same below it */
    return (double)((int64_t)(log(1 - mt_unit(g)) / log(p)) + 1);
}
static inline double mt_draw(st_generator *g, int dist, double a, double b)
{
    switch (dist) {
    case ST_DIST_UNIFORM:
        return mt_uniform(g, a, b);
    case ST_DIST_NORMAL:
        return mt_normal(g, a, b);
    case ST_DIST_EXPONENTIAL:
        return mt_exponential(g, a);
    case ST_DIST_CAUCHY:
        return mt_cauchy(g, a, b);
    case ST_DIST_LOG_NORMAL:
        return exp(mt_normal(g, a, b));
    case ST_DIST_GEOMETRIC:
        return mt_geometric(g, a);
    default:
        return (double)(mt_unit(g) <= a); /* ST_DIST_BERNOULLI */
    }
}

static const char *const dist_names[] = {"uniform",   "normal",    "exponential", "cauchy",
                                         "logNormal", "geometric", "bernoulli"};

static st_status check_dist(int dist, double a, double b)
{
    if (dist < 0 || dist > ST_DIST_BERNOULLI)
        return st_fail(ST_E_VALUE, "unknown distribution code %d", dist);
    const char *name = dist_names[dist];
    if (a != a || b != b)
        return st_fail(ST_E_VALUE, "%s: parameters must not be NaN, got %g and %g", name, a, b);
    switch (dist) {
    case ST_DIST_NORMAL:
    case ST_DIST_LOG_NORMAL:
        if (!(b > 0)) return st_fail(ST_E_VALUE, "%s: std must be > 0, got %g", name, b);
        break;
    case ST_DIST_GEOMETRIC:
        if (!(a > 0 && a < 1))
            return st_fail(ST_E_VALUE, "geometric: p must be > 0 and < 1, got %g", a);
        break;
    case ST_DIST_BERNOULLI:
        if (!(a >= 0 && a <= 1))
            return st_fail(ST_E_VALUE, "bernoulli: p must be >= 0 and <= 1, got %g", a);
        break;
    }
    return ST_OK;
}

st_status st_random_draw(st_generator *g, int dist, double a, double b, double *out)
{
    st_status rc = check_dist(dist, a, b);
    if (rc) return rc;
    *out = mt_draw(g ? g : st_generator_default(), dist, a, b);
    return ST_OK;
}

typedef struct {
    st_generator *g;
    int dist;
    double a, b;
    uint64_t span; /* random: the modulus (0: none); range: hi - lo + 1 */
    int64_t lo;
} mt_fill;

/* The values of n draws of a distribution that takes one output each
 * (uniform, exponential, geometric, bernoulli), from the outputs u, into v:
 * THRandom.c's expressions, each element as mt_draw computes it (log(p)
 * of geometric is the same number every time: computed once). */
#define MT_BLOCK 512
static void mt_transform(int dist, double a, double b, const uint64_t *u, double *v, int64_t n)
{
    const double scale = 1.0 / 4294967296.0;
    switch (dist) {
    case ST_DIST_UNIFORM:
        for (int64_t i = 0; i < n; i++) v[i] = (double)u[i] * scale * (b - a) + a;
        break;
    case ST_DIST_EXPONENTIAL:
        for (int64_t i = 0; i < n; i++) v[i] = -1. / a * log(1 - (double)u[i] * scale);
        break;
    case ST_DIST_GEOMETRIC: {
        const double logp = log(a);
        for (int64_t i = 0; i < n; i++)
            v[i] = (double)((int64_t)(log(1 - (double)u[i] * scale) / logp) + 1);
        break;
    }
    default: { /* ST_DIST_BERNOULLI: u * 2^-32 <= a, exactly u <= floor(a * 2^32)
                     * (both scalings by 2^32 are exact; a is in [0, 1]): an
                     * integer compare, where the double one was a branch that
                     * a coin flip mispredicts half the time */
        const uint64_t th = (uint64_t)floor(a * 4294967296.0);
        for (int64_t i = 0; i < n; i++) v[i] = (double)(u[i] <= th);
        break;
    }
    }
}

/* n draws of normal(mean, stdv) into v (logNormal: exp of each) as
 * mt_normal draws them one at a time, from a block of outputs at a time: a
 * pending pair's sin first, then pairs of outputs (x, y) giving cos and sin
 * (computed together: GCC calls sincos, whose values are sin's and cos's),
 * a last odd draw starting a pair whose sin stays pending.  The generator's
 * pair fields end as one-at-a-time drawing leaves them (getRNGState's bytes
 * are Torch7's). */
static void mt_normals(st_generator *g, double mean, double stdv, double *v, int64_t n,
                       int lognormal)
{
    const double scale = 1.0 / 4294967296.0;
    int64_t i = 0;
    if (n > 0 && g->normal_is_valid) {
        g->normal_is_valid = 0;
        v[i++] = g->normal_rho * sin(2. * M_PI * g->normal_x) * stdv + mean;
    }
    uint64_t u[MT_BLOCK];
    while (n - i >= 2) {
        int64_t pairs = (n - i) / 2 < MT_BLOCK / 2 ? (n - i) / 2 : MT_BLOCK / 2;
        mt_outputs(g, u, 2 * pairs);
        double x = 0, y = 0, rho = 0;
        for (int64_t k = 0; k < pairs; k++) {
            x = (double)u[2 * k] * scale;
            y = (double)u[2 * k + 1] * scale;
            rho = sqrt(-2. * log(1.0 - y));
            v[i++] = rho * cos(2. * M_PI * x) * stdv + mean;
            v[i++] = rho * sin(2. * M_PI * x) * stdv + mean;
        }
        g->normal_x = x, g->normal_y = y, g->normal_rho = rho;
    }
    if (i < n) v[i] = mt_normal(g, mean, stdv);
    if (lognormal)
        for (int64_t k = 0; k < n; k++) v[k] = exp(v[k]);
}

static int mt_blocked(int dist) { return dist != ST_DIST_CAUCHY; }

#define DEF_MT_FILL(CODE, SFX, T, R, ...)                                                          \
    static void mt_dist_##SFX(char **args_, const int64_t *np, const int64_t *s_, void *extra)     \
    {                                                                                              \
        ST_LOCAL_ARGS(1)                                                                           \
        mt_fill *f = extra;                                                                        \
        if (!mt_blocked(f->dist)) {                                                                \
            for (int64_t i = 0; i < *np; i++)                                                      \
                *(T *)(args[0] + i * s[0]) = (T)mt_draw(f->g, f->dist, f->a, f->b);                \
            return;                                                                                \
        }                                                                                          \
        uint64_t u[MT_BLOCK];                                                                      \
        double v[MT_BLOCK];                                                                        \
        for (int64_t i0 = 0; i0 < *np; i0 += MT_BLOCK) {                                           \
            const int64_t n = *np - i0 < MT_BLOCK ? *np - i0 : MT_BLOCK;                           \
            if (f->dist == ST_DIST_NORMAL || f->dist == ST_DIST_LOG_NORMAL) {                      \
                mt_normals(f->g, f->a, f->b, v, n, f->dist == ST_DIST_LOG_NORMAL);                 \
            } else {                                                                               \
                mt_outputs(f->g, u, n);                                                            \
                mt_transform(f->dist, f->a, f->b, u, v, n);                                        \
            }                                                                                      \
            char *o = args[0] + i0 * s[0];                                                         \
            for (int64_t i = 0; i < n; i++) *(T *)(o + i * s[0]) = (T)v[i];                        \
        }                                                                                          \
    }                                                                                              \
    static void mt_bits_##SFX(char **args_, const int64_t *np, const int64_t *s_, void *extra)     \
    {                                                                                              \
        ST_LOCAL_ARGS(1)                                                                           \
        mt_fill *f = extra;                                                                        \
        for (int64_t i = 0; i < *np; i++) {                                                        \
            uint64_t r = st_generator_random(f->g);                                                \
            *(T *)(args[0] + i * s[0]) = (T)(f->span ? r % f->span : r);                           \
        }                                                                                          \
    }                                                                                              \
    static void mt_range_##SFX(char **args_, const int64_t *np, const int64_t *s_, void *extra)    \
    {                                                                                              \
        ST_LOCAL_ARGS(1)                                                                           \
        mt_fill *f = extra;                                                                        \
        for (int64_t i = 0; i < *np; i++) {                                                        \
            uint64_t r = st_generator_random(f->g);                                                \
            *(T *)(args[0] + i * s[0]) =                                                           \
                (T)(int64_t)((f->span ? r % f->span : r) + (uint64_t)f->lo);                       \
        }                                                                                          \
    }                                                                                              \
    static void mt_bern_##SFX(char **args_, const int64_t *np, const int64_t *s_, void *extra)     \
    {                                                                                              \
        ST_LOCAL_ARGS(2)                                                                           \
        mt_fill *f = extra;                                                                        \
        for (int64_t i = 0; i < *np; i++) {                                                        \
            double p = f->dist == ST_FLOAT32 ? (double)*(const float *)(args[1] + i * s[1])        \
                                             : *(const double *)(args[1] + i * s[1]);              \
            *(T *)(args[0] + i * s[0]) = (T)(mt_unit(f->g) <= p);                                  \
        }                                                                                          \
    }
ST_TYPES_BOOL(DEF_MT_FILL)
ST_TYPES_REAL(DEF_MT_FILL)

#define CASE_MT_FILL(CODE, SFX, T, R, ...)                                                         \
    case CODE:                                                                                     \
        return kind == 0   ? mt_dist_##SFX                                                         \
               : kind == 1 ? mt_bits_##SFX                                                         \
               : kind == 2 ? mt_range_##SFX                                                        \
                           : mt_bern_##SFX;
static st_loop_fn mt_loop(int dtype, int kind)
{
    switch (dtype) {
        ST_TYPES_BOOL(CASE_MT_FILL)
        ST_TYPES_REAL(CASE_MT_FILL)
    default:
        return NULL;
    }
}

/* Run kind's loop over t (and p for bernoulli) in C order on this thread. */
static st_status mt_run(st_tensor *t, const st_tensor *p, int kind, mt_fill *f, const char *name)
{
    st_status rc;
    if ((rc = st_check_writable(t, name))) return rc;
    if (st_tensor_numel(t) == 0) return ST_OK;
    if (!f->g) f->g = st_generator_default();
    st_iter it;
    const st_tensor *ops[2] = {t, p};
    if ((rc = st_iter_init(&it, p ? 2 : 1, ops, ST_ITER_C_ORDER))) return rc;
    st_iter_run(&it, mt_loop(t->dtype, kind), f, ST_ITER_C_ORDER | ST_ITER_SERIAL);
    return ST_OK;
}

st_status st_random_fill(st_tensor *t, st_generator *g, int dist, double a, double b)
{
    st_status rc = check_dist(dist, a, b);
    if (rc) return rc;
    const char *name = dist_names[dist < 0 || dist > ST_DIST_BERNOULLI ? 0 : dist];
    const int ok = dist <= ST_DIST_LOG_NORMAL ? st_is_float(t->dtype)
                   : dist == ST_DIST_GEOMETRIC
                       ? st_is_float(t->dtype) || st_is_int(t->dtype)
                       : st_is_float(t->dtype) || st_is_int(t->dtype) || t->dtype == ST_BOOL;
    if (!ok)
        return st_fail(ST_E_TYPE, "%s: cannot fill %s (%s)", name, st_dtype_name(t->dtype),
                       dist <= ST_DIST_LOG_NORMAL ? "needs float32 or float64"
                                                  : "needs an integer or floating tensor");
    mt_fill f = {g, dist, a, b, 0, 0};
    return mt_run(t, NULL, 0, &f, name);
}

st_status st_random_bits(st_tensor *t, st_generator *g)
{
    /* Torch7's random(): r % (the type's max + 1); 32-bit outputs already
     * fit int64, uint32/64 and double (whose modulus 2^53 + 1 is beyond r) */
    static const uint64_t mod[ST_NTYPES] = {
        [ST_INT8] = 128,  [ST_INT16] = 32768,  [ST_INT32] = 2147483648ULL,
        [ST_UINT8] = 256, [ST_UINT16] = 65536, [ST_FLOAT32] = (1ULL << 24) + 1};
    if (!st_is_int(t->dtype) && !st_is_float(t->dtype))
        return st_fail(ST_E_TYPE, "random: cannot fill %s (needs an integer or floating tensor)",
                       st_dtype_name(t->dtype));
    mt_fill f = {g, 0, 0, 0, mod[t->dtype], 0};
    return mt_run(t, NULL, 1, &f, "random");
}

st_status st_random_range(st_tensor *t, st_generator *g, int64_t lo, int64_t hi)
{
    if (!st_is_int(t->dtype) && !st_is_float(t->dtype))
        return st_fail(ST_E_TYPE, "random: cannot fill %s (needs an integer or floating tensor)",
                       st_dtype_name(t->dtype));
    if (hi < lo)
        return st_fail(ST_E_VALUE, "random: hi must be >= lo, got lo = %lld, hi = %lld",
                       (long long)lo, (long long)hi);
    mt_fill f = {g, 0, 0, 0, (uint64_t)hi - (uint64_t)lo + 1, lo};
    return mt_run(t, NULL, 2, &f, "random");
}

/* p (float32/64, t's shape): every probability checked before anything is drawn */
typedef struct {
    int bad;
    double at;
} pcheck;
#define DEF_PCHECK(CODE, SFX, T, R, ...)                                                           \
    static void pcheck_##SFX(char **args_, const int64_t *np, const int64_t *s_, void *extra)      \
    {                                                                                              \
        ST_LOCAL_ARGS(1)                                                                           \
        pcheck *c = extra;                                                                         \
        for (int64_t i = 0; i < *np && !c->bad; i++) {                                             \
            T p = *(const T *)(args[0] + i * s[0]);                                                \
            if (!(p >= 0 && p <= 1)) c->bad = 1, c->at = p;                                        \
        }                                                                                          \
    }
ST_TYPES_FLOAT(DEF_PCHECK)

st_status st_random_bernoulli_tensor(st_tensor *t, st_generator *g, const st_tensor *p)
{
    st_status rc;
    if (!st_is_float(t->dtype) && !st_is_int(t->dtype) && t->dtype != ST_BOOL)
        return st_fail(ST_E_TYPE, "bernoulli: cannot fill %s", st_dtype_name(t->dtype));
    if (!st_is_float(p->dtype))
        return st_fail(ST_E_TYPE, "bernoulli: p must be float32 or float64, got %s",
                       st_dtype_name(p->dtype));
    if (p->ndim != t->ndim || memcmp(p->sizes, t->sizes, sizeof(int64_t) * t->ndim))
        return st_fail(ST_E_VALUE, "bernoulli: p must have the shape of the tensor filled");
    if ((rc = st_check_storage(p, "bernoulli: p"))) return rc;
    if (st_tensor_shares_memory(t, p))
        return st_fail(ST_E_VALUE, "bernoulli: p must not share memory with the tensor filled");
    if (st_tensor_numel(p) > 0) {
        pcheck c = {0, 0};
        st_iter it;
        const st_tensor *ops[1] = {p};
        if ((rc = st_iter_init(&it, 1, ops, 0))) return rc;
        st_iter_run(&it, p->dtype == ST_FLOAT32 ? pcheck_float32 : pcheck_float64, &c,
                    ST_ITER_SERIAL);
        if (c.bad)
            return st_fail(ST_E_VALUE, "bernoulli: every p must be >= 0 and <= 1, got %g", c.at);
    }
    mt_fill f = {g, p->dtype, 0, 0, 0, 0}; /* dist holds p's dtype for mt_bern_* */
    return mt_run(t, p, 3, &f, "bernoulli");
}

/* ---- multinomial (THTensorRandom.c), 0-based ---- */
static st_status read_probs(const st_tensor *probs, int64_t row, double *dst, const char *name)
{
    const int64_t n = probs->sizes[probs->ndim - 1];
    const int64_t step = probs->strides[probs->ndim - 1];
    const char *base = (const char *)st_tensor_data(probs) +
                       (probs->ndim == 2 ? row * probs->strides[0] : 0) * st_itemsize(probs->dtype);
    for (int64_t j = 0; j < n; j++) {
        double v = probs->dtype == ST_FLOAT32 ? (double)((const float *)base)[j * step]
                                              : ((const double *)base)[j * step];
        if (!(v >= 0) || isinf(v))
            return st_fail(ST_E_VALUE,
                           "%s: probabilities must be finite and >= 0, got %g "
                           "(row %lld, column %lld)",
                           name, v, (long long)row, (long long)j);
        dst[j] = v;
    }
    return ST_OK;
}

static st_status check_probs(const st_tensor *probs, const char *name)
{
    if (!st_is_float(probs->dtype))
        return st_fail(ST_E_TYPE, "%s: probs must be float32 or float64, got %s", name,
                       st_dtype_name(probs->dtype));
    return st_check_storage(probs, "probs");
}

st_status st_random_multinomial(st_tensor *out, st_generator *g, const st_tensor *probs,
                                int replacement)
{
    st_status rc;
    const char *name = "multinomial";
    if ((rc = check_probs(probs, name))) return rc;
    if (probs->ndim != 1 && probs->ndim != 2)
        return st_fail(ST_E_VALUE, "%s: probs must be 1-D or 2-D, got %d dims", name, probs->ndim);
    if ((rc = st_check_dtype(out, ST_INT64, "multinomial: out"))) return rc;
    if ((rc = st_check_writable(out, "multinomial: out"))) return rc;
    const int64_t ndist = probs->ndim == 2 ? probs->sizes[0] : 1;
    const int64_t ncat = probs->sizes[probs->ndim - 1];
    if (out->ndim != probs->ndim || (probs->ndim == 2 && out->sizes[0] != ndist))
        return st_fail(ST_E_VALUE, "%s: out must be %s", name,
                       probs->ndim == 2 ? "(rows of probs, n)" : "1-D (n)");
    const int64_t nsample = out->sizes[out->ndim - 1];
    if (!replacement && nsample > ncat)
        return st_fail(ST_E_VALUE,
                       "%s: cannot draw %lld samples from %lld categories without "
                       "replacement",
                       name, (long long)nsample, (long long)ncat);
    if (nsample == 0 || ndist == 0) return ST_OK;
    if (ncat == 0) return st_fail(ST_E_VALUE, "%s: probs has no categories", name);
    double *cum = malloc((size_t)ncat * sizeof(double));
    if (!cum) return st_fail(ST_E_MEMORY, "%s: out of memory", name);
    /* check every row before drawing anything */
    for (int64_t i = 0; i < ndist; i++) {
        double sum = 0;
        if ((rc = read_probs(probs, i, cum, name))) goto done;
        for (int64_t j = 0; j < ncat; j++) sum += cum[j];
        if (!(sum > 0)) {
            rc = st_fail(ST_E_VALUE,
                         "%s: invalid distribution (row %lld: the probabilities sum "
                         "to %g, not > 0)",
                         name, (long long)i, sum);
            goto done;
        }
    }
    if (!g) g = st_generator_default();
    const int64_t os = out->strides[out->ndim - 1];
    for (int64_t i = 0; i < ndist; i++) {
        int64_t *o = (int64_t *)st_tensor_data(out) + (out->ndim == 2 ? i * out->strides[0] : 0);
        double sum = 0;
        read_probs(probs, i, cum, name);
        for (int64_t j = 0; j < ncat; j++) {
            sum += cum[j];
            cum[j] = sum;
        }
        for (int64_t j = 0; j < ncat; j++) cum[j] /= sum;
        for (int64_t j = 0; j < nsample; j++) {
            double u = mt_uniform(g, 0, 1);
            int64_t left = 0, right = ncat;
            cum[ncat - 1] = 1;
            while (right - left > 0) {
                int64_t mid = left + (right - left) / 2;
                if (cum[mid] < u)
                    left = mid + 1;
                else
                    right = mid;
            }
            o[j * os] = left;
            if (!replacement) {
                double before = left ? cum[left - 1] : 0;
                double diff = cum[left] - before, rest = 1.0 - diff;
                for (int64_t c = 0; c < ncat; c++) {
                    double v = cum[c];
                    if (c >= left) v -= diff;
                    cum[c] = v / rest;
                }
            }
        }
    }
    rc = ST_OK;
done:
    free(cum);
    return rc;
}

/* Walker's alias method as THTensorRandom.c sets it up, with one fix:
 * Torch7 marks "no alias" by J == 0 and so also drops a real alias to
 * category 0 (setting its q to 1); here unset entries are tracked apart
 * and keep J = 0, q = 1.  probs are not normalised (they should sum to 1,
 * as for Torch7); zero probabilities are allowed (Torch7 refuses them). */
#define DEF_ALIAS(CODE, SFX, T, R, ...)                                                            \
    static void alias_setup_##SFX(const double *p, int64_t K, int64_t *J, T *q, int64_t *small,    \
                                  int64_t *large, char *set)                                       \
    {                                                                                              \
        int64_t ns = 0, nl = 0;                                                                    \
        for (int64_t i = 0; i < K; i++) {                                                          \
            J[i] = 0;                                                                              \
            set[i] = 0;                                                                            \
            const T qi = (T)K * (T)p[i]; /* Torch7: inputsize * val, in real */                    \
            q[i] = qi;                                                                             \
            if (qi < 1.0)                                                                          \
                small[ns++] = i;                                                                   \
            else                                                                                   \
                large[nl++] = i;                                                                   \
        }                                                                                          \
        while (ns > 0 && nl > 0) {                                                                 \
            int64_t l = large[nl - 1], s = small[ns - 1];                                          \
            J[s] = l;                                                                              \
            set[s] = 1;                                                                            \
            q[l] = (T)((double)q[l] - (1.0 - (double)q[s]));                                       \
            if (q[l] < 1.0) {                                                                      \
                small[ns - 1] = l;                                                                 \
                nl--;                                                                              \
            } else {                                                                               \
                large[nl - 1] = l;                                                                 \
                ns--;                                                                              \
            }                                                                                      \
        }                                                                                          \
        T qmax = 0; /* q >= 0, and only a maximum above 1 is used */                               \
        for (int64_t i = 0; i < K; i++) qmax = q[i] > qmax ? q[i] : qmax;                          \
        if (qmax > 1)                                                                              \
            for (int64_t i = 0; i < K; i++) q[i] = (T)(q[i] / qmax);                               \
        for (int64_t i = 0; i < K; i++)                                                            \
            if (!set[i]) q[i] = 1;                                                                 \
    }
ST_TYPES_FLOAT(DEF_ALIAS)

st_status st_random_alias_setup(st_tensor *J, st_tensor *q, const st_tensor *probs)
{
    st_status rc;
    const char *name = "multinomialAliasSetup";
    if ((rc = check_probs(probs, name))) return rc;
    if (probs->ndim != 1) return st_fail(ST_E_VALUE, "%s: probs must be 1-D", name);
    const int64_t K = probs->sizes[0];
    if ((rc = st_check_dtype(J, ST_INT64, "multinomialAliasSetup: J")) ||
        (rc = st_check_dtype(q, probs->dtype, "multinomialAliasSetup: q")) ||
        (rc = st_check_writable(J, "J")) || (rc = st_check_writable(q, "q")))
        return rc;
    if (J->ndim != 1 || J->sizes[0] != K || q->ndim != 1 || q->sizes[0] != K)
        return st_fail(ST_E_VALUE, "%s: J and q must be 1-D of probs' length %lld", name,
                       (long long)K);
    if (K == 0) return ST_OK;
    double *p = malloc((size_t)K * sizeof(double));
    int64_t *Jb = malloc((size_t)K * 3 * sizeof(int64_t));
    char *set = malloc((size_t)K);
    double *qb = malloc((size_t)K * sizeof(double));
    if (!p || !Jb || !set || !qb) {
        rc = st_fail(ST_E_MEMORY, "%s: out of memory", name);
        goto done;
    }
    if ((rc = read_probs(probs, 0, p, name))) goto done;
    {
        const int64_t js = J->strides[0], qs = q->strides[0];
        int64_t *Jo = st_tensor_data(J);
        if (probs->dtype == ST_FLOAT32) {
            float *qf = (float *)qb;
            alias_setup_float32(p, K, Jb, qf, Jb + K, Jb + 2 * K, set);
            for (int64_t i = 0; i < K; i++) ((float *)st_tensor_data(q))[i * qs] = qf[i];
        } else {
            alias_setup_float64(p, K, Jb, qb, Jb + K, Jb + 2 * K, set);
            for (int64_t i = 0; i < K; i++) ((double *)st_tensor_data(q))[i * qs] = qb[i];
        }
        for (int64_t i = 0; i < K; i++) Jo[i * js] = Jb[i];
    }
done:
    free(p);
    free(Jb);
    free(set);
    free(qb);
    return rc;
}

typedef struct {
    st_generator *g;
    const int64_t *J;
    const double *q;
    int64_t K;
} alias_draw;
static void alias_loop(char **args_, const int64_t *np, const int64_t *s_, void *extra)
{
    ST_LOCAL_ARGS(1)
    alias_draw *a = extra;
    for (int64_t i = 0; i < *np; i++) {
        int64_t r = (int64_t)mt_uniform(a->g, 0, (double)a->K);
        int mask = mt_unit(a->g) <= a->q[r]; /* bernoulli(q[r]) */
        *(int64_t *)(args[0] + i * s[0]) = mask ? r : a->J[r];
    }
}

st_status st_random_alias_draw(st_tensor *out, st_generator *g, const st_tensor *J,
                               const st_tensor *q)
{
    st_status rc;
    const char *name = "multinomialAlias";
    if ((rc = st_check_dtype(out, ST_INT64, "multinomialAlias: out")) ||
        (rc = st_check_dtype(J, ST_INT64, "multinomialAlias: J")))
        return rc;
    if (!st_is_float(q->dtype))
        return st_fail(ST_E_TYPE, "%s: q must be float32 or float64, got %s", name,
                       st_dtype_name(q->dtype));
    if (J->ndim != 1 || q->ndim != 1 || J->sizes[0] != q->sizes[0])
        return st_fail(ST_E_VALUE, "%s: J and q must be 1-D of one length", name);
    if ((rc = st_check_storage(J, "J")) || (rc = st_check_storage(q, "q")) ||
        (rc = st_check_writable(out, "out")))
        return rc;
    const int64_t K = J->sizes[0];
    if (st_tensor_numel(out) == 0) return ST_OK;
    if (K == 0) return st_fail(ST_E_VALUE, "%s: no categories (J and q are empty)", name);
    int64_t *Jc = malloc((size_t)K * sizeof(int64_t));
    double *qc = malloc((size_t)K * sizeof(double));
    if (!Jc || !qc) {
        free(Jc);
        free(qc);
        return st_fail(ST_E_MEMORY, "%s: out of memory", name);
    }
    rc = ST_OK;
    for (int64_t i = 0; i < K && !rc; i++) {
        Jc[i] = ((const int64_t *)st_tensor_data(J))[i * J->strides[0]];
        qc[i] = q->dtype == ST_FLOAT32
                    ? (double)((const float *)st_tensor_data(q))[i * q->strides[0]]
                    : ((const double *)st_tensor_data(q))[i * q->strides[0]];
        if (Jc[i] < 0 || Jc[i] >= K)
            rc = st_fail(ST_E_INDEX, "%s: J[%lld] = %lld out of range [0, %lld)", name,
                         (long long)i, (long long)Jc[i], (long long)K);
        else if (!(qc[i] >= 0 && qc[i] <= 1))
            rc = st_fail(ST_E_VALUE, "%s: q[%lld] = %g is not a probability", name, (long long)i,
                         qc[i]);
    }
    if (!rc && (st_tensor_shares_memory(out, J) || st_tensor_shares_memory(out, q)))
        rc = st_fail(ST_E_VALUE, "%s: out must not share memory with J or q", name);
    if (!rc) {
        alias_draw a = {g ? g : st_generator_default(), Jc, qc, K};
        st_iter it;
        const st_tensor *ops[1] = {out};
        if (!(rc = st_iter_init(&it, 1, ops, ST_ITER_C_ORDER)))
            st_iter_run(&it, alias_loop, &a, ST_ITER_C_ORDER | ST_ITER_SERIAL);
    }
    free(Jc);
    free(qc);
    return rc;
}

/* ---- randperm: Torch7's swaps, 0-based values ----
 * TH's loop swaps r[i] with r[i + random() % (n - i)].  The draws come a
 * block at a time (mt_outputs: the same numbers), the places each swap
 * reaches are computed ahead (a 32-bit remainder: the draws are 32-bit,
 * and so is n - i up to 2^32) and fetched RANDPERM_AHEAD swaps before
 * they are needed: for n of 10^6 and more the swaps were waiting on
 * memory. */
#define RANDPERM_AHEAD 16
#define DEF_RANDPERM(CODE, SFX, T, R, ...)                                                         \
    static void randperm_##SFX(char *o, int64_t step, int64_t n, st_generator *g)                  \
    {                                                                                              \
        for (int64_t i = 0; i < n; i++) *(T *)(o + i * step) = (T)i;                               \
        uint64_t u[MT_BLOCK];                                                                      \
        for (int64_t i0 = 0; i0 < n - 1; i0 += MT_BLOCK) {                                         \
            const int64_t m = n - 1 - i0 < MT_BLOCK ? n - 1 - i0 : MT_BLOCK;                       \
            mt_outputs(g, u, m);                                                                   \
            for (int64_t q = 0; q < m; q++) {                                                      \
                const uint64_t span = (uint64_t)(n - i0 - q);                                      \
                u[q] = (uint64_t)(i0 + q) +                                                        \
                       (span <= UINT32_MAX ? (uint32_t)u[q] % (uint32_t)span : u[q] % span);       \
            }                                                                                      \
            for (int64_t q = 0; q < m; q++) {                                                      \
                if (q + RANDPERM_AHEAD < m)                                                        \
                    __builtin_prefetch(o + (int64_t)u[q + RANDPERM_AHEAD] * step, 1);              \
                char *a = o + (i0 + q) * step, *b = o + (int64_t)u[q] * step;                      \
                const T sav = *(T *)a;                                                             \
                *(T *)a = *(T *)b;                                                                 \
                *(T *)b = sav;                                                                     \
            }                                                                                      \
        }                                                                                          \
    }
ST_TYPES_REAL(DEF_RANDPERM)
#define CASE_RANDPERM(CODE, SFX, T, R, ...)                                                        \
    case CODE:                                                                                     \
        randperm_##SFX(o, step, n, g);                                                             \
        break;

st_status st_random_randperm(st_tensor *out, st_generator *g)
{
    st_status rc;
    if (!st_is_int(out->dtype) && !st_is_float(out->dtype))
        return st_fail(ST_E_TYPE, "randperm: cannot fill %s (needs an integer or floating tensor)",
                       st_dtype_name(out->dtype));
    if (out->ndim != 1)
        return st_fail(ST_E_VALUE, "randperm: out must be 1-D, got %d dims", out->ndim);
    if ((rc = st_check_writable(out, "randperm: out"))) return rc;
    const int64_t n = out->sizes[0];
    /* the largest value, n - 1, must be exact in the dtype */
    double most = out->dtype == ST_FLOAT32   ? 16777216.0
                  : out->dtype == ST_FLOAT64 ? 9007199254740992.0
                  : out->dtype == ST_INT8    ? 127
                  : out->dtype == ST_UINT8   ? 255
                  : out->dtype == ST_INT16   ? 32767
                  : out->dtype == ST_UINT16  ? 65535
                  : out->dtype == ST_INT32   ? 2147483647.0
                  : out->dtype == ST_UINT32  ? 4294967295.0
                                             : 9.3e18;
    if (n > 0 && (double)(n - 1) > most)
        return st_fail(ST_E_VALUE, "randperm: n = %lld values do not fit in %s", (long long)n,
                       st_dtype_name(out->dtype));
    if (!g) g = st_generator_default();
    char *o = st_tensor_data(out);
    const int64_t step = out->strides[0] * st_itemsize(out->dtype);
    switch (out->dtype) {
        ST_TYPES_REAL(CASE_RANDPERM)
    default:
        break;
    }
    return ST_OK;
}
