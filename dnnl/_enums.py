"""The C++ API's enum classes built from the C enums (dnnl::status,
prop_kind, algorithm, query, rnn_direction, rnn_flags, cpu_isa,
cpu_isa_hints), and _enum(), which the classes with nested enums
(engine::kind, memory::data_type, ...) use."""

from enum import IntEnum

import dnnl_c as c
from dnnl_c._constants import ENUMS, SENTINELS


def _enum(name, ctype, strip, renames=None, extra=None):
    members = {}
    for cname, value in ENUMS[ctype].items():
        if cname in SENTINELS:
            continue
        short = (renames or {}).get(cname)
        if short is None:
            short = cname[len(strip):] if cname.startswith(strip) else cname
        members[short] = value
    members.update(extra or {})
    return IntEnum(name, members)


status = _enum("status", "dnnl_status_t", "dnnl_")
prop_kind = _enum("prop_kind", "dnnl_prop_kind_t", "dnnl_",
                  {"dnnl_prop_kind_undef": "undef"})
algorithm = _enum("algorithm", "dnnl_alg_kind_t", "dnnl_",
                  {"dnnl_alg_kind_undef": "undef"})
query = _enum("query", "dnnl_query_t", "dnnl_query_")
rnn_direction = _enum("rnn_direction", "dnnl_rnn_direction_t", "dnnl_",
                      {"dnnl_rnn_direction_undef": "undef"},
                      extra={"unidirectional": c.dnnl_unidirectional_left2right})
rnn_flags = _enum("rnn_flags", "dnnl_rnn_flags_t", "dnnl_rnn_flags_")
# dnnl.hpp's service section: aliases (avx512_core_fp16 = avx10_1_512, ...)
# are IntEnum aliases of the same member.
cpu_isa = _enum("cpu_isa", "dnnl_cpu_isa_t", "dnnl_cpu_isa_",
                {"dnnl_cpu_isa_default": "isa_default"})
cpu_isa_hints = _enum("cpu_isa_hints", "dnnl_cpu_isa_hints_t", "dnnl_cpu_isa_")
# dnnl::primitive::kind (defined here so that post_ops, below primitive, can name it)
primitive_kind = _enum("kind", "dnnl_primitive_kind_t", "dnnl_",
                       {"dnnl_undefined_primitive": "undef"})
