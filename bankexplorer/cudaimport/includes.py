"""Which files a pasted kernel may make the importer read, and reading them safely.

A kernel comes from anywhere (a web page, a chat, a colleague's repository) and its ``#include``
lines name files on this machine. Both readers of the text follow the same rules: the
preprocessor of the as-written import (:mod:`.preprocess`) and the compiled view, which hands
NVRTC the text and, in memory, every header of the user it includes
(:func:`.device_source.for_compiler`), so that NVRTC itself opens only the bundled CUDA headers.

* A name is looked up only in the source's own folder (when it came from a file; for
  ``"x.h"`` first the folder of the file that includes it), the ``-I`` folders and the CUDA
  headers of the nvidia wheels.
* An absolute name (``/etc/passwd``, ``C:\\x.h``) or one with a ``..`` part is refused by its
  name, before any file is looked at.
* A file found through a link must still lie inside one of those folders.
* Only regular files are read (not folders, devices, FIFOs or sockets), opened without blocking
  and at most :data:`MAX_HEADER_BYTES` each, :data:`MAX_HEADERS` files per import.
* Messages name the include as written and the rule; they never quote the text of a file.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass

from .syntax import MAX_SOURCE_BYTES

MAX_HEADER_BYTES = MAX_SOURCE_BYTES  # a header is at most as large as a pasted kernel
MAX_HEADERS = 64  # files one import may read besides the kernel itself

_WHERE = "only the kernel's own folder, the -I folders and the CUDA headers are searched"


class IncludeError(Exception):
    """An include the rules refuse, or one that cannot be read; ``line`` is the line of the
    ``#include`` in the text given (1 when unknown). The message never holds a file's text."""

    def __init__(self, message: str, line: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def refused_name(name: str) -> str | None:
    """Why the name written in an ``#include`` is refused whatever the folders hold, else None."""
    if not name.strip():
        return "an empty file name"
    if any(ord(c) < 32 or c == "\x7f" for c in name):
        return "a control character in the file name"
    if name.startswith(("/", "\\", "~")) or re.match(r"^[A-Za-z]:", name) or os.path.isabs(name):
        return f"an absolute path is not followed ({_WHERE})"
    if ".." in re.split(r"[/\\]+", name):
        return f"'..' is not followed ({_WHERE})"
    return None


def file_beside(folder: str | os.PathLike, name: str) -> str:
    """The file a kernel's ``// input: NAME = FILE.npy`` line names in the kernel's ``folder``,
    by the include rule: no absolute path, no '..', no link leading out of the folder, a regular
    file. ValueError says why not (the window and the measuring script both ask here)."""
    why = refused_name(name)
    if why:
        raise ValueError(f"{name!r}: {why.replace(_WHERE, 'only the kernel' + chr(39) + 's own folder is read')}")
    path = os.path.join(folder, name)
    if not _within(os.path.realpath(path), (os.path.realpath(folder),)):
        raise ValueError(f"{name!r}: a link to a file outside the kernel's folder: not read")
    if not os.path.isfile(path):
        raise ValueError(f"{name!r}: no such file in the kernel's folder")
    return path


def _within(real: str, roots: tuple[str, ...]) -> bool:
    for r in roots:
        try:
            if os.path.commonpath([real, r]) == r:
                return True
        except ValueError:  # other drive (Windows)
            continue
    return False


@dataclass(frozen=True)
class Found:
    """Where an include name led: the path to open, its real path, whether it is one of the
    bundled CUDA headers (which the importer does not read and NVRTC finds by itself), and the
    file's identity (device, inode): the file opened must be the one that was checked."""

    path: str
    real: str
    bundled: bool
    identity: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class IncludeRules:
    """The folders an include may be found in (see the module's docstring)."""

    folders: tuple[str, ...] = ()  # the kernel's own folder first, then the -I folders
    bundled: tuple[str, ...] = ()  # the CUDA headers of the nvidia wheels
    local: str | None = None  # the kernel's own folder, when it came from a file
    roots: tuple[str, ...] = ()  # the real paths of all those folders (a link must stay inside one)

    @classmethod
    def of(cls, path: str | None, include_dirs: list[str] | tuple[str, ...] = (),
           bundled: list[str] | tuple[str, ...] | None = None) -> "IncludeRules":
        """The rules for a kernel read from ``path`` (None: pasted or standard input) with the
        ``-I`` folders ``include_dirs``; ``bundled``: the CUDA header folders (default: NVRTC's)."""
        if bundled is None:
            from ..compiler.nvrtc import include_dirs as cuda_dirs

            bundled = cuda_dirs()
        local = os.path.dirname(os.path.abspath(path)) if path else None
        folders = tuple(dict.fromkeys(os.path.abspath(d) for d in ([local] if local else []) + list(include_dirs)))
        bundled = tuple(os.path.abspath(d) for d in bundled)
        roots = tuple(os.path.realpath(d) for d in folders + bundled)
        return cls(folders, bundled, local, roots)

    def find(self, name: str, system: bool, current: str | None = None) -> Found | None:
        """The file ``#include "name"`` (``system``: ``<name>``) names, searched from the folder of
        the including file ``current``; None when no folder has it. IncludeError when the name
        or the file it leads to is refused."""
        why = refused_name(name)
        if why:
            raise IncludeError(f"#include {_spell(name, system)}: {why}")
        order = ([] if system or current is None else [(current, False)])
        order += [(d, False) for d in self.folders] + [(d, True) for d in self.bundled]
        for folder, bundled in order:
            cand = os.path.join(folder, name)
            if not os.path.lexists(cand):
                continue
            real = os.path.realpath(cand)
            if not _within(real, self.roots):
                raise IncludeError(f"#include {_spell(name, system)}: a link to a file outside the folders an "
                                   f"include may come from ({_WHERE}): not read")
            try:
                st = os.stat(real)
            except OSError:  # a dangling link: as if the file were not there
                continue
            if stat.S_ISDIR(st.st_mode):
                raise IncludeError(f"#include {_spell(name, system)}: is a folder, not a file")
            if not stat.S_ISREG(st.st_mode):
                raise IncludeError(f"#include {_spell(name, system)}: not a regular file (a device, FIFO or "
                                   f"socket): not read")
            if not bundled and st.st_size > MAX_HEADER_BYTES:
                raise IncludeError(f"#include {_spell(name, system)}: the file is {st.st_size:,} bytes; headers "
                                   f"are read up to {MAX_HEADER_BYTES // 1024:,} KiB")
            return Found(cand, real, bundled, (st.st_dev, st.st_ino))
        return None


def _spell(name: str, system: bool) -> str:
    return f"<{name}>" if system else f'"{name}"'


def read_header(found: Found, name: str) -> str:
    """The text of a header the rules found: a regular file (checked again on the open file, which
    is opened without blocking), at most :data:`MAX_HEADER_BYTES`, UTF-8 without NUL bytes."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(found.path, flags)
    except OSError as e:
        raise IncludeError(f'#include "{name}": cannot be read ({e.strerror})') from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or (st.st_dev, st.st_ino) != found.identity:
            raise IncludeError(f'#include "{name}": not the regular file that was checked (it changed): not read')
        data = _read_at_most(fd, MAX_HEADER_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) > MAX_HEADER_BYTES:
        raise IncludeError(f'#include "{name}": larger than {MAX_HEADER_BYTES // 1024:,} KiB: not read')
    return decode(data, f'#include "{name}"')


def _read_at_most(fd: int, n: int) -> bytes:
    parts: list[bytes] = []
    while n > 0:
        b = os.read(fd, min(n, 1 << 20))
        if not b:
            break
        parts.append(b)
        n -= len(b)
    return b"".join(parts)


def decode(data: bytes, what: str) -> str:
    """UTF-8 text, or IncludeError saying where it is not (never what the bytes are)."""
    nul = data.find(b"\0")
    if nul >= 0:
        raise IncludeError(f"{what}: line {_line(data, nul)}: a NUL byte (is it a binary file?)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise IncludeError(f"{what}: line {_line(data, e.start)}: not UTF-8 text (is it a CUDA source file?)") from None


def _line(data: bytes, pos: int) -> int:
    return data.count(b"\n", 0, pos) + 1


def read_source(path: str, limit: int = MAX_SOURCE_BYTES) -> str:
    """The kernel a command or ``bx.from_cuda`` was given: any readable file (a pipe too), but
    never more than ``limit`` bytes read, so ``/dev/zero`` ends at once. IncludeError / OSError."""
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise IncludeError(f"{path}: larger than {limit // 1024:,} KiB: paste the part of the kernel that uses "
                           f"shared memory")
    return decode(data, path)
