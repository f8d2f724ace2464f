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

pytest.importorskip("cubed", reason="needs cubed (Python >= 3.12, strided[distributed]); "
                                    ".ci/cubed runs this file")
pytest.importorskip("distributed", reason="needs dask[distributed] (strided[distributed])")

from benchmarks import scale  # noqa: E402

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
    cfg = {"input": path, "w": str(work / "w.npy"), "out": str(out), "tmp": str(tmp),
           "chunks": list(CHUNKS), "allowed_mem": ALLOWED_MEM}
    run = scale.run_child(executor, "strided", cfg)
    assert run["backend"] == "strided" and run["executor"] == executor
    assert scale.check(str(out), path, ref) == []
    assert [s["name"] for s in run["steps"]] == [name for name, _ in scale.STEPS]
    for s in run["steps"]:
        assert s["tasks"] > 0 and s["measured_tasks"] > 0, s
        assert s["n_over_bound"] == 0, s
        assert 0 < s["peak_worker_mb"] * 1e6 <= run["allowed_mem"], s
    # the outputs written to Zarr are complete (every chunk present)
    import zarr
    for name in ("expression.zarr", "standardised.zarr"):
        z = zarr.open_array(os.path.join(out, name), mode="r")
        assert z.shape == SHAPE and z.nchunks_initialized == z.nchunks
