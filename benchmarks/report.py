"""The tables (plain text or Markdown), the summary lines and the JSON record.
Rows are printed as each case finishes.  Two tables: the cases against
numpy and torch (COLUMNS), and the Torch7 kernels against a list of peers
each, rated against the fastest (PEER_COLUMNS)."""

from __future__ import annotations

import json
import math

WHO = ("ours", "numpy", "torch")
COLUMNS = (
    ["case"]
    + [f"{w} ms" for w in WHO]
    + ["numpy/ours", "torch/ours", "level", "at level", "roof%"]
    + [f"ulp {w}" for w in WHO]
    + [f"+MB {w}" for w in WHO]
    + ["out", "others", "status"]
)
PEER_COLUMNS = [
    "case",
    "ours ms",
    "fastest peer",
    "fastest ms",
    "fastest/ours",
    "level",
    "at level",
    "+MB ours",
    "+MB fastest",
    "out",
    "others",
    "status",
    "every peer, ms",
]
LEFT = {"case", "inputs", "at level", "status", "every peer, ms", "fastest peer"}
NOISY = 0.10  # other processes above this CPU share make a row suspect


def fmt_ms(t):
    if t is None:
        return "n/a"
    ms = t * 1e3
    if ms < 0.01:
        return f"{ms * 1e3:.2f} us"
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


def fmt_ulp(x):
    return "" if x is None else "inf" if math.isinf(x) else f"{x:.2f}"


def fmt_extra(n):
    """Peak memory above the output, in MB (blank: not measured)."""
    return "" if n is None else f"{n / 1e6:.1f}".replace("-0.0", "0.0")


def fmt_at(ok, markdown):
    return "" if ok is None else "yes" if ok else ("**no**" if markdown else "NO")


def cells(res, markdown=False):
    return (
        [res.name]
        + [fmt_ms(res.median(w)) for w in WHO]
        + [
            fmt_ratio(res.ratio("numpy")),
            fmt_ratio(res.ratio("torch")),
            "" if res.level is None else f"{res.level:.2f}",
            fmt_at(res.at_level, markdown),
            "" if res.roof is None else fmt_share(res.roof),
        ]
        + [fmt_ulp(res.ulp.get(w)) for w in WHO]
        + [fmt_extra(res.extra_bytes.get(w)) for w in WHO]
        + [fmt_bytes(res.out_bytes), fmt_share(res.others), res.status]
    )


def peer_cells(res, markdown=False):
    """A Torch7 kernel's row: every peer's time, the fastest and its ratio."""
    fastest = res.fastest
    peers = "; ".join(f"{who} {fmt_ms(res.median(who))}" for who in res.peers())
    return [
        res.name,
        fmt_ms(res.median("ours")),
        fastest or "n/a",
        fmt_ms(res.median(fastest) if fastest else None),
        fmt_ratio(res.level_ratio),
        "" if res.level is None else f"{res.level:.2f}",
        fmt_at(res.at_level, markdown),
        fmt_extra(res.extra_bytes.get("ours")),
        fmt_extra(res.extra_bytes.get(fastest)),
        fmt_bytes(res.out_bytes),
        fmt_share(res.others),
        res.status,
        peers,
    ]


COMPACT_COLUMNS = (
    ["case", "inputs"]
    + [f"{w} ms" for w in WHO]
    + ["numpy/ours", "torch/ours", "level", "at level"]
    + [f"+MB {w}" for w in WHO]
    + ["others", "status"]
)


def compact_cells(res, markdown=False):
    """A workload's or a sweep point's row: the trio's times and ratios and
    peak memory, without the kernels' ulp and roof columns."""
    row = dict(zip(COLUMNS, cells(res, markdown)))
    return [res.name, res.shape] + [row[c] for c in COMPACT_COLUMNS[2:]]


# table kind (a case's `table` attribute; "trio" without one) -> its columns and cells
TABLES = {
    "trio": (COLUMNS, cells),
    "peers": (PEER_COLUMNS, peer_cells),
    "compact": (COMPACT_COLUMNS, compact_cells),
}


class Table:
    """Prints the header now and one row per finished case."""

    def __init__(self, names, markdown=False, out=print, kind="trio"):
        self.markdown, self.out = markdown, out
        self.columns, self.cells = TABLES[kind]
        self.widths = [max([len(self.columns[0])] + [len(n) for n in names])]
        self.widths += [max(len(c), 7) for c in self.columns[1:]]
        if kind == "peers":
            self.widths[self.columns.index("fastest peer")] = 20
        if kind == "compact":
            self.widths[self.columns.index("inputs")] = 16
        if markdown:
            self.out("| " + " | ".join(self.columns) + " |")
            self.out("|" + "|".join("---" if c in LEFT else "---:" for c in self.columns) + "|")
        else:
            self.out(self._line(self.columns))
            self.out("  ".join("-" * max(w, len(c)) for w, c in zip(self.widths, self.columns)))

    def _line(self, row):
        return "  ".join(
            c.ljust(w) if name in LEFT else c.rjust(w)
            for c, w, name in zip(row, self.widths, self.columns)
        ).rstrip()

    def row(self, res):
        row = self.cells(res, self.markdown)
        if self.markdown and "[" in row[0]:
            # (a name like `x[2][3]` would read as a Markdown reference link)
            row = [f"`{row[0]}`", *row[1:]]
        self.out("| " + " | ".join(row) + " |" if self.markdown else self._line(row))


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


