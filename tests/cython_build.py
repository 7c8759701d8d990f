"""Compiles a Cython test module against the installed dnnl_c .pxd files,
as a user's Cython code would be built."""

import os
import sys

import dnnl_c

HERE = os.path.dirname(os.path.abspath(__file__))


def build(name, out_dir, openmp=False):
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension

    package_root = os.path.dirname(os.path.dirname(os.path.abspath(dnnl_c.__file__)))
    ext = Extension(name, [os.path.join(HERE, "cython", name + ".pyx")],
                    include_dirs=[os.path.dirname(os.path.abspath(dnnl_c.__file__))],
                    extra_compile_args=["-O2"] + (["-fopenmp"] if openmp else []),
                    extra_link_args=["-fopenmp"] if openmp else [])
    dist = Distribution({"ext_modules": cythonize(
        [ext], include_path=[package_root], build_dir=os.path.join(out_dir, "c"), quiet=True,
        compiler_directives={"language_level": 3})})
    cmd = dist.get_command_obj("build_ext")
    cmd.build_lib = os.path.join(out_dir, "lib")
    cmd.build_temp = os.path.join(out_dir, "tmp")
    dist.run_command("build_ext")
    sys.path.insert(0, cmd.build_lib)
    try:
        return __import__(name)
    finally:
        sys.path.remove(cmd.build_lib)
