import numpy as np
import pytest

import strided.compat as xp
from strided.compat import _elementwise
from compat_util import check, np_of, xp_of

rng = np.random.default_rng(1)
NP_NAME = {
    "acos": "arccos",
    "acosh": "arccosh",
    "asin": "arcsin",
    "asinh": "arcsinh",
    "atan": "arctan",
    "atanh": "arctanh",
    "atan2": "arctan2",
    "bitwise_invert": "invert",
    "bitwise_left_shift": "left_shift",
    "bitwise_right_shift": "right_shift",
    "pow": "power",
}
SAMPLE = {  # a dtype the standard allows for each category, and values
    "floating": rng.uniform(0.1, 0.9, (3, 4)),
    "real floating": rng.uniform(-2, 2, (3, 4)),
    "numeric": rng.uniform(-3, 3, (3, 4)),
    "real numeric": rng.integers(-9, 9, (3, 4)).astype("int16"),
    "integral": rng.integers(0, 6, (3, 4)).astype("uint8"),
    "integral or bool": rng.integers(-50, 50, (3, 4)).astype("int8"),
    "bool": rng.integers(0, 2, (3, 4)).astype(bool),
    "any": rng.integers(-3, 3, (3, 4)).astype("int64"),
}


def _np(name):
    return getattr(np, NP_NAME.get(name, name))


@pytest.mark.parametrize("name", sorted(_elementwise.UNARY))
def test_unary_against_numpy(name):
    a = SAMPLE[_elementwise.UNARY[name][1]]
    check(getattr(xp, name)(xp_of(a)), _np(name)(a), exact=False)


@pytest.mark.parametrize("name", sorted(_elementwise.BINARY))
def test_binary_against_numpy(name):
    cat = _elementwise.BINARY[name][1]
    a = SAMPLE[cat]
    b = a[::-1, ::-1] if cat != "integral" else (a[::-1] % 7).astype(a.dtype)
    if name in ("floor_divide", "remainder"):
        b = np.where(b == 0, 3, b).astype(b.dtype)
    check(getattr(xp, name)(xp_of(a), xp_of(b)), _np(name)(a, b), exact=False)
    check(getattr(xp, name)(xp_of(a), xp_of(b[0])), _np(name)(a, b[0]), exact=False)  # broadcast


@pytest.mark.parametrize(
    "name",
    ["sqrt", "exp", "log", "abs", "sign", "square", "conj", "real", "imag", "isnan", "round"],
)
def test_unary_complex(name):
    a = (rng.uniform(-2, 2, 6) + 1j * rng.uniform(-2, 2, 6)).astype("complex128")
    check(getattr(xp, name)(xp_of(a)), _np(name)(a), exact=False)


@pytest.mark.parametrize(
    "name,dtype",
    [
        ("sqrt", "int32"),
        ("logical_not", "int8"),
        ("bitwise_invert", "float64"),
        ("floor", "complex64"),
        ("negative", "bool"),
        ("signbit", "int32"),
    ],
)
def test_unary_category_is_enforced(name, dtype):
    with pytest.raises(TypeError):
        getattr(xp, name)(xp.zeros(3, dtype=getattr(xp, dtype)))


@pytest.mark.parametrize(
    "name,dtype",
    [
        ("logical_and", "int8"),
        ("atan2", "int32"),
        ("less", "complex128"),
        ("bitwise_and", "float32"),
        ("bitwise_left_shift", "bool"),
    ],
)
def test_binary_category_is_enforced(name, dtype):
    x = xp.zeros(3, dtype=getattr(xp, dtype))
    with pytest.raises(TypeError):
        getattr(xp, name)(x, x)


def test_divide_of_integers_is_float64():
    check(xp.divide(xp.asarray([1, 2, 3]), 2), np.array([0.5, 1.0, 1.5]))


def test_clip():
    a = np.arange(-5, 6).astype("int8")
    check(xp.clip(xp_of(a), -2, 3), np.clip(a, -2, 3))
    check(xp.clip(xp_of(a), max=1000), a)
    f = np.linspace(-1, 1, 7)
    check(xp.clip(xp_of(f), xp_of(f[::-1]), 0.5), np.minimum(np.maximum(f, f[::-1]), 0.5))


