import os

import pytest
from hypothesis import HealthCheck, settings

import strided

# CI's profiles are derandomized: the same examples on every run, so that a
# red CI is a change's doing, never a draw's; the dev profile explores
# (a new seed each run) and what it finds becomes a fix and a test
settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
# .ci/cpu-levels runs the suite once per CPU level: few examples each
settings.register_profile(
    "short",
    max_examples=10,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


@pytest.fixture(params=[1, 2], ids=["1thread", "2threads"])
def threads(request):
    """Run the test with the core on 1, then 2 threads."""
    before = strided.getnumthreads()
    strided.setnumthreads(request.param)
    yield request.param
    strided.setnumthreads(before)
