# Status reporting and verbose output (oneDNN's verbose.cpp and dnnl_debug.cpp):
# the verbose level, why the last call of a thread failed, the version, and
# the names of enum values.

from dnnl_c.core.types cimport *

cdef enum:
    VERBOSE_CHECK = 1
    VERBOSE_CREATE = 2
    VERBOSE_EXEC = 4
    ERR_LEN = 1024

cdef int verbose_level() noexcept nogil
# Records why a call fails and returns its status (printed at check level).
cdef dnnl_status_t fail(dnnl_status_t status, const char *msg) noexcept nogil
# This thread's message buffer (ERR_LEN bytes): format into it, then fail().
cdef char *err_buf() noexcept nogil
# While quiet (a per-thread count), fail() neither records nor prints: for
# trying implementations internally, where a rejection is not an error.
cdef void quiet(bint on) noexcept nogil
# While dispatching, fail() records but does not print: the implementation
# walk prints its own create:dispatch lines.
cdef void set_dispatching(bint on) noexcept nogil

cdef const char *cydnnl_last_error() noexcept nogil
cdef void cydnnl_clear_error() noexcept nogil
cdef dnnl_status_t dnnl_set_verbose(int level) noexcept nogil
cdef dnnl_status_t dnnl_verbose_profiling_enabled(int *enabled) noexcept nogil
cdef const dnnl_version_t *dnnl_version() noexcept nogil

cdef const char *dnnl_status2str(dnnl_status_t v) noexcept nogil
cdef const char *dnnl_dt2str(dnnl_data_type_t v) noexcept nogil
cdef const char *dnnl_fmt_kind2str(dnnl_format_kind_t v) noexcept nogil
cdef const char *dnnl_fmt_tag2str(dnnl_format_tag_t v) noexcept nogil
cdef const char *dnnl_prop_kind2str(dnnl_prop_kind_t v) noexcept nogil
cdef const char *dnnl_prim_kind2str(dnnl_primitive_kind_t v) noexcept nogil
cdef const char *dnnl_alg_kind2str(dnnl_alg_kind_t v) noexcept nogil
cdef const char *dnnl_engine_kind2str(dnnl_engine_kind_t v) noexcept nogil
cdef const char *dnnl_rnn_direction2str(dnnl_rnn_direction_t v) noexcept nogil
cdef const char *dnnl_rnn_flags2str(dnnl_rnn_flags_t v) noexcept nogil
cdef const char *dnnl_scratchpad_mode2str(dnnl_scratchpad_mode_t v) noexcept nogil
cdef const char *dnnl_fpmath_mode2str(dnnl_fpmath_mode_t v) noexcept nogil
cdef const char *dnnl_query2str(dnnl_query_t v) noexcept nogil
