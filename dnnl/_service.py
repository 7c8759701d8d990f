"""oneDNN's service functions (dnnl.hpp's "Service" section): version and
verbose."""

import dnnl_c as c
from dnnl._error import error


def version():
    """oneDNN's dnnl::version(): the version struct of the oneDNN API this
    library implements (major, minor, patch, hash, cpu_runtime, gpu_runtime)."""
    return c.dnnl_version()


def set_verbose(level):
    """oneDNN's dnnl::set_verbose: 0 (off), 1 (execution) or 2 (creation too)."""
    error.wrap_c_api(c.dnnl_set_verbose(level), "could not set verbose mode")
