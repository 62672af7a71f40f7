"""The compiled integer forms (``sass/_alu.c``, planned by ``sass/alu_forms.py``) give what the
opcode table's functions give: every form alone, and random traces of them issued in one call, on
random registers, predicates, guards, issuing threads and data taint (one for all lanes, per lane,
none), leave the same registers, predicates and taint, and count the same threads predicated on,
as the numpy functions do on a copy of the same block, instruction after instruction."""

from __future__ import annotations

import re
from types import SimpleNamespace

import numpy as np
import pytest

from bankexplorer.sass import alu_forms, compiled
from bankexplorer.sass.decode import decode_line
from bankexplorer.sass.issue import Issue
from bankexplorer.sass.ops import table_for
from bankexplorer.sass.state import Block, GlobalMemory

pytestmark = pytest.mark.skipif(compiled.alu is None, reason="the compiled module _alu was not built")

LANES = 96  # three warps: partial guards and issuing masks reach every one differently
THREADS = (96, 90)  # every lane a thread, or a partial last warp (its lanes past the threads hold no taint)

#: each form the compiled module runs, as the compiler writes it (and the modifiers it may carry)
FORMS = [
    "IMAD R3, R4, R5, R6", "IMAD.MOV.U32 R3, RZ, RZ, R6", "IMAD.SHL.U32 R3, R4, 0x4, RZ",
    "IMAD.IADD R3, R4, 0x1, -R6", "IMAD R3, R4, -0x3, R3", "IMAD.U32 R3, R4, c[0x0][0x10], R5",
    "IMAD.MOV R3, RZ, RZ, -R4", "IMUL R3, R4, R5", "IMAD R3, R4, UR5, R6",
    "IADD3 R3, R4, -R5, ~R6", "IADD3 R3, R4, 0x10, RZ", "IADD3 R3, R3, R4, R5", "IADD3 R3, -R4, UR5, RZ",
    "IADD3 R3, P0, R4, R5, R6", "IADD3 R3, P0, P1, R4, -R5, R6", "IADD3 R3, P2, -R4, R5, RZ", "IADD3 R3, P1, R4, 0x1, RZ",
    "IADD3 R3, PT, P0, R4, R5, -RZ", "IADD3.X R3, R4, R5, R6, P0, P1", "IADD3.X R3, R4, ~R5, RZ, P0, !PT",
    "IADD3.X R3, RZ, R5, RZ, P1, !PT", "IADD3.X R3, P2, R4, -R5, RZ, P0, !PT", "IADD3.X R3, R4, R5, -R6, PT, !P2",
    "VIADD R3, R4, 0xfffffff0", "VIADD R3, R4, UR5", "VIADD R3, R4, -R5",
    "MOV R3, R4", "MOV R3, 0x12", "MOV R3, c[0x0][0x14]", "MOV R3, UR5", "MOV32I R3, 0x3f800000",
    "LOP3.LUT R3, R4, R5, R6, 0x96, !PT", "LOP3.LUT R3, R4, 0xff, RZ, 0xc0, !PT", "LOP3.LUT R3, R4, UR5, RZ, 0x3c, !PT",
    "LOP3.LUT R3, R4, R5, R6, 0x1b, !PT", "LOP3.LUT R3, RZ, R5, RZ, 0x33, !PT", "LOP3.LUT R3, ~R4, R5, R6, 0xe8, !PT",
    "SEL R3, R4, R5, P1", "SEL R3, R4, R5, !P1", "SEL R3, R4, RZ, PT", "SEL R3, 0x1, R5, !PT",
    "SHF.R.U32.HI R3, RZ, 0x5, R6", "SHF.R.U32.HI R3, RZ, R5, R6", "SHF.L.U32 R3, R4, 0x3, RZ",
    "SHF.L.U32 R3, R4, R5, RZ", "SHF.L.W.U32.HI R3, R4, R5, R6", "SHF.R.S32.HI R3, RZ, 0x1f, R6",
    "SHF.R.S32.HI R3, RZ, R5, R6", "SHF.R.S64 R3, R4, R5, R6", "SHF.R.S64 R3, R4, 0x7, R6", "SHF.L.U64.HI R3, R4, R5, R6",
    "SHF.R.W.U32 R3, R4, R5, R6", "SHF.R.U64 R3, R4, R5, R6", "SHF.L.W.U32 R3, R4, 0x0, R6", "SHF.R.U32 R3, R4, 0x0, R6",
    "SHF.R.S32.HI R3, RZ, 0x0, R6", "SHF.L.U64.HI R3, R4, 0x21, R6",
    "ISETP.NE.AND P0, PT, R4, R5, PT", "ISETP.GE.U32.AND P0, P1, R4, 0x10, P2", "ISETP.LT.OR P0, P1, R4, R5, !P2",
    "ISETP.GT.XOR P3, PT, R4, R5, P2", "ISETP.LE.U32.AND P0, PT, R4, R5, PT", "ISETP.EQ.AND P2, P0, R4, RZ, P2",
    "ISETP.GE.AND P0, PT, R4, -0x1, !PT", "ISETP.LT.U32.OR P1, P0, R4, UR5, P1", "ISETP.NE.XOR P0, P1, R4, R5, P0",
]
GUARDS = ["", "@P1 ", "@!P2 ", "@P0 ", "@!PT "]


