/* conv.c -- Torch7's conv2/xcorr2/conv3/xcorr3 (lib/TH/generic/THTensorConv.c:
 * conv2Dmul, conv2Dcmul, conv2Dmv and their 3-D forms), stride 1.
 *
 * All four are a valid correlation: full mode ('F') correlates the input
 * zero-padded by k - 1 on each side of every spatial dim, convolution ('C')
 * correlates with the kernel flipped in every spatial dim:
 *     valid xcorr  out[y] = sum_j in[y + j] k[j]            size i - k + 1
 *     full conv    out[y] = sum_j in[y - j] k[j]            size i + k - 1
 * (y, j multi-indices over the D = 2 or 3 spatial dims).  Forms, by the
 * number of dims of in and k (Torch7's, chosen by TensorMath.lua):
 *     mul   in (s...),     k (t...)          -> out (o...)
 *     cmul  in (P, s...),  k (P, t...)       -> out (P, o...)     plane by plane
 *     mv    in (P, s...),  k (Q, P, t...)    -> out (Q, o...)     out[q] = sum_p in[p] * k[q, p]
 *
 * How: the input is copied, padded and converted, into a contiguous buffer
 * (float32 and float64 compute in their own type, as Torch7; integers in
 * uint64, whose wrapping gives Torch7's results modulo 2^bits once cast
 * back), the kernel likewise (flipped for convolution); the output is
 * computed a block of rows at a time into a small buffer per thread, then
 * stored (cast) into `out`, which may so share memory with the inputs.  A
 * 3-D correlation is a sum of 2-D ones over the
 * kernel's depth.  The 2-D float kernel computes a block of R output rows
 * by CC vectors of columns held in registers: for each input row the block
 * touches and each kernel column, it loads CC input vectors once and
 * multiply-adds them into every output row that row feeds (kernel row =
 * input row - output row), so each load serves up to R rows.  Three copies
 * (AVX-512 with 64-byte vectors, AVX2, SSE2), chosen at load time.  Threads
 * take (output plane, depth, block of rows) tasks; every output element is
 * summed by one thread in a fixed order, so results do not depend on the
 * thread count. */
#include "st_internal.h"
#include <stdio.h>
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
#endif

#define CONV_R 4 /* output rows per block */

/* ---- the float block kernel ----
 * o[r][c] (first: o[r][c] = 0, then) += sum_{ky < kh, kx < kw} in[r + ky][c + kx] * k[ky][kx]
 * for r < CONV_R and c < ncb * W, W = CC * (VB / sizeof(T)); every row of o
 * and in is readable (and o writable) that far. */
#define DEF_CORR(NAME, T, VB, CC, ATTR)                                                            \
    ATTR static void NAME(T *restrict o, int64_t ldo, const T *restrict in, int64_t ldi,           \
                          const T *restrict k, int64_t kh, int64_t kw, int64_t ncb, int first)     \
    {                                                                                              \
        enum { VL = (VB) / sizeof(T), W = (CC) * VL };                                             \
        typedef T vec __attribute__((vector_size(VB), aligned(sizeof(T))));                        \
        for (int64_t cb = 0; cb < ncb; cb++) {                                                     \
            vec acc[CONV_R][CC];                                                                   \
            for (int r = 0; r < CONV_R; r++)                                                       \
                for (int c = 0; c < CC; c++)                                                       \
                    acc[r][c] = first ? (vec){0} : *(const vec *)(o + r * ldo + cb * W + c * VL);  \
            for (int64_t j = 0; j < CONV_R + kh - 1; j++) {                                        \
                const T *irow = in + j * ldi + cb * W;                                             \
                for (int64_t kx = 0; kx < kw; kx++) {                                              \
                    vec v[CC];                                                                     \
                    for (int c = 0; c < CC; c++) v[c] = *(const vec *)(irow + kx + c * VL);        \
                    for (int r = 0; r < CONV_R; r++) {                                             \
                        if (j - r < 0 || j - r >= kh) continue;                                    \
                        const T w = k[(j - r) * kw + kx];                                          \
                        for (int c = 0; c < CC; c++) acc[r][c] += w * v[c];                        \
                    }                                                                              \
                }                                                                                  \
            }                                                                                      \
            for (int r = 0; r < CONV_R; r++)                                                       \
                for (int c = 0; c < CC; c++) *(vec *)(o + r * ldo + cb * W + c * VL) = acc[r][c];  \
        }                                                                                          \
    }

