import numpy as np
import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import strided.compat as xp
from compat_util import check, xp_of

A = np.arange(2 * 3 * 4 * 5).reshape(2, 3, 4, 5)

BASIC = [
    0,
    -1,
    (1, 2),
    (0, -1, 3, 4),
    slice(None),
    slice(1, None),
    slice(None, None, -1),
    (slice(None), slice(None, None, 2)),
    (slice(None), slice(2, 0, -1), slice(None, None, 3)),
    (Ellipsis, 1),
    (1, Ellipsis, slice(None, None, -2)),
    (None, 0),
    (Ellipsis, None),
    (0, None, slice(1, 3), None, Ellipsis),
    Ellipsis,
    (),
    (slice(5, 10),),
    (slice(-100, 100, 3), 2),
    (slice(None), slice(None), slice(None), slice(None)),
]


@pytest.mark.parametrize("key", BASIC, ids=repr)
def test_basic_indexing_is_a_view_matching_numpy(key):
    x = xp_of(A)
    v = x[key]
    check(v, A[key])
    if v.size:
        assert v._c.storage == x._c.storage  # a view, no copy


@pytest.mark.parametrize("key", [5, (0, 3), (0, 0, 0, 0, 0), (Ellipsis, Ellipsis)], ids=repr)
def test_bad_basic_indices_raise(key):
    with pytest.raises(IndexError):
        xp_of(A)[key]


def test_zero_step_raises():
    with pytest.raises(ValueError):
        xp_of(A)[::0]


@pytest.mark.parametrize("ndim", [0, 1, 2, 4])
def test_boolean_mask(ndim):
    mask = (A % 3 == 0)[(0,) * (4 - ndim)] if ndim else np.bool_(True)
    a = A if ndim else A
    idx = mask if ndim == 0 else mask
    x = xp_of(a)
    if ndim in (1, 2):
        mask = (np.arange(np.prod(A.shape[:ndim])) % 3 == 0).reshape(A.shape[:ndim])
        idx = mask
    check(x[xp.asarray(np.array(idx), copy=True)], a[idx])
    check(x[xp.asarray(np.array(idx), copy=True), ...], a[idx, ...])


def test_boolean_mask_of_a_non_contiguous_view():
    a = A[:, ::-1, ::2]
    m = a > 50
    check(xp_of(A)[:, ::-1, ::2][xp_of(m)], a[m])


@pytest.mark.parametrize("prefix", [(0,), (slice(None),), (slice(None, None, -1), 1)], ids=repr)
def test_boolean_mask_after_integers_and_slices(prefix):
    m = np.arange(12).reshape(3, 4) % 3 == 0
    x = xp_of(A)
    key = prefix + (m,) if len(prefix) < 2 else prefix + (m[0],)
    xkey = tuple(xp_of(k) if isinstance(k, np.ndarray) else k for k in key)
    check(x[xkey], A[key])


def test_boolean_mask_shape_mismatch():
    with pytest.raises(IndexError):
        xp_of(A)[xp.ones((3,), dtype=xp.bool)]


INT_KEYS = [
    (np.array([0, 1, 1]),),
    (np.array([1, 0]), np.array([2, -1])),
    (np.array([[0], [1]]), np.array([0, 1, 2])),  # broadcast
    (1, np.array([0, -3, 2])),
    (np.array([0, 1]), np.array([1, 2]), np.array([3, 0]), np.array([4, -5])),
    (np.array(1), np.array([0, 2])),
]


@pytest.mark.parametrize("key", INT_KEYS, ids=lambda k: str([np.asarray(i).tolist() for i in k]))
def test_integer_array_indexing(key):
    xkey = tuple(
        xp.asarray(np.array(k), copy=True) if isinstance(k, np.ndarray) else k for k in key
    )
    check(xp_of(A)[xkey], A[key])
    check(xp_of(A)[:, :, ::-1][xkey], A[:, :, ::-1][key])


def test_integer_array_out_of_bounds():
    with pytest.raises(IndexError):
        xp_of(A)[xp.asarray([0, 2])]
    with pytest.raises(IndexError):
        xp_of(A)[xp.asarray([0]), xp.asarray([-4])]


