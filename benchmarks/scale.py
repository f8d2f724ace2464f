"""The scale section (issue 15): one Cubed plan over an array in Zarr, run
with strided.compat and with numpy as Cubed's chunk backend, on Cubed's
processes executor and on a Dask distributed LocalCluster (2 worker
processes each): the wall time of each step, the peak memory of the
workers, every task checked against its memory bound, every result checked
against numpy.

    python -m benchmarks.scale                       # 2e8 float64 (1.6 GB), 20000 x 10000
    python -m benchmarks.scale --shape 2000x1000 --chunks 250x250   # a smoke test
    python -m benchmarks.scale --markdown --json scale.json

Needs Python >= 3.12 with `cubed` and `dask[distributed]` (the
`strided[distributed]` extra) and numpy, zarr; see benchmarks/README.md,
"The scale section", and docs/scale.md.

Each (executor, backend) run is a fresh Python process with
CUBED_BACKEND_ARRAY_API_MODULE set before Cubed is imported (`--child`,
which prints one JSON line); the parent writes the input once (uniform
[0, 1) float64 from numpy's default_rng(15), so every run reads the same
bytes), runs the children, checks their results and prints the table."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

BACKENDS = {"numpy": None, "strided": "strided.compat"}
EXECUTORS = ("processes", "dask")
WORKERS = 2
MATMUL_COLS = 8  # x @ w, w of shape (columns, 8)

# The steps, in order: (name, what it computes).  Each is one Cubed compute.
STEPS = [
    ("mean", "mean(x)"),
    ("std", "std(x)"),
    ("sum axis 0", "sum(x, axis=0)"),
    ("sum axis 1", "sum(x, axis=1)"),
    ("expression to Zarr", "sin(x) * 2 + x * x - 1 written to Zarr"),
    ("matmul", "x @ w, w of shape (columns, 8)"),
    ("standardise to Zarr", "(x - mean(x, axis=0)) / std(x, axis=0) written to Zarr"),
]


def _shape(text):
    rows, cols = (int(float(v)) for v in text.lower().split("x"))
    return rows, cols


def parse(argv):
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.scale", description=__doc__.split("\n\n")[0]
    )
    p.add_argument(
        "--shape",
        type=_shape,
        default=(20000, 10000),
        help="rows x columns of the float64 input (default 20000x10000: 2e8 elements)",
    )
    p.add_argument(
        "--chunks",
        type=_shape,
        default=(2500, 2500),
        help="rows x columns of a chunk (default 2500x2500: 50 MB)",
    )
    p.add_argument(
        "--allowed-mem",
        default="1GB",
        help="Cubed's allowed_mem: the bound of every task (default 1GB)",
    )
    p.add_argument(
        "--executors",
        default=",".join(EXECUTORS),
        help=f"comma-separated, of {', '.join(EXECUTORS)}",
    )
    p.add_argument(
        "--backends", default=",".join(BACKENDS), help=f"comma-separated, of {', '.join(BACKENDS)}"
    )
    p.add_argument(
        "--repeats",
        type=int,
        default=1,
        help="runs of each (executor, backend), interleaved; the table shows "
        "the fastest total (default 1)",
    )
    p.add_argument(
        "--work-dir",
        help="where the Zarr arrays go (default: a temporary directory, removed at the end)",
    )
    p.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    p.add_argument("--json", metavar="PATH", help="also write every run's record to PATH")
    p.add_argument("--child", help=argparse.SUPPRESS)
    return p.parse_args(argv)


# ---------------------------------------------------------------- the child: one run


def _recorder():
    """A Cubed callback keeping, per compute, the projected memory of each
    op and the peak memory each task measured on its worker."""
    from cubed.runtime.pipeline import visit_nodes
    from cubed.runtime.types import Callback

    class Recorder(Callback):
        def __init__(self):
            self.projected, self.tasks = {}, []

        def on_compute_start(self, event):
            for name, node in visit_nodes(event.dag):
                self.projected[name] = node["primitive_op"].projected_mem

        def on_task_end(self, event):
            self.tasks.append(
                (
                    event.name,
                    event.num_tasks,
                    event.peak_measured_mem_start,
                    event.peak_measured_mem_end,
                )
            )

    return Recorder()


def _executor(name, cluster=None):
    from cubed.runtime.create import create_executor

    if name == "processes":
        return create_executor("processes", dict(max_workers=WORKERS))
    return create_executor("dask", dict(compute_kwargs=dict(address=cluster.scheduler_address)))


def child(cfg):
    """One (executor, backend) run; returns its record (JSON-able)."""
    import cubed
    import cubed.array_api as cxp
    from cubed.backend_array_api import namespace

    want = cfg["backend_module"] or "numpy"
    assert namespace.__name__ == want, (namespace.__name__, want)

    cluster = None
    if cfg["executor"] == "dask":
        from distributed import LocalCluster

        # 2 worker processes of one thread (Dask's nanny sets OMP_NUM_THREADS=1, and
        # Cubed's processes executor does the same), each allowed twice the task
        # bound, and at least the 500 MB that measure_reserved_mem's own plan
        # asks for (Cubed's Dask executor refuses workers with less)
        limit = max(2 * cubed.Spec(allowed_mem=cfg["allowed_mem"]).allowed_mem, 500_000_000)
        cluster = LocalCluster(
            n_workers=WORKERS,
            threads_per_worker=1,
            processes=True,
            memory_limit=limit,
            dashboard_address=None,
        )
    try:
        executor = _executor(cfg["executor"], cluster)
        reserved = cubed.measure_reserved_mem(executor, work_dir=cfg["tmp"])
        reserved = int(reserved * 1.1 // 10_000_000 + 1) * 10_000_000  # Cubed's own margin
        spec = cubed.Spec(
            work_dir=cfg["tmp"], allowed_mem=cfg["allowed_mem"], reserved_mem=reserved
        )
        x = cubed.from_zarr(cfg["input"], spec=spec)
        w = cxp.asarray(np.load(cfg["w"]), chunks=(cfg["chunks"][1], MATMUL_COLS), spec=spec)
        out = cfg["out"]

        def run(name, target=None):
            rec = _recorder()
            t0 = time.perf_counter()
            if target is None:
                value = arrays[name].compute(executor=executor, callbacks=[rec])
                np.save(os.path.join(out, name.replace(" ", "_") + ".npy"), np.asarray(value))
            else:
                cubed.to_zarr(
                    arrays[name], os.path.join(out, target), executor=executor, callbacks=[rec]
                )
            seconds = time.perf_counter() - t0
            return _step_record(name, seconds, rec, spec)

        arrays = {
            "mean": cxp.mean(x),
            "std": cxp.std(x),
            "sum axis 0": cxp.sum(x, axis=0),
            "sum axis 1": cxp.sum(x, axis=1),
            "expression to Zarr": cxp.sin(x) * 2.0 + x * x - 1.0,
            "matmul": x @ w,
            "standardise to Zarr": (x - cxp.mean(x, axis=0, keepdims=True))
            / cxp.std(x, axis=0, keepdims=True),
        }
        steps = []
        for name, _ in STEPS:
            target = (
                "expression.zarr"
                if name == "expression to Zarr"
                else "standardised.zarr"
                if name == "standardise to Zarr"
                else None
            )
            steps.append(run(name, target))
        return {
            "executor": cfg["executor"],
            "backend": cfg["backend"],
            "reserved_mem": reserved,
            "allowed_mem": spec.allowed_mem,
            "steps": steps,
        }
    finally:
        if cluster is not None:
            cluster.close()


def _step_record(name, seconds, rec, spec):
    """The step's time, task count and memory: the workers' peak (their
    resident set's high-water mark, as Cubed measures it) and every task
    against two bounds: its peak within allowed_mem (the bound Cubed plans
    every task to), and the rise of the peak during the task within its
    op's projected memory (Cubed's own test of its memory model,
    cubed/tests/test_mem_utilization.py).  The first is the benchmark's
    level; the second tests Cubed's projection, for either backend."""
    tasks = [t for t in rec.tasks if t[3] is not None]
    over = [(n, end) for n, _, start, end in tasks if end > spec.allowed_mem]
    above = [
        (n, end - start, rec.projected[n])
        for n, _, start, end in tasks
        if n in rec.projected and end - start > rec.projected[n]
    ]
    return {
        "name": name,
        "seconds": seconds,
        "tasks": sum(t[1] for t in rec.tasks),
        "ops": len(rec.projected),
        "peak_worker_mb": max((t[3] for t in tasks), default=0) / 1e6,
        "max_rise_mb": max((t[3] - t[2] for t in tasks), default=0) / 1e6,
        "max_projected_mb": max(rec.projected.values(), default=0) / 1e6,
        "measured_tasks": len(tasks),
        "over_bound": over[:5],
        "n_over_bound": len(over),
        "above_projection": above[:5],
        "n_above_projection": len(above),
    }


