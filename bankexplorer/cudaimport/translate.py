"""Import CUDA text as a Pattern: the stages, in order.

1. :mod:`.preprocess` -- ``#define`` with arguments, ``#if``, local ``#include`` (pcpp), keeping the
   user's line numbers.
2. :mod:`.syntax` -- tree-sitter's CUDA grammar: the syntax tree.
3. The symbolic walk over the tree (nothing is run): :mod:`.walk_state` (scopes, bindings, integer
   arithmetic), :mod:`.walk_expr` (expressions; every shared-memory access becomes an instruction),
   :mod:`.walk_statements` (statements, branches on the thread, declarations), :mod:`.walk_loops`
   (symbolic loops, unrolling). :class:`Translator` is those mixins put together.
4. :mod:`.lower` -- the walk's findings as a Pattern (arrays, instructions, ``// block:`` settings).
"""

from __future__ import annotations

from ..model.pattern import MAX_THREADS, Pattern
from ..sass.launch import setting_comments
from .lower import _build, _setting
from .options import ImportOptions, parse_block
from .preprocess import preprocess
from .result import Diagnostic, ImportResult
from .syntax import MAX_SOURCE_BYTES, Source, parse, syntax_errors
from .walk_expr import ExpressionWalk
from .walk_loops import LoopWalk
from .walk_state import DEFAULT_EXTERN_BYTES, WalkState, _TooLong
from .walk_statements import StatementWalk
from .walk_wmma import WmmaWalk

__all__ = ["ImportOptions", "Translator", "import_cuda", "parse_block"]


class Translator(LoopWalk, StatementWalk, ExpressionWalk, WmmaWalk, WalkState):
    """The whole symbolic walk: one walker, its methods grouped by what they read."""


# ---- the whole import ----------------------------------------------------------------------------
def _translate(src: Source, opts: ImportOptions, block: tuple[int, int, int], extern_bytes: int | None) -> Translator:
    tr = Translator(src, opts, block, extern_bytes)
    try:
        tr.run(src.tree.root_node)
    except _TooLong as e:
        tr.report(e.node, e.message, "error")
    except RecursionError:
        tr.report(None, "the snippet is nested too deeply to follow (expressions or blocks hundreds of levels "
                        "deep): import stopped", "error")
    return tr


def import_cuda(text: str, options: ImportOptions | None = None) -> ImportResult:
    """Build a Pattern from CUDA text. Never raises for problems in the text: they come back as
    diagnostics, and everything that was understood is in the pattern.

    The text is only parsed (tree-sitter) and walked: nothing in it is compiled or run."""
    opts = options or ImportOptions()
    if len(text) > MAX_SOURCE_BYTES or len(text.encode("utf-8", "replace")) > MAX_SOURCE_BYTES:
        return _empty(opts, f"the text is larger than {MAX_SOURCE_BYTES // 1024:,} KiB: paste the part of the kernel "
                            f"that uses shared memory")
    if "\0" in text:
        line = text.count("\n", 0, text.index("\0")) + 1
        return _empty(opts, f"the text contains a NUL character at line {line} (is it a binary file?)", line)
    try:
        return _import(text, opts)
    except RecursionError:
        return _empty(opts, "the snippet is nested too deeply to follow (hundreds of levels)")
    except Exception as e:  # a bug in the importer must not cost the window or the command line
        return _empty(opts, f"the importer failed on this text ({type(e).__name__}: {e}); please report it")


def _empty(opts: ImportOptions, message: str, line: int = 1) -> ImportResult:
    pat = Pattern(name=opts.name, hardware=opts.hardware, block=opts.block or (32, 1, 1))
    return ImportResult(pat, (), (Diagnostic(line, 1, message, "error"),), "given" if opts.block else "default")


def _import(text: str, opts: ImportOptions) -> ImportResult:
    pre = preprocess(text, opts.defines, opts.include_dirs, opts.path)
    src = parse(pre.text)  # line for line the user's text: positions and line numbers stay theirs
    directives: dict[str, tuple[str, int, int]] = {}
    for key, value, line, col in setting_comments(pre.text):  # the first of each key, as the emulator reads them
        directives.setdefault(key, (value, line, col))
    ddiags: list[Diagnostic] = []
    first: list[Translator] = []

    def consts() -> dict[str, int]:  # the text's constants, for settings written with them
        if not first:
            first.append(_translate(src, opts, opts.block or (32, 1, 1), opts.extern_bytes))
        return first[0].consts

    given_block, origin = opts.block, "given"
    if given_block is None and "block" in directives:
        given_block = _setting("block", directives["block"], consts, ddiags)  # type: ignore[assignment]
        origin = f"comment at line {directives['block'][1]}"
    given_extern = opts.extern_bytes
    if given_extern is None and "extern-size" in directives:
        ext = _setting("extern-size", directives["extern-size"], consts, ddiags)
        given_extern = ext[0] if ext else None
    block = given_block or (32, 1, 1)
    tr = _translate(src, opts, block, given_extern)
    if given_block is None:
        origin = "default (32x1x1)"
    if given_block is None or given_extern is None:
        lblock = next((b for b, _s, _l in tr.launches if b is not None), None)
        lline = next((ln for b, _s, ln in tr.launches if b is not None), 0)
        smem = next((s for _b, s, _l in tr.launches if s is not None), None)
        new_block = block
        bad_launch = lblock is not None and (min(lblock) < 1 or lblock[0] * lblock[1] * lblock[2] > MAX_THREADS)
        if given_block is None and bad_launch:
            tr.report(None, f"the launch at line {lline} asks for a block of {lblock[0]}x{lblock[1]}x{lblock[2]} "
                            f"threads, which is not a valid block (1 to {MAX_THREADS} threads): not used", "error")
            origin = f"default (32x1x1; the launch at line {lline} is not valid)"
        elif given_block is None and lblock is not None:
            new_block, origin = lblock, f"launch at line {lline}"
        elif given_block is None and tr.launch_bounds is not None:
            new_block, origin = (tr.launch_bounds[0], 1, 1), f"__launch_bounds__ at line {tr.launch_bounds[1]}"
        new_extern = given_extern if given_extern is not None else smem
        if new_block != block or new_extern != given_extern:
            block = new_block
            tr = _translate(src, opts, block, new_extern)
    diags = [Diagnostic(ln, col, msg, sev) for ln, col, msg, sev in pre.diagnostics]
    diags += [Diagnostic(*src.position(node), f"syntax error: {msg}", "error") for node, msg in syntax_errors(src)]
    diags += ddiags + tr.diags
    if given_block is None and origin.startswith("default"):
        diags.append(Diagnostic(1, 1, "no block size given and no launch <<<grid, block>>> found: assuming 32x1x1 "
                                      "threads", "note"))
    if tr.extern_default_used is not None:
        diags.append(Diagnostic(*src.position(tr.extern_default_used),
                                f"extern __shared__ array sized for {DEFAULT_EXTERN_BYTES:,} bytes (no size given: "
                                f"pass one, or launch with <<<grid, block, bytes>>>)", "note"))
    return _build(src, opts, tr, block, origin, diags)


