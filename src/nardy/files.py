"""Reading only regular files, and writing files whole or not at all: a temporary file beside
the target, renamed over it."""

from __future__ import annotations

import io
import os
import stat
import tempfile
from collections.abc import Callable
from typing import IO, Any, BinaryIO

from .errors import InvalidArgumentError, InvalidNotationError, NardyError


def check_path(path: Any, what: str) -> None:
    """Refuse a path that is not a str or os.PathLike, naming it after `what` ("a net is read
    from"): open() takes an int as a file descriptor (a net saved to 2 went to stderr, a match
    loaded from 0 read stdin), and None or a float are a TypeError; a path with a NUL character
    (which no file has) is refused too, where open() would raise a ValueError."""
    if not isinstance(path, (str, os.PathLike)):
        raise InvalidArgumentError(f"{what} a path (str or os.PathLike), got {path!r}")
    text = os.fspath(path)
    if ("\0" if isinstance(text, str) else b"\0") in text:
        raise InvalidArgumentError(f"{what} a path, and a path has no NUL character, got {text!r}")


def open_regular(path: str | os.PathLike[str], error: Callable[[str], NardyError] = InvalidArgumentError) -> BinaryIO:
    """`path` open for reading bytes if it is a regular file; a FIFO, a device or a directory is
    refused at once with `error` (it is opened without blocking: a FIFO would wait for a writer)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise error(f"{os.fspath(path)!r} is not a regular file")
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_text(path: str | os.PathLike[str], what: str, limit: int) -> str:
    """At most `limit` + 1 characters of the UTF-8 text of the regular file at `path` (a byte
    order mark at its start is allowed; `what` names the path, as in `check_path`). A path that
    cannot be opened (missing, not permitted) is an `InvalidArgumentError` naming it."""
    check_path(path, what)
    try:
        raw = open_regular(path)
    except OSError as exc:  # FileNotFoundError, PermissionError...: nardy's error, naming the path
        raise InvalidArgumentError(f"cannot read {os.fspath(path)!r}: {exc.strerror or exc}") from None
    with io.TextIOWrapper(raw, encoding="utf-8-sig") as f:
        try:
            return f.read(limit + 1)
        except UnicodeDecodeError as exc:
            raise InvalidNotationError(f"{os.fspath(path)} is not UTF-8 text: {exc.reason} at byte {exc.start}") from None


def _target(path: str | os.PathLike[str]) -> str:
    """`path` as a str, once it is a path (`check_path`) and not a directory."""
    check_path(path, "a file is written to")
    target = os.fspath(path)
    if os.path.isdir(target):
        raise InvalidArgumentError(f"cannot write {target!r}: it is a directory")
    return target


def check_writable(path: str | os.PathLike[str]) -> None:
    """Refuse, before any work, a path that `write_whole` could not write: a directory, a folder
    that does not exist, or one where no file can be made (tried: a permission check alone
    passes for root, and on a read-only or special file system such as /proc)."""
    target = _target(path)
    folder = os.path.dirname(os.path.abspath(target))
    if os.path.isdir(folder) and (not os.access(folder, os.W_OK | os.X_OK) or
                                  (os.path.exists(target) and not os.access(target, os.W_OK))):
        raise InvalidArgumentError(f"cannot write {target!r}: permission denied")
    fd, probe = _temporary(target, folder, ".nardy-probe.")
    os.close(fd)
    os.unlink(probe)


def _temporary(target: str, folder: str, prefix: str, suffix: str = "") -> tuple[int, str]:
    """A new temporary file in `folder` for writing `target` (open descriptor, path), or nardy's
    error naming `target` (not the temporary file) if the folder is missing or refuses it."""
    if not os.path.isdir(folder):
        raise InvalidArgumentError(f"cannot write {target!r}: no directory {folder!r}")
    try:
        return tempfile.mkstemp(dir=folder, prefix=prefix, suffix=suffix)
    except OSError as exc:
        raise InvalidArgumentError(f"cannot write {target!r}: no file can be made in {folder!r} "
                                   f"({exc.strerror or exc})") from None


def _umask() -> int:
    """The process's umask, read without setting it where the system tells it (Linux 4.7+):
    `os.umask` can only be read by setting it, and for that moment every other thread's new
    files would get the wrong permissions."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    umask = os.umask(0o077)  # (elsewhere: set to the strictest common value for the moment)
    os.umask(umask)
    return umask


def write_whole(path: str | os.PathLike[str], write: Callable[[str], None]) -> None:
    """Call `write(temporary path)` for a temporary file in `path`'s folder, then rename it over
    `path`: a failure (a full disk, an interrupt) leaves `path` as it was and no temporary file
    behind. The file gets the permissions `open()` would have given it. A directory at `path`, or a
    folder that is missing or refuses a new file, is an `InvalidArgumentError` naming `path` (not
    the temporary file)."""
    target = _target(path)
    folder, name = os.path.split(os.path.abspath(target))
    stem, extension = os.path.splitext(name)
    fd, temporary = _temporary(target, folder, f".{stem}.", extension)
    os.close(fd)
    try:
        write(temporary)
        os.chmod(temporary, 0o666 & ~_umask())  # as open() would have made it, not mkstemp's 0600
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


__all__ = [
    "check_path", "check_writable", "open_regular", "read_text", "write_file", "write_text", "write_whole",
]