def _block(rng: np.random.Generator, threads: int = LANES) -> Block:
    const = np.frombuffer(rng.integers(0, 1 << 32, 16, dtype=np.uint64).astype(np.uint32).tobytes(), np.uint8).copy()
    b = Block((threads, 1, 1), (0, 0, 0), (1, 1, 1), 16, 0, {0: const}, GlobalMemory([]))
    small = rng.integers(0, 70, (256, LANES))  # shift amounts, and values equal more often
    b.R[:] = np.where(rng.random((256, LANES)) < 0.3, small, rng.integers(0, 1 << 32, (256, LANES))).astype(np.uint32)
    b.R[5, ::7] = b.R[4, ::7]  # some equal lanes for the comparisons
    b.UR[:] = rng.integers(0, 1 << 32, b.UR.shape).astype(np.uint32)
    b.P[:7] = rng.random((7, LANES)) < 0.5
    for i in (3, 4, 5, 6):  # taint: none, one for every lane, each lane's, or a flagged row of none
        how = rng.integers(0, 4)
        if how == 1:
            b.tainted["R"][i], b.taint_one["R"][i] = True, int(rng.integers(1, 8))
        elif how >= 2:
            b.tainted["R"][i], b.taint_one["R"][i] = True, None
            b.RT[i] = rng.integers(0, 8, LANES).astype(np.uint32) if how == 2 else 0
    for i in (0, 1, 2):
        how = rng.integers(0, 3)
        if how == 1:
            b.tainted["P"][i], b.taint_one["P"][i] = True, int(rng.integers(1, 8)) << 3
        elif how == 2:
            b.tainted["P"][i], b.taint_one["P"][i] = True, None
            b.PTT[i] = (rng.integers(0, 8, LANES) << 3).astype(np.uint32)
    return b


def _copy(b: Block) -> Block:
    c = _block(np.random.default_rng(0), b.n)
    for f in ("R", "UR", "P", "RT", "PTT", "URT"):
        getattr(c, f)[:] = getattr(b, f)
    c.const = {k: v.copy() for k, v in b.const.items()}
    for k in c.tainted:
        c.tainted[k][:] = b.tainted[k]
    for k in c.taint_one:
        c.taint_one[k][:] = b.taint_one[k]
    return c


def _state(b: Block) -> dict:
    """What an issue may change; a taint row is compared where it is read (no number stands for it)."""
    rt = [b.taint_one["R"][i] if b.taint_one["R"][i] is not None or not b.tainted["R"][i] else b.RT[i].tolist()
          for i in range(256)]
    pt = [b.taint_one["P"][i] if b.taint_one["P"][i] is not None or not b.tainted["P"][i] else b.PTT[i].tolist()
          for i in range(8)]
    return {"R": b.R.copy(), "P": b.P.copy(), "tainted": {k: list(v) for k, v in b.tainted.items()},
            "rt": rt, "pt": pt}


def _issuing(rng: np.random.Generator, b: Block) -> np.ndarray:
    return rng.random(LANES) < 0.8 if rng.random() < 0.5 else b.exists.copy() if rng.random() < 0.5 else np.ones(LANES, bool)


def _compare(a: Block, b: Block, what: str) -> None:
    want, got = _state(a), _state(b)
    for k in want:
        if isinstance(want[k], np.ndarray):
            bad = np.argwhere(want[k] != got[k])
            assert not bad.size, f"{what}: {k} differs at {bad[:4].tolist()}"
        else:
            assert want[k] == got[k], f"{what}: {k} differs"


@pytest.mark.parametrize("seed", range(12))
def test_every_form_gives_what_the_table_gives(seed):
    rng = np.random.default_rng(seed)
    table = table_for("sm_90")
    for text in FORMS:
        for guard in GUARDS:
            ins = decode_line(0x10, guard + text, 1)
            fn = table[ins.base]
            a = _block(rng, THREADS[seed % 2])
            b = _copy(a)
            S = _issuing(rng, a)
            iss = Issue(SimpleNamespace(block=a), ins, S.copy())
            on = int(np.count_nonzero(iss.on))
            fn(iss)
            form = alu_forms.plan(Issue(SimpleNamespace(block=b), ins, S.copy()), fn)
            assert form is not None, f"{text}: not planned"
            assert alu_forms.run(alu_forms.Trace([form], True), b, S.copy()) == [on]
            _compare(a, b, f"{guard}{text} (seed {seed})")


