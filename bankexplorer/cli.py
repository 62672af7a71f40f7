"""The command line: ``bankexplorer analyze FILE``, and the window when given no command.

Every subcommand reports bad input as one line on stderr with exit status 2, never a traceback.
Text a file brings (a pattern's name, a label) reaches the terminal with its control characters
shown as ``\x1b``: no escape sequence in a file can recolour, retitle or rewrite the terminal.
Subcommands are registered in :data:`COMMANDS` (name -> (add_arguments, run, help)), so a
feature adds its command next to its own code (see ``_load_plugins``).
"""

from __future__ import annotations

import json
import os
import re
import sys
from types import SimpleNamespace
from typing import TYPE_CHECKING, Callable

from .startup import collector_off, collector_on, qt_without_source_scan

# the model (numpy) is imported by the commands that use it, after start-up's first steps

EXIT_BAD_INPUT = 2
#: commands that may end the process without tearing the interpreter down (see main)
FAST_EXIT = {"analyze", "convert"}
_KEEP: list = []
EXIT_INVALID_ACCESS = 1

if TYPE_CHECKING:  # (argparse is imported when a command line is parsed: `bankexplorer FILE` has none)
    import argparse

Command = tuple[Callable[["argparse.ArgumentParser"], None], Callable[["argparse.Namespace"], int], str]
COMMANDS: dict[str, Command] = {}


class UsageError(Exception):
    pass


