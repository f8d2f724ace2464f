"""The harness under benchmarks/ is not an installed package: put the
repository root on sys.path so that plain `pytest` (CI) imports it as
`python -m pytest` from the root would, after what is there already (a
strided on PYTHONPATH, as .ci/cubed gives it, stays the one imported)."""

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.append(ROOT)
