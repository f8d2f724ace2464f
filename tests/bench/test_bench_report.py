"""benchmarks/report.py and run.Result: levels, the summary, the cells."""

import math

from benchmarks import report
from benchmarks.cases import CASES
from benchmarks.run import Result
from benchmarks.timing import Timing


def result(name, ours, numpy, level, status="ok", **kw):
    r = Result(name, level=level, status=status, **kw)
    r.timings = {"ours": Timing(1, [ours]), "numpy": Timing(1, [numpy])}
    return r


def test_at_level():
    assert result("a", 1.0, 1.5, 1.5).at_level is True  # exactly at the level
    assert result("b", 1.0, 1.4, 1.5).at_level is False
    assert result("c", 4e-6, 1e-6, 0.25).at_level is True  # within 4x numpy
    assert result("d", 1.0, 1.5, None).at_level is None  # no level
    assert result("e", 1.0, 1.5, 1.0, status="FAILED").at_level is None


def test_summary_counts_levels_and_geomeans():
    rs = [
        result("fast", 1.0, 2.0, 1.3),
        result("slow", 1.0, 1.0, 1.3),
        result("free", 1.0, 0.5, None),
        result("broken", 1.0, 9.0, 1.0, status="FAILED"),
    ]
    s = report.summary(rs)
    assert s["levels"] == {"cases": 3, "at_level": 1, "below": ["slow", "broken"]}
    assert math.isclose(s["numpy"]["geomean"], 1.0)  # 2, 1, 0.5: broken left out
    assert s["numpy"]["cases"] == 3 and s["numpy"]["at_least_as_fast"] == 2
    assert s["failed"] == ["broken"]
    lines = report.summary_lines(s)
    assert any(
        line.startswith("1 of 3 cases at their level") and "slow, broken" in line for line in lines
    )


def test_cells_line_up_with_columns():
    r = result(
        "x",
        2e-3,
        3e-3,
        1.3,
        ulp={"ours": 0.5, "numpy": math.inf},
        extra_bytes={"ours": 0, "numpy": -1000, "torch": 80 * 10**6},
    )
    row = dict(zip(report.COLUMNS, report.cells(r)))
    assert len(report.cells(r)) == len(report.COLUMNS)
    assert (row["numpy/ours"], row["level"], row["at level"]) == ("1.50", "1.30", "yes")
    assert (row["ulp ours"], row["ulp numpy"], row["ulp torch"]) == ("0.50", "inf", "")
    assert (row["+MB ours"], row["+MB numpy"], row["+MB torch"]) == ("0.0", "0.0", "80.0")


def test_every_case_has_a_unique_name_and_a_level_or_none():
    names = [c.name for c in CASES]
    assert len(names) == len(set(names))
    assert all(c.level is None or 0 < c.level <= 2 for c in CASES)
