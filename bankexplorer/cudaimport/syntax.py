"""The CUDA text as a tree-sitter syntax tree, plus positions people can read.

tree-sitter's C++/CUDA grammar gives a real parse (declarations, templates, ``<<<...>>>``) and
keeps going after an error, which is what lets the importer report a bad line and use the rest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import tree_sitter as ts
import tree_sitter_cuda as tscuda

MAX_SOURCE_BYTES = 1 << 20  # 1 MiB of kernel text is far more than anyone pastes

# ``__align__(16)`` is a CUDA macro the grammar does not know; it only affects where the compiler
# puts the array, so it is blanked (same length: every position stays where it was).
# ``#pragma unroll`` between a ``for`` and its body (``for (...)\n#pragma unroll\n for (...)``) is
# legal C++ but not in the grammar's statement positions: a pragma only steers nvcc (the compiled
# view reads what it did), so it is blanked too, as are ``_Pragma("...")`` operators.
_BLANK = re.compile(r"__align__\s*\(\s*\d+\s*\)|\balignas\s*\(\s*\d+\s*\)"
                    r"|^[ \t]*#[ \t]*pragma\b[^\n]*|\b_Pragma\s*\(\s*\"[^\"\n]*\"\s*\)", re.M)
# ``in[...]`` / ``f(...)``: an elision people write in snippets for "whatever"; read as ``0`` (data)
_ELISION = re.compile(r"(?<=[\[(])(\s*)\.\.\.(?=\s*[\])])")


@lru_cache(maxsize=1)
def _parser() -> ts.Parser:
    return ts.Parser(ts.Language(tscuda.language()))


@dataclass(frozen=True)
class Source:
    """The text, its bytes (what tree-sitter counts in) and the tree."""

    text: str
    data: bytes
    tree: ts.Tree

    def node_text(self, node: ts.Node) -> str:
        return self.data[node.start_byte:node.end_byte].decode("utf-8", "replace")

    def position(self, node: ts.Node, end: bool = False) -> tuple[int, int]:
        """1-based (line, column) in characters, not bytes, so editors agree with it."""
        row, col = node.end_point if end else node.start_point
        start = self.data.rfind(b"\n", 0, (node.end_byte if end else node.start_byte)) + 1
        col = len(self.data[start:start + col].decode("utf-8", "replace"))
        return row + 1, col + 1


def parse(text: str) -> Source:
    blanked = _BLANK.sub(lambda m: " " * len(m.group(0)), text)
    blanked = _ELISION.sub(lambda m: m.group(1) + "0  ", blanked)
    data = blanked.encode("utf-8")
    return Source(text, data, _parser().parse(data))


def syntax_errors(src: Source) -> list[tuple[ts.Node, str]]:
    """Every ERROR and MISSING node, outermost only, with a message saying what is wrong."""
    out: list[tuple[ts.Node, str]] = []

    def walk(n: ts.Node) -> None:
        if n.is_missing and n.type == "..." and _is_launch_pack(n.parent):
            return  # ``k<<<g, b>>>(...);`` outside a function parses as a pack expansion; it is fine
        if n.is_missing:
            out.append((n, f"expected {n.type!r} here"))
            return
        if n.type == "ERROR":
            snippet = src.node_text(n).strip().splitlines()
            first = snippet[0] if snippet else ""
            if len(first) > 40:
                first = first[:39] + "…"
            out.append((n, f"could not parse {first!r}" if first else "could not parse this"))
            return
        if n.has_error:
            for c in n.children:
                walk(c)

    walk(src.tree.root_node)
    return out


def comments(src: Source) -> list[ts.Node]:
    """Every comment node, in text order."""
    out: list[ts.Node] = []
    stack = [src.tree.root_node]
    while stack:
        n = stack.pop()
        if n.type == "comment":
            out.append(n)
        else:
            stack.extend(reversed(n.children))
    return out


def _is_launch_pack(node: ts.Node | None) -> bool:
    if node is None or node.type != "parameter_pack_expansion":
        return False
    pattern = node.child_by_field_name("pattern")
    return pattern is not None and any(c.type == "kernel_call_syntax" for c in pattern.children)


def field(node: ts.Node, name: str) -> ts.Node | None:
    return node.child_by_field_name(name)


def named_children(node: ts.Node) -> list[ts.Node]:
    return [c for c in node.named_children if c.type != "comment"]
