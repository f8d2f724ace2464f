"""DLPack for both faces: one producer (`export`) and one consumer
(`to_core`) over `_core.Core`; Tensor and Array methods are one-liners
over these.  docs/interop.md states the choices.

The managed tensors are built, checked and freed in C (strided/_c/dlpack.c).
Python only wraps them in PyCapsules, through the C API functions of
`ctypes.pythonapi` (called with the GIL held): the capsule's destructor
is C too (`st_dlpack_capsule_destructor`), so an unconsumed capsule frees
its tensor at garbage collection, and a consumed one (renamed "used_...")
is left to its consumer.  numpy is imported only by `to_numpy`, the
`__array__`/`numpy()` helper.
"""

from __future__ import annotations

import ctypes
import enum
import operator
import types

from .._c._strided import ffi, lib
from . import base as _core

VERSION = (lib.ST_DLPACK_MAJOR, lib.ST_DLPACK_MINOR)


class DLDeviceType(enum.IntEnum):
    """DLPack's device types (DLDeviceType); strided lives on kDLCPU."""

    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLOpenCL = 4
    kDLVulkan = 7
    kDLMetal = 8
    kDLVPI = 9
    kDLROCM = 10
    kDLROCMHost = 11
    kDLExtDev = 12
    kDLCUDAManaged = 13
    kDLOneAPI = 14
    kDLWebGPU = 15
    kDLHexagon = 16
    kDLMAIA = 17
    kDLTrn = 18


CPU = (DLDeviceType.kDLCPU, 0)


def device():
    """__dlpack_device__: every strided array lives on the CPU, device 0."""
    return CPU


# ---------------------------------------------------------------- capsules
# Own prototypes (not attributes of ctypes.pythonapi, whose argtypes other
# code may set): PyDLL calls hold the GIL and raise a pending Python error.
def _api(name, restype, *argtypes):
    return ctypes.PYFUNCTYPE(restype, *argtypes)((name, ctypes.pythonapi))


_capsule_new = _api(
    "PyCapsule_New", ctypes.py_object, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p
)
_capsule_is_valid = _api("PyCapsule_IsValid", ctypes.c_int, ctypes.py_object, ctypes.c_void_p)
_capsule_get_pointer = _api(
    "PyCapsule_GetPointer", ctypes.c_void_p, ctypes.py_object, ctypes.c_void_p
)
_capsule_set_name = _api("PyCapsule_SetName", ctypes.c_int, ctypes.py_object, ctypes.c_void_p)


def _address(cdata):
    return int(ffi.cast("uintptr_t", cdata))


# the names live in C: the protocol wants them statically allocated
_NAME = {(v, u): _address(lib.st_dlpack_capsule_name(v, u)) for v in (0, 1) for u in (0, 1)}
_DESTRUCTOR = _address(ffi.addressof(lib, "st_dlpack_capsule_destructor"))
CapsuleType = getattr(types, "CapsuleType", None) or type(_capsule_new(1, None, None))


def _capsule(managed, versioned):
    """A capsule owning `managed`; its deleter runs if capsule creation fails."""
    try:
        return _capsule_new(_address(managed), _NAME[versioned, 0], _DESTRUCTOR)
    except BaseException:
        managed.deleter(managed)
        raise


# ---------------------------------------------------------------- arguments


def _copy_flag(copy, where):
    if copy is None or copy is True or copy is False:
        return copy
    if type(copy).__module__ == "numpy" and type(copy).__name__ in ("bool_", "bool"):
        # numpy.bool_ (named numpy.bool since numpy 2), without importing numpy
        return bool(copy)
    raise TypeError(f"{where}: copy must be True, False or None, got {copy!r}")


def _versioned(max_version):
    """True when the consumer reads DLPack 1.x capsules (max_version >= (1, 0))."""
    if max_version is None:
        return False
    if type(max_version) is tuple and len(max_version) == 2:
        major, minor = max_version
        if type(major) is int and type(minor) is int:  # the usual pair, checked at once
            return major >= 1
    try:
        major, minor = (operator.index(v) for v in max_version)
    except (TypeError, ValueError):
        raise TypeError(
            f"__dlpack__: max_version must be a (major, minor) pair of integers, "
            f"got {max_version!r}"
        ) from None
    return major >= 1


