"""Fuzz profiles and the hard time limit of every fuzz test.

Profiles (chosen with NARDY_FUZZ_PROFILE; the rest of the suite keeps HYPOTHESIS_PROFILE):
- ``fuzz-ci`` (the default): a few hundred inputs per entry point, derandomized, ~1 minute in all;
- ``fuzz-night``: 100,000 inputs per entry point, a new random draw each run (hours; see docs/reliability.md).
"""

from __future__ import annotations

import faulthandler
import os
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, settings

_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
settings.register_profile("fuzz-ci", max_examples=150, deadline=timedelta(seconds=5), derandomize=True,
                          suppress_health_check=_SLOW_OK, database=None, print_blob=True)
settings.register_profile("fuzz-night", max_examples=100_000, deadline=timedelta(seconds=5),
                          suppress_health_check=_SLOW_OK, print_blob=True)
PROFILE = os.environ.get("NARDY_FUZZ_PROFILE", "fuzz-ci")
if PROFILE not in ("fuzz-ci", "fuzz-night"):
    raise pytest.UsageError(f"NARDY_FUZZ_PROFILE={PROFILE!r}: choose fuzz-ci or fuzz-night")

# the hard limit of one whole fuzz test: it holds even inside the compiled core, where no Python
# signal handler runs (the watchdog thread dumps every thread's traceback and ends the process)
HARD_LIMIT_SECONDS = 600 if PROFILE == "fuzz-ci" else 6 * 3600


@pytest.fixture(autouse=True)
def hard_time_limit():
    faulthandler.dump_traceback_later(HARD_LIMIT_SECONDS, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()
