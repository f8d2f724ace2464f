"""The C core (strided._c._strided, built by build.py).

The extension links the BLAS/LAPACK library of the scipy-openblas32
package (libscipy_openblas.so) by name, without an rpath: pip may build in
an isolated environment that is deleted afterwards.  So before the
extension is imported, the installed package's library is loaded here;
the dynamic loader then satisfies the extension's DT_NEEDED entry with it
by its SONAME.  Every import of strided._c._strided runs this first.

OpenBLAS's idle worker threads spin for 2^28 cycles (about 0.1 s) after
each call before they sleep, on the cores where our OpenMP kernels run
next; with as many threads as cores that halves the next kernel's speed.
OPENBLAS_THREAD_TIMEOUT, read once when the library loads, shortens the
spin to 2^22 cycles (about 1.6 ms at 2.6 GHz): long enough to keep the
workers awake across back-to-back BLAS calls from a Python loop and
through a busy machine's scheduling gaps inside one call (with 2^20 a
1024 x 1024 sgemm ran 2 to 4x slower on a loaded machine, its workers
falling asleep), short enough to free the cores for the next kernel.  It
is set for this load only (the environment is put back, so another
OpenBLAS loaded later is not affected), and a value the user set is kept."""
import ctypes as _ctypes
import glob as _glob
import importlib.util as _util
import os as _os


def _load_openblas():
    # Locate the package without importing it: its __init__ loads the
    # library at once, before the thread timeout could be set.
    spec = _util.find_spec("scipy_openblas32")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("strided needs the scipy-openblas32 package (pip install "
                          "scipy-openblas32): its OpenBLAS is strided's BLAS and LAPACK")
    libdir = _os.path.join(list(spec.submodule_search_locations)[0], "lib")
    found = sorted(_glob.glob(_os.path.join(libdir, "libscipy_openblas*.so")))
    if not found:
        raise ImportError(f"scipy-openblas32 has no libscipy_openblas*.so in {libdir}")
    key = "OPENBLAS_THREAD_TIMEOUT"
    before = _os.environ.get(key)
    if before is None:
        _os.environ[key] = "22"
    try:
        return _ctypes.CDLL(found[0], mode=_ctypes.RTLD_GLOBAL)
    finally:
        if before is None:
            del _os.environ[key]


_BLAS = _load_openblas()
