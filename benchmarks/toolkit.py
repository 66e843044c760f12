"""What the performance tools share: one-line errors, git, the machine's name, the checkout's root."""

from __future__ import annotations

import functools
import os
import platform
import subprocess
import sys
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent


class ToolError(Exception):
    """Bad input or a failed step: printed as one line, exit status 2."""


def guarded(main: Callable[..., int]) -> Callable[..., int]:
    """Run `main`, turning a ToolError (or Ctrl-C) into one line on stderr and a non-zero exit
    (a closed pipe on stdout into a quiet one)."""

    @functools.wraps(main)
    def run(*args, **kwargs) -> int:
        module = main.__module__ if main.__module__ != "__main__" else Path(sys.argv[0]).stem
        prog = f"benchmarks.{module.rsplit('.', 1)[-1]}"
        try:
            return main(*args, **kwargs)
        except ToolError as error:
            print(f"{prog}: error: {error}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            print(f"{prog}: interrupted", file=sys.stderr)
            return 130
        except BrokenPipeError:  # the reader went away (`... | head -1`): stop quietly, as the nardy CLI does
            try:
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
            except (OSError, ValueError):
                pass
            return 141

    return run


def git(*args: str, cwd: Path = ROOT) -> str:
    """Output of one git command in the checkout, or a ToolError with git's own complaint."""
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    except FileNotFoundError:
        raise ToolError("git is not installed") from None
    if done.returncode:
        message = (done.stderr.strip().splitlines() or [f"git {' '.join(args)} failed"])[-1]
        raise ToolError(message)
    return done.stdout.strip()


def resolve(revision: str) -> str:
    """The full commit hash of a revision name, or a ToolError naming it."""
    try:
        return git("rev-parse", "--verify", "--quiet", "--end-of-options", f"{revision}^{{commit}}")
    except ToolError:
        raise ToolError(f"unknown revision {revision!r} (not a commit in {ROOT})") from None


def head() -> str:
    """The checkout's commit, with '+' when its working tree differs from it ('unknown' outside git)."""
    try:
        commit = git("rev-parse", "HEAD")
        dirty = git("status", "--porcelain", "--untracked-files=no")
    except ToolError:
        return "unknown"
    return commit + ("+" if dirty else "")


def machine() -> str:
    """A short description of this machine: host, CPU model, core count."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{platform.node()} ({cpu}, {os.cpu_count()} cores)"
