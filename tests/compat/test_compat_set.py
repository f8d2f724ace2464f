"""Set functions (unique_all, unique_counts, unique_inverse, unique_values,
isin) and searchsorted of strided.compat, against numpy.

unique: np.unique(flat, return_index, return_inverse, return_counts,
equal_nan=False), which sorts stably when asked for indices, so its values
are first occurrences, its NaNs last, each distinct, in input order: our
documented order.  For complex numpy orders NaNs its own way (R+nanj
before nan+Rj), so the oracle there is np.unique of the non-NaN elements
with the NaN elements appended in input order.  Every dtype, 0-d, empty,
borrowed inputs in every layout (transposed, stepped, reversed, broadcast),
slices with negative steps, pools of values that repeat (NaN, -0.0, +0.0,
inf) and full-range values.

isin: np.isin after the standard's promotion; scalars on either side.
searchsorted: np.searchsorted (left/right, sorter of any integer dtype,
NaN last), complex without NaN (numpy's complex NaN order is not ours);
errors for bad arguments, out-of-range sorter values caught before the
search reads them."""

import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import strided.compat as xp
from compat_util import NAMES, check, np_of, xp_of
from helpers import borrow, layouts, shapes

REAL = [n for n in NAMES if not n.startswith("complex")]  # bool included
NUMERIC_REAL = [n for n in REAL if n != "bool"]
FLOATS = ["float32", "float64"]
COMPLEX = ["complex64", "complex128"]
NAN = math.nan


# ---------------------------------------------------------------- strategies


def pool(dt):
    """Few values, so that they repeat: the runs, NaN, signed zeros."""
    kind = np.dtype(dt).kind
    if kind == "b":
        return st.booleans()
    if kind == "i":
        return st.integers(-3, 3)
    if kind == "u":
        return st.integers(0, 5)
    reals = [0.0, -0.0, 1.0, -1.5, NAN, math.inf, -math.inf]
    if kind == "f":
        return st.sampled_from(reals)
    return st.builds(complex, st.sampled_from(reals), st.sampled_from(reals))


def elements(dt, nan=True):
    """Repeating pool values, or anything of the dtype."""
    whole = hnp.from_dtype(np.dtype(dt), allow_nan=nan)
    part = pool(dt)
    if not nan and np.dtype(dt).kind in "fc":
        part = part.filter(lambda v: not np.isnan(v))
    return st.one_of(part, whole)


@st.composite
def arrays_in_layouts(draw, dt, shape=shapes, nan=True):
    """(numpy array, Array viewing the same values in some layout)."""
    a = draw(hnp.arrays(np.dtype(dt), shape, elements=elements(dt, nan)))
    view = draw(layouts(a))
    return view, xp.Array._new(borrow(view))


# ---------------------------------------------------------------- unique oracle


def np_unique(flat):
    """(values, indices, inverse, counts) of a 1-D numpy array, our order."""
    if flat.dtype.kind != "c":
        v, i, inv, c = np.unique(
            flat, return_index=True, return_inverse=True, return_counts=True, equal_nan=False
        )
        return v, i, inv.reshape(-1), c
    nan = np.isnan(flat)
    good, bad = np.flatnonzero(~nan), np.flatnonzero(nan)
    v, i, inv, c = np.unique(flat[good], return_index=True, return_inverse=True, return_counts=True)
    inverse = np.empty(flat.size, np.int64)
    inverse[good] = inv.reshape(-1)
    inverse[bad] = len(v) + np.arange(len(bad))
    return (
        np.concatenate([v, flat[bad]]),
        np.concatenate([good[i], bad]).astype(np.int64),
        inverse,
        np.concatenate([c, np.ones(len(bad), np.int64)]),
    )


