"""Torch7's typed tensors: ByteTensor ... DoubleTensor over one class that
holds a `_core.Core` view record.  1-based dimensions and indices, views
that share storage, methods documented as `[self]` returning self.

Every element operation is one C call through the internal layer
(_core, _views, _ops, _indexing); only apply/map/map2 call Python per
element, by definition."""

from __future__ import annotations

import math
import numbers
import operator
from typing import TYPE_CHECKING

from ..core import base as _core, dlpack as _dlpack, indexing as _indexing, views as _views
from ..core import storage as _storage
from ..core import arraytype as _fast
from ..core.arraytype import DECLINED, TensorBase
from ..core.base import Core, contiguous_strides
from .registry import TENSOR_TYPES, class_of_dtype, getdefaulttensortype, tensor_class as _typed
from .storage import LongStorage, Storage, _index, from_one

# The annotations are for the type stub (strided/__init__.pyi, stubs.py),
# never evaluated: they name its classes (ByteTensor ... DoubleTensor are
# made at import time, functions.py) and _StridedArray, its protocol of the
# other face's arrays (an object with __strided_core__).
from .overloads import overload

if TYPE_CHECKING:
    from typing import Any, Callable

    from typing_extensions import Self

_BASE1 = _indexing.BASE1


# ---------------------------------------------------------------- helpers


def isTensor(obj: object) -> bool:
    """True for the torch.*Tensor types.

    Parameters
    ----------
    obj : object
        Any value.

    Returns
    -------
    bool

    Raises
    ------
    Nothing
        Any value is accepted.

    Notes
    -----
    Lua's ``torch.isTensor``; a strided.compat Array is not one.

    Examples
    --------
    >>> import strided as torch
    >>> torch.isTensor(torch.ByteTensor()), torch.isTensor([1])
    (True, False)
    """
    return isinstance(obj, Tensor)


def _is_foreign_view(obj):
    """obj is another face's array over a core view (a strided.compat
    Array): it hands a new record over its memory to `__strided_core__`."""
    return hasattr(obj, "__strided_core__") and not isinstance(obj, Tensor)


def _foreign_memory(obj, name):
    """Tensor(array): a Core over the memory of a DLPack producer (numpy,
    PyTorch...) or of a buffer-protocol object (bytes, array.array...),
    with Torch7's shapes (bool read as bytes, 0-d as one element), or None
    for any other object.  (An extension beyond Lua, as from_dlpack.)"""
    if hasattr(obj, "__dlpack__"):
        c = _dlpack.to_core(obj, to_cpu=True)
    else:
        c = _core.from_buffer(obj, name)
        if c is None:
            return None
    return _torch7_view(c, f"{name}(array)")[0]


def _torch7_view(c, name):
    """(Core, tensor class) of foreign memory c as Torch7 has it: bool as
    bytes (0 and 1, Torch7's masks), a 0-d array as one element (in Torch7 a
    tensor without dimensions is empty); TypeError for an element type
    Torch7 has no tensor for."""
    kind = "uint8" if c.dtype.name == "bool" else c.dtype.name
    cls = class_of_dtype(kind)
    if cls is None:
        raise TypeError(
            f"{name}: Torch7 has no tensor type for {c.dtype.name}; "
            f"strided.compat.from_dlpack takes every dtype"
        )
    if c.ndim == 0 or kind != c.dtype.name:
        c = c.view(c.offset, c.shape or (1,), c.strides or (1,), _core.dtype(kind))
    return c, cls


def _is_int(v):
    return not isinstance(v, bool) and hasattr(v, "__index__") and not isinstance(v, Tensor)


def _is_number(v):
    """A real number that is not a bool (Python's or numpy's)."""
    return isinstance(v, numbers.Real) and not isinstance(v, bool) and not isinstance(v, Tensor)


def _sizes_from(args, name, allow_minus1=False):
    """Sizes given as numbers or as one LongStorage (or list/tuple)."""
    if len(args) == 1 and isinstance(args[0], LongStorage):
        sizes = args[0].tolist()
    elif len(args) == 1 and isinstance(args[0], (list, tuple)):
        sizes = list(args[0])
    else:
        sizes = list(args)
    out = []
    for i, s in enumerate(sizes, 1):
        s = _index(s, f"{name}: size {i}")  # a float truncated, as Lua
        if s < 0 and not (allow_minus1 and s == -1):
            raise ValueError(f"{name}: size {i} must be >= 0, got {s}")
        out.append(s)
    return out


def _needed_elements(offset, shape, strides):
    """1 + the highest element position a view reaches (0 if empty)."""
    if any(n == 0 for n in shape):
        return 0
    return offset + 1 + sum((n - 1) * s for n, s in zip(shape, strides) if s > 0)


def _fill_strides(shape, strides):
    """Torch7: absent or negative strides are computed 'as contiguous as possible'."""
    if strides is None:
        return list(contiguous_strides(shape))
    if len(strides) != len(shape):
        raise ValueError(f"{len(shape)} sizes but {len(strides)} strides")
    out = list(strides)
    expect = 1
    for d in range(len(shape) - 1, -1, -1):
        if out[d] < 0:
            out[d] = expect
        expect = out[d] * max(shape[d], 1)
    return out


def _grow(storage_ptr, need_elems, dt, what):
    """Grow an owned storage to hold need_elems elements (Torch7 does);
    borrowed memory raises."""
    need = need_elems * _core.dtype(dt).itemsize
    if storage_ptr.nbytes >= need:
        return
    if not _storage.owned(storage_ptr):
        raise ValueError(
            f"{what}: the view needs {need_elems} elements but the borrowed "
            f"storage holds {storage_ptr.nbytes // _core.dtype(dt).itemsize} "
            f"and cannot be resized"
        )
    try:
        _storage.resize(storage_ptr, need)
    except ValueError as e:  # pinned by a storage view of part of it
        raise ValueError(f"{what}: {e}") from None


def _empty_record(dt):
    t = _core._record()
    t.dtype = _core.dtype(dt).code
    return Core(t)


def _ix(name, fn, *args):
    """Call an _indexing function; IndexErrors from C are restated in
    Torch7's terms (the Torch7 name, an inclusive 1-based range)."""
    try:
        return fn(*args)
    except _core.CoreIndexError as e:
        raise IndexError(
            f"{name}: index {e.index} out of range [{e.lo}, {e.hi - 1}] for "
            f"dimension {e.dim}{from_one(e.index)}"
        ) from None
    except IndexError as e:
        raise IndexError(f"{name}: {e}") from None


def _inclusive_range(c, d, s, e, start_what, end_what, where):
    """c narrowed along d to the 1-based inclusive range [s, e] (negative:
    from the end), with IndexErrors that say which bound is out."""
    n = c.shape[d]
    s0, e0 = (s + n if s < 0 else s - 1), (e + n if e < 0 else e - 1)
    if not 0 <= s0 < n:
        raise IndexError(f"{start_what} out of range [1, {n}] (or [-{n}, -1]) {where}{from_one(s)}")
    if not s0 <= e0 < n:
        raise IndexError(f"{end_what} out of range [{s0 + 1}, {n}] {where}")
    return _views.narrow(c, d, s0, e0 - s0 + 1)


def _check_along(name, dst, d, idx, src, what="tensor"):
    """gather/scatter shapes, in 1-based terms: idx has dst's dimensions and
    fits dst (but along d) and src (everywhere)."""
    ish, dsh = idx.shape, dst.shape
    if src is not None and len(src.shape) != len(dsh):
        raise ValueError(
            f"{name}: source has {len(src.shape)} dimensions but the {what} has {len(dsh)}"
        )
    if len(ish) != len(dsh):
        raise ValueError(f"{name}: index has {len(ish)} dimensions but the {what} has {len(dsh)}")
    for k, n in enumerate(ish):
        if k != d and n > dsh[k]:
            raise ValueError(
                f"{name}: index has size {n} in dimension {k + 1} but the {what} only {dsh[k]}"
            )
        if src is not None and n > src.shape[k]:
            raise ValueError(
                f"{name}: index has size {n} in dimension {k + 1} but the source "
                f"only {src.shape[k]}"
            )


