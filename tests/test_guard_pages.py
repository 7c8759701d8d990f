"""CYDNNL_GUARD_PAGES=1 ends every buffer the library allocates itself at a
PROT_NONE page: an overrun by one byte faults. The primitive table tests run
again in a child with the switch on (about 15 s), so a kernel that reads or
writes past its memories, scratchpad or work buffers crashes that child."""

import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
TABLES = ["test_eltwise_table.py", "test_lrn_table.py", "test_pooling_table.py",
          "test_convolution.py", "test_reorder.py", "test_gemm.py"]

OVERRUN = r"""
import ctypes, mmap, sys
import dnnl_c as c
e, md, m = c.dnnl_engine_t(), c.dnnl_memory_desc_t(), c.dnnl_memory_t()
assert c.dnnl_engine_create(e, c.dnnl_cpu, 0) == 0
assert c.dnnl_memory_desc_create_with_tag(md, 2, [3, 5], c.dnnl_bf16, c.dnnl_ab) == 0
assert c.dnnl_memory_create(m, md, e, c.DNNL_MEMORY_ALLOCATE) == 0
out = [None]
assert c.dnnl_memory_get_data_handle(m, out) == 0
end = out[0].address + len(out[0])
print(end %% mmap.PAGESIZE, flush=True)
assert bytes(out[0]) == bytes(30)                      # zero-filled
ctypes.c_char.from_address(end - 1).value = b"x"      # the last byte is the buffer's
ctypes.c_char.from_address(end + %d).value = b"x"     # the next one is not
print("no fault", flush=True)
"""


def _child(code, guard):
    env = dict(os.environ, CYDNNL_GUARD_PAGES="1" if guard else "0")
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="mmap guard pages")
def test_an_overrun_of_a_memory_buffer_faults():
    r = _child(OVERRUN % 0, guard=True)
    assert r.returncode == -11, (r.returncode, r.stdout, r.stderr)   # SIGSEGV
    assert r.stdout.split()[0] == "0"      # the buffer ends where a page ends


def test_without_the_switch_buffers_are_as_before():
    r = _child(OVERRUN % 0, guard=False)   # one byte past lands in malloc's slack
    assert r.returncode == 0 and "no fault" in r.stdout, (r.stdout, r.stderr)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="mmap guard pages")
def test_primitive_tables_under_guard_pages():
    env = dict(os.environ, CYDNNL_GUARD_PAGES="1")
    cmd = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider"] + TABLES
    r = subprocess.run(cmd, cwd=HERE, env=env, capture_output=True, text=True, timeout=1800)
    assert r.returncode == 0, "guard-page run failed (%s):\n%s\n%s" % (
        r.returncode, r.stdout[-6000:], r.stderr[-3000:])
    assert " passed" in r.stdout.splitlines()[-1], r.stdout[-2000:]