def same_bits(got, want):
    """Equal values and, for floats, equal signs of zero (NaN equals NaN)."""
    np.testing.assert_array_equal(got, want)
    if got.dtype.kind == "f":
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
    if got.dtype.kind == "c":
        np.testing.assert_array_equal(np.signbit(got.real), np.signbit(want.real))
        np.testing.assert_array_equal(np.signbit(got.imag), np.signbit(want.imag))


def check_unique_all(a, x):
    flat = a.reshape(-1)
    v, i, inv, c = np_unique(flat)
    out = xp.unique_all(x)
    assert out._fields == ("values", "indices", "inverse_indices", "counts")
    check(out.values, v)
    same_bits(np_of(out.values), flat[i])  # the value of the first occurrence, -0.0 kept
    check(out.indices, i.astype(np.int64))
    check(out.inverse_indices, inv.astype(np.int64).reshape(a.shape))
    check(out.counts, c.astype(np.int64))


@pytest.mark.parametrize("dt", NAMES)
@given(data=st.data())
def test_unique_all_against_numpy(dt, data):
    a, x = data.draw(arrays_in_layouts(dt))
    check_unique_all(a, x)


@pytest.mark.parametrize("dt", NAMES)
@given(data=st.data())
def test_unique_counts_inverse_values(dt, data):
    a, x = data.draw(arrays_in_layouts(dt))
    flat = a.reshape(-1)
    v, i, inv, c = np_unique(flat)
    out = xp.unique_counts(x)
    assert out._fields == ("values", "counts")
    check(out.values, v)
    check(out.counts, c.astype(np.int64))
    out = xp.unique_inverse(x)
    assert out._fields == ("values", "inverse_indices")
    check(out.values, v)
    check(out.inverse_indices, inv.astype(np.int64).reshape(a.shape))
    check(xp.unique_values(x), v)


@pytest.mark.parametrize("dt", ["int16", "float64", "complex64", "bool"])
def test_unique_of_views_made_by_compat(dt):
    rng = np.random.default_rng(3)
    a = rng.integers(-4, 4, (6, 5)).astype(dt)
    if dt == "float64":
        a[1, 2] = a[4, 0] = NAN
        a[0, 0], a[5, 4] = -0.0, 0.0
    x = xp_of(a)
    check_unique_all(a[::-2], x[::-2])  # negative step
    check_unique_all(a.T, x.T)  # transposed
    check_unique_all(a[1:, ::2].T, x[1:, ::2].T)
    check_unique_all(a[2, 3], x[2, 3])  # 0-d
    check_unique_all(a[:0], x[:0])  # empty


def test_unique_nan_and_signed_zeros():
    x = xp.asarray([0.0, NAN, -0.0, 2.0, NAN, 0.0, -0.0])
    out = xp.unique_all(x)
    v = np_of(out.values)
    assert v[0] == 0.0 and not np.signbit(v[0])  # +0.0 occurs first
    assert np.isnan(v[2:]).all() and v.shape == (4,)
    check(out.indices, np.array([0, 3, 1, 4]))
    check(out.counts, np.array([4, 1, 1, 1]))
    check(out.inverse_indices, np.array([0, 2, 0, 1, 3, 0, 0]))
    v = np_of(xp.unique_values(xp.asarray([-0.0, 0.0], dtype=xp.float32)))
    assert v.shape == (1,) and np.signbit(v[0])  # -0.0 occurs first


def test_unique_complex_nan_parts_are_distinct():
    z = [
        complex(1, NAN),
        complex(NAN, 1),
        complex(1, 0),
        complex(NAN, NAN),
        complex(1, -0.0),
        complex(1, NAN),
    ]
    out = xp.unique_all(xp.asarray(z, dtype=xp.complex128))
    check(out.counts, np.array([2, 1, 1, 1, 1]))
    check(out.indices, np.array([2, 0, 1, 3, 5]))
    check(out.inverse_indices, np.array([1, 2, 0, 3, 0, 4]))


