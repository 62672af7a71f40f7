"""What importing a Triton kernel would otherwise compute again on every command (about 2 s of a
3 s budget): the kernel's SASS with its Python lines (two ``nvdisasm`` runs and a ``ptxas``), and
Triton's own version key (``triton_key()``: a hash of Triton's sources and its 400 MB library, which
Triton itself computes once per process). Kept in ``$XDG_CACHE_HOME/bankexplorer/triton``
(``~/.cache`` by default), each file named by the hash of what it was derived from, so a changed
cubin, PTX or Triton install is a miss, never a stale answer. A folder that cannot be written only
makes the next command slower.
"""

from __future__ import annotations

import hashlib
import os
import tempfile


def folder() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "bankexplorer", "triton")


def key(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for p in parts:
        b = p.encode("utf-8") if isinstance(p, str) else p
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    return h.hexdigest()


def get(name: str) -> str | None:
    try:
        with open(os.path.join(folder(), name), encoding="utf-8") as f:
            return f.read()
    except OSError:
        return None


def put(name: str, text: str) -> None:
    """Write atomically (a reader never sees half a file); errors are ignored (see the docstring)."""
    try:
        os.makedirs(folder(), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder(), prefix=".tmp-")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, os.path.join(folder(), name))
    except OSError:
        pass


def triton_key() -> str:
    """Triton's ``triton.runtime.cache.triton_key()``, computed once per Triton install (named by
    the install's folder, version and its library's size and time)."""
    import triton
    from triton.runtime import cache

    root = os.path.dirname(triton.__file__)
    lib = os.path.join(root, "_C", "libtriton.so")
    try:
        st = os.stat(lib)
        stamp = f"{root}|{triton.__version__}|{st.st_size}|{st.st_mtime_ns}"
    except OSError:
        return cache.triton_key()
    name = "triton_key-" + key(stamp)
    value = get(name)
    if value is None:
        value = cache.triton_key()
        put(name, value)
    return value
