"""What each opcode does: one small function per opcode, registered in a table by family.

A function takes an :class:`~bankexplorer.sass.issue.Issue` and reads and writes operands through
it. Control-flow opcodes (:mod:`.control`) are registered the same way and hand their decision to
the scheduler (:mod:`bankexplorer.sass.simt`); which opcodes are which is in :mod:`..opcode`. The table for an architecture
is the sm_90 table with that architecture's differences applied (:func:`table_for`), as an
emulator adds an instruction-set revision.

Families: :mod:`.control` (BRA, BSSY, BSYNC, BAR, CALL, RET, EXIT, WARPSYNC...), :mod:`.integer` (IADD3, IMAD, LEA, SHF, LOP3, ISETP...), :mod:`.floating` (FADD, FFMA,
FSETP, MUFU, conversions, doubles), :mod:`.half` (HADD2, HFMA2...), :mod:`.tensor` (HMMA), :mod:`.predicate`
(PLOP3, P2R, R2P), :mod:`.warpgroup` (HGMMA), :mod:`.move` (MOV, S2R, LDC, SEL, PRMT, no-ops), :mod:`.memory` (LDS, STS,
ATOMS, LDSM, LDG, STG, ATOM, LDL...), :mod:`.mbarrier` (Hopper's transaction barriers and bulk
copies: SYNCS, UBLKCP, ELECT), :mod:`.warp` (SHFL, VOTE, REDUX, MATCH).
"""

from __future__ import annotations

from collections.abc import Callable

Semantics = Callable[["object"], None]

#: base opcode -> semantics, filled by the family modules at import
SM90: dict[str, Semantics] = {}

#: architectures whose tables are sm_90's with these differences, by name (only sm_90 is measured:
#: the others run with sm_90's bank rules and say so)
DELTAS: dict[str, dict[str, str | None]] = {
    "sm_80": {}, "sm_86": {}, "sm_89": {},
    # Blackwell loads constants straight into uniform registers
    "sm_100": {"LDCU": "ULDC"}, "sm_120": {"LDCU": "ULDC"},
}
MEASURED = ("sm_90",)


def op(*names: str):
    """Register a function as the semantics of these base opcodes (and their uniform twins when
    named with a leading ``U``)."""

    def reg(fn):
        for n in names:
            SM90[n] = fn
        return fn

    return reg


def table_for(arch: str) -> dict[str, Semantics]:
    from . import control, floating, half, integer, mbarrier, memory, move, predicate, tensor, warp, warpgroup  # noqa: F401 - they register

    table = dict(SM90)
    for name, same_as in DELTAS.get(arch, {}).items():
        if same_as is None:
            table.pop(name, None)
        else:
            table[name] = table[same_as]
    return table
