"""The Array object of strided.compat: a thin wrapper over a core view
record (strided.core.base.Core), on a C base type (strided/_c/pyarray.c)
that holds the record and runs the plain operators.  The operators are
set up in compat/_operators.py (they call the elementwise functions);
indexing builds views (basic indices) or calls the index kernels (boolean
masks, integer arrays)."""

from __future__ import annotations


from collections.abc import Iterator
from types import EllipsisType, ModuleType
from typing import TYPE_CHECKING, Any, Union

from strided.core import arraytype as _arraytype, base as _core, dlpack as _dlpack, views as _views

from ._dtypes import KINDS

_export_capsule = _arraytype.export_capsule

if TYPE_CHECKING:
    from strided.core.base import DType

# one entry of an index (the standard's array object: ellipsis for `...`)
Index = Union[int, slice, EllipsisType, None]


class Device:
    """The one device of strided: the CPU.  Equal to the string "cpu"."""

    __slots__ = ()

    def __repr__(self):
        return "cpu"

    def __eq__(self, other):
        return isinstance(other, Device) or other == "cpu"

    def __hash__(self):
        return hash("cpu")

    def __reduce__(self):
        return "CPU"  # unpickles as the one Device


CPU = Device()


# The names that mean the CPU.  Only "cpu"; the peers' test harness
# (tests/peers/strided_for_strict.py) adds array-api-strict's device names.
DEVICE_NAMES = {"cpu"}


def check_device(device):
    if device is not None and not (isinstance(device, Device) or device in DEVICE_NAMES):
        raise ValueError(f"unknown device {device!r}; strided.compat has only 'cpu'")


API_VERSIONS = ("2025.12", "2024.12", "2023.12", "2022.12", "2021.12")

_item = _arraytype.item


def _namespace():
    """strided.compat (imported on first use: it imports this module), kept
    for the next call: library code asks every array for it, every call."""
    global _NAMESPACE
    if _NAMESPACE is None:
        import strided.compat

        _NAMESPACE = strided.compat
    return _NAMESPACE


_NAMESPACE: ModuleType | None = None


def _fmt(v):
    if isinstance(v, float):
        s = repr(v)
        return s[:-1] if s.endswith(".0") else s
    return repr(v)


def _nest(v):
    if isinstance(v, list):
        return "[" + ", ".join(_nest(e) for e in v) + "]"
    return _fmt(v)


