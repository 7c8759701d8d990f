"""The object layer's engine and stream as the fixtures `eng` and `strm`, for
test modules of the `dnnl` API that import them (conftest's `eng` and `strm`
are C-style handles)."""

import pytest

from dnnl import engine, stream


@pytest.fixture(scope="module", name="eng")
def object_engine():
    return engine(engine.kind.cpu, 0)


@pytest.fixture(scope="module", name="strm")
def object_stream(eng):
    return stream(eng)
