"""What NVRTC is given: the device code of a pasted text, and the user's headers it includes.

People paste whole ``.cu`` files: a kernel next to ``main()``, ``cudaMalloc`` and ``<<<...>>>``
launches, and ``#include <cstdio>``. NVRTC compiles device code only and has no C++ standard
headers, so host functions and headers it cannot find are blanked out, character for character
with newlines kept, so every line and column of the compiler's messages and line table still
points into the user's text.

NVRTC opens the files its includes name by itself, so the text's includes are checked first
(:func:`for_compiler`, the rules of :mod:`.includes`): the user's headers are read here and given
to NVRTC in memory, and NVRTC is told of no folder but the bundled CUDA headers'.
"""

from __future__ import annotations

import os
import re

from .directives import blank, find_includes
from .includes import MAX_HEADERS, IncludeError, IncludeRules, read_header
from .syntax import parse

_DEVICE_WORDS = re.compile(r"\b(__global__|__device__|__host__\s+__device__)\b")


def for_compiler(text: str, rules: IncludeRules) -> tuple[str, dict[str, str]]:
    """``text`` with the includes no folder has blanked, and the user headers it includes (and
    they include), by the name they are included as, each blanked the same way. IncludeError
    (with the kernel's line) for an include the rules refuse, one of a macro (which only the
    compiler could resolve), or two different files included under one name."""
    code, owner, texts = _gather(text, rules)
    return code, {name: texts[real] for name, real in owner.items()}


def included_files(text: str, rules: IncludeRules) -> list[str]:
    """The real paths of the user headers ``text`` includes (and they include): files a run reads,
    which no output of it may overwrite. An include the rules refuse ends the list there (the run
    itself reports it)."""
    try:
        return sorted(set(_gather(text, rules)[1].values()))
    except IncludeError:
        return []


def _gather(text: str, rules: IncludeRules) -> tuple[str, dict[str, str], dict[str, str]]:
    """(the blanked text, include name -> real file, real file -> its blanked text)."""
    owner: dict[str, str] = {}  # name as included -> the real file it means
    texts: dict[str, str] = {}  # real file -> its text for the compiler

    def visit(src: str, current: str | None, within: str, top: int | None) -> str:
        cuts = []
        for d in find_includes(src):
            at = top if top is not None else d.line
            where = f"{within}line {d.line}: " if within else ""
            if d.place == "comment":  # a comment or a literal: blanked, so no reader sees a directive
                cuts.append((d.start, d.end))
                continue
            if d.place == "split":
                raise IncludeError(f"{where}an #{d.kind} that begins inside a comment and ends outside it is "
                                   f"not compiled", at)
            if d.name is None:
                raise IncludeError(f"{where}#{d.kind} of a macro (or of no file name): the compiled view needs "
                                   f"the file name written out in the kernel", at)
            try:
                found = rules.find(d.name, d.system, current)
            except IncludeError as e:
                raise IncludeError(where + e.message, at) from None
            if found is None:
                if d.kind != "has_include":
                    cuts.append((d.start, d.end))
                continue
            if found.bundled or d.kind == "has_include":
                continue
            if owner.setdefault(d.name, found.real) != found.real:
                raise IncludeError(f'{where}two different files are included as "{d.name}": the compiled view '
                                   f"cannot tell them apart", at)
            if found.real not in texts:
                if len(texts) >= MAX_HEADERS:
                    raise IncludeError(f"{where}more than {MAX_HEADERS} headers: not compiled", at)
                texts[found.real] = ""  # a file that includes itself (or a cycle) is read once
                try:
                    body = read_header(found, d.name)
                except IncludeError as e:
                    raise IncludeError(where + e.message, at) from None
                texts[found.real] = visit(body, os.path.dirname(found.path), f"{d.name}, ", at)
        return blank(src, cuts)

    code = visit(text, rules.local, "", None)
    return code, owner, texts


def device_source(text: str) -> str:
    """``text`` with host functions blanked (its includes are :func:`for_compiler`'s)."""
    src = parse(text)
    spans: list[tuple[int, int]] = []

    def walk(node) -> None:
        for ch in node.children:
            if ch.type == "function_definition":
                body = ch.child_by_field_name("body")
                head = src.data[ch.start_byte:body.start_byte if body else ch.end_byte].decode("utf-8", "replace")
                # a template's prefix sits on the enclosing template_declaration
                prefix = src.data[node.start_byte:ch.start_byte].decode("utf-8", "replace") \
                    if node.type == "template_declaration" else ""
                if not _DEVICE_WORDS.search(head + prefix):
                    spans.append((ch.start_byte, ch.end_byte))
            elif ch.type in ("translation_unit", "template_declaration", "namespace_definition", "declaration_list",
                             "linkage_specification", "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif"):
                walk(ch)

    walk(src.tree.root_node)
    # the parse's own copy of the text has #pragma and __align__ blanked for the grammar; the
    # compiler must see them (``#pragma unroll`` changes the code), so blank the user's bytes
    raw = text.encode("utf-8")
    data = raw if len(raw) == len(src.data) else src.data
    for s, e in sorted(spans, reverse=True):
        data = data[:s] + re.sub(rb"[^\n]", b" ", data[s:e]) + data[e:]
    return data.decode("utf-8", "replace")


def kernel_parameters(text: str) -> set[str]:
    """Names of the parameters of the text's functions (``-D`` values for them are import-only:
    passed to the compiler they would rewrite the declaration)."""
    src = parse(text)
    names: set[str] = set()

    def walk(node) -> None:
        if node.type == "parameter_declaration":
            d = node.child_by_field_name("declarator")
            while d is not None and d.type not in ("identifier",):
                d = d.child_by_field_name("declarator")
            if d is not None:
                names.add(src.node_text(d))
            return
        for ch in node.children:
            walk(ch)

    walk(src.tree.root_node)
    return names


def template_kernels(text: str, values: dict[str, int]) -> tuple[list[str], list[str]]:
    """Instantiations for the text's template kernels (``k<32, 8>``) from ``values`` (``-D``) or
    the parameters' defaults, and the template parameters nobody gave a value."""
    src = parse(text)
    out: list[str] = []
    missing: list[str] = []

    def walk(node) -> None:
        for ch in node.children:
            if ch.type == "template_declaration":
                fn = next((c for c in ch.children if c.type == "function_definition"), None)
                params = ch.child_by_field_name("parameters")
                if fn is not None and params is not None and "__global__" in src.node_text(fn).split("{", 1)[0]:
                    decl = fn.child_by_field_name("declarator")
                    while decl is not None and decl.type != "function_declarator":
                        decl = decl.child_by_field_name("declarator")
                    name_node = decl.child_by_field_name("declarator") if decl is not None else None
                    args = []
                    for p in params.named_children:
                        d = p.child_by_field_name("declarator") or p.child_by_field_name("name")
                        pname = src.node_text(d) if d is not None else ""
                        default = p.child_by_field_name("default_value")
                        if pname in values:
                            args.append(str(values[pname]))
                        elif default is not None:
                            args.append(src.node_text(default))
                        else:
                            missing.append(pname or src.node_text(p))
                    if name_node is not None and len(args) == len(params.named_children):
                        out.append(f"{src.node_text(name_node)}<{', '.join(args)}>")
            elif ch.type in ("translation_unit", "namespace_definition", "declaration_list"):
                walk(ch)

    walk(src.tree.root_node)
    return out, missing
