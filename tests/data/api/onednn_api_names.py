"""Writes the lists of oneDNN's API names that tests/test_api_coverage.py
compares this library with (this directory):

  dnnl_h_functions.txt    every function dnnl.h declares (with dnnl_common.h,
                          which it includes), one per line; a function inside
                          `#if DNNL_EXPERIMENTAL_*` is followed by that macro
  dnnl_hpp_api.txt        dnnl.hpp's structs (with dnnl_common.hpp's), their
                          public methods, its enum classes and its free
                          functions: `struct memory`, `struct memory::desc`,
                          `method memory::desc get_size`, `enum algorithm`,
                          `function sgemm`

Run it on the include/oneapi/dnnl directory of a oneDNN release, e.g. of PyPI's
onednn-devel wheel (oneDNN 3.13.2 is onednn-devel 2026.1.0):

    pip download --no-deps onednn-devel==2026.1.0 -d /tmp/w
    unzip -q /tmp/w/onednn_devel-*.whl -d /tmp/w
    python tests/data/api/onednn_api_names.py \
        /tmp/w/onednn_devel-*.data/data/include/oneapi/dnnl

The parsing is deliberately simple (oneDNN's headers are regular): comments
are dropped, DNNL_API declarations give the C functions, and a brace-depth
walk over `namespace dnnl` gives the C++ structs, methods and functions.
"""

import os
import re
import sys

OUT = os.path.dirname(os.path.abspath(__file__))


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def c_functions(path):
    """(name, experimental macro or None) of the DNNL_API declarations."""
    out, guards = [], []
    text = strip_comments(open(path).read())
    pending = ""
    for line in text.splitlines():
        s = line.strip()
        m = re.match(r"#\s*if(?:def)?\s+(DNNL_EXPERIMENTAL_\w+)", s)
        if m:
            guards.append(m.group(1))
            continue
        if re.match(r"#\s*if", s):
            guards.append(None)
            continue
        if re.match(r"#\s*endif", s):
            guards.pop()
            continue
        if s.startswith("#"):
            continue
        pending += " " + s
        if ";" in s or "{" in s:
            m = re.search(r"\bDNNL_API\b[^;{(]*?\b(dnnl_\w+)\s*\(", pending)
            if m:
                exp = [g for g in guards if g]
                out.append((m.group(1), exp[-1] if exp else None))
            pending = ""
    return out


def cpp_api(path):
    """Lines `struct X`, `method X name`, `function name` of namespace dnnl
    (detail namespaces, operators, convert_to_c and private parts left out)."""
    text = strip_comments(open(path).read())
    # preprocessor lines, with their backslash continuations
    text = re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", "", text, flags=re.M)
    out = []
    i, n = 0, len(text)
    # a stack of scopes: ("ns", name) / ("struct", qualified name, public?) / ("other",)
    stack = []
    stmt = ""
    while i < n:
        ch = text[i]
        if ch == "{":
            # a macro invocation without a semicolon before it is not part of it
            head = re.sub(r"^(?:[A-Z][A-Z0-9_]*\([^)]*\)\s*)+", "", " ".join(stmt.split()))
            m_ns = re.match(r"^namespace\s*(\w*)$", head)
            m_st = re.match(r"^(?:template\s*<.*>\s*)?(struct|class)\s+(\w+)\b(?!\s*<)", head)
            m_en = re.match(r"^enum\b", head)
            if m_ns:
                stack.append(("ns", m_ns.group(1)))
            elif m_st and not m_en and in_dnnl(stack):
                outer = [s[1] for s in stack if s[0] == "struct"]
                name = "::".join(outer + [m_st.group(2)])
                visible = all(s[2] for s in stack if s[0] == "struct")
                if visible and not m_st.group(2).endswith("_traits"):
                    out.append("struct " + name)
                stack.append(("struct", name, m_st.group(1) == "struct"))
            else:
                m_ec = re.match(r"^enum\s+(?:class|struct)\s+(\w+)", head)
                if m_ec and in_dnnl(stack):
                    outer = [s[1] for s in stack if s[0] == "struct"]
                    if all(s[2] for s in stack if s[0] == "struct"):
                        out.append("enum " + "::".join(outer + [m_ec.group(1)]))
                elif in_dnnl(stack) and stack and stack[-1][0] in ("ns", "struct"):
                    record_function(head, stack, out)
                stack.append(("other",))
            stmt = ""
        elif ch == "}":
            if stack:
                stack.pop()
            stmt = ""
        elif ch == ";":
            head = " ".join(stmt.split())
            if in_dnnl(stack) and stack and stack[-1][0] == "struct":
                record_function(head, stack, out)
            stmt = ""
        else:
            stmt += ch
            m = re.search(r"\b(public|private|protected)\s*:\s*$", stmt)
            if m and stack and stack[-1][0] == "struct":
                stack[-1] = ("struct", stack[-1][1], m.group(1) == "public")
                stmt = ""
        i += 1
    return out


