"""The program's entry point: ``bankexplorer COMMAND ...``, and the window when given no command.

The commands are modules of :mod:`bankexplorer.commands`, listed in :data:`COMMANDS`; this module
imports them, parses the command line and runs one. Nothing else imports this module (the
features' command-line code shares :mod:`bankexplorer.terminal` with the commands instead).
Every command reports bad input as one line on stderr with exit status 2, never a traceback, and
its output reaches the terminal :func:`~bankexplorer.terminal.printable`.
"""

from __future__ import annotations

import os
import sys
from types import ModuleType, SimpleNamespace
from typing import TYPE_CHECKING

from .commands import advise, analyze, convert, cuda, export, import_cuda, window
from .startup import collector_off, collector_on, qt_without_source_scan
from .terminal import EXIT_BAD_INPUT, PrintableStream, UsageError

if TYPE_CHECKING:  # (argparse is imported when a command line is parsed: `bankexplorer FILE` has none)
    import argparse

#: the commands, in the order ``bankexplorer --help`` lists them (each module's ``NAME``, ``HELP``,
#: ``add_arguments`` and ``run``: see :mod:`bankexplorer.commands`)
COMMANDS: dict[str, ModuleType] = {m.NAME: m for m in (analyze, convert, window, export, advise, cuda, import_cuda)}
#: commands that may end the process without tearing the interpreter down (see main)
FAST_EXIT = {"analyze", "convert"}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser: with ``only``, that command's alone (a command starts without
    importing what the others' options need: the CUDA import's parsers, Qt's export views)."""
    import argparse

    class Version(argparse.Action):
        """``--version``: what :mod:`.about` finds, worked out only when asked (every other command
        starts without reading package metadata)."""

        def __call__(self, parser, namespace, values, option_string=None):
            from . import about

            print(about.text())
            parser.exit()

    ap = argparse.ArgumentParser(prog="bankexplorer", description="GPU shared-memory bank conflict explorer.")
    ap.add_argument("--version", action=Version, nargs=0,
                    help="show the version, the compilers found and whether the compiled paths are in use")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    for name, command in COMMANDS.items():
        if only is None or name == only:
            sp = sub.add_parser(name, help=command.HELP, description=command.HELP)
            command.add_arguments(sp)
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
    if len(argv) <= 1 and not (argv and (argv[0] in COMMANDS or argv[0].startswith("-"))):
        # the window, `bankexplorer [FILE]`: nothing to parse, so no parser to build (its import
        # and its commands were 5 ms of the window's start)
        args = SimpleNamespace(command="open", file=argv[0] if argv else None)
    else:
        if argv[0] not in COMMANDS and not argv[0].startswith("-"):
            argv = ["open"] + argv  # bankexplorer FILE ...: the window's parser says what is wrong
        ap = build_parser(None if argv[0].startswith("-") else argv[0])
        try:
            args = ap.parse_args(argv)
        except SystemExit as e:  # argparse already printed its usage message
            return EXIT_BAD_INPUT if e.code else 0
    run = COMMANDS[args.command].run
    stdout, stderr = sys.stdout, sys.stderr
    if not getattr(args, "json", False):  # JSON output escapes control characters itself
        sys.stdout = PrintableStream(stdout)
    sys.stderr = PrintableStream(stderr)
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
            analyze.KEEP.clear()
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
