"""Property tests: random shapes, keys and layouts against numpy."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import strided.compat as xp
from compat_util import check, xp_of


@st.composite
def array_and_key(draw):
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5))
    key = draw(hnp.basic_indices(shape, allow_newaxis=True, allow_ellipsis=True))
    return np.arange(int(np.prod(shape)), dtype="int32").reshape(shape), key


@given(array_and_key())
def test_basic_indexing(ak):
    a, key = ak
    check(xp_of(a)[key], a[key])


@given(array_and_key(), st.integers(-100, 100))
def test_basic_setitem(ak, value):
    a, key = ak
    a = a.copy()
    x = xp_of(a)
    x[key] = value
    a[key] = value
    check(x, a)


@given(
    hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=4, max_side=4),
    st.sampled_from(["int8", "uint16", "int64", "float32", "float64"]),
    st.sampled_from(["add", "subtract", "multiply", "maximum", "less", "equal"]),
)
def test_broadcast_binary(shapes, dtype, name):
    s1, s2 = shapes.input_shapes
    a = (np.arange(int(np.prod(s1))) % 7).astype(dtype).reshape(s1)
    b = (np.arange(int(np.prod(s2))) % 5).astype(dtype).reshape(s2)
    check(getattr(xp, name)(xp_of(a), xp_of(b)), getattr(np, name)(a, b))