def _check_index_src(name, dst, d, idx, src):
    want = tuple(idx.size if k == d else n for k, n in enumerate(dst.shape))
    if tuple(src.shape) != want:
        raise ValueError(
            f"{name}: source has size {'x'.join(map(str, src.shape)) or '()'}, "
            f"expected {'x'.join(map(str, want))} ({idx.size} indices in "
            f"dimension {d + 1})"
        )


# ---------------------------------------------------------------- the class


def _converter(kind):
    """The method x:byte() (kind 'Byte') ...: x as that tensor type."""
    typename = f"torch.{kind}Tensor"

    def convert(self):
        return self.type(typename)

    convert.__name__ = convert.__qualname__ = kind.lower()
    convert.__annotations__ = {"return": f"{kind}Tensor"}
    convert.__doc__ = f"x:{kind.lower()}(): x as a {typename} (x itself when it is one)."
    return convert


class Tensor(TensorBase):
    """Base of the typed tensors; use ByteTensor ... DoubleTensor (or the
    default-type alias strided.Tensor).  Its C base (core.arraytype)
    holds the view record, read as `_c` (a Core)."""

    __slots__ = ("__weakref__",)
    _dt = "float64"
    _code = _core.float64.code  # the core's code of _dt
    _typename = None
    _storage_cls = None

    # ------------------------------------------------------------ construction
    @overload
    def __init__(self, *sizes: int) -> None: ...
    @overload
    def __init__(self, sizes: LongStorage, strides: LongStorage = ..., /) -> None: ...
    @overload
    def __init__(self, storage: Storage, offset: int = ..., /, *sizes_strides: int) -> None: ...
    @overload
    def __init__(
        self,
        storage: Storage,
        offset: int,
        sizes: LongStorage,
        strides: LongStorage | None = ...,
        /,
    ) -> None: ...
    @overload
    def __init__(self, values: list[Any] | tuple[Any, ...], /) -> None: ...
    @overload
    def __init__(self, tensor: Self, /) -> None: ...
    @overload
    def __init__(self, array: _StridedArray, /) -> None: ...
    @overload
    def __init__(self, array: _DLPackProducer | Buffer, /) -> None: ...

    # the declarations above are the stub's; Tensor(...) itself is
    # TensorBase's tp_init (pyarray.c), which makes Tensor(), Tensor(n1,
    # n2, ...) of int sizes, sizes in a LongStorage and a table of numbers in
    # C, as _empty_record, _alloc and _nested do, and calls _init otherwise
    del __init__

    def _init(self, *args: Any) -> None:
        """Tensor(...)'s general forms (TensorBase's tp_init calls it)."""
        dt = self._dt
        self._c = _empty_record(dt)
        if not args:
            return
        a0 = args[0]
        if isinstance(a0, Tensor):
            if len(args) != 1:
                raise TypeError(f"{self._typename}(tensor) takes no further arguments")
            if a0._dt != dt:
                raise TypeError(
                    f"{self._typename}(tensor) needs a {self._typename}, got "
                    f"{a0._typename}; use tensor.type('{self._typename}')"
                )
            self._set_tensor(a0)
        elif (
            _is_foreign_view(a0)
            or len(args) == 1
            and (c := _foreign_memory(a0, self._typename)) is not None
        ):
            # another face's array, a DLPack producer, a buffer: a view of
            # its memory in this class's type, else converted (a copy)
            if len(args) != 1:
                raise TypeError(f"{self._typename}(array) takes no further arguments")
            if _is_foreign_view(a0):
                c = _torch7_view(a0.__strided_core__(), f"{self._typename}(array)")[0]
            self._c = c if c.dtype.name == dt else _core.astype(c, dt)
        elif isinstance(a0, LongStorage) and self._dt == "int64" and len(args) == 1:
            # special case: LongTensor(LongStorage) views that storage
            self._set_storage(a0)
        elif isinstance(a0, LongStorage) and (len(args) == 1 or isinstance(args[1], LongStorage)):
            sizes = _sizes_from((a0,), self._typename)
            strides = args[1].tolist() if len(args) > 1 else None
            if len(args) > 2:
                raise TypeError(f"{self._typename}(sizes, strides) takes two LongStorages")
            self._alloc(sizes, strides)
        elif isinstance(a0, Storage):
            self._set_storage(*args)
        elif isinstance(a0, (list, tuple)):
            if len(args) != 1:
                raise TypeError(f"{self._typename}(table) takes one nested list")
            self._c = _nested(a0, dt)
        elif _is_number(a0):
            self._alloc(_sizes_from(args, self._typename), None)
        else:
            raise TypeError(
                f"{self._typename}: cannot construct from {type(a0).__name__} "
                f"{a0!r}; it takes sizes, a table (nested list), a storage, a "
                f"tensor, or an array (numpy, DLPack, buffer protocol)"
            )

    def _alloc(self, sizes, strides):
        strides = _fill_strides(sizes, strides)
        need = _needed_elements(0, sizes, strides)
        # zeroed: a reused block never shows a freed tensor's bytes
        st = _core.zeros_storage(need * _core.dtype(self._dt).itemsize)
        self._c.set(st, self._dt, 0, sizes, strides)

    def _set_tensor(self, src):
        c = src._c
        if c.ndim == 0:
            self._c = _empty_record(self._dt)
        else:
            self._c.set(c.storage, self._dt, c.offset, c.shape, c.strides)

    def _set_storage(self, storage, offset=1, *rest):
        name = self._typename
        if not isinstance(storage, self._storage_cls):
            raise TypeError(
                f"{name}: storage must be a {self._storage_cls._typename}, got "
                f"{type(storage).__name__}"
            )
        n = storage.size()
        offset = _index(offset, "storageOffset")
        if offset < 1:
            raise IndexError(f"{name}: storageOffset {offset} out of range [1, {max(n, 1)}]")
        if not rest:
            sizes, strides = [max(n - offset + 1, 0)], None
        elif isinstance(rest[0], LongStorage):
            sizes = _sizes_from((rest[0],), name)
            if len(rest) > 2:
                raise TypeError(f"{name}(storage, offset, sizes, strides): too many arguments")
            if len(rest) == 2 and rest[1] is not None:
                if not isinstance(rest[1], LongStorage):
                    raise TypeError(
                        f"{name}: strides must be a LongStorage, got {type(rest[1]).__name__}"
                    )
                strides = rest[1].tolist()
            else:
                strides = None
        else:
            nums = list(rest)
            for i, v in enumerate(nums):
                if not _is_int(v):
                    raise TypeError(
                        f"{name}: argument {i + 3} must be an integer, got {type(v).__name__} {v!r}"
                    )
            sizes = [operator.index(v) for v in nums[0::2]]
            strides = [operator.index(v) for v in nums[1::2]]
            strides += [-1] * (len(sizes) - len(strides))
            for i, s in enumerate(sizes, 1):
                if s < 0:
                    raise ValueError(f"{name}: size {i} must be >= 0, got {s}")
        strides = _fill_strides(sizes, strides)
        if any(s < 0 for s in strides):
            raise ValueError(f"{name}: negative strides are not allowed")
        need = _needed_elements(offset - 1, sizes, strides)
        _grow(storage._s, need, self._dt, name)
        self._c.set(storage._s, self._dt, offset - 1, sizes, strides)

    @classmethod
    def _wrap(cls, c):
        """A tensor of this class over Core c (0-d Cores stay 0-d records)."""
        self = cls.__new__(cls)
        self._c = c
        return self

    def _new(self, c):
        return type(self)._wrap(c)

    def new(self) -> Self:
        """Lua's `x:new()`: the class constructor called with x, i.e. a new
        tensor viewing x's storage with x's sizes and strides (test.lua's
        lerp writes through `a:new()` into a).  An empty tensor of x's type
        is `type(x)()`."""
        return type(self)(self)

    def _kcore(self):
        """A Core that kernels can take: Torch7's dimensionless empty tensor
        becomes a 1-D view of size 0."""
        c = self._c
        if c.ndim == 0:
            return Core.empty((0,), self._dt)
        return c

    # ------------------------------------------------------------ types
    @overload
    def type(self, typename: None = ...) -> str: ...
    @overload
    def type(self, typename: str | type[Tensor]) -> Tensor: ...

    def type(self, typename: str | type[Tensor] | None = None) -> str | Tensor:
        """x:type([typename]): x's type name, or x converted to that type (x itself when it
        has it)."""
        if typename is None:
            return self._typename
        if isinstance(typename, type) and issubclass(typename, Tensor):
            typename = typename._typename
        cls = TENSOR_TYPES.get(typename)
        if cls is None:
            raise ValueError(
                f"type: unknown tensor type {typename!r}; expected one of {sorted(TENSOR_TYPES)}"
            )
        if cls is type(self):
            return self
        if self._c.ndim == 0:
            return cls()
        return cls._wrap(_core.astype(self._c, cls._dt))

    def typeAs(self, tensor: Tensor) -> Tensor:
        """x:typeAs(t): x converted to t's type (x itself when it has it)."""
        return self.type(_tensor_arg(tensor, "typeAs").type())

    # x:byte() ... x:double(), x:half(): x converted (x itself when of that type);
    # x:bfloat16(), the extension's BFloat16Tensor
    byte, char, short, int, long, float, double, half, bfloat16 = map(
        _converter, ("Byte", "Char", "Short", "Int", "Long", "Float", "Double", "Half", "BFloat16")
    )

    def real(self) -> Tensor:
        """x:real(): x as the default tensor type (Tensor.lua's real)."""
        return self.type(getdefaulttensortype())

    def real(self) -> Tensor:
        """x:real(): x as the default tensor type (Tensor.lua's Tensor.real)."""
        return self.type(getdefaulttensortype())

    def isTensor(self, obj: object = None) -> bool:
        """x:isTensor(): True (a tensor)."""
        return isTensor(self if obj is None else obj)

    # ------------------------------------------------------------ geometry
    def nDimension(self) -> int:
        """x:nDimension(): the number of dimensions (0 for an empty tensor)."""
        return _fast.t7_ndim(self)

    dim = nDimension

    def _dim(self, dim, name="dim", extra=0):
        """1-based dimension -> 0-based, IndexError naming the range."""
        n = self._c.ndim + extra
        dim = _index(dim, name)
        if not 1 <= dim <= n:
            raise IndexError(
                f"{name} {dim} out of range [1, {n}]{from_one(dim)}"
                if n
                else f"{name} {dim} out of range: the tensor has no dimension"
            )
        return dim - 1

    @overload
    def size(self, dim: None = ...) -> LongStorage: ...
    @overload
    def size(self, dim: int) -> int: ...

    def size(self, dim: int | None = None) -> LongStorage | int:
        """x:size([dim]): the sizes as a LongStorage, or the size of dimension dim
        (1-based)."""
        if dim is None:
            r = _fast.t7_shape_storage(self, False)  # a new LongStorage made in C
            return LongStorage(list(self._c.shape)) if r is DECLINED else r
        r = _fast.t7_size(self, dim)
        return self._c.shape[self._dim(dim)] if r is DECLINED else r

    @overload
    def stride(self, dim: None = ...) -> LongStorage: ...
    @overload
    def stride(self, dim: int) -> int: ...

    def stride(self, dim: int | None = None) -> LongStorage | int:
        """x:stride([dim]): the strides (in elements) as a LongStorage, or that of dimension
        dim."""
        if dim is None:
            r = _fast.t7_shape_storage(self, True)  # a new LongStorage made in C
            return LongStorage(list(self._c.strides)) if r is DECLINED else r
        r = _fast.t7_stride(self, dim)
        return self._c.strides[self._dim(dim)] if r is DECLINED else r

    def __len__(self):
        return self._c.shape[0] if self._c.ndim else 0

    def storage(self) -> Storage | None:
        """x:storage(): the storage x views (None for an empty tensor without one)."""
        s = self._c.storage
        if not s:  # a NULL record
            return None
        return self._storage_cls._wrap(s)

    def storageOffset(self) -> int:
        """x:storageOffset(): the 1-based index in the storage of x's first element."""
        return self._c.offset + 1

    def isContiguous(self) -> bool:
        """x:isContiguous(): True when the elements lie in C order without gaps."""
        return self._c.is_contiguous()

    def isSize(self, sizes: LongStorage) -> bool:
        """x:isSize(sizes): True when x's sizes are those of the LongStorage."""
        if not isinstance(sizes, LongStorage):
            raise TypeError(f"isSize: expected a LongStorage, got {type(sizes).__name__}")
        return list(self._c.shape) == sizes.tolist()

    def isSameSizeAs(self, other: Tensor) -> bool:
        """x:isSameSizeAs(t): True when x and t have the same sizes."""
        return self._c.shape == _tensor_arg(other, "isSameSizeAs")._c.shape

    def nElement(self) -> int:
        """x:nElement(): the number of elements."""
        return _fast.t7_numel(self)

    def elementSize(self) -> int:
        """x:elementSize(): the size of one element in bytes."""
        return _core.dtype(self._dt).itemsize

    # ------------------------------------------------------------ set
    @overload
    def set(self) -> Self: ...
    @overload
    def set(self, tensor: Self, /) -> Self: ...
    @overload
    def set(self, storage: Storage, offset: int = ..., /, *sizes_strides: int) -> Self: ...
    @overload
    def set(
        self,
        storage: Storage,
        offset: int,
        sizes: LongStorage,
        strides: LongStorage | None = ...,
        /,
    ) -> Self: ...

    def set(self, *args: Any) -> Self:
        """x:set([storage, [offset, sizes, strides]] | t): x made a view of a storage, or of
        t's memory; returns x."""
        if not args:
            self._c = _empty_record(self._dt)
        elif isinstance(args[0], Tensor):
            if len(args) != 1:
                raise TypeError("set(tensor) takes no further arguments")
            if args[0]._dt != self._dt:
                raise TypeError(f"set: needs a {self._typename}, got {args[0]._typename}")
            self._set_tensor(args[0])
        elif isinstance(args[0], Storage):
            self._set_storage(*args)
        else:
            raise TypeError(f"set: expected a tensor or a storage, got {type(args[0]).__name__}")
        return self

    def isSetTo(self, other: Tensor) -> bool:
        """x:isSetTo(t): True when x and t view the same memory with the same sizes and
        strides."""
        a, b = self._c, _tensor_arg(other, "isSetTo")._c
        return (
            bool(a.storage)
            and a.storage == b.storage
            and a.offset == b.offset
            and a.shape == b.shape
            and a.strides == b.strides
            and self._dt == other._dt
        )

    # ------------------------------------------------------------ copy / fill
    def copy(self, src: Tensor) -> Self:
        """x:copy(t): t's elements copied into x (converted to x's type; same element
        count); returns x."""
        if _fast.t7_copy(self, src) is not DECLINED:
            return self
        if not isinstance(src, Tensor):
            raise TypeError(f"copy: expected a tensor, got {type(src).__name__}")
        n, m = self.nElement(), src.nElement()
        if n != m:
            raise ValueError(f"copy: source has {m} elements, destination {n}")
        if n:
            _core.copy_(self._c, _as_shape(src._c, self._c.shape))
        return self

    def fill(self, value: float) -> Self:
        """x:fill(value): every element set to value; returns x."""
        if _fast.t7_fill(self, value) is not DECLINED:
            return self
        if self.nElement():
            _core.fill_(self._c, value)
        return self

    def zero(self) -> Self:
        """x:zero(): every element set to 0; returns x."""
        return self.fill(0)

    def clone(self) -> Self:
        """x:clone(): a contiguous copy of x in a storage of its own."""
        r = _fast.t7_clone(self)
        if r is not DECLINED:
            return r
        if self._c.ndim == 0:
            return type(self)()
        out = Core.empty(self._c.shape, self._dt)
        _core.copy_(out, self._c)
        return self._new(out)

    def contiguous(self) -> Self:
        """x:contiguous(): x when it is contiguous, else a contiguous copy."""
        return self if self._c.is_contiguous() else self.clone()

    # ------------------------------------------------------------ resize
    @overload
    def resize(self, *sizes: int) -> Self: ...
    @overload
    def resize(self, sizes: LongStorage | list[int] | tuple[int, ...], /) -> Self: ...

    def resize(self, *sizes: Any) -> Self:
        """x:resize(sizes...): x resized (its storage grows when needed, keeping its
        elements in memory order); returns x."""
        sizes = _sizes_from(sizes, "resize")
        c = self._c
        item_ = _core.dtype(self._dt).itemsize
        if not sizes:
            self._c = _empty_record(self._dt)
            return self
        if c.ndim and list(c.shape) == sizes:
            return self  # Torch7 keeps a tensor of the right size as it is
        numel = math.prod(sizes)
        storage = c.storage
        offset = c.offset if storage else 0
        if not storage:  # a NULL record
            storage = _core.zeros_storage((numel or 0) * item_)
        elif numel:
            _grow(storage, offset + numel, self._dt, "resize")
        c.set(storage, self._dt, offset if numel else 0, sizes, None)
        return self

    def resizeAs(self, other: Tensor) -> Self:
        """x:resizeAs(t): x resized to t's sizes; returns x."""
        if _tensor_arg(other, "resizeAs")._c.ndim == 0:
            self._c = _empty_record(self._dt)
            return self
        return self.resize(*other._c.shape)

    # ------------------------------------------------------------ sub-tensors
    def narrow(self, dim: int, index: int, size: int) -> Self:
        """x.narrow(dim, index, size) (Lua's x:narrow): the view of `size` elements
        from `index` along `dim`, sharing x's storage.

        Parameters
        ----------
        dim : int
            The dimension, counted from 1.
        index : int
            The first element kept along dim, counted from 1.
        size : int
            How many elements are kept (0 to the size of dim from index).

        Returns
        -------
        Tensor
            A view: writing to it writes to x.

        Raises
        ------
        IndexError
            For a dim or index out of range (an index of 0 says the face counts
            from 1).
        ValueError
            For a size beyond the end of dim.

        Examples
        --------
        >>> import strided as torch
        >>> x = torch.range(1, 6).view(2, 3)
        >>> x.narrow(2, 2, 2)
         2  3
         5  6
        [torch.DoubleTensor of dimension 2x2]
        >>> x.narrow(1, 2, 1).fill(0)
         0  0  0
        [torch.DoubleTensor of dimension 1x3]
        >>> x
         1  2  3
         0  0  0
        [torch.DoubleTensor of dimension 2x3]
        """
        r = _fast.t7_narrow(self, dim, index, size)
        if r is not DECLINED:
            return r
        d = self._dim(dim)
        n = self._c.shape[d]
        index, size = _index(index, "index"), _index(size, "size")
        if not 1 <= index <= n:
            raise IndexError(
                f"narrow: index {index} out of range [1, {n}] for dimension {dim}{from_one(index)}"
            )
        if not 0 <= size <= n - index + 1:
            raise ValueError(
                f"narrow: size {size} out of range [0, {n - index + 1}] for "
                f"index {index} of dimension {dim} (size {n})"
            )
        return self._new(_views.narrow(self._c, d, index - 1, size))

    def sub(self, *bounds: int) -> Self:
        """x:sub(dim1s, dim1e, ...): the view of a range per dimension (1-based, inclusive;
        negative counts from the end)."""
        r = _fast.t7_sub(self, bounds)
        if r is not DECLINED:
            return r
        if len(bounds) % 2 or len(bounds) > 2 * max(self._c.ndim, 1):
            raise ValueError(
                f"sub: expected pairs of bounds for at most {self._c.ndim} "
                f"dimensions, got {len(bounds)} numbers"
            )
        c = self._c
        for k in range(0, len(bounds), 2):
            d = k // 2
            s, e = _index(bounds[k], "start"), _index(bounds[k + 1], "end")
            c = _inclusive_range(
                c, d, s, e, f"sub: start {s}", f"sub: end {e}", f"for dimension {d + 1}"
            )
        return self._new(c)

    # select and squeeze return a number or a tensor as the tensor's
    # dimensions (not the arguments' types) decide: Any, not a union every
    # caller of x.select(1, i).fill(0) would have to narrow
    def select(self, dim: int, index: int) -> Any:
        # Torch7's select on a 1-D tensor is get1d(index): the dimension is
        # not looked at (test.lua's lua_max calls v:select(2, j) on vectors)
        """x:select(dim, index): the view of slice index (1-based) along dim, one dimension
        less."""
        r = _fast.t7_select(self, dim, index)
        if r is not DECLINED:
            return r
        d = 0 if self._c.ndim == 1 and _is_int(dim) else self._dim(dim)
        n = self._c.shape[d]
        index = _index(index, "index")
        if not 1 <= index <= n:
            raise IndexError(
                f"select: index {index} out of range [1, {n}] for dimension {d + 1}"
                f"{from_one(index)}"
            )
        c = _views.select(self._c, d, index - 1)
        if c.ndim == 0:  # Torch7: select on a 1-D tensor gives the number
            return _number(c, self._dt)
        return self._new(c)

    # ------------------------------------------------------------ [] indexing
    def _locate(self, key, name="[]"):
        """Resolve a [] key to ('view', Core) / ('elem', Core 0-d) / ('mask', ByteTensor)."""
        c = self._c
        if c.ndim == 0 and not isinstance(key, Tensor):
            if key == () or key == slice(None) or key == []:
                return "view", c  # the empty tensor itself
            raise IndexError(f"{name}: index {key!r} into an empty tensor (no dimension)")
        if isinstance(key, Tensor):
            if not isinstance(key, _typed("ByteTensor")):
                raise TypeError(
                    f"{name}: a tensor index must be a torch.ByteTensor mask, got {key._typename}"
                )
            return "mask", key
        if isinstance(key, LongStorage):
            key = tuple(key.tolist())
            if len(key) != c.ndim:
                raise IndexError(
                    f"{name}: a LongStorage index needs {c.ndim} numbers, got {len(key)}"
                )
        if isinstance(key, list) or isinstance(key, slice) or _is_number(key):
            key = (key,)
        if not isinstance(key, tuple):
            raise TypeError(
                f"{name}: unsupported index {key!r} ({type(key).__name__}); use "
                f"numbers, [a, b] ranges, [] or :, a LongStorage or a ByteTensor mask"
            )
        if len(key) > c.ndim:
            raise IndexError(f"{name}: {len(key)} indices for a tensor of {c.ndim} dimensions")
        d = 0  # current dimension of the view being built
        orig = 0  # dimension of self, for messages (1-based)
        for k in key:
            orig += 1
            if isinstance(k, slice):
                if k != slice(None):
                    raise TypeError(
                        f"{name}: slices other than a bare ':' are not Torch7; "
                        f"use an inclusive range [a, b] (got {k!r} at dimension "
                        f"{orig})"
                    )
                d += 1
                continue
            if isinstance(k, (list, tuple)):
                n = c.shape[d]
                if len(k) == 0:
                    d += 1
                    continue
                if len(k) > 2:
                    raise ValueError(
                        f"{name}: a range is [start, end], got {list(k)} at dimension {orig}"
                    )
                s = k[0]
                e = k[1] if len(k) == 2 else k[0]
                s, e = (_index(v, f"{name}: range bound {v!r} at dimension {orig}") for v in (s, e))
                c = _inclusive_range(
                    c,
                    d,
                    s,
                    e,
                    f"{name}: index {s}",
                    f"{name}: range end {e}",
                    f"at dimension {orig}",
                )
                d += 1
                continue
            if not _is_number(k):
                raise TypeError(
                    f"{name}: index {k!r} at dimension {orig} must be an integer, "
                    f"a range [a, b], [] or ':' (got {type(k).__name__})"
                )
            k = _index(k, f"{name}: index at dimension {orig}")
            n = c.shape[d]
            i0 = k + n if k < 0 else k - 1
            if not 0 <= i0 < n:
                raise IndexError(
                    f"{name}: index {k} out of range [1, {n}] (or [-{n}, -1]) at "
                    f"dimension {orig}{from_one(k)}"
                )
            c = _views.select(c, d, i0)
        if c.ndim == 0:
            return "elem", c
        return "view", c

    def __getitem__(self, key):
        r = _fast.t7_get(self, key)  # int keys: in C
        if r is not DECLINED:
            return r
        kind, c = self._locate(key)
        if kind == "mask":
            return self.maskedSelect(c)
        if kind == "elem":
            return _number(c, self._dt)
        if c.ndim == 0:
            return type(self)()
        return self._new(c)

    def __setitem__(self, key, value):
        if _fast.t7_set(self, key, value) is not DECLINED:  # a number at int keys: in C
            return
        kind, c = self._locate(key)
        if kind == "mask":
            if isinstance(value, Tensor):
                self.maskedCopy(c, value)
            else:
                self.maskedFill(c, value)
            return
        if isinstance(value, Tensor):
            if kind == "view":
                self._new(c).copy(value)
            elif value.nElement() != 1:
                raise ValueError(
                    f"[]=: one element to set but the source tensor has {value.nElement()}"
                )
            else:
                _core.copy_(c, _as_shape(value._c, ()))
        elif _is_number(value):
            _core.fill_(c, value)
        else:
            raise TypeError(f"[]=: value must be a number or a tensor, got {type(value).__name__}")

    def __iter__(self):
        for i in range(1, len(self) + 1):
            yield self[i]

    # ------------------------------------------------------------ index, gather, scatter
    def _idx(self, idx, name, one_d=True):
        if not isinstance(idx, _typed("LongTensor")):
            raise TypeError(
                f"{name}: index must be a torch.LongTensor, got "
                f"{type(idx).__name__ if not isinstance(idx, Tensor) else idx._typename}"
            )
        return idx._kcore()

    @overload
    def index(self, dim: int, index: LongTensor, /) -> Self: ...
    @overload
    def index(self, src: Self, dim: int, index: LongTensor, /) -> Self: ...

    def index(self, *args: Any) -> Self:
        """index(dim, index) or result:index(src, dim, index)."""
        if len(args) == 3:
            src, dim, idx = args
            out = _tensor_arg(src, "index", "source").index(dim, idx)
            if out._dt != self._dt:
                raise TypeError(f"index: result is {self._typename}, source {src._typename}")
            return self.set(out)
        dim, idx = args
        d = self._dim(dim)
        k = self._idx(idx, "index")
        if k.ndim != 1:
            raise ValueError(f"index: the index must be 1-D, it has {k.ndim} dimensions")
        return self._new(_ix("index", _indexing.index_select, self._c, d, k, _BASE1))

    def _index_into(self, name, kernel, dim, idx, src):
        d = self._dim(dim)
        src = _same_type(self, src, name)
        k = self._idx(idx, name)
        _check_index_src(name, self._c, d, k, src._kcore())
        _ix(name, kernel, self._c, d, k, src._c, _BASE1)
        return self

    def indexCopy(self, dim: int, idx: LongTensor, src: Self) -> Self:
        """x:indexCopy(dim, index, src): src's slices copied to x's at index."""
        return self._index_into("indexCopy", _indexing.index_copy, dim, idx, src)

    def indexAdd(self, dim: int, idx: LongTensor, src: Self) -> Self:
        """x:indexAdd(dim, index, src): src's slices added to x's at index."""
        return self._index_into("indexAdd", _indexing.index_add, dim, idx, src)

    def indexFill(self, dim: int, idx: LongTensor, value: float) -> Self:
        """x:indexFill(dim, index, value): the slices of a LongTensor of 1-based indices
        along dim filled with value; returns x."""
        d = self._dim(dim)
        _ix(
            "indexFill",
            _indexing.index_fill,
            self._c,
            d,
            self._idx(idx, "indexFill"),
            value,
            _BASE1,
        )
        return self

    @overload
    def gather(self, dim: int, index: LongTensor, /) -> Self: ...
    @overload
    def gather(self, src: Self, dim: int, index: LongTensor, /) -> Self: ...

    def gather(self, *args: Any) -> Self:
        """gather(dim, index) or result:gather(src, dim, index)."""
        if len(args) == 3:
            src, dim, idx = args
            return self.set(_tensor_arg(src, "gather", "source").gather(dim, idx))
        dim, idx = args
        d = self._dim(dim)
        k = self._idx(idx, "gather")
        _check_along("gather", self._c, d, k, None)
        return self._new(_ix("gather", _indexing.gather, self._c, d, k, _BASE1))

    def scatter(self, dim: int, idx: LongTensor, src: Self | float) -> Self:
        """x:scatter(dim, index, src): src's elements (or a number) written at the 1-based
        indices along dim; returns x."""
        d = self._dim(dim)
        k = self._idx(idx, "scatter")
        if isinstance(src, Tensor):
            src = _same_type(self, src, "scatter")
            _check_along("scatter", self._c, d, k, src._kcore())
            _ix("scatter", _indexing.scatter, self._c, d, k, src._c, _BASE1)
        elif _is_number(src):
            _check_along("scatter", self._c, d, k, None)
            _ix("scatter", _indexing.scatter_fill, self._c, d, k, src, _BASE1)
        else:
            raise TypeError(f"scatter: src must be a tensor or a number, got {type(src).__name__}")
        return self

    # ------------------------------------------------------------ masks
    def _mask(self, mask, name):
        if not isinstance(mask, _typed("ByteTensor")):
            raise TypeError(
                f"{name}: mask must be a torch.ByteTensor, got "
                f"{mask._typename if isinstance(mask, Tensor) else type(mask).__name__}"
            )
        n, m = self.nElement(), mask.nElement()
        if n != m:
            raise ValueError(f"{name}: mask has {m} elements but the tensor has {n}")
        return _as_shape(mask._kcore(), self._kcore().shape)

    @overload
    def maskedSelect(self, mask: ByteTensor, /) -> Self: ...
    @overload
    def maskedSelect(self, src: Self, mask: ByteTensor, /) -> Self: ...

    def maskedSelect(self, *args: Any) -> Self:
        """maskedSelect(mask) or result:maskedSelect(src, mask)."""
        if len(args) == 2:
            src, mask = args
            return self.set(_same_type(self, src, "maskedSelect").maskedSelect(mask))
        (mask,) = args
        m = self._mask(mask, "maskedSelect")
        return self._new(_indexing.masked_select(self._kcore(), m))

    def maskedCopy(self, mask: ByteTensor, src: Self) -> Self:
        """x:maskedCopy(mask, src): src's elements, in order, copied where the ByteTensor
        mask is 1; returns x."""
        m = self._mask(mask, "maskedCopy")
        src = _same_type(self, src, "maskedCopy")
        _indexing.masked_copy(self._kcore(), m, src._kcore())
        return self

    def maskedFill(self, mask: ByteTensor, value: float) -> Self:
        """x:maskedFill(mask, value): value written where the ByteTensor mask is 1; returns
        x."""
        m = self._mask(mask, "maskedFill")
        _indexing.masked_fill(self._kcore(), m, value)
        return self

    @overload
    def nonzero(self) -> LongTensor: ...
    @overload
    def nonzero(self, src: Tensor, /) -> LongTensor: ...
    @overload
    def nonzero(self, result: LongTensor, src: Tensor, /) -> LongTensor: ...

    def nonzero(self, *args: Any) -> LongTensor:
        """nonzero() or indices:nonzero(src) / x.nonzero(indices, x)."""
        if len(args) == 2:
            res, src = args
            return _tensor_arg(res, "nonzero", "result").set(
                _tensor_arg(src, "nonzero", "source").nonzero()
            )
        if len(args) == 1:
            _tensor_arg(args[0], "nonzero", "source")
            return (
                self.set(args[0].nonzero())
                if isinstance(self, _typed("LongTensor"))
                else args[0].nonzero()
            )
        return _typed("LongTensor")._wrap(_indexing.nonzero(self._kcore(), _BASE1))

    # ------------------------------------------------------------ expand, repeat, squeeze
    @overload
    def expand(self, *sizes: int) -> Self: ...
    @overload
    def expand(self, sizes: LongStorage | list[int] | tuple[int, ...], /) -> Self: ...
    @overload
    def expand(self, src: Self, /, *sizes: int) -> Self: ...
    @overload
    def expand(self, src: Self, sizes: LongStorage | list[int] | tuple[int, ...], /) -> Self: ...

    def expand(self, *sizes: Any) -> Self:
        """x:expand(sizes...): a view with size-1 dimensions repeated by zero strides, no
        copy."""
        if sizes and isinstance(sizes[0], Tensor):  # result:expand(src, sizes)
            return self.set(sizes[0].expand(*sizes[1:]))
        sizes = _sizes_from(sizes, "expand")
        if self._c.ndim == 0 and not sizes:
            return type(self)()
        try:
            return self._new(_views.expand(self._c, sizes))
        except ValueError as e:
            raise ValueError(f"expand: {e}") from None

    @overload
    def expandAs(self, tensor: Tensor, /) -> Self: ...
    @overload
    def expandAs(self, src: Self, tensor: Tensor, /) -> Self: ...

    def expandAs(self, *args: Any) -> Self:
        """x:expandAs(t): x expanded to t's sizes (a view)."""
        if len(args) == 2:
            return self.set(_tensor_arg(args[0], "expandAs", "source").expandAs(args[1]))
        if len(args) != 1:
            raise TypeError(
                f"expandAs: expected (tensor) or (source, tensor), got {len(args)} arguments"
            )
        return self.expand(*_tensor_arg(args[0], "expandAs")._c.shape)

    @overload
    def repeatTensor(self, *sizes: int) -> Self: ...
    @overload
    def repeatTensor(self, sizes: LongStorage | list[int] | tuple[int, ...], /) -> Self: ...
    @overload
    def repeatTensor(self, src: Self, /, *sizes: int) -> Self: ...
    @overload
    def repeatTensor(
        self, src: Self, sizes: LongStorage | list[int] | tuple[int, ...], /
    ) -> Self: ...

    def repeatTensor(self, *args: Any) -> Self:
        """x:repeatTensor(sizes...): a new tensor of x repeated that many times along each
        dimension."""
        if args and isinstance(args[0], Tensor):  # result:repeatTensor(src, sizes)
            return self.set(args[0].repeatTensor(*args[1:]))
        reps = _sizes_from(args, "repeatTensor")
        c = self._kcore()
        if len(reps) < c.ndim:
            raise ValueError(
                f"repeatTensor: {len(reps)} repetitions for a tensor of {c.ndim} dimensions"
            )
        xshape = [1] * (len(reps) - c.ndim) + list(c.shape)
        if max(reps, default=0) >= 2**63 or math.prod(r * s for r, s in zip(reps, xshape)) >= 2**63:
            raise OverflowError(
                f"repeatTensor: repetitions {tuple(reps)} of a tensor "
                f"of size {tuple(c.shape)} make more than 2**63 - 1 elements"
            )
        x = _as_shape(c, xshape)
        out = Core.empty([r * s for r, s in zip(reps, xshape)], self._dt)
        # view out as (r1, s1, r2, s2, ...) and copy x expanded over the r's
        shape, strides = [], []
        ost = out.strides
        for d, (r, s) in enumerate(zip(reps, xshape)):
            shape += [r, s]
            strides += [ost[d] * s, ost[d]]
        if out.size:
            v = out.view(0, shape, strides)
            xs = []
            for s in xshape:
                xs += [1, s]
            _core.copy_(v, _views.expand(_as_shape(x, xs), shape))
        return self._new(out)

    @overload
    def squeeze(self, dim: int | None = ..., /) -> Any: ...
    @overload
    def squeeze(self, src: Self, dim: int | None = ..., /) -> Any: ...

    def squeeze(self, *args: Any) -> Any:
        """squeeze([dim]) or result:squeeze(src[, dim]).  As Lua: a result of
        one element in one dimension comes back as a number (with a dim, only
        when the tensor had at most one dimension); result:squeeze(src) still
        points result at the tensor."""
        if args and isinstance(args[0], Tensor):  # result:squeeze(src[, dim])
            self.set(args[0]._squeezed(*args[1:]))
            return args[0].squeeze(*args[1:])
        t = self._squeezed(*args)
        dims_given = bool(args) and args[0] is not None
        if t._c.ndim == 1 and t._c.size == 1 and not (dims_given and self._c.ndim > 1):
            return _number(t._c, self._dt)
        return t

    def _squeezed(self, *args):
        if self._c.ndim == 0:
            return type(self)()
        if args and args[0] is not None:
            c = _views.squeeze(self._c, self._dim(args[0]))
        else:
            c = _views.squeeze(self._c)
        if c.ndim == 0:  # Torch7 keeps one dimension: a 1x1 squeezes to size 1
            c = _views.unsqueeze(c, 0)
        return self._new(c)

    def unsqueeze(self, dim: int) -> Self:
        """x:unsqueeze(dim): the view with a size-1 dimension inserted at dim."""
        d = self._dim(dim, extra=1)
        return self._new(_views.unsqueeze(self._c, d))

    # ------------------------------------------------------------ views
    @overload
    def view(self, *sizes: int) -> Self: ...
    @overload
    def view(self, sizes: LongStorage | list[int] | tuple[int, ...], /) -> Self: ...
    @overload
    def view(self, src: Self, /, *sizes: int) -> Self: ...
    @overload
    def view(self, src: Self, sizes: LongStorage | list[int] | tuple[int, ...], /) -> Self: ...

    def view(self, *args: Any) -> Self:
        """x:view(sizes...): a view of contiguous x with other sizes (-1 once: inferred)."""
        if args and isinstance(args[0], Tensor):  # result:view(src, sizes)
            return self.set(args[0].view(*args[1:]))
        sizes = _sizes_from(args, "view", allow_minus1=True)
        try:
            v = _views.view_as_shape(self._kcore(), sizes)
        except ValueError as e:
            raise ValueError(f"view: {e}") from None
        if v is None:
            raise ValueError(
                f"view: a tensor of size {tuple(self._c.shape)} and strides "
                f"{tuple(self._c.strides)} cannot be viewed as {tuple(sizes)}; "
                f"call contiguous() first"
            )
        return self._new(v)

    @overload
    def viewAs(self, tensor: Tensor, /) -> Self: ...
    @overload
    def viewAs(self, src: Self, tensor: Tensor, /) -> Self: ...

    def viewAs(self, *args: Any) -> Self:
        """x:viewAs(t): x viewed with t's sizes."""
        if len(args) == 2:
            return self.set(_tensor_arg(args[0], "viewAs", "source").viewAs(args[1]))
        if len(args) != 1:
            raise TypeError(
                f"viewAs: expected (tensor) or (source, tensor), got {len(args)} arguments"
            )
        if _tensor_arg(args[0], "viewAs")._c.ndim == 0:
            if self.nElement():
                raise ValueError(
                    f"viewAs: {self.nElement()} elements cannot be viewed as an empty tensor"
                )
            return type(self)()
        return self.view(*args[0]._c.shape)

    def transpose(self, dim1: int, dim2: int) -> Self:
        """x:transpose(dim1, dim2): the view with two dimensions swapped."""
        return self._new(
            _views.transpose(self._c, self._dim(dim1, "dim1"), self._dim(dim2, "dim2"))
        )

    def t(self) -> Self:
        """x:t(): the transpose of a 2-D tensor (a view)."""
        r = _fast.t7_t(self)
        if r is not DECLINED:
            return r
        if self._c.ndim != 2:
            raise ValueError(f"t: the tensor must have 2 dimensions, it has {self._c.ndim}")
        return self.transpose(1, 2)

    @overload
    def permute(self, *dims: int) -> Self: ...
    @overload
    def permute(self, dims: LongStorage | list[int] | tuple[int, ...], /) -> Self: ...

    def permute(self, *dims: Any) -> Self:
        """x:permute(dims...): the view with the dimensions in that order."""
        if len(dims) == 1 and isinstance(dims[0], (list, tuple, LongStorage)):
            dims = list(dims[0])
        if len(dims) != self._c.ndim:
            raise ValueError(
                f"permute: {len(dims)} dimensions given for a tensor of {self._c.ndim}"
            )
        d0 = [self._dim(d, f"dimension {i}") for i, d in enumerate(dims, 1)]
        if sorted(d0) != list(range(self._c.ndim)):
            raise ValueError(f"permute: {list(dims)} is not a permutation of 1..{self._c.ndim}")
        return self._new(_views.permute(self._c, d0))

    def unfold(self, dim: int, size: int, step: int) -> Self:
        """x:unfold(dim, size, step): the view of every slice of size along dim, step apart,
        as a new last dimension."""
        d = self._dim(dim)
        size, step = _index(size, "size"), _index(step, "step")
        n = self._c.shape[d]
        if not 0 <= size <= n:
            raise ValueError(f"unfold: size {size} out of range [0, {n}] for dimension {dim}")
        if step < 1:
            raise ValueError(f"unfold: step must be >= 1, got {step}")
        return self._new(_views.unfold(self._c, d, size, step))

    # ------------------------------------------------------------ apply, map, map2
    def apply(self, f: Callable[[float], float | None]) -> Self:
        """x:apply(f): each element replaced by f(element) (None leaves it); returns x."""
        vals = _flat_values(self)
        res = [_result(f(v), "apply", i) for i, v in enumerate(vals)]
        _write_back(self, vals, res)
        return self

    def map(self, other: Tensor, f: Callable[[float, float], float | None]) -> Self:
        """x:map(t, f): each element replaced by f(element, t's element); returns x."""
        a, b = _flat_values(self), _flat_values(other)
        if len(a) != len(b):
            raise ValueError(f"map: {len(a)} elements against {len(b)}")
        res = [_result(f(x, y), "map", i) for i, (x, y) in enumerate(zip(a, b))]
        _write_back(self, a, res)
        return self

    def map2(
        self, t1: Tensor, t2: Tensor, f: Callable[[float, float, float], float | None]
    ) -> Self:
        """x:map2(t1, t2, f): each element replaced by f(element, t1's, t2's); returns x."""
        a, b, c = _flat_values(self), _flat_values(t1), _flat_values(t2)
        if not len(a) == len(b) == len(c):
            raise ValueError(f"map2: {len(a)}, {len(b)} and {len(c)} elements")
        res = [_result(f(x, y, z), "map2", i) for i, (x, y, z) in enumerate(zip(a, b, c))]
        _write_back(self, a, res)
        return self

    # ------------------------------------------------------------ split / chunk
    @overload
    def split(self, size: int, dim: int = ..., /) -> list[Self]: ...
    @overload
    def split(self, result: list[Self], size: int, dim: int = ..., /) -> list[Self]: ...

    def split(self, *args: Any) -> list[Self]:
        """split([result,] size[, dim]): views of `size` along dim (default 1);
        a given result list is emptied and receives them."""
        return self._pieces("split", args, lambda k, n: k)

    @overload
    def chunk(self, n: int, dim: int = ..., /) -> list[Self]: ...
    @overload
    def chunk(self, result: list[Self], n: int, dim: int = ..., /) -> list[Self]: ...

    def chunk(self, *args: Any) -> list[Self]:
        """chunk([result,] n[, dim]): n views of equal size (the last smaller)."""
        return self._pieces("chunk", args, lambda k, n: math.ceil(n / k) or 1)

    def _pieces(self, name, args, size_of):
        result = None
        if args and isinstance(args[0], list):
            result, args = args[0], args[1:]
        k = _index(args[0], "size" if name == "split" else "n")
        if k < 1:
            raise ValueError(f"{name}: {'size' if name == 'split' else 'n'} must be >= 1, got {k}")
        dim = args[1] if len(args) > 1 else 1
        n = self._c.shape[self._dim(dim)]
        size = size_of(k, n)
        out = [self.narrow(dim, i + 1, min(size, n - i)) for i in range(0, n, size)]
        if result is None:
            return out
        result[:] = out
        return result

    # ------------------------------------------------------------ reference counting
    def retain(self) -> Self:
        """x:retain(): Lua's reference count up; Python counts its own references, so it
        only returns x."""
        self._c.t.refcount += 1
        return self

    def free(self) -> None:
        """x:free(): Lua's reference count down; Python frees by its own counting, so it
        does nothing."""
        t = self._c.t
        if t.refcount > 0:
            t.refcount -= 1
        if t.refcount <= 0:
            # let go of the storage: the tensor becomes empty (never freed twice)
            self._c = _empty_record(self._dt)
            self._c.t.refcount = 0

    # ------------------------------------------------------------ conversion
    def tolist(self) -> list[Any]:
        """x.tolist(): the elements as nested lists of Python numbers (as totable)."""
        if self._c.ndim == 0:
            return []
        return _core.tolist(self._c)

    totable = tolist

    # ------------------------------------------------------------ DLPack and numpy (docs/interop.md)
    # numpy defers its operators to ours instead of converting the tensor
    __array_ufunc__ = None

    def __strided_core__(self):
        """A new core view record over this tensor's memory: the one seam
        between the faces (strided.compat.asarray, strided.interop)."""
        c = self._c
        return c.view(c.offset, c.shape, c.strides)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        return _dlpack.export(self._kcore(), stream, max_version, dl_device, copy)

    def __dlpack_device__(self):
        return _dlpack.device()

    def __array__(self, dtype=None, copy=None):
        return _dlpack.to_numpy(self._kcore(), dtype, copy)

    def numpy(self) -> Any:
        """A numpy array over this tensor's memory (zero-copy, through DLPack)."""
        return _dlpack.to_numpy(self._kcore(), None, False)

    def __str__(self):
        from .printing import format_tensor

        return format_tensor(self._typename, self._c)

    __repr__ = __str__

    def __reduce__(self):
        # the storage object pickles once (pickle's memo): tensors pickled
        # together that view one storage share it again after loading
        c = self._c
        return (
            _rebuild_view,
            (self._typename, self.storage(), c.offset, list(c.shape), list(c.strides)),
        )

    def __bool__(self):
        raise TypeError("the truth value of a tensor is ambiguous; compare numbers instead")

    __hash__ = object.__hash__


