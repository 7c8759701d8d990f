"""The core is open to new primitive kinds: a kind registered from a Cython
module compiled here (tests/cython/registry_test.pyx), as a new family would
register itself, is created, walked, queried and executed by the core
without the core knowing it; argument lists and implementation lists have
no fixed size."""

import numpy as np
import pytest

import dnnl_c as c


@pytest.fixture(scope="module")
def reg(tmp_path_factory):
    from cython_build import build
    return build("registry_test", str(tmp_path_factory.mktemp("cython")))


def test_unregistered_kind_is_unimplemented(reg):
    st, pd = reg.create([5], 2, 1.0)
    assert st == c.dnnl_unimplemented and pd == 0
    assert "no primitive family registered" in c.cydnnl_last_error()


def test_registered_kind_walks_executes_and_queries(reg):
    assert reg.register() == 13          # beyond any fixed list size of old
    nsrc, n = 150, 7                     # 151 arguments, far past the old cap of 24
    st, pd = reg.create([n], nsrc, 0.5)
    assert st == c.dnnl_success
    try:
        assert reg.info(pd) == "test:add"           # 11 declined first
        assert reg.alpha(pd) == (c.dnnl_success, 0.5)   # the kind's own query
        assert reg.inputs(pd) == nsrc
        srcs = np.random.default_rng(0).standard_normal((nsrc, n)).astype(np.float32)
        dst = np.zeros(n, np.float32)
        assert reg.execute(pd, srcs, dst, np.zeros(0, np.float32)) == c.dnnl_success
        np.testing.assert_allclose(dst, 0.5 * srcs.sum(0, dtype=np.float64), rtol=1e-5,
                                   atol=1e-5)

        # next_impl to one that declines 40 more arguments: the argument array
        # grows, and an md handed out before stays readable
        md = reg.dst_md(pd)
        assert reg.next_impl(pd) == c.dnnl_success
        assert reg.info(pd) == "test:add_more"
        assert reg.dst_md_ndims(md) == 1
        extra = np.zeros(40, np.float32)
        dst[:] = 0
        assert reg.execute(pd, srcs, dst, extra[:39]) == c.dnnl_invalid_arguments
        assert "DNNL_ARG_" in c.cydnnl_last_error()
        assert reg.execute(pd, srcs, dst, extra) == c.dnnl_success
        np.testing.assert_array_equal(extra, 7)
        np.testing.assert_allclose(dst, 0.5 * srcs.sum(0, dtype=np.float64), rtol=1e-5,
                                   atol=1e-5)
        assert reg.next_impl(pd) == c.dnnl_last_impl_reached
        assert reg.info(pd) == "test:add_more"
    finally:
        assert reg.destroy(pd) == c.dnnl_success
