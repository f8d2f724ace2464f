"""cffi build script (API mode): compiles the C core into strided._c._strided.

The cdef is read from strided.h, the single truth of the C API: lines that
start with '#' are dropped, except '#define NAME <integer>' constants.
"""
import os
import re
from pathlib import Path

from cffi import FFI

HERE = Path(__file__).resolve().parent
SOURCES = ["core.c", "iter.c", "copy.c", "elementwise.c", "reduce.c", "index.c", "sort.c",
           "random.c", "matmul.c", "setops.c", "dlpack.c"]


def cdef_text(header=HERE / "strided.h"):
    keep = []
    for line in header.read_text().splitlines():
        if line.lstrip().startswith("#"):
            if re.match(r"#define\s+\w+\s+-?\d+\s*(/\*.*\*/)?\s*$", line.strip()):
                keep.append(re.sub(r"/\*.*\*/", "", line))
            continue
        keep.append(line)
    return "\n".join(keep)


def compile_args():
    args = ["-O3", "-std=gnu11", "-fopenmp", "-fno-math-errno", "-Wall", "-Wno-unused-function", "-Wno-unused-local-typedefs"]
    if os.environ.get("STRIDED_DEBUG"):
        args = ["-O0", "-g", "-std=gnu11", "-fopenmp", "-fsanitize=address,undefined"]
    return args


ffi = FFI()
ffi.cdef(cdef_text())
# Called by the core when the last reference to memory borrowed from a
# Python object goes: the Python side then drops that object.
ffi.cdef('extern "Python" void st_py_release(void *ctx);')
ffi.set_source(
    "strided._c._strided",
    '#include "strided.h"\nstatic void st_py_release(void *ctx);',
    sources=[os.path.relpath(HERE / s) for s in SOURCES],
    include_dirs=[str(HERE)],
    extra_compile_args=compile_args(),
    extra_link_args=["-fopenmp"] + (["-fsanitize=address,undefined"] if os.environ.get("STRIDED_DEBUG") else []),
    libraries=["m", "mvec"],
)

if __name__ == "__main__":
    ffi.compile(verbose=True)
