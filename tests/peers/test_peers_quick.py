"""The peers' own array-API tests on strided.compat (the CI selection of
tests/peers/run_peers.py --quick): every test that array-api-strict passes
in a peer's suite passes with strided.compat in its place."""
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

RUNNER = Path(__file__).with_name("run_peers.py")
PEERS = {"scikit-learn": "sklearn", "scipy": "scipy", "xarray": "xarray",
         "array-api-extra": "array_api_extra", "einops": "einops"}


@pytest.mark.parametrize("peer", sorted(PEERS))
def test_peer_passes_what_strict_passes(peer):
    for module in (PEERS[peer], "array_api_strict"):
        if importlib.util.find_spec(module) is None:
            pytest.fail(f"{module} is not installed (pip install -e '.[test]')")
    done = subprocess.run([sys.executable, str(RUNNER), "--quick", peer],
                          capture_output=True, text=True, env=dict(os.environ))
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "strict passes and we do not: 0" in done.stdout, done.stdout
