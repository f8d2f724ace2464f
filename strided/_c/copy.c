/* copy.c -- copy and cast between every pair of types, and fill.
 *
 * Conversion rules (decided once, here):
 *   to bool:     x != 0 (complex: either part nonzero)
 *   complex to real: the real part
 *   float to integer: truncation toward zero; NaN and values outside
 *     int64's range become INT64_MIN before narrowing, and narrowing wraps
 *     modulo 2^bits, so the result is always defined.  numpy agrees for
 *     values inside the target type's range; outside it (and for NaN)
 *     numpy leaves the result to the hardware (e.g. INT32_MIN for int32),
 *     where we narrow from int64 instead. */
#include "st_internal.h"

static inline int64_t st_f2i(double x)
{
    return (x > -9223372036854775808.0 && x < 9223372036854775808.0) ? (int64_t)x : INT64_MIN;
}

static inline uint64_t st_f2u(double x)
{
    return (x >= 0.0 && x < 18446744073709551616.0) ? (uint64_t)x : (uint64_t)st_f2i(x);
}

#define CONV_INT(D, F, x)                                                            \
    _Generic((x), float: (D)F(x), double: (D)F(x), st_c64: (D)F(crealf(x)),          \
             st_c128: (D)F(creal(x)), default: (D)(x))
#define CONV_bool_(x) _Generic((x), st_c64: (crealf(x) != 0 || cimagf(x) != 0),      \
                              st_c128: (creal(x) != 0 || cimag(x) != 0), default: (x) != 0)
#define CONV_int8(x) CONV_INT(int8_t, st_f2i, x)
#define CONV_int16(x) CONV_INT(int16_t, st_f2i, x)
#define CONV_int32(x) CONV_INT(int32_t, st_f2i, x)
#define CONV_int64(x) CONV_INT(int64_t, st_f2i, x)
#define CONV_uint8(x) CONV_INT(uint8_t, st_f2u, x)
#define CONV_uint16(x) CONV_INT(uint16_t, st_f2u, x)
#define CONV_uint32(x) CONV_INT(uint32_t, st_f2u, x)
#define CONV_uint64(x) CONV_INT(uint64_t, st_f2u, x)
#define CONV_REAL(D, x) _Generic((x), st_c64: (D)crealf(x), st_c128: (D)creal(x), default: (D)(x))
#define CONV_float32(x) CONV_REAL(float, x)
#define CONV_float64(x) CONV_REAL(double, x)
#define CONV_complex64(x) ((st_c64)(x))
#define CONV_complex128(x) ((st_c128)(x))

/* one cast loop per (src, dst) pair */
#define DEF_CAST(SCODE, SSFX, ST, SR, DCODE, DSFX, DT, DR)                            \
    ST_SIMD static void cast_##SSFX##_to_##DSFX(char **args, const int64_t *np,               \
                                        const int64_t *steps, void *extra)            \
    {                                                                                 \
        (void)extra;                                                                  \
        int64_t n = *np, os = steps[0], is = steps[1];                                \
        char *o = args[0], *i = args[1];                                              \
        if (os == sizeof(DT) && is == sizeof(ST)) {                                   \
            DT *out = (DT *)o;                                                        \
            const ST *in = (const ST *)i;                                             \
            for (int64_t k = 0; k < n; k++) out[k] = CONV_##DSFX(in[k]);              \
        } else {                                                                      \
            for (int64_t k = 0; k < n; k++)                                           \
                *(DT *)(o + k * os) = CONV_##DSFX(*(const ST *)(i + k * is));         \
        }                                                                             \
    }
/* outer loop over destinations, inner (the _2 copy) over sources */
#define CAST_FROM_ALL(DCODE, DSFX, DT, DR, ...) ST_TYPES_ALL_2(DEF_CAST, DCODE, DSFX, DT, DR)
ST_TYPES_ALL(CAST_FROM_ALL)

static st_loop_fn cast_table[ST_NTYPES][ST_NTYPES];   /* [src][dst] */

#define REG_CAST(SCODE, SSFX, ST, SR, DCODE, DSFX, DT, DR)                            \
    cast_table[SCODE][DCODE] = cast_##SSFX##_to_##DSFX;
#define REG_FROM_ALL(DCODE, DSFX, DT, DR, ...) ST_TYPES_ALL_2(REG_CAST, DCODE, DSFX, DT, DR)

__attribute__((constructor)) static void init_cast_table(void)
{
    ST_TYPES_ALL(REG_FROM_ALL)
}