/* The vector width differs per level (64-byte vectors only at level 4:
 * GCC splits them through the stack on AVX2), so the levels are three
 * instantiations with their own W rather than ST_LEVELS of one body; the
 * level is st_cpu_level()'s (STRIDED_CPU_LEVEL can lower it). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(ST_NO_CLONES)
DEF_CORR(corr_v4_float64, double, 64, 4, ST_ATTR_V4)
DEF_CORR(corr_v4_float32, float, 64, 4, ST_ATTR_V4)
DEF_CORR(corr_v3_float64, double, 32, 2, ST_ATTR_V3)
DEF_CORR(corr_v3_float32, float, 32, 2, ST_ATTR_V3)
#endif
DEF_CORR(corr_v0_float64, double, 16, 2, )
DEF_CORR(corr_v0_float32, float, 16, 2, )

typedef void (*corr_fn)(void *o, int64_t ldo, const void *in, int64_t ldi, const void *k,
                        int64_t kh, int64_t kw, int64_t ncb, int first);

/* ---- the integer (and generic) kernel: rows of uint64, wrapping ---- */
ST_LEVEL_BODY void corr_u64_body(uint64_t *restrict o, int64_t ldo, const uint64_t *restrict in,
                                 int64_t ldi, const uint64_t *restrict k, int64_t kh, int64_t kw,
                                 int64_t ncols, int first)
{
    if (first)
        for (int r = 0; r < CONV_R; r++) memset(o + r * ldo, 0, (size_t)ncols * sizeof *o);
    for (int r = 0; r < CONV_R; r++)
        for (int64_t ky = 0; ky < kh; ky++)
            for (int64_t kx = 0; kx < kw; kx++) {
                const uint64_t w = k[ky * kw + kx];
                const uint64_t *src = in + (r + ky) * ldi + kx;
                uint64_t *dst = o + r * ldo;
                for (int64_t c = 0; c < ncols; c++) dst[c] += w * src[c];
            }
}
ST_LEVEL_FN(corr_u64_body,
            (uint64_t *restrict o, int64_t ldo, const uint64_t *restrict in, int64_t ldi,
             const uint64_t *restrict k, int64_t kh, int64_t kw, int64_t ncols, int first),
            (o, ldo, in, ldi, k, kh, kw, ncols, first))
static void corr_u64(uint64_t *restrict o, int64_t ldo, const uint64_t *restrict in, int64_t ldi,
                     const uint64_t *restrict k, int64_t kh, int64_t kw, int64_t ncols, int first)
{
    ST_PICK(corr_u64_body)(o, ldo, in, ldi, k, kh, kw, ncols, first);
}

typedef struct {
    int cdtype; /* compute type: float32, float64 or uint64 */
    int64_t item;
    corr_fn fn; /* float kernel, or NULL: corr_u64 */
    int64_t W;  /* columns per block of fn (1 for corr_u64) */
} conv_impl;

static conv_impl impl_for(int dtype)
{
    conv_impl m = {ST_UINT64, 8, NULL, 1};
    if (dtype == ST_FLOAT64 || dtype == ST_FLOAT32) {
        const int f64 = dtype == ST_FLOAT64;
        m.cdtype = dtype;
        m.item = f64 ? 8 : 4;
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(ST_NO_CLONES)
        const int level = st_level();
        if (level >= 4) {
            m.fn = (corr_fn)(f64 ? (void *)corr_v4_float64 : (void *)corr_v4_float32);
            m.W = 4 * 64 / m.item;
        } else if (level >= 3) {
            m.fn = (corr_fn)(f64 ? (void *)corr_v3_float64 : (void *)corr_v3_float32);
            m.W = 2 * 32 / m.item;
        }
#endif
        if (!m.fn) {
            m.fn = (corr_fn)(f64 ? (void *)corr_v0_float64 : (void *)corr_v0_float32);
            m.W = 2 * 16 / m.item;
        }
    }
    return m;
}

