/* The LRN row kernels for one ISA level (setup.py compiles this file once
   per level; see kernels/include/cydnnl_isa.h). */
#include "kernels/include/lrn_kernels.h"

const cydnnl_lrn_kernels_t CYDNNL_ISA_FN(cydnnl_lrn_kernels) = {
    cydnnl_lrn_copy_f32, cydnnl_lrn_in_bf16, cydnnl_lrn_copy_f32, cydnnl_lrn_out_bf16,
    cydnnl_lrn_fwd_run, cydnnl_lrn_bwd_run1, cydnnl_lrn_bwd_run2, CYDNNL_LRN_BWD_DIRECT,
    CYDNNL_LRN_FWD_DIRECT,
};