# ---------------------------------------------------------------- module helpers


def _rebuild_view(typename, storage, offset, shape, strides):
    """Unpickle a tensor: a view of `storage` (bounds checked in C)."""
    cls = TENSOR_TYPES.get(typename)
    if cls is None:
        raise ValueError(f"unpickling a tensor: unknown tensor type {typename!r}")
    if storage is not None and not isinstance(storage, cls._storage_cls):
        raise ValueError(f"unpickling a {typename}: storage is a {type(storage).__name__}")
    # a corrupted pickle: every field is checked, then the bounds in C;
    # whatever is wrong is a ValueError naming the tensor
    if not (
        type(offset) is int
        and offset >= 0
        and isinstance(shape, list)
        and isinstance(strides, list)
        and len(shape) == len(strides) <= _core.MAX_DIMS
        and all(type(v) is int for v in shape + strides)
    ):
        raise ValueError(
            f"unpickling a {typename}: bad geometry (offset {offset!r}, "
            f"sizes {shape!r}, strides {strides!r})"
        )
    if storage is None or (not shape and storage.size() <= offset):
        if shape:
            raise ValueError(f"unpickling a {typename}: sizes {shape} without a storage")
        return cls()  # Torch7's empty tensor
    try:
        return cls._wrap(Core.over(storage._s, cls._dt, offset, tuple(shape), tuple(strides)))
    except (IndexError, OverflowError, ValueError) as e:
        raise ValueError(
            f"unpickling a {typename}: sizes {shape}, strides {strides} and "
            f"offset {offset} do not fit its storage of {storage.size()} "
            f"elements: {e}"
        ) from None


