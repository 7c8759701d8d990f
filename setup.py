"""Builds the Cython extensions of dnnl_c.

Compiler flags: -O3 and OpenMP when the compiler has it (a serial build
otherwise). Nothing depends on the build machine's CPU: the Cython modules
are compiled for baseline x86-64, and each kernel module's per-level C file,
dnnl_c/kernels/isa/<module>_isa.c, is compiled once per ISA level (ISA_LEVELS)
and linked into that module; the implementations choose a level at run time
(docs/architecture.md, "ISA levels").
"""
import glob
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


def compiler_accepts(flags, link_flags=()):
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    tmp = tempfile.mkdtemp()
    try:
        src = os.path.join(tmp, "t.c")
        with open(src, "w") as f:
            f.write("#include <stdio.h>\n#ifdef _OPENMP\n#include <omp.h>\n#endif\n"
                    "int main(void){\n#ifdef _OPENMP\nreturn omp_get_max_threads() < 1;\n"
                    "#else\nreturn 0;\n#endif\n}\n")
        cmd = cc.split() + list(flags) + [src, "-o", os.path.join(tmp, "t")] + list(link_flags)
        return subprocess.run(cmd, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode == 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# oneDNN's level names, and the flags their kernels are compiled with.
AVX512_CORE = ["-mavx512f", "-mavx512bw", "-mavx512vl", "-mavx512dq", "-mavx2", "-mfma",
               "-mprefer-vector-width=512"]
ISA_LEVELS = [
    ("sse41", ["-msse4.1"]),
    ("avx2", ["-mavx2", "-mfma"]),
    ("avx512_core", AVX512_CORE),
    ("avx512_core_bf16", AVX512_CORE + ["-mavx512bf16"]),
]


# Extra flags for one module's per-level file. The LSTM cell reads no
# floating-point exception flags: without traps GCC turns its exp's clamps
# into blends, which SSE and AVX2 need to vectorise the gate loops (AVX-512's
# masked operations did it anyway; at sse41 and avx2 the cell ran scalar,
# 10% of the LSTM forward). The same results: no reassociation.
ISA_MODULE_FLAGS = {"rnn": ["-fno-trapping-math"]}


def isa_args(compile_args, module, level, flags):
    """A kernel module's per-level file's flags: the build's, the level's,
    the module's own and the level's suffix."""
    return (compile_args + flags + ISA_MODULE_FLAGS.get(module, [])
            + ["-DCYDNNL_ISA_SUFFIX=" + level])


def isa_levels():
    """The levels this compiler can build (none on a non-x86 machine)."""
    return [(name, flags) for name, flags in ISA_LEVELS if compiler_accepts(flags)]


def build_flags():
    compile_args = ["-O3", "-fno-strict-aliasing"]
    link_args = []
    if os.environ.get("CYDNNL_NO_OPENMP", "0") in ("", "0") and compiler_accepts(
            ["-fopenmp"], ["-fopenmp"]):
        compile_args.append("-fopenmp")
        link_args.append("-fopenmp")
    else:
        print("cydnnl: building WITHOUT OpenMP: kernels will run on one thread",
              file=sys.stderr)
    return compile_args, link_args


def isa_source(ext):
    """dnnl_c/kernels/isa/<module>_isa.c for a kernel module, or None."""
    parts = ext.name.split(".")
    if parts[:2] != ["dnnl_c", "kernels"]:
        return None
    path = os.path.join("dnnl_c", "kernels", "isa", parts[-1] + "_isa.c")
    return path if os.path.exists(path) else None


class BuildExt(build_ext):
    def finalize_options(self):
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1
        self.levels = isa_levels()

    def build_extension(self, ext):
        # The module's per-level C file, compiled once per level into objects
        # linked with the module; CYDNNL_HAVE_<LEVEL> tells its Cython code
        # which levels exist.
        src = isa_source(ext)
        if src is not None:
            compile_args, _ = build_flags()
            module = ext.name.split(".")[-1]
            args = {level: isa_args(compile_args, module, level, flags)
                    for level, flags in self.levels}
            for level, level_args in args.items():
                out = os.path.join(self.build_temp, "isa", level)
                ext.extra_objects += self.compiler.compile(
                    [src], output_dir=out, include_dirs=ext.include_dirs,
                    extra_postargs=level_args, depends=ext.depends)
                ext.define_macros.append(("CYDNNL_HAVE_" + level.upper(), "1"))
            ext.depends.append(self.flags_stamp(ext, args))
        super().build_extension(ext)

    def flags_stamp(self, ext, args):
        """A file rewritten when the per-level flags change, among the module's
        depends: the objects are compiled on every build, but the module was
        linked again only when a source or header changed (a flag change left
        the old .so)."""
        path = os.path.join(self.build_temp, "isa", ext.name + ".flags")
        text = repr(sorted(args.items()))
        old = None
        if os.path.exists(path):
            with open(path) as f:
                old = f.read()
        if old != text:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        return path


def extensions():
    from Cython.Build import cythonize

    compile_args, link_args = build_flags()
    # CYDNNL_BUILD_ONLY=lrn,pooling: build only modules whose names contain
    # one of these (an in-place development convenience).
    only = [w for w in os.environ.get("CYDNNL_BUILD_ONLY", "").split(",") if w]
    exts = []
    for pyx in sorted(glob.glob("dnnl_c/**/*.pyx", recursive=True)):
        name = pyx[:-4].replace(os.sep, ".")
        if only and not any(w in name for w in only):
            continue
        ext = Extension(name, [pyx], include_dirs=["dnnl_c"],
                        extra_compile_args=compile_args, extra_link_args=link_args,
                        depends=glob.glob("dnnl_c/kernels/include/*.h"))
        if isa_source(ext) is not None:
            ext.depends.append(isa_source(ext))
        exts.append(ext)
    directives = {
        "language_level": 3, "boundscheck": False, "wraparound": False,
        "cdivision": True, "initializedcheck": False, "embedsignature": True,
    }
    # The Python-level API indexes what users pass (lists, sequences): there
    # Cython's indexing must check bounds, or out[0] = x writes past an empty
    # list. Only the kernels and the core need the unchecked speed.
    def is_api(ext):
        return ext.name.startswith("dnnl_c.api.") or ext.name.endswith(".api")
    checked = dict(directives, boundscheck=True, wraparound=True)
    jobs = os.cpu_count() or 1
    return (cythonize([e for e in exts if is_api(e)], nthreads=jobs,
                      compiler_directives=checked)
            + cythonize([e for e in exts if not is_api(e)], nthreads=jobs,
                        compiler_directives=directives))


# Every folder of dnnl_c is a package; its .pxd and .h files are installed so
# that users' Cython code can cimport the API (and the headers it includes).
# The type stubs (.pyi) and py.typed markers of dnnl and dnnl_c go too.
PACKAGES = ["dnnl", "dnnl.benchdnn"] + sorted(
    os.path.dirname(p).replace(os.sep, ".")
    for p in glob.glob("dnnl_c/**/__init__.py", recursive=True))

setup(
    packages=PACKAGES,
    package_data=dict({pkg: ["*.pxd", "*.h", "include/*.h"] for pkg in PACKAGES
                       if not pkg.startswith("dnnl.") and pkg != "dnnl"},
                      **{"dnnl": ["*.pyi", "py.typed"],
                         "dnnl_c": ["*.pxd", "*.h", "*.pyi", "py.typed"],
                         "dnnl.benchdnn": ["inputs/*/*", "inputs/README.md"]}),
    ext_modules=extensions(),
    cmdclass={"build_ext": BuildExt},
    zip_safe=False,
)