# ---------------------------------------------------------------- the parent


def make_input(path, shape, chunks):
    """The input: uniform [0, 1) float64 from default_rng(15), written in
    blocks of chunk rows (the whole array is never in memory)."""
    import zarr

    z = zarr.create_array(store=path, shape=shape, chunks=chunks, dtype="float64", overwrite=True)
    rng = np.random.default_rng(15)
    for r0 in range(0, shape[0], chunks[0]):
        r1 = min(r0 + chunks[0], shape[0])
        z[r0:r1] = rng.random((r1 - r0, shape[1]))
    return z


def reference(path, w, rows_per_block):
    """numpy's results, streamed over row blocks of the input: mean, std
    (two passes), the sums along each axis, x @ w, the column means and
    stds for the standardised output."""
    import zarr

    z = zarr.open_array(path, mode="r")
    rows, cols = z.shape
    blocks = [(r0, min(r0 + rows_per_block, rows)) for r0 in range(0, rows, rows_per_block)]
    col_sum, row_sum, mat = np.zeros(cols), np.empty(rows), np.empty((rows, w.shape[1]))
    for r0, r1 in blocks:
        b = z[r0:r1]
        col_sum += b.sum(axis=0)
        row_sum[r0:r1] = b.sum(axis=1)
        mat[r0:r1] = b @ w
    n = rows * cols
    mean, col_mean = col_sum.sum() / n, col_sum / rows
    ssd, col_ssd = 0.0, np.zeros(cols)
    for r0, r1 in blocks:
        b = z[r0:r1]
        ssd += ((b - mean) ** 2).sum()
        col_ssd += ((b - col_mean) ** 2).sum(axis=0)
    return {
        "mean": mean,
        "std": np.sqrt(ssd / n),
        "sum axis 0": col_sum,
        "sum axis 1": row_sum,
        "matmul": mat,
        "col_mean": col_mean,
        "col_std": np.sqrt(col_ssd / rows),
        "blocks": blocks,
    }