def _device_name(dev):
    kind, index = dev
    try:
        kind = DLDeviceType(kind).name
    except ValueError:
        pass
    return f"({kind}, {index})"


def _check_dl_device(dl_device):
    if dl_device is None:
        return
    try:
        kind, index = (operator.index(v) for v in dl_device)
    except (TypeError, ValueError):
        raise TypeError(
            f"__dlpack__: dl_device must be a (device_type, device_id) pair, got {dl_device!r}"
        ) from None
    if (kind, index) != CPU:
        raise BufferError(
            f"__dlpack__: cannot export to DLPack device "
            f"{_device_name((kind, index))}: strided arrays live on the CPU "
            f"(kDLCPU, 0)"
        )


# ---------------------------------------------------------------- producer


def export(c, stream=None, max_version=None, dl_device=None, copy=None):
    """A DLPack capsule over Core c: "dltensor_versioned" (DLPack 1.x, with the
    READ_ONLY and IS_COPIED flags) when max_version >= (1, 0), else the legacy
    "dltensor".  copy=True always copies; copy=False never does (BufferError
    when it would have to); copy=None copies only a read-only array asked for
    as a legacy capsule, which cannot say read-only."""
    if stream is not None:
        raise BufferError(
            f"__dlpack__: stream must be None on the CPU, which has no streams; got {stream!r}"
        )
    _check_dl_device(dl_device)
    copy = _copy_flag(copy, "__dlpack__")
    versioned = _versioned(max_version)
    copied = False
    if copy or (c.readonly and not versioned):
        if copy is False:
            raise BufferError(
                "__dlpack__: this array is read-only and a legacy capsule "
                "(max_version None or below (1, 0)) cannot say so; copy=False "
                "forbids the writable copy it would take "
                "(ask for max_version=(1, 0))"
            )
        c = _core.astype(c, c.dtype)  # a C-contiguous copy, in C
        copied = True
    if versioned:
        managed = lib.st_dlpack_export_versioned(c.t, lib.ST_DL_FLAG_IS_COPIED if copied else 0)
    else:
        managed = lib.st_dlpack_export_legacy(c.t)
    return _capsule(_core.check_null(managed), versioned)


# ---------------------------------------------------------------- consumer

_COPY_MODE = {
    None: lib.ST_DLPACK_COPY_IF_NEEDED,
    False: lib.ST_DLPACK_COPY_NEVER,
    True: lib.ST_DLPACK_COPY_ALWAYS,
}


def _ask(obj, copy, to_cpu):
    """The capsule of producer `obj`, asked for as the array API says: the
    device first, then __dlpack__(max_version=...) with the keywords needed,
    and without keywords when the producer predates them (TypeError)."""
    dlpack = getattr(obj, "__dlpack__", None)
    if dlpack is None:
        raise AttributeError(
            f"from_dlpack: a {type(obj).__name__} is not a DLPack producer (no __dlpack__ method)"
        )
    dev = tuple(obj.__dlpack_device__())
    on_cpu = int(dev[0]) == DLDeviceType.kDLCPU
    kwargs = {}
    if not on_cpu:
        if not to_cpu:
            raise BufferError(
                f"from_dlpack: the array lives on DLPack device "
                f"{_device_name(dev)} and strided holds CPU memory only; "
                f"pass device='cpu' to ask its producer for a CPU copy"
            )
        kwargs["dl_device"] = CPU
    if copy is not None:
        kwargs["copy"] = copy
    try:
        return dlpack(max_version=VERSION, **kwargs)
    except TypeError:
        if not on_cpu:
            raise BufferError(
                f"from_dlpack: the producer on {_device_name(dev)} does not take "
                f"dl_device, so it cannot hand over CPU memory"
            ) from None
        return dlpack()


