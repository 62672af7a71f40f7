"""A compiler in a child process, within a budget: NVRTC (:mod:`.nvrtc`) and Triton
(:mod:`bankexplorer.kernels.triton_source`) both run so, because a call into a compiler cannot be
interrupted and a user's text (or a Triton ``.py``'s Python) can make it work without end. The child
starts in an empty folder, gets its request as JSON on stdin and answers JSON on stdout; the parent
ends it after ``seconds`` and, on Ctrl-C or any other exception while waiting, at once. The child
calls :func:`limit` first: its address space and CPU time are bounded (the CPU limit also ends a
child whose parent was killed).
"""

from __future__ import annotations

import json
import subprocess
import tempfile
import threading
from dataclasses import dataclass

#: the child each thread waits on now, by thread id (see :func:`end_child_of`)
_RUNNING: dict[int, subprocess.Popen] = {}


@dataclass(frozen=True)
class ChildResult:
    reply: dict | None  # the child's JSON answer (None: it said nothing readable)
    stderr: str
    returncode: int | None
    timed_out: bool = False

    @property
    def why(self) -> str:
        """The last line the child wrote on stderr, or its exit status."""
        lines = self.stderr.strip().splitlines()
        return lines[-1] if lines else f"exit status {self.returncode}"


def run(argv: list[str], request: dict, seconds: float, env: dict[str, str] | None = None,
        prefix: str = "bankexplorer-child-") -> ChildResult:
    """Start ``argv`` in an empty folder, send ``request``, wait at most ``seconds``."""
    with tempfile.TemporaryDirectory(prefix=prefix) as empty:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                cwd=empty, env=env)
        me = threading.get_ident()
        _RUNNING[me] = proc
        try:
            out, err = proc.communicate(json.dumps(request).encode("utf-8"), timeout=seconds)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            return ChildResult(None, "", None, True)
        except BaseException:
            proc.kill()
            proc.wait()
            raise
        finally:
            _RUNNING.pop(me, None)
    try:
        reply = json.loads(out)
    except ValueError:
        reply = None
    return ChildResult(reply if isinstance(reply, dict) else None, err.decode("utf-8", "replace"), proc.returncode)


def end_child_of(thread: threading.Thread) -> None:
    """End the child ``thread`` waits on, if any, and reap it: a thread nobody will wait for (the
    command line's early as-written build, when the command ends before it) leaves no compiler
    running, nor a dead one for the system to collect. Its wait then returns a stopped child's
    result, as if the child had failed."""
    proc = _RUNNING.get(thread.ident or -1)
    if proc is not None:
        proc.kill()
        try:
            proc.wait(2)
        except subprocess.TimeoutExpired:
            pass


def limit(memory: int, cpu: int, parent: int | None = None) -> None:
    """In the child, first: Ctrl-C ends it even inside a compiler; it ends with ``parent`` (the
    process id the parent passed); ``memory`` bytes of address space and ``cpu`` seconds (where the
    system has such limits; else the parent's timeout stays)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)
    if parent is not None:
        _end_with_parent(parent)
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    except (ImportError, ValueError, OSError):
        pass


def _end_with_parent(parent: int) -> None:
    """Linux: the kernel kills this process when its parent ends, even by SIGKILL (no handler of
    the parent runs then); a parent already gone by now ends it at once. (Done here rather than in
    a ``preexec_fn``, which is unsafe in a parent with threads, as the window is.)"""
    import ctypes
    import os
    import signal

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, ctypes.c_ulong(signal.SIGKILL), 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the CPU limit still ends it
        return
    if os.getppid() != parent:
        os._exit(1)


_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
