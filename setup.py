"""setuptools entry point: only what pyproject.toml cannot say (the cffi module)."""

import os
from concurrent.futures import ThreadPoolExecutor

from setuptools import Extension, setup
from setuptools._distutils import ccompiler


def _parallel_compile(
    self,
    sources,
    output_dir=None,
    macros=None,
    include_dirs=None,
    debug=0,
    extra_preargs=None,
    extra_postargs=None,
    depends=None,
):
    # distutils compiles an extension's sources one by one; the kernel
    # files are independent, so compile them on every core.
    macros, objects, extra_postargs, pp_opts, build = self._setup_compile(
        output_dir, macros, include_dirs, sources, depends, extra_postargs
    )
    cc_args = self._get_cc_args(pp_opts, debug, extra_preargs)

    def one(obj):
        src, ext = build[obj]
        self._compile(obj, src, ext, cc_args, extra_postargs, pp_opts)

    # one compiler per core, in the sources' order (build.py lists the
    # costliest first): more at once only share the cores and the memory
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        list(pool.map(one, objects))
    return objects


ccompiler.CCompiler.compile = _parallel_compile

# warnings as errors when STRIDED_WERROR=1 (CI: .ci/run), as build.py's
# warning_args does for the core
_WERROR = ["-Werror"] if os.environ.get("STRIDED_WERROR", "") not in ("", "0") else []

# strided.compat's Array base type (strided/_c/pyarray.c): a plain CPython
# extension on the limited API, beside the cffi module whose functions it
# calls by address (docs/architecture.md, "The Array's C half").
PYARRAY = Extension(
    "strided._c._pyarray",
    sources=["strided/_c/pyarray.c"],
    include_dirs=["strided/_c"],
    py_limited_api=True,
    extra_compile_args=["-O2", "-std=gnu11", "-Wall", "-Wextra"] + _WERROR,
)

setup(cffi_modules=["strided/_c/build.py:ffi"], ext_modules=[PYARRAY])