def test_setitem_basic_and_broadcast():
    a = A.astype("float64")
    x = xp_of(a)
    x[0, 1] = 7.5
    a[0, 1] = 7.5
    x[..., ::2] = xp.asarray([1.0, 2.0, 3.0])
    a[..., ::2] = [1.0, 2.0, 3.0]
    x[1, :, None, 1] = xp.reshape(xp.arange(3.0), (3, 1, 1))
    a[1, :, None, 1] = np.arange(3.0).reshape(3, 1, 1)
    x[0, 0, 0, 0] = 3  # a Python int into a float array
    a[0, 0, 0, 0] = 3
    check(x, a)


def test_setitem_overlapping_views():
    a = np.arange(10)
    x = xp_of(a)
    x[1:] = x[:-1]
    a[1:] = a[:-1].copy()
    check(x, a)


def test_setitem_mask_and_integer_arrays():
    a = A.copy()
    x = xp_of(a)
    m = a % 4 == 1
    x[xp_of(m)] = -1
    a[m] = -1
    m2 = np.array([True, False, True])
    x[0, xp_of(m2)] = xp.reshape(xp.arange(40), (2, 4, 5))
    a[0, m2] = np.arange(40).reshape(2, 4, 5)
    x[xp.asarray([1, 0]), xp.asarray([2, -1])] = 99
    a[np.array([1, 0]), np.array([2, -1])] = 99
    check(x, a)


def test_setitem_type_rules():
    x = xp.zeros((3,), dtype=xp.int32)
    # the words array-api-extra's at() tests match: "cast|promote|dtype"
    with pytest.raises(TypeError, match="cannot cast a Python float into a int32 array"):
        x[0] = 1.5
    with pytest.raises(TypeError, match="cannot cast a int64 array into a int32 array"):
        x[:] = xp.ones((3,), dtype=xp.int64)
    with pytest.raises(TypeError, match="cannot cast a float64 array"):
        x[xp.asarray([True, False, True])] = xp.ones((2,))
    x[:] = xp.ones((3,), dtype=xp.int8)  # promotes to the target's dtype
    check(x, np.ones(3, "int32"))


def test_setitem_array_through_mask_after_slice():
    a = A.copy()
    x = xp_of(a)
    m = np.arange(12).reshape(3, 4) % 5 == 0  # 3 selected
    val = np.arange(2 * 3 * 5).reshape(2, 3, 5) * -1
    x[:, xp_of(m)] = xp_of(val)
    a[:, m] = val
    check(x, a)
    x[:, xp_of(m)] = xp_of(np.arange(5))  # broadcast
    a[:, m] = np.arange(5)
    check(x, a)


def test_setitem_integer_arrays_into_a_non_contiguous_view():
    a = A.copy()
    x = xp_of(a)
    v = x[:, ::-1, ::2]  # no flat view over its first two dims
    v[xp.asarray([0, 1]), xp.asarray([2, 0])] = xp.reshape(xp.arange(20), (2, 2, 5))
    a[:, ::-1, ::2][np.array([0, 1]), np.array([2, 0])] = np.arange(20).reshape(2, 2, 5)
    check(x, a)


# ========================================================= the standard's indexing page
# Property tests against numpy for every form of spec/2025.12/API_specification/
# indexing.rst.  Required by the standard: integers, slices (any step, bounds
# in the ranges the page lists), an ellipsis and None anywhere, on any shape
# including 0-d and size-0 arrays; a boolean array as the sole index (0-d
# masks and mask dims of size 0 included); tuples of integers and integer
# arrays, one entry per dim.  __setitem__ takes the same keys.  The mixes the
# standard leaves to the implementation (integer arrays with slices, ellipsis
# or None, several boolean arrays, ...) must give numpy's result or raise
# IndexError.

DTYPES = ["float64", "int32", "uint8", "bool", "complex64", "int64"]
any_shapes = hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5)


def filled(shape, dtype, offset=0):
    """Distinct-ish values of dtype in `shape`."""
    v = np.arange(offset, offset + int(np.prod(shape, dtype=np.int64))).reshape(shape)
    if dtype == "bool":
        v = v % 3 == 1
    elif dtype == "uint8":
        v = v % 251
    elif dtype.startswith("complex"):
        v = v - 1j * v
    return np.asarray(v, dtype=dtype)


