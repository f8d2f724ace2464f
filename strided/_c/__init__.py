"""The C core (strided._c._strided, built by build.py).

The extension links the BLAS/LAPACK library of the scipy-openblas32
package (libscipy_openblas.so) by name, without an rpath: pip may build in
an isolated environment that is deleted afterwards.  So before the
extension is imported, the installed package's library is loaded here;
the dynamic loader then satisfies the extension's DT_NEEDED entry with it
by its SONAME.  Every import of strided._c._strided runs this first."""
import ctypes as _ctypes
import glob as _glob
import importlib.util as _util
import os as _os


def _load_openblas():
    spec = _util.find_spec("scipy_openblas32")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("strided needs the scipy-openblas32 package (pip install "
                          "scipy-openblas32): its OpenBLAS is strided's BLAS and LAPACK")
    libdir = _os.path.join(list(spec.submodule_search_locations)[0], "lib")
    found = sorted(_glob.glob(_os.path.join(libdir, "libscipy_openblas*.so")))
    if not found:
        raise ImportError(f"scipy-openblas32 has no libscipy_openblas*.so in {libdir}")
    return _ctypes.CDLL(found[0], mode=_ctypes.RTLD_GLOBAL)


_BLAS = _load_openblas()
