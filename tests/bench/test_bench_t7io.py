"""benchmarks/t7io.py on a tiny file: torch.load's result agrees with
torchfile's (when installed), the three cases run and are judged against the
fastest peer, a wrong load of ours fails, and Lua Torch7 joins as a peer
when it is there (without it the cases still run).  Nothing here is a
timing."""

import pytest

from benchmarks import memory, t7io
from benchmarks.cases import SECTIONS
from benchmarks.kinds import Sizes
from benchmarks.run import run_case

TINY = Sizes(n=20000, side=10, part=100, face=600, face_rows=20)


@pytest.fixture
def no_memory(monkeypatch):
    monkeypatch.setattr(memory, "AVAILABLE", False)


@pytest.mark.parametrize("case", t7io.CASES, ids=[c.name for c in t7io.CASES])
def test_checked_and_timed(case, no_memory):
    res = run_case(case, TINY, repeats=1, min_time=1e-4)
    assert (res.status, res.detail) == ("ok", "")
    assert res.median("ours") > 0 and res.against == "fastest" and res.level == 1.0
    lua, _ = t7io.interpreter()
    assert ("lua" in res.peers()) == (lua is not None)
    if case.what == "load":
        pytest.importorskip("torchfile", reason="torchfile (PyPI) is not installed")
        assert "torchfile" in res.peers()


def test_a_wrong_load_of_ours_fails(monkeypatch, no_memory):
    real = t7io.strided.load
    monkeypatch.setattr(t7io.strided, "load", lambda p: real(p)[:-1] + [real(p)[0]])
    pytest.importorskip("torchfile", reason="torchfile (PyPI) is not installed")
    res = run_case(t7io.CASES[0], TINY, repeats=1, min_time=1e-4)
    assert res.status == "FAILED"


def test_the_section():
    assert SECTIONS["t7io"] == t7io.CASES
    assert [c.name for c in t7io.CASES] == [
        "t7 load 201 tensors",
        "t7 save 201 tensors",
        "t7 diskfile 201 tensors",
    ]