class Array(_arraytype.ArrayBase):
    """An n-dimensional array of the array API standard over a core view.

    Parameters
    ----------
    *args : object
        Refused: arrays are made by the namespace's functions (asarray,
        zeros, ...), never by calling the class.
    **kwargs : object
        Refused, as args.

    Raises
    ------
    TypeError
        When the class is called directly.

    Notes
    -----
    The standard's attributes (dtype, shape, ndim, size, device, T, mT), every
    operator with its reflected and in-place forms, indexing (integers, slices
    with any step, ellipsis, None, integer and boolean arrays), to_device,
    ``__dlpack__``; beyond the standard, as numpy and PyTorch: format() of 0-d
    arrays, iteration over the first axis, ``__array__``
    (docs/array-api.md, *The Array object*).  Its C base
    (strided/_c/pyarray.c) holds the view record, read here as ``_c`` (a
    strided.core.base.Core), makes an Array of a Core (``Array._new(core)``)
    and carries the operators (compat/_operators.py).

    Examples
    --------
    >>> import strided.compat as xp
    >>> x = xp.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> x.shape, x.dtype, x.device
    ((2, 2), strided.float64, cpu)
    >>> x.T @ x
    Array([[10., 14.], [14., 20.]], dtype=float64)
    >>> x[0, ::-1]
    Array([2., 1.], dtype=float64)
    """

    __slots__ = ("__weakref__",)
    _c: Any  # the core view record, held by the C base (strided.core.base.Core)
    __hash__ = None  # type: ignore[assignment]  # mutable: unhashable, as numpy's
    REPR_LIMIT = 100  # more elements than this: the shape, not the values

    def __init__(self, *args, **kwargs):
        raise TypeError("Array objects are made by strided.compat functions (asarray, zeros, ...)")

    def __strided_core__(self):
        """A new core view record over this array's memory: the one seam
        between the faces (strided.core.base.core_view, strided.interop)."""
        c = self._c
        return c.view(c.offset, c.shape, c.strides)

    # ------------------------------------------------------------ attributes
    # dtype, shape, ndim, size, T and mT are getters of the C base, read
    # from the record (T and mT: a new view; their errors: _T, _mT below)
    if TYPE_CHECKING:
        # what a type checker sees of the attributes below and of the operators
        # _operators.py installs: the standard's array object (array_api_stubs)
        @property
        def dtype(self) -> DType: ...  # noqa: E704
        @property
        def shape(self) -> tuple[int, ...]: ...  # noqa: E704
        @property
        def ndim(self) -> int: ...  # noqa: E704
        @property
        def size(self) -> int: ...  # noqa: E704
        @property
        def T(self) -> Array: ...  # noqa: E704
        @property
        def mT(self) -> Array: ...  # noqa: E704

        # indexing (the C base's mapping slots: basic indices in C, the rest
        # compat/_indexing.py's array_getitem and array_setitem)
        def __getitem__(self, key: Index | tuple[Index | Array, ...] | Array, /) -> Array: ...  # noqa: E704
        def __setitem__(
            self,
            key: Index | tuple[Index | Array, ...] | Array,  # noqa: E704
            value: int | float | complex | bool | Array,
            /,
        ) -> None: ...

        def __add__(self, other: int | float | complex | Array, /) -> Array: ...  # noqa: E704
        def __radd__(self, other: int | float | complex | Array, /) -> Array: ...  # noqa: E704
        def __iadd__(self, other: int | float | complex | Array, /) -> Array: ...  # noqa: E704
        def __sub__(self, other: int | float | complex | Array, /) -> Array: ...  # noqa: E704
        def __rsub__(self, other: int | float | complex | Array, /) -> Array: ...  # noqa: E704
        def __isub__(self, other: int | float | complex | Array, /) -> Array: ...  # noqa: E704
        def __mul__(self, other: int | float | complex | Array, /) -> Array: ...  # noqa: E704
        def __rmul__(self, other: int | float | complex | Array, /) -> Array: ...  # noqa: E704
        def __imul__(self, other: int | float | complex | Array, /) -> Array: ...  # noqa: E704
        def __truediv__(self, other: int | float | complex | Array, /) -> Array: ...  # noqa: E704
        def __rtruediv__(self, other: int | float | complex | Array, /) -> Array: ...  # noqa: E704
        def __itruediv__(self, other: int | float | complex | Array, /) -> Array: ...  # noqa: E704
        def __floordiv__(self, other: int | float | Array, /) -> Array: ...  # noqa: E704
        def __rfloordiv__(self, other: int | float | Array, /) -> Array: ...  # noqa: E704
        def __ifloordiv__(self, other: int | float | Array, /) -> Array: ...  # noqa: E704
        def __mod__(self, other: int | float | Array, /) -> Array: ...  # noqa: E704
        def __rmod__(self, other: int | float | Array, /) -> Array: ...  # noqa: E704
        def __imod__(self, other: int | float | Array, /) -> Array: ...  # noqa: E704
        def __pow__(self, other: int | float | complex | Array, /) -> Array: ...  # noqa: E704
        def __rpow__(self, other: int | float | complex | Array, /) -> Array: ...  # noqa: E704
        def __ipow__(self, other: int | float | complex | Array, /) -> Array: ...  # noqa: E704
        def __matmul__(self, other: Array, /) -> Array: ...  # noqa: E704
        def __rmatmul__(self, other: Array, /) -> Array: ...  # noqa: E704
        def __imatmul__(self, other: Array, /) -> Array: ...  # noqa: E704
        def __and__(self, other: int | bool | Array, /) -> Array: ...  # noqa: E704
        def __rand__(self, other: int | bool | Array, /) -> Array: ...  # noqa: E704
        def __iand__(self, other: int | bool | Array, /) -> Array: ...  # noqa: E704
        def __or__(self, other: int | bool | Array, /) -> Array: ...  # noqa: E704
        def __ror__(self, other: int | bool | Array, /) -> Array: ...  # noqa: E704
        def __ior__(self, other: int | bool | Array, /) -> Array: ...  # noqa: E704
        def __xor__(self, other: int | bool | Array, /) -> Array: ...  # noqa: E704
        def __rxor__(self, other: int | bool | Array, /) -> Array: ...  # noqa: E704
        def __ixor__(self, other: int | bool | Array, /) -> Array: ...  # noqa: E704
        def __lshift__(self, other: int | Array, /) -> Array: ...  # noqa: E704
        def __rlshift__(self, other: int | Array, /) -> Array: ...  # noqa: E704
        def __ilshift__(self, other: int | Array, /) -> Array: ...  # noqa: E704
        def __rshift__(self, other: int | Array, /) -> Array: ...  # noqa: E704
        def __rrshift__(self, other: int | Array, /) -> Array: ...  # noqa: E704
        def __irshift__(self, other: int | Array, /) -> Array: ...  # noqa: E704
        def __lt__(self, other: int | float | Array, /) -> Array: ...  # noqa: E704
        def __le__(self, other: int | float | Array, /) -> Array: ...  # noqa: E704
        def __gt__(self, other: int | float | Array, /) -> Array: ...  # noqa: E704
        def __ge__(self, other: int | float | Array, /) -> Array: ...  # noqa: E704
        def __eq__(self, other: int | float | complex | bool | Array, /) -> Array: ...  # type: ignore[override]  # noqa: E704
        def __ne__(self, other: int | float | complex | bool | Array, /) -> Array: ...  # type: ignore[override]  # noqa: E704
        def __neg__(self, /) -> Array: ...  # noqa: E704
        def __pos__(self, /) -> Array: ...  # noqa: E704
        def __abs__(self, /) -> Array: ...  # noqa: E704
        def __invert__(self, /) -> Array: ...  # noqa: E704

    @property
    def device(self) -> Device:
        """The device the array's memory is on: always strided.compat's one CPU device."""
        return CPU

    def __array_namespace__(self, /, *, api_version: str | None = None) -> ModuleType:
        if api_version is not None and api_version not in API_VERSIONS:
            raise ValueError(
                f"api_version {api_version!r} not supported; "
                f"strided.compat implements {API_VERSIONS[0]}"
            )
        return _namespace()

    def to_device(self, device: Device, /, *, stream: int | Any | None = None) -> Array:
        """The array on a device: itself for 'cpu' (our only device); other devices raise
        ValueError."""
        check_device(device)
        if stream is not None:
            raise ValueError("the cpu device has no streams")
        return self

    def __repr__(self) -> str:
        dt = self.dtype.name
        if self.size > self.REPR_LIMIT or self.size == 0:
            return (
                f"Array([...], shape={self.shape}, dtype={dt})"
                if self.size
                else f"Array([], shape={self.shape}, dtype={dt})"
            )
        return f"Array({_nest(_core.tolist(self._c))}, dtype={dt})"

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        """format() and f-strings: a 0-d array formats the Python number it
        holds (f"{x:.3f}", f"{n:d}", and f"{x}" is "1.5"), as PyTorch's
        and numpy's do; an n-d array is str() with an empty spec and a
        TypeError with any other, as numpy's."""
        if not self.ndim:
            return format(_core.item(self._c), spec)
        if spec:
            raise TypeError(
                f"unsupported format string passed to Array.__format__: "
                f"{spec!r} needs a 0-d array, this one has shape {self.shape}"
            )
        return str(self)

    def __iter__(self) -> Iterator[Array]:
        """The sub-arrays along the first axis (views), as numpy's."""
        if not self.ndim:
            raise TypeError("iteration over a 0-d array")
        c, select = self._c, _views.select
        return (Array._new(select(c, 0, i)) for i in range(self.shape[0]))

    # ------------------------------------------------------------ DLPack and numpy (docs/interop.md)
    # numpy's ufuncs convert an Array (np.abs(x) is numpy's abs of
    # __array__'s view: an ndarray, as numpy-namespace code expects), and
    # numpy's scalars and arrays defer their operators to ours
    # (np.float64(2) * x calls x.__rmul__): no __array_ufunc__ (None would
    # make every ufunc refuse an Array) and a priority above numpy's, the
    # combination PyTorch's tensors use.  No __array_wrap__: ufunc results
    # stay numpy's (docs/interop.md, "numpy and the Array").
    __array_priority__ = 1000

    def __dlpack__(
        self,
        /,
        *,
        stream: int | Any | None = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[int, int] | None = None,
        copy: bool | None = None,
    ) -> Any:
        no_options = stream is None and dl_device is None and copy is None
        if no_options and _dlpack._versioned(max_version):
            # what numpy's from_dlpack asks for: one C call
            capsule = _export_capsule(self)
            if capsule is not None:
                return capsule
        return _dlpack.export(self._c, stream, max_version, dl_device, copy)

    def __dlpack_device__(self, /) -> tuple[int, int]:
        return _dlpack.device()

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> Any:
        if dtype is None and copy is None and self.dtype is not _core.bfloat16:
            # numpy's view of the memory, through __dlpack__'s one C call
            return _dlpack.numpy_from(self)
        return _dlpack.to_numpy(self._c, dtype, copy)

    # ------------------------------------------------------------ conversion to Python
    def _one(self, what):
        v = _item(self)  # in C: the plain case
        if v is not None:
            return v
        if self.size != 1:
            raise TypeError(
                f"only a one-element array converts to a Python {what}, "
                f"this one has shape {self.shape}"
            )
        return _core.item(self._c)

    def __bool__(self) -> bool:
        return bool(self._one("bool"))

    def __int__(self) -> int:
        if self.dtype in KINDS["complex floating"]:
            raise TypeError("int() of a complex array")
        return int(self._one("int"))

    def __float__(self) -> float:
        if self.dtype in KINDS["complex floating"]:
            raise TypeError("float() of a complex array")
        return float(self._one("float"))

    def __complex__(self) -> complex:
        v = self._one("complex")
        if isinstance(v, float) and v != v:
            return complex(v, v)  # the standard: a real NaN is NaN + NaN j
        return complex(v)

    def __index__(self) -> int:
        if self.dtype not in KINDS["integral"]:
            raise TypeError(f"only an integer array is an index, this one is {self.dtype.name}")
        return int(self._one("int"))

    # ------------------------------------------------------------ beyond the standard
    # astype (xp.astype as a method, as numpy's arrays have it) and pickling
    # (compat/_pickle.py) are set by compat/_operators.py: their modules
    # import this one
    if TYPE_CHECKING:

        def astype(self, dtype: DType, /, *, copy: bool = True) -> Array: ...  # noqa: E704

    def __len__(self):
        """The size of the first axis, as numpy's (TypeError for a 0-d array)."""
        if not self.ndim:
            raise TypeError("len() of a 0-d array")
        return self._c.shape[0]


# What the C base's getters leave to Python (compat/_operators.py gives
# them to it): the transposes' errors.  The index C declines (arrays, masks,
# errors) goes to compat/_indexing.py's getitem/setitem.
def _T(x):
    if x.ndim != 2:
        raise ValueError(
            f"T needs a 2-D array, this one has {x.ndim} dims (use mT or permute_dims)"
        )
    return Array._new(_views.transpose(x._c, 0, 1))


def _mT(x):
    if x.ndim < 2:
        raise ValueError(f"mT needs at least 2 dims, this array has {x.ndim}")
    return Array._new(_views.transpose(x._c, -2, -1))