def summary(results, geomean_level=None):
    """{contestant: {geomean, cases, at_least_as_fast}} over the cases that
    passed (at_least_as_fast: ratio >= 1.0); "levels": how many cases with
    a level reach it, and the ones below; the cases not ok, the noisy ones;
    "geomean_level": the level the geometric means are held to (issue 22's
    workloads: 1.5), or None."""
    ok = [r for r in results if r.status == "ok"]
    out = {"geomean_level": geomean_level}
    for who in ("numpy", "torch", "fastest", "lua"):
        if who in ("fastest", "lua"):  # the Torch7 kernels: the fastest of their peers
            ratios = [r.level_ratio for r in ok if r.against == who and r.level_ratio is not None]
        else:
            ratios = [r.ratio(who) for r in ok if r.ratio(who) is not None]
        out[who] = {
            "geomean": geomean(ratios),
            "cases": len(ratios),
            "at_least_as_fast": sum(x >= 1.0 for x in ratios),
        }
    leveled = [r for r in results if r.level is not None]
    out["levels"] = {
        "cases": len(leveled),
        "at_level": sum(r.at_level is True for r in leveled),
        "below": [r.name for r in leveled if r.at_level is not True],
    }
    out["failed"] = [r.name for r in results if r.status != "ok"]
    out["noisy"] = [r.name for r in results if r.others is not None and r.others > NOISY]
    out["cases"] = len(results)
    return out


def summary_lines(s):
    lines = []
    for who in ("numpy", "torch", "fastest", "lua"):
        d = s.get(who)
        if d and d["cases"]:
            label = {
                "fastest": "fastest peer/ours (Torch7 kernels)",
                "lua": "lua/ours (Lua Torch7)",
            }.get(who, f"{who}/ours")
            lines.append(
                f"{label}: geometric mean {d['geomean']:.2f} over {d['cases']} cases; "
                f"{d['at_least_as_fast']} of {d['cases']} cases >= 1.0 "
                f"(ours at least as fast)"
            )
    level = s.get("geomean_level")
    if level is not None:
        means = [
            f"{who}/ours {s[who]['geomean']:.2f} ({fmt_at(s[who]['geomean'] >= level, False)})"
            for who in ("numpy", "torch")
            if s[who]["cases"]
        ]
        lines.append(f"geometric means at their level {level:g}: {', '.join(means) or 'n/a'}")
    lv = s["levels"]
    if lv["cases"]:
        ratio = (
            "numpy/ours >= level"
            if not s.get("fastest", {}).get("cases")
            else "ratio >= level: numpy/ours; Torch7 kernels: fastest peer/ours"
        )
        line = f"{lv['at_level']} of {lv['cases']} cases at their level ({ratio})"
        if lv["below"]:
            line += f"; below (or not ok): {', '.join(lv['below'])}"
        lines.append(line)
    if s["noisy"]:
        # name them when they are few; when most are, the count says it
        names = f" ({', '.join(s['noisy'])})" if len(s["noisy"]) <= 15 else ""
        lines.append(
            f"{len(s['noisy'])} of {s['cases']} cases{names} ran while other processes "
            f"used > {NOISY:.0%} of the CPUs (column 'others'): their threaded times "
            f"are suspect"
        )
    if s["failed"]:
        lines.append(f"not ok (left out of the means): {', '.join(s['failed'])}")
    return lines


def notes(results):
    return [f"{r.name}: {r.status} {r.detail}".rstrip() for r in results if r.detail]


def to_json(meta, results, s):
    return json.dumps(
        {
            "meta": meta,
            "summary": s,
            "cases": [
                {
                    "name": r.name,
                    "shape": r.shape,
                    "status": r.status,
                    "detail": r.detail,
                    "out_bytes": r.out_bytes,
                    "others_cpu_share": r.others,
                    "level": r.level,
                    "against": r.against,
                    "at_level": r.at_level,
                    "roof_share": r.roof,
                    "max_ulp": r.ulp,
                    "peak_bytes_above_output": r.extra_bytes,
                    "median_s": {who: r.median(who) for who in r.timings},
                    "ratio": {
                        who: r.ratio(who)
                        for who in (WHO[1:] if r.against != "fastest" else r.peers())
                    },
                    "fastest": r.fastest if r.against == "fastest" else None,
                    "number": {who: t.number for who, t in r.timings.items()},
                    "samples_s": {who: t.samples for who, t in r.timings.items()},
                }
                for r in results
            ],
        },
        indent=1,
    )
