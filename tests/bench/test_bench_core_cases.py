"""benchmarks/cases.py's cases of issue 16 on tiny sizes: stacks of matrix
products and the set functions pass their checks against numpy (the set
functions through an order-free digest, since numpy's unique_values does
not sort), and a wrong result fails.  Nothing here is a timing."""

import numpy as np
import pytest

from benchmarks import memory
from benchmarks.cases import CORE, CREATION_CASES
from benchmarks.kinds import Matmul, SetOp, Sizes, _set_digest
from benchmarks.run import run_case

TINY = Sizes(n=1000, side=10, part=200, face=600, face_rows=20)
CASES = [c for c in CORE if isinstance(c, SetOp) or (isinstance(c, Matmul) and c.batch)]


@pytest.fixture
def no_memory(monkeypatch):
    monkeypatch.setattr(memory, "AVAILABLE", False)


def test_the_cases_are_there():
    names = {c.name for c in CASES}
    assert {
        "matmul f64 64x16",
        "matmul f64 64x64",
        "matmul f64 64x128",
        "matmul f64 64x256",
    } <= names
    assert {
        f"{op} f64 repeated"
        for op in ("unique_values", "unique_counts", "unique_inverse", "unique_all", "isin")
    } <= names


@pytest.mark.parametrize(
    "case", [c for c in CASES if not isinstance(c, Matmul) or c.side <= 64], ids=lambda c: c.name
)
def test_checked_and_timed(case, no_memory):
    res = run_case(case, TINY, repeats=1, min_time=1e-4)
    assert (res.status, res.detail) == ("ok", "")  # torch agreed with numpy too
    assert res.median("ours") > 0 and res.median("numpy") > 0


def test_the_digest_sees_a_wrong_count_inverse_or_first_index():
    x = np.array([3.0, 1.0, 3.0, 2.0])
    values, inverse, counts = np.array([1.0, 2.0, 3.0]), np.array([2, 0, 2, 1]), np.array([1, 1, 2])
    right = _set_digest(x, values, inverse, counts, x[[1, 3, 0]])
    np.testing.assert_array_equal(
        right, _set_digest(x, values[::-1], 2 - inverse, counts[::-1], x[[0, 3, 1]])
    )  # any order of the values
    for wrong in (
        _set_digest(x, values, inverse, np.array([1, 2, 1]), x[[1, 3, 0]]),
        _set_digest(x, values, np.array([2, 0, 1, 1]), counts, x[[1, 3, 0]]),
        _set_digest(x, values, inverse, counts, x[[1, 0, 0]]),
    ):
        assert not np.array_equal(wrong, right)


@pytest.mark.parametrize("case", CREATION_CASES, ids=lambda c: c.name)
def test_creation_cases_checked_and_timed(case, no_memory):
    # every creation case runs and agrees with numpy (and torch with numpy)
    res = run_case(case, TINY, repeats=1, min_time=1e-4)
    assert (res.status, res.detail) == ("ok", "")
    assert res.median("ours") > 0 and res.median("numpy") > 0


def test_creation_cases_are_there():
    names = {c.name for c in CREATION_CASES}
    assert {
        f"{w} f64"
        for w in (
            "zeros",
            "zeros_like",
            "empty",
            "ones",
            "full",
            "arange",
            "linspace",
            "eye",
            "tril",
            "triu",
            "meshgrid",
            "t7 range",
            "t7 linspace",
            "t7 logspace",
            "t7 eye",
        )
    } == names
    assert {c.name: c.level for c in CREATION_CASES}["arange f64"] == 1.5
