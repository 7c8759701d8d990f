"""dnnl.primitive_attr and dnnl.post_ops (oneDNN's dnnl::primitive_attr and
dnnl::post_ops) and the modes they set: dnnl.scratchpad_mode,
dnnl.fpmath_mode, dnnl.accumulation_mode, dnnl.rounding_mode,
dnnl.quantization_mode.

Where a C++ method returns values through reference arguments
(get_params_sum(index, scale, zero_point, data_type)), the Python method
takes the inputs and returns the outputs as a tuple, in the C++ order.

The implementations here honour the modes (they compute in f32 and are
deterministic at a given number of threads); a primitive descriptor created
with post-ops, scales, zero points, precomputed reductions, stochastic
rounding, dropout, RNN quantization parameters or s32/f16 accumulation
raises dnnl.error with status unimplemented."""

import dnnl_c as c
from dnnl._enums import _enum, algorithm, primitive_kind
from dnnl._error import error
from dnnl._handle import _c, handle
from dnnl._memory import desc, memory

scratchpad_mode = _enum("scratchpad_mode", "dnnl_scratchpad_mode_t",
                        "dnnl_scratchpad_mode_")
fpmath_mode = _enum("fpmath_mode", "dnnl_fpmath_mode_t", "dnnl_fpmath_mode_")
accumulation_mode = _enum("accumulation_mode", "dnnl_accumulation_mode_t",
                          "dnnl_accumulation_mode_")
rounding_mode = _enum("rounding_mode", "dnnl_rounding_mode_t", "dnnl_rounding_mode_")
quantization_mode = _enum("quantization_mode", "dnnl_quantization_mode_t",
                          "dnnl_quantization_mode_")


def _desc_of(c_md):
    """A memory.desc of its own from a dnnl_c md handle another object owns."""
    clone = c.dnnl_memory_desc_t()
    error.wrap_c_api(c.dnnl_memory_desc_clone(clone, c_md), "could not clone a memory descriptor")
    return desc(clone)


