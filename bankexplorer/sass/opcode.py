"""Opcode facts: what the emulator, the recorder and the comparisons need to know about an opcode
besides its meaning, in one place (its meaning, one function per opcode, is in :mod:`.ops`; the
control-flow ones in :mod:`.ops.control`). Importable without the decoder: the window's per-line
views name instructions by :func:`opcode_of` and load at start-up."""

from __future__ import annotations


def opcode_of(text: str) -> str:
    """The opcode with its modifiers of an instruction's text, past a guard: ``@!P0 LDS.64 R2, [R3]``
    -> ``LDS.64``."""
    words = text.split()
    return words[1] if words and words[0].startswith("@") and len(words) > 1 else words[0] if words else ""


#: opcodes whose label operand is a place in the code (where a branch, BSSY, call or jump goes):
#: the compiler's layout, which two builds compared instruction by instruction must share
BRANCH_OPCODES = frozenset({"BRA", "BSSY", "CALL", "JMP"})

#: opcodes that decide which threads issue next (their functions in :mod:`.ops.control` hand the
#: decision to the scheduler): a run moves the issuing threads on past straight-line code only
CONTROL_OPCODES = frozenset({
    "BRA", "JMP", "BRX", "JMX", "CALL", "RET", "LEPC", "EXIT", "KILL", "BPT", "BSSY", "BSYNC", "BREAK", "BMOV",
    "WARPSYNC", "ENDCOLLECTIVE", "BAR", "B2R", "SYNCS", "YIELD", "NANOSLEEP"})

#: opcodes whose semantics move the issuing threads on themselves (waits, barriers): the run does not
SELF_ADVANCING = frozenset({"BAR", "BSYNC", "WARPSYNC", "BREAK", "SYNCS", "YIELD"})

#: shared-memory instructions the model's wavefront engine costs (each gets wavefronts and an ideal)
SHARED_OPCODES = frozenset({"LDS", "STS", "ATOMS", "LDSM", "STSM", "HGMMA"})

#: a memory instruction for the reconvergence policy (:mod:`.policy`: a split whose part issued one
#: merges otherwise): every opcode starting so (loads of constants and local memory included)
MEMORY_PREFIXES = ("LD", "ST", "ATOM", "RED")

#: instructions that write memory another warp may read (the scheduler's spin-wait check)
WRITE_OPCODES = frozenset({"STS", "ST", "ATOMS", "ATOM", "RED", "STSM"})
