"""The table (plain text or Markdown), the summary line and the JSON record.
Rows are printed as each case finishes."""
from __future__ import annotations

import json
import math

COLUMNS = ["case", "ours ms", "numpy ms", "torch ms", "numpy/ours", "torch/ours", "out",
           "others", "status"]
RIGHT = {"ours ms", "numpy ms", "torch ms", "numpy/ours", "torch/ours", "out", "others"}
NOISY = 0.10   # other processes above this CPU share make a row suspect


def fmt_ms(t):
    if t is None:
        return "n/a"
    ms = t * 1e3
    return f"{ms:.1f}" if ms >= 10 else f"{ms:.2f}" if ms >= 1 else f"{ms:.3f}"


def fmt_ratio(r):
    return "n/a" if r is None else f"{r:.2f}"


def fmt_bytes(n):
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} B"


def fmt_share(x):
    return "n/a" if x is None else f"{100 * x:.0f}%"


def cells(res):
    return [res.name, fmt_ms(res.median("ours")), fmt_ms(res.median("numpy")),
            fmt_ms(res.median("torch")), fmt_ratio(res.ratio("numpy")),
            fmt_ratio(res.ratio("torch")), fmt_bytes(res.out_bytes),
            fmt_share(res.others), res.status]


class Table:
    """Prints the header now and one row per finished case."""

    def __init__(self, names, markdown=False, out=print):
        self.markdown, self.out = markdown, out
        self.widths = [max([len(COLUMNS[0])] + [len(n) for n in names])]
        self.widths += [max(len(c), 6 if c == "others" else 9) for c in COLUMNS[1:]]
        if markdown:
            self.out("| " + " | ".join(COLUMNS) + " |")
            self.out("|" + "|".join("---:" if c in RIGHT else "---" for c in COLUMNS) + "|")
        else:
            self.out(self._line(COLUMNS))
            self.out("  ".join("-" * w for w in self.widths))

    def _line(self, row):
        return "  ".join(c.rjust(w) if name in RIGHT else c.ljust(w)
                         for c, w, name in zip(row, self.widths, COLUMNS)).rstrip()

    def row(self, res):
        row = cells(res)
        self.out("| " + " | ".join(row) + " |" if self.markdown else self._line(row))


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


def summary(results):
    """{contestant: {geomean, n, wins}} over the cases that passed, where
    wins counts the cases with ratio >= 1.0 (ours at least as fast)."""
    ok = [r for r in results if r.status == "ok"]
    out = {}
    for who in ("numpy", "torch"):
        ratios = [r.ratio(who) for r in ok if r.ratio(who) is not None]
        out[who] = {"geomean": geomean(ratios), "cases": len(ratios),
                    "at_least_as_fast": sum(x >= 1.0 for x in ratios)}
    out["failed"] = [r.name for r in results if r.status != "ok"]
    out["noisy"] = [r.name for r in results if r.others is not None and r.others > NOISY]
    return out


def summary_lines(s):
    lines = []
    for who in ("numpy", "torch"):
        d = s[who]
        if d["cases"]:
            lines.append(f"{who}/ours: geometric mean {d['geomean']:.2f} over {d['cases']} cases; "
                         f"{d['at_least_as_fast']} of {d['cases']} cases >= 1.0 "
                         f"(ours at least as fast)")
    if s["noisy"]:
        lines.append(f"{len(s['noisy'])} cases ran while other processes used > {NOISY:.0%} of "
                     f"the CPUs (column 'others'); their threaded times are suspect: "
                     f"{', '.join(s['noisy'])}")
    if s["failed"]:
        lines.append(f"not ok (left out of the means): {', '.join(s['failed'])}")
    return lines


def notes(results):
    return [f"{r.name}: {r.status} {r.detail}".rstrip() for r in results if r.detail]


def to_json(meta, results, s):
    return json.dumps({
        "meta": meta,
        "summary": s,
        "cases": [{
            "name": r.name, "shape": r.shape, "status": r.status, "detail": r.detail,
            "out_bytes": r.out_bytes, "others_cpu_share": r.others,
            "median_s": {who: r.median(who) for who in r.timings},
            "ratio": {who: r.ratio(who) for who in ("numpy", "torch")},
            "number": {who: t.number for who, t in r.timings.items()},
            "samples_s": {who: t.samples for who, t in r.timings.items()},
        } for r in results],
    }, indent=1)
