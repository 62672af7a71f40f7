"""Reading the files people give the commands: bounded, and a binary file refused at once.

Pattern files and traces are JSON text, which never holds a NUL byte; a file that does (a disk
image, ``/dev/zero``, a trace whose end was zeroed by a crash) is refused at the block where the
first one shows, instead of being read whole and then failing to parse. Files are read in blocks,
so memory follows what was read, not what the file claims; a trace is read line by line with a
bound on the length of one line.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import IO

from ..model.errors import FileFormatError

BLOCK = 1 << 24  # bytes read at a time
#: the longest line a trace may have: an instruction is a few hundred bytes, a header a few more
MAX_LINE_BYTES = 1 << 20


def _nul(source: str, where: int, line: int) -> FileFormatError:
    return FileFormatError([(f"line {line}", f"a NUL byte (byte {where:,}): not JSON text (is it a binary "
                                             f"file?)")], source)


def open_input(path: str | os.PathLike, kind: str) -> IO[bytes]:
    """``path`` opened for reading, every failure a :class:`FileFormatError` naming it."""
    try:
        return open(path, "rb")
    except FileNotFoundError:
        raise FileFormatError([("", "no such file")], str(path))
    except IsADirectoryError:
        raise FileFormatError([("", f"is a directory, not a {kind}")], str(path))
    except PermissionError:
        raise FileFormatError([("", "permission denied")], str(path))
    except OSError as e:
        raise FileFormatError([("", e.strerror or str(e))], str(path))


def read_bytes(path: str | os.PathLike, max_bytes: int | None, kind: str = "pattern file") -> bytearray:
    """All of a file's bytes, read block by block: refused at the first block with a NUL byte,
    or once past ``max_bytes`` (None: no bound but memory)."""
    name = Path(path).name
    with open_input(path, kind) as f:
        try:
            size = os.fstat(f.fileno())
            if stat.S_ISREG(size.st_mode) and max_bytes is not None and size.st_size > max_bytes:
                raise FileFormatError([("", f"file is {size.st_size:,} bytes; {kind}s are at most {max_bytes:,}")],
                                      name)
            buf = bytearray()
            while True:
                block = f.read(BLOCK if buf else 1 << 16)  # a small first read: a binary file ends at once
                if not block:
                    return buf
                at = block.find(b"\0")
                if at >= 0:
                    raise _nul(name, len(buf) + at, buf.count(b"\n") + block.count(b"\n", 0, at) + 1)
                buf += block
                if max_bytes is not None and len(buf) > max_bytes:
                    raise FileFormatError([("", f"file is more than {max_bytes:,} bytes; {kind}s are at most "
                                                f"{max_bytes:,}")], name)
        except OSError as e:
            raise FileFormatError([("", e.strerror or str(e))], str(path))


class LineReader:
    """The lines of a text file (without their newline), read in blocks; a NUL byte or a line
    longer than :data:`MAX_LINE_BYTES` is an error naming its line as soon as its block is read."""

    def __init__(self, f: IO[bytes], source: str, max_line: int = MAX_LINE_BYTES) -> None:
        self.f = f
        self.source = source
        self.max_line = max_line
        self._pending: list[bytes] = []
        self._rest = b""
        self._eof = False
        self._lines = 0  # lines handed out
        self._read = 0  # bytes read

    def fill(self) -> None:
        """Read one more block (the caller may read ahead to fail before writing anything)."""
        if self._eof:
            return
        data = self.f.read(1 << 22)
        first = self._lines + len(self._pending) + 1  # the line self._rest begins
        if not data:
            self._eof = True
            if self._rest:
                self._pending.append(self._rest)
                self._rest = b""
            return
        self._read += len(data)
        at = data.find(b"\0")
        if at >= 0:
            raise _nul(self.source, self._read - len(data) + at, first + self._rest.count(b"\n")
                       + data.count(b"\n", 0, at))
        parts = (self._rest + data).split(b"\n")
        self._rest = parts.pop()
        if parts and max(map(len, parts)) > self.max_line:
            self._too_long(first + next(i for i, p in enumerate(parts) if len(p) > self.max_line))
        if len(self._rest) > self.max_line:
            self._too_long(first + len(parts))
        self._pending.extend(parts)

    def _too_long(self, line: int) -> None:
        raise FileFormatError([(f"line {line}", f"longer than {self.max_line:,} bytes: not a trace line (is it a "
                                                f"binary file?)")], self.source)

    def take(self, n: int) -> list[bytes]:
        """Up to ``n`` next lines (fewer only at the end of the file)."""
        while len(self._pending) < n and not self._eof:
            self.fill()
        out = self._pending[:n]
        del self._pending[:n]
        self._lines += len(out)
        return out
