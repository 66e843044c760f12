"""What every fuzz test asserts about one input: it is answered, or refused with a `NardyError`;
never another exception, never a hang (a per-input time limit by SIGALRM), within the profile's
deadline. `fuzz` is the settings decorator of the chosen profile (see conftest)."""

from __future__ import annotations

import contextlib
import os
import signal
import string
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from hypothesis import settings
from hypothesis import strategies as st

from nardy import NardyError

# the profile conftest registered: NARDY_FUZZ_PROFILE, fuzz-ci by default
fuzz = settings(settings.get_profile(os.environ.get("NARDY_FUZZ_PROFILE", "fuzz-ci")))
PER_INPUT_SECONDS = 20  # far above any legitimate call; the hypothesis deadline is the tighter limit

T = TypeVar("T")


class Hang(AssertionError):
    """One input took longer than PER_INPUT_SECONDS."""


@contextlib.contextmanager
def time_limit(seconds: float = PER_INPUT_SECONDS) -> Iterator[None]:
    """Raise `Hang` in the main thread if the block runs longer than `seconds` (Python code only:
    a loop inside the compiled core is caught by the hard limit of conftest instead)."""
    def on_alarm(signum: int, frame: Any) -> None:
        raise Hang(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def answered_or_refused(call: Callable[..., T], *args: Any, **kwargs: Any) -> T | NardyError:
    """`call(*args, **kwargs)` within the time limit: its answer, or the `NardyError` it raised.
    Any other exception propagates and fails the test, with the input hypothesis shrank to."""
    with time_limit():
        try:
            return call(*args, **kwargs)
        except NardyError as exc:
            str(exc)  # the message itself must be writable (no int too long to print)
            return exc


# inputs ------------------------------------------------------------------------------------------

def mutated(seeds: list[str], alphabet: str) -> st.SearchStrategy[str]:
    """Valid texts with a few characters replaced, inserted, deleted or repeated: close enough to
    the format to get past the first checks."""
    @st.composite
    def build(draw: st.DrawFn) -> str:
        text = draw(st.sampled_from(seeds))
        for _ in range(draw(st.integers(0, 4))):
            i = draw(st.integers(0, len(text)))
            kind = draw(st.sampled_from(["replace", "insert", "delete", "repeat"]))
            char = draw(st.sampled_from(alphabet))
            if kind == "replace" and i < len(text):
                text = text[:i] + char + text[i + 1:]
            elif kind == "insert":
                text = text[:i] + char + text[i:]
            elif kind == "delete":
                text = text[:i] + text[i + 1:]
            else:
                text = text[:i] + char * draw(st.sampled_from([2, 30, 5000])) + text[i:]
        return text

    return build()


# characters that notation is made of, and some that only look like it
NOTATION = string.ascii_letters + string.digits + "/*()-:=,; \t+" + "²³¹٢０¼\u00a0\u2028é"


def texts(seeds: list[str]) -> st.SearchStrategy[str]:
    """Mutated valid texts, texts from the notation's alphabet, and any text at all."""
    return st.one_of(mutated(seeds, NOTATION), st.text(NOTATION, max_size=60), st.text(max_size=30))


class Huge(int):
    """An int too long for Python to write (more than 4,300 digits), with a repr hypothesis can
    print when it reports an input; str() and format() still refuse, as for any such int."""

    def __repr__(self) -> str:
        return f"Huge(<an integer of {self.bit_length()} bits>)"


def huge_ints() -> st.SearchStrategy[int]:
    return st.one_of(st.integers(-20, 30), st.integers(), st.sampled_from([2**63, -2**63 - 1, 2**64]),
                     st.just(5000).map(lambda digits: Huge(10**digits)))


def anything() -> st.SearchStrategy[Any]:
    """A value of the wrong type, or of the right type with the wrong value."""
    return st.one_of(st.none(), st.booleans(), huge_ints(), st.floats(allow_nan=True), st.text(max_size=10),
                     st.binary(max_size=30), st.lists(st.integers(-20, 20), max_size=30), st.just(object()),
                     st.sampled_from(["long", "short", "white", "black", 0, 1]))
