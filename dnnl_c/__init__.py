"""oneDNN's C API for Python: the flat, handle-based dnnl_* functions with
oneDNN's names, argument orders, enum values and status codes.

Output handles are objects the call fills in place (C's &handle); other
outputs land in out[0] of a list the caller passes. No function raises:
each returns a dnnl_status_t. Cython code cimports the same API from
dnnl_c.dnnl and calls it on C handles, without the GIL.
"""

from dnnl_c._constants import *  # noqa: F401,F403
from dnnl_c._api import *  # noqa: F401,F403
from dnnl_c._api_eltwise import *  # noqa: F401,F403
from dnnl_c._api_convolution import *  # noqa: F401,F403
from dnnl_c._api_lrn import *  # noqa: F401,F403
from dnnl_c._api_pooling import *  # noqa: F401,F403
