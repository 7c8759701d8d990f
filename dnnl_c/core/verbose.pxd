# Status reporting and verbose output (oneDNN's verbose.cpp and dnnl_debug.cpp):
# the verbose settings (ONEDNN_VERBOSE, ONEDNN_VERBOSE_TIMESTAMP,
# dnnl_set_verbose), the info header, the lines' common prefix, why the last
# call of a thread failed, the version, and the names of enum values. What a
# primitive's line says is in pd_info.pyx.

from dnnl_c.core.types cimport *

# oneDNN's verbose_t flags (the same bits as 3.13's verbose.hpp).
cdef enum:
    VERBOSE_ERROR = 1 << 2
    VERBOSE_CREATE_CHECK = 1 << 3
    VERBOSE_CREATE_DISPATCH = 1 << 4
    VERBOSE_CREATE_PROFILE = 1 << 5
    VERBOSE_EXEC_CHECK = 1 << 6
    VERBOSE_EXEC_PROFILE = 1 << 7
    VERBOSE_PROFILE_EXTERNALS = 1 << 8
    VERBOSE_WARN = 1 << 9
    VERBOSE_LEVEL1 = VERBOSE_ERROR | VERBOSE_EXEC_PROFILE | VERBOSE_WARN
    VERBOSE_LEVEL2 = VERBOSE_LEVEL1 | VERBOSE_CREATE_PROFILE
    ERR_LEN = 1024

# The flags of `flag` that are on (ONEDNN_VERBOSE, or dnnl_set_verbose).
cdef unsigned get_verbose(unsigned flag) noexcept nogil
# The same for a primitive kind's lines: nothing when ONEDNN_VERBOSE's
# filter=REGEX leaves the kind out.
cdef unsigned get_verbose_kind(unsigned flag, dnnl_primitive_kind_t kind) noexcept nogil
# ONEDNN_VERBOSE_TIMESTAMP: lines carry the time they started at.
cdef bint verbose_timestamp() noexcept nogil
# Prints "onednn_verbose,v1,[<stamp_ms>,]<line>" (the stamp when timestamps
# are on), after the info header if it is the first line.
cdef void verbose_emit(const char *line, double stamp_ms) noexcept nogil
# fail() for what oneDNN reports as a runtime error rather than a failed
# check (an engine that does not exist): an error line,
# "common,error,<component>,<msg>", printed unless ONEDNN_VERBOSE is 0/none.
cdef dnnl_status_t fail_error(dnnl_status_t status, const char *component,
                              const char *msg) noexcept nogil
# The description of the ISA the library runs at, for the header ("Intel
# AVX2"); cpu_isa.pyx registers it (it sits above this module).
ctypedef const char *(*isa_info_fn)() noexcept nogil
cdef void verbose_set_isa_info(isa_info_fn fn) noexcept nogil

# Records why a call fails and returns its status (printed as a
# create:check or exec:check line when ONEDNN_VERBOSE has check).
cdef dnnl_status_t fail(dnnl_status_t status, const char *msg) noexcept nogil
# This thread's message buffer (ERR_LEN bytes): format into it, then fail().
cdef char *err_buf() noexcept nogil
# While quiet (a per-thread count), fail() neither records nor prints: for
# trying implementations internally, where a rejection is not an error.
cdef void quiet(bint on) noexcept nogil
# While dispatching, fail() records but does not print: the implementation
# walk prints its own create:dispatch lines.
cdef void set_dispatching(bint on) noexcept nogil
# While executing, what fails is an exec:check, not a create:check.
cdef void set_executing(bint on) noexcept nogil

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
cdef const char *dnnl_runtime2str(unsigned v) noexcept nogil
