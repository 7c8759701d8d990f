# Backward data's col2im for channels-first diff_src by phases of the stride
# (kernels/include/col2im_phases.h), and backward data without col2im where
# the level has bf16 dot products (kernels/include/bwd_data_direct.h), per
# ISA level (kernels/isa/convolution_isa.c).

from libc.stdint cimport int64_t, uint16_t, uint32_t

cdef extern from "kernels/include/col2im_isa.h" nogil:
    ctypedef struct col2im_w_t "cydnnl_col2im_w_t":
        int64_t na          # sums per phase row; an input row has sw of them
        int64_t pst         # the row pass's floats from a phase row to the next (na)
    void col2im_w_init "cydnnl_col2im_w_init"(col2im_w_t *g, int64_t ow, int64_t iw, int64_t kw,
                                              int64_t sw, int64_t dw, int64_t pw) noexcept
    ctypedef struct bdd_t "cydnnl_bdd_t":
        int64_t xs          # the flat grid's row
        int64_t flat        # positions of a phase on the grid
        int64_t len         # packed dY: u32 an oc pair
        int64_t rows        # dY's rows packed
        int64_t top         # zero rows above them
        int64_t ocp         # oc pairs
        int64_t plane       # floats of a phase and channel's sums
    # channels, sizes, taps, strides, top/left paddings (dense)
    void bdd_init "cydnnl_bdd_init"(bdd_t *g, int64_t ic, int64_t oc, int64_t ih, int64_t iw,
                                    int64_t oh, int64_t ow, int64_t kh, int64_t kw, int64_t sh,
                                    int64_t sw, int64_t ph, int64_t pw) noexcept
    int64_t bdd_wei_len "cydnnl_bdd_wei_len"(const bdd_t *g) noexcept
    int64_t bdd_out_len "cydnnl_bdd_out_len"(const bdd_t *g) noexcept
    ctypedef struct col2im_kernels_t "cydnnl_col2im_kernels_t":
        # nrows rows sharing columns o0 .. o0 + n - 1 (row j's kw taps at
        # col + j * cstep, ldk apart; col at o0) into the phase rows of the
        # input rows they land on, pstep floats apart
        void (*add_rows)(const col2im_w_t *g, float *phases, int64_t pstep, const float *col,
                         int64_t cstep, int64_t ldk, int64_t o0, int64_t n,
                         int64_t nrows) noexcept nogil
        # an input row (iw floats) from its phase rows
        void (*row)(const col2im_w_t *g, const float *phases, float *row) noexcept nogil
        # stride 4's into a bf16 row, 0 for other strides (NULL below AVX-512)
        int (*row4_bf16)(const col2im_w_t *g, const float *phases, uint16_t *row) noexcept nogil
        # without col2im (NULL at levels without vdpbf16ps): W (oc, ic, kh,
        # kw) packed; rows y0 .. y1 - 1 of dY (channels cs apart, pixels ps
        # apart) packed, the zeros around with the first and last; flat
        # positions p0 .. p1 - 1 of every phase and channel into out, asking
        # for pf_len bytes from pf into cache meanwhile (pf NULL: none)
        void (*direct_pack_wei)(const bdd_t *g, const uint16_t *w, uint32_t *wp) noexcept nogil
        void (*direct_pack_dy)(const bdd_t *g, const uint16_t *dy, int64_t cs, int64_t ps,
                               uint32_t *dyp, int64_t y0, int64_t y1) noexcept nogil
        void (*direct_span)(const bdd_t *g, const uint32_t *wp, const uint32_t *dyp, float *out,
                            int64_t p0, int64_t p1, const char *pf, int64_t pf_len) noexcept nogil
    # NULL for a level the build lacks
    const col2im_kernels_t *col2im_kernels_for "cydnnl_col2im_kernels_for"(int level)
