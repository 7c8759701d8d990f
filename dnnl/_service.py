"""oneDNN's service functions (dnnl.hpp's "Service" section): version,
verbose, and the CPU ISA controls."""

import dnnl_c as c
from dnnl._enums import cpu_isa, cpu_isa_hints
from dnnl._error import error


def version():
    """oneDNN's dnnl::version(): the version struct of the oneDNN API this
    library implements (major, minor, patch, hash, cpu_runtime, gpu_runtime)."""
    return c.dnnl_version()


def set_verbose(level):
    """oneDNN's dnnl::set_verbose: 0 (off), 1 (errors and a line per
    execution) or 2 (and a line per primitive creation); replaces what
    ONEDNN_VERBOSE set. The lines are oneDNN's (see README, Verbose)."""
    error.wrap_c_api(c.dnnl_set_verbose(level), "could not set verbose mode")


def set_max_cpu_isa(isa):
    """oneDNN's dnnl::set_max_cpu_isa: the highest cpu_isa the library may
    dispatch to (cpu_isa.isa_default: no limit). Works once, before the first
    primitive descriptor is created; raises dnnl.error (invalid_arguments)
    afterwards or for a value that is not a cpu_isa."""
    error.wrap_c_api(c.dnnl_set_max_cpu_isa(isa), "could not set max cpu isa")


def get_effective_cpu_isa():
    """oneDNN's dnnl::get_effective_cpu_isa: the cpu_isa the library runs at
    (the highest the CPU and the limit allow). Fixes the limit."""
    return cpu_isa(c.dnnl_get_effective_cpu_isa())


def set_cpu_isa_hints(isa_hints):
    """oneDNN's dnnl::set_cpu_isa_hints: works once, before the first
    primitive descriptor is created; raises dnnl.error (runtime_error)
    afterwards."""
    error.wrap_c_api(c.dnnl_set_cpu_isa_hints(isa_hints), "could not set cpu isa hints")


def get_cpu_isa_hints():
    """oneDNN's dnnl::get_cpu_isa_hints. Fixes the hints."""
    return cpu_isa_hints(c.dnnl_get_cpu_isa_hints())
