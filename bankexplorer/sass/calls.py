"""Calls a kernel makes into the CUDA device runtime, done by the emulator: ``printf`` and ``assert``.

nvcc compiles them to calls of external functions whose addresses the driver fills in: the
arguments in R4 upwards, the return address set by ``LEPC R20``, then ``CALL.ABS.NOINC`` through a
register (or, in the -G build, by name). The launch gives each function a sentinel address
(:data:`FUNCTIONS`), and :func:`call` does what the function does:

* ``vprintf(fmt, args)`` (``printf``): the format string's address in R4:R5, the arguments packed
  in the thread's stack (each aligned to its size; ``float`` promoted to ``double``) at R6:R7. Each
  calling thread's line is formatted as C's printf does, from the emulated memory (``%s`` too),
  and kept on the run (the report, the dialog's notes, ``--sass-json``); it returns the number of
  arguments in R4 and the threads go on at R20:R21.
* ``__assertfail(message, file, line, function, size)`` (a failed ``assert``): on the GPU the
  kernel stops ("device-side assert triggered"); here the run ends with an error that names the
  assertion, its line and the threads that failed it.
"""

from __future__ import annotations

import re

import numpy as np

#: the address the launch gives ``vprintf`` (no buffer or window is there), and ``__assertfail``
VPRINTF = 0x7FF0_0000_0000_0000
ASSERTFAIL = VPRINTF + 0x100
FUNCTIONS = {"vprintf": VPRINTF, "__assertfail": ASSERTFAIL}
#: lines a run keeps (the GPU's printf buffer also holds a bounded amount), and characters a line
MAX_LINES = 1000
MAX_LINE = 1000
#: bytes of a format or ``%s`` string read before giving up on its terminating zero
MAX_STRING = 4096
#: a field's width or precision past this is taken as this (the line is cut at MAX_LINE anyway):
#: ``printf("%*d", 2147483647, 7)`` would otherwise build 2 GB of spaces per thread
MAX_FIELD = MAX_LINE
#: characters one call formats (the rest of its conversions are left out), and the printf work of
#: a whole run (characters formatted plus string bytes read): past it, calls are counted, not
#: formatted (ten 4 KiB ``%s`` in 1,024 threads took 25 minutes before)
MAX_CALL_CHARS = 16 * MAX_LINE
MAX_PRINTF_BYTES = 1 << 20

_SPEC = re.compile(rb"%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d+))?(hh|h|ll|l|z|j|t|L)?([diouxXcsfFeEgGaAp%])")


