"""The type stubs: mypy passes on the examples and on the tests that use the
object layer, and the stubs name everything dnnl and dnnl_c export.

The examples and the object layer's own tests (test_object_layer,
test_pythonic, test_lstm_object, the example tests) are checked with the
bodies of unannotated functions included (check_untyped_defs, as
pyproject.toml sets); the primitive families' tests, which also pass wrong
types on purpose, with mypy's defaults (signatures, module level, imports)."""

import ast
import glob
import importlib
import os
import subprocess
import sys

import pytest

import dnnl
import dnnl_c

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTS = os.path.join(ROOT, "tests")
STRICT_TESTS = ["test_object_layer.py", "test_pythonic.py", "test_lstm_object.py",
                "test_examples.py", "test_rnn_example.py", "test_example_ports.py",
                "object_fixtures.py", "test_typing.py"]
DEFAULT_TESTS = ["harness.py", "isa_level_checks.py", "isa_probe.py", "test_bad_arguments.py",
                 "test_convolution.py", "test_cpu_isa.py", "test_eltwise.py",
                 "test_eltwise_table.py", "test_errors.py", "test_lrn.py", "test_lrn_table.py",
                 "test_lstm_ref.py", "test_md_overflow.py", "test_packaging.py",
                 "test_pooling.py", "test_pooling_table.py", "test_stability.py",
                 "test_api_coverage.py", "test_api_extras.py", "test_attributes.py",
                 "test_benchdnn.py", "test_gemm_api.py", "test_primitive_cache.py",
                 "verbose_cases.py"]


def _mypy(tmp_path, cwd, *args):
    pytest.importorskip("mypy")
    env = dict(os.environ)
    # check against the dnnl the tests import: the source tree (its parent
    # on MYPYPATH) or the installed package (found by mypy itself; mypy
    # refuses site-packages on MYPYPATH)
    where = os.path.dirname(os.path.dirname(os.path.abspath(dnnl.__file__)))
    if "-packages" not in where:
        env["MYPYPATH"] = where
    out = subprocess.run([sys.executable, "-m", "mypy", "--config-file",
                          os.path.join(ROOT, "pyproject.toml"), "--cache-dir",
                          str(tmp_path / "mypy_cache"), *args],
                         cwd=cwd, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout[-6000:] + out.stderr[-2000:]
    assert "Success" in out.stdout


def test_every_object_layer_test_file_is_checked():
    users = set()
    for path in glob.glob(os.path.join(TESTS, "*.py")):
        with open(path) as f:
            text = f.read()
        if "import dnnl\n" in text or "from dnnl import" in text:
            users.add(os.path.basename(path))
    unchecked = users - set(STRICT_TESTS) - set(DEFAULT_TESTS)
    assert not unchecked, "add them to STRICT_TESTS or DEFAULT_TESTS: %s" % sorted(unchecked)


@pytest.mark.parametrize("group", [["c_style", "reorder_demo.py", "run_examples.py"],
                                   ["cpp_style"]])
def test_mypy_passes_on_the_examples(tmp_path, group):
    _mypy(tmp_path, os.path.join(ROOT, "examples"), *group)


def test_mypy_passes_on_the_object_layer_tests(tmp_path):
    _mypy(tmp_path, TESTS, *[t for t in STRICT_TESTS if os.path.exists(os.path.join(TESTS, t))])


def test_mypy_passes_on_the_family_tests(tmp_path):
    _mypy(tmp_path, TESTS, "--no-check-untyped-defs", *DEFAULT_TESTS)


def _stub_names(path):
    """The names a stub module defines or re-exports."""
    with open(path) as f:
        tree = ast.parse(f.read())
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.ImportFrom):
            names |= {a.asname or a.name for a in node.names}
    return names


def _public(module):
    return {k for k, v in vars(module).items() if not k.startswith("_")
            and not isinstance(v, type(sys))}


def test_the_stubs_name_everything_the_packages_export():
    pkg_c = os.path.dirname(os.path.abspath(dnnl_c.__file__))
    pkg = os.path.dirname(os.path.abspath(dnnl.__file__))
    for p in (pkg_c, pkg):
        assert os.path.exists(os.path.join(p, "py.typed")), p
    missing = _public(dnnl_c) - _stub_names(os.path.join(pkg_c, "__init__.pyi")) - \
        {"numbers", "operator"}
    assert not missing, "regenerate: python codegen/stubs.py (%s)" % sorted(missing)[:20]
    from dnnl_c import _constants
    stub = _stub_names(os.path.join(pkg, "__init__.pyi")) | _public(_constants)
    missing = _public(dnnl) - stub
    assert not missing, "add them to dnnl/__init__.pyi: %s" % sorted(missing)
    # each module of the object layer has its stub, and each stub its names
    for py in glob.glob(os.path.join(pkg, "_*.py")):
        module = importlib.import_module("dnnl." + os.path.basename(py)[:-3])
        assert os.path.exists(py[:-3] + ".pyi"), "write its stub: %si" % py
        stub = _stub_names(py[:-3] + ".pyi")
        defined = {k for k, v in vars(module).items() if not k.startswith("_")
                   and getattr(v, "__module__", None) == module.__name__}
        assert not defined - stub, (py, sorted(defined - stub))


def test_the_enum_stubs_have_every_member():
    from dnnl import memory
    stub = os.path.join(os.path.dirname(os.path.abspath(dnnl.__file__)), "_enums.pyi")
    with open(stub) as f:
        tree = ast.parse(f.read())
    classes = {n.name: {t.id for a in n.body if isinstance(a, ast.Assign) for t in a.targets
                        if isinstance(t, ast.Name)}
               for n in tree.body if isinstance(n, ast.ClassDef)}
    for name, cls in (("_format_tag", memory.format_tag), ("_data_type", memory.data_type),
                      ("status", dnnl.status), ("algorithm", dnnl.algorithm),
                      ("cpu_isa", dnnl.cpu_isa), ("_engine_kind", dnnl.engine.kind)):
        assert classes[name] == set(cls.__members__), "regenerate: python codegen/stubs.py"
