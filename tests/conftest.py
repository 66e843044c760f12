"""Shared fixtures: every rules test runs on both backends; hypothesis profiles dev and ci;
Ctrl-C handled by Python even when the tests were started with SIGINT ignored."""

from __future__ import annotations

import os
import signal

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=60, deadline=None)
settings.register_profile(
    "ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


@pytest.fixture(params=["cython", "python"])
def backend(request: pytest.FixtureRequest) -> str:
    """Both implementations of the rules: the compiled core and the reference."""
    import nardy

    if request.param == "cython" and nardy.BACKEND != "cython":
        pytest.skip("the compiled core is disabled (NARDY_PURE_PYTHON=1)")
    return request.param


@pytest.fixture(autouse=True, scope="session")
def ctrl_c_reaches_python():
    """A script's background job (`bash .ci/run &`, `nohup ... &`) starts with SIGINT ignored, and
    then Python installs no handler: a SIGINT the Ctrl-C tests send would reach neither this
    process nor the programs it starts (which inherit the ignoring). Python's own handler is
    installed for the session in that case (a program started meanwhile gets the default)."""
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        yield
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
