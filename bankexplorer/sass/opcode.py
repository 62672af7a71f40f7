"""An instruction's opcode from its text, importable without the decoder (the window's per-line
views name instructions by it and load at start-up)."""

from __future__ import annotations


def opcode_of(text: str) -> str:
    """The opcode with its modifiers of an instruction's text, past a guard: ``@!P0 LDS.64 R2, [R3]``
    -> ``LDS.64``."""
    words = text.split()
    return words[1] if words and words[0].startswith("@") and len(words) > 1 else words[0] if words else ""


#: opcodes whose label operand is a place in the code (where a branch, BSSY, call or jump goes):
#: the compiler's layout, which two builds compared instruction by instruction must share
BRANCH_OPCODES = frozenset({"BRA", "BSSY", "CALL", "JMP"})
