"""The registry of the Torch7 face's tensor types: each typed class by its
name (classes.py makes and registers them), the element type of each, and
the default tensor type (torch.setdefaulttensortype).  Below tensor.py:
the Tensor class finds its sibling classes here at run time."""

from __future__ import annotations

import sys

from ..core import arraytype as _fast

TENSOR_TYPES = {}  # 'torch.DoubleTensor' -> class (classes.make_class registers it)

TYPES = [
    ("ByteTensor", "uint8"),
    ("CharTensor", "int8"),
    ("ShortTensor", "int16"),
    ("IntTensor", "int32"),
    ("LongTensor", "int64"),
    ("FloatTensor", "float32"),
    ("DoubleTensor", "float64"),
]
# the 16-bit floats (Lua's HalfTensor; BFloat16Tensor an extension)
HALF_TYPES = [("HalfTensor", "float16"), ("BFloat16Tensor", "bfloat16")]


def tensor_class(name):
    """The tensor class named `name` ('LongTensor')."""
    return TENSOR_TYPES["torch." + name]


def class_of_dtype(name):
    """The tensor class of element type `name` ('float64' -> DoubleTensor),
    or None: bool, uint16/32/64 and complex have none."""
    for cls in TENSOR_TYPES.values():
        if cls._dt == name:
            return cls
    return None


_default = ["torch.DoubleTensor"]


def setdefaulttensortype(typename: str) -> None:
    """Set the default tensor type.

    Parameters
    ----------
    typename : str
        A tensor type's name, e.g. 'torch.FloatTensor'.

    Returns
    -------
    None

    Raises
    ------
    TypeError
        When typename names no tensor type.

    Notes
    -----
    ``torch.Tensor`` and ``torch.Storage`` follow it (they are looked up at each
    use), as do the functions given no tensor.

    Examples
    --------
    >>> import strided as torch
    >>> torch.setdefaulttensortype('torch.FloatTensor')
    >>> torch.Tensor(2).type()
    'torch.FloatTensor'
    >>> torch.setdefaulttensortype('torch.DoubleTensor')
    """
    if typename not in TENSOR_TYPES:
        raise ValueError(
            f"setdefaulttensortype: unknown type {typename!r}; expected one of "
            f"{sorted(TENSOR_TYPES)}"
        )
    _default[0] = typename
    publish_default()


def publish_default():
    """torch.Tensor and torch.Storage as plain attributes of the face's
    modules, set again at each change of the default type: a module's
    __getattr__ cost a microsecond on every torch.Tensor(...)."""
    cls = TENSOR_TYPES[_default[0]]
    _fast.t7_set_default(cls)  # what torch.zeros(3, 3) and kin make in C
    for name in ("strided", "strided.torch7"):
        module = sys.modules.get(name)
        if module is not None:
            module.Tensor, module.Storage = cls, cls._storage_cls


def getdefaulttensortype() -> str:
    """The name of the default tensor type.

    Returns
    -------
    str
        'torch.DoubleTensor' unless setdefaulttensortype changed it.

    Raises
    ------
    Nothing

    Notes
    -----
    The default type is what ``torch.Tensor``, ``torch.Storage`` and the
    functions given no tensor (``torch.zeros(2)``) use.

    Examples
    --------
    >>> import strided as torch
    >>> torch.getdefaulttensortype()
    'torch.DoubleTensor'
    """
    return _default[0]


def default_tensor_class():
    return TENSOR_TYPES[_default[0]]


def default_storage_class():
    return TENSOR_TYPES[_default[0]]._storage_cls
