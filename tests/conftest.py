import numpy as np
import pytest

import dnnl_c as c


@pytest.fixture(scope="session")
def eng():
    e = c.dnnl_engine_t()
    assert c.dnnl_engine_create(e, c.dnnl_cpu, 0) == c.dnnl_success
    yield e
    c.dnnl_engine_destroy(e)


@pytest.fixture(scope="session")
def strm(eng):
    s = c.dnnl_stream_t()
    assert c.dnnl_stream_create(s, eng, c.dnnl_stream_default_flags) == c.dnnl_success
    yield s
    c.dnnl_stream_destroy(s)