def to_core(obj, copy=None, to_cpu=False):
    """A Core over the memory of DLPack producer `obj` (or of a raw, unconsumed
    DLPack capsule).  copy=None: zero-copy when the memory allows (it always
    does but for misaligned memory); copy=False: zero-copy or BufferError;
    copy=True: a copy, made by the producer when it can (IS_COPIED), else by
    us.  to_cpu: a producer on another device is asked for CPU memory."""
    copy = _copy_flag(copy, "from_dlpack")
    capsule = obj if isinstance(obj, CapsuleType) else _ask(obj, copy, to_cpu)
    if not isinstance(capsule, CapsuleType):
        raise BufferError(
            f"from_dlpack: __dlpack__ returned a {type(capsule).__name__}, not a PyCapsule"
        )
    for versioned in (1, 0):
        if _capsule_is_valid(capsule, _NAME[versioned, 0]):
            break
    else:
        raise BufferError(
            "from_dlpack: the capsule is not named 'dltensor_versioned' or "
            "'dltensor' (a capsule is consumed only once)"
        )
    managed = _capsule_get_pointer(capsule, _NAME[versioned, 0])
    # the protocol: renaming the capsule takes ownership (its destructor now
    # leaves the tensor alone); from here st_dlpack_import owns it in every case
    _capsule_set_name(capsule, _NAME[versioned, 1])
    t = _core._record()
    rc = lib.st_dlpack_import(t, ffi.cast("void *", managed), versioned, _COPY_MODE[copy])
    if rc == lib.ST_E_MEMORY:
        _core.check(rc)
    if rc:
        raise BufferError(f"from_dlpack: {ffi.string(lib.st_last_error()).decode()}")
    return _core.Core(t)


def to_array(obj):
    """from_dlpack's copy=None import of producer `obj` (or of a raw capsule)
    straight into an Array of compat's class (strided.core.arraytype's
    from_capsule: one C call instead of to_core's ctypes calls and records;
    SciPy hands numpy's results back through asarray in every function).
    Returns (the Array, None), or (None, what to_core should be given: the
    capsule, which it then rejects with the precise reason)."""
    from . import arraytype as _arraytype

    capsule = obj if isinstance(obj, CapsuleType) else _ask(obj, None, False)
    if not isinstance(capsule, CapsuleType):
        return None, obj
    a = _arraytype.from_capsule(capsule)
    return (a, None) if a is not None else (None, capsule)


def live():
    """(managed tensors exported and not deleted, imports not yet released)."""
    return lib.st_dlpack_live_exports(), lib.st_dlpack_live_imports()


# ---------------------------------------------------------------- numpy


def to_numpy(c, dtype=None, copy=None):
    """numpy's __array__(dtype, copy) for Core c: a numpy array over the same
    memory through DLPack (zero-copy unless copy=True or a dtype conversion;
    read-only memory gives a read-only array).  A dtype of the core is
    converted by the core (one C cast); any other (float16, byte-swapped)
    by numpy.  Copies are made here, so numpy's from_dlpack is called
    without keywords (numpy >= 1.26 has it)."""
    import numpy as np

    copy = _copy_flag(copy, "__array__")
    if dtype is not None:
        want = np.dtype(dtype)
        if want.name != c.dtype.name or not want.isnative:
            if copy is False:
                raise ValueError(f"__array__: copy=False but {c.dtype.name} -> {want} needs a copy")
            target = _core.BY_NAME.get(want.name) if want.isnative else None
            if target is None:
                return np.from_dlpack(_Exported(c)).astype(want)
            c, copy = _core.astype(c, target), False
    elif c.dtype is _core.bfloat16:
        raise TypeError(
            "numpy has no bfloat16: convert first (to float32), or exchange it "
            "with a library that has it (PyTorch) through DLPack"
        )
    if copy:
        c = _core.astype(c, c.dtype)
    return np.from_dlpack(_Exported(c))


def numpy_from(producer):
    """numpy's zero-copy view of DLPack producer `producer` (an Array's
    __array__ with no dtype and no copy asked for)."""
    import numpy as np

    return np.from_dlpack(producer)


class _Exported:
    """A throwaway DLPack producer over a Core (for numpy.from_dlpack)."""

    __slots__ = ("_c",)

    def __init__(self, c):
        self._c = c

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        return export(self._c, stream, max_version, dl_device, copy)

    def __dlpack_device__(self):
        return CPU
