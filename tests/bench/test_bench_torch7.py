"""benchmarks/cases.py's Torch7 section on tiny sizes: each case passes
its check against numpy, repeated in-place calls keep every contestant's
values finite and equal, a call that misses its output fails, and
`--only` selects the section.  Nothing here is a timing."""

import numpy as np
import pytest

from benchmarks import __main__ as cli
from benchmarks import memory
from benchmarks.cases import SECTIONS, TORCH7_CASES
from benchmarks.kinds import TORCH7_FORMS, Sizes, Torch7
from benchmarks.convert import to_numpy
from benchmarks.run import run_case

TINY = Sizes(n=1000, side=10, part=100, face=600, face_rows=20)
NAMES = [c.form for c in TORCH7_CASES]


@pytest.fixture
def no_memory(monkeypatch):
    """Skip the peak memory (test_bench_memory.py tests it): its garbage
    collections are most of a tiny case's time."""
    monkeypatch.setattr(memory, "AVAILABLE", False)


@pytest.mark.parametrize("case", TORCH7_CASES, ids=NAMES)
def test_checked_and_timed(case, no_memory):
    res = run_case(case, TINY, repeats=1, min_time=1e-4)
    assert (res.status, res.detail) == ("ok", "")  # torch agreed with numpy too
    assert res.median("ours") > 0 and res.median("numpy") > 0
    assert res.level == 1.2 and res.at_level is not None


@pytest.mark.parametrize("case", TORCH7_CASES, ids=NAMES)
def test_repeated_calls_stay_finite_and_alike(case):
    # 2000 calls: x.mul(2) of standard normal values would overflow by now
    prep = case.prepare(TINY, np.random.default_rng(0))
    for call in prep.calls.values():
        for _ in range(2000):
            call()
    got = {
        who: to_numpy(x)
        for who, x in zip(("ours", "numpy", "torch"), prep.out)
        if who in prep.calls
    }
    assert all(np.isfinite(v).all() for v in got.values())
    for who in got:
        np.testing.assert_allclose(got[who], got["numpy"], rtol=1e-9, atol=prep.atol)


def test_a_call_that_leaves_its_output_alone_fails(monkeypatch, no_memory):
    # x + y computes the sum but does not store it in x: the check must see that
    form = TORCH7_FORMS["x.add(y)"]
    monkeypatch.setitem(TORCH7_FORMS, "x.add(y)", form._replace(ours=lambda x, y: x + y))
    res = run_case(Torch7("x.add(y)"), TINY, repeats=1, min_time=1e-4)
    assert res.status == "FAILED" and "ours != numpy" in res.detail


def test_only_selects_a_section(capsys):
    assert cli.main(["--only", "torch7", "--list"]) == 0
    assert capsys.readouterr().out.split("\n")[:-1] == [c.name for c in SECTIONS["torch7"]]
    assert cli.main(["--only", "core", "--filter", "torch7", "--list"]) == 0
    assert capsys.readouterr().out == "\n"
    with pytest.raises(SystemExit):
        cli.parse(["--only", "nosuch"])
