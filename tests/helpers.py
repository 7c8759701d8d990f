"""Independent references for the tests: layouts and bf16 rounding written
from oneDNN's definitions with NumPy, sharing no code with the library."""

import re

import numpy as np

import dnnl_c as c


def parse_tag(name):
    """'aBcd8b' -> (outer dim order, [(block, dim), ...] outer to inner)."""
    m = re.fullmatch(r"([a-lA-L]+)((?:\d+[a-l])*)", name)
    assert m, name
    outer = [ord(ch.lower()) - ord("a") for ch in m.group(1)]
    inner = [(int(b), ord(d) - ord("a")) for b, d in re.findall(r"(\d+)([a-l])", m.group(2))]
    return outer, inner


def to_layout(array, tag):
    """The physical buffer (1-D, zero padding) of `array` in layout `tag`."""
    outer, inner = parse_tag(tag)
    ndims = len(outer)
    assert array.ndim == ndims
    blocks = [1] * ndims
    for b, d in inner:
        blocks[d] *= b
    padded = [-(-n // bl) * bl for n, bl in zip(array.shape, blocks)]
    a = np.zeros(padded, dtype=array.dtype)
    a[tuple(slice(0, n) for n in array.shape)] = array
    shape: list = []
    axes: dict = {}
    for d in range(ndims):
        subs = [b for b, dd in inner if dd == d]
        axes[d] = list(range(len(shape), len(shape) + 1 + len(subs)))
        shape += [padded[d] // blocks[d]] + subs
    a = a.reshape(shape)
    seen = {d: 0 for d in range(ndims)}
    perm = [axes[d][0] for d in outer]
    for _, d in inner:
        seen[d] += 1
        perm.append(axes[d][seen[d]])
    return a.transpose(perm).reshape(-1)


def from_layout(buffer, tag, dims):
    """Inverse of to_layout: the logical array stored in a physical buffer."""
    outer, inner = parse_tag(tag)
    ndims = len(outer)
    blocks = [1] * ndims
    for b, d in inner:
        blocks[d] *= b
    padded = [-(-n // bl) * bl for n, bl in zip(dims, blocks)]
    shape: list = []
    axes: dict = {}
    for d in range(ndims):
        subs = [b for b, dd in inner if dd == d]
        axes[d] = list(range(len(shape), len(shape) + 1 + len(subs)))
        shape += [padded[d] // blocks[d]] + subs
    seen = {d: 0 for d in range(ndims)}
    perm = [axes[d][0] for d in outer]
    for _, d in inner:
        seen[d] += 1
        perm.append(axes[d][seen[d]])
    phys_shape = [shape[p] for p in perm]
    a = np.asarray(buffer)[:int(np.prod(phys_shape))].reshape(phys_shape)
    a = a.transpose(np.argsort(perm)).reshape(padded)
    return a[tuple(slice(0, n) for n in dims)]


def bf16_bits(x):
    """oneDNN's f32 -> bf16: round to nearest even; subnormals to signed
    zero; inf kept; NaN kept, made quiet. Returns the uint16 words."""
    u = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    nan = (u & 0x7FFFFFFF) > 0x7F800000
    tiny = (u & 0x7F800000) == 0
    rounded = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    out = np.where(nan, (u >> 16) | 0x40, np.where(tiny, (u >> 16) & 0x8000, rounded))
    return out.astype(np.uint16)


def bf16_to_f32(bits):
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


def bf16_round(x):
    return bf16_to_f32(bf16_bits(x))


NP_DTYPE = {c.dnnl_f32: np.float32, c.dnnl_bf16: np.uint16, c.dnnl_s32: np.int32,
            c.dnnl_s8: np.int8, c.dnnl_u8: np.uint8}


def check(status, what=""):
    assert status == c.dnnl_success, "%s: %s (%s)" % (what, c.dnnl_status2str(status),
                                                      c.cydnnl_last_error())


def make_md(dims, dt, tag=None, strides=None):
    md = c.dnnl_memory_desc_t()
    if strides is not None:
        check(c.dnnl_memory_desc_create_with_strides(md, len(dims), dims, dt, strides))
    else:
        check(c.dnnl_memory_desc_create_with_tag(md, len(dims), dims, dt, tag))
    return md


def make_memory(md, eng, buf=c.DNNL_MEMORY_ALLOCATE):
    m = c.dnnl_memory_t()
    check(c.dnnl_memory_create(m, md, eng, buf), "memory_create")
    return m


def reorder(eng, strm, src_md, src_mem, dst_md, dst_mem):
    pd = c.dnnl_primitive_desc_t()
    check(c.dnnl_reorder_primitive_desc_create(pd, src_md, eng, dst_md, eng, None), "reorder pd")
    prim = c.dnnl_primitive_t()
    check(c.dnnl_primitive_create(prim, pd))
    out = [None]
    check(c.dnnl_primitive_desc_query(pd, c.dnnl_query_impl_info_str, 0, out))
    check(c.dnnl_primitive_execute(prim, strm, 2, [(c.DNNL_ARG_FROM, src_mem),
                                                   (c.DNNL_ARG_TO, dst_mem)]), "execute")
    c.dnnl_primitive_destroy(prim)
    c.dnnl_primitive_desc_destroy(pd)
    return out[0]


def memory_bytes(mem):
    h: list = [None]
    check(c.dnnl_memory_get_data_handle(mem, h))
    return np.frombuffer(h[0], dtype=np.uint8)


# The ISA levels our kernels are compiled for (dnnl_cpu_isa_t values), and
# those this process may run: the CPU has them and the ISA limit allows them.
KERNEL_LEVELS = {"sse41": c.dnnl_cpu_isa_sse41, "avx2": c.dnnl_cpu_isa_avx2,
                 "avx512_core": c.dnnl_cpu_isa_avx512_core,
                 "avx512_core_bf16": c.dnnl_cpu_isa_avx512_core_bf16}


def usable_levels():
    return [name for name, v in KERNEL_LEVELS.items() if c.cydnnl_cpu_isa_has(v)]


def level_impls(prefix, levels=("avx512_core", "avx2", "sse41")):
    """The names of a family's per-level implementations this process may
    run, highest level first: ["gemm:avx512_core", "gemm:avx2", ...]."""
    usable = usable_levels()
    return ["%s:%s" % (prefix, lv) for lv in levels if lv in usable]
