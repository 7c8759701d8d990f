"""oneDNN's C++ API for Python (dnnl.hpp): dnnl.engine, dnnl.stream,
dnnl.memory, dnnl.memory.desc, dnnl.reorder, the primitives and their
primitive_desc classes, and dnnl.error. Objects own their handles and
release them when the last reference goes. Built on dnnl_c.

As with dnnl.hpp, which includes dnnl.h, the C constants (DNNL_ARG_*,
dnnl_unimplemented, ...) are here too.
"""

from dnnl_c._constants import *  # noqa: F401,F403

from dnnl._common import (algorithm, engine, error, fpmath_mode, handle,  # noqa: F401
                          primitive_attr, prop_kind, query, rnn_direction, rnn_flags,
                          scratchpad_mode, status, stream)
from dnnl._memory import data_type_of, memory, numpy_dtype  # noqa: F401
from dnnl._primitive import primitive, primitive_desc_base, reorder  # noqa: F401
from dnnl._eltwise import eltwise_backward, eltwise_forward  # noqa: F401
from dnnl._convolution import (convolution_backward_data,  # noqa: F401
                               convolution_backward_weights, convolution_forward)
from dnnl._lrn import lrn_backward, lrn_forward  # noqa: F401
from dnnl._pooling import pooling_backward, pooling_forward  # noqa: F401