@st.composite
def slices(draw, n):
    """A slice within the standard's ranges for an axis of size n: start in
    [-n, n]; stop in [-n, n] for positive steps, [-n-1, max(0, n-1)] for
    negative ones; steps of any size (larger than n too) and either sign."""
    step = draw(st.one_of(st.none(), st.integers(1, n + 3), st.integers(-(n + 3), -1)))
    start = draw(st.none() | st.integers(-n, n))
    if (step or 1) > 0:
        stop = draw(st.none() | st.integers(-n, n))
    else:
        stop = draw(st.none() | st.integers(-n - 1, max(0, n - 1)))
    return slice(start, stop, step)


@st.composite
def basic_keys(draw, shape):
    """Integers, slices, at most one ellipsis anywhere, None anywhere."""
    ndim = len(shape)
    used = draw(st.integers(0, ndim))
    ellipsis = draw(st.booleans()) or (used < ndim and draw(st.booleans()))
    split = draw(st.integers(0, used)) if ellipsis else used
    dims = list(range(split)) + list(range(ndim - (used - split), ndim))
    entries = []
    for d in dims:
        n = shape[d]
        if n and draw(st.booleans()):
            entries.append(draw(st.integers(-n, n - 1)))
        else:
            entries.append(draw(slices(n)))
    if ellipsis:
        entries.insert(split, Ellipsis)
    for _ in range(draw(st.integers(0, 2))):
        entries.insert(draw(st.integers(0, len(entries))), None)
    if len(entries) == 1 and draw(st.booleans()):
        return entries[0]  # a bare index, not a 1-tuple
    return tuple(entries)


@st.composite
def arrays_and_basic_keys(draw):
    shape = draw(any_shapes)
    dtype = draw(st.sampled_from(DTYPES))
    return filled(shape, dtype), draw(basic_keys(shape))


@given(arrays_and_basic_keys())
def test_every_basic_index_form_is_a_view_matching_numpy(ak):
    a, key = ak
    x = xp_of(a)
    out = x[key]
    check(out, np.asarray(a[key]))  # a 0-d array where numpy gives a scalar
    if out.size:
        assert out._c.storage == x._c.storage


@st.composite
def values_for(draw, target_shape, dtype):
    """A value assignable to an indexed region of target_shape: a Python
    scalar, a 0-d array, or an array broadcasting to target_shape."""
    how = draw(st.sampled_from(["scalar", "0-d", "full", "broadcast"]))
    if how == "scalar":
        return filled((), dtype, offset=7).item()
    if how == "0-d":
        return filled((), dtype, offset=9)
    shape = list(target_shape)
    if how == "broadcast" and shape:
        shape = shape[draw(st.integers(0, len(shape))) :]
        shape = [1 if draw(st.booleans()) else s for s in shape]
    return filled(tuple(shape), dtype, offset=1000)


def _as_value(v):
    return xp_of(v) if isinstance(v, np.ndarray) else v


@given(arrays_and_basic_keys(), st.data())
def test_every_basic_index_form_in_setitem(ak, data):
    a, key = ak
    value = data.draw(values_for(np.asarray(a[key]).shape, a.dtype.name))
    x = xp_of(a)
    b = a.copy()
    b[key] = value
    x[key] = _as_value(value)
    check(x, b)


def test_zero_d_arrays():
    a = np.array(5.5)
    x = xp_of(a)
    for key in ((), Ellipsis, (Ellipsis,), None, (None, Ellipsis, None)):
        check(x[key], np.asarray(a[key]))
    x[()] = 1.5
    check(x, np.array(1.5))
    x[...] = xp.asarray(2.5)
    check(x, np.array(2.5))
    for key in (0, (0,), slice(None), (Ellipsis, Ellipsis)):
        with pytest.raises(IndexError):
            x[key]


@pytest.mark.parametrize("shape", [(0,), (3, 0), (0, 4, 2)])
def test_size_zero_arrays(shape):
    a = np.zeros(shape, dtype="int32")
    x = xp_of(a)
    for key in (
        Ellipsis,
        (slice(None),),
        (slice(None, None, -1), Ellipsis),
        (None, Ellipsis),
        (slice(1, 0, -2), Ellipsis),
    ):
        check(x[key], a[key])
    x[...] = 3
    check(x, a)


# -------------------------------------------------------------------- boolean masks
@st.composite
def masks(draw, shape):
    """A mask the standard allows as the sole index of an array of `shape`:
    M <= N dims, each of the array's size or 0; M == 0 is a 0-d mask."""
    m = draw(st.integers(0, len(shape)))
    mshape = tuple(s if draw(st.integers(0, 3)) else 0 for s in shape[:m])
    return draw(hnp.arrays(np.bool_, mshape))


