# The core's ISA helpers as an implementation's init calls them (cimported
# from dnnl_c.core, as a primitive family does).

from dnnl_c.core.cpu_isa cimport cpu_isa_detected, cpu_isa_effective, cpu_isa_has
from dnnl_c.dnnl_types cimport dnnl_cpu_isa_t


def detected():
    return <int>cpu_isa_detected()


def effective():
    return <int>cpu_isa_effective()


def has(level):
    return bool(cpu_isa_has(<dnnl_cpu_isa_t><int>level))