@pytest.mark.parametrize("dt", ["int64", "float32", "uint8", "complex128", "bool"])
def test_unique_long_inputs(dt):
    """Past the radix-sort threshold (128) and with many runs."""
    rng = np.random.default_rng(7)
    a = rng.integers(0, 300, 5000).astype(dt)
    if dt == "float32":
        a[rng.integers(0, 5000, 50)] = NAN
        a[rng.integers(0, 5000, 50)] = -0.0
    check_unique_all(a.reshape(50, 100), xp_of(a.reshape(50, 100)))


def test_unique_rejects_non_arrays():
    for f in (xp.unique_all, xp.unique_counts, xp.unique_inverse, xp.unique_values):
        with pytest.raises(TypeError, match=f"{f.__name__}: x must be an Array, got list"):
            f([1, 2, 2])


# ---------------------------------------------------------------- isin


def promotable_pairs():
    return [
        (a, b) for a in NAMES for b in NAMES if (getattr(xp, a), getattr(xp, b)) in _promote_table()
    ]


def _promote_table():
    from strided.compat import _dtypes

    return _dtypes.PROMOTE


PAIRS = promotable_pairs()


@pytest.mark.parametrize("d1,d2", [p for p in PAIRS if p[0] <= p[1]])
@given(data=st.data(), invert=st.booleans())
def test_isin_against_numpy(d1, d2, data, invert):
    a1, x1 = data.draw(arrays_in_layouts(d1), label="x1")
    a2, x2 = data.draw(arrays_in_layouts(d2), label="x2")
    # numpy's sorting isin compares in the common type and takes equal
    # neighbours for a match: two distinct integers that round to one float
    # (2**63 - 512 and 2**63 - 511 in float64) "match" there; we compare
    # element by element, as the standard's equality says (False)
    common = np.result_type(a1, a2)
    assume(all(np.unique(a).size == np.unique(a.astype(common)).size for a in (a1, a2)))
    check(xp.isin(x1, x2, invert=invert), np.isin(a1, a2, invert=invert))
    check(xp.isin(x2, x1, invert=invert), np.isin(a2, a1, invert=invert))


@pytest.mark.parametrize("dt", NAMES)
@given(data=st.data())
def test_isin_with_scalars(dt, data):
    a, x = data.draw(arrays_in_layouts(dt))
    kind = np.dtype(dt).kind
    s = data.draw(
        {
            "b": st.booleans(),
            "i": st.integers(-3, 3),
            "u": st.integers(0, 5),
            "f": st.sampled_from([0.0, -0.0, 1.0, NAN, 2]),
            "c": st.sampled_from([0j, 1 + 0j, 2]),
        }[kind],
        label="scalar",
    )
    check(xp.isin(x, s), np.isin(a, np.array(s, dtype=dt)))
    check(xp.isin(s, x), np.isin(np.array(s, dtype=dt), a))
    check(xp.isin(s, x, invert=True), np.isin(np.array(s, dtype=dt), a, invert=True))


def test_isin_nan_zero_and_mixed_dtypes():
    x = xp.asarray([NAN, 0.0, -0.0, 1.0])
    check(xp.isin(x, xp.asarray([NAN, -0.0])), np.array([False, True, True, False]))
    check(xp.isin(x, xp.asarray([NAN]), invert=True), np.array([True, True, True, True]))
    check(xp.isin(x, xp.asarray([], dtype=xp.float64)), np.zeros(4, bool))
    # int8 and uint8 meet in int16: -1 is not 255
    check(
        xp.isin(xp.asarray([-1, 3], dtype=xp.int8), xp.asarray([255, 3], dtype=xp.uint8)),
        np.array([False, True]),
    )
    check(
        xp.isin(xp.asarray([1.5, 2.0], dtype=xp.float32), xp.asarray([2.0])),
        np.array([False, True]),
    )
    z = xp.asarray([complex(1, NAN), 1 + 2j, -0.0 + 0j])
    check(xp.isin(z, xp.asarray([complex(1, NAN), 0j, 1 + 2j])), np.array([False, True, True]))


