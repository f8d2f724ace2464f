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
PEERS = {
    "scikit-learn": "sklearn",
    "scipy": "scipy",
    "xarray": "xarray",
    "array-api-extra": "array_api_extra",
    "einops": "einops",
}


@pytest.mark.parametrize("peer", sorted(PEERS))
def test_peer_passes_what_strict_passes(peer):
    for module in (PEERS[peer], "array_api_strict"):
        if importlib.util.find_spec(module) is None:
            pytest.fail(f"{module} is not installed (pip install -e '.[test]')")
    done = subprocess.run(
        [sys.executable, str(RUNNER), "--quick", peer],
        capture_output=True,
        text=True,
        env=dict(os.environ),
    )
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "strict passes and we do not: 0" in done.stdout, done.stdout


def test_outcomes_tell_an_expected_failure_from_a_failure(tmp_path):
    # JUnit XML writes an xfailed test as skipped of type pytest.xfail and an
    # xpassed one as passed: compare() must see the difference
    sys.path.insert(0, str(RUNNER.parent))
    try:
        from run_peers import outcomes
    finally:
        sys.path.remove(str(RUNNER.parent))
    report = tmp_path / "r.xml"
    report.write_text(
        '<testsuites><testsuite>'
        '<testcase classname="m" name="ok"/>'
        '<testcase classname="m" name="bad"><failure message="x"/></testcase>'
        '<testcase classname="m" name="err"><error message="x"/></testcase>'
        '<testcase classname="m" name="skip"><skipped type="pytest.skip" message="x"/></testcase>'
        '<testcase classname="m" name="xf"><skipped type="pytest.xfail" message="x"/></testcase>'
        '</testsuite></testsuites>'
    )
    assert outcomes(report) == {
        "m::ok": "passed",
        "m::bad": "failed",
        "m::err": "failed",
        "m::skip": "skipped",
        "m::xf": "xfailed",
    }