/* A record viewing raw memory p (nbytes) as dtype with sizes/strides. */
static st_tensor *view_over(void *p, int64_t nbytes, int dtype, int ndim, const int64_t *sizes,
                            const int64_t *strides, int64_t offset)
{
    st_storage *s = st_storage_borrow(p, nbytes, 0, NULL, NULL);
    if (!s) return NULL;
    st_tensor *t = st_tensor_new();
    if (t && st_tensor_set(t, s, dtype, offset, ndim, sizes, strides)) {
        st_tensor_free(t);
        t = NULL;
    }
    st_storage_release(s);
    return t;
}

static int64_t round_up(int64_t x, int64_t m) { return (x + m - 1) / m * m; }

/* n computed values (compute type: float32, float64 or uint64) into out's
 * dtype, byte step dstep; integers keep their low bits (Torch7's wrapping) */
#define CASE_STORE(CODE, SFX, T, R, ...)                                                           \
    case CODE:                                                                                     \
        for (int64_t i = 0; i < n; i++)                                                            \
            *(T *)(dst + i * dstep) =                                                              \
                st_is_float(CODE) ? (T)((const T *)src)[i] : (T)((const uint64_t *)src)[i];        \
        break;
static void store_row(int dtype, char *dst, int64_t dstep, const char *src, int64_t n)
{
    switch (dtype) {
        ST_TYPES_REAL(CASE_STORE)
    default:
        break;
    }
}

