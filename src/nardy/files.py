"""Writing files whole or not at all: a temporary file beside the target, renamed over it."""

from __future__ import annotations

import os
import tempfile


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write `text` (UTF-8) to `path` through a temporary file in the same folder, renamed into
    place once complete: a failure (a full disk, an interrupt) leaves `path` as it was and no
    temporary file behind."""
    target = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(target))
    fd, temporary = tempfile.mkstemp(dir=folder, prefix=".nardy-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        raise