# ---------------------------------------------------------------- statistical

F = rng.standard_normal((3, 4, 5))
I = rng.integers(-5, 5, (3, 4, 5)).astype("int16")


@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2), ()])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions(axis, keepdims):
    kw = dict(axis=axis, keepdims=keepdims)
    check(xp.sum(xp_of(F), **kw), np.sum(F, **kw), exact=False)
    check(xp.prod(xp_of(F), **kw), np.prod(F, **kw), exact=False)
    check(xp.sum(xp_of(I), **kw), np.sum(I, dtype="int64", **kw))
    check(xp.max(xp_of(I), **kw), np.max(I, **kw))
    check(xp.min(xp_of(F), **kw), np.min(F, **kw))
    check(xp.mean(xp_of(F), **kw), np.mean(F, **kw), exact=False)
    check(xp.var(xp_of(F), correction=1, **kw), np.var(F, ddof=1, **kw), exact=False)
    check(xp.std(xp_of(F), **kw), np.std(F, **kw), exact=False)
    check(xp.all(xp_of(I > -5), **kw), np.all(I > -5, **kw))
    check(xp.any(xp_of(I > 3), **kw), np.any(I > 3, **kw))


def test_reduction_dtypes():
    check(xp.sum(xp_of(I), dtype=xp.int16), np.sum(I, dtype="int16"))
    check(
        xp.sum(xp_of(I.astype("uint8")), axis=0), np.sum(I.astype("uint8"), axis=0, dtype="uint64")
    )
    check(
        xp.prod(xp_of(F), dtype=xp.float32, axis=1),
        np.prod(F, axis=1).astype("float32"),
        exact=False,
    )
    check(xp.mean(xp_of(I)), np.mean(I), exact=False)  # the extension: in float64
    with pytest.raises(ValueError):
        xp.max(xp.zeros((0,)))


@pytest.mark.parametrize("include_initial", [False, True])
def test_cumulative(include_initial):
    for axis in (0, 1, -1):
        want = np.cumsum(I, axis=axis, dtype="int64")
        wantp = np.cumprod(F, axis=axis)
        if include_initial:
            shape = list(want.shape)
            shape[axis] = 1
            want = np.concatenate([np.zeros(shape, "int64"), want], axis=axis)
            wantp = np.concatenate([np.ones(shape), wantp], axis=axis)
        kw = dict(axis=axis, include_initial=include_initial)
        check(xp.cumulative_sum(xp_of(I), **kw), want)
        check(xp.cumulative_prod(xp_of(F), **kw), wantp, exact=False)
    with pytest.raises(ValueError):
        xp.cumulative_sum(xp_of(I))


# ---------------------------------------------------------------- searching, sorting


def test_argmax_argmin_nonzero_where_count():
    for axis in (None, 0, 2):
        check(xp.argmax(xp_of(F), axis=axis), np.argmax(F, axis=axis))
        check(xp.argmin(xp_of(I), axis=axis, keepdims=True), np.argmin(I, axis=axis, keepdims=True))
    for got, want in zip(xp.nonzero(xp_of(I > 2)), np.nonzero(I > 2)):
        check(got, want)
    check(xp.where(xp_of(I > 0), xp_of(F), 0.0), np.where(I > 0, F, 0.0))
    check(xp.where(xp_of(I > 0), xp_of(I), xp_of(I[0].astype("int8"))), np.where(I > 0, I, I[0]))
    check(xp.count_nonzero(xp_of(I)), np.array(np.count_nonzero(I)))
    check(xp.count_nonzero(xp_of(I), axis=(0, 1)), np.count_nonzero(I, axis=(0, 1)))
    with pytest.raises(ValueError):
        xp.nonzero(xp.asarray(1))


@pytest.mark.parametrize("descending", [False, True])
def test_sort_argsort(descending):
    a = np.array([3.0, np.nan, 1.0, 3.0, -2.0, 1.0])
    want = np.sort(a)[::-1] if descending else np.sort(a)
    check(xp.sort(xp_of(a), descending=descending), want)
    pos = np_of(xp.argsort(xp_of(a), descending=descending))
    np.testing.assert_array_equal(a[pos], want)
    ties = np.array([2, 1, 2, 1, 2])
    wantpos = np.argsort(-ties if descending else ties, kind="stable")
    check(xp.argsort(xp_of(ties), descending=descending), wantpos)
    check(xp.sort(xp_of(I), axis=1), np.sort(I, axis=1))


