/* matmul.c -- batched matrix product: out[..., n, m] = a[..., n, k] @ b[..., k, m].
 *
 * Batch dims broadcast (numpy's matmul rules); a and b are at least 2-D
 * (promoting 1-D operands is the Python layer's job).  Every numeric dtype:
 * integers wrap modulo 2^bits (computed in unsigned arithmetic: no UB),
 * bool is the logical or of ands, floats and complex accumulate in their
 * own type, like BLAS.
 *
 * One 2-D product is the classic Goto/BLIS scheme: for each block of
 * MM_NC columns of b and MM_KC of the k dim, the block of b is copied
 * ("packed") into contiguous, aligned panels of NR columns; for each block
 * of MM_MC rows of a, that block is packed into panels of MR rows; then a
 * register-blocked micro-kernel multiplies one MR x kc panel of a by one
 * kc x NR panel of b into MR x NR accumulators held in registers (GCC
 * vector types; the block kernel has an AVX-512 variant with 64-byte
 * vectors and AVX2 and baseline x86-64 ones with 32-byte vectors, picked by
 * the CPU level).  Packing reads a and b through their strides (any
 * layout, zero strides too) and pads the edges with zeros, so the
 * micro-kernel never branches; the output is written through its strides,
 * only the valid part of an edge tile.
 *
 * Threads: many products (a batch at least as large as the thread count,
 * or products too small to split) run one product per thread; otherwise the
 * products run one after the other with the row blocks of each split across
 * threads (the packed b block shared).  Every output element is computed by
 * the same sequence of operations whatever the thread count, so results do
 * not depend on it.
 *
 * float32, float64, complex64 and complex128 go to OpenBLAS's cblas_?gemm
 * instead, always on our own threads (mm_batch_blas below: a batch of
 * small and middle-sized products is shared out over them, one
 * single-threaded ?gemm per product; a large product is split into bands
 * of rows or columns, one per thread); the packed kernel stays their
 * fallback for sizes past BLAS's 32-bit integers; gemm_2d() is the packed kernel's
 * dtype switch.  st_addmm adds alpha and beta (Torch7's addmm family):
 * ?gemm's own for BLAS types, a scaling pass over a temporary otherwise. */
#include "st_blas.h"
#include "st_half.h"
#include <math.h>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
static int omp_get_num_threads(void) { return 1; }
#endif

#define MM_KC 256  /* k block: a panel of a and one of b stay in L1/L2 */
#define MM_MC 128  /* row block of a (packed, per thread; rounded to MR) */
#define MM_NC 1024 /* column block of b (packed, shared) */

/* ---- per-type compute types, tile shapes, multiply-accumulate -------- */
/* Integers compute in unsigned types at least 32 bits wide (uint16 * uint16
 * would promote to int and could overflow); the low bits are the wrapped
 * result.  bool computes in uint8 with or/and. */
#define CT_bool_ uint8_t
#define CT_int8 uint32_t
#define CT_int16 uint32_t
#define CT_int32 uint32_t
#define CT_int64 uint64_t
#define CT_uint8 uint32_t
#define CT_uint16 uint32_t
#define CT_uint32 uint32_t
#define CT_uint64 uint64_t
#define CT_float32 float
#define CT_float64 double
#define CT_complex64 st_c64
#define CT_complex128 st_c128

/* MR x NR accumulators: 6 x 8 doubles are 6 AVX-512 / 12 AVX2 registers */
#define MR_bool_ 4
#define NR_bool_ 64
#define MR_int8 8
#define NR_int8 16
#define MR_int16 8
#define NR_int16 16
#define MR_int32 8
#define NR_int32 16
#define MR_int64 8
#define NR_int64 8
#define MR_uint8 8
#define NR_uint8 16
#define MR_uint16 8
#define NR_uint16 16
#define MR_uint32 8
#define NR_uint32 16
#define MR_uint64 8
#define NR_uint64 8
#define MR_float32 6
#define NR_float32 16
#define MR_float64 6
#define NR_float64 8
#define MR_complex64 4
#define NR_complex64 8
#define MR_complex128 4
#define NR_complex128 4

#define MAC_PLAIN(acc, x, y) ((acc) += (x) * (y))
#define MAC_BOOL(acc, x, y) ((acc) |= (x) & (y))
#define MAC_CX(acc, x, y)                                                                          \
    do {                                                                                           \
        __real__(acc) += __real__(x) * __real__(y) - __imag__(x) * __imag__(y);                    \
        __imag__(acc) += __real__(x) * __imag__(y) + __imag__(x) * __real__(y);                    \
    } while (0)
#define MAC_bool_ MAC_BOOL
#define MAC_int8 MAC_PLAIN
#define MAC_int16 MAC_PLAIN
#define MAC_int32 MAC_PLAIN
#define MAC_int64 MAC_PLAIN
#define MAC_uint8 MAC_PLAIN
#define MAC_uint16 MAC_PLAIN
#define MAC_uint32 MAC_PLAIN
#define MAC_uint64 MAC_PLAIN
#define MAC_float32 MAC_PLAIN
#define MAC_float64 MAC_PLAIN
#define MAC_complex64 MAC_CX
#define MAC_complex128 MAC_CX

/* old + acc in the compute type (bool: or) */
#define ADD_bool_(x, y) ((uint8_t)((x) | (y)))
#define ADD_PLAIN(x, y) ((x) + (y))
#define ADD_int8 ADD_PLAIN
#define ADD_int16 ADD_PLAIN
#define ADD_int32 ADD_PLAIN
#define ADD_int64 ADD_PLAIN
#define ADD_uint8 ADD_PLAIN
#define ADD_uint16 ADD_PLAIN
#define ADD_uint32 ADD_PLAIN
#define ADD_uint64 ADD_PLAIN
#define ADD_float32 ADD_PLAIN
#define ADD_float64 ADD_PLAIN
#define ADD_complex64 ADD_PLAIN
#define ADD_complex128 ADD_PLAIN

/* The micro-kernel: acc[MR][NR] = (MR x kc panel of a) (kc x NR panel of b).
 * Real types hold each accumulator row in GCC vectors of VB bytes, so the k
 * loop is a load of b's row, then per row of a one broadcast and one
 * multiply-add per vector; complex types use the scalar loop.  VB is 64
 * (one AVX-512 register) in the x86-64-v4 copy of the block kernel and 32
 * (one AVX2 register) in the others: 64-byte vectors on AVX2 are split
 * through the stack and run 5x slower, 32-byte ones on AVX-512 1.5x. */
