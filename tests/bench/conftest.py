"""The harness under benchmarks/ is not an installed package: put the
repository root on sys.path so that plain `pytest` (CI) imports it as
`python -m pytest` from the root would."""

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
