from typing import Any, Optional, overload

from dnnl._attr import primitive_attr
from dnnl._engine import engine
from dnnl._memory_desc import desc
from dnnl._primitive import primitive
from dnnl._primitive import primitive_desc as _primitive_desc
from dnnl_c import dnnl_primitive_desc_t

class eltwise_forward(primitive):
    class primitive_desc(_primitive_desc):
        @overload
        def __init__(self, pd: dnnl_primitive_desc_t) -> None: ...
        @overload
        def __init__(self, aengine: engine, aprop_kind: int, aalgorithm: int, src_desc: desc,
                     dst_desc: desc, alpha: float = ..., beta: float = ...,
                     attr: Optional[primitive_attr] = ..., allow_empty: bool = ...) -> None: ...
    def __init__(self, pd: Optional[eltwise_forward.primitive_desc] = ...) -> None: ...

class eltwise_backward(primitive):
    class primitive_desc(_primitive_desc):
        @overload
        def __init__(self, pd: dnnl_primitive_desc_t) -> None: ...
        @overload
        def __init__(self, aengine: engine, aalgorithm: int, diff_src_desc: desc,
                     diff_dst_desc: desc, data_desc: desc,
                     hint_fwd_pd: eltwise_forward.primitive_desc,
                     attr: Optional[primitive_attr] = ..., allow_empty: bool = ...) -> None: ...
        @overload
        def __init__(self, aengine: engine, aalgorithm: int, diff_src_desc: desc,
                     diff_dst_desc: desc, data_desc: desc, alpha: float,
                     hint_fwd_pd: eltwise_forward.primitive_desc,
                     attr: Optional[primitive_attr] = ..., allow_empty: bool = ...) -> None: ...
        @overload
        def __init__(self, aengine: engine, aalgorithm: int, diff_src_desc: desc,
                     diff_dst_desc: desc, data_desc: desc, alpha: float, beta: float,
                     hint_fwd_pd: eltwise_forward.primitive_desc,
                     attr: Optional[primitive_attr] = ..., allow_empty: bool = ...) -> None: ...
    def __init__(self, pd: Optional[eltwise_backward.primitive_desc] = ...) -> None: ...
