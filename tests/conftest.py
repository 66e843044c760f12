"""Shared fixtures: every rules test runs on both backends; hypothesis profiles dev and ci."""

from __future__ import annotations

import os

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
