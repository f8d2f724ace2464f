"""cffi build script (API mode): compiles the C core into strided._c._strided.

The cdef is read from strided.h, the single truth of the C API: lines that
start with '#' are dropped, except '#define NAME <integer>' constants.
"""

import os
import re
from pathlib import Path

from cffi import FFI

HERE = Path(__file__).resolve().parent
# Compiled in this order, two at a time on a 2-core machine (setup.py), the
# costliest first so that no large file starts last; elementwise.c and
# reduce_tree.c are compiled in parts (ST_PART, st_internal.h: the _pN.c
# files include them), so that their halves run on both cores.
SOURCES = [
    "reduce.c",
    "reduce_p1.c",
    "reduce_tree.c",
    "reduce_tree_p1.c",
    "elementwise.c",
    "elementwise_p1.c",
    "elementwise_p2.c",
    "elementwise_p3.c",
    "half_ew.c",
    "copy.c",
    "matmul.c",
    "select.c",
    "fft.c",
    "fft_butterflies.c",
    "sort.c",
    "norm.c",
    "index.c",
    "sort_simd.c",
    "histogram.c",
    "linalg.c",
    "random.c",
    "lapack_t7.c",
    "setops.c",
    "conv.c",
    "iter.c",
    "core.c",
    "alloc.c",
    "fuse.c",
    "dlpack.c",
    "matrix.c",
    "creation.c",
    "fast.c",
    "vmath.c",
    "bandwidth.c",
    "fft_plans.c",
    "fft_lines.c",
    "fft_real.c",
    "half.c",
    "t7scan.c",
]


def cdef_text(header=HERE / "strided.h"):
    keep = []
    for line in header.read_text().splitlines():
        if line.lstrip().startswith("#"):
            if re.match(r"#define\s+\w+\s+-?\d+\s*(/\*.*\*/)?\s*$", line.strip()):
                keep.append(re.sub(r"/\*.*\*/", "", line))
            continue
        keep.append(line)
    return "\n".join(keep)


# STRIDED_DEBUG=1: the sanitizer build (.ci/sanitizers).  AddressSanitizer
# and UndefinedBehaviorSanitizer, every UB report fatal (no recovery), frame
# pointers kept for readable stacks; -O1 keeps the suite's runtime in check
# (-O0 is several times slower and finds nothing more).  The result needs
# libasan first in the process: LD_PRELOAD it into python.
SANITIZE = [
    "-fsanitize=address,undefined",
    "-fno-omit-frame-pointer",
    "-fno-sanitize-recover=undefined",
]


def debug():
    return os.environ.get("STRIDED_DEBUG", "") not in ("", "0")


def warning_args():
    """-Wall -Wextra; with STRIDED_WERROR=1 (CI sets it: .ci/run) every
    warning an error, so that none lands, while a user's build on a newer
    compiler with new warnings still succeeds.  The macro-made kernels leave
    helpers and typedefs of some types unused: those two stay off.  setup.py
    gives the same to pyarray.c."""
    args = ["-Wall", "-Wextra", "-Wno-unused-function", "-Wno-unused-local-typedefs"]
    return args + (["-Werror"] if os.environ.get("STRIDED_WERROR", "") not in ("", "0") else [])


def compile_args():
    # -g1 (line tables, enough for perf and backtraces) after Python's -g:
    # full debug information of the macro-generated kernels took a third
    # of the compile time of the reductions
    args = ["-O3", "-g1", "-std=gnu11", "-fopenmp", "-fno-math-errno"] + warning_args()
    if debug():
        args = (
            ["-O1", "-g", "-std=gnu11", "-fopenmp", "-fno-math-errno"] + warning_args() + SANITIZE
        )
    return args


def blas():
    """(include dir, lib dir, link name) of the BLAS/LAPACK package,
    scipy-openblas32 (OpenBLAS with LAPACK, 32-bit integers, symbols
    prefixed `scipy_`).  Linked by name only, no rpath: under pip's build
    isolation the build's copy is deleted afterwards, so at run time
    strided/_c/__init__.py loads the installed package's library first and
    the extension's DT_NEEDED (libscipy_openblas.so) resolves to it by SONAME."""
    import scipy_openblas32 as sob

    return sob.get_include_dir(), sob.get_lib_dir(), sob.get_library()


BLAS_INCLUDE, BLAS_LIBDIR, BLAS_LIB = blas()

ffi = FFI()
ffi.cdef(cdef_text())
# Called by the core when the last reference to memory borrowed from a
# Python object goes: the Python side then drops that object.
ffi.cdef('extern "Python" void st_py_release(void *ctx);')
ffi.set_source(
    "strided._c._strided",
    '#include "strided.h"\nstatic void st_py_release(void *ctx);',
    sources=[os.path.relpath(HERE / s) for s in SOURCES],
    include_dirs=[str(HERE), BLAS_INCLUDE],
    library_dirs=[BLAS_LIBDIR],
    extra_compile_args=compile_args(),
    extra_link_args=["-fopenmp"] + (SANITIZE if debug() else []),
    libraries=["m", "mvec", BLAS_LIB],
)

if __name__ == "__main__":
    ffi.compile(verbose=True)
