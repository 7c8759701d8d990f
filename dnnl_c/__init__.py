"""oneDNN's C API for Python: the flat, handle-based dnnl_* functions with
oneDNN's names, argument orders, enum values and status codes.

Output handles are objects the call fills in place (C's &handle); other
outputs land in out[0] of a list the caller passes. No function raises:
each returns a dnnl_status_t. Cython code cimports the same API from
dnnl_c.dnnl and calls it on C handles, without the GIL.
"""

from dnnl_c._version import __version__  # noqa: F401
from dnnl_c._constants import *  # noqa: F401,F403
# the common API, one module per concept
from dnnl_c.api.handles import *  # noqa: F401,F403
from dnnl_c.api.engine_stream import *  # noqa: F401,F403
from dnnl_c.api.memory_desc import *  # noqa: F401,F403
from dnnl_c.api.memory import *  # noqa: F401,F403
from dnnl_c.api.attr import *  # noqa: F401,F403
from dnnl_c.api.post_ops import *  # noqa: F401,F403
from dnnl_c.api.primitive_desc import *  # noqa: F401,F403
from dnnl_c.api.primitive import *  # noqa: F401,F403
from dnnl_c.api.primitive_cache import *  # noqa: F401,F403
from dnnl_c.api.misc import *  # noqa: F401,F403
from dnnl_c.api.cpu_isa import *  # noqa: F401,F403
from dnnl_c.api.service import *  # noqa: F401,F403
from dnnl_c.api.gemm import *  # noqa: F401,F403
from dnnl_c.api.dlpack import *  # noqa: F401,F403
# the primitive families, a line each
from dnnl_c.primitives.reorder.api import *  # noqa: F401,F403
from dnnl_c.primitives.convolution.api import *  # noqa: F401,F403
from dnnl_c.primitives.eltwise.api import *  # noqa: F401,F403
from dnnl_c.primitives.lrn.api import *  # noqa: F401,F403
from dnnl_c.primitives.pooling.api import *  # noqa: F401,F403
from dnnl_c.primitives.rnn.api import *  # noqa: F401,F403