st_status st_conv(st_tensor *out, const st_tensor *in, const st_tensor *k, int nd, int full,
                  int xcorr)
{
    char name[8] = {0};
    st_status rc;
    if (nd != 2 && nd != 3) return st_fail(ST_E_VALUE, "conv: nd must be 2 or 3, got %d", nd);
    snprintf(name, sizeof name, "%s%d", xcorr ? "xcorr" : "conv", nd);
    if (!st_is_int(in->dtype) && !st_is_float(in->dtype))
        return st_fail(ST_E_TYPE, "%s: x must be an integer or floating tensor, got %s", name,
                       st_dtype_name(in->dtype));
    if (k->dtype != in->dtype)
        return st_fail(ST_E_TYPE, "%s: k is %s but x is %s", name, st_dtype_name(k->dtype),
                       st_dtype_name(in->dtype));
    if ((rc = st_check_storage(in, "x")) || (rc = st_check_storage(k, "k"))) return rc;
    /* the form */
    int form; /* 0 mul, 1 cmul, 2 mv */
    if (in->ndim == nd && k->ndim == nd)
        form = 0;
    else if (in->ndim == nd + 1 && k->ndim == nd + 1)
        form = 1;
    else if (in->ndim == nd + 1 && k->ndim == nd + 2)
        form = 2;
    else
        return st_fail(ST_E_VALUE,
                       "%s: x (%d-D) and k (%d-D) must be %d-D and %d-D, %d-D and "
                       "%d-D (plane by plane) or %d-D and %d-D (planes in to planes out)",
                       name, in->ndim, k->ndim, nd, nd, nd + 1, nd + 1, nd + 1, nd + 2);
    const int64_t P = form ? in->sizes[0] : 1;
    const int64_t Q = form == 0 ? 1 : k->sizes[0];
    if (form == 1 && k->sizes[0] != P)
        return st_fail(ST_E_VALUE, "%s: k has %lld planes but x has %lld", name,
                       (long long)k->sizes[0], (long long)P);
    if (form == 2 && k->sizes[1] != P)
        return st_fail(ST_E_VALUE, "%s: k takes %lld input planes (its dim 1) but x has %lld", name,
                       (long long)k->sizes[1], (long long)P);
    /* spatial sizes, padded to 3 (depth 1 for 2-D) */
    int64_t is[3] = {1, 1, 1}, ks[3] = {1, 1, 1}, os[3], pad[3];
    for (int d = 0; d < nd; d++) {
        is[3 - nd + d] = in->sizes[in->ndim - nd + d];
        ks[3 - nd + d] = k->sizes[k->ndim - nd + d];
    }
    for (int d = 0; d < 3; d++) {
        if (!full && is[d] < ks[d])
            return st_fail(ST_E_VALUE,
                           "%s: x is smaller than k along spatial dim %d (%lld < %lld)"
                           " in valid mode",
                           name, d - (3 - nd), (long long)is[d], (long long)ks[d]);
        pad[d] = full && ks[d] > 0 ? ks[d] - 1 : 0;
        os[d] = full ? is[d] + ks[d] - 1 : is[d] - ks[d] + 1;
        if (os[d] < 0) os[d] = 0;
    }
    /* out */
    if (out->dtype != in->dtype)
        return st_fail(ST_E_TYPE, "%s: out must be %s, got %s", name, st_dtype_name(in->dtype),
                       st_dtype_name(out->dtype));
    if ((rc = st_check_writable(out, "out"))) return rc;
    int64_t oshape[4];
    int ond = 0;
    if (form) oshape[ond++] = Q;
    for (int d = 3 - nd; d < 3; d++) oshape[ond++] = os[d];
    if (out->ndim != ond || memcmp(out->sizes, oshape, sizeof(int64_t) * ond)) {
        char want[96];
        st_shape_str(want, sizeof want, ond, oshape);
        return st_fail(ST_E_VALUE, "%s: out must have shape %s", name, want);
    }
    if (st_tensor_numel(out) == 0) return ST_OK;

    const conv_impl m = impl_for(in->dtype);
    const int64_t ohr = round_up(os[1], CONV_R), owr = round_up(os[2], m.W);
    /* padded input: room for every block's reads, and for all of in (an empty
     * kernel dim reads less than in holds) */
    int64_t Dp = os[0] + ks[0] - 1, Hp = ohr + ks[1] - 1, Wp = owr + ks[2] - 1;
    if (Dp < is[0] + 2 * pad[0]) Dp = is[0] + 2 * pad[0];
    if (Hp < is[1] + 2 * pad[1]) Hp = is[1] + 2 * pad[1];
    if (Wp < is[2] + 2 * pad[2]) Wp = is[2] + 2 * pad[2];
    const int64_t Kq = form == 0 ? 1 : Q, Kp = form == 2 ? P : 1;
    const int64_t isz = P * Dp * Hp * Wp, ksz = Kq * Kp * ks[0] * ks[1] * ks[2];
    /* one spare element each: no buffer is empty (a view needs bytes to borrow) */
    char *ib = st_aligned_alloc((isz + 1) * m.item), *kb = st_aligned_alloc((ksz + 1) * m.item),
         *ob = NULL;
    st_tensor *iv = NULL, *kv = NULL;
    rc = ST_OK;
    if (!ib || !kb) {
        rc = st_fail(ST_E_MEMORY, "%s: out of memory for the padded buffers", name);
        goto done;
    }
    memset(ib, 0, (size_t)(isz * m.item));
    {
        /* the input into the middle of its padded buffer (dims: P, D, H, W) */
        int64_t sz[4] = {P, is[0], is[1], is[2]}, st[4] = {Dp * Hp * Wp, Hp * Wp, Wp, 1};
        int64_t off = pad[0] * Hp * Wp + pad[1] * Wp + pad[2];
        iv = view_over(ib, (isz + 1) * m.item, m.cdtype, 4, sz, st, off);
        st_tensor src = *in; /* in as (P, D, H, W): a record on the stack */
        src.ndim = 4;
        for (int d = 0; d < 4; d++) src.sizes[d] = sz[d], src.strides[d] = 0;
        for (int d = 0; d < nd; d++) src.strides[4 - nd + d] = in->strides[in->ndim - nd + d];
        if (form) src.strides[0] = in->strides[0];
        if (!iv)
            rc = st_fail(ST_E_MEMORY, "%s: out of memory", name);
        else
            rc = st_copy(iv, &src);
        if (rc) goto done;
        /* the kernel (Kq, Kp, D, H, W), flipped for a convolution */
        int64_t ksz5[5] = {Kq, Kp, ks[0], ks[1], ks[2]};
        kv = view_over(kb, (ksz + 1) * m.item, m.cdtype, 5, ksz5, NULL, 0);
        st_tensor ksrc = *k;
        ksrc.ndim = 5;
        for (int d = 0; d < 5; d++) ksrc.sizes[d] = ksz5[d], ksrc.strides[d] = 0;
        for (int d = 0; d < nd; d++) ksrc.strides[5 - nd + d] = k->strides[k->ndim - nd + d];
        if (form >= 1) ksrc.strides[0] = k->strides[0];
        if (form == 2) ksrc.strides[1] = k->strides[1];
        if (!xcorr)
            for (int d = 2; d < 5; d++)
                if (ksrc.sizes[d] > 0) {
                    ksrc.offset += (ksrc.sizes[d] - 1) * ksrc.strides[d];
                    ksrc.strides[d] = -ksrc.strides[d];
                }
        if (!kv)
            rc = st_fail(ST_E_MEMORY, "%s: out of memory", name);
        else if (ksz > 0)
            rc = st_copy(kv, &ksrc);
        if (rc) goto done;
    }
    {
        /* every task computes R rows of one output plane (and depth) into its
         * thread's row buffer, summing over the input planes and the kernel's
         * depth, then stores the valid part into out */
        const int64_t nrb = ohr / CONV_R, ntasks = Q * os[0] * nrb;
        const int64_t planes = form == 2 ? P : 1;
        const int64_t work = ntasks * CONV_R * owr * planes * ks[0] * ks[1] * ks[2];
        int nt = st_threads_for(work / 8);
        if (nt > ntasks) nt = (int)ntasks;
        const int64_t kplane = ks[0] * ks[1] * ks[2], khw = ks[1] * ks[2];
        const int64_t rowbytes = CONV_R * owr * m.item, item = st_itemsize(out->dtype);
        int64_t so[4] = {form ? out->strides[0] : 0, nd == 3 ? out->strides[form ? 1 : 0] : 0,
                         out->strides[out->ndim - 2], out->strides[out->ndim - 1]};
        char *obase = st_tensor_data(out);
        ob = st_aligned_alloc(rowbytes * nt);
        if (!ob) {
            rc = st_fail(ST_E_MEMORY, "%s: out of memory", name);
            goto done;
        }
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1) if (nt > 1)
        for (int64_t t = 0; t < ntasks; t++) {
            const int64_t q = t / (os[0] * nrb), z = t / nrb % os[0], rb = t % nrb;
            char *o = ob + rowbytes * omp_get_thread_num();
            int first = 1;
            for (int64_t pp = 0; pp < planes; pp++) {
                const int64_t p = form == 1 ? q : form == 2 ? pp : 0;
                const int64_t kidx = form == 0 ? 0 : form == 1 ? q : q * P + p;
                for (int64_t dz = 0; dz < ks[0]; dz++, first = 0) {
                    const char *i = ib + (((p * Dp + z + dz) * Hp) + rb * CONV_R) * Wp * m.item;
                    const char *kk = kb + (kidx * kplane + dz * khw) * m.item;
                    if (m.fn)
                        m.fn(o, owr, i, Wp, kk, ks[1], ks[2], owr / m.W, first);
                    else
                        corr_u64((uint64_t *)o, owr, (const uint64_t *)i, Wp, (const uint64_t *)kk,
                                 ks[1], ks[2], owr, first);
                }
            }
            if (first) memset(o, 0, (size_t)rowbytes); /* nothing to sum: zeros */
            for (int64_t r = 0; r < CONV_R && rb * CONV_R + r < os[1]; r++)
                store_row(out->dtype,
                          obase + (q * so[0] + z * so[1] + (rb * CONV_R + r) * so[2]) * item,
                          so[3] * item, o + r * owr * m.item, os[2]);
        }
    }
done:
    st_tensor_free(iv);
    st_tensor_free(kv);
    st_aligned_free(ib);
    st_aligned_free(kb);
    st_aligned_free(ob);
    return rc;
}
