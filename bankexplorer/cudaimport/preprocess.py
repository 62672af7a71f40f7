"""Stage 1 of the import: the C preprocessor, before the text is parsed.

Real kernels use macros with arguments (GPU Gems 3's ``CONFLICT_FREE_OFFSET(n)`` in an index),
``#if``/``#ifdef`` and local ``#include "x.h"``. They go through ``pcpp`` (a C99 preprocessor in pure
Python; nothing is compiled or run), with three choices that keep the import readable:

* Every output line stays on the line it came from, so diagnostics and each instruction's line are
  the user's. Text from an included file is put on the line of its ``#include``.
* Object-like macros with a plain value (``#define TILE 32``, ``-D TILE=32``) are *not* expanded in
  the code: their ``#define`` stays, so the translator keeps ``TILE`` as a named constant in the
  pattern's expressions. They are expanded where the preprocessor needs them (``#if``).
* ``#include <...>`` of a header the project does not have (``cuda_fp16.h``, ``cstdio``) is dropped
  quietly: the importer knows the CUDA types it needs.

Includes follow :mod:`.includes`' rules (the kernel's folder, ``-I`` folders and the CUDA headers
only; absolute names and ``..`` refused; regular files only, size-capped); a file included inside
itself again (no include guard) is reported, not followed. ``#error`` is an error of the import.
The work is bounded (:data:`MAX_EXPANSION_TOKENS`, :data:`MAX_SECONDS`): a macro that doubles at
every level stops there with an error, the text imported as it is.

A text with none of those directives is returned as it is (no work, same columns).
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass, field

from .includes import MAX_HEADERS, IncludeError, IncludeRules, read_header

#: the budget: tokens that macro replacements may make in all (the bundled kernels make at most
#: about a thousand; 200,000 tokens are a few MB of text), and seconds for the whole preprocessing
MAX_EXPANSION_TOKENS = 200_000
MAX_SECONDS = 10.0

#: what only a real preprocessor handles; anything else the translator reads directly
_NEEDS = re.compile(r"^[ \t]*#[ \t]*(?:if|ifdef|ifndef|elif|else|include|undef|error|warning)\b"
                    r"|^[ \t]*#[ \t]*define[ \t]+\w+\(", re.M)
_OBJECT_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+([-+~()\w \t*/%<>&|^]+?)[ \t]*(?://.*)?$", re.M)
_INCLUDE_LINE = re.compile(r"^[ \t]*#[ \t]*include\b", re.M)


def _plain_constants(text: str) -> set[str]:
    """Object-like macros whose value is built of numbers and other such macros only (``#define
    TILE 32``, ``#define PAD (TILE / 32)``): the translator keeps these as named constants."""
    bodies: dict[str, list[str]] = {}
    for m in _OBJECT_DEFINE.finditer(text):
        bodies.setdefault(m.group(1), []).append(m.group(2))
    # a name defined in several branches (#if ... #else) must be plain in all of them
    defined = set(re.findall(r"^[ \t]*#[ \t]*define[ \t]+(\w+)", text, re.M))
    counts = {n: len(re.findall(rf"^[ \t]*#[ \t]*define[ \t]+{n}\b", text, re.M)) for n in defined}
    keep: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, bs in bodies.items():
            if name in keep or len(bs) != counts.get(name) or any(re.search(r"\w\s*\(", b) for b in bs):
                continue
            words = {w for b in bs for w in re.findall(r"\b[A-Za-z_]\w*", b) if not re.fullmatch(r"[uUlLfF]+", w)}
            if words <= keep:
                keep.add(name)
                changed = True
    return keep


@dataclass
class Preprocessed:
    text: str
    diagnostics: list[tuple[int, int, str, str]] = field(default_factory=list)  # line, column, message, severity
    used: bool = False  # whether the preprocessor ran


def needs_preprocessor(text: str) -> bool:
    return bool(_NEEDS.search(text))


class _OverBudget(Exception):
    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


class _Budget:
    """Tokens made by macro replacement, and time, counted as the preprocessor goes."""

    def __init__(self) -> None:
        self.tokens = 0
        self.deadline = time.monotonic() + MAX_SECONDS

    def spend(self, n: int, line: int) -> None:
        self.tokens += n
        if self.tokens > MAX_EXPANSION_TOKENS:
            raise _OverBudget(f"macro expansion past its budget of {MAX_EXPANSION_TOKENS:,} tokens (a macro that "
                              f"expands without end?): macros not applied", line)
        self.tick(line)

    def tick(self, line: int) -> None:
        if time.monotonic() > self.deadline:
            raise _OverBudget(f"preprocessing past its budget of {MAX_SECONDS:g} s: macros not applied", line)


def preprocess(text: str, defines: dict[str, int] | None = None, include_dirs: list[str] | None = None,
               path: str | None = None) -> Preprocessed:
    """``text`` with macros with arguments expanded, conditionals decided and local includes read,
    line for line. Problems come back as diagnostics; the text is never lost."""
    if not needs_preprocessor(text):
        return Preprocessed(text)
    try:
        from pcpp.preprocessor import Preprocessor
    except ImportError:  # pcpp is a dependency; a broken install still imports as written
        return Preprocessed(text, [(1, 1, "the C preprocessor (pcpp) is not installed: macros with arguments, #if and "
                                          "#include are not applied", "warning")])
    name = os.path.basename(path) if path else "kernel.cu"
    main = os.path.abspath(path) if path else "<kernel>"  # the main text's tokens carry this as their source
    rules = IncludeRules.of(path, list(include_dirs or []))
    keep = _plain_constants(text) | set(defines or {})
    diags: list[tuple[int, int, str, str]] = []
    budget = _Budget()

    class _Pre(Preprocessor):
        def __init__(self) -> None:
            super().__init__()
            self.in_directive = 0
            self.top_line = 1  # the kernel's line of the #include being read (where a header's problems show)
            self.stack = [(os.path.realpath(path) if path else main, name)]  # (real path, name) being read
            self.dirs: list[str | None] = [rules.local]  # their folders, for "x.h" includes
            self.read = 0  # headers read

        def _report(self, file, line, msg: str, severity: str = "error") -> None:
            if file in (main, None):
                diags.append((int(line or 1), 1, msg, severity))
            else:
                inner = self.stack[-1][1] if len(self.stack) > 1 else os.path.basename(str(file))
                diags.append((self.top_line, 1, f"in {inner} line {int(line or 1)}: {msg}", severity))

        def on_error(self, file, line, msg):  # noqa: D401 - pcpp's hook
            self._report(file, line, f"preprocessor: {str(msg).strip()}")
            self.return_code += 1

        def on_directive_unknown(self, directive, toks, ifpassthru, precedingtoks):
            if directive.value in ("error", "warning"):  # pcpp would print these itself
                words = "".join(t.value for t in toks).strip()
                self._report(directive.source, directive.lineno, f"#{directive.value} {words}".strip(),
                             "error" if directive.value == "error" else "warning")
                return True
            return super().on_directive_unknown(directive, toks, ifpassthru, precedingtoks)

        def include(self, tokens, original_line):
            """pcpp's include with the rules of :mod:`.includes` (pcpp has expanded a macro name)."""
            if not tokens:
                return
            t0 = tokens[0]
            if len(self.stack) == 1:
                self.top_line = int(t0.lineno or 1)
            system = t0.value == "<"
            if system:
                close = next((i for i, t in enumerate(tokens) if t.value == ">"), None)
                fname = "".join(t.value for t in tokens[1:close]) if close else None
            elif t0.type == self.t_STRING and t0.value.startswith('"'):
                fname = t0.value[1:-1]
            else:
                fname = None
            if fname is None:
                self._report(t0.source, t0.lineno, 'preprocessor: #include needs a "file" or <file> name')
                return
            try:
                found = rules.find(fname, system, self.dirs[-1])
                if found is None or found.bundled:
                    return  # not here, or a CUDA header: the importer knows the types it needs
                if sum(real == found.real for real, _n in self.stack) >= 2:
                    raise IncludeError(f"{fname} includes itself without end (no include guard): not followed")
                if os.path.abspath(found.path) in self.include_once:
                    return
                if self.read >= MAX_HEADERS:
                    raise IncludeError(f"more than {MAX_HEADERS} headers: not followed")
                data = read_header(found, fname)
                self.read += 1
            except IncludeError as e:
                self._report(t0.source, t0.lineno, f"preprocessor: {e.message}")
                return
            self.stack.append((found.real, fname))
            self.dirs.append(os.path.dirname(found.path))
            try:
                yield from self.parsegen(data, fname, found.path)
            finally:
                self.stack.pop()
                self.dirs.pop()

        def on_directive_handle(self, directive, toks, ifpassthru, precedingtoks):
            if directive.value == "define" and toks and toks[0].value in keep:
                return None  # execute it, and keep the line for the translator's named constant
            return True

        def on_comment(self, tok):
            return True  # keep comments (the '// block:' settings live in them)

        def evalexpr(self, tokens):
            self.in_directive += 1
            try:
                return super().evalexpr(tokens)
            finally:
                self.in_directive -= 1

        def expand_macros(self, tokens, expanding_from=[]):  # noqa: B006 - pcpp's signature
            # pcpp's line of the outermost macro being expanded (its __LINE__), or the header's #include
            line = self.top_line if len(self.stack) > 1 else int(self.linemacro or 1)
            if expanding_from:  # a macro's replacement: what a bomb multiplies
                budget.spend(len(tokens), line)
            else:
                budget.tick(line)
            if self.in_directive:
                return super().expand_macros(tokens, expanding_from)
            hidden = {k: self.macros.pop(k) for k in keep if k in self.macros}
            try:
                return super().expand_macros(tokens, expanding_from)
            finally:
                self.macros.update(hidden)

    p = _Pre()
    p.line_directive = None
    p.rewrite_paths = []  # tokens keep the exact source they came from (the kernel: ``main``)
    for k, v in (defines or {}).items():
        p.define(f"{k} {v}")
    try:
        p.ignore = {}
        p.parser = p.parsegen(text, name, main)
        lines: list[list[str]] = [[] for _ in range(text.count("\n") + 2)]
        include_lines = [text.count("\n", 0, m.start()) + 1 for m in _INCLUDE_LINE.finditer(text)]
        last = 1
        count = 0
        while True:
            tok = p.token()
            if tok is None:
                break
            count += 1
            if count & 4095 == 0:
                budget.tick(last)
            if tok.value in ("\n", "\r\n") or (tok.type in p.t_WS and "\n" in tok.value):
                continue
            if getattr(tok, "source", main) in (main, None):
                last = max(1, min(int(tok.lineno), len(lines) - 1))
                where = last
            else:  # from an included file: on the line of its #include
                where = next((ln for ln in include_lines if ln >= last), last)
            lines[where].append(tok.value)
    except _OverBudget as e:
        return Preprocessed(text, diags + [(e.line, 1, f"preprocessor: {e}", "error")], True)
    except RecursionError:
        return Preprocessed(text, diags + [(1, 1, "preprocessor: macros or #if nested too deeply to follow", "error")],
                            True)
    except Exception as e:  # pcpp raises on some malformed input: keep the text, say what happened
        return Preprocessed(text, diags + [(1, 1, f"preprocessor: {e}", "error")], True)
    n = text.count("\n") + (0 if text.endswith("\n") else 1)
    out = "\n".join("".join(lines[ln]).replace("\n", " ") for ln in range(1, n + 1))
    return Preprocessed(out + ("\n" if text.endswith("\n") else ""), diags, True)
