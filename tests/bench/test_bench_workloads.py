"""benchmarks/workloads.py and sweep.py (issue 22) on small sizes: every
workload runs on numpy, torch and strided.compat and agrees (xarray hands
torch tensors back as numpy: that is an ERROR naming it), a wrong answer
or a result computed in numpy fails, the sweep's points agree, --quick
stops the sweep, the repeats shrink for slow calls, and the compact table
and the geometric mean's level line up.  Nothing here is a timing."""

from importlib.util import find_spec

import numpy as np
import pytest

# the workloads call scikit-learn, SciPy, array-api-extra and xarray at
# their pinned versions, which need Python >= 3.11 (the [test] extra leaves
# them out on 3.10: .ci/pythons).  Looked up, not imported: SciPy must be
# imported after the workloads set SCIPY_ARRAY_API=1
if any(find_spec(peer) is None for peer in ("sklearn", "array_api_extra", "xarray")):
    pytest.skip("the workloads' peers are pinned for Python >= 3.11", allow_module_level=True)

from benchmarks import __main__ as cli
from benchmarks import memory, report, run
from benchmarks.cases import SECTIONS
from benchmarks.kinds import FULL, QUICK, Sizes
from benchmarks.convert import torch
from benchmarks.run import Result, run_case
from benchmarks.sweep import OPS, SIZES, SWEEP_CASES, Sweep
from benchmarks.timing import Timing
from benchmarks.workloads import WORKLOAD_CASES, WORKLOADS, Spec, Workload

# the large inputs 100x smaller, so no larger than the small ones
TINY = Sizes(n=1000, side=10, part=100, face=600, face_rows=20, workload_scale=100)
# torch tensors go into xarray as numpy arrays: xarray has no torch path
TORCH_TO_NUMPY = {"xarray anomaly"}


@pytest.fixture
def no_memory(monkeypatch):
    monkeypatch.setattr(memory, "AVAILABLE", False)


def test_there_are_at_least_20_workloads_each_at_two_sizes():
    assert len(WORKLOADS) >= 20
    names = [c.name for c in WORKLOAD_CASES]
    assert len(names) == len(set(names)) == 2 * len(WORKLOADS)
    assert all(c.level == 1.0 for c in WORKLOAD_CASES)
    assert {
        "PCA full",
        "PCA randomized",
        "PCA covariance_eigh",
        "Ridge svd",
        "logsumexp",
        "xpx.cov",
        "einops rearrange",
        "xarray anomaly",
        "logistic GD 100",
    } <= set(WORKLOADS)


@pytest.mark.parametrize(
    "case", [c for c in WORKLOAD_CASES if c.size == "small"], ids=lambda c: c.label
)
def test_each_workload_agrees_across_contestants(case, no_memory):
    res = run_case(case, TINY, repeats=1, min_time=1e-4)
    if case.label in TORCH_TO_NUMPY and torch is not None:
        assert (
            res.status == "ERROR" and "torch: TypeError: the result is numpy.ndarray" in res.detail
        )
        assert res.median("ours") > 0 and res.median("numpy") > 0
        return
    assert (res.status, res.detail) == ("ok", "")  # torch agreed with numpy too
    assert res.median("ours") > 0 and res.median("numpy") > 0


def test_the_large_size_is_larger_and_quick_shrinks_it():
    pca = Workload("PCA full", "large")
    assert pca.shape(FULL) == (20000, 200) and pca.shape(QUICK) == (2000, 20)
    assert Workload("PCA full", "small").shape(FULL) == (1000, 10)
    assert Workload("logistic GD 100", "small").shape(FULL) == (500, 8)


def test_a_wrong_answer_of_ours_fails(monkeypatch, no_memory):
    spec = WORKLOADS["standardise"]

    def off(who, x):
        y = spec.call(who, x=x)
        return y * 1.001 if who == "ours" else y

    monkeypatch.setitem(WORKLOADS, "standardise", spec._replace(call=off))
    res = run_case(Workload("standardise", "small"), TINY, repeats=1, min_time=1e-4)
    assert res.status == "FAILED" and "ours != numpy" in res.detail


