from typing import Optional, Sequence, overload

from dnnl._attr import primitive_attr
from dnnl._engine import engine
from dnnl._memory_desc import desc
from dnnl._primitive import primitive
from dnnl._primitive import primitive_desc as _primitive_desc
from dnnl_c import dnnl_primitive_desc_t

_Dims = Sequence[int]

class convolution_forward(primitive):
    class primitive_desc(_primitive_desc):
        @overload
        def __init__(self, pd: dnnl_primitive_desc_t) -> None: ...
        @overload
        def __init__(self, aengine: engine, aprop_kind: int, aalgorithm: int, src_desc: desc,
                     weights_desc: desc, bias_desc: Optional[desc], dst_desc: desc,
                     strides: _Dims, padding_l: _Dims, padding_r: _Dims,
                     attr: Optional[primitive_attr] = ..., allow_empty: bool = ...) -> None: ...
        @overload
        def __init__(self, aengine: engine, aprop_kind: int, aalgorithm: int, src_desc: desc,
                     weights_desc: desc, dst_desc: desc, strides: _Dims, padding_l: _Dims,
                     padding_r: _Dims, attr: Optional[primitive_attr] = ...,
                     allow_empty: bool = ...) -> None: ...
        @overload
        def __init__(self, aengine: engine, aprop_kind: int, aalgorithm: int, src_desc: desc,
                     weights_desc: desc, bias_desc: Optional[desc], dst_desc: desc,
                     strides: _Dims, dilates: _Dims, padding_l: _Dims, padding_r: _Dims,
                     attr: Optional[primitive_attr] = ..., allow_empty: bool = ...) -> None: ...
        @overload
        def __init__(self, aengine: engine, aprop_kind: int, aalgorithm: int, src_desc: desc,
                     weights_desc: desc, dst_desc: desc, strides: _Dims, dilates: _Dims,
                     padding_l: _Dims, padding_r: _Dims, attr: Optional[primitive_attr] = ...,
                     allow_empty: bool = ...) -> None: ...
        def bias_desc(self) -> desc: ...
    def __init__(self, pd: Optional[convolution_forward.primitive_desc] = ...) -> None: ...

class convolution_backward_data(primitive):
    class primitive_desc(_primitive_desc):
        @overload
        def __init__(self, pd: dnnl_primitive_desc_t) -> None: ...
        @overload
        def __init__(self, aengine: engine, aalgorithm: int, diff_src_desc: desc,
                     weights_desc: desc, diff_dst_desc: desc, strides: _Dims,
                     padding_l: _Dims, padding_r: _Dims,
                     hint_fwd_pd: convolution_forward.primitive_desc,
                     attr: Optional[primitive_attr] = ..., allow_empty: bool = ...) -> None: ...
        @overload
        def __init__(self, aengine: engine, aalgorithm: int, diff_src_desc: desc,
                     weights_desc: desc, diff_dst_desc: desc, strides: _Dims, dilates: _Dims,
                     padding_l: _Dims, padding_r: _Dims,
                     hint_fwd_pd: convolution_forward.primitive_desc,
                     attr: Optional[primitive_attr] = ..., allow_empty: bool = ...) -> None: ...
    def __init__(self, pd: Optional[convolution_backward_data.primitive_desc] = ...) -> None: ...

class convolution_backward_weights(primitive):
    class primitive_desc(_primitive_desc):
        @overload
        def __init__(self, pd: dnnl_primitive_desc_t) -> None: ...
        @overload
        def __init__(self, aengine: engine, aalgorithm: int, src_desc: desc,
                     diff_weights_desc: desc, diff_bias_desc: Optional[desc],
                     diff_dst_desc: desc, strides: _Dims, padding_l: _Dims, padding_r: _Dims,
                     hint_fwd_pd: convolution_forward.primitive_desc,
                     attr: Optional[primitive_attr] = ..., allow_empty: bool = ...) -> None: ...
        @overload
        def __init__(self, aengine: engine, aalgorithm: int, src_desc: desc,
                     diff_weights_desc: desc, diff_dst_desc: desc, strides: _Dims,
                     padding_l: _Dims, padding_r: _Dims,
                     hint_fwd_pd: convolution_forward.primitive_desc,
                     attr: Optional[primitive_attr] = ..., allow_empty: bool = ...) -> None: ...
        @overload
        def __init__(self, aengine: engine, aalgorithm: int, src_desc: desc,
                     diff_weights_desc: desc, diff_bias_desc: Optional[desc],
                     diff_dst_desc: desc, strides: _Dims, dilates: _Dims, padding_l: _Dims,
                     padding_r: _Dims, hint_fwd_pd: convolution_forward.primitive_desc,
                     attr: Optional[primitive_attr] = ..., allow_empty: bool = ...) -> None: ...
        @overload
        def __init__(self, aengine: engine, aalgorithm: int, src_desc: desc,
                     diff_weights_desc: desc, diff_dst_desc: desc, strides: _Dims,
                     dilates: _Dims, padding_l: _Dims, padding_r: _Dims,
                     hint_fwd_pd: convolution_forward.primitive_desc,
                     attr: Optional[primitive_attr] = ..., allow_empty: bool = ...) -> None: ...
        def diff_bias_desc(self) -> desc: ...
    def __init__(self,
                 pd: Optional[convolution_backward_weights.primitive_desc] = ...) -> None: ...