/* Same-type moves only need the item size. */
#define DEF_MOVE(BITS, T)                                                             \
    static void move_##BITS(char **args_, const int64_t *np, const int64_t *s_,       \
                            void *extra)                                              \
    {                                                                                 \
        ST_LOCAL_ARGS(2)                                                              \
        (void)extra;                                                                  \
        int64_t n = *np, os = s[0], is = s[1];                                        \
        if (os == sizeof(T) && is == sizeof(T)) {                                     \
            memcpy(args[0], args[1], (size_t)n * sizeof(T));                          \
        } else if (is == 0) {                                                         \
            T v;                                                                      \
            memcpy(&v, args[1], sizeof(T));                                           \
            for (int64_t k = 0; k < n; k++) memcpy(args[0] + k * os, &v, sizeof(T));  \
        } else {                                                                      \
            for (int64_t k = 0; k < n; k++)                                           \
                memcpy(args[0] + k * os, args[1] + k * is, sizeof(T));                \
        }                                                                             \
    }
typedef struct { uint64_t lo, hi; } st_b128;
DEF_MOVE(8, uint8_t)
DEF_MOVE(16, uint16_t)
DEF_MOVE(32, uint32_t)
DEF_MOVE(64, uint64_t)
DEF_MOVE(128, st_b128)

static st_loop_fn move_for(int64_t itemsize)
{
    switch (itemsize) {
    case 1: return move_8;
    case 2: return move_16;
    case 4: return move_32;
    case 8: return move_64;
    default: return move_128;
    }
}

st_loop_fn st_cast_loop(int src, int dst)
{
    return src == dst ? move_for(st_itemsize(src)) : cast_table[src][dst];
}

st_status st_copy(st_tensor *dst, const st_tensor *src)
{
    st_status rc;
    if ((rc = st_check_writable(dst, "copy destination"))) return rc;
    if ((rc = st_check_storage(src, "copy source"))) return rc;
    if (st_tensor_numel(dst) == 0) {
        /* still check that the shapes broadcast */
        st_iter it;
        const st_tensor *ops[2] = {dst, src};
        return st_iter_init(&it, 2, ops, 0);
    }
    if (st_tensor_overlaps(dst, src)) {
        st_tensor *tmp = st_tensor_temp_like(src, src->dtype);
        if (!tmp) return ST_E_MEMORY;
        rc = st_copy(tmp, src);
        if (!rc) rc = st_copy(dst, tmp);
        st_tensor_free(tmp);
        return rc;
    }
    st_iter it;
    const st_tensor *ops[2] = {dst, src};
    if ((rc = st_iter_init(&it, 2, ops, 0))) return rc;
    st_iter_run(&it, st_cast_loop(src->dtype, dst->dtype), NULL, 0);
    return ST_OK;
}

/* ---- fill ---- */
#define DEF_FILL(BITS, T)                                                             \
    static void fill_##BITS(char **args_, const int64_t *np, const int64_t *s_,       \
                            void *extra)                                              \
    {                                                                                 \
        ST_LOCAL_ARGS(1)                                                              \
        int64_t n = *np, os = s[0];                                                   \
        T v;                                                                          \
        memcpy(&v, extra, sizeof(T));                                                 \
        if (os == sizeof(T)) {                                                        \
            T *out = (T *)args[0];                                                    \
            for (int64_t k = 0; k < n; k++) out[k] = v;                               \
        } else {                                                                      \
            for (int64_t k = 0; k < n; k++) memcpy(args[0] + k * os, &v, sizeof(T));  \
        }                                                                             \
    }
DEF_FILL(8, uint8_t)
DEF_FILL(16, uint16_t)
DEF_FILL(32, uint32_t)
DEF_FILL(64, uint64_t)
DEF_FILL(128, st_b128)

st_loop_fn st_fill_loop(int64_t itemsize)
{
    switch (itemsize) {
    case 1: return fill_8;
    case 2: return fill_16;
    case 4: return fill_32;
    case 8: return fill_64;
    default: return fill_128;
    }
}

st_status st_fill(st_tensor *dst, const void *value)
{
    st_status rc;
    if ((rc = st_check_writable(dst, "fill destination"))) return rc;
    if (st_tensor_numel(dst) == 0) return ST_OK;
    st_iter it;
    const st_tensor *ops[1] = {dst};
    if ((rc = st_iter_init(&it, 1, ops, 0))) return rc;
    /* a self-overlapping view (zero strides) is filled once per element,
     * which is harmless: every write stores the same value */
    st_iter_run(&it, st_fill_loop(st_itemsize(dst->dtype)), (void *)value, 0);
    return ST_OK;
}
