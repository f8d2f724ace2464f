"""Hypothesis properties of the Torch7 face's view and index operations
against a numpy model (1-based arguments converted to 0-based), for every
tensor type.  Views must also share storage: a write through the view is
seen in the original, exactly where numpy's view would put it."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import strided as torch
from helpers import to_numpy
from t7util import NUMPY_OF, TYPES

shapes = hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=5)


@st.composite
def tensors(draw, shape=shapes):
    name = draw(st.sampled_from(TYPES))
    shp = draw(shape)
    a = draw(
        hnp.arrays(
            np.dtype(NUMPY_OF[name]),
            shp,
            elements=st.integers(0, 100).map(float)
            if "Float" in name or "Double" in name
            else st.integers(0, 100),
        )
    )
    cls = getattr(torch, name)
    layout = draw(st.sampled_from(["contiguous", "transposed", "stepped", "offset"]))
    if layout == "transposed" and a.ndim >= 2:
        # a permuted view of memory laid out in reverse dimension order
        rev = list(range(a.ndim, 0, -1))
        t = cls(np.ascontiguousarray(np.transpose(a)).tolist()).permute(*rev)
    elif layout == "stepped":
        # every other element of a bigger storage: Tensor(storage, offset, sizes, strides)
        big = cls(*[2 * n for n in a.shape])
        t = cls(
            big.storage(),
            1,
            torch.LongStorage(list(a.shape)),
            torch.LongStorage([2 * st_ for st_ in big.stride().tolist()]),
        )
        t.copy(cls(a.tolist()))
    elif layout == "offset":
        storage = getattr(torch, name.replace("Tensor", "Storage"))(a.size + 3)
        t = cls(storage, 4, torch.LongStorage(list(a.shape)))
        t.copy(cls(a.tolist()))
    else:
        t = cls(a.tolist())
    np.testing.assert_array_equal(to_numpy(t._c), a)
    return name, a, t


def npy(t):
    return to_numpy(t._c)


def check_shares(view, orig, a, np_view_fn):
    """Fill the view with 7 and check orig equals numpy's model of the same write."""
    if view.nElement() == 0:
        return
    view.fill(7)
    b = a.copy()
    np_view_fn(b)[...] = 7
    np.testing.assert_array_equal(npy(orig), b)


@given(tensors(), st.data())
def test_narrow(x, data):
    name, a, t = x
    d = data.draw(st.integers(1, a.ndim))
    n = a.shape[d - 1]
    i = data.draw(st.integers(1, n))
    size = data.draw(st.integers(0, n - i + 1))
    v = t.narrow(d, i, size)
    sl = lambda arr: arr[(slice(None),) * (d - 1) + (slice(i - 1, i - 1 + size),)]
    np.testing.assert_array_equal(npy(v), sl(a))
    assert v.type() == "torch." + name
    check_shares(v, t, a, sl)


@given(tensors(), st.data())
def test_select(x, data):
    name, a, t = x
    d = data.draw(st.integers(1, a.ndim))
    i = data.draw(st.integers(1, a.shape[d - 1]))
    if a.ndim == 1:
        assert t.select(1, i) == a[i - 1]  # Torch7: the number
        return
    v = t.select(d, i)
    sl = lambda arr: arr[(slice(None),) * (d - 1) + (i - 1,)]
    np.testing.assert_array_equal(npy(v), sl(a))
    check_shares(v, t, a, sl)


@given(tensors(), st.data())
def test_sub(x, data):
    name, a, t = x
    args, sls = [], []
    for d in range(min(a.ndim, 4)):
        n = a.shape[d]
        s = data.draw(st.integers(1, n))
        e = data.draw(st.integers(s, n))
        # negative bounds count from the end
        s_arg = s if data.draw(st.booleans()) else s - n - 1
        e_arg = e if data.draw(st.booleans()) else e - n - 1
        args += [s_arg, e_arg]
        sls.append(slice(s - 1, e))
    v = t.sub(*args)
    sl = lambda arr: arr[tuple(sls)]
    np.testing.assert_array_equal(npy(v), sl(a))
    check_shares(v, t, a, sl)


@given(tensors(), st.data())
def test_transpose(x, data):
    name, a, t = x
    d1 = data.draw(st.integers(1, a.ndim))
    d2 = data.draw(st.integers(1, a.ndim))
    v = t.transpose(d1, d2)
    sl = lambda arr: np.swapaxes(arr, d1 - 1, d2 - 1)
    np.testing.assert_array_equal(npy(v), sl(a))
    check_shares(v.narrow(1, 1, 1), t, a, lambda arr: sl(arr)[:1])


@given(tensors(), st.data())
def test_permute(x, data):
    name, a, t = x
    perm = data.draw(st.permutations(range(1, a.ndim + 1)))
    v = t.permute(*perm)
    np.testing.assert_array_equal(npy(v), np.transpose(a, [p - 1 for p in perm]))
    assert v.storage()._s == t.storage()._s


