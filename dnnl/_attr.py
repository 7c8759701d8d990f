"""dnnl.primitive_attr (oneDNN's dnnl::primitive_attr) and the modes it
sets: dnnl.scratchpad_mode and dnnl.fpmath_mode."""

import dnnl_c as c
from dnnl._enums import _enum
from dnnl._error import error
from dnnl._handle import handle

scratchpad_mode = _enum("scratchpad_mode", "dnnl_scratchpad_mode_t",
                        "dnnl_scratchpad_mode_")
fpmath_mode = _enum("fpmath_mode", "dnnl_fpmath_mode_t", "dnnl_fpmath_mode_")


class primitive_attr(handle):
    """oneDNN's dnnl::primitive_attr (scratchpad and fpmath modes)."""

    _destroy = staticmethod(c.dnnl_primitive_attr_destroy)

    def __init__(self, c_attr=None):
        super().__init__()
        if c_attr is not None:
            self._h = c_attr
            return
        h = c.dnnl_primitive_attr_t()
        error.wrap_c_api(c.dnnl_primitive_attr_create(h),
                         "could not create primitive attribute")
        self._h = h

    def get_scratchpad_mode(self):
        out = [None]
        error.wrap_c_api(c.dnnl_primitive_attr_get_scratchpad_mode(self.get(), out),
                         "could not get scratchpad mode primitive attribute")
        return scratchpad_mode(out[0])

    def set_scratchpad_mode(self, mode):
        error.wrap_c_api(c.dnnl_primitive_attr_set_scratchpad_mode(self.get(), mode),
                         "could not set scratchpad mode primitive attribute")

    def get_fpmath_mode(self):
        out = [None]
        error.wrap_c_api(c.dnnl_primitive_attr_get_fpmath_mode(self.get(), out),
                         "could not get fpmath mode primitive attribute")
        return fpmath_mode(out[0])

    def set_fpmath_mode(self, mode):
        error.wrap_c_api(c.dnnl_primitive_attr_set_fpmath_mode(self.get(), mode),
                         "could not set fpmath mode primitive attribute")
