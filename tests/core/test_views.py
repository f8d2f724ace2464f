"""View semantics (strided/_views.py over st_tensor_set in core.c), with
numpy's views as the model: each view of a borrowed numpy array must equal
numpy's view in shape and values, start at the same address and step by the
same strides (zero-copy), alone and in chains; writes through a view land in
the base; and bad arguments raise the documented exceptions.
"""

import math
import re

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from numpy.lib.stride_tricks import sliding_window_view

from helpers import NUMPY, borrow, layouts, to_core, to_numpy
from strided.core import base as _core, views as _views

# distinct values make a wrong element visible; several item sizes
VIEW_DTYPES = ["int16", "int64", "float32", "complex128", "uint8"]
view_shapes = hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5)


@st.composite
def based(draw, shape=view_shapes, dtypes=VIEW_DTYPES):
    """(numpy array in some layout, Core borrowing it)."""
    dt = draw(st.sampled_from(dtypes))
    shape = draw(shape)
    a = np.arange(1, math.prod(shape) + 1).reshape(shape).astype(NUMPY[dt])
    a = draw(layouts(a))
    return a, borrow(a)


def check_view(c, v):
    """Core c is numpy view v: shape, values, first address, strides."""
    assert c.shape == v.shape, (c.shape, v.shape)
    np.testing.assert_array_equal(to_numpy(c), v)
    if v.size:
        item = v.dtype.itemsize
        assert c.address == v.ctypes.data, "not the same first element"
        for n, cs, vs in zip(v.shape, c.strides, v.strides):
            if n > 1:
                assert cs * item == vs, (c.strides, v.strides)


def dims(ndim):
    n = max(ndim, 1)
    return st.integers(-n, n - 1)


def norm(d, ndim):
    return d + max(ndim, 1) if d < 0 else d


def at(dim, ndim, index):
    return tuple(index if d == dim else slice(None) for d in range(ndim)) + (Ellipsis,)


# ---------------------------------------------------------------- one view op each


@given(base=based(), data=st.data())
def test_transpose(base, data):
    a, c = base
    d0, d1 = data.draw(dims(a.ndim)), data.draw(dims(a.ndim))
    want = a if a.ndim == 0 else np.swapaxes(a, d0, d1)
    check_view(_views.transpose(c, d0, d1), want)


@given(base=based(), data=st.data())
def test_permute(base, data):
    a, c = base
    perm = data.draw(st.permutations(range(a.ndim)))
    perm = [p - a.ndim if data.draw(st.booleans()) else p for p in perm]  # negative dims too
    check_view(_views.permute(c, perm), np.transpose(a, perm))


@given(base=based(hnp.array_shapes(min_dims=1, max_dims=4, min_side=0, max_side=6)), data=st.data())
def test_slice_dim(base, data):
    a, c = base
    dim = data.draw(dims(a.ndim))
    bound = st.none() | st.integers(-9, 9)
    start, stop = data.draw(bound), data.draw(bound)
    step = data.draw(st.none() | st.integers(-4, 4).filter(bool))
    want = a[at(norm(dim, a.ndim), a.ndim, slice(start, stop, step))]
    check_view(_views.slice_dim(c, dim, start, stop, step), want)


@given(base=based(hnp.array_shapes(min_dims=1, max_dims=4, min_side=0, max_side=6)), data=st.data())
def test_narrow(base, data):
    a, c = base
    dim = data.draw(dims(a.ndim))
    n = a.shape[dim]
    start = data.draw(st.integers(0, n))
    length = data.draw(st.integers(0, n - start))
    check_view(
        _views.narrow(c, dim, start, length),
        a[at(norm(dim, a.ndim), a.ndim, slice(start, start + length))],
    )


@given(base=based(hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=6)), data=st.data())
def test_select(base, data):
    a, c = base
    dim = data.draw(dims(a.ndim))
    n = a.shape[dim]
    index = data.draw(st.integers(-n, n - 1))
    check_view(_views.select(c, dim, index), a[at(norm(dim, a.ndim), a.ndim, index)])


