"""python -m benchmarks [--quick] [--only SECTION] [--filter SUBSTRING] [--markdown] [--json PATH]

Times the core against numpy and PyTorch (the Torch7 kernels: against scipy
too), interleaved in one process; see
benchmarks/README.md for the columns and the method."""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import os
import platform
import shlex
import sys

import numpy as np

import strided

from . import lua, memory, report, roofline
from .accuracy import reference_bits
from .cases import GEOMEAN_LEVELS, SECTIONS, section_lines
from .kinds import FULL, QUICK
from .convert import torch
from .machine import describe, machine_line, wait_idle
from .run import run_case


def parse(argv):
    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n\n")[1])
    p.add_argument(
        "--quick",
        action="store_true",
        help="10x smaller inputs, 3 repeats of >= 10 ms (for development)",
    )
    p.add_argument(
        "--only",
        metavar="SECTION",
        choices=list(SECTIONS),
        help=f"only the cases of SECTION: {', '.join(SECTIONS)} (default: all)",
    )
    p.add_argument(
        "--filter",
        metavar="SUBSTRING",
        default="",
        help="only the cases whose name contains SUBSTRING (case-insensitive)",
    )
    p.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    p.add_argument("--json", metavar="PATH", help="also write every sample to PATH as JSON")
    p.add_argument("--repeats", type=int, help="timed rounds per case (default 7, quick 3)")
    p.add_argument(
        "--min-time",
        type=float,
        help="seconds each sample lasts at least (default 0.02, quick 0.01)",
    )
    p.add_argument(
        "--threads",
        type=int,
        default=2,
        help="threads for ours, torch and the BLAS (default 2; numpy's ufuncs use one)",
    )
    p.add_argument(
        "--wait-idle",
        type=float,
        default=0,
        metavar="SECONDS",
        help="before each case, wait up to SECONDS for other processes to use "
        "< 10%% of the CPUs (default 0: do not wait)",
    )
    p.add_argument("--list", action="store_true", help="list the case names and exit")
    args = p.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    if args.repeats is None:
        args.repeats = 3 if args.quick else 7
    if args.min_time is None:
        args.min_time = 0.01 if args.quick else 0.02
    if args.repeats < 1 or args.min_time <= 0 or args.threads < 1:
        p.error("--repeats and --threads must be >= 1, --min-time > 0")
    return args


def header(meta, sizes, args):
    """The lines above the table: the machine, the versions, the method."""
    m = "`" if args.markdown else ""
    load = " ".join(f"{x:.2f}" for x in meta["loadavg"])
    return [
        f"{m}{shlex.join(['python', '-m', 'benchmarks'] + args.argv)}{m}, "
        f"{meta['date'].replace('T', ' ').replace('+00:00', ' UTC')} on "
        f"{machine_line(meta['machine'])} (load {load}).",
        f"python {meta['python']}, numpy {meta['numpy']} (ufuncs on 1 thread), torch "
        f"{meta['torch'] or 'n/a'} ({meta['threads']['torch'] or 'n/a'} threads), strided "
        f"({meta['threads']['ours']} threads).",
        f"{'Quick: ' if args.quick else ''}n = {sizes.n} elements, matrices "
        f"{sizes.side}x{sizes.side}, sort and take {sizes.part}, Torch7 face {sizes.face} "
        f"elements (matrix {sizes.face_rows}x{sizes.face // sizes.face_rows}), Torch7 "
        f"kernels: images {sizes.image}x{sizes.image} by {sizes.kernel}x{sizes.kernel}; median of "
        f"{args.repeats} interleaved samples of >= {args.min_time * 1e3:g} ms; ratio > 1: ours "
        f"faster; level: the numpy/ours ratio the issue asks for (7; Torch7 face: 12; Torch7 "
        f"kernels: fastest peer/ours); ulp: max "
        f"error against a {meta['ulp_reference_bits']}-bit reference; +MB: peak memory of the "
        f"allocating call above its output (in-place and [res] forms: of the call itself)"
        f"{'' if meta['peak_memory'] else ' (not measurable here: n/a)'}.",
    ]


def _limit_blas(threads):
    """The BLAS libraries in the process (numpy's and scipy's OpenBLAS; the
    workloads' LAPACK calls run on them) on `threads` too, like ours and
    torch; the header's workloads line names them (cases._blas_threads)."""
    try:
        import threadpoolctl
    except ImportError:
        return
    threadpoolctl.threadpool_limits(threads, user_api="blas")


def main(argv=None):
    args = parse(argv)
    sections = [args.only] if args.only else list(SECTIONS)
    sizes = QUICK if args.quick else FULL
    skipped = []
    if "lua" in sections and not args.list:
        _, why = lua.interpreter()
        if why:  # no Lua Torch7 here: its section says so and is left out
            sections.remove("lua")
            skipped.append(f"lua section skipped: {why}")
    cases = [
        c
        for s in sections
        for c in SECTIONS[s]
        if args.filter.lower() in c.name.lower() and getattr(c, "fits", lambda sizes: True)(sizes)
    ]  # the sweep's sizes: --quick stops
    for line in skipped:
        print(line, file=sys.stderr)
    if args.list:
        print("\n".join(c.name for c in cases))
        return 0
    if not cases and skipped and args.only == "lua":
        return 0  # nothing to time here; the reason is printed
    if not cases:
        print(f"no case matches {args.filter!r}; --list shows them", file=sys.stderr)
        return 2
    strided.setnumthreads(args.threads)
    if torch is not None:
        torch.set_num_threads(args.threads)
    _limit_blas(args.threads)
    machine = describe()
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": machine,
        "loadavg": os.getloadavg(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "torch": torch.__version__ if torch is not None else None,
        "threads": {
            "ours": strided.getnumthreads(),
            "torch": torch.get_num_threads() if torch is not None else None,
            "numpy": 1,
        },
        "quick": args.quick,
        "sizes": dataclasses.asdict(sizes),
        "sections": sections,
        "repeats": args.repeats,
        "min_time_s": args.min_time,
        "wait_idle_s": args.wait_idle,
        "peak_memory": memory.AVAILABLE,
        "ulp_reference_bits": reference_bits,
    }
    # the roof of the roof% column: our C's copy and triad at the cases' size
    meta["bandwidth_gbs"] = roofline.measure(sizes.n, args.repeats, args.min_time)
    for line in (
        header(meta, sizes, args)
        + [roofline.line(meta["bandwidth_gbs"], args.threads)]
        + section_lines(sections, sizes)
    ):
        print(line)
    print()
    results, table, kind = [], None, None
    for case in cases:
        if getattr(case, "table", "trio") != kind:  # a new table for the Torch7 kernels
            kind = getattr(case, "table", "trio")
            if table is not None:
                print()
            table = report.Table(
                [c.name for c in cases if getattr(c, "table", "trio") == kind],
                markdown=args.markdown,
                out=lambda s: print(s, flush=True),
                kind=kind,
            )
        if args.wait_idle > 0:
            wait_idle(args.wait_idle)
        res = run_case(case, sizes, args.repeats, args.min_time)
        res.roof = roofline.share(
            roofline.traffic(case, sizes), res.median("ours"), meta["bandwidth_gbs"]["roof"]
        )
        results.append(res)
        table.row(res)
    s = report.summary(results, GEOMEAN_LEVELS.get(args.only))
    print()
    for line in report.summary_lines(s) + report.notes(results):
        print(f"- {line}" if args.markdown else line)  # Markdown: a list, not one paragraph
    if args.json:
        with open(args.json, "w") as f:
            f.write(report.to_json(meta, results, s))
    return 1 if s["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
