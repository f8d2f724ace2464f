"""benchmarks/cases.py's Torch7 kernels on tiny sizes: each case passes
its check against its oracle peer and every peer agrees, the fastest peer
is the one the level is judged against, a wrong answer of ours fails, and
the peers table lines up.  Nothing here is a timing."""

import numpy as np
import pytest

from benchmarks import __main__ as cli
from benchmarks import memory, report
from benchmarks.cases import KERNEL_CASES, SECTIONS
from benchmarks.kinds import KERNELS, Kernel, Sizes
from benchmarks.run import Result, run_case
from benchmarks.timing import Timing

TINY = Sizes(n=1000, side=10, part=100, face=600, face_rows=20, image=40, kernel=5)
NAMES = [c.name for c in KERNEL_CASES]


@pytest.fixture
def no_memory(monkeypatch):
    monkeypatch.setattr(memory, "AVAILABLE", False)


@pytest.mark.parametrize("case", KERNEL_CASES, ids=NAMES)
def test_checked_and_timed(case, no_memory):
    res = run_case(case, TINY, repeats=1, min_time=1e-4)
    assert (res.status, res.detail) == ("ok", "")  # every peer agreed with the oracle
    assert res.median("ours") > 0 and res.fastest in res.peers()
    assert res.level == 1.0 and res.against == "fastest"
    assert res.level_ratio == res.ratio(res.fastest)


@pytest.mark.parametrize("op", ["conv2", "xcorr2", "topk", "median", "histc"])
def test_a_wrong_answer_of_ours_fails(op, monkeypatch, no_memory):
    # ours answers for a slightly different input: the check must see it
    label, prep = KERNELS[op]

    def wrong(sizes, rng, dtype):
        p = prep(sizes, rng, dtype)
        rng2 = np.random.default_rng(1)
        other = prep(sizes, rng2, dtype)
        p.calls["ours"] = other.calls["ours"]
        return p

    monkeypatch.setitem(KERNELS, op, (label, wrong))
    res = run_case(Kernel(op), TINY, repeats=1, min_time=1e-4)
    assert res.status == "FAILED" and "ours != " in res.detail


def test_level_is_judged_against_the_fastest_peer():
    r = Result("k", level=1.0, against="fastest")
    r.timings = {"ours": Timing(1, [2.0]), "slow": Timing(1, [9.0]), "quick": Timing(1, [1.0])}
    assert r.fastest == "quick" and r.level_ratio == 0.5 and r.at_level is False
    row = dict(zip(report.PEER_COLUMNS, report.peer_cells(r)))
    assert len(row) == len(report.PEER_COLUMNS)
    assert (row["fastest peer"], row["fastest/ours"], row["at level"]) == ("quick", "0.50", "NO")
    assert row["every peer, ms"] == "slow 9000.0; quick 1000.0"
    s = report.summary([r])
    assert s["fastest"]["cases"] == 1 and s["numpy"]["cases"] == 0
    assert any(line.startswith("fastest peer/ours") for line in report.summary_lines(s))


def test_only_selects_the_section(capsys):
    assert cli.main(["--only", "kernels", "--list"]) == 0
    assert capsys.readouterr().out.split("\n")[:-1] == [c.name for c in SECTIONS["kernels"]]