def test_isin_errors():
    with pytest.raises(TypeError, match="isin"):
        xp.isin(1, 2)
    # mixed kinds: the extension's promotion, as numpy's
    check(xp.isin(xp.asarray([1, 2]), xp.asarray([1.0])), np.isin([1, 2], [1.0]))
    check(
        xp.isin(xp.asarray([1], dtype=xp.int64), xp.asarray([1], dtype=xp.uint64)), np.array([True])
    )
    check(xp.isin(xp.asarray([1, 2]), 1.5), np.isin([1, 2], 1.5))
    with pytest.raises(OverflowError):
        xp.isin(xp.asarray([1], dtype=xp.uint8), 300)  # as equal() does


def test_isin_large_parallel():
    rng = np.random.default_rng(11)
    a1 = rng.integers(0, 1 << 20, 200_000)
    a2 = rng.integers(0, 1 << 20, 50_000)
    check(xp.isin(xp_of(a1), xp_of(a2)), np.isin(a1, a2))


# ---------------------------------------------------------------- searchsorted


SORTER_DTYPES = ["int64", "int32", "uint8", "int16", "uint64"]


@st.composite
def search_case(draw, dt):
    nan = np.dtype(dt).kind != "c"  # numpy orders complex NaNs differently
    raw = draw(hnp.arrays(np.dtype(dt), st.integers(0, 40), elements=elements(dt, nan)), label="x1")
    a2, x2 = draw(arrays_in_layouts(dt, nan=nan), label="x2")
    side = draw(st.sampled_from(["left", "right"]))
    return raw, a2, x2, side


@pytest.mark.parametrize("dt", NAMES)
@given(data=st.data())
def test_searchsorted_against_numpy(dt, data):
    raw, a2, x2, side = data.draw(search_case(dt))
    s = np.sort(raw, kind="stable")
    # sorted, in a layout: contiguous, or a reversed copy read backwards
    if data.draw(st.booleans(), label="negative stride"):
        x1 = xp_of(s[::-1].copy())[::-1]
    else:
        x1 = xp_of(s)
    check(xp.searchsorted(x1, x2, side=side), np.searchsorted(s, a2, side=side).astype(np.int64))


@pytest.mark.parametrize("dt", NAMES)
@given(data=st.data())
def test_searchsorted_with_sorter(dt, data):
    raw, a2, x2, side = data.draw(search_case(dt))
    sdt = data.draw(st.sampled_from(SORTER_DTYPES if raw.size <= 255 else ["int64"]))
    order = np.argsort(raw, kind="stable")
    sorter = xp_of(order.astype(sdt))
    if data.draw(st.booleans(), label="stepped sorter"):
        big = np.zeros(2 * raw.size, sdt)
        big[::2] = order
        sorter = xp_of(big)[::2]
    got = xp.searchsorted(xp_of(raw), x2, side=side, sorter=sorter)
    check(got, np.searchsorted(raw, a2, side=side, sorter=order).astype(np.int64))


@pytest.mark.parametrize("dt", REAL)
def test_searchsorted_scalars_and_mixed_dtypes(dt):
    s = np.sort(np.array([0, 1, 1, 3, 5], dtype=dt))
    x1 = xp_of(s)
    for v in [True, False] if dt == "bool" else [0, 1, 2, 5, 9]:
        for side in ("left", "right"):
            out = xp.searchsorted(x1, v, side=side)
            check(out, np.array(np.searchsorted(s, np.array(v, dt), side=side), np.int64))
    if dt in FLOATS:
        check(xp.searchsorted(x1, 1.5), np.array(3))
        check(xp.searchsorted(x1, NAN), np.array(5))
        check(xp.searchsorted(x1, NAN, side="right"), np.array(5))
    if dt == "int8":  # x2 wider: x1 promotes
        check(xp.searchsorted(x1, xp.asarray([300, -300, 1], dtype=xp.int16)), np.array([5, 0, 1]))
    if dt == "float32":
        check(xp.searchsorted(x1, xp.asarray([0.5, 1.0])), np.array([1, 1]))


