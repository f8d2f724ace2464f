"""Smoke test of an installed strided wheel (.ci/wheel runs it in a fresh
venv with only the wheel and its declared dependencies): the package comes
from site-packages, not a source tree; both faces, the BLAS/LAPACK and
FFT extensions, Torch7 serialization and the tour run."""

import importlib.metadata
import io
import os
import subprocess
import sys
import sysconfig

import strided
import strided.compat as xp
import strided.interop as interop

site = sysconfig.get_paths()["purelib"]
assert strided.__file__.startswith(site), f"strided imported from {strided.__file__}, not {site}"
# one version: the wheel's metadata (pyproject's dynamic version) is the package's
assert strided.__version__ == importlib.metadata.version("strided"), strided.__version__
print(f"strided {strided.__version__} on Python {sys.version.split()[0]}")
here = os.path.dirname(strided.__file__)
for marker in ("py.typed", os.path.join("compat", "py.typed")):
    assert os.path.exists(os.path.join(here, marker)), f"{marker} not installed"

# the Torch7 face: 1-based views, maths, random, serialization
torch = strided
x = torch.range(1, 6).view(2, 3)
assert x.narrow(2, 2, 2).sum() == 2 + 3 + 5 + 6
assert x.sum(2).totable() == [[6.0], [15.0]]
torch.manualSeed(1)
assert torch.randn(1000).std() > 0.5
f = io.BytesIO()
torch.save(f, x)
f.seek(0)
assert torch.load(f).totable() == x.totable()

# the array API face, with the linalg (OpenBLAS of scipy-openblas32) and fft extensions
a = xp.asarray([[2.0, 1.0], [1.0, 3.0]])
assert xp.all(xp.abs(xp.linalg.inv(a) @ a - xp.eye(2)) < 1e-12)
assert (
    float(xp.max(xp.abs(xp.fft.irfft(xp.fft.rfft(xp.arange(8.0)), n=8) - xp.arange(8.0)))) < 1e-12
)
assert xp.all(xp.sort(xp.asarray([3, 1, 2])) == xp.asarray([1, 2, 3]))

# the two faces share memory
t = interop.to_tensor(xp.ones((2, 2)))
t.fill(7)

# the tour, from the installed package
out = subprocess.run([sys.executable, "-m", "strided"], capture_output=True, text=True, timeout=300)
assert out.returncode == 0, out.stderr
print(out.stdout[-1500:])
print(f"smoke test passed: strided from {here}, {strided.getnumthreads()} threads")
