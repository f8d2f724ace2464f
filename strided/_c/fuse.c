/* fuse.c -- fused elementwise expressions: st_fuse (strided.h).
 *
 * `a * b + c` evaluated op by op reads a and b, writes a full-size
 * temporary (fresh pages: the kernel zeroes each on first touch), then
 * reads it back with c and writes the result.  A fused program instead
 * runs every instruction on one block of FUSE_BLOCK elements before the
 * next block: inputs are read in place, intermediate values live in
 * per-thread register buffers that stay in L1, and only the last
 * instruction writes memory that outlives the block.  Each instruction is
 * the op's own kernel (st_unary_loop, st_binary_loop, st_cast_loop), so a
 * fused result is bit for bit the unfused one.
 *
 * The walk is the N-d iterator's (iter.c), for up to ST_FUSE_MAX_INPUTS
 * inputs: size-1 dims dropped, dims ordered by the output's strides,
 * merged where every operand is contiguous across them; the elements are
 * split into one range per thread, each walked line by line, each line
 * block by block. */
#include "st_internal.h"
#include <stdlib.h>

#define FUSE_BLOCK 512   /* elements per block: 4 KB of float64 */
#define FUSE_ITEM_MAX 16 /* the widest element (complex128) */
#define REG_BYTES ((int64_t)FUSE_BLOCK * FUSE_ITEM_MAX)
#define NOP_MAX (ST_FUSE_MAX_ARRAYS + 1)

/* The walk's operands are the output and the inputs of more than one
 * element; an input of one element (a constant, a 0-d array) is read in
 * place with step 0 at every element and takes no operand. */
typedef struct {
    int nop;  /* the output, then the inputs with steps */
    int ndim; /* >= 1 */
    int64_t numel;
    int64_t size[ST_MAX_DIMS];          /* outermost first */
    int64_t step[ST_MAX_DIMS][NOP_MAX]; /* bytes */
    char *data[NOP_MAX];
    int operand_of[ST_FUSE_MAX_INPUTS]; /* input k -> its operand, or -1: one element */
    char *single[ST_FUSE_MAX_INPUTS];   /* input k's element when operand_of[k] < 0 */
} fuse_iter;

typedef struct {
    const st_fuse_instr *prog;
    int ninstr;
    st_loop_fn loop[ST_FUSE_MAX_INSTRS];
    int64_t reg_item[ST_FUSE_MAX_REGS]; /* the item size of each register's dtype */
    const fuse_iter *it;
    void *last_extra; /* ST_STREAM or NULL, for the last instruction */
    int err, err_at;  /* the first failure (a status) and where */
} fuse_ctx;

/* ---- checks ---- */
static st_status check_operand(const st_fuse_instr *in, int j, int r, int nin,
                               const st_tensor *const *ins, const int *reg_dtype)
{
    if (r >= 0) {
        if (r >= ST_FUSE_MAX_REGS || reg_dtype[r] < 0)
            return st_fail(ST_E_VALUE,
                           "fused instruction %d reads register %d before any "
                           "instruction writes it",
                           j, r);
        if (r == in->dst)
            return st_fail(ST_E_VALUE, "fused instruction %d writes register %d, which it reads", j,
                           r);
        if (reg_dtype[r] != in->dtype)
            return st_fail(ST_E_TYPE,
                           "fused instruction %d reads %s from register %d, which holds %s", j,
                           st_dtype_name(in->dtype), r, st_dtype_name(reg_dtype[r]));
        return ST_OK;
    }
    int k = -r - 1;
    if (k >= nin)
        return st_fail(ST_E_VALUE, "fused instruction %d reads input %d of %d", j, k, nin);
    if (ins[k]->dtype != in->dtype)
        return st_fail(ST_E_TYPE, "fused instruction %d reads %s from input %d, which is %s", j,
                       st_dtype_name(in->dtype), k, st_dtype_name(ins[k]->dtype));
    return ST_OK;
}