def check(out, path, ref):
    """The run's results against numpy's: the in-memory ones in full, the
    Zarr outputs block by block.  Returns a list of failures (empty: all
    agree)."""
    import zarr

    bad = []
    for name in ("mean", "std", "sum axis 0", "sum axis 1", "matmul"):
        got = np.load(os.path.join(out, name.replace(" ", "_") + ".npy"))
        if not np.allclose(got, ref[name], rtol=1e-9, atol=0):
            bad.append(f"{name}: differs from numpy by up to {np.max(np.abs(got - ref[name])):.3g}")
    z = zarr.open_array(path, mode="r")
    e = zarr.open_array(os.path.join(out, "expression.zarr"), mode="r")
    s = zarr.open_array(os.path.join(out, "standardised.zarr"), mode="r")
    for r0, r1 in ref["blocks"]:
        b = z[r0:r1]
        if not np.allclose(e[r0:r1], np.sin(b) * 2.0 + b * b - 1.0, rtol=1e-13, atol=1e-13):
            bad.append(f"expression to Zarr: rows {r0}:{r1} differ from numpy")
            break
        if not np.allclose(s[r0:r1], (b - ref["col_mean"]) / ref["col_std"], rtol=1e-9, atol=1e-9):
            bad.append(f"standardise to Zarr: rows {r0}:{r1} differ from numpy")
            break
    return bad


def run_child(executor, backend, cfg):
    env = dict(os.environ)
    env.pop("CUBED_BACKEND_ARRAY_API_MODULE", None)
    if BACKENDS[backend]:
        env["CUBED_BACKEND_ARRAY_API_MODULE"] = BACKENDS[backend]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    # after PYTHONPATH's entries: a strided given there stays the one imported
    env["PYTHONPATH"] = os.pathsep.join(
        [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p] + [root]
    )
    cfg = dict(cfg, executor=executor, backend=backend, backend_module=BACKENDS[backend])
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks.scale", "--child", json.dumps(cfg)],
        env=env,
        cwd=root,
        capture_output=True,
        text=True,
    )
    total = time.perf_counter() - t0
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode or not lines:
        raise RuntimeError(f"the {executor}/{backend} run failed:\n{proc.stderr[-4000:]}")
    record = json.loads(lines[-1])
    record["process_seconds"] = total
    return record


def table(runs, markdown):
    """One row per step: for each executor, numpy's and strided's seconds,
    their ratio, and the workers' peak memory."""
    executors = sorted({r["executor"] for r in runs}, key=EXECUTORS.index)
    best = {}
    for r in runs:
        key = (r["executor"], r["backend"])
        if key not in best or r["total"] < best[key]["total"]:
            best[key] = r
    head = ["step"]
    for e in executors:
        head += [f"{e}: numpy s", "strided s", "strided/numpy", "peak MB numpy", "strided"]
    rows = []
    names = [n for n, _ in STEPS] + ["total"]
    for i, name in enumerate(names):
        row = [name]
        for e in executors:
            cells = []
            for b in ("numpy", "strided"):
                r = best.get((e, b))
                if r is None:
                    cells.append(None)
                elif name == "total":
                    cells.append((r["total"], max(s["peak_worker_mb"] for s in r["steps"])))
                else:
                    s = r["steps"][i]
                    cells.append((s["seconds"], s["peak_worker_mb"]))
            n, o = cells
            row += [
                f"{n[0]:.1f}" if n else "n/a",
                f"{o[0]:.1f}" if o else "n/a",
                f"{o[0] / n[0]:.2f}" if n and o else "n/a",
                f"{n[1]:.0f}" if n else "n/a",
                f"{o[1]:.0f}" if o else "n/a",
            ]
        rows.append(row)
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
    else:
        widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
        fmt = "  ".join(f"{{:<{w}}}" if j == 0 else f"{{:>{w}}}" for j, w in enumerate(widths))
        lines = [fmt.format(*head)] + [fmt.format(*r) for r in rows]
    return lines