# ---------------------------------------------------------------- manipulation

A = np.arange(24).reshape(2, 3, 4)


def test_reshape_views_and_copies():
    x = xp_of(A)
    r = xp.reshape(x, (6, -1))
    check(r, A.reshape(6, -1))
    assert r._c.storage == x._c.storage
    t = xp.permute_dims(x, (2, 0, 1))
    check(xp.reshape(t, (-1,)), A.transpose(2, 0, 1).reshape(-1))
    with pytest.raises(ValueError):
        xp.reshape(t, (-1,), copy=False)
    c = xp.reshape(x, (24,), copy=True)
    assert c._c.storage != x._c.storage


def test_view_functions():
    x = xp_of(A)
    check(xp.permute_dims(x, (-1, 0, 1)), A.transpose(2, 0, 1))
    check(xp.expand_dims(x, axis=-1), A[..., None])
    check(xp.expand_dims(x, axis=(0, 2)), np.expand_dims(A, (0, 2)))
    check(xp.squeeze(xp_of(A[:1, :, None]), axis=(0, 2)), A[0])
    with pytest.raises(ValueError):
        xp.squeeze(x, axis=1)
    check(xp.flip(x), A[::-1, ::-1, ::-1])
    check(xp.flip(x, axis=(0, -1)), A[::-1, :, ::-1])
    check(xp.moveaxis(x, 0, -1), np.moveaxis(A, 0, -1))
    check(xp.moveaxis(x, (0, 1), (2, 0)), np.moveaxis(A, (0, 1), (2, 0)))
    check(xp.broadcast_to(xp_of(A[0, 0]), (2, 3, 4)), np.broadcast_to(A[0, 0], (2, 3, 4)))
    for g, w in zip(
        xp.broadcast_arrays(xp_of(A[:, :1]), xp_of(A[0])), np.broadcast_arrays(A[:, :1], A[0])
    ):
        check(g, w)
    check(xp.matrix_transpose(x), A.swapaxes(-1, -2))


def test_concat_stack_roll():
    b = A.astype("int8")
    check(xp.concat([xp_of(A), xp_of(b)], axis=1), np.concatenate([A, b.astype("int64")], axis=1))
    check(
        xp.concat([xp_of(A), xp_of(A[:, :, :1])], axis=-1),
        np.concatenate([A, A[:, :, :1]], axis=-1),
    )
    check(xp.concat([xp_of(A), xp_of(A)], axis=None), np.concatenate([A, A], axis=None))
    check(xp.stack([xp_of(A), xp_of(A + 1)], axis=1), np.stack([A, A + 1], axis=1))
    check(
        xp.stack([xp_of(A[0, 0]), xp_of(A[1, 1])], axis=-1), np.stack([A[0, 0], A[1, 1]], axis=-1)
    )
    check(xp.roll(xp_of(A), 5), np.roll(A, 5))
    check(xp.roll(xp_of(A), (1, -1), axis=(0, 2)), np.roll(A, (1, -1), axis=(0, 2)))
    with pytest.raises(ValueError):
        xp.concat([xp_of(A), xp_of(A[0])])
    # the extension: mixed kinds promote as numpy's
    check(
        xp.concat([xp_of(A), xp_of(A.astype("float64"))]), np.concatenate([A, A.astype("float64")])
    )


def test_astype_matmul_vecdot():
    check(xp.astype(xp_of(A), xp.float32), A.astype("float32"))
    x = xp_of(A)
    assert xp.astype(x, xp.int64, copy=False) is x
    m = rng.standard_normal((2, 3, 4))
    check(xp.matmul(xp_of(m), xp_of(m).mT), m @ m.swapaxes(-1, -2), exact=False)
    check(xp.vecdot(xp_of(m), xp_of(m)), np.sum(m * m, axis=-1), exact=False)


