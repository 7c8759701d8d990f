"""oneDNN's service functions (dnnl.hpp's "Service" and "Primitive cache"
sections): version, verbose, the default fpmath mode, the JIT-code settings,
the CPU ISA controls and the primitive cache capacity."""

import dnnl_c as c
from dnnl._attr import fpmath_mode
from dnnl._enums import cpu_isa, cpu_isa_hints, status
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


def verbose_profiling_enabled():
    """oneDNN's dnnl::verbose_profiling_enabled: whether verbose prints
    creation or execution times."""
    out = [None]
    error.wrap_c_api(c.dnnl_verbose_profiling_enabled(out),
                     "could not query verbose profiling")
    return bool(out[0])


def get_default_fpmath_mode():
    """oneDNN's dnnl::get_default_fpmath_mode: the fpmath mode new attributes
    start with (ONEDNN_DEFAULT_FPMATH_MODE, else strict)."""
    out = [None]
    error.wrap_c_api(c.dnnl_get_default_fpmath_mode(out), "could not get a default fpmath mode")
    return fpmath_mode(out[0])


def set_default_fpmath_mode(mode):
    """oneDNN's dnnl::set_default_fpmath_mode; returns a dnnl.status, as in C++."""
    return status(c.dnnl_set_default_fpmath_mode(mode))


# This library compiles its kernels ahead of time: there is no JIT code to
# dump or to profile, so these settings are kept and have nothing to act on.
def set_jit_dump(enable):
    """oneDNN's dnnl::set_jit_dump; returns a dnnl.status."""
    return status(c.dnnl_set_jit_dump(enable))


def set_jit_profiling_flags(flags):
    """oneDNN's dnnl::set_jit_profiling_flags; returns a dnnl.status."""
    return status(c.dnnl_set_jit_profiling_flags(flags))


def set_jit_profiling_jitdumpdir(dir):
    """oneDNN's dnnl::set_jit_profiling_jitdumpdir; returns a dnnl.status."""
    return status(c.dnnl_set_jit_profiling_jitdumpdir(dir))


def get_primitive_cache_capacity():
    """oneDNN's dnnl::get_primitive_cache_capacity: how many primitive
    implementations the primitive cache keeps (ONEDNN_PRIMITIVE_CACHE_CAPACITY,
    1024 by default)."""
    out = [None]
    error.wrap_c_api(c.dnnl_get_primitive_cache_capacity(out),
                     "could not get primitive cache capacity")
    return out[0]


def set_primitive_cache_capacity(capacity):
    """oneDNN's dnnl::set_primitive_cache_capacity: 0 turns the cache off;
    lowering it evicts the least recently used implementations."""
    error.wrap_c_api(c.dnnl_set_primitive_cache_capacity(capacity),
                     "could not set primitive cache capacity")


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