@given(tensors(), st.data())
def test_unfold(x, data):
    name, a, t = x
    d = data.draw(st.integers(1, a.ndim))
    n = a.shape[d - 1]
    size = data.draw(st.integers(1, n))
    step = data.draw(st.integers(1, 3))
    v = t.unfold(d, size, step)
    w = np.lib.stride_tricks.sliding_window_view(a, size, axis=d - 1)
    w = w[(slice(None),) * (d - 1) + (slice(None, None, step),)]
    np.testing.assert_array_equal(npy(v), w)


@given(tensors(), st.data())
def test_expand(x, data):
    name, a, t = x
    # make some dims size 1 by narrowing, then expand them
    for d in range(a.ndim):
        if data.draw(st.booleans()):
            t = t.narrow(d + 1, 1, 1)
            a = a[(slice(None),) * d + (slice(0, 1),)]
    target = [
        data.draw(st.integers(1, 4)) if a.shape[d] == 1 else a.shape[d] for d in range(a.ndim)
    ]
    v = t.expand(*target)
    np.testing.assert_array_equal(npy(v), np.broadcast_to(a, target))
    assert all(v.stride(d + 1) == 0 for d in range(a.ndim) if a.shape[d] == 1 and target[d] > 1)
    e = t.expandAs(torch.Tensor(*target))
    assert e.size().tolist() == target