def main(argv=None):
    args = parse(argv)
    if args.child:
        print(json.dumps(child(json.loads(args.child))), flush=True)
        return 0
    executors = [e for e in args.executors.split(",") if e]
    backends = [b for b in args.backends.split(",") if b]
    for e in executors:
        if e not in EXECUTORS:
            raise SystemExit(f"unknown executor {e!r}; expected {EXECUTORS}")
    for b in backends:
        if b not in BACKENDS:
            raise SystemExit(f"unknown backend {b!r}; expected {tuple(BACKENDS)}")
    work = args.work_dir or tempfile.mkdtemp(prefix="strided-scale-")
    os.makedirs(work, exist_ok=True)
    try:
        rows, cols = args.shape
        t0 = time.perf_counter()
        path = os.path.join(work, "input.zarr")
        make_input(path, args.shape, args.chunks)
        w = np.random.default_rng(16).random((cols, MATMUL_COLS))
        np.save(os.path.join(work, "w.npy"), w)
        print(
            f"input: {rows}x{cols} float64 ({rows * cols * 8 / 1e9:.2f} GB) in Zarr, chunks "
            f"{args.chunks[0]}x{args.chunks[1]}, written in {time.perf_counter() - t0:.1f} s; "
            f"allowed_mem {args.allowed_mem}; {WORKERS} worker processes",
            flush=True,
        )
        ref = reference(path, w, args.chunks[0])
        runs, failures = [], []
        for rep in range(args.repeats):
            for e in executors:
                for b in backends:
                    out = os.path.join(work, f"out-{e}-{b}-{rep}")
                    tmp = os.path.join(work, f"tmp-{e}-{b}-{rep}")
                    os.makedirs(out), os.makedirs(tmp)
                    cfg = {
                        "input": path,
                        "w": os.path.join(work, "w.npy"),
                        "out": out,
                        "tmp": tmp,
                        "chunks": list(args.chunks),
                        "allowed_mem": args.allowed_mem,
                    }
                    r = run_child(e, b, cfg)
                    r["total"] = sum(s["seconds"] for s in r["steps"])
                    r["wrong"] = check(out, path, ref)
                    r["over_bound"] = sum(s["n_over_bound"] for s in r["steps"])
                    r["above_projection"] = [
                        (s["name"], a) for s in r["steps"] for a in s["above_projection"]
                    ]
                    print(
                        f"  {e}/{b}: {r['total']:.1f} s, peak worker "
                        f"{max(s['peak_worker_mb'] for s in r['steps']):.0f} MB, "
                        f"{'results agree with numpy' if not r['wrong'] else r['wrong']}, "
                        f"{r['over_bound']} tasks over allowed_mem",
                        flush=True,
                    )
                    for step, (op, rise, projected) in r["above_projection"]:
                        print(
                            f"    {step}: a task of {op} rose {rise / 1e6:.0f} MB, above "
                            f"Cubed's projection of {projected / 1e6:.0f} MB",
                            flush=True,
                        )
                    failures += [f"{e}/{b}: {w}" for w in r["wrong"]]
                    if r["over_bound"]:
                        failures.append(f"{e}/{b}: {r['over_bound']} tasks over allowed_mem")
                    runs.append(r)
                    shutil.rmtree(out), shutil.rmtree(tmp)
        print()
        for line in table(runs, args.markdown):
            print(line)
        print()
        print(
            "seconds: the wall time of each step's compute (planning, worker start, tasks); "
            "peak MB: the largest resident set a worker reached in the step "
            "(Cubed's peak_measured_mem); strided/numpy < 1: strided faster."
        )
        if args.json:
            with open(args.json, "w") as f:
                json.dump(
                    {
                        "shape": args.shape,
                        "chunks": args.chunks,
                        "allowed_mem": args.allowed_mem,
                        "runs": runs,
                    },
                    f,
                    indent=1,
                )
        for f in failures:
            print("FAILED:", f)
        return 1 if failures else 0
    finally:
        if not args.work_dir:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