@st.composite
def expanded_shape(draw, shape):
    lead = draw(st.lists(st.integers(0, 3), max_size=2))
    return tuple(lead) + tuple(draw(st.integers(0, 3)) if n == 1 else n for n in shape)


@given(base=based(), data=st.data())
def test_expand(base, data):
    a, c = base
    shape = data.draw(expanded_shape(a.shape))
    e = _views.expand(c, shape)
    check_view(e, np.broadcast_to(a, shape))
    lead = len(shape) - a.ndim
    for d, n in enumerate(shape):
        if d < lead or a.shape[d - lead] != n:
            assert e.strides[d] == 0


def new_shapes(size):
    """Shapes holding `size` elements (with a -1 sometimes)."""
    if size == 0:
        return st.lists(st.integers(0, 3), min_size=1, max_size=4).map(
            lambda s: tuple(s) if 0 in s else tuple(s) + (0,)
        )

    @st.composite
    def factor(draw):
        left, out = size, []
        for _ in range(draw(st.integers(0, 3))):
            divisors = [k for k in range(1, left + 1) if left % k == 0]
            k = draw(st.sampled_from(divisors))
            out.append(k)
            left //= k
        out.append(left)
        out = draw(st.permutations(out))
        if draw(st.booleans()):
            out.insert(draw(st.integers(0, len(out))), 1)
        if draw(st.booleans()):
            out[draw(st.integers(0, len(out) - 1))] = -1
        return tuple(out)

    return factor()


@given(base=based(), data=st.data())
def test_view_as_shape_is_a_view_exactly_when_numpy_can(base, data):
    a, c = base
    shape = data.draw(new_shapes(a.size), label="shape")
    v = _views.view_as_shape(c, shape)
    try:
        want = np.reshape(a, shape, copy=False)
    except ValueError:
        want = None
    if want is None:
        assert v is None, f"a view where numpy needs a copy: {a.shape} {a.strides} -> {shape}"
    else:
        assert v is not None, f"None where numpy has a view: {a.shape} {a.strides} -> {shape}"
        check_view(v, want)


@given(base=based(), data=st.data())
def test_view_as_shape_of_contiguous_never_fails(base, data):
    a, _ = base
    c = to_core(a)  # owned, C-contiguous
    shape = data.draw(new_shapes(a.size), label="shape")
    v = _views.view_as_shape(c, shape)
    assert v is not None
    assert v.is_contiguous() and v.offset == c.offset
    np.testing.assert_array_equal(to_numpy(v), np.reshape(a, shape))


@given(base=based(hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=7)), data=st.data())
def test_unfold(base, data):
    a, c = base
    dim = data.draw(dims(a.ndim))
    n = a.shape[dim]
    size = data.draw(st.integers(0, n))
    step = data.draw(st.integers(1, 4))
    d = norm(dim, a.ndim)
    want = sliding_window_view(a, size, axis=d)[at(d, a.ndim, slice(None, None, step))]
    check_view(_views.unfold(c, dim, size, step), want)


def test_unfold_zero_d():
    c = _core.scalar(7, "int32")
    u = _views.unfold(c, 0, 1, 1)
    assert u.shape == (1,) and to_numpy(u).tolist() == [7]
    assert _views.unfold(c, -1, 0, 3).shape == (0,)
    with pytest.raises(ValueError, match="2"):
        _views.unfold(c, 0, 2, 1)


@given(base=based(view_shapes.map(lambda s: s + (1,) if len(s) % 2 else (1,) + s)), data=st.data())
def test_squeeze(base, data):
    a, c = base
    check_view(_views.squeeze(c), np.squeeze(a))
    dim = data.draw(dims(a.ndim))
    d = norm(dim, a.ndim)
    want = np.squeeze(a, axis=d) if a.ndim and a.shape[d] == 1 else a
    check_view(_views.squeeze(c, dim), want)


