"""A reorder round trip through both APIs: f32 nchw -> bf16 nChw8c -> f32
nhwc, checked against NumPy."""

import numpy as np

import dnnl
import dnnl_c as c


def check(status):
    if status != c.dnnl_success:
        raise SystemExit("failed: %s (%s)" % (c.dnnl_status2str(status), c.cydnnl_last_error()))


def c_style(a):
    dims = list(a.shape)
    engine, stream = c.dnnl_engine_t(), c.dnnl_stream_t()
    check(c.dnnl_engine_create(engine, c.dnnl_cpu, 0))
    check(c.dnnl_stream_create(stream, engine, c.dnnl_stream_default_flags))
    mds, mems = [], []
    for dt, tag, buf in ((c.dnnl_f32, c.dnnl_nchw, a), (c.dnnl_bf16, c.dnnl_nChw8c, None),
                         (c.dnnl_f32, c.dnnl_nhwc, None)):
        md, mem = c.dnnl_memory_desc_t(), c.dnnl_memory_t()
        check(c.dnnl_memory_desc_create_with_tag(md, 4, dims, dt, tag))
        check(c.dnnl_memory_create(mem, md, engine,
                                   buf if buf is not None else c.DNNL_MEMORY_ALLOCATE))
        mds.append(md)
        mems.append(mem)
    for i in range(2):
        pd, prim = c.dnnl_primitive_desc_t(), c.dnnl_primitive_t()
        check(c.dnnl_reorder_primitive_desc_create(pd, mds[i], engine, mds[i + 1], engine, None))
        check(c.dnnl_primitive_create(prim, pd))
        args = [c.dnnl_exec_arg_t(c.DNNL_ARG_FROM, mems[i]),
                c.dnnl_exec_arg_t(c.DNNL_ARG_TO, mems[i + 1])]
        check(c.dnnl_primitive_execute(prim, stream, 2, args))
        check(c.dnnl_primitive_destroy(prim))
        check(c.dnnl_primitive_desc_destroy(pd))
    check(c.dnnl_stream_wait(stream))
    handle: list = [None]               # C's void *, filled by the call
    check(c.dnnl_memory_get_data_handle(mems[2], handle))
    out = np.frombuffer(handle[0], np.float32).reshape(dims[0], dims[2], dims[3], dims[1])
    out = out.transpose(0, 3, 1, 2).copy()
    for mem, md in zip(mems, mds):
        check(c.dnnl_memory_destroy(mem))
        check(c.dnnl_memory_desc_destroy(md))
    check(c.dnnl_stream_destroy(stream))
    check(c.dnnl_engine_destroy(engine))
    return out


def cpp_style(a):
    tag, dt = dnnl.memory.format_tag, dnnl.memory.data_type
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    s = dnnl.stream(eng)
    src = dnnl.memory(dnnl.memory.desc(list(a.shape), dt.f32, tag.nchw), eng, a)
    mid = dnnl.memory(dnnl.memory.desc(list(a.shape), dt.bf16, tag.nChw8c), eng)
    dst = dnnl.memory(dnnl.memory.desc(list(a.shape), dt.f32, tag.nhwc), eng)
    dnnl.reorder(src, mid).execute(s, src, mid)
    dnnl.reorder(mid, dst).execute(s, mid, dst)
    s.wait()
    return np.asarray(dst).copy()


def bf16_round(x):
    """f32 -> bf16 -> f32, rounding to nearest even (finite normal values)."""
    u = x.view(np.uint32).astype(np.uint64)
    return ((((u + 0x7FFF + ((u >> 16) & 1)) >> 16) << 16).astype(np.uint32)).view(np.float32)


def main():
    a = np.sin(np.arange(8 * 3 * 227 * 227, dtype=np.float32)).reshape(8, 3, 227, 227) + 2
    expected = bf16_round(a)
    for name, fn in (("C style", c_style), ("C++ style", cpp_style)):
        out = fn(a)
        if not np.array_equal(out, expected):
            raise SystemExit("%s: wrong result" % name)
        print("reorder demo, %s: f32 nchw -> bf16 nChw8c -> f32 nhwc matches NumPy" % name)
    print("Example passed on CPU.")


if __name__ == "__main__":
    main()