static st_status check_program(fuse_ctx *c, const st_tensor *out, int nin,
                               const st_tensor *const *ins)
{
    int reg_dtype[ST_FUSE_MAX_REGS];
    for (int r = 0; r < ST_FUSE_MAX_REGS; r++) reg_dtype[r] = -1;
    for (int j = 0; j < c->ninstr; j++) {
        const st_fuse_instr *in = &c->prog[j];
        const int last = j == c->ninstr - 1;
        if (last ? in->dst != -1 : (in->dst < 0 || in->dst >= ST_FUSE_MAX_REGS))
            return st_fail(ST_E_VALUE,
                           "fused instruction %d writes %d: the last instruction "
                           "writes the output (-1), the others a register in "
                           "[0, %d)",
                           j, in->dst, ST_FUSE_MAX_REGS);
        if (in->dtype < 0 || in->dtype >= ST_NTYPES || in->res < 0 || in->res >= ST_NTYPES)
            return st_fail(ST_E_VALUE, "fused instruction %d has dtype codes %d -> %d", j,
                           in->dtype, in->res);
        st_status rc;
        if (in->kind == ST_FUSE_UNARY) {
            c->loop[j] = st_unary_result(in->op, in->dtype) == in->res
                             ? st_unary_loop(in->op, in->dtype)
                             : NULL;
        } else if (in->kind == ST_FUSE_BINARY) {
            c->loop[j] = st_binary_result(in->op, in->dtype) == in->res
                             ? st_binary_loop(in->op, in->dtype)
                             : NULL;
            if ((rc = check_operand(in, j, in->b, nin, ins, reg_dtype))) return rc;
        } else if (in->kind == ST_FUSE_CAST) {
            c->loop[j] = st_cast_loop(in->dtype, in->res);
        } else {
            return st_fail(ST_E_VALUE, "fused instruction %d has kind %d", j, in->kind);
        }
        if (!c->loop[j])
            return st_fail(ST_E_TYPE, "fused instruction %d: no %s kernel %d from %s to %s", j,
                           in->kind == ST_FUSE_CAST ? "cast" : "op", in->op,
                           st_dtype_name(in->dtype), st_dtype_name(in->res));
        if ((rc = check_operand(in, j, in->a, nin, ins, reg_dtype))) return rc;
        if (!last) {
            reg_dtype[in->dst] = in->res;
            c->reg_item[in->dst] = st_itemsize(in->res);
        }
    }
    const st_fuse_instr *fin = &c->prog[c->ninstr - 1];
    if (out->dtype != fin->res)
        return st_fail(ST_E_TYPE, "the fused program gives %s, the output is %s",
                       st_dtype_name(fin->res), st_dtype_name(out->dtype));
    return ST_OK;
}

/* ---- the walk ---- */
static st_status iter_init(fuse_iter *it, const st_tensor *out, int nin,
                           const st_tensor *const *ins)
{
    const int nd = out->ndim;
    int nop = 1;
    it->numel = st_tensor_numel(out);
    it->data[0] = st_tensor_data(out);
    for (int k = 0; k < nin; k++) {
        const st_tensor *t = ins[k];
        for (int d = 0; d < t->ndim; d++) {
            int od = d + nd - t->ndim;
            int64_t want = od >= 0 ? out->sizes[od] : 1;
            if (t->sizes[d] != 1 && t->sizes[d] != want) {
                char ts[256], os[256];
                st_shape_str(ts, sizeof ts, t->ndim, t->sizes);
                st_shape_str(os, sizeof os, out->ndim, out->sizes);
                return st_fail(ST_E_VALUE,
                               "fused input %d of shape %s does not broadcast to "
                               "the output's shape %s",
                               k, ts, os);
            }
        }
        if (st_tensor_numel(t) == 1) {
            it->operand_of[k] = -1;
            it->single[k] = st_tensor_data(t);
            continue;
        }
        if (nop == NOP_MAX)
            return st_fail(ST_E_VALUE,
                           "a fused expression reads at most %d arrays of more "
                           "than one element",
                           ST_FUSE_MAX_ARRAYS);
        it->operand_of[k] = nop;
        it->data[nop++] = st_tensor_data(t);
    }
    it->nop = nop;
    int m = 0;
    for (int d = 0; d < nd; d++) {
        if (out->sizes[d] == 1) continue;
        it->size[m] = out->sizes[d];
        it->step[m][0] = out->strides[d] * st_itemsize(out->dtype);
        for (int k = 0; k < nin; k++) {
            const st_tensor *t = ins[k];
            int td = d - (nd - t->ndim), o = it->operand_of[k];
            if (o > 0)
                it->step[m][o] =
                    (td < 0 || t->sizes[td] == 1) ? 0 : t->strides[td] * st_itemsize(t->dtype);
        }
        m++;
    }
    if (m == 0) { /* one element */
        it->size[0] = 1;
        for (int k = 0; k < nop; k++) it->step[0][k] = 0;
        m = 1;
    }
    /* the output's memory order, outermost first (insertion sort: stable) */
    for (int d = 1; d < m; d++) {
        for (int e = d; e > 0 && llabs(it->step[e - 1][0]) < llabs(it->step[e][0]); e--) {
            int64_t s = it->size[e];
            it->size[e] = it->size[e - 1];
            it->size[e - 1] = s;
            for (int k = 0; k < nop; k++) {
                s = it->step[e][k];
                it->step[e][k] = it->step[e - 1][k];
                it->step[e - 1][k] = s;
            }
        }
    }
    /* merge d into d - 1 where every operand is contiguous across them */
    int w = 0;
    for (int d = 1; d < m; d++) {
        int merge = 1;
        for (int k = 0; k < nop && merge; k++)
            merge = it->step[w][k] == it->step[d][k] * it->size[d];
        if (merge) {
            it->size[w] *= it->size[d];
            for (int k = 0; k < nop; k++) it->step[w][k] = it->step[d][k];
        } else {
            w++;
            it->size[w] = it->size[d];
            for (int k = 0; k < nop; k++) it->step[w][k] = it->step[d][k];
        }
    }
    it->ndim = w + 1;
    return ST_OK;
}