def test_array_api_generic_code():
    """A function written only against the namespace runs on strided.compat."""

    def standardize(x):
        ns = x.__array_namespace__()
        mu = ns.mean(x, axis=0, keepdims=True)
        sd = ns.std(x, axis=0, keepdims=True, correction=1)
        return ns.where(sd > 0, (x - mu) / sd, ns.zeros_like(x))

    check(standardize(xp_of(F[0])), (F[0] - F[0].mean(0)) / F[0].std(0, ddof=1), exact=False)


def test_take_searchsorted_diff_unstack():
    check(xp.take(xp_of(A), xp.asarray([2, -1, 0]), axis=1), np.take(A, [2, -1, 0], axis=1))
    idx = np.argsort(F, axis=1)
    check(xp.take_along_axis(xp_of(F), xp_of(idx), axis=1), np.take_along_axis(F, idx, axis=1))
    s = np.sort(rng.integers(0, 10, 12))
    v = rng.integers(-1, 11, (3, 4))
    for side in ("left", "right"):
        check(xp.searchsorted(xp_of(s), xp_of(v), side=side), np.searchsorted(s, v, side=side))
    check(xp.searchsorted(xp_of(s), 5), np.array(np.searchsorted(s, 5)))
    check(xp.diff(xp_of(A), axis=1), np.diff(A, axis=1))
    check(
        xp.diff(xp_of(A), n=2, prepend=0, append=xp_of(A[..., :1])),
        np.diff(A, n=2, prepend=0, append=A[..., :1]),
    )
    for g, w in zip(xp.unstack(xp_of(A), axis=1), [A[:, i] for i in range(3)]):
        check(g, w)


def test_tile_repeat_tensordot():
    check(xp.tile(xp_of(A), (2, 1, 3)), np.tile(A, (2, 1, 3)))
    check(xp.tile(xp_of(A[0]), (2, 1, 1)), np.tile(A[0], (2, 1, 1)))
    check(xp.repeat(xp_of(A), 2, axis=1), np.repeat(A, 2, axis=1))
    check(xp.repeat(xp_of(A), 3), np.repeat(A, 3))
    r = np.array([0, 2, 1, 3])
    check(xp.repeat(xp_of(A), xp_of(r), axis=-1), np.repeat(A, r, axis=-1))
    m, n = rng.standard_normal((2, 3, 4)), rng.standard_normal((3, 4, 5))
    check(xp.tensordot(xp_of(m), xp_of(n)), np.tensordot(m, n), exact=False)
    check(
        xp.tensordot(xp_of(m), xp_of(n), axes=([1], [0])),
        np.tensordot(m, n, axes=([1], [0])),
        exact=False,
    )
    check(xp.tensordot(xp_of(m), xp_of(m), axes=0), np.tensordot(m, m, axes=0), exact=False)


def test_broadcast_shapes_and_tuple_results():
    assert xp.broadcast_shapes((3, 1), (4,), ()) == (3, 4)
    with pytest.raises(ValueError):
        xp.broadcast_shapes((3,), (4,))
    a, b = xp.asarray([1, 2]), xp.asarray([[1], [2], [3]])
    out = xp.broadcast_arrays(a, b)
    assert isinstance(out, tuple) and [o.shape for o in out] == [(3, 2), (3, 2)]
    grids = xp.meshgrid(a, xp.asarray([5, 6, 7]))
    assert isinstance(grids, tuple) and grids[0].shape == (3, 2)
    assert xp.meshgrid() == ()
    devices = xp.__array_namespace_info__().devices()
    # a tuple (2025.12), to which a list adds as to the list of earlier versions
    assert type(devices) is not list and isinstance(devices, tuple) and devices == ("cpu",)
    assert devices + [None] == ["cpu", None] and devices + (None,) == ("cpu", None)


def test_repeat_with_one_count_applies_to_every_element():
    x = xp.asarray([1, 2])
    assert xp.repeat(x, xp.asarray([3])).shape == (6,)
    assert xp.repeat(x, xp.asarray(2)).shape == (4,)
    assert xp.repeat(xp.asarray([], dtype=xp.bool), xp.asarray([1], dtype=xp.int8)).shape == (0,)
    with pytest.raises(ValueError, match="repeats"):
        xp.repeat(x, xp.asarray([1, 2, 3]))