def mask_result(a, mask):
    """The standard's A[B]: the first M dims replaced by one of size
    count(True); a mask dim of size 0 selects nothing (numpy refuses it)."""
    m = mask.ndim
    if m and any(ms == 0 and s != 0 for ms, s in zip(mask.shape, a.shape)):
        return np.empty((0,) + a.shape[m:], dtype=a.dtype)
    return a[mask] if m else a[np.bool_(mask)]


@st.composite
def arrays_and_masks(draw):
    shape = draw(any_shapes)
    dtype = draw(st.sampled_from(DTYPES))
    return filled(shape, dtype), draw(masks(shape))


@given(arrays_and_masks())
def test_boolean_mask_as_the_sole_index(am):
    a, mask = am
    x = xp_of(a)
    check(x[xp_of(mask)], mask_result(a, mask))


@pytest.mark.parametrize(
    "shape,mshape",
    [
        ((2, 3), (0,)),
        ((2, 3), (0, 3)),
        ((2, 3), (2, 0)),
        ((2, 3), (0, 0)),
        ((4,), (0,)),
        ((2, 0), (2, 0)),
        ((0, 3), (0,)),
        ((0, 3), (0, 3)),
    ],
)
def test_zero_size_masks(shape, mshape):
    """'The size of each dimension in B must equal the size of the
    corresponding dimension in A or be 0.'"""
    a = filled(shape, "int64")
    x = xp_of(a)
    mask = np.zeros(mshape, dtype=bool)
    out = x[xp_of(mask)]
    check(out, np.empty((0,) + shape[len(mshape) :], dtype="int64"))
    x[xp_of(mask)] = -1
    x[xp_of(mask)] = xp.asarray(-2)
    check(x, a)


@pytest.mark.parametrize("value", [True, False])
@pytest.mark.parametrize("shape", [(), (3,), (2, 0, 3)])
def test_zero_d_mask(shape, value):
    """A 0-d mask adds a leading dim of size 1 (True) or 0 (False)."""
    a = filled(shape, "float64")
    x = xp_of(a)
    check(x[xp.asarray(value)], a[np.bool_(value)])
    assert x[xp.asarray(value)].shape == ((1,) if value else (0,)) + shape
    x[xp.asarray(value)] = -1.0
    b = a.copy()
    b[np.bool_(value)] = -1.0
    check(x, b)


@st.composite
def arrays_and_bad_masks(draw):
    shape = draw(any_shapes)
    if shape and draw(st.booleans()):
        d = draw(st.integers(0, len(shape) - 1))
        mshape = list(shape[: d + 1])
        mshape[d] = mshape[d] + draw(st.integers(1, 3))  # neither the size nor 0
    else:
        mshape = list(shape) + [draw(st.integers(0, 3))]  # more dims than the array
    return filled(shape, "int32"), np.ones(mshape, dtype=bool)


@given(arrays_and_bad_masks())
def test_mask_not_matching_the_array_raises_index_error(am):
    a, mask = am
    x = xp_of(a)
    with pytest.raises(IndexError):
        x[xp_of(mask)]
    with pytest.raises(IndexError):
        x[xp_of(mask)] = 0


@given(arrays_and_masks(), st.data())
def test_boolean_mask_in_setitem(am, data):
    a, mask = am
    target = mask_result(a, mask).shape
    value = data.draw(values_for(target, a.dtype.name))
    x = xp_of(a)
    x[xp_of(mask)] = _as_value(value)
    b = a.copy()
    if mask.ndim and any(ms == 0 and s != 0 for ms, s in zip(mask.shape, a.shape)):
        pass  # selects nothing
    else:
        b[mask if mask.ndim else np.bool_(mask)] = value
    check(x, b)


# -------------------------------------------------------------------- integer arrays
INDEX_DTYPES = ["int64", "int32"]


