"""Torch7's `torch.Tester` assertions, for the port of Lua's `test/test.lua`.

The ported tests read as their Lua originals: `mytester.assertlt(err, prec,
"message")`, `mytester.assertTensorEq(a, b, precision)`.  Each assertion
follows Torch7's `Tester.lua`/`check` rules (tolerance and message in either
order; tensors compared by type, then element count (the Tester's default of
ignoring dimensions), then the largest absolute difference), and fails with
pytest's `AssertionError` at once instead of counting failures.
"""

import math

import numpy as np

import strided as torch

MSIZE = 100  # test.lua's `msize`
PRECISION = 1e-8  # test.lua's `precision` for the default torch.DoubleTensor


def _tolerance_and_message(default, args):
    tolerance, message = default, ""
    for a in args:
        if isinstance(a, str):
            message = a
        else:
            tolerance = a
    return tolerance, message


def _values(t):
    """A tensor's (or a storage's) elements as a float64 numpy array."""
    if torch.isStorage(t):
        return np.array([t[i] for i in range(1, t.size() + 1)], dtype=np.float64)
    return np.asarray(_flat(t), dtype=np.float64)


def _flat(t):
    if t.dim() == 0:
        return []
    return t.double().contiguous().view(t.nElement()).totable()


_INT_BITS = {
    "torch.ByteTensor": (8, False),
    "torch.CharTensor": (8, True),
    "torch.ShortTensor": (16, True),
    "torch.IntTensor": (32, True),
    "torch.LongTensor": (64, True),
}


def lua_wrap(value, tensor_type):
    """value as Lua stores it into an element of tensor_type: a C cast, which
    wraps integers modulo 2^bits.  strided raises OverflowError for a Python
    number that does not fit (a deliberate difference, docs/torch7.md), so a
    port that stores such a number into an integer tensor says the wrap."""
    if tensor_type not in _INT_BITS:
        return value
    bits, signed = _INT_BITS[tensor_type]
    v = int(value) % (1 << bits)
    return v - (1 << bits) if signed and v >= 1 << (bits - 1) else v


def maxdiff(x, y):
    """test.lua's `maxdiff`: the largest |x - y| (computed in double)."""
    d = np.abs(_values(x) - _values(y))
    return float(d.max()) if d.size else 0.0


def tensors_equal(ta, tb, tolerance):
    """(success, reason) as Torch7's check.areTensorsEq with ignored dims."""
    if ta.type() != tb.type():
        return False, f"the tensors have different types: {ta.type()} and {tb.type()}"
    if ta.dim() == 0 and tb.dim() == 0:
        return True, "both tensors are empty"
    if ta.nElement() != tb.nElement():
        return False, "the tensors have different sizes"
    a, b = _values(ta), _values(tb)
    diff = np.abs(a - b)
    # Lua's check counts a NaN in the same place in both as equal
    same_nan = np.isnan(a) & np.isnan(b)
    same_inf = a == b
    bad = ~(same_nan | same_inf) & ~(diff <= tolerance)
    if bad.any():
        return False, f"max difference {np.nanmax(diff)} > tolerance {tolerance}"
    return True, ""


class LuaTester:
    """`mytester`: the assertions that test.lua calls."""

    def assert_(self, condition, message=""):
        assert condition, f"{message} BOOL violation condition={condition}"

    def assertlt(self, a, b, message=""):
        assert a < b, f"{message} LT failed: {a} >= {b}"

    def assertgt(self, a, b, message=""):
        assert a > b, f"{message} GT failed: {a} <= {b}"

    def assertle(self, a, b, message=""):
        assert a <= b, f"{message} LE failed: {a} > {b}"

    def assertge(self, a, b, message=""):
        assert a >= b, f"{message} GE failed: {a} < {b}"

    def asserteq(self, a, b, message=""):
        assert a == b, f"{message} EQ failed: {a} ~= {b}"

    def assertne(self, a, b, message=""):
        assert a != b, f"{message} NE failed: {a} == {b}"

    def assertalmosteq(self, a, b, *args):
        tolerance, message = _tolerance_and_message(1e-16, args)
        assert abs(a - b) <= tolerance, (
            f"{message} ALMOST_EQ failed: {a} ~= {b} with tolerance={tolerance}"
        )

    def assertTensorEq(self, ta, tb, *args):
        tolerance, message = _tolerance_and_message(0, args)
        assert torch.isTensor(ta) and torch.isTensor(tb), "arguments must be tensors"
        ok, why = tensors_equal(ta, tb, tolerance)
        assert ok, f"{message} {why}"

    def assertTensorNe(self, ta, tb, *args):
        tolerance, message = _tolerance_and_message(0, args)
        ok, _ = tensors_equal(ta, tb, tolerance)
        assert not ok, f"{message} the tensors are equal"

    def eq(self, got, expected, *args):
        tolerance, message = _tolerance_and_message(0, args)
        assert _general_eq(got, expected, tolerance), f"{message} {got!r} ~= {expected!r}"

    assertGeneralEq = eq

    def ne(self, got, unexpected, *args):
        tolerance, message = _tolerance_and_message(0, args)
        assert not _general_eq(got, unexpected, tolerance), f"{message} {got!r} == {unexpected!r}"

    assertGeneralNe = ne

    def assertTableEq(self, ta, tb, *args):
        self.eq(ta, tb, *args)

    def assertTableNe(self, ta, tb, *args):
        self.ne(ta, tb, *args)

    def assertError(self, f, message=""):
        try:
            f()
        except Exception:
            return
        raise AssertionError(f"{message} ERROR violation: no error raised")

    def assertNoError(self, f, message=""):
        f()

    def assertErrorPattern(self, f, pattern, message=""):
        import re

        try:
            f()
        except Exception as e:
            assert re.search(pattern, str(e)), f"{message} error {e!s} does not match {pattern!r}"
            return
        raise AssertionError(f"{message} ERROR violation: no error raised")


def _general_eq(a, b, tolerance):
    """check.areEq: tensors, storages, tables (dict/list) or plain values."""
    if torch.isTensor(a) and torch.isTensor(b):
        return a.type() == b.type() and a.isSameSizeAs(b) and tensors_equal(a, b, tolerance)[0]
    if torch.isStorage(a) and torch.isStorage(b):
        return a.size() == b.size() and maxdiff(a, b) <= tolerance
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_general_eq(x, y, tolerance) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_general_eq(a[k], b[k], tolerance) for k in a)
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return a == b or math.isclose(a, b, rel_tol=0, abs_tol=tolerance)
    return a == b


mytester = LuaTester()