@given(base=based(), data=st.data())
def test_unsqueeze(base, data):
    a, c = base
    dim = data.draw(st.integers(-a.ndim - 1, a.ndim))
    check_view(_views.unsqueeze(c, dim), np.expand_dims(a, dim))


@given(base=based(hnp.array_shapes(min_dims=1, max_dims=4, min_side=0, max_side=5)), data=st.data())
def test_flip(base, data):
    a, c = base
    dim = data.draw(dims(a.ndim))
    check_view(_views.flip(c, dim), np.flip(a, dim))
    check_view(_views.flip(_views.flip(c, dim), dim), a)


def test_zero_d_and_empty_views():
    z = _core.scalar(5.0, "float64")
    check = lambda c, shape, values: c.shape == shape and to_numpy(c).tolist() == values
    assert check(_views.transpose(z, 0, -1), (), 5.0)
    assert check(_views.permute(z, []), (), 5.0)
    assert check(_views.squeeze(z), (), 5.0) and check(_views.squeeze(z, 0), (), 5.0)
    assert check(_views.unsqueeze(z, 0), (1,), [5.0])
    assert check(_views.unsqueeze(z, -1), (1,), [5.0])
    assert check(_views.expand(z, (2, 3)), (2, 3), [[5.0] * 3] * 2)
    assert _views.expand(z, (2, 3)).strides == (0, 0)
    assert check(_views.view_as_shape(z, (1, 1)), (1, 1), [[5.0]])
    assert check(_views.view_as_shape(z, ()), (), 5.0)
    assert check(_views.view_as_shape(z, (-1,)), (1,), [5.0])
    e = _core.Core.empty((2, 0, 3), "int32")
    assert _views.transpose(e, 0, 2).shape == (3, 0, 2)
    assert _views.select(e, 2, -1).shape == (2, 0)
    assert _views.slice_dim(e, 0, 1, None, 1).shape == (1, 0, 3)
    assert _views.flip(e, 1).shape == (2, 0, 3)
    assert _views.unfold(e, 1, 0, 1).shape == (2, 1, 3, 0)
    assert _views.view_as_shape(e, (0, 5)).shape == (0, 5)
    assert _views.expand(_core.Core.empty((1, 3), "int8"), (0, 3)).shape == (0, 3)
    with pytest.raises(ValueError):
        _views.view_as_shape(e, (-1, 0))
    with pytest.raises(IndexError):
        _views.select(e, 1, 0)


def test_views_of_empty_views_with_negative_strides():
    """An empty view may carry negative strides (flip, then unfold to size
    0); slicing, narrowing or selecting it stays a valid empty view, as in
    numpy, instead of moving its offset before the storage start."""
    a = np.arange(1, 4, dtype=np.int16)
    c = _views.unfold(_views.flip(borrow(a), 0), 0, 0, 1)  # shape (4, 0)
    v = sliding_window_view(a[::-1], 0, axis=0)
    check_view(c, v)
    assert c.strides[0] < 0
    check_view(_views.flip(c, 0), v[::-1])
    check_view(_views.slice_dim(c, 0, 2, None, 1), v[2:])
    check_view(_views.narrow(c, 0, 3, 1), v[3:4])
    check_view(_views.select(c, 0, -1), v[-1])
    check_view(_views.unsqueeze(_views.select(_views.flip(c, 0), 0, 2), 0), v[::-1][2][None])
    z = _views.unfold(_views.flip(_views.unsqueeze(_core.scalar(1, "int16"), 0), 0), 0, 0, 1)
    assert _views.flip(z, 0).shape == (2, 0)


# ---------------------------------------------------------------- chains