class post_ops(handle):
    """A chain of operations applied to a primitive's result (sum, eltwise,
    depthwise convolution, binary, prelu), set on a primitive_attr. This
    library builds and queries the chain; primitives created with one answer
    unimplemented. oneDNN's dnnl::post_ops."""

    _destroy = staticmethod(c.dnnl_post_ops_destroy)

    def __init__(self, post_ops=None):
        super().__init__()
        if post_ops is not None:       # C++'s post_ops(dnnl_post_ops_t post_ops)
            self._h = post_ops
            return
        h = c.dnnl_post_ops_t()
        error.wrap_c_api(c.dnnl_post_ops_create(h), "could not create post-ops")
        self._h = h

    def len(self):
        """How many post-ops the chain holds."""
        return c.dnnl_post_ops_len(self.get())

    def kind(self, index):
        """The primitive kind of the post-op at index (sum, eltwise,
        convolution, binary, prelu)."""
        k = c.dnnl_post_ops_get_kind(self.get(), index)
        if k == c.dnnl_undefined_primitive:
            raise error(c.dnnl_invalid_arguments, "post-op index %r is out of range" % (index,))
        return primitive_kind(k)

    def append_sum(self, scale=1.0, zero_point=0, data_type=memory.data_type.undef):
        """Appends a sum: the result is added to what dst holds, times scale,
        less zero_point, read as data_type (undef: dst's own)."""
        error.wrap_c_api(c.dnnl_post_ops_append_sum(self.get(), scale, zero_point, data_type),
                         "could not append a sum post-op")

    def get_params_sum(self, index):
        """(scale, zero_point, data_type) of the sum post-op at index."""
        scale, zp, dt = [None], [None], [None]
        error.wrap_c_api(c.dnnl_post_ops_get_params_sum(self.get(), index, scale, zp, dt),
                         "could not get parameters of a sum post-op")
        return scale[0], zp[0], memory.data_type(dt[0])

    def append_eltwise(self, aalgorithm, alpha, beta):
        """Appends an element-wise operation (aalgorithm with alpha and beta)
        applied to the result."""
        error.wrap_c_api(c.dnnl_post_ops_append_eltwise(self.get(), aalgorithm, alpha, beta),
                         "could not append an elementwise post-op")

    def get_params_eltwise(self, index):
        """(algorithm, alpha, beta) of the eltwise post-op at index."""
        alg, alpha, beta = [None], [None], [None]
        error.wrap_c_api(c.dnnl_post_ops_get_params_eltwise(self.get(), index, alg, alpha, beta),
                         "could not get parameters of an elementwise post-op")
        return algorithm(alg[0]), alpha[0], beta[0]

    def append_dw(self, weights_data_type, bias_data_type, dst_data_type, kernel_size,
                  stride_size, padding_l_size):
        """Appends a depthwise convolution run on the result (kernel_size,
        stride_size, padding_l_size, and the data types of its weights, bias
        and dst)."""
        error.wrap_c_api(c.dnnl_post_ops_append_dw(self.get(), weights_data_type,
                                                   bias_data_type, dst_data_type, kernel_size,
                                                   stride_size, padding_l_size),
                         "could not append depthwise post-op")

    def get_params_dw(self, index):
        """(weights_data_type, bias_data_type, dst_data_type, kernel_size,
        stride_size, padding_l_size) of the depthwise post-op at index."""
        outs = [[None] for _ in range(6)]
        error.wrap_c_api(c.dnnl_post_ops_get_params_dw(self.get(), index, *outs),
                         "could not get parameters of depthwise post-op")
        return tuple([memory.data_type(o[0]) for o in outs[:3]] + [o[0] for o in outs[3:]])

    def append_binary(self, aalgorithm, src1_desc, src2_desc=None):
        """Appends a binary operation between the result and a second source
        described by src1_desc (and src2_desc for binary_select)."""
        error.wrap_c_api(c.dnnl_post_ops_append_binary_v2(
            self.get(), aalgorithm, _c(src1_desc, "src1_desc", desc),
            _c(src2_desc, "src2_desc", desc)), "could not append a binary post-op")

    def get_params_binary(self, index):
        """(algorithm, src1_desc, src2_desc) of the binary post-op at index
        (src2_desc is the zero desc but for binary_select)."""
        alg = [None]
        md1, md2 = c.dnnl_memory_desc_t(), c.dnnl_memory_desc_t()
        error.wrap_c_api(c.dnnl_post_ops_get_params_binary_v2(self.get(), index, alg, md1, md2),
                         "could not get parameters of a binary post-op")
        return algorithm(alg[0]), _desc_of(md1), _desc_of(md2)

    def append_prelu(self, mask):
        """Appends a PReLU whose weights broadcast along the dims that mask
        leaves out."""
        error.wrap_c_api(c.dnnl_post_ops_append_prelu(self.get(), mask),
                         "could not append a prelu post-op")

    def get_params_prelu(self, index):
        """The mask of the prelu post-op at index."""
        mask = [None]
        error.wrap_c_api(c.dnnl_post_ops_get_params_prelu(self.get(), index, mask),
                         "could not get parameters of a prelu post-op")
        return mask[0]


    def __repr__(self):
        if not self._h:
            return "<dnnl.post_ops empty>"
        return "<dnnl.post_ops [%s]>" % ", ".join(self.kind(i).name for i in range(self.len()))


