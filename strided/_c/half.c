/* half.c -- the kernel families that take the 16-bit floats (float16,
 * bfloat16) through float32 copies: reductions, cumulative sums,
 * argmax/argmin, the matrix product, sort.  Each 16-bit input is widened
 * into a float32 temporary (exact), the float32 kernel runs, and each
 * 16-bit output is computed into a float32 temporary and rounded back
 * once: sums and products accumulate in float32 (as PyTorch does), a
 * product of matrices too (BLAS's sgemm).  (Elementwise ops widen a block
 * at a time instead, elementwise.c's run_blocks: no full-size temporary.) */
#include "st_internal.h"

#define VIA_MAX 4

st_status st_via_float32(st_f32_fn fn, void *ctx, int nout, st_tensor *const *outs, int nin,
                         const st_tensor *const *ins)
{
    st_tensor *wide_in[VIA_MAX] = {0}, *wide_out[VIA_MAX] = {0}, *o[VIA_MAX] = {0};
    const st_tensor *in[VIA_MAX] = {0};
    st_status rc = ST_OK;
    for (int k = 0; k < nout && !rc; k++) {
        o[k] = outs[k];
        if (outs[k] && st_is_half(outs[k]->dtype)) {
            if ((rc = st_check_writable(outs[k], "output"))) break;
            if (!(wide_out[k] = st_tensor_temp_like(outs[k], ST_FLOAT32))) rc = st_last_status();
            o[k] = wide_out[k];
        }
    }
    for (int k = 0; k < nin && !rc; k++) {
        in[k] = ins[k];
        if (ins[k] && st_is_half(ins[k]->dtype)) {
            if ((rc = st_check_storage(ins[k], "input"))) break;
            if (!(wide_in[k] = st_tensor_temp_like(ins[k], ST_FLOAT32)))
                rc = st_last_status();
            else
                rc = st_copy(wide_in[k], ins[k]);
            in[k] = wide_in[k];
        }
    }
    if (!rc) rc = fn(o, in, ctx);
    for (int k = 0; k < nout && !rc; k++)
        if (wide_out[k]) rc = st_copy(outs[k], wide_out[k]);
    for (int k = 0; k < VIA_MAX; k++) {
        st_tensor_free(wide_in[k]);
        st_tensor_free(wide_out[k]);
    }
    return rc;
}
