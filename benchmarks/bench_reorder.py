"""Reorder throughput: cydnnl against the real oneDNN (libdnnl through
ctypes, see onednn_ref.py) and NumPy (a transpose into the blocked layout),
measured in one run.

    ONEDNN_PREFIX=/tmp/onednn32 python benchmarks/bench_reorder.py [--isa avx2]
"""

import numpy as np

import common
from common import median_time, table
from dnnl import engine, memory, reorder, stream

tag, dt = memory.format_tag, memory.data_type
SHAPES = [("alexnet conv1 src mb32", [32, 3, 227, 227]),
          ("alexnet conv1 dst mb8", [8, 96, 55, 55]),
          ("alexnet pool1 dst mb32", [32, 96, 27, 27])]


def main():
    args, ref_lib = common.start(__doc__.split("\n\n")[0])
    times = dict(repeat=args.repeat, warmup=args.warmup, min_time=args.min_time)
    eng = engine(engine.kind.cpu, 0)
    s = stream(eng)
    rows = []
    for name, dims in SHAPES:
        a = np.random.rand(*dims).astype(np.float32)
        for (stag, sdt), (dtag, ddt) in [((tag.nchw, dt.f32), (tag.nChw16c, dt.f32)),
                                         ((tag.nChw16c, dt.f32), (tag.nchw, dt.f32)),
                                         ((tag.nchw, dt.f32), (tag.nChw16c, dt.bf16)),
                                         ((tag.nchw, dt.f32), (tag.nChw8c, dt.f32))]:
            src = memory(memory.desc(dims, sdt, stag), eng)
            src.write(a)
            dst = memory(memory.desc(dims, ddt, dtag), eng)
            r = reorder(src, dst)
            ours = median_time(lambda: r.execute(s, src, dst), **times)
            ref = ref_impl = None
            if ref_lib is not None:
                r_src_md = ref_lib.md(dims, int(sdt), int(stag))
                r_dst_md = ref_lib.md(dims, int(ddt), int(dtag))
                r_src = ref_lib.memory(r_src_md, np.frombuffer(src.get_data_handle(), np.uint8))
                r_dst = ref_lib.memory(r_dst_md)
                r_pd = ref_lib.reorder_pd(r_src_md, r_dst_md)
                ref_impl = ref_lib.impl(r_pd)
                ref = median_time(ref_lib.runner(ref_lib.primitive(r_pd), {1: r_src, 17: r_dst}),
                                  **times)
            np_time = None
            if stag == tag.nchw and dtag in (tag.nChw16c, tag.nChw8c) and ddt == dt.f32:
                blk = 16 if dtag == tag.nChw16c else 8
                n, ch, h, w = dims
                padded = np.zeros((n, -(-ch // blk) * blk, h, w), np.float32)

                def numpy_reorder():
                    padded[:, :ch] = a
                    return np.ascontiguousarray(
                        padded.reshape(n, -1, blk, h, w).transpose(0, 1, 3, 4, 2))
                np_time = median_time(numpy_reorder, **times)
            gbs = (a.nbytes + dst.get_desc().get_size()) / ours / 1e9
            rows.append([name, "%s %s -> %s %s" % (stag.name, sdt.name, dtag.name, ddt.name),
                         r.get_primitive_desc() and
                         reorder.primitive_desc(src, dst).impl_info_str(),
                         "%.2f" % (ours * 1e3), "%.1f" % gbs,
                         "%.2f (%s)" % (ref * 1e3, ref_impl) if ref else "-",
                         "%.2fx" % (ref / ours) if ref else "-",
                         "%.2fx" % (np_time / ours) if np_time else "-"])
    table(rows, ["shape", "reorder", "impl", "ms", "GB/s", "oneDNN ms", "vs oneDNN",
                 "vs NumPy"])
    print("\n'vs' columns: how many times faster cydnnl is (>1 = faster); medians of "
          "repeated runs on warm buffers.")


if __name__ == "__main__":
    main()