@st.composite
def integer_array_keys(draw, shape, full=True):
    """One entry per dim (full=True, what the standard requires) or fewer:
    integers and integer arrays (at least one, 0-d allowed, negative indices
    allowed) of mutually broadcastable shapes."""
    ndim = len(shape)
    k = ndim if full else draw(st.integers(1, ndim))
    is_array = [draw(st.booleans()) for _ in range(k)]
    if not any(is_array):
        is_array[draw(st.integers(0, k - 1))] = True
    bshapes = draw(
        hnp.mutually_broadcastable_shapes(
            num_shapes=sum(is_array), min_dims=0, max_dims=3, max_side=4
        )
    ).input_shapes
    bshapes = list(bshapes)
    dtype = draw(st.sampled_from(INDEX_DTYPES))
    key = []
    for d in range(k):
        n = shape[d]
        if is_array[d]:
            key.append(draw(hnp.arrays(dtype, bshapes.pop(), elements=st.integers(-n, n - 1))))
        else:
            key.append(draw(st.integers(-n, n - 1)))
    return tuple(key)


nonempty_shapes = hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=5)


def _xkey(key):
    return tuple(xp_of(k) if isinstance(k, np.ndarray) else k for k in key)


@st.composite
def arrays_and_integer_array_keys(draw, full=True):
    shape = draw(nonempty_shapes)
    a = filled(shape, draw(st.sampled_from(DTYPES)))
    return a, draw(integer_array_keys(shape, full))


@given(arrays_and_integer_array_keys())
def test_integers_and_integer_arrays_one_per_dim(ak):
    """The standard's integer array indexing: the entries broadcast to S2
    and the result has shape S2 (duplicates repeat elements)."""
    a, key = ak
    out = xp_of(a)[_xkey(key)]
    check(out, np.asarray(a[key]))
    assert out.shape == np.broadcast_shapes(*(np.shape(k) for k in key))


@given(arrays_and_integer_array_keys(full=False))
def test_integer_arrays_on_leading_dims(ak):
    """Fewer entries than dims (numpy's implicit trailing ellipsis): the
    rest of the dims follow the broadcast shape."""
    a, key = ak
    check(xp_of(a)[_xkey(key)], np.asarray(a[key]))


def test_zero_d_integer_arrays_are_integers():
    a = filled((3, 4, 5), "int32")
    x = xp_of(a)
    i, j = xp.asarray(1), xp.asarray(-2, dtype=xp.int32)
    check(x[i, j], a[1, -2])
    check(x[i, 2, j], np.asarray(a[1, 2, -2]))
    check(x[i], a[1])


def test_integer_arrays_not_broadcastable_raise():
    # "an exception must be raised" (any exception; numpy's is IndexError)
    x = xp_of(filled((3, 4), "int32"))
    with pytest.raises((IndexError, ValueError)):
        x[xp.asarray([0, 1]), xp.asarray([0, 1, 2])]


@given(arrays_and_integer_array_keys(full=False), st.data())
def test_integer_arrays_in_setitem(ak, data):
    """__setitem__ with integers and integer arrays (left to the
    implementation by the standard; strided.compat follows numpy).  Keys
    with repeated coordinates are skipped: their write order is unspecified."""
    a, key = ak
    coords = np.broadcast_arrays(*[np.asarray(k) % n for k, n in zip(key, a.shape)])
    flat = list(zip(*(c.ravel() for c in coords)))
    assume(len(set(flat)) == len(flat))
    value = data.draw(values_for(np.asarray(a[key]).shape, a.dtype.name))
    x = xp_of(a)
    x[_xkey(key)] = _as_value(value)
    b = a.copy()
    b[key] = value
    check(x, b)


# -------------------------------------------------------------------- left to the implementation
@st.composite
def mixed_keys(draw):
    """Keys the standard does not address: integer arrays among slices,
    None and an ellipsis; a boolean array with other entries; two arrays of
    which one is boolean."""
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=4))
    a = filled(shape, "int32")
    ndim = len(shape)
    entries = []
    for d in range(ndim):
        n = shape[d]
        what = draw(st.sampled_from(["int", "slice", "array", "array", "mask"]))
        if what == "int":
            entries.append(draw(st.integers(-n, n - 1)))
        elif what == "slice":
            entries.append(draw(slices(n)))
        elif what == "array":
            entries.append(
                draw(
                    hnp.arrays(
                        "int64",
                        draw(st.sampled_from([(), (2,), (1, 2)])),
                        elements=st.integers(-n, n - 1),
                    )
                )
            )
        else:
            entries.append(draw(hnp.arrays(np.bool_, (n,))))
    if draw(st.booleans()):
        entries.insert(draw(st.integers(0, len(entries))), None)
    if draw(st.booleans()):
        cut = draw(st.integers(0, len(entries)))
        entries = entries[:cut] + [Ellipsis] + entries[cut + 1 :]
    return a, tuple(entries)


