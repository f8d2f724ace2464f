"""The C core (strided._c._strided, built by build.py).

The extension links the BLAS/LAPACK library of the scipy-openblas32
package (libscipy_openblas.so) by name, without an rpath: pip may build in
an isolated environment that is deleted afterwards.  So before the
extension is imported, the installed package's library is loaded here;
the dynamic loader then satisfies the extension's DT_NEEDED entry with it
by its SONAME.  Every import of strided._c._strided runs this first.

OpenBLAS's pool runs LAPACK only (matmul shares its products out over our
OpenMP threads; linalg.c says why).  Its idle threads spin for 2**28
cycles (about 0.1 s) after each call before they sleep, and on a machine
with few cores that spin takes the cores our next kernel needs: an
elementwise op right after `inv` of 200x200 took 3.5 ms instead of 0.16.
So unless the user set OPENBLAS_THREAD_TIMEOUT, the library is loaded
with its shortest (2**4 cycles), which OpenBLAS reads once, at load;
measured on AMD EPYC (Zen 4, 2 cores): LAPACK itself no slower (svd, qr
of 20000x200, eigh and inv of 200x200), the kernel after it at its own
speed.  The variable is set for the load only."""

import ctypes as _ctypes
import glob as _glob
import importlib.util as _util
import os as _os


def _load_openblas():
    spec = _util.find_spec("scipy_openblas32")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(
            "strided needs the scipy-openblas32 package (pip install "
            "scipy-openblas32): its OpenBLAS is strided's BLAS and LAPACK"
        )
    libdir = _os.path.join(list(spec.submodule_search_locations)[0], "lib")
    found = sorted(_glob.glob(_os.path.join(libdir, "libscipy_openblas*.so")))
    if not found:
        raise ImportError(f"scipy-openblas32 has no libscipy_openblas*.so in {libdir}")
    user_set = "OPENBLAS_THREAD_TIMEOUT" in _os.environ
    if not user_set:
        _os.environ["OPENBLAS_THREAD_TIMEOUT"] = "4"
    try:
        return _ctypes.CDLL(found[0], mode=_ctypes.RTLD_GLOBAL)
    finally:
        if not user_set:
            del _os.environ["OPENBLAS_THREAD_TIMEOUT"]


_BLAS = _load_openblas()