def _rebuild(typename, values, shape):
    # pickles made before tensors kept their storage (values and sizes only)
    cls = TENSOR_TYPES.get(typename)
    if cls is None:
        raise ValueError(f"unpickling a tensor: unknown tensor type {typename!r}")
    if values is None:
        return cls()
    t = cls(*shape) if 0 in shape else cls._wrap(_nested(values, cls._dt))
    return t


def _nested(obj, dt):
    try:
        c = _core.from_nested(obj, dt)
    except TypeError:
        if _core.dtype(dt).kind not in "iu":
            raise
        c = _core.astype(_core.from_nested(obj, "float64"), dt)  # C truncates toward zero
    return c


def _as_shape(c, shape):
    """Core c (same element count) seen with `shape`: a view when the layout
    allows, else a contiguous copy."""
    if tuple(c.shape) == tuple(shape):
        return c
    v = _views.view_as_shape(c, shape)
    if v is None:
        v = _views.view_as_shape(_core.contiguous(c), shape)
    return v


def _same_type(dst, src, name):
    if not isinstance(src, Tensor):
        raise TypeError(f"{name}: expected a tensor, got {type(src).__name__}")
    if src._dt != dst._dt:
        raise TypeError(f"{name}: source is {src._typename} but destination is {dst._typename}")
    return src