_M5 = np.array([True, False, True, False, False])


@given(mixed_keys())
# an integer, then a slice, then a mask: numpy treats the integer as an index
# array too, and as the two are not adjacent the selected axis goes first
@example(ak=(filled((2, 3, 5), "int32"), (0, slice(None), _M5)))
@example(ak=(filled((2, 3, 4, 5), "int32"), (slice(None), 1, slice(None), _M5)))
@example(ak=(filled((2, 3, 5), "int32"), (0, slice(None), np.array([0, -1]))))
@example(ak=(filled((2, 3, 5), "int32"), (np.array([1, 0]), None, slice(1, None), np.array(2))))
def test_unspecified_mixes_give_numpy_or_index_error(ak):
    a, key = ak
    try:
        want = np.asarray(a[key])
    except IndexError:
        want = None
    try:
        got = xp_of(a)[_xkey(key)]
    except IndexError:
        return  # refusing is allowed
    assert want is not None, f"numpy refuses {key!r}, strided.compat returned {got!r}"
    check(got, want)


# -------------------------------------------------------- setitem value dtypes (2025.12)
PROMOTABLE = [
    ("int8", "int16"),
    ("uint8", "int16"),
    ("uint8", "uint64"),
    ("int32", "int64"),
    ("float32", "float64"),
    ("float32", "complex64"),
    ("float64", "complex128"),
    ("complex64", "complex128"),
    ("bool", "bool"),
    ("int16", "int16"),
    # the extension's mixed kinds (docs/array-api.md "Beyond the standard")
    ("bool", "int8"),
    ("int16", "float32"),
    ("int64", "float64"),
    ("uint8", "complex64"),
]


@pytest.mark.parametrize("src,dst", PROMOTABLE)
def test_setitem_value_array_promoting_to_the_target(src, dst):
    """'value must be promoted to the data type of self': a value array whose
    dtype promotes to the target's is converted and assigned."""
    a = filled((2, 3), dst)
    x = xp_of(a)
    v = filled((3,), src, offset=3)
    x[1] = xp_of(v)
    x[0, ::2] = xp_of(v[:2])
    a[1] = v
    a[0, ::2] = v[:2]
    check(x, a)
    assert x.dtype.name == dst


@pytest.mark.parametrize(
    "src,dst",
    [(d, s) for s, d in PROMOTABLE if s != d]
    + [
        ("int8", "uint8"),
        ("int32", "float32"),
        ("int64", "uint64"),
        ("float32", "int32"),
        ("complex64", "float32"),
    ],
)
def test_setitem_value_array_not_promoting_to_the_target(src, dst):
    """Not covered by the promotion rules: unspecified; strided.compat raises
    TypeError and leaves the array as it was."""
    a = filled((2, 3), dst)
    x = xp_of(a)
    with pytest.raises(TypeError):
        x[1] = xp_of(filled((3,), src))
    check(x, a)


@pytest.mark.parametrize(
    "dst,value",
    [
        ("bool", True),
        ("int8", -128),
        ("uint64", 2**64 - 1),
        ("float32", 2),
        ("float32", 0.25),
        ("complex64", 3),
        ("complex64", 0.5),
        ("complex128", 1 - 2j),
    ],
)
def test_setitem_python_scalars_the_standard_allows(dst, value):
    a = filled((2, 2), dst)
    x = xp_of(a)
    x[0, 1] = value
    x[1] = value
    a[0, 1] = value
    a[1] = value
    check(x, a)


@given(mixed_keys())
@example(ak=(filled((2, 3, 5), "int32"), (0, slice(None), _M5)))
def test_unspecified_mixes_in_setitem_give_numpy_or_index_error(ak):
    a, key = ak
    b = a.copy()
    try:
        b[key] = -7
    except IndexError:
        b = None
    x = xp_of(a)
    try:
        x[_xkey(key)] = -7
    except IndexError:
        check(x, a)  # refused, and nothing written
        return
    assert b is not None, f"numpy refuses {key!r}, strided.compat assigned"
    check(x, b)