static void operand(int r, int64_t i0, char *const *ptr, const int64_t *istep, char *regs,
                    const fuse_ctx *c, char **arg, int64_t *step)
{
    if (r >= 0) {
        *arg = regs + r * REG_BYTES;
        *step = c->reg_item[r];
        return;
    }
    const int o = c->it->operand_of[-r - 1]; /* input k is -(k + 1) */
    if (o < 0) {
        *arg = c->it->single[-r - 1];
        *step = 0;
    } else {
        *arg = ptr[o] + i0 * istep[o];
        *step = istep[o];
    }
}

/* One line of m elements, operand k at ptr[k] with step istep[k]. */
static int run_line(fuse_ctx *c, char *const *ptr, const int64_t *istep, int64_t m, char *regs)
{
    for (int64_t i0 = 0; i0 < m; i0 += FUSE_BLOCK) {
        int64_t n = m - i0 < FUSE_BLOCK ? m - i0 : FUSE_BLOCK;
        for (int j = 0; j < c->ninstr; j++) {
            const st_fuse_instr *in = &c->prog[j];
            char *args[3];
            int64_t steps[3];
            if (in->dst < 0) {
                args[0] = ptr[0] + i0 * istep[0];
                steps[0] = istep[0];
            } else {
                args[0] = regs + in->dst * REG_BYTES;
                steps[0] = c->reg_item[in->dst];
            }
            operand(in->a, i0, ptr, istep, regs, c, &args[1], &steps[1]);
            if (in->kind == ST_FUSE_BINARY) {
                operand(in->b, i0, ptr, istep, regs, c, &args[2], &steps[2]);
                st_status rc = st_binary_block_check(in->op, in->dtype, args[2], n, steps[2]);
                if (rc) {
                    int none = 0;
                    if (__atomic_compare_exchange_n(&c->err, &none, (int)rc, 0, __ATOMIC_RELAXED,
                                                    __ATOMIC_RELAXED))
                        c->err_at = j;
                    return 0;
                }
            }
            c->loop[j](args, &n, steps, in->dst < 0 ? c->last_extra : NULL);
        }
    }
    return 1;
}

/* The elements [begin, end) in iteration order. */
static void run_range(fuse_ctx *c, const fuse_iter *it, int64_t begin, int64_t end, char *regs)
{
    const int nd = it->ndim, nop = it->nop, inner = nd - 1;
    int64_t idx[ST_MAX_DIMS], rem = begin;
    for (int d = nd - 1; d >= 0; d--) {
        idx[d] = rem % it->size[d];
        rem /= it->size[d];
    }
    char *ptr[NOP_MAX];
    for (int64_t pos = begin; pos < end;) {
        if (__atomic_load_n(&c->err, __ATOMIC_RELAXED)) return;
        for (int k = 0; k < nop; k++) {
            char *p = it->data[k];
            for (int d = 0; d < nd; d++) p += idx[d] * it->step[d][k];
            ptr[k] = p;
        }
        int64_t m = it->size[inner] - idx[inner];
        if (m > end - pos) m = end - pos;
        if (!run_line(c, ptr, it->step[inner], m, regs)) return;
        pos += m;
        idx[inner] += m;
        for (int d = inner; d > 0 && idx[d] >= it->size[d]; d--) {
            idx[d] = 0;
            idx[d - 1]++;
        }
    }
}

