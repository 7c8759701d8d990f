"""Builds the Cython extensions of dnnl_c.

Compiler flags: -O3, OpenMP when the compiler has it (a serial build
otherwise), and the build machine's vector instructions (-march=native)
unless CYDNNL_PORTABLE=1 is set.
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


def build_flags():
    compile_args = ["-O3", "-fno-strict-aliasing"]
    link_args = []
    if os.environ.get("CYDNNL_PORTABLE", "0") in ("", "0") and compiler_accepts(["-march=native"]):
        compile_args.append("-march=native")
    if os.environ.get("CYDNNL_NO_OPENMP", "0") in ("", "0") and compiler_accepts(
            ["-fopenmp"], ["-fopenmp"]):
        compile_args.append("-fopenmp")
        link_args.append("-fopenmp")
    else:
        print("cydnnl: building WITHOUT OpenMP: kernels will run on one thread",
              file=sys.stderr)
    return compile_args, link_args


class BuildExt(build_ext):
    def finalize_options(self):
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1


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
        exts.append(Extension(name, [pyx], include_dirs=["dnnl_c"],
                              extra_compile_args=compile_args,
                              extra_link_args=link_args))
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
PACKAGES = ["dnnl"] + sorted(
    os.path.dirname(p).replace(os.sep, ".")
    for p in glob.glob("dnnl_c/**/__init__.py", recursive=True))

setup(
    packages=PACKAGES,
    package_data={pkg: ["*.pxd", "*.h", "include/*.h"] for pkg in PACKAGES if pkg != "dnnl"},
    ext_modules=extensions(),
    cmdclass={"build_ext": BuildExt},
    zip_safe=False,
)
