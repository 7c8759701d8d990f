"""A Cython module compiled here, as a user would, against the installed
dnnl_c .pxd files: it cimports the C-level API and runs reorders without
the GIL."""

import os

import numpy as np
import pytest

import dnnl_c
from helpers import bf16_bits, bf16_to_f32



@pytest.fixture(scope="module")
def capi_nogil(tmp_path_factory):

    from cython_build import build
    return build("capi_nogil", str(tmp_path_factory.mktemp("cython")))


def test_reorders_from_cython_without_the_gil(capi_nogil):
    n, ch, h, w = 2, 11, 5, 3
    a = np.random.default_rng(3).standard_normal(n * ch * h * w).astype(np.float32)
    b = np.zeros_like(a)
    status, impls = capi_nogil.roundtrip(a, b, n, ch, h, w)
    assert status == dnnl_c.dnnl_success
    assert impls == ("simple:blocked_c", "simple:blocked_c")
    expected = bf16_to_f32(bf16_bits(a)).reshape(n, ch, h, w).transpose(0, 2, 3, 1).reshape(-1)
    np.testing.assert_array_equal(b, expected)


def test_bad_calls_from_cython(capi_nogil):
    assert capi_nogil.bad_calls() == (dnnl_c.dnnl_invalid_arguments,) * 3


def test_pxd_exports_every_c_function():
    pkg = os.path.dirname(os.path.abspath(dnnl_c.__file__))
    exported = open(os.path.join(pkg, "dnnl.pxd")).read()
    import re
    import glob
    names = glob.glob(os.path.join(pkg, "core", "*.pxd")) + glob.glob(
        os.path.join(pkg, "primitives", "*", "*.pxd"))
    assert len(names) > 10
    for name in names:
        text = open(name).read()
        text = text.split("# ------------------------------------------- for the primitive")[0]
        for fn in re.findall(r"\b(dnnl_\w+)\(", text):
            assert re.search(r"\b%s\b" % fn, exported), fn