/* One thread's share: its register buffers, its range, its fence. */
static void run_share(fuse_ctx *c, const fuse_iter *it, int64_t begin, int64_t end, int nregs)
{
    char *regs = nregs ? st_aligned_alloc(nregs * REG_BYTES) : NULL;
    if (nregs && !regs) {
        int none = 0;
        __atomic_compare_exchange_n(&c->err, &none, (int)ST_E_MEMORY, 0, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED);
        return;
    }
    run_range(c, it, begin, end, regs);
    if (c->last_extra == ST_STREAM) ST_SFENCE();
    st_aligned_free(regs);
}

st_status st_fuse(st_tensor *out, int nin, const st_tensor *const *ins, int ninstr,
                  const st_fuse_instr *prog)
{
    if (!out || (nin && !ins) || !prog) return st_fail(ST_E_VALUE, "st_fuse: NULL argument");
    if (nin < 0 || nin > ST_FUSE_MAX_INPUTS)
        return st_fail(ST_E_VALUE, "a fused expression takes at most %d inputs, got %d",
                       ST_FUSE_MAX_INPUTS, nin);
    if (ninstr < 1 || ninstr > ST_FUSE_MAX_INSTRS)
        return st_fail(ST_E_VALUE, "a fused program has 1 to %d instructions, got %d",
                       ST_FUSE_MAX_INSTRS, ninstr);
    st_status rc;
    if ((rc = st_check_writable(out, "fused output"))) return rc;
    for (int k = 0; k < nin; k++) {
        if (!ins[k]) return st_fail(ST_E_VALUE, "st_fuse: input %d is NULL", k);
        if ((rc = st_check_storage(ins[k], "fused input"))) return rc;
        if (st_tensor_overlaps(out, ins[k]))
            return st_fail(ST_E_VALUE, "the fused output overlaps input %d", k);
    }
    fuse_ctx *c = malloc(sizeof *c);
    fuse_iter *it = malloc(sizeof *it);
    if (!c || !it) {
        free(c);
        free(it);
        return st_fail(ST_E_MEMORY, "out of memory for a fused program");
    }
    c->prog = prog;
    c->ninstr = ninstr;
    c->err = 0;
    c->err_at = -1;
    int nregs = 0;
    for (int j = 0; j < ninstr - 1; j++)
        if (prog[j].dst + 1 > nregs) nregs = prog[j].dst + 1;
    c->it = it;
    rc = check_program(c, out, nin, ins);
    if (!rc) rc = iter_init(it, out, nin, ins);
    if (!rc && it->numel > 0) {
        const int stream = st_stream_worth(out, nin, ins, NULL);
        c->last_extra = stream ? ST_STREAM : NULL;
        const int64_t total = it->numel;
        const int nt = st_threads_for(total);
        if (nt <= 1) {
            run_share(c, it, 0, total, nregs);
        } else {
#pragma omp parallel for num_threads(nt) schedule(static, 1)
            for (int t = 0; t < nt; t++) {
                /* edges rounded to 16 elements, as st_iter_run's */
                int64_t a = (total * t / nt) & ~(int64_t)15,
                        b = (total * (t + 1) / nt) & ~(int64_t)15;
                if (t == nt - 1) b = total;
                run_share(c, it, a, b, nregs);
            }
        }
        if (c->err == ST_E_MEMORY) {
            rc = st_fail(ST_E_MEMORY, "out of memory for the blocks of a fused program");
        } else if (c->err == ST_E_ZERODIV) {
            rc = st_fail(ST_E_ZERODIV, "integer %s by zero",
                         st_op_name(ST_OPS_BINARY, prog[c->err_at].op));
        } else if (c->err) {
            rc = st_fail(ST_E_VALUE, "integers to negative integer powers are not allowed");
        }
    }
    free(c);
    free(it);
    return rc;
}
