"""The program's commands, one module each, on top of the features they drive.

Every module here is a command of ``bankexplorer`` and holds four names: ``NAME`` (what the user
types), ``HELP`` (its line in ``bankexplorer --help``), ``add_arguments(parser)`` (its options) and
``run(args) -> int`` (its exit status). The entry point (:mod:`bankexplorer.cli`) imports them by
name in :data:`bankexplorer.cli.COMMANDS`; nothing below imports this package or the entry point.
Two modules here are ``import-cuda``'s and no command: :mod:`.kernel_run` runs a compiled kernel or
a binary and prints its report, :mod:`.triton_run` a Triton kernel. Shared pieces live below the
commands: exit statuses, usage errors and printable text in
:mod:`bankexplorer.terminal`, the analysis table in :mod:`bankexplorer.model.report`, pattern files
in :mod:`bankexplorer.io.patternfile`.

A command module imports only what its options need at the top: a feature's code (numpy, the
compiler, Qt) is imported when the command runs, so ``bankexplorer --help`` and ``bankexplorer
FILE`` pay for none of it.
"""