def _number(c, dt):
    """A 0-d or one-element Core as the Python number Lua would give: an
    int for integer types, a float for Float and Double."""
    v = _core.item(c)
    return float(v) if _core.dtype(dt).kind == "f" else int(v)


def _flat_values(t):
    if not isinstance(t, Tensor):
        raise TypeError(f"expected a tensor, got {type(t).__name__}")
    if t.nElement() == 0:
        return []
    c = _core.contiguous(t._c)
    flat = Core.over(c.storage, c.dtype, c.offset, (c.size,))
    return _core.tolist(flat)


def _result(r, name, i):
    """The callable's result r for element i (0-based, C order) of apply/map/
    map2: a real number, or None to keep the element (as Lua's nil).  Lua
    raises for a string, a table or any other non-number; so does this,
    before anything is written (Lua may have written the earlier elements).
    A bool is a number in Python (True is 1)."""
    if r is None or isinstance(r, numbers.Real):
        return r
    shown = (repr(r).splitlines() or [""])[0][:60]
    raise TypeError(
        f"{name}: the function must return a number or None, got "
        f"{type(r).__name__} {shown} for element {i + 1}"
    )


def _write_back(t, old, new):
    """Store the callable's results (None keeps the element) into t, C order,
    with one C copy (and a C cast)."""
    if not old:
        return
    vals = [o if n is None else n for o, n in zip(old, new)]
    dt = _core.dtype(t._dt)
    try:
        src = _core.from_nested(vals, dt)
    except (TypeError, OverflowError):
        src = _core.from_nested([float(v) for v in vals], "float64")
    _core.copy_(t._c, _as_shape(src, t._c.shape))


