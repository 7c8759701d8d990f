# The generated enum tables (dnnl_c/_tables.h, from codegen/): names of
# every enum value and the blocking of every format tag.

cdef extern from "_tables.h" nogil:
    ctypedef struct cydnnl_tag_info_t:
        int ndims
        int order[12]
        int nblks
        int blks[12]
        int idxs[12]
        const char *name
    const cydnnl_tag_info_t cydnnl_tag_table[]
    int CYDNNL_N_TAGS
    const char *cydnnl_status2str(int)
    const char *cydnnl_dt2str(int)
    const char *cydnnl_fmt_kind2str(int)
    const char *cydnnl_fmt_tag2str(int)
    const char *cydnnl_prop_kind2str(int)
    const char *cydnnl_prim_kind2str(int)
    const char *cydnnl_alg_kind2str(int)
    const char *cydnnl_engine_kind2str(int)
    const char *cydnnl_rnn_direction2str(int)
    const char *cydnnl_rnn_flags2str(int)
    const char *cydnnl_scratchpad_mode2str(int)
    const char *cydnnl_fpmath_mode2str(int)
    const char *cydnnl_query2str(int)
