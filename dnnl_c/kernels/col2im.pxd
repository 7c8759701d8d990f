# Backward data's col2im for channels-first diff_src by phases of the stride
# (kernels/include/col2im_phases.h), per ISA level (kernels/isa/convolution_isa.c).

from libc.stdint cimport int64_t

cdef extern from "kernels/include/col2im_isa.h" nogil:
    ctypedef struct col2im_w_t "cydnnl_col2im_w_t":
        int64_t na          # sums per phase row; an input row has sw of them
    void col2im_w_init "cydnnl_col2im_w_init"(col2im_w_t *g, int64_t ow, int64_t iw, int64_t kw,
                                              int64_t sw, int64_t dw, int64_t pw) noexcept
    ctypedef struct col2im_kernels_t "cydnnl_col2im_kernels_t":
        # nrows rows sharing columns o0 .. o0 + n - 1 (row j's kw taps at
        # col + j * cstep, ldk apart; col at o0) into the phase rows of the
        # input rows they land on, pstep floats apart
        void (*add_rows)(const col2im_w_t *g, float *phases, int64_t pstep, const float *col,
                         int64_t cstep, int64_t ldk, int64_t o0, int64_t n,
                         int64_t nrows) noexcept nogil
        # an input row (iw floats) from its phase rows
        void (*row)(const col2im_w_t *g, const float *phases, float *row) noexcept nogil
    # NULL for a level the build lacks
    const col2im_kernels_t *col2im_kernels_for "cydnnl_col2im_kernels_for"(int level)