@st.composite
def view_step(draw, shape):
    """One view op valid for `shape`: (name, args, numpy function)."""
    nd = len(shape)
    names = ["transpose", "permute", "unsqueeze", "squeeze", "expand", "reshape"]
    if nd:
        names += ["slice", "narrow", "flip", "unfold"]
        if all(shape):
            names.append("select")
    if nd >= 5:
        names.remove("unsqueeze")
    name = draw(st.sampled_from(names))
    if name == "transpose":
        d0, d1 = draw(dims(nd)), draw(dims(nd))
        return name, (d0, d1), (lambda x: x if nd == 0 else np.swapaxes(x, d0, d1))
    if name == "permute":
        perm = draw(st.permutations(range(nd)))
        return name, (perm,), (lambda x: np.transpose(x, perm))
    if name == "unsqueeze":
        d = draw(st.integers(-nd - 1, nd))
        return name, (d,), (lambda x: np.expand_dims(x, d))
    if name == "squeeze":
        d = draw(st.none() | dims(nd))
        if d is None:
            return name, (), np.squeeze
        dn = norm(d, nd)
        return name, (d,), (lambda x: np.squeeze(x, axis=dn) if nd and shape[dn] == 1 else x)
    if name == "expand":
        s = draw(expanded_shape(shape))
        return name, (s,), (lambda x: np.broadcast_to(x, s))
    if name == "reshape":
        s = draw(new_shapes(math.prod(shape)))
        return name, (s,), (lambda x: np.reshape(x, s, copy=False))
    d = draw(dims(nd))
    dn = norm(d, nd)
    n = shape[dn]
    if name == "slice":
        start, stop = draw(st.none() | st.integers(-7, 7)), draw(st.none() | st.integers(-7, 7))
        step = draw(st.integers(-3, 3).filter(bool))
        return name, (d, start, stop, step), (lambda x: x[at(dn, nd, slice(start, stop, step))])
    if name == "narrow":
        start = draw(st.integers(0, n))
        length = draw(st.integers(0, n - start))
        return name, (d, start, length), (lambda x: x[at(dn, nd, slice(start, start + length))])
    if name == "flip":
        return name, (d,), (lambda x: np.flip(x, d))
    if name == "unfold":
        size, step = draw(st.integers(0, n)), draw(st.integers(1, 3))
        return (
            name,
            (d, size, step),
            (lambda x: sliding_window_view(x, size, axis=dn)[at(dn, nd, slice(None, None, step))]),
        )
    i = draw(st.integers(-n, n - 1))
    return name, (d, i), (lambda x: x[at(dn, nd, i)])


CORE_OPS = {
    "transpose": _views.transpose,
    "permute": _views.permute,
    "unsqueeze": _views.unsqueeze,
    "squeeze": _views.squeeze,
    "expand": _views.expand,
    "reshape": _views.view_as_shape,
    "slice": _views.slice_dim,
    "narrow": _views.narrow,
    "flip": _views.flip,
    "unfold": _views.unfold,
    "select": _views.select,
}


def run_chain(data, a, c, steps):
    """Apply `steps` random view ops to numpy array a and Core c alike."""
    for k in range(steps):
        if a.size > 4096:
            break
        name, args, f = data.draw(view_step(a.shape), label=f"step {k}")
        v = CORE_OPS[name](c, *args)
        if name == "reshape":
            try:
                want = f(a)
            except ValueError:  # numpy needs a copy: so must we
                assert v is None, f"a view where numpy needs a copy: {a.strides} -> {args}"
                continue
            assert v is not None, f"no view where numpy has one: {a.shape} {a.strides} -> {args}"
        else:
            want = f(a)
        check_view(v, want)
        a, c = want, v
    return a, c


@given(base=based(), data=st.data())
def test_chains_of_views(base, data):
    a, c = base
    run_chain(data, a, c, data.draw(st.integers(1, 6), label="steps"))


