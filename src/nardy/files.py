"""Writing files whole or not at all: a temporary file beside the target, renamed over it."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from typing import IO, Any

from .errors import InvalidArgumentError


def check_path(path: Any, what: str) -> None:
    """Refuse a path that is not a str or os.PathLike, naming it after `what` ("a net is read
    from"): open() takes an int as a file descriptor (a net saved to 2 went to stderr, a match
    loaded from 0 read stdin), and None or a float are a TypeError."""
    if not isinstance(path, (str, os.PathLike)):
        raise InvalidArgumentError(f"{what} a path (str or os.PathLike), got {path!r}")


def check_writable(path: str | os.PathLike[str]) -> None:
    """Refuse, before any work, a path that `write_whole` could not write: a directory, a folder
    that does not exist, or one where no file can be made (tried: a permission check alone
    passes for root, and on a read-only or special file system such as /proc)."""
    check_path(path, "a file is written to")
    target = os.fspath(path)
    if os.path.isdir(target):
        raise InvalidArgumentError(f"cannot write {target!r}: it is a directory")
    folder = os.path.dirname(os.path.abspath(target))
    if not os.path.isdir(folder):
        raise InvalidArgumentError(f"cannot write {target!r}: no directory {folder!r}")
    if not os.access(folder, os.W_OK | os.X_OK) or (os.path.exists(target) and not os.access(target, os.W_OK)):
        raise InvalidArgumentError(f"cannot write {target!r}: permission denied")
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".nardy-probe.")
    except OSError as exc:
        raise InvalidArgumentError(f"cannot write {target!r}: no file can be made in {folder!r} "
                                   f"({exc.strerror or exc})") from None
    os.close(fd)
    os.unlink(probe)


def write_whole(path: str | os.PathLike[str], write: Callable[[str], None]) -> None:
    """Call `write(temporary path)` for a temporary file in `path`'s folder, then rename it over
    `path`: a failure (a full disk, an interrupt) leaves `path` as it was and no temporary file
    behind. The file gets the permissions `open()` would have given it. A directory at `path` is
    an `InvalidArgumentError` (the rename would fail after the work, naming the temporary file)."""
    check_path(path, "a file is written to")
    target = os.fspath(path)
    if os.path.isdir(target):
        raise InvalidArgumentError(f"cannot write {target!r}: it is a directory")
    folder, name = os.path.split(os.path.abspath(target))
    stem, extension = os.path.splitext(name)
    fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{stem}.", suffix=extension)
    os.close(fd)
    try:
        write(temporary)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # as open() would have made it, not mkstemp's 0600
        os.replace(temporary, target)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def write_file(path: str | os.PathLike[str], write: Callable[[IO[Any]], object], binary: bool = False) -> None:
    """Call `write(file)` on the temporary file open for text (UTF-8) or, if `binary`, for bytes,
    synced to disk, then renamed over `path` (`write_whole`): whole or not at all."""
    def dump(temporary: str) -> None:
        with open(temporary, "wb") if binary else open(temporary, "w", encoding="utf-8") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())

    write_whole(path, dump)


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write `text` (UTF-8) to `path` whole or not at all (`write_file`), synced to disk."""
    write_file(path, lambda f: f.write(text))
