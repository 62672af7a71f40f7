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

A text with none of those directives is returned as it is (no work, same columns).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

#: what only a real preprocessor handles; anything else the translator reads directly
_NEEDS = re.compile(r"^[ \t]*#[ \t]*(?:if|ifdef|ifndef|elif|else|include|undef)\b|^[ \t]*#[ \t]*define[ \t]+\w+\(",
                    re.M)
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


def preprocess(text: str, defines: dict[str, int] | None = None, include_dirs: list[str] | None = None,
               path: str | None = None) -> Preprocessed:
    """``text`` with macros with arguments expanded, conditionals decided and local includes read,
    line for line. Problems come back as diagnostics; the text is never lost."""
    if not needs_preprocessor(text):
        return Preprocessed(text)
    try:
        from pcpp.preprocessor import Action, OutputDirective, Preprocessor
    except ImportError:  # pcpp is a dependency; a broken install still imports as written
        return Preprocessed(text, [(1, 1, "the C preprocessor (pcpp) is not installed: macros with arguments, #if and "
                                          "#include are not applied", "warning")])
    name = os.path.basename(path) if path else "kernel.cu"
    keep = _plain_constants(text) | set(defines or {})
    diags: list[tuple[int, int, str, str]] = []

    class _Pre(Preprocessor):
        in_directive = 0

        def on_error(self, file, line, msg):  # noqa: D401 - pcpp's hook
            diags.append((int(line or 1) if file in (name, None) else 1, 1, f"preprocessor: {str(msg).strip()}", "error"))
            self.return_code += 1

        def on_include_not_found(self, is_malformed, is_system_include, curdir, includepath):
            if not is_malformed:
                raise OutputDirective(Action.IgnoreAndRemove)
            return super().on_include_not_found(is_malformed, is_system_include, curdir, includepath)

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
            if self.in_directive:
                return super().expand_macros(tokens, expanding_from)
            hidden = {k: self.macros.pop(k) for k in keep if k in self.macros}
            try:
                return super().expand_macros(tokens, expanding_from)
            finally:
                self.macros.update(hidden)

    p = _Pre()
    p.line_directive = None
    for d in include_dirs or []:
        p.add_path(d)
    if path:
        p.add_path(os.path.dirname(os.path.abspath(path)))
    for k, v in (defines or {}).items():
        p.define(f"{k} {v}")
    try:
        p.parse(text, source=name)
        lines: list[list[str]] = [[] for _ in range(text.count("\n") + 2)]
        include_lines = [text.count("\n", 0, m.start()) + 1 for m in _INCLUDE_LINE.finditer(text)]
        last = 1
        while True:
            tok = p.token()
            if tok is None:
                break
            if tok.value in ("\n", "\r\n") or (tok.type in p.t_WS and "\n" in tok.value):
                continue
            if getattr(tok, "source", name) in (name, None):
                last = max(1, min(int(tok.lineno), len(lines) - 1))
                where = last
            else:  # from an included file: on the line of its #include
                where = next((ln for ln in include_lines if ln >= last), last)
            lines[where].append(tok.value)
    except Exception as e:  # pcpp raises on some malformed input: keep the text, say what happened
        return Preprocessed(text, diags + [(1, 1, f"preprocessor: {e}", "error")], True)
    n = text.count("\n") + (0 if text.endswith("\n") else 1)
    out = "\n".join("".join(lines[ln]).replace("\n", " ") for ln in range(1, n + 1))
    return Preprocessed(out + ("\n" if text.endswith("\n") else ""), diags, True)