def _tensor_arg(value, method, what="tensor"):
    """value when it is a tensor, else the TypeError naming method and what."""
    if not isinstance(value, Tensor):
        raise TypeError(f"{method}: {what} must be a tensor, got {type(value).__name__}")
    return value


def tensor_from_dlpack(obj: object, *, copy: bool | None = None) -> Tensor:
    """A Torch7 tensor over the memory of a DLPack producer (numpy, PyTorch...).

    Parameters
    ----------
    obj : object
        An object with ``__dlpack__`` (a numpy array, a PyTorch tensor, a
        strided.compat Array), or a DLPack capsule.
    copy : bool, optional
        None (the default): a view, a copy only when one is needed (read-only
        memory); True: always a copy; False: never (ValueError when one would be
        needed).

    Returns
    -------
    Tensor
        Of the class of the element type: uint8 ByteTensor, int8 CharTensor,
        int16 ShortTensor, int32 IntTensor, int64 LongTensor, float32
        FloatTensor, float64 DoubleTensor, float16 HalfTensor.

    Raises
    ------
    TypeError
        For an element type Torch7 has no tensor for (uint16/32/64, complex).
    ValueError
        For a 0-d producer, or memory on another device.

    Notes
    -----
    strided.from_dlpack: a Torch7 tensor over a DLPack producer's memory
    (zero-copy unless copy=True; see `to_core`), of the class of its element
    type: uint8 ByteTensor, int8 CharTensor, int16 ShortTensor, int32
    IntTensor, int64 LongTensor, float32 FloatTensor, float64 DoubleTensor,
    float16 HalfTensor.
    bool arrives as a ByteTensor over the same bytes (0 and 1, Torch7's
    masks); uint16/32/64 and complex have no Torch7 class (TypeError: use
    strided.compat.from_dlpack).  A 0-d array becomes a 1-D tensor of one
    element (in Torch7 a tensor without dimensions is empty).

    Examples
    --------
    >>> import numpy as np
    >>> import strided as torch
    >>> a = np.arange(3.0)
    >>> t = torch.from_dlpack(a)
    >>> t.fill(1)
     1
     1
     1
    [torch.DoubleTensor of dimension 3]
    >>> a
    array([1., 1., 1.])
    """
    c, cls = _torch7_view(_dlpack.to_core(obj, copy=copy, to_cpu=True), "from_dlpack")
    return cls._wrap(c)
