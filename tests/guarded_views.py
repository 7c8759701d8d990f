"""Guarded runs of primitives whose tensors are sub-memories (views into a
bigger parent buffer): the buffer ends where the view's last element does
(a guard page follows) or starts at the parent's start (a guard page
precedes), the parent's other elements hold NaN (inputs: a kernel reading
them spoils its results) and must come out unchanged (outputs: a kernel
must not write into a neighbour's elements; the parent's layout padding
may be zeroed). The scratchpad is the user's, guarded too.

`view_entries(op, cases)` gives (key, run) pairs as tests/guarded_cases.py
does; a case's "views" maps tensors to (parent dims, parent layout,
offsets), the tensor's own dims being the view's.
"""

import numpy as np

import dnnl_c as c
import harness as H


class View:
    """A sub-memory's elements in its parent's buffer (harness.Layout's
    interface for compare): offsets are from the parent's start, which is
    the view's data handle."""

    def __init__(self, md, parent_md, dims, offsets):
        parent = H.Layout(parent_md)
        self.md, self.dt, self.storage = md, parent.dt, parent.storage
        self.size = c.cydnnl_memory_desc_extent(md)
        self.nelems = self.size // self.storage.itemsize
        self.offsets = parent.offsets[tuple(slice(o, o + d) for o, d in zip(offsets, dims))]
        assert self.offsets.max() < self.nelems, "view model past the extent"
        self.parent_padding = parent.padding[:self.nelems]
        self.mine = np.zeros(self.nelems, bool)
        self.mine[self.offsets.reshape(-1)] = True
        self.dense = False
        self.encode, self.decode = parent.encode, parent.decode

    def empty(self):
        return False

    def unpack(self, buf):
        return self.decode(buf[self.offsets])

    def fill(self, alloc, values=None):
        """A buffer from alloc: garbage (NaN) outside the view, zero layout
        padding, and values (or garbage) in the view."""
        buf = alloc(self.size, self.storage)
        buf[...] = H.Layout.garbage(self)[:self.nelems]
        if values is not None:
            buf[self.parent_padding] = 0
            buf[self.offsets] = self.encode(values)
        return buf

    def foreign_writes(self, before, after):
        """How many of the parent's elements outside the view changed
        (padding may become 0)."""
        b = before.view(np.uint8).reshape(self.nelems, -1)
        a = after.view(np.uint8).reshape(self.nelems, -1)
        changed = np.any(a != b, axis=1) & ~self.mine
        zeroed_padding = self.parent_padding & np.all(a == 0, axis=1)
        return int(np.count_nonzero(changed & ~zeroed_padding))


def _views(handles, op, case):
    """{tensor: (View, md)} of the case's views, and the creation overrides."""
    views, overrides = {}, {}
    names = {value.tensor: name for name, value in op.args(case) if isinstance(value, H.Md)}
    for tensor, (pdims, playout, offsets) in case["views"].items():
        if tensor not in names:
            continue
        dt = op.tensor_dt(case, tensor)
        parent = handles.md(pdims, dt, H.tag_of(playout, len(pdims)))
        dims = op.tensor_dims(case, tensor)
        md = handles.add(c.dnnl_memory_desc_t(), c.dnnl_memory_desc_destroy)
        H._check(c.dnnl_memory_desc_create_submemory(md, parent, dims, offsets),
                 "create_submemory(%s)" % tensor)
        views[tensor] = View(md, parent, dims, offsets)
        overrides[names[tensor]] = md
    return views, overrides


def run_views(op, case, alloc):
    """harness.run's walk over every implementation, with the case's views."""
    c_eng, c_strm = H.engines()[:2]
    handles = H._Handles()
    expect = H._Expect(op, case)
    failures = []
    try:
        views, overrides = _views(handles, op, case)
        overrides.update(H._user_scratchpad_attr(op, case, handles))
        pd = H._c_pd(op, case, handles, overrides)
        while True:
            impl = H._impl_name_c(pd)
            prim = handles.add(c.dnnl_primitive_t(), c.dnnl_primitive_destroy)
            H._check(c.dnnl_primitive_create(prim, pd), "primitive_create (%s)" % impl)
            tensors = dict(op.inputs, **op.outputs)
            layouts = {t: views.get(t) or H.Layout(H._arg_md_c(pd, arg))
                       for t, arg in tensors.items()}
            expect.prepare(layouts)
            bufs, before, args = {}, {}, []
            for t, arg in tensors.items():
                lay = layouts[t]
                if lay.empty():
                    continue
                if t in views:
                    bufs[t] = lay.fill(alloc, expect.feed[t] if t in op.inputs else None)
                    before[t] = bufs[t].copy()
                else:
                    bufs[t] = H._user_buffer(lay.pack(expect.feed[t]) if t in op.inputs
                                             else lay.garbage(), alloc)
                mem = handles.add(c.dnnl_memory_t(), c.dnnl_memory_destroy)
                H._check(c.dnnl_memory_create(mem, lay.md, c_eng, bufs[t]), "memory_create")
                args.append(c.dnnl_exec_arg_t(arg, mem))
            scratchpad = H._user_scratchpad_arg(pd, alloc, handles)
            if scratchpad is not None:
                args.append(scratchpad)
            st = c.dnnl_primitive_execute(prim, c_strm, len(args), args)
            problems = []
            if st != H.OK:
                problems.append("execute: %s (%s)" % (c.dnnl_status2str(st),
                                                      c.cydnnl_last_error()))
            else:
                H._check(c.dnnl_stream_wait(c_strm), "stream_wait")
                for t in op.outputs:
                    problems += H._compare(expect, t, layouts[t], bufs.get(t))
                for t in set(views) & set(bufs):
                    n = views[t].foreign_writes(before[t], bufs[t])
                    if n:
                        problems.append("%s: %d elements of the parent outside the view "
                                        "changed" % (t, n))
            failures += ["%s[%s] implementation %r:\n  %s" % (op.name, case.id, impl,
                                                            p.replace("\n", "\n  "))
                         for p in problems]
            st = c.dnnl_primitive_desc_next_impl(pd)
            if st == c.dnnl_last_impl_reached:
                break
            H._check(st, "primitive_desc_next_impl after %s" % impl)
    finally:
        handles.close()
    if failures:
        raise AssertionError("\n".join(failures))


def view_entries(ops, cases):
    return [("%s/%s" % (op.name, case.id),
             (lambda alloc, op=op, case=case: run_views(op, case, alloc)))
            for case in cases for op in ops]
