"""How much of oneDNN's API this library has, measured against the lists of
names oneDNN 3.13's headers declare (tests/data/api/, written by
tests/data/api/onednn_api_names.py from PyPI's onednn-devel):

* every function of dnnl.h (with dnnl_common.h) against dnnl_c's Python API
  and dnnl_c/dnnl.pxd (the Cython API);
* the structs, their public methods, the enum classes and the free
  functions of dnnl.hpp (with dnnl_common.hpp) against the object layer.

What is missing is printed (`pytest -s`, or `python test_api_coverage.py`),
must be listed in README.md's "Not provided" section (and nothing there may
exist), and may only be of the kinds README gives as not provided: primitive
kinds this library does not implement, sparse and grouped memory and the
experimental profiling API. The common API
(attributes, post-ops, memory, engine, stream, version, verbose, primitive
cache, ISA, service) is complete."""

import os
import re

import dnnl
import dnnl_c

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data", "api")
README = os.path.join(os.path.dirname(HERE), "README.md")

# The primitive kinds of oneDNN this library does not implement.
OTHER_KINDS = ("batch_normalization", "binary", "concat", "deconvolution", "group_normalization",
               "inner_product", "layer_normalization", "matmul", "prelu", "reduction",
               "resampling", "shuffle", "softmax", "sum")
ALLOWED_C = [r"dnnl_(%s)_\w*primitive_desc_create(_v2)?" % "|".join(OTHER_KINDS),
             r"dnnl_memory_desc_create_with_(csr|coo|packed|grouped)_encoding",   # sparse
             r"dnnl_(reset_profiling|query_profiling_data)"]                      # experimental
ALLOWED_CPP = [r"struct (%s)\w*" % "|".join(OTHER_KINDS),
               r"method memory::desc (csr|coo|packed|grouped|get_nnz|get_sparse_encoding)",
               r"enum memory::sparse_encoding",
               r"enum normalization_flags",        # the normalization primitives' flags
               r"(enum profiling_data_kind|function (reset_profiling|get_profiling_data))"]


def c_names():
    """(name, experimental macro or None) of dnnl.h's functions."""
    out = []
    for line in open(os.path.join(DATA, "dnnl_h_functions.txt")):
        if line.strip() and not line.startswith("#"):
            parts = line.split()
            out.append((parts[0], parts[1] if len(parts) > 1 else None))
    return out


def cpp_names():
    return [line.strip() for line in open(os.path.join(DATA, "dnnl_hpp_api.txt"))
            if line.strip() and not line.startswith("#")]


def resolve(qualified):
    obj = dnnl
    for part in qualified.split("::"):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


def missing_c():
    return [n for n, _ in c_names() if not callable(getattr(dnnl_c, n, None))]


def missing_cpp():
    """dnnl.hpp's names the object layer lacks; the nested structs and the
    methods of a missing struct count with it, not on their own."""
    out = []
    for line in cpp_names():
        kind, *rest = line.split()
        top = rest[0].split("::")[0]
        if kind != "struct" or "::" in rest[0]:
            if resolve(top) is None and ("struct " + top) in out:
                continue
        if kind in ("struct", "enum", "function"):
            if resolve(rest[0]) is None:
                out.append(line)
        elif kind == "method":
            owner = resolve(rest[0])
            if owner is None:
                out.append("struct " + rest[0])
            elif rest[1] != "<constructor>" and not hasattr(owner, rest[1]):
                out.append(line)
    return list(dict.fromkeys(out))


def readme_section():
    text = open(README).read()
    m = re.search(r"<!-- api-coverage:begin -->(.*?)<!-- api-coverage:end -->", text, re.S)
    assert m, "README.md lacks its api-coverage section"
    return m.group(1)


def report():
    mc, mcpp = missing_c(), missing_cpp()
    lines = ["dnnl.h: %d of %d functions missing" % (len(mc), len(c_names()))]
    lines += ["  " + n for n in mc]
    lines.append("dnnl.hpp: %d names missing (methods of missing structs not counted)" % len(mcpp))
    lines += ["  " + n for n in mcpp]
    return "\n".join(lines)


def test_print_what_is_missing():
    print()
    print(report())


def test_missing_c_functions_are_only_those_readme_gives():
    mc = missing_c()
    odd = [n for n in mc if not any(re.fullmatch(p, n) for p in ALLOWED_C)]
    assert odd == [], "missing from the common API or the implemented kinds: %s" % odd
    listed = set(re.findall(r"\bdnnl_\w+", readme_section()))
    assert set(mc) == listed, ("README.md's list differs: not listed %s; listed but present %s"
                               % (sorted(set(mc) - listed), sorted(listed - set(mc))))


def test_missing_cpp_names_are_only_those_readme_gives():
    mcpp = missing_cpp()
    odd = [n for n in mcpp if not any(re.fullmatch(p, n) for p in ALLOWED_CPP)]
    assert odd == [], "missing from the object layer: %s" % odd
    listed = set(re.findall(r"`dnnl::([\w:]+)`", readme_section()))
    want = {line.split()[1] if line.split()[0] != "method" else
            "::".join(line.split()[1:]) for line in mcpp}
    assert want == listed, ("README.md's list differs: not listed %s; listed but present %s"
                            % (sorted(want - listed), sorted(listed - want)))


def test_the_cython_api_has_what_the_python_api_has():
    pxd = open(os.path.join(os.path.dirname(dnnl_c.__file__), "dnnl.pxd")).read()
    absent = [n for n, _ in c_names() if callable(getattr(dnnl_c, n, None))
              and not re.search(r"\b%s\b" % n, pxd)]
    assert absent == []


def test_the_lists_are_onednn_3_13():
    head = open(os.path.join(DATA, "dnnl_h_functions.txt")).readline()
    assert "oneDNN 3.13" in head
    names = dict(c_names())
    # a few landmarks of the 3.13 API (present here too)
    for n in ("dnnl_sgemm", "dnnl_set_primitive_cache_capacity", "dnnl_memory_create_host_scalar",
              "dnnl_primitive_attr_set_scales_v3", "dnnl_post_ops_append_binary_v2"):
        assert n in names and callable(getattr(dnnl_c, n))
    assert names["dnnl_reset_profiling"] == "DNNL_EXPERIMENTAL_PROFILING"
    cpp = cpp_names()
    assert "struct memory::desc" in cpp and "function sgemm" in cpp
    assert "method primitive_attr set_post_ops" in cpp and "enum algorithm" in cpp


if __name__ == "__main__":
    print(report())