def _drawn(rng: np.random.Generator) -> str:
    """A guard and a form with its registers R3..R6 drawn afresh (not a move to itself, which changes
    nothing and is left to the table)."""
    while True:
        text = re.sub(r"\bR[3-6]\b", lambda m: f"R{rng.integers(3, 7)}", str(rng.choice(FORMS)))
        if not re.fullmatch(r"MOV (R\d), \1", text):
            return str(rng.choice(GUARDS)) + text


@pytest.mark.parametrize("seed", range(40))
def test_a_trace_gives_what_its_instructions_give_one_by_one(seed):
    """Up to a dozen forms in one call: each one reads what the ones before it wrote (registers,
    predicates its guard or SEL reads, taint), as the table's functions, one issue after another."""
    rng = np.random.default_rng(1000 + seed)
    table = table_for("sm_90")
    # the forms' registers (R3..R6) drawn afresh, so that one instruction's result is another's source
    texts = [_drawn(rng) for _ in range(int(rng.integers(2, 13)))]
    a = _block(rng, THREADS[seed % 2])
    b = _copy(a)
    S = _issuing(rng, a)
    ins = [decode_line(0x10 + 16 * j, t, 1) for j, t in enumerate(texts)]
    ons = []
    for i in ins:
        iss = Issue(SimpleNamespace(block=a), i, S)
        ons.append(int(np.count_nonzero(iss.on)))
        table[i.base](iss)
    forms = [alu_forms.plan(Issue(SimpleNamespace(block=b), i, S), table[i.base]) for i in ins]
    assert None not in forms, texts
    assert alu_forms.run(alu_forms.Trace(forms, True), b, S) == ons
    _compare(a, b, f"seed {seed}: {texts}")


@pytest.mark.parametrize("text", ["IMAD.WIDE R2, R4, 0x4, R2", "IMAD.HI.U32 R3, R4, R5, RZ", "IADD3 R3, UP0, R4, R5, RZ",
                                  "UIADD3.X UR3, UR4, UR5, URZ, UP0, !UPT", "LOP3.LUT P0, R3, R4, R5, RZ, 0xc0, !PT",
                                  "ISETP.GE.U32.EX.AND P0, PT, R4, R5, PT, P1", "VIADD.16x2 R3, R4, R5", "SEL R3, R4, R5, UP1",
                                  "MOV R3, R3", "S2R R3, SR_TID.X", "UIADD3 UR4, UR4, 0x1, URZ", "IMAD R3, |R4|, R5, R6",
                                  "FSEL R3, R4, R5, P1", "IADD3 RZ, R4, R5, R6"])
def test_other_forms_stay_with_the_table(text):
    """Forms the compiled module does not run (carries, wide results, predicate outputs, moves to
    themselves, uniform destinations...) are left to the table's function."""
    ins = decode_line(0x10, text, 1)
    b = _block(np.random.default_rng(1))
    assert alu_forms.plan(Issue(SimpleNamespace(block=b), ins, np.ones(LANES, bool)), table_for("sm_90")[ins.base]) is None


def test_a_tainted_uniform_register_goes_to_the_table():
    """A uniform register with data taint (rare) is read by the table's function, which carries it."""
    ins = decode_line(0x10, "VIADD R3, R4, UR5", 1)
    fn = table_for("sm_90")[ins.base]
    b = _block(np.random.default_rng(2))
    b.tainted["UR"][5] = True
    b.URT[5] = 1
    form = alu_forms.plan(Issue(SimpleNamespace(block=b), ins, np.ones(LANES, bool)), fn)
    before = b.R[3].copy()
    assert form is not None and alu_forms.run(alu_forms.Trace([form], True), b, np.ones(LANES, bool)) is None
    assert (b.R[3] == before).all()  # it changed nothing


def test_a_predicate_read_is_the_value_before_the_instruction_writes_it():
    """``ISETP.EQ.AND P2, P0, R4, RZ, P2`` combines the P2 it read into P0, not the P2 it has just
    written (the table's function combined the new one: P0 came out false in every lane)."""
    ins = decode_line(0x10, "ISETP.EQ.AND P2, P0, R4, RZ, P2", 1)
    rng = np.random.default_rng(3)
    fn = table_for("sm_90")[ins.base]
    for run in (fn, lambda iss: alu_forms.run(alu_forms.Trace([alu_forms.plan(iss, fn)], True), iss.b, iss.S)):
        b = _block(rng)
        b.R[4, ::2] = 0
        p2 = b.P[2].copy()
        run(Issue(SimpleNamespace(block=b), ins, np.ones(LANES, bool)))
        r = b.R[4] == 0
        assert (b.P[2] == (r & p2)).all() and (b.P[0] == (~r & p2)).all() and b.P[0].any()