def format_line(fmt: bytes, arg_bytes, read_string, limit: int = MAX_CALL_CHARS) -> str:
    """One thread's printf. ``arg_bytes(offset, size) -> bytes`` reads the packed arguments,
    ``read_string(address) -> bytes`` a zero-terminated string (``%s``). Widths and precisions are
    taken up to :data:`MAX_FIELD`; past ``limit`` characters the rest is left out."""
    out, pos, off, size_now, counted = [], 0, 0, 0, 0

    def take(size: int) -> int:
        nonlocal off
        off = -(-off // size) * size  # each argument at a multiple of its size
        v = int.from_bytes(arg_bytes(off, size), "little")
        off += size
        return v

    for m in _SPEC.finditer(fmt):
        size_now += sum(len(x) for x in out[counted:])
        counted = len(out)
        if size_now > limit:  # the line is long enough: the rest of the conversions are not formatted
            return "".join(out)[:limit]
        out.append(fmt[pos:m.start()].decode("utf-8", "replace"))
        pos = m.end()
        flags, width, prec, length, conv = (g.decode() if g else "" for g in m.groups())
        if conv == "%":
            out.append("%")
            continue
        if width == "*":
            w = _signed(take(4), 4)
            flags, width = (flags + "-", str(-w)) if w < 0 else (flags, str(w))  # C: a negative width left-justifies
        if prec == "*":
            p = _signed(take(4), 4)
            prec = str(p) if p >= 0 else ""  # C: a negative precision is as if none were given
        width = str(min(int(width), MAX_FIELD)) if width else ""
        prec = str(min(int(prec), MAX_FIELD)) if prec else ""
        spec = "%" + flags + width + ("." + prec if prec else "")
        if conv in "fFeEgGaA":
            v = float(np.frombuffer(take(8).to_bytes(8, "little"), np.float64)[0])
            out.append(_c_float(spec, flags, width, conv, v))
        elif conv == "s":
            s = read_string(take(8)).decode("utf-8", "replace")
            out.append((spec + "s") % s)
        elif conv == "p":
            out.append((spec.replace("#", "") + "s") % f"0x{take(8):x}")
        elif conv == "c":
            out.append((spec + "c") % chr(take(4) & 0xFF))
        else:  # integers: 8 bytes for l, ll, z, j, t; else 4 (char and short arrive promoted to int)
            size = 8 if length in ("l", "ll", "z", "j", "t") else 4
            v = take(size)
            bits = {"hh": 8, "h": 16}.get(length, size * 8)
            v &= (1 << bits) - 1
            if conv in "di":
                out.append((spec + "d") % _signed(v, bits // 8))
            elif conv == "u":
                out.append((spec + "d") % v)
            elif conv == "o" and "#" in flags:  # C's alternate octal is a leading 0, Python's 0o
                text = (spec.replace("#", "") + "o") % v
                out.append(text if text.lstrip().startswith("0") else text.replace(text.lstrip(), "0" + text.lstrip(), 1))
            else:
                out.append((spec + conv) % v)
    out.append(fmt[pos:].decode("utf-8", "replace"))
    return "".join(out)[:limit]


def _signed(v: int, size: int) -> int:
    top = 1 << (8 * size - 1)
    return v - 2 * top if v & top else v


def _c_float(spec: str, flags: str, width: str, conv: str, v: float) -> str:
    if conv in "aA":
        s = float.hex(v)
        return s.upper() if conv == "A" else s
    if v != v or v in (float("inf"), float("-inf")):  # C pads inf and nan with spaces, never zeros
        text = "nan" if v != v else ("-inf" if v < 0 else ("+inf" if "+" in flags else "inf"))
        text = text.upper() if conv.isupper() else text
        return ("%" + ("-" if "-" in flags else "") + width + "s") % text
    return (spec + conv) % v


def runtime_call(iss) -> bool:
    """A ``CALL`` into the device runtime, done here: by name (the -G build's ``CALL.ABS.NOINC
    `(vprintf)``, whose label is not in the kernel's code) or through a register holding one of
    :data:`FUNCTIONS`' addresses. False for a call into the kernel's own code; an address that is
    none of them (a function pointer) is an error that says so."""
    from .issue import EmulationError
    from .operands import Label, Reg

    first = iss.ins.operands[0]
    lanes = np.flatnonzero(iss.on)
    if isinstance(first, Label):
        address = FUNCTIONS.get(first.name) if first.target is None else None
    elif isinstance(first, Reg):
        to = np.broadcast_to(np.asarray(iss.u64(0)), iss.S.shape)[lanes]
        address = next((a for a in FUNCTIONS.values() if lanes.size and bool((to == np.uint64(a)).all())), None)
        if address is None:
            raise EmulationError(f"{iss.ins.text!r} calls a function through its address (a function pointer?): "
                                 f"only printf and assert are modelled, so this kernel cannot be executed",
                                 iss.ins.line)
    else:
        return False
    if address is None:
        return False
    (call_vprintf if address == VPRINTF else call_assertfail)(iss, lanes)
    return True


def call_assertfail(iss, lanes: np.ndarray) -> None:
    """A failed ``assert``: the kernel stops, as on the GPU, with the assertion and the threads."""
    from .issue import EmulationError

    b = iss.b
    lane = int(lanes[0])
    at = lambda r: int(b.R[r][lane]) | (int(b.R[r + 1][lane]) << 32)  # noqa: E731
    text = _string(b, at(4), lane).decode("utf-8", "replace")
    who = f"{lanes.size} thread{'s' if lanes.size != 1 else ''} (the first: threadIdx " + \
        ",".join(str(int(t[lane])) for t in b.tid) + ")"
    raise EmulationError(f"assertion `{text}` failed in {who}: on the GPU the kernel stops here (device-side "
                         f"assert triggered), so there are no counts to show", iss.ins.line)


def call_vprintf(iss, lanes: np.ndarray) -> None:
    """``CALL.ABS.NOINC`` to :data:`VPRINTF` by ``lanes``: each prints its line (in lane order, as
    the GPU's buffer gets a warp's lines), ``vprintf`` returns the number of arguments in R4, and
    the threads go on at the return address in R20:R21 (set by ``LEPC``)."""
    b, run = iss.b, iss.run
    reg64 = lambda r: (b.R[r].astype(np.uint64) | (b.R[r + 1].astype(np.uint64) << np.uint64(32)))  # noqa: E731
    fmt_at, args_at, back = reg64(4), reg64(6), reg64(20)
    counts = np.zeros(b.lanes, np.uint32)
    printed = run.printed
    for lane in lanes.tolist():
        if len(printed) >= MAX_LINES or run.printf_bytes > MAX_PRINTF_BYTES:
            # kept enough, or the run's printf work is spent: count the rest (a line a call) without formatting
            run.printed_dropped += 1
            continue
        fmt = _string(b, int(fmt_at[lane]), lane)
        base = int(args_at[lane])
        read = [len(fmt)]

        def string(a: int, lane=lane) -> bytes:
            got = _string(b, a, lane)
            read[0] += len(got)
            return got

        text = format_line(fmt, lambda off, n, lane=lane: _bytes(b, base + off, n, lane), string)
        run.printf_bytes += read[0] + len(text)
        counts[lane] = len(_SPEC.findall(fmt)) - fmt.count(b"%%")
        for piece in text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"):
            if len(printed) < MAX_LINES:
                printed.append((iss.ins.line, piece[:MAX_LINE]))
            else:
                run.printed_dropped += 1
    iss.write(4, False, counts)
    for pc in np.unique(back[lanes]).tolist():
        iss.jump(iss.on & (back == np.uint64(pc)), int(pc))


def _bytes(b, address: int, n: int, lane: int, upto: bool = False) -> bytes:
    """``n`` bytes at a generic address, as thread ``lane`` sees it (its own stack for local);
    ``upto``: as many of them as the memory holds there (at least one)."""
    from .state import LOCAL_WINDOW, SHARED_WINDOW, MemoryFault

    if LOCAL_WINDOW <= address < LOCAL_WINDOW + (1 << 32):
        off = address - LOCAL_WINDOW
        n = max(1, min(n, b.local.shape[1] - off)) if upto else n
        if off + n > b.local.shape[1]:
            raise MemoryFault(f"printf reads past thread {lane}'s stack")
        return b.local[lane, off:off + n].tobytes()
    if SHARED_WINDOW <= address < SHARED_WINDOW + (1 << 32):
        off = address - SHARED_WINDOW
        n = max(1, min(n, b.shared.size - off)) if upto else n
        if off + n > b.shared.size:
            raise MemoryFault("printf reads past the block's shared memory")
        return b.shared[off:off + n].tobytes()
    bi, off = b.memory.locate(np.array([address], np.int64), 1 if upto else n)
    data = b.memory.buffers[int(bi[0])].data
    return data[int(off[0]):int(off[0]) + n].tobytes()


def _string(b, address: int, lane: int) -> bytes:
    """The zero-terminated string at ``address`` (at most :data:`MAX_STRING` bytes), read a few
    hundred bytes at a time (a byte at a time, 4 KiB strings in 1,024 threads took minutes)."""
    if address == 0:
        return b"(null)"
    out = bytearray()
    while len(out) < MAX_STRING:
        chunk = _bytes(b, address + len(out), min(256, MAX_STRING - len(out)), lane, upto=True)
        end = chunk.find(b"\0")
        if end >= 0:
            out += chunk[:end]
            break
        out += chunk
    return bytes(out[:MAX_STRING])