@given(data=st.data())
def test_writes_through_a_view_reach_the_base(data):
    """fill_ and copy_ through a chain of views change exactly the base
    elements that the view reaches."""
    shape = data.draw(
        hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5), label="shape"
    )
    index = np.arange(math.prod(shape), dtype=np.int64).reshape(shape)  # value = flat position
    base = data.draw(layouts(index), label="layout")
    if not base.flags.writeable:
        base = index.copy()
    c = borrow(base)
    view_np, view = run_chain(data, base, c, data.draw(st.integers(1, 4), label="steps"))
    reached = view_np.copy()  # the flat base positions the view reaches
    model = index.copy()
    if data.draw(st.booleans(), label="fill"):
        _core.fill_(view, -1)
        model.flat[reached.ravel()] = -1
    else:
        # copy distinct values where the view does not alias itself
        assume(len(np.unique(reached)) == reached.size)
        src = -np.arange(1, reached.size + 1, dtype=np.int64).reshape(reached.shape)
        _core.copy_(view, to_core(src))
        model.flat[reached.ravel()] = src.ravel()
    np.testing.assert_array_equal(to_numpy(c), model)  # the base, read through the core
    np.testing.assert_array_equal(base, model)  # and the borrowed numpy memory


# ---------------------------------------------------------------- bad input


def c234():
    return to_core(np.arange(24.0).reshape(2, 3, 4))


def raises_naming(exc, value):
    return pytest.raises(exc, match=re.escape(str(value)))


@pytest.mark.parametrize("bad", [3, -4, 100])
def test_out_of_range_dims_raise_index_error(bad):
    c = c234()
    with raises_naming(IndexError, bad):
        _views.transpose(c, bad, 0)
    with raises_naming(IndexError, bad):
        _views.transpose(c, 0, bad)
    with raises_naming(IndexError, bad):
        _views.permute(c, [0, 1, bad])
    with raises_naming(IndexError, bad):
        _views.slice_dim(c, bad, 0, 1, 1)
    with raises_naming(IndexError, bad):
        _views.narrow(c, bad, 0, 1)
    with raises_naming(IndexError, bad):
        _views.select(c, bad, 0)
    with raises_naming(IndexError, bad):
        _views.unfold(c, bad, 1, 1)
    with raises_naming(IndexError, bad):
        _views.squeeze(c, bad)
    with raises_naming(IndexError, bad):
        _views.flip(c, bad)
    with raises_naming(IndexError, bad + (1 if bad > 0 else -1)):
        _views.unsqueeze(c, bad + (1 if bad > 0 else -1))
    with pytest.raises(IndexError):
        _views.transpose(_core.scalar(1.0, "float64"), 1, 0)


@pytest.mark.parametrize("index", [2, -3, 7, -100])
def test_out_of_range_index_raises_index_error(index):
    with raises_naming(IndexError, index):
        _views.select(c234(), 0, index)


def test_select_from_zero_d_raises():
    with pytest.raises(IndexError, match="0-d"):
        _views.select(_core.scalar(1, "int8"), 0, 0)


def test_narrow_and_unfold_bounds():
    c = c234()
    with raises_naming(IndexError, 5):
        _views.narrow(c, 2, 5, 0)
    with raises_naming(IndexError, -1):
        _views.narrow(c, 2, -1, 1)
    with raises_naming(ValueError, -1):
        _views.narrow(c, 2, 1, -1)
    with raises_naming(ValueError, 4):
        _views.narrow(c, 2, 1, 4)
    with raises_naming(ValueError, 5):
        _views.unfold(c, 2, 5, 1)
    with raises_naming(ValueError, -1):
        _views.unfold(c, 2, -1, 1)
    with raises_naming(ValueError, 0):
        _views.unfold(c, 2, 2, 0)
    with pytest.raises(ValueError):
        _views.slice_dim(c, 0, None, None, 0)


def test_permute_refuses_non_permutations():
    c = c234()
    for perm in ([0, 1], [0, 1, 1], [0, 1, 2, 0], [2, -1, 0]):
        with pytest.raises(ValueError, match="permutation"):
            _views.permute(c, perm)


