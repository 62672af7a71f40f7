"""The compile cache: nothing is compiled twice.

A compile's result (the cubin, or the compiler's messages) is kept under a key made of everything
that decides it: the source, its file name, the options, the template instantiations, the text of
every user header given to NVRTC, NVRTC's version and the installed header packages (CUDA, CCCL,
CUTLASS: a new release is another key), and our own compatibility headers' text. A re-run of an
unchanged kernel (the window re-runs on every edit that compiles; a script calls ``import-cuda``
again) then costs a file read instead of seconds (CuTe: tens of seconds). The disassembly of a
cubin is kept the same way, by the cubin's hash.

Entries live in memory for the process and on disk in the user's cache folder
(``$XDG_CACHE_HOME/bankexplorer/compile``, ``~/.cache/...``; ``BANKEXPLORER_CACHE`` names another,
``BANKEXPLORER_CACHE=off`` turns the cache off, in memory too: every compile runs), at most
:data:`MAX_DISK_BYTES`, oldest entries dropped first. A compile stopped by its time or memory budget is not kept (another try may finish).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
from collections import OrderedDict

MAX_DISK_BYTES = 512 << 20
MAX_MEMORY_ENTRIES = 64

_MEMORY: OrderedDict[str, bytes] = OrderedDict()
_LOCK = threading.Lock()


def folder() -> str | None:
    """The disk cache's folder (None: the disk cache is off)."""
    env = os.environ.get("BANKEXPLORER_CACHE")
    if env is not None:
        return None if env.strip().lower() in ("", "off", "0", "none") else env
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "bankexplorer", "compile")


def key(kind: str, toolchain: str, **parts) -> str:
    """A hex key for ``kind`` (``"compile"``, ``"disassemble"``) of the ``toolchain`` (what the installed
    compiler and headers are: :func:`.nvrtc.toolchain`) and ``parts``."""
    blob = json.dumps({"kind": kind, "toolchain": toolchain, **parts}, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()


def enabled() -> bool:
    env = os.environ.get("BANKEXPLORER_CACHE")
    return env is None or env.strip().lower() not in ("", "off", "0", "none")


def get(k: str) -> bytes | None:
    if not enabled():
        return None
    with _LOCK:
        if k in _MEMORY:
            _MEMORY.move_to_end(k)
            return _MEMORY[k]
    d = folder()
    if d is None:
        return None
    path = os.path.join(d, k[:2], k)
    try:
        with open(path, "rb") as f:
            data = f.read()
        os.utime(path)  # recently used: pruned last
    except OSError:
        return None
    _remember(k, data)
    return data


def put(k: str, data: bytes) -> None:
    if not enabled():
        return
    _remember(k, data)
    d = folder()
    if d is None:
        return
    sub = os.path.join(d, k[:2])
    try:
        os.makedirs(sub, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=sub, prefix=".tmp-")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, os.path.join(sub, k))
        _prune(d)
    except OSError:  # a read-only or full disk: the memory cache still works
        pass


def _remember(k: str, data: bytes) -> None:
    with _LOCK:
        _MEMORY[k] = data
        _MEMORY.move_to_end(k)
        while len(_MEMORY) > MAX_MEMORY_ENTRIES:
            _MEMORY.popitem(last=False)


def _prune(d: str) -> None:
    """Drop the least recently used entries past :data:`MAX_DISK_BYTES`."""
    entries = []
    total = 0
    for root, _dirs, files in os.walk(d):
        for f in files:
            p = os.path.join(root, f)
            try:
                st = os.stat(p)
            except OSError:
                continue
            entries.append((st.st_mtime, st.st_size, p))
            total += st.st_size
    if total <= MAX_DISK_BYTES:
        return
    for _t, size, p in sorted(entries):
        try:
            os.remove(p)
        except OSError:
            continue
        total -= size
        if total <= MAX_DISK_BYTES * 3 // 4:
            break


def clear_memory() -> None:
    with _LOCK:
        _MEMORY.clear()
