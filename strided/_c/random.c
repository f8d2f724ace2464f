/* random.c -- the core's random numbers: xoshiro256** (Blackman and
 * Vigna's generator, written here from its published description), seeded
 * by splitmix64.  Every fill walks its view in C order on one thread: the
 * values depend only on the seed and the shape. */
#include "st_internal.h"
#include <math.h>

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void st_rng_seed(st_rng *r, uint64_t seed)
{
    /* splitmix64 spreads one 64-bit seed over the 256-bit state */
    for (int i = 0; i < 4; i++) {
        uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        r->s[i] = z ^ (z >> 31);
    }
}

uint64_t st_rng_next(st_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* uniform double on [0, 1) with 53 random bits */
static inline double unit(st_rng *r) { return (double)(st_rng_next(r) >> 11) * 0x1.0p-53; }

typedef struct {
    st_rng *rng;
    double a, b;          /* uniform: lo, width; normal: mean, std */
    int64_t lo, span;     /* integers: lo, hi - lo + 1 (0: the whole 2^64) */
    int have_spare;       /* Box-Muller makes two normals at a time */
    double spare;
} fill_state;

static double normal(fill_state *f)
{
    if (f->have_spare) {
        f->have_spare = 0;
        return f->spare;
    }
    double u = unit(f->rng), v = unit(f->rng);
    double radius = sqrt(-2.0 * log1p(-u));   /* 1 - u is in (0, 1]: log is finite */
    f->spare = radius * sin(2 * M_PI * v);
    f->have_spare = 1;
    return radius * cos(2 * M_PI * v);
}

/* an integer uniform on [0, span) without modulo bias (Lemire's method) */
static uint64_t below(st_rng *r, uint64_t span)
{
    if (span == 0) return st_rng_next(r);
    __uint128_t m = (__uint128_t)st_rng_next(r) * span;
    uint64_t low = (uint64_t)m;
    if (low < span) {
        uint64_t floor = (0 - span) % span;
        while (low < floor) {
            m = (__uint128_t)st_rng_next(r) * span;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

#define DEF_RANDOM(CODE, SFX, T, R, ...)                                              \
    static void uniform_##SFX(char **args_, const int64_t *np, const int64_t *s_, void *extra) \
    {                                                                                 \
        ST_LOCAL_ARGS(1)                                                              \
        fill_state *f = extra;                                                        \
        for (int64_t i = 0; i < *np; i++)                                             \
            *(T *)(args[0] + i * s[0]) = (T)(f->a + f->b * unit(f->rng));             \
    }                                                                                 \
    static void normal_##SFX(char **args_, const int64_t *np, const int64_t *s_, void *extra) \
    {                                                                                 \
        ST_LOCAL_ARGS(1)                                                              \
        fill_state *f = extra;                                                        \
        for (int64_t i = 0; i < *np; i++)                                             \
            *(T *)(args[0] + i * s[0]) = (T)(f->a + f->b * normal(f));                \
    }                                                                                 \
    static void integers_##SFX(char **args_, const int64_t *np, const int64_t *s_, void *extra) \
    {                                                                                 \
        ST_LOCAL_ARGS(1)                                                              \
        fill_state *f = extra;                                                        \
        for (int64_t i = 0; i < *np; i++)                                             \
            *(T *)(args[0] + i * s[0]) =                                              \
                (T)(int64_t)((uint64_t)f->lo + below(f->rng, (uint64_t)f->span));     \
    }
ST_TYPES_REAL(DEF_RANDOM)

#define CASE_RANDOM(CODE, SFX, T, R, ...)                                             \
    case CODE: return kind == 0 ? uniform_##SFX : kind == 1 ? normal_##SFX : integers_##SFX;
static st_loop_fn random_loop(int dtype, int kind)
{
    switch (dtype) { ST_TYPES_REAL(CASE_RANDOM) default: return NULL; }
}

static st_status run_fill(st_tensor *t, int kind, fill_state *f, const char *what)
{
    st_status rc;
    if ((rc = st_check_writable(t, what))) return rc;
    if (kind != 2 && !st_is_float(t->dtype))
        return st_fail(ST_E_TYPE, "%s needs a floating dtype, got %s", what, st_dtype_name(t->dtype));
    if (kind == 2 && !st_is_float(t->dtype) && !st_is_int(t->dtype))
        return st_fail(ST_E_TYPE, "%s needs an integer or floating dtype, got %s", what,
                       st_dtype_name(t->dtype));
    if (st_tensor_numel(t) == 0) return ST_OK;
    st_iter it;
    const st_tensor *ops[1] = {t};
    if ((rc = st_iter_init(&it, 1, ops, ST_ITER_C_ORDER))) return rc;
    st_iter_run(&it, random_loop(t->dtype, kind), f, ST_ITER_C_ORDER | ST_ITER_SERIAL);
    return ST_OK;
}

st_status st_random_uniform(st_tensor *t, st_rng *r, double lo, double hi)
{
    if (!(lo <= hi) || !isfinite(hi - lo))
        return st_fail(ST_E_VALUE, "uniform needs finite lo <= hi, got [%g, %g)", lo, hi);
    fill_state f = {.rng = r, .a = lo, .b = hi - lo};
    return run_fill(t, 0, &f, "uniform");
}

st_status st_random_normal(st_tensor *t, st_rng *r, double mean, double stdv)
{
    if (!(stdv >= 0) || !isfinite(mean) || !isfinite(stdv))
        return st_fail(ST_E_VALUE, "normal needs a finite mean and std >= 0, got %g and %g",
                       mean, stdv);
    fill_state f = {.rng = r, .a = mean, .b = stdv};
    return run_fill(t, 1, &f, "normal");
}

st_status st_random_integers(st_tensor *t, st_rng *r, int64_t lo, int64_t hi)
{
    if (lo > hi)
        return st_fail(ST_E_VALUE, "integers needs lo <= hi, got [%lld, %lld]", (long long)lo,
                       (long long)hi);
    fill_state f = {.rng = r, .lo = lo, .span = (int64_t)((uint64_t)hi - (uint64_t)lo + 1)};
    return run_fill(t, 2, &f, "integers");
}