@given(tensors(), st.data())
def test_view(x, data):
    name, a, t = x
    t = t.contiguous()
    n = a.size
    divisors = [k for k in range(1, n + 1) if n % k == 0]
    k = data.draw(st.sampled_from(divisors))
    shape = [k, n // k]
    if data.draw(st.booleans()):
        shape[data.draw(st.integers(0, 1))] = -1
    v = t.view(*shape)
    np.testing.assert_array_equal(npy(v), a.reshape(shape))
    check_shares(v, t, a, lambda arr: arr)


@given(tensors(), st.data())
def test_squeeze(x, data):
    name, a, t = x
    for d in range(a.ndim):
        if data.draw(st.booleans()):
            t = t.narrow(d + 1, 1, 1)
            a = a[(slice(None),) * d + (slice(0, 1),)]
    v = t.squeeze()
    want = np.squeeze(a)
    if want.size == 1:  # Lua: one element comes back as a number
        assert v == want.item()
    else:
        np.testing.assert_array_equal(npy(v).reshape(want.shape), want)
    d = data.draw(st.integers(1, a.ndim))
    v = t.squeeze(d)
    want = np.squeeze(a, d - 1) if a.shape[d - 1] == 1 and a.ndim > 1 else a
    if a.ndim == 1 and a.size == 1:
        assert v == a.item()
    else:
        assert v.size().tolist() == list(want.shape) or a.ndim == 1


@given(tensors(), st.data())
def test_index(x, data):
    name, a, t = x
    d = data.draw(st.integers(1, a.ndim))
    n = a.shape[d - 1]
    idx = data.draw(st.lists(st.integers(1, n), min_size=1, max_size=6))
    v = t.index(d, torch.LongTensor(idx))
    np.testing.assert_array_equal(npy(v), np.take(a, [i - 1 for i in idx], axis=d - 1))
    assert v.type() == t.type()


@given(tensors(), st.data())
def test_indexFill_indexCopy(x, data):
    name, a, t = x
    d = data.draw(st.integers(1, a.ndim))
    n = a.shape[d - 1]
    idx = data.draw(st.lists(st.integers(1, n), min_size=1, max_size=n, unique=True))
    t = t.clone()
    t.indexFill(d, torch.LongTensor(idx), 9)
    b = a.copy()
    b[(slice(None),) * (d - 1) + ([i - 1 for i in idx],)] = 9
    np.testing.assert_array_equal(npy(t), b)
    src_shape = list(a.shape)
    src_shape[d - 1] = len(idx)
    src = getattr(torch, name)(*src_shape).fill(5)
    t.indexCopy(d, torch.LongTensor(idx), src)
    b[(slice(None),) * (d - 1) + ([i - 1 for i in idx],)] = 5
    np.testing.assert_array_equal(npy(t), b)


@given(tensors(), st.data())
def test_gather(x, data):
    name, a, t = x
    d = data.draw(st.integers(1, a.ndim))
    n = a.shape[d - 1]
    ishape = list(a.shape)
    ishape[d - 1] = data.draw(st.integers(1, 4))
    idx = data.draw(hnp.arrays(np.int64, ishape, elements=st.integers(1, n)))
    v = t.gather(d, torch.LongTensor(idx.tolist()))
    np.testing.assert_array_equal(npy(v), np.take_along_axis(a, idx - 1, axis=d - 1))


@given(tensors(), st.data())
def test_scatter(x, data):
    name, a, t = x
    d = data.draw(st.integers(1, a.ndim))
    n = a.shape[d - 1]
    # unique positions along d for each lane: a permutation prefix per lane
    k = data.draw(st.integers(1, n))
    perm = data.draw(st.permutations(range(n)))[:k]
    ishape = [1] * a.ndim
    ishape[d - 1] = k
    idx0 = np.broadcast_to(
        np.array(perm).reshape(ishape), [k if i == d - 1 else a.shape[i] for i in range(a.ndim)]
    ).copy()
    src = getattr(torch, name)(*idx0.shape).fill(3)
    t = t.clone()
    t.scatter(d, torch.LongTensor((idx0 + 1).tolist()), src)
    b = a.copy()
    np.put_along_axis(b, idx0, 3, axis=d - 1)
    np.testing.assert_array_equal(npy(t), b)


@given(tensors(), st.data())
def test_bracket_indexing(x, data):
    """x[...] with numbers (select), [a, b] ranges, [] and ':' against numpy."""
    name, a, t = x
    k = data.draw(st.integers(0, a.ndim))
    key, npkey = [], []
    for d in range(k):
        n = a.shape[d]
        kind = data.draw(st.sampled_from(["int", "range", "all", "colon"]))
        if kind == "int":
            i = data.draw(st.integers(1, n))
            neg = data.draw(st.booleans())
            key.append(i - n - 1 if neg else i)
            npkey.append(i - 1)
        elif kind == "range":
            s = data.draw(st.integers(1, n))
            e = data.draw(st.integers(s, n))
            key.append([s, e])
            npkey.append(slice(s - 1, e))
        elif kind == "all":
            key.append([])
            npkey.append(slice(None))
        else:
            key.append(slice(None))
            npkey.append(slice(None))
    got = t[tuple(key)]
    want = a[tuple(npkey)]
    if want.ndim == 0:
        assert got == want
        assert isinstance(got, float if name in ("FloatTensor", "DoubleTensor") else int)
        t[tuple(key)] = 11
        b = a.copy()
        b[tuple(npkey)] = 11
        np.testing.assert_array_equal(npy(t), b)
    else:
        np.testing.assert_array_equal(npy(got), want)
        t[tuple(key)] = 11
        b = a.copy()
        b[tuple(npkey)] = 11
        np.testing.assert_array_equal(npy(t), b)


@given(tensors(), st.data())
def test_mask(x, data):
    name, a, t = x
    m = data.draw(hnp.arrays(np.uint8, a.shape, elements=st.integers(0, 1)))
    mask = torch.ByteTensor(m.tolist())
    np.testing.assert_array_equal(npy(t[mask]) if m.any() else a[m.astype(bool)], a[m.astype(bool)])
    t = t.clone()
    t[mask] = 4
    b = a.copy()
    b[m.astype(bool)] = 4
    np.testing.assert_array_equal(npy(t), b)
    nz = t.ne(4).nonzero() if (b != 4).any() else None
    if nz is not None:
        np.testing.assert_array_equal(npy(nz), np.argwhere(b != 4) + 1)


@pytest.mark.parametrize("name", TYPES)
def test_types_roundtrip_and_print(name):
    cls = getattr(torch, name)
    t = cls([[1, 2], [3, 4]])
    assert t.type() == "torch." + name
    assert str(t).endswith(f"[torch.{name} of dimension 2x2]")
    assert t.elementSize() == np.dtype(NUMPY_OF[name]).itemsize
    assert t.sum() == 10 and isinstance(
        t.sum(), float if "Float" in name or "Double" in name else int
    )
    import pickle

    u = pickle.loads(pickle.dumps(t))
    assert u.type() == t.type() and u.tolist() == t.tolist()


@given(st.sampled_from(TYPES), st.lists(st.integers(0, 100), max_size=20), st.data())
def test_storage_model(name, values, data):
    S = getattr(torch, name.replace("Tensor", "Storage"))
    s = S(values)
    assert s.size() == len(s) == len(values) and s.tolist() == values
    if values:
        i = data.draw(st.integers(1, len(values)))
        s[i] = 42
        values[i - 1] = 42
        assert s[i] == 42 and s.tolist() == values
        off = data.draw(st.integers(1, len(values)))
        n = data.draw(st.integers(0, len(values) - off + 1))
        v = S(s, off, n)
        assert v.tolist() == values[off - 1 : off - 1 + n]
        if n:
            v[1] = 7
            assert s[off] == 7
        t = getattr(torch, name)(s)  # a 1-D tensor over the whole storage
        assert t.tolist() == s.tolist() and t.storage().size() == s.size()
    with pytest.raises(
        IndexError, match=rf"index {len(values) + 1} out of range \[1, {len(values)}\]"
    ):
        s[len(values) + 1]


@given(tensors(), st.sampled_from(TYPES))
def test_type_conversion(x, target):
    name, a, t = x
    u = t.type("torch." + target)
    assert u.type() == "torch." + target
    np.testing.assert_array_equal(npy(u), a.astype(NUMPY_OF[target]))
    assert (u is t) == (name == target)
