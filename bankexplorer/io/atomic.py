"""All-or-nothing writes: a temporary file beside the target, then a rename.

A crash, a full disk or a cancelled export never leaves a half-written pattern, trace or figure
where the user's file was. :func:`check_writable` is every command's check before any work: the
output can be written, and it is not one of the files the run reads (``cuda in.json --out in.json``
would otherwise replace the pattern with the program written from it; ``import-cuda k.cu
--sass-json tile.h`` a header the kernel includes).

Only a regular file is replaced by a rename: a FIFO or a character device (``/dev/null``, a
terminal) is written into, as a shell's ``>`` would, any other special file is refused, and a
symbolic link keeps pointing where it did (the file it names is replaced). Run as
root, a rename over ``/dev/null`` would leave the system with a regular file there."""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterable, Iterator

from ..model.errors import BankExplorerError, OutputError


def check_writable(path: str | os.PathLike, inputs: Iterable[str | os.PathLike | None] = (),
                   error: type[BankExplorerError] = OutputError) -> None:
    """Fail with ``error`` when ``path`` cannot be written (no such folder, a folder, no
    permission) or is one of ``inputs``: the same file, also through a symbolic or hard link."""
    p = Path(path)
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        raise error(f"{path}: folder {str(folder)!r} does not exist")
    if p.is_dir():
        raise error(f"{path}: is a folder, not a file name")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise error(f"{path}: cannot write in folder {str(folder)!r} (permission denied)")
    for inp in inputs:
        if inp is not None and str(inp) != "-" and same_file(p, inp):
            link = "" if os.path.abspath(p) == os.path.abspath(inp) else ", through a link"
            raise error(f"{path}: is the input file {str(inp)!r}{link}: writing it would lose the input; choose "
                        f"another name")
    if p.exists() and not os.access(p, os.W_OK):
        raise error(f"{path}: the file exists and is not writable")
    why = special_file(p)
    if why:
        raise error(f"{path}: {why}")


def special_file(path: str | os.PathLike) -> str | None:
    """Why ``path`` cannot be written (a socket, a block device, a folder), or None: a regular
    file, a FIFO, a character device or a name that does not exist yet."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode) or stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return None
    kind = ("a block device" if stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "a folder" if stat.S_ISDIR(mode) else "a special file")
    return f"is {kind}, not a file to write: choose a file name"


#: seconds a FIFO's reader may take to open it before the write is refused
READER_SECONDS = 1.0


def _open_stream(path: Path, text: bool) -> IO:
    """A FIFO or character device opened to write into. A FIFO nothing reads within
    :data:`READER_SECONDS` is refused (a blocking open would wait for a reader forever)."""
    import time

    end = time.monotonic() + READER_SECONDS
    while True:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            break
        except OSError as e:
            if e.errno != errno.ENXIO:
                raise
            if time.monotonic() > end:
                raise OSError(errno.ENXIO, "is a FIFO (named pipe) that nothing reads: start its reader first",
                              str(path)) from None
            time.sleep(0.02)
    os.set_blocking(fd, True)
    return os.fdopen(fd, "w", encoding="utf-8") if text else os.fdopen(fd, "wb")


def _stream_target(path: Path) -> bool:
    """Whether ``path`` is a FIFO or a character device: written into, never replaced."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)


def same_file(a: str | os.PathLike, b: str | os.PathLike) -> bool:
    """Whether two names are one file (links followed; False when either does not exist)."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def _mode_for(path: Path) -> int:
    """mkstemp makes the file owner-only; a saved file is for sharing: keep the file's current
    mode, or give a new one what the user's umask allows."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


@contextmanager
def atomic_open(path: str | os.PathLike, text: bool = False) -> Iterator[IO]:
    """A file to write in pieces (binary, or UTF-8 text); it replaces ``path`` only when the
    ``with`` block ends without an exception. A FIFO or a character device at ``path`` is
    written into directly (it holds no file to keep whole); any other special file is refused."""
    path = Path(path)
    if _stream_target(path):
        with _open_stream(path, text) as f:
            yield f
        return
    why = special_file(path)
    if why:
        raise OSError(errno.EINVAL, why, str(path))
    if path.is_symlink():  # the file the link names is written (as a shell's > does); the link stays
        path = Path(os.path.realpath(path))
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except FileNotFoundError:  # the message would name the temporary file, not what is missing
        raise FileNotFoundError(errno.ENOENT, f"folder {str(folder)!r} does not exist", str(path)) from None
    except PermissionError:
        raise PermissionError(errno.EACCES, f"cannot write in folder {str(folder)!r} (permission denied)",
                              str(path)) from None
    try:
        os.chmod(tmp, _mode_for(path))
        with (os.fdopen(fd, "w", encoding="utf-8") if text else os.fdopen(fd, "wb")) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def atomic_write(path: str | os.PathLike, data: bytes) -> None:
    """Write all of ``data`` or nothing."""
    with atomic_open(path) as f:
        f.write(data)