#define MICRO_VEC(SFX, VB, kc, apan, bpan, acc)                                                    \
    do {                                                                                           \
        enum { VL_ = (VB) / sizeof(ct_##SFX), NV_ = NR_##SFX / VL_ };                              \
        _Static_assert(NV_ >= 1 && NV_ * VL_ == NR_##SFX, "NR must fill whole vectors");           \
        typedef ct_##SFX vec_t __attribute__((vector_size(VB), aligned(sizeof(ct_##SFX))));        \
        vec_t v_[MR_##SFX][NV_];                                                                   \
        for (int i = 0; i < MR_##SFX; i++)                                                         \
            for (int q = 0; q < NV_; q++) v_[i][q] = (vec_t){0};                                   \
        for (int64_t p = 0; p < (kc); p++) {                                                       \
            const ct_##SFX *x = (apan) + p * MR_##SFX;                                             \
            vec_t y[NV_];                                                                          \
            for (int q = 0; q < NV_; q++)                                                          \
                y[q] = *(const vec_t *)((bpan) + p * NR_##SFX + q * VL_);                          \
            for (int i = 0; i < MR_##SFX; i++)                                                     \
                for (int q = 0; q < NV_; q++) VMAC_##SFX(v_[i][q], x[i], y[q]);                    \
        }                                                                                          \
        memcpy((acc), v_, sizeof v_);                                                              \
    } while (0)
#define MICRO_SCALAR(SFX, VB, kc, apan, bpan, acc)                                                 \
    do {                                                                                           \
        for (int i = 0; i < MR_##SFX; i++)                                                         \
            for (int j = 0; j < NR_##SFX; j++) (acc)[i][j] = 0;                                    \
        for (int64_t p = 0; p < (kc); p++) {                                                       \
            const ct_##SFX *x = (apan) + p * MR_##SFX;                                             \
            const ct_##SFX *y = (bpan) + p * NR_##SFX;                                             \
            for (int i = 0; i < MR_##SFX; i++)                                                     \
                for (int j = 0; j < NR_##SFX; j++) MAC_##SFX((acc)[i][j], x[i], y[j]);             \
        }                                                                                          \
    } while (0)
#define VMAC_PLAIN(v, x, y) ((v) += (x) * (y))
#define VMAC_BOOL(v, x, y) ((v) |= (x) & (y))
#define VMAC_bool_ VMAC_BOOL
#define VMAC_int8 VMAC_PLAIN
#define VMAC_int16 VMAC_PLAIN
#define VMAC_int32 VMAC_PLAIN
#define VMAC_int64 VMAC_PLAIN
#define VMAC_uint8 VMAC_PLAIN
#define VMAC_uint16 VMAC_PLAIN
#define VMAC_uint32 VMAC_PLAIN
#define VMAC_uint64 VMAC_PLAIN
#define VMAC_float32 VMAC_PLAIN
#define VMAC_float64 VMAC_PLAIN
#define MICRO_bool_ MICRO_VEC
#define MICRO_int8 MICRO_VEC
#define MICRO_int16 MICRO_VEC
#define MICRO_int32 MICRO_VEC
#define MICRO_int64 MICRO_VEC
#define MICRO_uint8 MICRO_VEC
#define MICRO_uint16 MICRO_VEC
#define MICRO_uint32 MICRO_VEC
#define MICRO_uint64 MICRO_VEC
#define MICRO_float32 MICRO_VEC
#define MICRO_float64 MICRO_VEC
#define MICRO_complex64 MICRO_SCALAR
#define MICRO_complex128 MICRO_SCALAR

/* The packed a block times the packed b block into c[ic.., jc..]. */
#define DEF_BLOCK(SFX, T, NAME, VB, ATTR)                                                          \
    ATTR static void NAME(const mm_geom *g, int64_t ic, int64_t mc, int64_t jc, int64_t nc,        \
                          int64_t kc, int first, const ct_##SFX *restrict ap,                      \
                          const ct_##SFX *restrict bp)                                             \
    {                                                                                              \
        T *c = (T *)g->c;                                                                          \
        for (int64_t j0 = 0; j0 < nc; j0 += NR_##SFX) {                                            \
            int64_t nr = nc - j0 < NR_##SFX ? nc - j0 : NR_##SFX;                                  \
            const ct_##SFX *bpan = bp + (j0 / NR_##SFX) * kc * NR_##SFX;                           \
            for (int64_t i0 = 0; i0 < mc; i0 += MR_##SFX) {                                        \
                int64_t mr = mc - i0 < MR_##SFX ? mc - i0 : MR_##SFX;                              \
                const ct_##SFX *apan = ap + i0 * kc;                                               \
                ct_##SFX acc[MR_##SFX][NR_##SFX];                                                  \
                MICRO_##SFX(SFX, VB, kc, apan, bpan, acc);                                         \
                T *ct = c + (ic + i0) * g->rsc + (jc + j0) * g->csc;                               \
                for (int i = 0; i < mr; i++) {                                                     \
                    T *row = ct + i * g->rsc;                                                      \
                    if (first)                                                                     \
                        for (int j = 0; j < nr; j++) row[j * g->csc] = (T)acc[i][j];               \
                    else                                                                           \
                        for (int j = 0; j < nr; j++)                                               \
                            row[j * g->csc] = (T)ADD_##SFX((ct_##SFX)row[j * g->csc], acc[i][j]);  \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }

/* One 2-D product; strides in elements. */
typedef struct {
    int64_t n, m, k;
    const char *a;
    int64_t rsa, csa;
    const char *b;
    int64_t rsb, csb;
    char *c;
    int64_t rsc, csc;
} mm_geom;

/* scratch bytes one thread needs for a product of this geometry (its
 * packed a block) and the shared packed b block */
typedef struct {
    int64_t a_bytes, b_bytes;
} mm_scratch;

/* The packing kernels of DEF_GEMM, per CPU level. */
#define DEF_PACK_ISA(ISA, ATTR, SFX, T)                                                            \
    /* b[pc:pc+kc, jc:jc+nc] into panels of NR columns, zero-padded */                             \
    ATTR static void pack_b_##SFX##ISA(const mm_geom *g, int64_t pc, int64_t kc, int64_t jc,       \
                                       int64_t nc, int64_t p0, int64_t p1, ct_##SFX *restrict bp)  \
    {                                                                                              \
        const T *b = (const T *)g->b;                                                              \
        for (int64_t pj = p0; pj < p1; pj++) {                                                     \
            int64_t j0 = pj * NR_##SFX, nr = nc - j0 < NR_##SFX ? nc - j0 : NR_##SFX;              \
            ct_##SFX *dst = bp + pj * kc * NR_##SFX;                                               \
            const T *src = b + pc * g->rsb + (jc + j0) * g->csb;                                   \
            if (nr == NR_##SFX && g->csb == 1) {                                                   \
                for (int64_t p = 0; p < kc; p++)                                                   \
                    for (int j = 0; j < NR_##SFX; j++)                                             \
                        dst[p * NR_##SFX + j] = (ct_##SFX)src[p * g->rsb + j];                     \
            } else {                                                                               \
                for (int64_t p = 0; p < kc; p++) {                                                 \
                    int j = 0;                                                                     \
                    for (; j < nr; j++)                                                            \
                        dst[p * NR_##SFX + j] = (ct_##SFX)src[p * g->rsb + j * g->csb];            \
                    for (; j < NR_##SFX; j++) dst[p * NR_##SFX + j] = 0;                           \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    /* a[ic:ic+mc, pc:pc+kc] into panels of MR rows, zero-padded */                                \
    ATTR static void pack_a_##SFX##ISA(const mm_geom *g, int64_t ic, int64_t mc, int64_t pc,       \
                                       int64_t kc, ct_##SFX *restrict ap)                          \
    {                                                                                              \
        const T *a = (const T *)g->a;                                                              \
        for (int64_t i0 = 0; i0 < mc; i0 += MR_##SFX) {                                            \
            int64_t mr = mc - i0 < MR_##SFX ? mc - i0 : MR_##SFX;                                  \
            ct_##SFX *dst = ap + i0 * kc;                                                          \
            const T *src = a + (ic + i0) * g->rsa + pc * g->csa;                                   \
            for (int i = 0; i < MR_##SFX; i++) {                                                   \
                if (i < mr) {                                                                      \
                    const T *row = src + i * g->rsa;                                               \
                    if (g->csa == 1)                                                               \
                        for (int64_t p = 0; p < kc; p++) dst[p * MR_##SFX + i] = (ct_##SFX)row[p]; \
                    else                                                                           \
                        for (int64_t p = 0; p < kc; p++)                                           \
                            dst[p * MR_##SFX + i] = (ct_##SFX)row[p * g->csa];                     \
                } else {                                                                           \
                    for (int64_t p = 0; p < kc; p++) dst[p * MR_##SFX + i] = 0;                    \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }

#define DEF_GEMM(CODE, SFX, T, R, ...)                                                             \
    enum { MC_E_##SFX = (MM_MC / MR_##SFX) * MR_##SFX };                                           \
    typedef CT_##SFX ct_##SFX;                                                                     \
    ST_LEVELS(DEF_PACK_ISA, SFX, T)                                                                \
    /* the block kernel per level: 64-byte vectors where AVX-512 has them, */                      \
    /* 32-byte ones below (GCC splits 64-byte vectors through the stack there) */                  \
    DEF_BLOCK(SFX, T, block_##SFX##_v4, 64, ST_ATTR_V4)                                            \
    DEF_BLOCK(SFX, T, block_##SFX##_v3, 32, ST_ATTR_V3)                                            \
    DEF_BLOCK(SFX, T, block_##SFX##_v0, 32, )                                                      \
    static mm_scratch scratch_##SFX(const mm_geom *g)                                              \
    {                                                                                              \
        int64_t kc = g->k < MM_KC ? g->k : MM_KC;                                                  \
        int64_t mc = g->n < MC_E_##SFX ? g->n : MC_E_##SFX;                                        \
        int64_t nc = g->m < MM_NC ? g->m : MM_NC;                                                  \
        mc = (mc + MR_##SFX - 1) / MR_##SFX * MR_##SFX;                                            \
        nc = (nc + NR_##SFX - 1) / NR_##SFX * NR_##SFX;                                            \
        mm_scratch s = {(mc * kc * (int64_t)sizeof(ct_##SFX) + 63) & ~(int64_t)63,                 \
                        (nc * kc * (int64_t)sizeof(ct_##SFX) + 63) & ~(int64_t)63};                \
        return s;                                                                                  \
    }                                                                                              \
    /* One product.  nt > 1: row blocks split across nt threads, thread t      \
     * packing a into ap + t * a_bytes; bp is shared. */                   \
    static void gemm_##SFX(const mm_geom *g, char *ap, char *bp, int nt)                           \
    {                                                                                              \
        mm_scratch s = scratch_##SFX(g);                                                           \
        int64_t nblocks = (g->n + MC_E_##SFX - 1) / MC_E_##SFX;                                    \
        if (nt > nblocks) nt = (int)nblocks;                                                       \
        if (nt <= 1) {                                                                             \
            for (int64_t jc = 0; jc < g->m; jc += MM_NC) {                                         \
                int64_t nc = g->m - jc < MM_NC ? g->m - jc : MM_NC;                                \
                int64_t npan = (nc + NR_##SFX - 1) / NR_##SFX;                                     \
                for (int64_t pc = 0; pc < g->k; pc += MM_KC) {                                     \
                    int64_t kc = g->k - pc < MM_KC ? g->k - pc : MM_KC;                            \
                    ST_PICK(pack_b_##SFX)(g, pc, kc, jc, nc, 0, npan, (ct_##SFX *)bp);             \
                    for (int64_t ic = 0; ic < g->n; ic += MC_E_##SFX) {                            \
                        int64_t mc = g->n - ic < MC_E_##SFX ? g->n - ic : MC_E_##SFX;              \
                        ST_PICK(pack_a_##SFX)(g, ic, mc, pc, kc, (ct_##SFX *)ap);                  \
                        ST_PICK(block_##SFX)(g, ic, mc, jc, nc, kc, pc == 0, (const ct_##SFX *)ap, \
                                             (const ct_##SFX *)bp);                                \
                    }                                                                              \
                }                                                                                  \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        /* dynamic schedules: a thread descheduled on a busy machine does not  \
         * hold the others up at the barriers */                   \
        _Pragma("omp parallel num_threads(nt)")                                                    \
        {                                                                                          \
            ct_##SFX *mine = (ct_##SFX *)(ap + omp_get_thread_num() * s.a_bytes);                  \
            for (int64_t jc = 0; jc < g->m; jc += MM_NC) {                                         \
                int64_t nc = g->m - jc < MM_NC ? g->m - jc : MM_NC;                                \
                int64_t npan = (nc + NR_##SFX - 1) / NR_##SFX;                                     \
                for (int64_t pc = 0; pc < g->k; pc += MM_KC) {                                     \
                    int64_t kc = g->k - pc < MM_KC ? g->k - pc : MM_KC;                            \
                    _Pragma("omp for schedule(dynamic, 8)")                                        \
                    for (int64_t pj = 0; pj < npan; pj++)                                          \
                        ST_PICK(pack_b_##SFX)(g, pc, kc, jc, nc, pj, pj + 1, (ct_##SFX *)bp);      \
                    _Pragma("omp for schedule(dynamic, 1)")                                        \
                    for (int64_t blk = 0; blk < nblocks; blk++) {                                  \
                        int64_t ic = blk * MC_E_##SFX;                                             \
                        int64_t mc = g->n - ic < MC_E_##SFX ? g->n - ic : MC_E_##SFX;              \
                        ST_PICK(pack_a_##SFX)(g, ic, mc, pc, kc, mine);                            \
                        ST_PICK(block_##SFX)(g, ic, mc, jc, nc, kc, pc == 0, mine,                 \
                                             (const ct_##SFX *)bp);                                \
                    }                                                                              \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }

ST_TYPES_ALL(DEF_GEMM)

/* ---- BLAS: float32, float64, complex64, complex128 ---------------------
 * These types go to OpenBLAS's ?gemm.  CBLAS reads a matrix through one
 * leading dimension: it needs a unit stride along rows or columns, the
 * other stride at least the extent of that dim.  blas_view() says how BLAS
 * can read a matrix as it lies; one that it cannot (negative, zero or two
 * non-unit strides) is first packed into a contiguous row-major copy.  The
 * output is written directly when it is row- or column-major (then CBLAS
 * runs in column-major order, op flags flipped), otherwise through a
 * contiguous temporary copied back. */
static int mm_blas_dtype(int dtype) { return st_is_float(dtype) || st_is_complex(dtype); }

/* A rows x cols matrix with element strides rs, cs as CBLAS row-major
 * operand: *trans = 0 (stored as is, ld = rs) or 1 (stored transposed,
 * ld = cs).  A size-1 dim is never stepped, so its stride may be anything.
 * 0 when BLAS cannot read it in place. */
static int blas_view(int64_t rows, int64_t cols, int64_t rs, int64_t cs, int *trans, int64_t *ld)
{
    int64_t rmin = rows > 1 ? rows : 1, cmin = cols > 1 ? cols : 1;
    if ((cols == 1 || cs == 1) && (rows == 1 || rs >= cmin)) {
        *trans = 0;
        *ld = rows == 1 ? cmin : rs;
    } else if ((rows == 1 || rs == 1) && (cols == 1 || cs >= rmin)) {
        *trans = 1;
        *ld = cols == 1 ? rmin : cs;
    } else {
        return 0;
    }
    return st_fits_int(*ld);
}

typedef struct {
    int ta, tb; /* row-major op flags of a and b: 1 = stored transposed */
    int64_t lda, ldb, ldc;
    int copy_a, copy_b; /* packed into a contiguous row-major scratch copy first */
    int c_mode;         /* 0: c row-major, 1: c column-major, 2: through a temporary */
    int64_t bytes;      /* scratch one product needs */
} mm_blas_plan;

/* The plan for products of g's geometry (every item of a batch shares it);
 * 0 when a size does not fit BLAS's 32-bit integers (then our own kernel). */
static int blas_plan(const mm_geom *g, int64_t item, mm_blas_plan *p)
{
    int64_t n = g->n, m = g->m, k = g->k;
    if (!st_fits_int(n) || !st_fits_int(m) || !st_fits_int(k)) return 0;
    int64_t nk, km, nm;
    if (__builtin_mul_overflow(n, k, &nk) || __builtin_mul_overflow(k, m, &km) ||
        __builtin_mul_overflow(n, m, &nm))
        return 0;
    memset(p, 0, sizeof *p);
    p->copy_a = !blas_view(n, k, g->rsa, g->csa, &p->ta, &p->lda);
    if (p->copy_a) p->ta = 0, p->lda = k > 1 ? k : 1;
    p->copy_b = !blas_view(k, m, g->rsb, g->csb, &p->tb, &p->ldb);
    if (p->copy_b) p->tb = 0, p->ldb = m > 1 ? m : 1;
    int tc;
    int64_t ldc;
    if (blas_view(n, m, g->rsc, g->csc, &tc, &ldc)) {
        p->c_mode = tc;
        p->ldc = ldc;
    } else {
        p->c_mode = 2;
        p->ldc = m > 1 ? m : 1;
    }
    int64_t elems = (p->copy_a ? nk : 0) + (p->copy_b ? km : 0) + (p->c_mode == 2 ? nm : 0);
    if (__builtin_mul_overflow(elems, item, &p->bytes)) return 0;
    p->bytes = (p->bytes + 63) & ~(int64_t)63;
    return st_fits_int(p->lda) && st_fits_int(p->ldb) && st_fits_int(p->ldc);
}

/* a @ a^T and a^T @ a (b the same memory as a, transposed: X.T @ X of a
 * covariance or a Gram matrix) are ?syrk: one triangle, half gemm's
 * multiply-adds, mirrored to the other.  c must not be read (beta 0) and
 * must be row- or column-major: the product is symmetric, so either layout
 * holds the same values (CBLAS's row-major order is used for both). */
static int blas_is_syrk(const mm_geom *g, const mm_blas_plan *p, int beta_zero)
{
    return beta_zero && g->a == g->b && g->n == g->m && g->n > 1 && g->rsa == g->csb &&
           g->csa == g->rsb && !p->copy_a && !p->copy_b && p->c_mode != 2;
}

/* the strict lower triangle of the n x n row-major c (ld ldc) = the upper's mirror */
static void mirror_upper(char *c, int64_t ldc, int64_t n, int64_t item)
{
#define MIRROR_AS(T)                                                                               \
    do {                                                                                           \
        T *c_ = (T *)c;                                                                            \
        for (int64_t i = 1; i < n; i++)                                                            \
            for (int64_t j = 0; j < i; j++) c_[i * ldc + j] = c_[j * ldc + i];                     \
    } while (0)
    switch (item) {
    case 4:
        MIRROR_AS(float);
        break;
    case 8:
        MIRROR_AS(double);
        break;
    default:
        MIRROR_AS(st_c128);
        break;
    }
#undef MIRROR_AS
}

/* The upper triangle of c = alpha a a^T (rows lo..hi of it: a diagonal
 * block by ?syrk), unmirrored.  c is read in its row-major view (ld
 * p->ldc): symmetric, so either layout holds the same values. */
static void syrk_rows(int dtype, const mm_geom *g, const mm_blas_plan *p, const void *alpha,
                      int64_t lo, int64_t hi)
{
    /* a is n x k: as stored (c = A A^T) or stored transposed (c = A^T A) */
    enum CBLAS_TRANSPOSE t = p->ta ? CblasTrans : CblasNoTrans;
    int64_t item = st_itemsize(dtype);
    const void *a = g->a + lo * g->rsa * item;
    void *c = g->c + (lo * p->ldc + lo) * item;
    int N = (int)(hi - lo), K = (int)g->k, lda = (int)p->lda, ldc = (int)p->ldc;
    switch (dtype) {
    case ST_FLOAT32:
        scipy_cblas_ssyrk(CblasRowMajor, CblasUpper, t, N, K, *(const float *)alpha,
                          (const float *)a, lda, 0.0f, (float *)c, ldc);
        break;
    case ST_FLOAT64:
        scipy_cblas_dsyrk(CblasRowMajor, CblasUpper, t, N, K, *(const double *)alpha,
                          (const double *)a, lda, 0.0, (double *)c, ldc);
        break;
    case ST_COMPLEX64: {
        static const st_c64 zero64 = 0;
        scipy_cblas_csyrk(CblasRowMajor, CblasUpper, t, N, K, alpha, a, lda, &zero64, c, ldc);
        break;
    }
    case ST_COMPLEX128: {
        static const st_c128 zero128 = 0;
        scipy_cblas_zsyrk(CblasRowMajor, CblasUpper, t, N, K, alpha, a, lda, &zero128, c, ldc);
        break;
    }
    }
}

/* A real product with one column (m == 1) or one row (n == 1) of a
 * row-major c, by ?gemv: ?gemm packs a whole panel of the matrix for one
 * vector (x @ w on 20000 x 200 float64: 2.8 ms by dgemm on two bands, the
 * matrix read at memory speed by dgemv).  0 when not such a product. */
static int gemv_one(int dtype, const mm_geom *g, const mm_blas_plan *p, const char *A,
                    const char *B, char *C, const void *alpha, const void *beta, int beta_zero)
{
    if ((dtype != ST_FLOAT32 && dtype != ST_FLOAT64) || p->c_mode == 1 || (g->m != 1 && g->n != 1))
        return 0;
    enum CBLAS_TRANSPOSE t;
    const char *mat, *vec;
    int rows, cols, ld, incx, incy;
    if (g->m == 1) { /* c[:, 0] = op(a) b[:, 0] */
        mat = A, vec = B, ld = (int)p->lda;
        t = p->ta ? CblasTrans : CblasNoTrans;
        rows = (int)(p->ta ? g->k : g->n), cols = (int)(p->ta ? g->n : g->k);
        incx = p->tb ? 1 : (int)p->ldb, incy = (int)p->ldc;
    } else { /* c[0, :] = a[0, :] op(b) = (op(b)^T a[0, :]^T)^T */
        mat = B, vec = A, ld = (int)p->ldb;
        t = p->tb ? CblasNoTrans : CblasTrans;
        rows = (int)(p->tb ? g->m : g->k), cols = (int)(p->tb ? g->k : g->m);
        incx = p->ta ? (int)p->lda : 1, incy = 1;
    }
    if (dtype == ST_FLOAT64)
        scipy_cblas_dgemv(CblasRowMajor, t, rows, cols, *(const double *)alpha, (const double *)mat,
                          ld, (const double *)vec, incx, beta_zero ? 0.0 : *(const double *)beta,
                          (double *)C, incy);
    else
        scipy_cblas_sgemv(CblasRowMajor, t, rows, cols, *(const float *)alpha, (const float *)mat,
                          ld, (const float *)vec, incx, beta_zero ? 0.0f : *(const float *)beta,
                          (float *)C, incy);
    return 1;
}

/* c = alpha a b + beta c for one product by ?gemm (beta_zero: c is not read). */
static void gemm_one(int dtype, const mm_geom *g, const mm_blas_plan *p, char *scratch,
                     const void *alpha, const void *beta, int beta_zero)
{
    int64_t item = st_itemsize(dtype), n = g->n, m = g->m, k = g->k;
    const char *A = g->a, *B = g->b;
    char *C = g->c, *s = scratch;
    if (p->copy_a) {
        st_copy2d(s, p->lda, 1, g->a, g->rsa, g->csa, n, k, item);
        A = s;
        s += n * p->lda * item; /* its rows lda apart (a band: the whole product's lda) */
    }
    if (p->copy_b) {
        st_copy2d(s, p->ldb, 1, g->b, g->rsb, g->csb, k, m, item);
        B = s;
        s += k * p->ldb * item; /* a band of columns keeps the whole product's ldb */
    }
    if (p->c_mode == 2) {
        if (!beta_zero) st_copy2d(s, p->ldc, 1, g->c, g->rsc, g->csc, n, m, item);
        C = s;
    }
    if (gemv_one(dtype, g, p, A, B, C, alpha, beta, beta_zero)) {
        if (p->c_mode == 2) st_copy2d(g->c, g->rsc, g->csc, C, p->ldc, 1, n, m, item);
        return;
    }
    /* a column-major c is the same product in CBLAS's column-major order,
     * where "stored as is" and "stored transposed" swap meanings */
    enum CBLAS_ORDER order = p->c_mode == 1 ? CblasColMajor : CblasRowMajor;
    int flip = p->c_mode == 1;
    enum CBLAS_TRANSPOSE ta = (p->ta ^ flip) ? CblasTrans : CblasNoTrans;
    enum CBLAS_TRANSPOSE tb = (p->tb ^ flip) ? CblasTrans : CblasNoTrans;
    int N = (int)n, M = (int)m, K = (int)k, lda = (int)p->lda, ldb = (int)p->ldb, ldc = (int)p->ldc;
    switch (dtype) {
    case ST_FLOAT32:
        scipy_cblas_sgemm(order, ta, tb, N, M, K, *(const float *)alpha, (const float *)A, lda,
                          (const float *)B, ldb, beta_zero ? 0.0f : *(const float *)beta,
                          (float *)C, ldc);
        break;
    case ST_FLOAT64:
        scipy_cblas_dgemm(order, ta, tb, N, M, K, *(const double *)alpha, (const double *)A, lda,
                          (const double *)B, ldb, beta_zero ? 0.0 : *(const double *)beta,
                          (double *)C, ldc);
        break;
    case ST_COMPLEX64: {
        static const st_c64 zero64 = 0;
        scipy_cblas_cgemm(order, ta, tb, N, M, K, alpha, A, lda, B, ldb,
                          beta_zero ? (const void *)&zero64 : beta, C, ldc);
        break;
    }
    case ST_COMPLEX128: {
        static const st_c128 zero128 = 0;
        scipy_cblas_zgemm(order, ta, tb, N, M, K, alpha, A, lda, B, ldb,
                          beta_zero ? (const void *)&zero128 : beta, C, ldc);
        break;
    }
    }
    if (p->c_mode == 2) st_copy2d(g->c, g->rsc, g->csc, C, p->ldc, 1, n, m, item);
}

/* ---- the dtype switch: BLAS types are handled before it (mm_batch_blas) */
static mm_scratch gemm_scratch(int dtype, const mm_geom *g)
{
    switch (dtype) {
#define CASE_SCRATCH(CODE, SFX, T, R, ...)                                                         \
    case CODE:                                                                                     \
        return scratch_##SFX(g);
        ST_TYPES_ALL(CASE_SCRATCH)
#undef CASE_SCRATCH
    }
    mm_scratch none = {0, 0};
    return none;
}

/* c = a @ b for one product of `dtype` (n, m, k > 0) on our own kernel.
 * ap holds nt packed-a blocks, bp one packed-b block (gemm_scratch).
 * float32/64 and complex reach it only when a size exceeds BLAS's 32-bit
 * integers. */
static void gemm_2d(int dtype, const mm_geom *g, char *ap, char *bp, int nt)
{
    switch (dtype) {
#define CASE_GEMM(CODE, SFX, T, R, ...)                                                            \
    case CODE:                                                                                     \
        gemm_##SFX(g, ap, bp, nt);                                                                 \
        return;
        ST_TYPES_ALL(CASE_GEMM)
#undef CASE_GEMM
    }
}

/* ---- out = beta out + alpha t (addmm's scaling, own-kernel types) ----- */
typedef struct {
    char alpha[16], beta[16];
    int beta_zero;
} mm_axpby;

#define DEF_AXPBY(CODE, SFX, T, R, ...)                                                            \
    static void axpby_##SFX(char **args_, const int64_t *n, const int64_t *s_, void *extra)        \
    {                                                                                              \
        ST_LOCAL_ARGS(2)                                                                           \
        const mm_axpby *x = (const mm_axpby *)extra;                                               \
        CT_##SFX al = (CT_##SFX) * (const T *)x->alpha, be = (CT_##SFX) * (const T *)x->beta;      \
        for (int64_t i = 0; i < *n; i++) {                                                         \
            T *o = (T *)(args[0] + i * s[0]);                                                      \
            CT_##SFX t = (CT_##SFX) * (const T *)(args[1] + i * s[1]);                             \
            *o = x->beta_zero ? (T)(al * t) : (T)(be * (CT_##SFX) * o + al * t);                   \
        }                                                                                          \
    }
ST_TYPES_NUMERIC(DEF_AXPBY)

/* out = beta out + alpha t; t NULL: a zero product (k == 0) */
static st_status mm_combine(st_tensor *out, const st_tensor *t, const mm_axpby *x)
{
    if (!t) {
        if (x->beta_zero) {
            char zero[16] = {0};
            return st_fill(out, zero);
        }
        st_tensor *z = st_tensor_temp_like(out, out->dtype);
        if (!z) return st_last_status();
        char zero[16] = {0};
        st_status rc = st_fill(z, zero);
        if (!rc) rc = mm_combine(out, z, x);
        st_tensor_free(z);
        return rc;
    }
    st_loop_fn loop = NULL;
    switch (out->dtype) {
#define CASE_AXPBY(CODE, SFX, T, R, ...)                                                           \
    case CODE:                                                                                     \
        loop = axpby_##SFX;                                                                        \
        break;
        ST_TYPES_NUMERIC(CASE_AXPBY)
#undef CASE_AXPBY
    }
    st_iter it;
    const st_tensor *ops[2] = {out, t};
    st_status rc = st_iter_init(&it, 2, ops, 0);
    if (rc) return rc;
    st_iter_run(&it, loop, (void *)x, 0);
    return ST_OK;
}

/* ---- the batched entry point ---------------------------------------- */
static void shape_of(char *buf, size_t len, const st_tensor *t)
{
    st_shape_str(buf, len, t->ndim, t->sizes);
}

/* batch geometry: item `idx` of the broadcast batch, as a 2-D product */
typedef struct {
    int nbat;
    int64_t size[ST_MAX_DIMS], sa[ST_MAX_DIMS], sb[ST_MAX_DIMS], so[ST_MAX_DIMS];
    int64_t item;
} mm_batch;

static void item_geom(const mm_batch *bt, const mm_geom *g0, int64_t idx, mm_geom *g)
{
    int64_t oa = 0, ob = 0, oo = 0;
    for (int d = bt->nbat - 1; d >= 0; d--) {
        int64_t i = idx % bt->size[d];
        idx /= bt->size[d];
        oa += i * bt->sa[d];
        ob += i * bt->sb[d];
        oo += i * bt->so[d];
    }
    *g = *g0;
    g->a += oa * bt->item;
    g->b += ob * bt->item;
    g->c += oo * bt->item;
}

/* The edge of band t of nt over len rows (or columns): equal counts, or
 * (tri) equal areas of an upper triangle, whose row r holds len - r
 * elements.  Rounded to 16, so that two threads' columns share no cache
 * line. */
static int64_t band_edge(int64_t len, int t, int nt, int tri)
{
    if (t >= nt) return len;
    double f = (double)t / nt, e = tri ? (double)len * (1.0 - sqrt(1.0 - f)) : (double)len * f;
    int64_t r = (int64_t)(e + 8.0) / 16 * 16;
    return r < len ? r : len;
}

/* One product, split into nbands bands of rows (or of columns, when it
 * is wider than tall), each a single-threaded BLAS call on one of our
 * threads.  a a^T and a^T a are ?syrk (blas_is_syrk): a band of rows of
 * the upper triangle is a diagonal block by ?syrk and the rectangle right
 * of it by ?gemm, band edges balancing the triangle's areas; the lower
 * triangle is mirrored once all bands are done.  Every element is one
 * band's, computed as a whole product computes it. */
static void blas_product(int dtype, const mm_geom *g, const mm_blas_plan *p, char *scratch,
                         const void *alpha, const void *beta, int beta_zero, int nbands)
{
    int64_t item = st_itemsize(dtype);
    int syrk = blas_is_syrk(g, p, beta_zero);
    if (!syrk && nbands == 1) {
        gemm_one(dtype, g, p, scratch, alpha, beta, beta_zero);
        return;
    }
    int by_rows = syrk || g->n >= g->m;
    int64_t len = by_rows ? g->n : g->m;
#pragma omp parallel for num_threads(nbands) schedule(static, 1) if (nbands > 1)
    for (int t = 0; t < nbands; t++) {
        int64_t lo = band_edge(len, t, nbands, syrk), hi = band_edge(len, t + 1, nbands, syrk);
        if (hi <= lo) continue;
        char *s = scratch ? scratch + t * p->bytes : NULL;
        mm_geom b = *g;
        if (syrk) {
            syrk_rows(dtype, g, p, alpha, lo, hi);
            if (hi == len) continue;
            /* rows lo..hi of a times columns hi.. of b (a^T), into c's row-major view */
            mm_blas_plan r = *p;
            r.c_mode = 0;
            b.n = hi - lo;
            b.m = len - hi;
            b.a += lo * g->rsa * item;
            b.b += hi * g->csb * item;
            b.c += (lo * p->ldc + hi) * item;
            b.rsc = p->ldc;
            b.csc = 1;
            gemm_one(dtype, &b, &r, s, alpha, beta, 1);
        } else if (by_rows) {
            b.n = hi - lo;
            b.a += lo * g->rsa * item;
            b.c += lo * g->rsc * item;
            gemm_one(dtype, &b, p, s, alpha, beta, beta_zero);
        } else {
            b.m = hi - lo;
            b.b += lo * g->csb * item;
            b.c += lo * g->csc * item;
            gemm_one(dtype, &b, p, s, alpha, beta, beta_zero);
        }
    }
    if (syrk) mirror_upper(g->c, p->ldc, g->n, item);
}

/* Every product of the batch through BLAS (plan p), on our threads only.
 * OpenBLAS is held to one thread throughout (st_blas_single_begin): its
 * own pool would compete with ours for the cores, each pool's idle
 * threads spinning while the other works (an elementwise op right after a
 * product, or a product right after one, ran 10-40x slower on 2 cores). */
static st_status mm_batch_blas(int dtype, const mm_geom *g0, const mm_batch *bt, int64_t nitems,
                               const mm_blas_plan *p, const void *alpha, const void *beta,
                               int beta_zero)
{
    /* products small enough for OpenBLAS to run on one thread are shared
     * out over ours; so are middle-sized ones (up to ST_BLAS_BATCH_WORK)
     * when the batch fills our threads evenly enough; larger ones, or too
     * few, run in turn, each split into bands over our threads */
    double work = (double)g0->n * (double)g0->m * (double)g0->k;
    int want = st_get_num_threads();
    if (want > ST_BLAS_MAX_CALLERS) want = ST_BLAS_MAX_CALLERS;
    int nt = 1, nbands = 1;
    if (work <= ST_BLAS_SMALL_WORK && nitems > 1) {
        double total = work * (double)nitems / 4;
        nt = st_threads_for(total > (double)INT64_MAX ? INT64_MAX : (int64_t)total);
        if (nt > want) nt = want;
        if (nt > nitems) nt = (int)nitems;
    } else if (work <= ST_BLAS_BATCH_WORK && nitems > 1) {
        /* rounds of one product per thread; at least 80% of the threads'
         * time busy (3 products on 2 threads would leave one idle a
         * third of the time: then each product is split instead) */
        int64_t rounds = (nitems + want - 1) / want;
        if (want > 1 && nitems >= want && (double)rounds * want * 0.8 <= (double)nitems) nt = want;
    }
    if (nt == 1 && work > ST_BLAS_SMALL_WORK) {
        /* bands of at least 16 rows (or columns) */
        int64_t len = g0->n >= g0->m ? g0->n : g0->m;
        nbands = len / 16 < want ? (int)(len / 16) : want;
        if (nbands < 1) nbands = 1;
    }
    int callers = nt > nbands ? nt : nbands;
    char *scratch = NULL;
    if (p->bytes) {
        int64_t total;
        if (__builtin_mul_overflow(p->bytes, (int64_t)callers, &total) ||
            !(scratch = st_aligned_alloc(total)))
            return st_fail(ST_E_MEMORY, "matmul: cannot allocate %lld bytes of scratch",
                           (long long)p->bytes * callers);
    }
    st_blas_single_begin();
    if (nt > 1) {
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
        for (int64_t it = 0; it < nitems; it++) {
            mm_geom g;
            item_geom(bt, g0, it, &g);
            blas_product(dtype, &g, p, scratch ? scratch + omp_get_thread_num() * p->bytes : NULL,
                         alpha, beta, beta_zero, 1);
        }
    } else {
        /* not inside an inactive parallel region: a band split's team
         * would then be a nested one, which libgomp starts afresh instead
         * of waking its pool's threads (and those, still spinning after
         * the last kernel, compete with it) */
        for (int64_t it = 0; it < nitems; it++) {
            mm_geom g;
            item_geom(bt, g0, it, &g);
            blas_product(dtype, &g, p, scratch, alpha, beta, beta_zero, nbands);
        }
    }
    st_blas_single_end();
    st_aligned_free(scratch);
    return ST_OK;
}

/* every product of the batch on our own kernel (out = a @ b) */
static st_status mm_batch_own(int dtype, const mm_geom *g0, const mm_batch *bt, int64_t nitems)
{
    int64_t n = g0->n, m = g0->m, k = g0->k;
    /* threads: work = multiply-adds */
    int64_t work = n * m;
    if (__builtin_mul_overflow(work, k, &work) || __builtin_mul_overflow(work, nitems, &work))
        work = INT64_MAX;
    int nt = st_threads_for(work / 4);
    mm_scratch s = gemm_scratch(dtype, g0);
    int per_item = nitems >= nt || n <= MM_MC; /* one product per thread */
    if (nitems < nt && per_item) nt = (int)nitems;
    if (nt < 1) nt = 1;
    /* scratch: per thread a packed-a block; one shared packed-b block, or
     * one per thread when threads take whole products */
    int64_t nb_bufs = per_item ? nt : 1;
    char *scratch = st_aligned_alloc(s.a_bytes * nt + s.b_bytes * nb_bufs);
    if (!scratch)
        return st_fail(ST_E_MEMORY, "matmul: cannot allocate %lld bytes of scratch",
                       (long long)(s.a_bytes * nt + s.b_bytes * nb_bufs));
    char *bp0 = scratch + s.a_bytes * nt;
    if (per_item) {
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1) if (nt > 1)
        for (int64_t it = 0; it < nitems; it++) {
            int t = omp_get_thread_num();
            mm_geom g;
            item_geom(bt, g0, it, &g);
            gemm_2d(dtype, &g, scratch + t * s.a_bytes, bp0 + t * s.b_bytes, 1);
        }
    } else {
        for (int64_t it = 0; it < nitems; it++) {
            mm_geom g;
            item_geom(bt, g0, it, &g);
            gemm_2d(dtype, &g, scratch, bp0, nt);
        }
    }
    st_aligned_free(scratch);
    return ST_OK;
}

/* ---- a vector times a matrix of contiguous rows: c = alpha a b + beta c ----
 * (x @ W, g @ X: a gradient's product with the data.)  ?gemv reads such a
 * matrix by columns of the transposed problem; split over threads by
 * columns, every thread reads part of every row (g @ x on 20000 x 200
 * float64: 1.07 ms on two bands against numpy's 0.83, its OpenBLAS being
 * faster on one thread too).  Here each row is read once, in order, and
 * added, times its weight, into a row of accumulators: the rows are cut
 * into chunks whose number the shape fixes (VM_* below), each chunk folds
 * its rows into private accumulators in row order, and the chunks' sums
 * are added in chunk order, so no bit depends on the thread count.  Columns
 * are taken VM_TILE at a time, the accumulators staying in L1 (a column's
 * order of additions is the same for every tile width). */
#define VM_TILE 1024                      /* columns of accumulators in L1 at a time */
#define VM_MIN_ROWS 64                    /* rows a chunk has at least */
#define VM_MAX_CHUNKS 64                  /* chunks at most */
#define VM_MAX_SCRATCH ((int64_t)4 << 20) /* bytes of private accumulators at most */

#define DEF_VECMAT(SFX, T)                                                                         \
    /* acc[0:cols] += sum over rows i of a[i * sa] * b[i * rsb + 0:cols], in row order */          \
    ST_LEVEL_BODY void vecmat_##SFX(T *restrict acc, const T *restrict a, int64_t sa,              \
                                    const T *restrict b, int64_t rsb, int64_t rows, int64_t cols)  \
    {                                                                                              \
        int64_t i = 0;                                                                             \
        for (; i + 4 <= rows; i += 4) {                                                            \
            const T a0 = a[i * sa], a1 = a[(i + 1) * sa], a2 = a[(i + 2) * sa],                    \
                    a3 = a[(i + 3) * sa];                                                          \
            const T *r0 = b + i * rsb, *r1 = r0 + rsb, *r2 = r1 + rsb, *r3 = r2 + rsb;             \
            for (int64_t j = 0; j < cols; j++)                                                     \
                acc[j] = (((acc[j] + a0 * r0[j]) + a1 * r1[j]) + a2 * r2[j]) + a3 * r3[j];         \
        }                                                                                          \
        for (; i < rows; i++) {                                                                    \
            const T ai = a[i * sa], *r = b + i * rsb;                                              \
            for (int64_t j = 0; j < cols; j++) acc[j] += ai * r[j];                                \
        }                                                                                          \
    }                                                                                              \
    ST_LEVEL_FN(vecmat_##SFX,                                                                      \
                (T *restrict acc, const T *restrict a, int64_t sa, const T *restrict b,            \
                 int64_t rsb, int64_t rows, int64_t cols),                                         \
                (acc, a, sa, b, rsb, rows, cols))                                                  \
                                                                                                   \
    /* c[j] = alpha (sum of the chunks' accumulators, in chunk order) + beta c[j] */               \
    static void vecmat_sum_##SFX(T *c, int64_t csc, const T *parts, int64_t nchunks, int64_t m,    \
                                 int64_t j0, int64_t j1, const mm_axpby *x)                        \
    {                                                                                              \
        const T al = x ? *(const T *)x->alpha : 1,                                                 \
                be = x && !x->beta_zero ? *(const T *)x->beta : 0;                                 \
        for (int64_t j = j0; j < j1; j++) {                                                        \
            T s = parts[j];                                                                        \
            for (int64_t t = 1; t < nchunks; t++) s += parts[t * m + j];                           \
            c[j * csc] = be != 0 ? al * s + be * c[j * csc] : al * s;                              \
        }                                                                                          \
    }
DEF_VECMAT(f32, float)
DEF_VECMAT(f64, double)

/* Is this one product a real vector (n == 1) times a matrix of contiguous
 * rows, wide enough (m >= 8) for rows of accumulators to pay? */
static int vecmat_fits(int dtype, const mm_geom *g, int64_t nitems)
{
    return nitems == 1 && (dtype == ST_FLOAT32 || dtype == ST_FLOAT64) && g->n == 1 &&
           g->csb == 1 && g->m >= 8;
}

static st_status vecmat(int dtype, const mm_geom *g, const mm_axpby *x)
{
    const int64_t k = g->k, m = g->m, item = st_itemsize(dtype);
    const int64_t work = k > INT64_MAX / m ? INT64_MAX : k * m;
    int64_t nchunks = work / ST_PARALLEL_GRAIN;
    if (nchunks > k / VM_MIN_ROWS) nchunks = k / VM_MIN_ROWS;
    if (nchunks > VM_MAX_CHUNKS) nchunks = VM_MAX_CHUNKS;
    while (nchunks > 1 && nchunks * m * item > VM_MAX_SCRATCH) nchunks /= 2;
    if (nchunks < 1) nchunks = 1;
    const int nt = st_threads_for(work);
    /* too few chunks for the threads: each chunk's columns in pieces too */
    int64_t pieces = nchunks >= 2 * nt ? 1 : (2 * nt + nchunks - 1) / nchunks;
    if (pieces > (m + VM_TILE - 1) / VM_TILE) pieces = (m + VM_TILE - 1) / VM_TILE;
    if (pieces < 1) pieces = 1;
    char *parts = st_aligned_alloc(nchunks * m * item);
    if (!parts)
        return st_fail(ST_E_MEMORY, "matmul: cannot allocate %lld bytes of accumulators",
                       (long long)(nchunks * m * item));
    const int64_t tasks = nchunks * pieces;
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
#pragma omp for schedule(dynamic, 1)
        for (int64_t t = 0; t < tasks; t++) {
            const int64_t ch = t / pieces, pc = t % pieces;
            const int64_t r0 = k * ch / nchunks, r1 = k * (ch + 1) / nchunks;
            const int64_t c0 = m * pc / pieces, c1 = m * (pc + 1) / pieces;
            for (int64_t j = c0; j < c1; j += VM_TILE) {
                const int64_t w = c1 - j < VM_TILE ? c1 - j : VM_TILE;
                char *acc = parts + (ch * m + j) * item;
                memset(acc, 0, (size_t)(w * item));
                const char *a = g->a + r0 * g->csa * item, *b = g->b + (r0 * g->rsb + j) * item;
                if (dtype == ST_FLOAT64)
                    ST_PICK(vecmat_f64)((double *)acc, (const double *)a, g->csa, (const double *)b,
                                        g->rsb, r1 - r0, w);
                else
                    ST_PICK(vecmat_f32)((float *)acc, (const float *)a, g->csa, (const float *)b,
                                        g->rsb, r1 - r0, w);
            }
        }
#pragma omp for schedule(static)
        for (int64_t pc = 0; pc < pieces; pc++) {
            const int64_t c0 = m * pc / pieces, c1 = m * (pc + 1) / pieces;
            if (dtype == ST_FLOAT64)
                vecmat_sum_f64((double *)g->c, g->csc, (const double *)parts, nchunks, m, c0, c1,
                               x);
            else
                vecmat_sum_f32((float *)g->c, g->csc, (const float *)parts, nchunks, m, c0, c1, x);
        }
    }
    st_aligned_free(parts);
    return ST_OK;
}

/* out = alpha (a @ b) + beta out; x NULL: alpha 1, beta 0 (plain matmul) */
static st_status mm_run(const char *fn, st_tensor *out, const st_tensor *a, const st_tensor *b,
                        const mm_axpby *x)
{
    st_status rc;
    char sa[256], sb[256], so[256];
    if (a->ndim < 2 || b->ndim < 2) {
        const st_tensor *t = a->ndim < 2 ? a : b;
        shape_of(sa, sizeof sa, t);
        return st_fail(ST_E_VALUE,
                       "%s: %s has shape %s; operands must have at least 2 "
                       "dims (1-D promotion belongs to the caller)",
                       fn, t == a ? "a" : "b", sa);
    }
    if (a->dtype != b->dtype || out->dtype != a->dtype)
        return st_fail(ST_E_TYPE, "%s: a, b and out must have one dtype, got %s, %s and %s", fn,
                       st_dtype_name(a->dtype), st_dtype_name(b->dtype), st_dtype_name(out->dtype));
    if (!st_is_math_type(a->dtype))
        return st_fail(ST_E_TYPE, "%s is not defined for %s", fn, st_dtype_name(a->dtype));
    if (x && a->dtype == ST_BOOL)
        return st_fail(ST_E_TYPE, "%s: alpha and beta need a numeric dtype, got bool", fn);
    int64_t n = a->sizes[a->ndim - 2], k = a->sizes[a->ndim - 1];
    int64_t kb = b->sizes[b->ndim - 2], m = b->sizes[b->ndim - 1];
    if (k != kb) {
        shape_of(sa, sizeof sa, a);
        shape_of(sb, sizeof sb, b);
        return st_fail(ST_E_VALUE,
                       "%s: a %s and b %s: a's last dim (%lld) must equal "
                       "b's second-to-last (%lld)",
                       fn, sa, sb, (long long)k, (long long)kb);
    }
    /* batch dims, right-aligned, broadcast */
    mm_batch bt;
    int nba = a->ndim - 2, nbb = b->ndim - 2, nbat = nba > nbb ? nba : nbb;
    bt.nbat = nbat;
    bt.item = st_itemsize(a->dtype);
    for (int d = 0; d < nbat; d++) {
        int da = d - (nbat - nba), db = d - (nbat - nbb);
        int64_t na = da >= 0 ? a->sizes[da] : 1, nb = db >= 0 ? b->sizes[db] : 1;
        if (na != nb && na != 1 && nb != 1) {
            shape_of(sa, sizeof sa, a);
            shape_of(sb, sizeof sb, b);
            return st_fail(ST_E_VALUE,
                           "%s: batch dims of a %s and b %s do not broadcast: "
                           "%lld vs %lld at batch dim %d",
                           fn, sa, sb, (long long)na, (long long)nb, d);
        }
        bt.size[d] = na == 1 ? nb : na;
        bt.sa[d] = da >= 0 && na != 1 ? a->strides[da] : 0;
        bt.sb[d] = db >= 0 && nb != 1 ? b->strides[db] : 0;
    }
    int bad = out->ndim != nbat + 2;
    for (int d = 0; d < nbat && !bad; d++) bad = out->sizes[d] != bt.size[d];
    if (!bad) bad = out->sizes[nbat] != n || out->sizes[nbat + 1] != m;
    if (bad) {
        int64_t want[ST_MAX_DIMS];
        for (int d = 0; d < nbat; d++) want[d] = bt.size[d];
        want[nbat] = n;
        want[nbat + 1] = m;
        shape_of(so, sizeof so, out);
        st_shape_str(sa, sizeof sa, nbat + 2, want);
        return st_fail(ST_E_VALUE, "%s: out has shape %s, expected %s", fn, so, sa);
    }
    if ((rc = st_check_writable(out, "matmul output"))) return rc;
    if ((rc = st_check_storage(a, "matmul input a"))) return rc;
    if ((rc = st_check_storage(b, "matmul input b"))) return rc;
    int64_t nout = st_tensor_numel(out);
    if (nout == 0) return ST_OK;
    /* an output that shares memory with an input, or whose elements alias
     * (a zero stride), is computed into a temporary and combined */
    int alias = 0;
    for (int d = 0; d < out->ndim; d++) alias |= out->sizes[d] > 1 && out->strides[d] == 0;
    if (alias || st_tensor_shares_memory(out, a) || st_tensor_shares_memory(out, b)) {
        st_tensor *tmp = st_tensor_temp_like(out, out->dtype);
        if (!tmp) return st_last_status();
        rc = mm_run(fn, tmp, a, b, NULL);
        if (!rc) rc = x ? mm_combine(out, tmp, x) : st_copy(out, tmp);
        st_tensor_free(tmp);
        return rc;
    }
    if (k == 0) {
        if (!x) {
            char zero[16] = {0};
            return st_fill(out, zero);
        }
        return mm_combine(out, NULL, x);
    }
    for (int d = 0; d < nbat; d++) bt.so[d] = out->strides[d];
    int64_t nitems = nout / (n * m);
    mm_geom g0 = {n,
                  m,
                  k,
                  (const char *)st_tensor_data(a),
                  a->strides[nba],
                  a->strides[nba + 1],
                  (const char *)st_tensor_data(b),
                  b->strides[nbb],
                  b->strides[nbb + 1],
                  (char *)st_tensor_data(out),
                  out->strides[nbat],
                  out->strides[nbat + 1]};
    int dtype = a->dtype;
    if (vecmat_fits(dtype, &g0, nitems)) return vecmat(dtype, &g0, x);
    mm_blas_plan plan;
    if (mm_blas_dtype(dtype) && blas_plan(&g0, bt.item, &plan)) {
        static const double one64 = 1.0;
        static const float one32 = 1.0f;
        static const st_c64 onec64 = 1.0f;
        static const st_c128 onec128 = 1.0;
        const void *one = dtype == ST_FLOAT32     ? (const void *)&one32
                          : dtype == ST_FLOAT64   ? (const void *)&one64
                          : dtype == ST_COMPLEX64 ? (const void *)&onec64
                                                  : (const void *)&onec128;
        return mm_batch_blas(dtype, &g0, &bt, nitems, &plan, x ? x->alpha : one, x ? x->beta : NULL,
                             x ? x->beta_zero : 1);
    }
    if (!x) return mm_batch_own(dtype, &g0, &bt, nitems);
    /* our kernel has no alpha and beta: the product goes to a temporary */
    st_tensor *tmp = st_tensor_temp_like(out, out->dtype);
    if (!tmp) return st_last_status();
    rc = mm_run(fn, tmp, a, b, NULL);
    if (!rc) rc = mm_combine(out, tmp, x);
    st_tensor_free(tmp);
    return rc;
}

/* 16-bit floats: the product of float32 copies (sgemm: float32
 * accumulation), rounded once (half.c); addmm's alpha and beta in float32 */
typedef struct {
    float alpha, beta;
} addmm_args;
static st_status matmul_f32(st_tensor **outs, const st_tensor **ins, void *ctx)
{
    if (!ctx) return st_matmul(outs[0], ins[0], ins[1]);
    const addmm_args *x = ctx;
    st_status rc = st_copy(outs[0], ins[2]); /* out's values, for beta */
    return rc ? rc : st_addmm(outs[0], ins[0], ins[1], &x->alpha, &x->beta);
}

static int all_half(const st_tensor *out, const st_tensor *a, const st_tensor *b)
{
    return st_is_half(out->dtype) && a->dtype == out->dtype && b->dtype == out->dtype;
}

st_status st_matmul(st_tensor *out, const st_tensor *a, const st_tensor *b)
{
    if (all_half(out, a, b)) {
        const st_tensor *ins[2] = {a, b};
        return st_via_float32(matmul_f32, NULL, 1, &out, 2, ins);
    }
    return mm_run("matmul", out, a, b, NULL);
}

/* beta == 0 in the element type (for floats -0.0 too, as BLAS compares) */
static int is_zero(int dtype, const void *v)
{
    switch (dtype) {
#define CASE_ZERO(CODE, SFX, T, R, ...)                                                            \
    case CODE:                                                                                     \
        return *(const T *)v == 0;
        ST_TYPES_NUMERIC(CASE_ZERO)
#undef CASE_ZERO
    }
    return 0;
}

st_status st_addmm(st_tensor *out, const st_tensor *a, const st_tensor *b, const void *alpha,
                   const void *beta)
{
    if (!alpha || !beta) return st_fail(ST_E_VALUE, "addmm: alpha and beta must be given");
    if (all_half(out, a, b)) {
        uint16_t al, be;
        memcpy(&al, alpha, 2);
        memcpy(&be, beta, 2);
        addmm_args x = out->dtype == ST_FLOAT16
                           ? (addmm_args){st_f16_to_f32(al), st_f16_to_f32(be)}
                           : (addmm_args){st_bf16_to_f32(al), st_bf16_to_f32(be)};
        const st_tensor *ins[3] = {a, b, out};
        return st_via_float32(matmul_f32, &x, 1, &out, 3, ins);
    }
    if (!st_is_math_type(out->dtype))
        return st_fail(ST_E_TYPE, "addmm is not defined for %s", st_dtype_name(out->dtype));
    mm_axpby x;
    int64_t item = st_itemsize(out->dtype);
    memset(&x, 0, sizeof x);
    memcpy(x.alpha, alpha, (size_t)item);
    memcpy(x.beta, beta, (size_t)item);
    x.beta_zero = out->dtype != ST_BOOL && is_zero(out->dtype, beta);
    return mm_run("addmm", out, a, b, &x);
}
