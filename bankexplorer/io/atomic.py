"""All-or-nothing writes: a temporary file beside the target, then a rename.

A crash, a full disk or a cancelled export never leaves a half-written pattern, trace or figure
where the user's file was."""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator


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
    ``with`` block ends without an exception."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
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
