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
    """Options for creating a primitive descriptor: who provides the
    scratchpad (scratchpad_mode) and the floating-point math allowed
    (fpmath_mode). primitive_attr() makes the defaults. oneDNN's
    dnnl::primitive_attr."""

    _destroy = staticmethod(c.dnnl_primitive_attr_destroy)

    def __init__(self, attr=None):
        super().__init__()
        if attr is not None:           # C++'s primitive_attr(dnnl_primitive_attr_t attr)
            if not isinstance(attr, c.dnnl_primitive_attr_t):
                raise error(c.dnnl_invalid_arguments, "attr must be a "
                            "dnnl_c.dnnl_primitive_attr_t, not %s" % type(attr).__name__)
            self._h = attr
            return
        h = c.dnnl_primitive_attr_t()
        error.wrap_c_api(c.dnnl_primitive_attr_create(h),
                         "could not create primitive attribute")
        self._h = h

    def get_scratchpad_mode(self):
        """Who provides the scratchpad: scratchpad_mode.library or .user."""
        out = [None]
        error.wrap_c_api(c.dnnl_primitive_attr_get_scratchpad_mode(self.get(), out),
                         "could not get scratchpad mode primitive attribute")
        return scratchpad_mode(out[0])

    def set_scratchpad_mode(self, mode):
        """Sets who provides the scratchpad (user: pass DNNL_ARG_SCRATCHPAD
        to execute)."""
        error.wrap_c_api(c.dnnl_primitive_attr_set_scratchpad_mode(self.get(), mode),
                         "could not set scratchpad mode primitive attribute")

    def get_fpmath_mode(self):
        """The floating-point math mode, an fpmath_mode."""
        out = [None]
        error.wrap_c_api(c.dnnl_primitive_attr_get_fpmath_mode(self.get(), out),
                         "could not get fpmath mode primitive attribute")
        return fpmath_mode(out[0])

    def set_fpmath_mode(self, mode):
        """Sets the floating-point math mode (strict: no down-conversion)."""
        error.wrap_c_api(c.dnnl_primitive_attr_set_fpmath_mode(self.get(), mode),
                         "could not set fpmath mode primitive attribute")

    def __repr__(self):
        if not self._h:
            return "<dnnl.primitive_attr empty>"
        return "<dnnl.primitive_attr scratchpad_mode=%s fpmath_mode=%s>" % (
            self.get_scratchpad_mode().name, self.get_fpmath_mode().name)