def test_negative_sizes_raise_value_error():
    c = c234()
    with raises_naming(ValueError, -2):
        _views.expand(c, (2, 3, -2))
    with raises_naming(ValueError, -1):
        _core.Core.empty((3, -1), "float32")
    with raises_naming(ValueError, -5):
        c.view(0, (-5,), (1,))
    with raises_naming(ValueError, -3):
        _views.view_as_shape(c, (-3, -8))
    with pytest.raises(ValueError, match="-1"):
        _views.view_as_shape(c, (-1, -1))
    with raises_naming(ValueError, "(5, 5)"):
        _views.view_as_shape(c, (5, 5))
    with pytest.raises(ValueError, match="expand"):
        _views.expand(c, (2, 5, 4))
    with pytest.raises(ValueError, match="expand"):
        _views.expand(c, (3, 4))


def test_view_outside_its_storage_raises_index_error():
    c = c234()  # 24 float64 elements
    assert c.view(23, (1,), (1,)).shape == (1,)
    assert c.view(0, (24,), (1,)).shape == (24,)
    assert c.view(23, (24,), (-1,)).shape == (24,)
    with raises_naming(IndexError, 200):  # reaches byte 200 of 192
        c.view(24, (1,), (1,))
    with raises_naming(IndexError, 192 + 8):
        c.view(0, (25,), (1,))
    with pytest.raises(IndexError):
        c.view(0, (3,), (12,))  # last element 24
    with pytest.raises(IndexError, match="before the storage start"):
        c.view(1, (3,), (-1,))
    with pytest.raises(IndexError):
        c.view(0, (2, 3), (12, 7))  # last element 26
    with raises_naming(ValueError, -1):
        c.view(-1, (1,), (1,))
    # an empty view needs no storage at all, wherever it points
    assert c.view(10**6, (0, 3), (1, 1)).size == 0


def test_view_needs_one_stride_per_size():
    c = c234()
    for shape, strides in [((2, 3), (1,)), ((2,), (1, 1)), ((), (1,))]:
        with pytest.raises(ValueError, match="strides"):
            c.view(0, shape, strides)
        with pytest.raises(ValueError, match="strides"):
            _core.Core.over(c.storage, "float64", 0, shape, strides)


def test_size_overflow_raises_overflow_error():
    with pytest.raises(OverflowError):
        _core.Core.empty((2**40, 2**40), "float64")
    with pytest.raises(OverflowError):
        _core.Core.empty((2**61,), "float64")  # bytes overflow
    with pytest.raises(OverflowError):
        _core.Core.empty((2**31, 2**31, 4), "uint8")
    c = c234()
    with pytest.raises(OverflowError):
        c.view(0, (3,), (2**62,))  # extent overflows
    with pytest.raises(OverflowError):
        c.view(0, (2**32, 2**32), (0, 0))  # element count overflows
    with pytest.raises(OverflowError):
        _views.expand(c, (2**40, 2**40, 2, 3, 4))


def test_more_than_64_dims_raises_value_error():
    assert _core.Core.empty((1,) * 64, "int8").ndim == 64
    with raises_naming(ValueError, 65):
        _core.Core.empty((1,) * 65, "int8")
    c = _core.Core.empty((1,) * 64, "int8")
    with pytest.raises(ValueError, match="64"):
        _views.unsqueeze(c, 0)
    with pytest.raises(ValueError, match="64"):
        _views.expand(_core.scalar(1, "int8"), (1,) * 65)
    with pytest.raises(ValueError, match="64"):
        c.view(0, (1,) * 65, (1,) * 65)
    assert _views.squeeze(c).ndim == 0


@pytest.mark.parametrize(
    "op",
    [
        lambda c: _views.slice_dim(c, 0, None, None, 1),
        lambda c: _views.narrow(c, 0, 0, 1),
        lambda c: _views.flip(c, 0),
    ],
)
def test_zero_d_views_cannot_be_sliced(op):
    with pytest.raises(IndexError, match="0-d"):
        op(_core.scalar(1.0, "float64"))
