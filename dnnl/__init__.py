"""oneDNN's C++ API for Python (dnnl.hpp): dnnl.engine, dnnl.stream,
dnnl.memory, dnnl.memory.desc, dnnl.reorder, the primitives and their
primitive_desc classes, and dnnl.error. Objects own their handles and
release them when the last reference goes. Built on dnnl_c.

As with dnnl.hpp, which includes dnnl.h, the C constants (DNNL_ARG_*,
dnnl_unimplemented, ...) are here too.
"""

from dnnl_c._constants import *  # noqa: F401,F403
from dnnl_c._version import __version__  # noqa: F401

# One private module per section of dnnl.hpp; each imports only modules above it here
# (_memory uses dnnl_c's reorder directly, as dnnl.reorder is built on memory). The
# module names differ from the class names so that dnnl.memory etc. stay the classes
# and `import dnnl._memory` gives the module.
from dnnl._error import error  # noqa: F401
from dnnl._enums import (algorithm, cpu_isa, cpu_isa_hints, prop_kind,  # noqa: F401
                         query, rnn_direction, rnn_flags, status)
from dnnl._service import (get_cpu_isa_hints, get_effective_cpu_isa,  # noqa: F401
                           get_default_fpmath_mode, get_primitive_cache_capacity,
                           set_cpu_isa_hints, set_default_fpmath_mode, set_jit_dump,
                           set_jit_profiling_flags, set_jit_profiling_jitdumpdir,
                           set_max_cpu_isa, set_primitive_cache_capacity, set_verbose,
                           verbose_profiling_enabled, version)
from dnnl._handle import handle  # noqa: F401
from dnnl._engine import engine  # noqa: F401
from dnnl._stream import stream  # noqa: F401
from dnnl._attr import (accumulation_mode, fpmath_mode, post_ops,  # noqa: F401
                        primitive_attr, quantization_mode, rounding_mode, scratchpad_mode)
from dnnl._memory_desc import desc as _desc  # noqa: F401 (dnnl.memory.desc)
from dnnl._memory import data_type_of, memory, numpy_dtype  # noqa: F401
from dnnl._primitive import primitive, primitive_desc, primitive_desc_base  # noqa: F401
from dnnl._reorder import reorder  # noqa: F401
from dnnl._eltwise import eltwise_backward, eltwise_forward  # noqa: F401
from dnnl._convolution import (convolution_backward_data,  # noqa: F401
                               convolution_backward_weights, convolution_forward)
from dnnl._lrn import lrn_backward, lrn_forward  # noqa: F401
from dnnl._pooling import pooling_backward, pooling_forward  # noqa: F401
from dnnl._rnn import lstm_backward, lstm_forward, rnn_primitive_desc_base  # noqa: F401
from dnnl._rnn_cells import (augru_backward, augru_forward, gru_backward,  # noqa: F401
                             gru_forward, lbr_augru_backward, lbr_augru_forward,
                             lbr_gru_backward, lbr_gru_forward, vanilla_rnn_backward,
                             vanilla_rnn_forward)
from dnnl._gemm import gemm_bf16bf16f32, gemm_s8s8s32, gemm_u8s8s32, sgemm  # noqa: F401