def test_searchsorted_nan_and_zeros():
    x1 = xp.asarray([-1.0, -0.0, 0.0, 2.0, NAN, NAN])
    check(xp.searchsorted(x1, xp.asarray([0.0, -0.0, NAN, math.inf])), np.array([1, 1, 4, 4]))
    check(
        xp.searchsorted(x1, xp.asarray([0.0, -0.0, NAN, math.inf]), side="right"),
        np.array([3, 3, 6, 4]),
    )
    z = xp.asarray([1 + 1j, 1 + 2j, 2 + 0j, complex(NAN, 0)])
    check(
        xp.searchsorted(z, xp.asarray([1 + 2j, 0j, complex(0, NAN), 3 + 0j])),
        np.array([1, 0, 3, 3]),
    )
    check(xp.searchsorted(z, xp.asarray([complex(0, NAN)]), side="right"), np.array([4]))


def test_searchsorted_empty_and_large():
    check(xp.searchsorted(xp.asarray([], dtype=xp.int64), xp.asarray([1, 2])), np.array([0, 0]))
    check(
        xp.searchsorted(xp.asarray([1, 2]), xp.asarray([], dtype=xp.int64)), np.zeros(0, np.int64)
    )
    rng = np.random.default_rng(5)
    s = np.sort(rng.normal(size=10_000))
    v = rng.normal(size=(300, 500))
    for side in ("left", "right"):
        check(xp.searchsorted(xp_of(s), xp_of(v), side=side), np.searchsorted(s, v, side=side))


def test_searchsorted_errors():
    x1 = xp.asarray([1, 2, 3])
    with pytest.raises(ValueError, match="side"):
        xp.searchsorted(x1, 2, side="middle")
    with pytest.raises(ValueError, match="side"):
        xp.searchsorted(x1, 2, side=None)
    with pytest.raises(ValueError, match="1-D"):
        xp.searchsorted(xp.asarray([[1, 2]]), 2)
    with pytest.raises(ValueError, match="1-D"):
        xp.searchsorted(xp.asarray(1), 2)
    with pytest.raises(TypeError, match="x1"):
        xp.searchsorted([1, 2], 2)
    # mixed kinds: the extension's promotion, as numpy's
    check(xp.searchsorted(x1, 1.5), np.searchsorted([1, 2, 3], 1.5))
    check(xp.searchsorted(x1, xp.asarray([1.5, 3.0])), np.searchsorted([1, 2, 3], [1.5, 3.0]))
    with pytest.raises(TypeError, match="sorter"):
        xp.searchsorted(x1, 2, sorter=xp.asarray([0.0, 1.0, 2.0]))
    with pytest.raises(TypeError, match="sorter"):
        xp.searchsorted(x1, 2, sorter=xp.asarray([True, False, True]))
    with pytest.raises(TypeError, match="sorter"):
        xp.searchsorted(x1, 2, sorter=[0, 1, 2])
    with pytest.raises(ValueError, match="shape"):
        xp.searchsorted(x1, 2, sorter=xp.asarray([0, 1]))
    # out-of-range positions are caught before the search reads through them
    for bad in ([0, 1, 3], [0, -1, 2], [2, 1, 1 << 40]):
        with pytest.raises(IndexError, match="sorter"):
            xp.searchsorted(x1, xp.asarray([2, 5]), sorter=xp.asarray(bad))
    with pytest.raises(IndexError, match="sorter"):
        xp.searchsorted(x1, 2, sorter=xp.asarray([0, 1, (1 << 64) - 1], dtype=xp.uint64))


def test_repeat_still_uses_searchsorted():
    check(xp.repeat(xp.asarray([4, 5, 6]), xp.asarray([2, 0, 3])), np.array([4, 4, 6, 6, 6]))