def test_a_result_computed_in_numpy_is_an_error(monkeypatch, no_memory):
    # a library that converts our arrays to numpy and hands numpy back
    def via_numpy(who, x):
        return np.asarray(x) * 2.0 if who == "ours" else x * 2.0

    monkeypatch.setitem(
        WORKLOADS, "standardise", Spec("user", WORKLOADS["standardise"].data, via_numpy)
    )
    res = run_case(Workload("standardise", "small"), TINY, repeats=1, min_time=1e-4)
    assert res.status == "ERROR"
    assert "ours: TypeError: the result is numpy.ndarray, not the input's kind" in res.detail
    assert res.median("ours") is None and res.median("numpy") > 0


def test_svd_like_results_agree_up_to_sign(monkeypatch, no_memory):
    spec = WORKLOADS["PCA full"]

    def flipped(who, x):
        components, variance = spec.call(who, x=x)
        return (-components if who == "ours" else components), variance

    monkeypatch.setitem(WORKLOADS, "PCA full", spec._replace(call=flipped))
    res = run_case(Workload("PCA full", "small"), TINY, repeats=1, min_time=1e-4)
    assert (res.status, res.detail) == ("ok", "")


def test_the_repeats_shrink_for_slow_calls_only():
    case = Workload("PCA full", "large")
    calls = {"ours": None, "numpy": None, "torch": None}
    fast = {"ours": 1e-3, "numpy": 1e-3, "torch": 1e-3}
    assert run._repeats(case, 7, 0.02, fast, calls) == 7
    slow = {"ours": 0.5, "numpy": 0.5, "torch": 0.5}
    assert run._repeats(case, 7, 0.02, slow, calls) == 3  # 4 s of 1.5 s rounds: 2, but 3 at least
    assert run._repeats(case, 2, 0.02, slow, calls) == 2  # never more than asked
    assert run._repeats(Sweep("x - y", 1000), 7, 0.02, slow, calls) == 7  # no budget


@pytest.mark.parametrize("op", list(OPS))
def test_each_sweep_op_agrees(op, no_memory):
    res = run_case(Sweep(op, 10**4), TINY, repeats=1, min_time=1e-4)
    assert (res.status, res.detail) == ("ok", "")
    assert res.median("ours") > 0 and res.level == 1.0


def test_the_sweep_covers_every_size_and_quick_stops_at_1e6(capsys):
    assert SIZES == (10**3, 10**4, 10**5, 3 * 10**5, 10**6, 3 * 10**6, 10**7, 3 * 10**7)
    assert len(SWEEP_CASES) == len(OPS) * len(SIZES)
    assert Sweep("x - y", 3 * 10**6).name == "x - y 3e6"
    assert cli.main(["--only", "sweep", "--list"]) == 0
    assert capsys.readouterr().out.split("\n")[:-1] == [c.name for c in SECTIONS["sweep"]]
    assert cli.main(["--only", "sweep", "--quick", "--list"]) == 0
    quick = capsys.readouterr().out.split("\n")[:-1]
    assert quick == [c.name for c in SWEEP_CASES if c.n <= 10**6] and "x - y 1e6" in quick


def test_compact_cells_line_up_and_the_geomean_level():
    r = Result(
        "PCA full small", shape="sklearn 1000x10", level=1.0, extra_bytes={"ours": 2 * 10**6}
    )
    r.timings = {"ours": Timing(1, [1.0]), "numpy": Timing(1, [2.0]), "torch": Timing(1, [0.5])}
    row = dict(zip(report.COMPACT_COLUMNS, report.compact_cells(r)))
    assert len(report.compact_cells(r)) == len(report.COMPACT_COLUMNS)
    assert (row["inputs"], row["numpy/ours"], row["torch/ours"], row["at level"]) == (
        "sklearn 1000x10",
        "2.00",
        "0.50",
        "yes",
    )
    assert row["+MB ours"] == "2.0" and row["+MB numpy"] == ""
    s = report.summary([r], geomean_level=1.5)
    assert (
        "geometric means at their level 1.5: numpy/ours 2.00 (yes), torch/ours 0.50 (NO)"
        in report.summary_lines(s)
    )
    assert not any(
        "geometric means at" in line for line in report.summary_lines(report.summary([r]))
    )


def test_the_header_describes_the_sections_run():
    from benchmarks.cases import section_lines

    assert section_lines(["core"], FULL) == []
    work, sweep = section_lines(["workloads", "sweep"], QUICK)
    assert "large 20000x200 / 10" in work and "1.5 for the geometric mean" in work
    assert "from 1e3 to 1e6 elements" in sweep