#: characters a terminal obeys rather than shows: C0 and C1 controls, and the bidirectional
#: overrides and isolates (U+202E would show a name's text reversed, a classic of spoofed names)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """``text`` with control characters other than newline and tab written as ``\x1b`` (a
    bidirectional override, U+202E, as backslash-u202e): a terminal shows them, it does not obey
    them. (A fast check first: output is mostly clean.)"""
    if text.replace("\n", "").isprintable():
        return text
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}",
                        text)


class _Printable:
    """A text stream that writes :func:`printable` text (a command's stdout and stderr)."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(printable(text))

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def load_pattern(path: str):
    from .io import patternfile

    return patternfile.load(path)


# ---- analyze ---------------------------------------------------------------------------------
def _fmt_table(an) -> str:
    from .model.hardware import latency_cycles

    p = an.pattern
    res = an.result
    lines = [f"{p.name}: {an.hardware.name}, {an.hardware.banks} banks x {an.hardware.bank_width} B, "
             f"block {p.block[0]}x{p.block[1]}x{p.block[2]} ({p.warps} warp{'s' if p.warps != 1 else ''})"]
    hdr = f"{'#':>4} {'instruction':<34} {'warp':>4} {'wavefronts':>10} {'ideal':>5} {'N-way':>5} {'eff':>5} {'latency':>7}"
    lines.append(hdr)
    lines.append("-" * len(hdr))
    c = an.counts()  # a compare-and-swap loop's row with its loads, as the totals add it up
    # "#" is the pattern's instruction (what --instruction, the notes and the window number), one
    # line per warp and loop iteration of it
    row_wf, row_ideal = c.total_wavefronts(), c.total_ideal()
    for r in range(len(an)):
        k = int(an.source[r])
        ins = p.instructions[k]
        title = ins.title()
        lv = an.loop_values[k][int(an.iteration[r])] if an.loop_values[k] else {}
        if lv:
            title += " " + ",".join(f"{n}={v}" for n, v in lv.items())
        if len(title) > 34:
            title = title[:33] + "…"
        if an.errors[r]:
            lines.append(f"{k:>4} {title:<34} {int(an.warp[r]):>4} error: {an.errors[r]}")
            continue
        wf, ideal = int(row_wf[r]), int(row_ideal[r])
        eff = f"{ideal / wf:.0%}" if wf else "-"
        lines.append(f"{k:>4} {title:<34} {int(an.warp[r]):>4} {wf:>10} {ideal:>5} {int(res.degree[r]):>4}x "
                     f"{eff:>5} {latency_cycles(wf):>6.0f}c")
    t = an.totals()
    lines.append("-" * len(hdr))
    lines.append(f"total per block pass: {t.wavefronts:,} wavefronts for {t.instructions:,} warp instructions "
                 f"(ideal {t.ideal:,}, excess {t.excess:,}, efficiency {t.efficiency:.0%})")
    lines.append(f"kernel (x repeat counts): {t.kernel_wavefronts:,} wavefronts, {t.kernel_excess:,} excess "
                 f"(what Nsight Compute counts as bank conflicts for 32-bit accesses)")
    lines.append(f"shared memory: {t.shared_bytes:,} bytes; throughput cost ~{t.kernel_wavefronts:,} SM cycles "
                 f"(one wavefront per cycle)")
    if t.invalid:
        lines.append(f"{t.invalid} warp instruction(s) have invalid accesses (see 'error' above)")
    for k in range(len(an.pattern.instructions)):
        note = an.note(k)
        if note:
            lines.append(f"note on instruction {k}: {note}")
    return "\n".join(lines)


def _add_analyze(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("file", help="pattern file (.json) or trace (.jsonl)")
    sp.add_argument("--json", action="store_true", help="machine-readable output")


def open_analysis_input(path: str):
    """A pattern file of expressions -> Pattern (bounded, for the window's sake); a trace (.jsonl)
    or a pattern file of explicit addresses only -> a streaming :class:`trace.Source` (no bound)."""
    from pathlib import Path

    from .io import jsonread, patternfile, trace

    if Path(path).suffix.lower() == ".jsonl":
        return trace.read_jsonl(path)
    name = Path(path).name
    raw = patternfile.read_bytes(path, max_bytes=None)
    src = trace.from_pattern_bytes(raw, name, lambda: jsonread.parse(patternfile.read_bytes(path, None), "", name))
    if src is not None:
        return src
    d, exact = jsonread.fast_parse(raw, "", name)
    del raw
    if trace.explicit_only(d):
        again = None if exact else (lambda: jsonread.parse(patternfile.read_bytes(path, None), "", name))
        return trace.from_pattern_dict(d, name, reparse=again)
    if not exact:  # orjson read it: let the standard library's values make the messages
        d = jsonread.parse(patternfile.read_bytes(path, None), "", name)
    size = Path(path).stat().st_size
    if size > patternfile.MAX_FILE_BYTES:
        from .model.errors import FileFormatError
        raise FileFormatError([("", f"file is {size:,} bytes; patterns with expressions are at most "
                                    f"{patternfile.MAX_FILE_BYTES:,} (explicit addresses have no limit)")], name)
    return patternfile.from_dict(d, name)


def _run_analyze(args: argparse.Namespace) -> int:
    from .io.trace import Source
    from .model.analysis import analyze

    src = open_analysis_input(args.file)
    if isinstance(src, Source):
        from .io.stream import Streamer

        _KEEP.append(src)  # freed at exit, or never when the program exits fast (see main)
        out = Streamer(src, sys.stdout, args.json).run()
        sys.stdout.flush()
        invalid, first = out.summary.totals["invalid"], out.first_error
    else:
        an = analyze(src, detail=False)
        if args.json:
            d = an.to_json()
            d["summary"] = an.summary().to_json(an.where)
            sys.stdout.write(json.dumps(d) + "\n")
        else:
            print(_fmt_table(an))
            print("\n".join(an.summary().text_lines(an.where)))
        invalid = an.totals().invalid
        first = next((e for e in an.errors if e), None)
    if invalid:
        print(f"bankexplorer: {args.file}: {invalid} warp instruction(s) invalid; first: {first}", file=sys.stderr)
        return EXIT_INVALID_ACCESS
    return 0


COMMANDS["analyze"] = (_add_analyze, _run_analyze, "analyze a pattern file: wavefronts per warp instruction")


def _add_convert(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("source", help="a pattern file of explicit addresses (.json) or a trace (.jsonl)")
    sp.add_argument("target", help="the file to write: .jsonl for a trace, .json for a pattern")


def _run_convert(args: argparse.Namespace) -> int:
    from .io.convert import convert

    n = convert(args.source, args.target)
    print(f"{args.target}: {n:,} instruction{'s' if n != 1 else ''}", file=sys.stderr)
    return 0


COMMANDS["convert"] = (_add_convert, _run_convert, "convert between a pattern file (.json) and a trace (.jsonl)")


def _add_gui(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("file", nargs="?", help="pattern file to open")


def _run_gui(args: argparse.Namespace) -> int:
    try:
        from .gui.app import run_app
    except ImportError as e:  # Qt missing or broken: say so instead of a traceback
        print(f"bankexplorer: cannot start the window: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return run_app(args.file)


COMMANDS["open"] = (_add_gui, _run_gui, "open the window (also: bankexplorer FILE)")


#: commands that live beside their features, and the module that registers each
PLUGINS = {"export": "bankexplorer.export.cli", "advise": "bankexplorer.advisor.cli", "cuda": "bankexplorer.cuda.cli",
           "import-cuda": "bankexplorer.cudaimport.cli"}


def _load_plugins(only: str | None = None) -> None:
    """Register the plugin commands (``only``: just the one about to run, so that it does not pay
    for the others' imports: the export's loads Qt)."""
    import importlib

    mods = [PLUGINS[only]] if only in PLUGINS else dict.fromkeys(PLUGINS.values())
    for mod in mods:
        try:
            importlib.import_module(mod)
        except ModuleNotFoundError as e:
            if e.name and not mod.startswith(e.name):
                raise


def build_parser(plugins: bool | str = True) -> argparse.ArgumentParser:
    import argparse

    if plugins:
        _load_plugins(plugins if isinstance(plugins, str) else None)
    ap = argparse.ArgumentParser(prog="bankexplorer", description="GPU shared-memory bank conflict explorer.")
    from . import __version__

    ap.add_argument("--version", action="version", version=f"bankexplorer {__version__}")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    for name, (add, _run, hlp) in COMMANDS.items():
        sp = sub.add_parser(name, help=hlp, description=hlp)
        add(sp)
    return ap


def _end_on_sigterm() -> None:
    """SIGTERM ends the command as Ctrl-C does, through the ``finally`` blocks: a compiler child
    process is killed on the way out rather than left to run to its CPU limit."""
    import signal

    def terminated(signum, frame):
        raise SystemExit(128 + signum)

    try:
        signal.signal(signal.SIGTERM, terminated)
    except (ValueError, OSError):  # not the main thread
        pass


def main(argv: list[str] | None = None) -> int:
    entry = argv is None  # the program itself, not a caller in the same process (tests)
    if entry:
        collector_off()  # while the program starts: see startup.py
        _end_on_sigterm()
    argv = list(sys.argv[1:] if argv is None else argv)
    if len(argv) <= 1 and not (argv and (argv[0] in COMMANDS or argv[0] in PLUGINS or argv[0].startswith("-"))):
        # the window, `bankexplorer [FILE]`: nothing to parse, so no parser to build (its import
        # and its commands were 5 ms of the window's start)
        args = SimpleNamespace(command="open", file=argv[0] if argv else None)
    else:
        # the core commands start without importing the others' code (the CUDA import's parsers, Qt)
        ap = build_parser(plugins=argv[0] if argv[0] in PLUGINS else argv[0].startswith("-"))
        if argv[0] not in COMMANDS and not argv[0].startswith("-"):
            argv = ["open"] + argv  # bankexplorer FILE ...: the window's parser says what is wrong
        try:
            args = ap.parse_args(argv)
        except SystemExit as e:  # argparse already printed its usage message
            return EXIT_BAD_INPUT if e.code else 0
    _add, run, _h = COMMANDS[args.command]
    stdout, stderr = sys.stdout, sys.stderr
    if not getattr(args, "json", False):  # JSON output escapes control characters itself
        sys.stdout = _Printable(stdout)
    sys.stderr = _Printable(stderr)
    try:
        return _run(args, run, entry)
    finally:
        sys.stdout, sys.stderr = stdout, stderr


def _run(args: argparse.Namespace, run, entry: bool) -> int:
    if args.command != "open":
        collector_on()  # the window's command turns it on once the window is up (gui.app.run_app)
    elif entry:
        qt_without_source_scan()  # before pyqtgraph and the views are imported: see startup.py
    from .model.errors import BankExplorerError

    try:
        code = run(args)
        if not entry:
            _KEEP.clear()
        if entry and args.command in FAST_EXIT:
            # a big trace leaves millions of objects; the process is done with them: flush and
            # leave without the interpreter freeing them one by one (a fifth of the run's time)
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
        return code
    except BankExplorerError as e:
        print(f"bankexplorer: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except UsageError as e:
        print(f"bankexplorer: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except MemoryError:
        print("bankexplorer: out of memory (is the pattern absurdly large?)", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as e:
        print(f"bankexplorer: {getattr(e, 'filename', '') or ''}: {e.strerror or e}", file=sys.stderr)
        return EXIT_BAD_INPUT
