"""End to end (issue 15): Cubed with strided.compat as its chunk backend on
two multi-process executors started here, Cubed's processes executor and a
Dask distributed LocalCluster (2 worker processes each): the plan of the
scale benchmark (benchmarks/scale.py: mean, std, sums along each axis, an
expression written to Zarr, a matmul, a standardisation written to Zarr) on
a small float64 array in Zarr.  Every result is checked against numpy and
every task against its memory bound (the workers' peak within allowed_mem,
each task's rise within its op's projected memory).  The 2e8-element run
is the benchmark's (docs/scale.md).

Cubed needs Python >= 3.12: this runs where `strided[distributed]` is
installed (.ci/cubed); elsewhere it is skipped, saying so."""

import os

import numpy as np
import pytest

pytest.importorskip(
    "cubed", reason="needs cubed (Python >= 3.12, strided[distributed]); .ci/cubed runs this file"
)
pytest.importorskip("distributed", reason="needs dask[distributed] (strided[distributed])")

from benchmarks import scale

SHAPE, CHUNKS = (1200, 800), (200, 200)
ALLOWED_MEM = "400MB"


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    work = tmp_path_factory.mktemp("scale")
    path = str(work / "input.zarr")
    scale.make_input(path, SHAPE, CHUNKS)
    w = np.random.default_rng(16).random((SHAPE[1], scale.MATMUL_COLS))
    np.save(work / "w.npy", w)
    return work, path, scale.reference(path, w, CHUNKS[0])


@pytest.mark.parametrize("executor", scale.EXECUTORS)
def test_cubed_on_strided_agrees_with_numpy_within_memory_bounds(executor, data):
    work, path, ref = data
    out, tmp = work / f"out-{executor}", work / f"tmp-{executor}"
    out.mkdir(), tmp.mkdir()
    cfg = {
        "input": path,
        "w": str(work / "w.npy"),
        "out": str(out),
        "tmp": str(tmp),
        "chunks": list(CHUNKS),
        "allowed_mem": ALLOWED_MEM,
    }
    run = scale.run_child(executor, "strided", cfg)
    assert run["backend"] == "strided" and run["executor"] == executor
    assert scale.check(str(out), path, ref) == []
    assert [s["name"] for s in run["steps"]] == [name for name, _ in scale.STEPS]
    for s in run["steps"]:
        assert s["tasks"] > 0 and s["measured_tasks"] > 0, s
        assert s["n_over_bound"] == 0, s
        assert s["n_above_projection"] == 0, s
        assert 0 < s["peak_worker_mb"] * 1e6 <= run["allowed_mem"], s
    # the outputs written to Zarr are complete (every chunk present)
    import zarr

    for name in ("expression.zarr", "standardised.zarr"):
        z = zarr.open_array(os.path.join(out, name), mode="r")
        assert z.shape == SHAPE and z.nchunks_initialized == z.nchunks


def test_torch7_tensor_enters_cubed_through_a_view(tmp_path):
    """docs/scale.md: a Torch7 tensor becomes a strided.compat array without
    a copy, Cubed takes it as an in-memory input, slices it into chunks and
    pickles them to the processes executor's workers; the results agree
    with numpy."""
    import subprocess
    import sys
    import textwrap

    code = textwrap.dedent(f"""
        import numpy as np
        import strided as torch
        import strided.compat as xp
        import cubed, cubed.array_api as cxp
        from cubed.backend_array_api import namespace
        from cubed.runtime.create import create_executor
        assert namespace is xp, namespace
        torch.manualSeed(15)
        t = torch.randn(300, 200)
        a = xp.asarray(t)                                   # a view of t's memory
        assert np.from_dlpack(a).ctypes.data == torch.data(t, True)
        spec = cubed.Spec(work_dir={str(tmp_path)!r}, allowed_mem="200MB")
        x = cubed.from_array(a, chunks=(100, 50), spec=spec)
        ex = create_executor("processes", dict(max_workers=2))
        got = cxp.sum(x - cxp.mean(x, axis=0), axis=1).compute(executor=ex)
        n = np.asarray(a)
        np.testing.assert_allclose(np.asarray(got), (n - n.mean(axis=0)).sum(axis=1),
                                   rtol=1e-12, atol=1e-12)
        print("ok")
        """)
    env = dict(
        os.environ,
        CUBED_BACKEND_ARRAY_API_MODULE="strided.compat",
        PYTHONPATH=os.pathsep.join(
            [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
            + [scale.__file__.rsplit(os.sep, 2)[0]]
        ),
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), done.stderr[-3000:]
