# The Python-level ISA controls: the maximal ISA the library may dispatch to
# and the ISA hints (oneDNN's dnnl_set_max_cpu_isa and friends), each settable
# once, before the first primitive descriptor reads it.

cimport dnnl_c.core as c
from dnnl_c.dnnl_types cimport *
from dnnl_c.api.handles cimport _bad, _enum


def dnnl_set_max_cpu_isa(isa):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_set_max_cpu_isa(<dnnl_cpu_isa_t>_enum(isa, "isa"))
    except Exception as err:
        return _bad(err)


def dnnl_get_effective_cpu_isa():
    return <int>c.dnnl_get_effective_cpu_isa()


def dnnl_set_cpu_isa_hints(isa_hints):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_set_cpu_isa_hints(<dnnl_cpu_isa_hints_t>_enum(isa_hints, "isa_hints"))
    except Exception as err:
        return _bad(err)


def dnnl_get_cpu_isa_hints():
    return <int>c.dnnl_get_cpu_isa_hints()


def cydnnl_cpu_isa_info(isa):
    """oneDNN's description of an ISA level ("Intel AVX2"), as its verbose
    output names the ISA it runs at."""
    try:
        return (<bytes>c.cpu_isa_info(<dnnl_cpu_isa_t>_enum(isa, "isa"))).decode()
    except Exception as err:
        _bad(err)
        return ""


def cydnnl_cpu_isa_has(isa):
    """oneDNN's mayiuse: 1 if the CPU has the ISA level `isa` and the ISA
    limit allows it (implementations compiled for it may run), else 0 (an int,
    as C's answer). Fixes the limit, as creating a primitive descriptor does."""
    try:
        return 1 if c.cpu_isa_has(<dnnl_cpu_isa_t>_enum(isa, "isa")) else 0
    except Exception as err:
        _bad(err)
        return 0
