"""The one crossing between the two faces: a Torch7 tensor and a
strided.compat Array over the same memory, no copy.

Each face's objects hand a new core view record over their memory to
`__strided_core__()`; the other face builds its object on that record.
Nothing else of one face is visible to the other (docs/architecture.md:
the import rule).  `strided.compat.asarray(tensor)` and `Tensor(array)`
use the same seam."""

from __future__ import annotations


def to_array(t, /):
    """A strided.compat Array viewing a Torch7 tensor's memory, no copy.

    Parameters
    ----------
    t : Tensor
        A Torch7 tensor (or any object with ``__strided_core__``).

    Returns
    -------
    Array
        With t's shape, strides (in elements) and dtype.

    Raises
    ------
    TypeError
        When t has no ``__strided_core__``.

    Notes
    -----
    The one crossing between the faces (docs/interop.md): the Array counts
    from 0, the tensor from 1; writes through either are seen by the other.

    Examples
    --------
    >>> import strided as torch
    >>> import strided.interop
    >>> t = torch.LongTensor([1, 2, 3])
    >>> x = strided.interop.to_array(t)
    >>> x[0] = 10
    >>> t[1]
    10
    """
    from strided.compat._array import Array
    from strided.compat._dtypes import check_imported

    if not hasattr(t, "__strided_core__"):
        raise TypeError(f"to_array: expected a Torch7 tensor, got {type(t).__name__}")
    return Array._new(check_imported(t.__strided_core__(), "to_array"))


def to_tensor(x, /):
    """A Torch7 tensor viewing a strided.compat Array's memory, no copy.

    Parameters
    ----------
    x : Array
        A strided.compat Array (or any object with ``__strided_core__``).

    Returns
    -------
    Tensor
        Of the tensor class of x's dtype, whatever the default type.

    Raises
    ------
    TypeError
        For bool, uint16/32/64 and complex dtypes (Torch7 has no tensor type
        for them), or an object without ``__strided_core__``.
    ValueError
        For a 0-d array (Torch7 has no 0-d tensor).

    Notes
    -----
    The one crossing between the faces (docs/interop.md).

    Examples
    --------
    >>> import strided.compat as xp
    >>> import strided.interop
    >>> strided.interop.to_tensor(xp.asarray([1.5, 2.5], dtype=xp.float32))
     1.5000
     2.5000
    [torch.FloatTensor of dimension 2]
    """
    from strided.torch7.registry import class_of_dtype

    if not hasattr(x, "__strided_core__"):
        raise TypeError(f"to_tensor: expected a strided.compat array, got {type(x).__name__}")
    cls = class_of_dtype(x.dtype.name)
    if cls is None:
        raise TypeError(f"to_tensor: Torch7 has no tensor type for {x.dtype.name}")
    if x.ndim == 0:  # (the constructors take it as one element: a copy of shape)
        raise ValueError(
            "to_tensor: a Torch7 tensor has no 0-d form; view x[None] (one "
            "dimension of size 1) instead"
        )
    return cls(x)  # the constructor views x through __strided_core__