def in_dnnl(stack):
    names = [s[1] for s in stack if s[0] == "ns"]
    return names[:1] == ["dnnl"] and len(names) == 1


def record_function(head, stack, out):
    """A function declaration or definition head: its name."""
    head = re.sub(r"^(?:template\s*<.*?>\s*)(?=\w+[\s*&]+\w+\s*\()", "", head)
    if "(" not in head or head.startswith(("using ", "typedef ", "return ", "friend ")):
        return
    if re.match(r"^(?:struct|class|enum|union)\b", head):
        return
    before = head.split("(")[0].strip()
    m = re.search(r"(~?\w+)$", before)
    if not m or "operator" in before or "=" in before:
        return
    name = m.group(1)
    if name.isupper():            # a macro's invocation
        return
    if name in ("convert_to_c", "validate_container_size", "validate_dims", "if",
                "while", "for", "switch") or name.startswith("~"):
        return
    if stack[-1][0] == "struct":
        if not all(s[2] for s in stack if s[0] == "struct"):
            return
        owner = stack[-1][1]
        if name == owner.split("::")[-1]:
            name = "<constructor>"
        line = "method %s %s" % (owner, name)
    else:
        if re.search(r"\w+::~?\w+$", before):    # out-of-class definitions of methods
            return
        line = "function " + name
    if line not in out:
        out.append(line)


def main(include_dir):
    os.makedirs(OUT, exist_ok=True)
    funcs = {}
    for name in ("dnnl_common.h", "dnnl.h"):
        for f, exp in c_functions(os.path.join(include_dir, name)):
            funcs[f] = exp
    with open(os.path.join(OUT, "dnnl_h_functions.txt"), "w") as f:
        f.write("# dnnl.h + dnnl_common.h of oneDNN %s; written by onednn_api_names.py\n"
                % version(include_dir))
        for name in sorted(funcs):
            f.write(name + (" " + funcs[name] if funcs[name] else "") + "\n")
    lines = []
    for name in ("dnnl_common.hpp", "dnnl.hpp"):
        for line in cpp_api(os.path.join(include_dir, name)):
            if line not in lines:
                lines.append(line)
    with open(os.path.join(OUT, "dnnl_hpp_api.txt"), "w") as f:
        f.write("# dnnl.hpp + dnnl_common.hpp of oneDNN %s; written by "
                "onednn_api_names.py\n" % version(include_dir))
        for line in lines:
            f.write(line + "\n")
    print(len(funcs), "C functions,", len(lines), "C++ names")


def version(include_dir):
    text = open(os.path.join(include_dir, "dnnl_version.h")).read()
    parts = [re.search(r"#define DNNL_VERSION_%s (\d+)" % p, text).group(1)
             for p in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(parts)


if __name__ == "__main__":
    main(sys.argv[1])
