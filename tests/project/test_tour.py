"""The tour (`python -m strided`, strided/__main__.py) runs to the end and
shows every part; with numpy, PyTorch and Cubed hidden (packages of those
names that fail to import, first on the path) each of their parts says how
to get the library instead of failing."""

import os
import subprocess
import sys

import pytest

PARTS = [
    "the C core at work",
    "Torch7, from the Tensor documentation",
    "The Torch7 library: maths, random numbers, files",
    "DLPack: zero-copy exchange with numpy and PyTorch",
    "The array API face under an array-API-generic function",
    "Cubed: the array API face scaled out",
]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def tour(tmp_path, hide=()):
    for name in hide:
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(
            f"raise ModuleNotFoundError('hidden by test_tour', name={name!r})\n"
        )
    path = os.pathsep.join([str(tmp_path), ROOT, os.environ.get("PYTHONPATH", "")])
    out = subprocess.run(
        [sys.executable, "-m", "strided"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": path},
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    for part in PARTS:
        assert part in out.stdout
    return out.stdout


def test_tour_runs_every_part(tmp_path):
    pytest.importorskip("numpy")
    out = tour(tmp_path)
    assert "[torch.LongTensor of dimension 8]" in out  # torch.sort's indices
    assert "equal to ours: True" in out  # the generic function
    assert "numpy is not installed" not in out


def test_optional_libraries_absent(tmp_path):
    out = tour(tmp_path, hide=("numpy", "torch", "cubed"))
    assert "(numpy: numpy is not installed, skipped; pip install numpy)" in out
    assert "(PyTorch: torch is not installed, skipped; pip install torch)" in out
    assert (
        "(Cubed: cubed is not installed, skipped; pip install 'strided[distributed]' (Python >= 3.12))"
        in out
    )
    assert "standardize(xp.asarray(data))" in out  # runs without numpy