class primitive_attr(handle):
    """Options for creating a primitive descriptor: who provides the
    scratchpad, the floating-point math and accumulation allowed, rounding,
    determinism, and what this library cannot honour yet (post-ops, scales,
    zero points, dropout, RNN quantization: a primitive descriptor created
    with them is dnnl.error unimplemented). primitive_attr() makes the
    defaults. oneDNN's dnnl::primitive_attr."""

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

    def _get(self, fn, what, *args):
        out = [None]
        error.wrap_c_api(fn(self.get(), *args, out),
                         "could not get %s primitive attribute" % what)
        return out[0]

    def get_scratchpad_mode(self):
        """Who provides the scratchpad: scratchpad_mode.library or .user."""
        return scratchpad_mode(self._get(c.dnnl_primitive_attr_get_scratchpad_mode,
                                         "scratchpad mode"))

    def set_scratchpad_mode(self, mode):
        """Sets who provides the scratchpad (user: pass DNNL_ARG_SCRATCHPAD to
        execute)."""
        error.wrap_c_api(c.dnnl_primitive_attr_set_scratchpad_mode(self.get(), mode),
                         "could not set scratchpad mode primitive attribute")

    def get_fpmath_mode(self, with_apply_to_int=False):
        """The fpmath mode; with with_apply_to_int, (mode, apply_to_int) as
        C++'s two-output overload gives."""
        mode, apply = [None], [None]
        error.wrap_c_api(c.dnnl_primitive_attr_get_fpmath_mode_v2(self.get(), mode, apply),
                         "could not get fpmath mode primitive attribute")
        if with_apply_to_int:
            return fpmath_mode(mode[0]), bool(apply[0])
        return fpmath_mode(mode[0])

    def set_fpmath_mode(self, mode, apply_to_int=False):
        """Sets the floating-point math mode (strict: no down-conversion), and
        whether it applies to integer primitives too."""
        error.wrap_c_api(c.dnnl_primitive_attr_set_fpmath_mode_v2(self.get(), mode,
                                                                  bool(apply_to_int)),
                         "could not set fpmath mode primitive attribute")

    def get_accumulation_mode(self):
        """The accumulation mode, an accumulation_mode."""
        return accumulation_mode(self._get(c.dnnl_primitive_attr_get_accumulation_mode,
                                           "accumulation mode"))

    def set_accumulation_mode(self, mode):
        """Sets the accumulation mode (strict, relaxed, any, f32, s32, f16)."""
        error.wrap_c_api(c.dnnl_primitive_attr_set_accumulation_mode(self.get(), mode),
                         "could not set accumulation mode primitive attribute")

    def get_deterministic(self):
        """Whether the primitive must give the same result at every run."""
        return bool(self._get(c.dnnl_primitive_attr_get_deterministic, "deterministic"))

    def set_deterministic(self, value):
        """Asks for results that do not vary from run to run."""
        error.wrap_c_api(c.dnnl_primitive_attr_set_deterministic(self.get(), bool(value)),
                         "could not set deterministic primitive attribute")

    def get_rounding_mode(self, arg):
        """The rounding mode of argument arg, a rounding_mode."""
        return rounding_mode(self._get(c.dnnl_primitive_attr_get_rounding, "rounding mode",
                                       arg))

    def set_rounding_mode(self, arg, mode):
        """Sets the rounding of argument arg (environment or stochastic)."""
        error.wrap_c_api(c.dnnl_primitive_attr_set_rounding(self.get(), arg, mode),
                         "could not set rounding mode primitive attribute")

    def get_dropout(self):
        """(mask_desc, seed_dt, use_offset, use_host_scalars)."""
        md = c.dnnl_memory_desc_t()
        seed, offset, host = [None], [None], [None]
        error.wrap_c_api(c.dnnl_primitive_attr_get_dropout_v2(self.get(), md, seed, offset,
                                                              host),
                         "could not get parameters of a dropout attribute")
        return _desc_of(md), memory.data_type(seed[0]), bool(offset[0]), bool(host[0])

    def set_dropout(self, mask_desc, seed_dt=memory.data_type.s32, use_offset=False,
                    use_host_scalars=False):
        """Asks for dropout on the result, with the mask described by mask_desc
        and a seed of seed_dt."""
        error.wrap_c_api(c.dnnl_primitive_attr_set_dropout_v2(
            self.get(), _c(mask_desc, "mask_desc", desc), seed_dt, bool(use_offset),
            bool(use_host_scalars)), "could not set dropout primitive attribute")

    def set_scales_mask(self, arg, mask):
        """Scales for argument arg, one per point of the dims mask selects,
        given at execution as DNNL_ARG_ATTR_SCALES | arg."""
        error.wrap_c_api(c.dnnl_primitive_attr_set_scales_mask(self.get(), arg, mask),
                         "could not set scales primitive attributes")

    def set_scales(self, arg, mask, groups, data_type=memory.data_type.f32, is_on_host=False,
                   qmode=quantization_mode.static_sazp):
        """Scales for argument arg with a mask, groups, a data type, on the host
        or not, and a quantization mode."""
        groups = list(groups)
        error.wrap_c_api(c.dnnl_primitive_attr_set_scales_v3(
            self.get(), arg, mask, len(groups), groups, data_type, bool(is_on_host), qmode),
            "could not set scales primitive attribute")

    def set_host_scale(self, arg, data_type=memory.data_type.f32):
        """One scale for argument arg, a host scalar of data_type given at
        execution."""
        error.wrap_c_api(c.dnnl_primitive_attr_set_scales_v3(
            self.get(), arg, 0, 0, None, data_type, 1, quantization_mode.static_sazp),
            "could not set scales primitive attribute")

    def set_zero_points_mask(self, arg, mask):
        """Zero points for argument arg, one per point of the dims mask selects."""
        error.wrap_c_api(c.dnnl_primitive_attr_set_zero_points_mask(self.get(), arg, mask),
                         "could not set zero points primitive attribute")

    def set_zero_points(self, arg, mask, groups, data_type=memory.data_type.s32,
                        is_on_host=False):
        """Zero points for argument arg with a mask, groups, a data type, on the
        host or not."""
        groups = list(groups)
        error.wrap_c_api(c.dnnl_primitive_attr_set_zero_points_v2(
            self.get(), arg, mask, len(groups), groups, data_type, bool(is_on_host)),
            "could not set zero points primitive attribute")

    def set_host_zero_point(self, arg, data_type=memory.data_type.s32):
        """One zero point for argument arg, a host scalar of data_type given at
        execution."""
        error.wrap_c_api(c.dnnl_primitive_attr_set_zero_points_v2(
            self.get(), arg, 0, 0, None, data_type, 1),
            "could not set zero points primitive attribute")

    def set_precomputed_reductions(self, arg, mask, groups, data_type=memory.data_type.s32):
        """Precomputed reductions for argument arg with a mask, groups and a
        data type."""
        groups = list(groups)
        error.wrap_c_api(c.dnnl_primitive_attr_set_precomputed_reductions(
            self.get(), arg, mask, len(groups), groups, data_type),
            "could not set precomputed reductions primitive attribute")

    def get_post_ops(self):
        """A copy of the attributes' post-ops."""
        po = c.dnnl_post_ops_t()
        error.wrap_c_api(c.dnnl_primitive_attr_get_post_ops(self.get(), po),
                         "could not get post-ops primitive attribute")
        clone = c.dnnl_post_ops_t()
        error.wrap_c_api(c.dnnl_post_ops_clone(clone, po),
                         "could not clone post-ops primitive attribute")
        return post_ops(clone)

    def set_post_ops(self, ops):
        """Sets the post-ops chain (a copy of ops) applied to the primitive's
        result."""
        error.wrap_c_api(c.dnnl_primitive_attr_set_post_ops(self.get(),
                                                            _c(ops, "ops", post_ops)),
                         "could not set post-ops primitive attribute")

    def set_rnn_data_qparams(self, scale, shift):
        """The RNN data quantization: data_u8 = scale * data_f32 + shift."""
        error.wrap_c_api(c.dnnl_primitive_attr_set_rnn_data_qparams(self.get(), scale, shift),
                         "could not set RNN data quantization parameters primitive attribute")

    def get_rnn_data_qparams(self):
        """(scale, shift)."""
        scale, shift = [None], [None]
        error.wrap_c_api(c.dnnl_primitive_attr_get_rnn_data_qparams(self.get(), scale, shift),
                         "could not get RNN data quantization parameters primitive attribute")
        return scale[0], shift[0]

    def set_rnn_weights_qparams(self, mask, scales):
        """The RNN weights' quantization scales, one per point of the dims mask
        selects."""
        scales = list(scales)
        error.wrap_c_api(c.dnnl_primitive_attr_set_rnn_weights_qparams(
            self.get(), len(scales), mask, scales),
            "could not set RNN weights quantization parameters primitive attribute")

    def get_rnn_weights_qparams(self):
        """(mask, scales)."""
        count, mask, scales = [None], [None], [None]
        error.wrap_c_api(c.dnnl_primitive_attr_get_rnn_weights_qparams(self.get(), count, mask,
                                                                       scales),
                         "could not get primitive RNN weights quantization parameters "
                         "attributes")
        return mask[0], scales[0]

    def set_rnn_weights_projection_qparams(self, mask, scales):
        """The RNN projection weights' quantization scales, as
        set_rnn_weights_qparams."""
        scales = list(scales)
        error.wrap_c_api(c.dnnl_primitive_attr_set_rnn_weights_projection_qparams(
            self.get(), len(scales), mask, scales),
            "could not set primitive RNN weights projection quantization parameters "
            "attributes")

    def get_rnn_weights_projection_qparams(self):
        """(mask, scales)."""
        count, mask, scales = [None], [None], [None]
        error.wrap_c_api(c.dnnl_primitive_attr_get_rnn_weights_projection_qparams(
            self.get(), count, mask, scales),
            "could not get primitive RNN weights projection quantization parameters "
            "attributes")
        return mask[0], scales[0]

    def __repr__(self):
        if not self._h:
            return "<dnnl.primitive_attr empty>"
        return "<dnnl.primitive_attr scratchpad_mode=%s fpmath_mode=%s post_ops=%d>" % (
            self.get_scratchpad_mode().name, self.get_fpmath_mode().name,
            self.get_post_ops().len())
