"""Run the peers' array-API tests twice, on array-api-strict and on
strided.compat (through the strided_for_strict plugin), and compare.

    python tests/peers/run_peers.py [--quick] [peer ...]

Peers: scikit-learn, scipy (SCIPY_ARRAY_API=1), xarray and, from their
source distributions (their wheels ship no tests), array-api-extra and
einops.  `--quick` runs the CI selection (QUICK below) instead of the
whole of each peer's array-API tests.  For each peer it prints how many
tests pass on strict and on us, and every test strict passes that we do
not.  Exit status 1 when there is such a test.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
CACHE = Path(os.environ.get("STRIDED_PEERS_CACHE", Path(tempfile.gettempdir()) / "strided-peers"))

# peer -> (pytest arguments selecting its array-API tests, environment)
FULL = {
    "scikit-learn": (["--pyargs", "sklearn", "-k", "array_api_strict"], {"SCIPY_ARRAY_API": "1"}),
    "scipy": (["--pyargs", "scipy", "-k", "array_api_strict"], {"SCIPY_ARRAY_API": "1"}),
    "xarray": (
        [
            "--pyargs",
            "xarray.tests.test_array_api",
            "xarray.tests.test_namedarray",
            "xarray.tests.test_dtypes",
        ],
        {},
    ),
    "array-api-extra": (["{src}/tests/main", "-k", "array_api_strict and not strictest"], {}),
    "einops": (
        ["{src}/einops/tests/test_ops.py", "{src}/einops/tests/test_packing.py", "-k", "array_api"],
        {"EINOPS_TEST_BACKENDS": "numpy"},
    ),
}
# the CI selection: a few minutes in all
QUICK = {
    "scikit-learn": (
        [
            "--pyargs",
            "sklearn.utils.tests.test_array_api",
            "sklearn.metrics.tests.test_common",
            "-k",
            "array_api_strict",
        ],
        {"SCIPY_ARRAY_API": "1"},
    ),
    "scipy": (
        [
            "--pyargs",
            "scipy.special",
            "scipy.stats.tests.test_stats",
            "scipy.fft",
            "-k",
            "array_api_strict",
        ],
        {"SCIPY_ARRAY_API": "1"},
    ),
    "xarray": FULL["xarray"],
    "array-api-extra": FULL["array-api-extra"],
    "einops": FULL["einops"],
}
SDISTS = {"array-api-extra": "array_api_extra", "einops": "einops"}


def source_tree(peer):
    """The unpacked source distribution of the installed version of peer
    (downloaded once with pip into CACHE).  For einops, whose array-API
    tests import numpy as their namespace, a copy of the tests with that
    import pointed at the namespace under test (ARRAY_API_NAMESPACE)."""
    version = importlib.metadata.version(peer)
    name = f"{SDISTS[peer]}-{version}"
    root = CACHE / name
    if not root.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "-q",
                "--no-deps",
                f"--no-binary={peer}",
                "-d",
                str(CACHE),
                f"{peer}=={version}",
            ],
            check=True,
        )
        with tarfile.open(CACHE / f"{name}.tar.gz") as tar:
            tar.extractall(CACHE, filter="data")
    if peer == "einops":
        for test in (root / "einops" / "tests").glob("test_*.py"):
            text = test.read_text()
            patched = re.sub(
                r"^(\s*)import numpy as xp$",
                r"\1import importlib; xp = importlib.import_module("
                r"__import__('os').environ['ARRAY_API_NAMESPACE'])",
                text,
                flags=re.M,
            )
            if patched != text:
                test.write_text(patched)
    return root


def run(peer, selection, on_strided, workers):
    args, env = selection[peer]
    src = source_tree(peer) if peer in SDISTS else None
    args = [a.format(src=src) for a in args]
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.xml"
        cmd = [
            sys.executable,
            "-m",
            "pytest",
            *args,
            "-q",
            "-p",
            "no:cacheprovider",
            "--continue-on-collection-errors",
            "-o",
            "addopts=",
            f"--junitxml={report}",
            "-W",
            "ignore",
        ]
        if workers:
            cmd += ["-n", str(workers)]
        if on_strided:
            cmd += ["-p", "strided_for_strict"]
        environ = dict(
            os.environ,
            **env,
            ARRAY_API_NAMESPACE="strided.compat" if on_strided else "array_api_strict",
            PYTHONPATH=os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")])),
        )
        subprocess.run(cmd, env=environ, cwd=src or tmp, stdout=subprocess.DEVNULL)
        return outcomes(report)


def outcomes(report):
    """{test id: 'passed' | 'failed' | 'skipped' | 'xfailed'} from a JUnit
    XML report (an xpassed test is 'passed' there)."""
    result = {}
    if not report.exists():
        return result
    for case in ET.parse(report).getroot().iter("testcase"):
        key = f"{case.get('classname')}::{case.get('name')}"
        tags = {child.tag: child for child in case}
        result[key] = (
            "failed"
            if tags.keys() & {"failure", "error"}
            else "xfailed"
            if "skipped" in tags and tags["skipped"].get("type") == "pytest.xfail"
            else "skipped"
            if "skipped" in tags
            else "passed"
        )
    return result


# Tests whose expectation is array-api-strict's own dtype inventory, where
# strided.compat differs by design: each is listed, with its reason, and
# not counted against us (a test of ours checks the difference itself).
BY_DESIGN = {
    # scikit-learn's supported_float_dtypes(xp) adds xp.float16 when the
    # namespace has it; strided.compat has float16 (issue 26, an extension
    # dtype, as numpy has it), strict does not: the test expects strict's
    # (float64, float32), we give numpy's (float64, float32, float16)
    # (sklearn.utils.tests.test_array_api; --pyargs reports no class name)
    "test_supported_float_types[array_api_strict-None-expected_types1]": "strided.compat "
    "has float16",
}


def compare(peer, selection, workers):
    strict = run(peer, selection, False, workers)
    ours = run(peer, selection, True, workers)
    passed = {k for k, v in strict.items() if v == "passed"}
    ours_passed = {k for k, v in ours.items() if v == "passed"}
    # a test the peer itself marks as an expected failure (xfail, not
    # strict) is green in its CI whether it fails or passes: strict
    # xpassing one that fails here is listed, not counted against us
    expected = sorted(k for k in passed - ours_passed if ours.get(k) == "xfailed")
    designed = sorted(k for k in passed - ours_passed if k.split("::")[-1] in BY_DESIGN)
    missing = sorted(passed - ours_passed - set(expected) - set(designed))
    print(
        f"{peer}: array-api-strict passes {len(passed)} of {len(strict)}; "
        f"strided.compat passes {len(ours_passed)} of {len(ours)}; "
        f"strict passes and we do not: {len(missing)}; "
        f"strict xpasses what the peer marks xfail and it fails here: {len(expected)}",
        flush=True,
    )
    for key in missing:
        print(f"    {ours.get(key, 'not run')}: {key}")
    for key in expected:
        print(f"    xfailed (marked by the peer): {key}")
    for key in designed:
        print(f"    by design ({BY_DESIGN[key.split('::')[-1]]}): {key}")
    return missing


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("peers", nargs="*", default=list(FULL))
    parser.add_argument("--quick", action="store_true", help="the CI selection")
    parser.add_argument("-n", "--workers", type=int, default=0)
    opts = parser.parse_args()
    selection = QUICK if opts.quick else FULL
    failures = [compare(peer, selection, opts.workers) for peer in opts.peers]
    sys.exit(1 if any(failures) else 0)


if __name__ == "__main__":
    main()
