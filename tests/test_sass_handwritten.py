"""Opcode families on hand-written SASS, with no compiler: text in nvdisasm's format goes straight
into decode and one block's execution (a Program and a Block built here, the seam that
``kernels.cuda_source.emulate`` fills from a cubin), and what each instruction did is checked against numpy
and the bank rule: integer and float arithmetic, predicates and guards, shared loads and stores with
their wavefronts, a divergent branch that reconverges, a counted loop. These run where NVRTC is not
installed; ``test_emulator_semantics.py`` checks the same families on what NVRTC makes of CUDA."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bankexplorer.sass.decode import decode
from bankexplorer.sass.run import Run
from bankexplorer.sass.state import Block, Buffer, GlobalMemory

OUT_BASE = 0x7F00_0000_0000  # where the one pointer parameter's buffer sits
OUT_PARAM = 0x210  # its place in constant bank 0 (sm_90's first kernel parameter)
#: the prologue nvcc writes before a global store: the memory descriptor and the pointer
STORE_PROLOGUE = ["ULDC.64 UR6, c[0x0][0x208]", "LDC.64 R8, c[0x0][0x210]", "IMAD.WIDE R8, R0, 0x4, R8"]


def assemble(lines: list[str], name: str = "handwritten") -> str:
    """Lines of SASS (labels as ``.L_x_0:``) as ``nvdisasm -gi`` prints a kernel's section."""
    out = [f'\t.section\t.text.{name},"ax",@progbits',
           f'        .other          {name},@"STO_CUDA_ENTRY STV_DEFAULT"', f"{name}:"]
    pc = 0
    for ln in lines:
        if ln.endswith(":"):
            out.append(ln)
            continue
        out.append(f"        /*{pc:04x}*/                   {ln} ;")
        pc += 16
    return "\n".join(out) + "\n"


class Ran:
    """One block's run of hand-written SASS: per instruction (by its text) the counts, and the
    buffer the kernel stored to."""

    def __init__(self, lines: list[str], threads: int = 32, shared_bytes: int = 4096):
        self.program = decode(assemble(lines))
        bank0 = np.zeros(0x400, np.uint8)
        bank0[OUT_PARAM:OUT_PARAM + 8] = np.frombuffer(OUT_BASE.to_bytes(8, "little"), np.uint8)
        self.out = Buffer("out", OUT_BASE, np.zeros(threads * 4, np.uint8))
        block = Block((threads, 1, 1), (0, 0, 0), (1, 1, 1), shared_bytes, 0, {0: bank0}, GlobalMemory([self.out]))
        self.run = Run(self.program, block, "sm_90", ["out"])
        self.run.execute()
        rec, acc = self.run.record, self.run.record.accesses()
        self.wavefronts = np.zeros(len(self.program.instructions), np.int64)
        np.add.at(self.wavefronts, acc.index, acc.wavefronts)
        self.texts = [ins.text for ins in self.program.instructions]
        self.executed, self.threads, self.pred_on = rec.executed, rec.threads, rec.pred_on

    def at(self, text: str) -> int:
        """The index of the (first) instruction printed as ``text``."""
        return self.texts.index(text)

    def counts(self, text: str) -> tuple[int, int, int]:
        """(executed warp instructions, threads, predicated-on threads) of one instruction."""
        i = self.at(text)
        return int(self.executed[i]), int(self.threads[i]), int(self.pred_on[i])

    def words(self, dtype=np.int32) -> np.ndarray:
        return self.out.data.view(dtype)


def test_integer_arithmetic_as_numpy_computes_it():
    r = Ran(["S2R R0, SR_TID.X",
             "IMAD R1, R0, 0x3, 0x7",  # 3t + 7
             "LOP3.LUT R2, R1, 0xf, RZ, 0xc0, !PT",  # (3t + 7) & 15
             "SHF.L.U32 R3, R0, 0x2, RZ",  # t << 2
             "IADD3 R4, R1, -R2, R3",  # (3t + 7) - ((3t + 7) & 15) + 4t
             "IMAD.HI.U32 R5, R4, 0x55555556, RZ",  # the high word of a product: R4 / 3
             "IADD3 R4, R4, R5, RZ",
             *STORE_PROLOGUE, "STG.E desc[UR6][R8.64], R4", "EXIT"])
    t = np.arange(32, dtype=np.int64)
    a = 3 * t + 7
    b = a - (a & 15) + 4 * t
    want = b + (b * 0x55555556 >> 32)
    assert r.words().tolist() == want.tolist()
    assert r.counts("IMAD R1, R0, 0x3, 0x7") == (1, 32, 32)


def test_float_arithmetic_rounds_as_float32():
    r = Ran(["S2R R0, SR_TID.X",
             "I2FP.F32.U32 R1, R0",  # float(t)
             "FMUL R2, R1, 0.10000000149011611938",  # t * 0.1f
             "FFMA R3, R2, R2, -1",  # (t * 0.1f)^2 - 1, one rounding
             "FADD R4, R3, R1",
             *STORE_PROLOGUE, "STG.E desc[UR6][R8.64], R4", "EXIT"])
    t = np.arange(32, dtype=np.float32)
    x = t * np.float32(0.1)
    fma = (x.astype(np.float64) * x.astype(np.float64) - 1).astype(np.float32)  # exact product, one rounding
    assert r.words(np.float32).tolist() == (fma + t).tolist()


def test_a_predicate_guards_lanes_and_sel_picks_by_it():
    r = Ran(["S2R R0, SR_TID.X",
             "MOV R1, 0x64",
             "ISETP.GE.U32.AND P0, PT, R0, 0xc, PT",  # t >= 12
             "LOP3.LUT P1, RZ, R0, 0x1, RZ, 0xc0, !PT",  # t odd
             "@P0 IADD3 R1, R1, 0x1, RZ",  # 20 lanes
             "@!P1 IADD3 R1, R1, 0x10, RZ",  # even lanes: 16
             "SEL R2, 0x3e8, RZ, P1",  # 1000 for odd lanes
             "IADD3 R1, R1, R2, RZ",
             *STORE_PROLOGUE, "STG.E desc[UR6][R8.64], R1", "EXIT"])
    t = np.arange(32)
    want = 100 + (t >= 12) + 16 * (t % 2 == 0) + 1000 * (t % 2 == 1)
    assert r.words().tolist() == want.tolist()
    # a guarded instruction is executed by the warp and counted for every active thread; the
    # predicated-on count is the lanes whose guard held
    assert r.counts("@P0 IADD3 R1, R1, 0x1, RZ") == (1, 32, 20)
    assert r.counts("@!P1 IADD3 R1, R1, 0x10, RZ") == (1, 32, 16)


@pytest.mark.parametrize("stride", [1, 2, 3, 4, 8, 16, 32, 33])
def test_shared_store_and_load_take_as_many_wavefronts_as_lanes_share_a_bank(stride):
    """Word ``stride * t``: the lanes on one of the 32 banks (4-byte words) are gcd(stride, 32)."""
    r = Ran(["S2R R0, SR_TID.X",
             f"IMAD R3, R0, {hex(4 * stride)}, RZ",
             "IMAD R4, R0, 0x5, 0x1",
             "STS [R3], R4",
             "BAR.SYNC.DEFER_BLOCKING 0x0",
             "LDS R5, [R3]",
             *STORE_PROLOGUE, "STG.E desc[UR6][R8.64], R5", "EXIT"], shared_bytes=4 * 33 * 32)
    want = math.gcd(stride, 32)
    assert int(r.wavefronts[r.at("STS [R3], R4")]) == want
    assert int(r.wavefronts[r.at("LDS R5, [R3]")]) == want
    assert r.words().tolist() == (5 * np.arange(32) + 1).tolist()  # what was stored is read back
    assert r.counts("LDS R5, [R3]") == (1, 32, 32)


def test_a_broadcast_load_and_a_wide_load_of_consecutive_words():
    r = Ran(["S2R R0, SR_TID.X",
             "IMAD.SHL.U32 R3, R0, 0x4, RZ",
             "STS [R3], R0",
             "IMAD.SHL.U32 R6, R0, 0x10, RZ",
             "BAR.SYNC.DEFER_BLOCKING 0x0",
             "LDS R5, [RZ+0x1c]",  # every lane word 7: one wavefront
             "LDS.128 R12, [R6]",  # 16 bytes a lane, 512 bytes: four wavefronts of 128 bytes
             "IADD3 R5, R5, R12, R15",
             *STORE_PROLOGUE, "STG.E desc[UR6][R8.64], R5", "EXIT"], shared_bytes=2048)
    assert int(r.wavefronts[r.at("LDS R5, [RZ+0x1c]")]) == 1
    assert int(r.wavefronts[r.at("LDS.128 R12, [R6]")]) == 4
    t = np.arange(32)
    shared = np.zeros(512, np.int64)
    shared[:32] = t
    assert r.words().tolist() == (7 + shared[4 * t] + shared[4 * t + 3]).tolist()


def test_a_divergent_branch_runs_each_side_on_its_lanes_and_reconverges():
    r = Ran(["S2R R0, SR_TID.X",
             "MOV R1, 0x5",
             "ISETP.GE.U32.AND P0, PT, R0, 0x8, PT",
             "BSSY B0, `(.L_x_1)",
             "@P0 BRA `(.L_x_0)",
             "IADD3 R1, R1, 0x10, RZ",  # lanes 0..7 only
             ".L_x_0:",
             "BSYNC B0",
             ".L_x_1:",
             "IADD3 R1, R1, R0, RZ",  # every lane again, as one warp instruction
             *STORE_PROLOGUE, "STG.E desc[UR6][R8.64], R1", "EXIT"])
    t = np.arange(32)
    assert r.words().tolist() == (5 + 16 * (t < 8) + t).tolist()
    assert r.counts("@P0 BRA `(.L_x_0)") == (1, 32, 24)
    assert r.counts("IADD3 R1, R1, 0x10, RZ") == (1, 8, 8)
    assert r.counts("IADD3 R1, R1, R0, RZ") == (1, 32, 32)


def test_a_counted_loop_runs_its_body_once_a_trip():
    r = Ran(["S2R R0, SR_TID.X",
             "MOV R1, RZ",
             "MOV R2, RZ",
             ".L_x_0:",
             "IADD3 R2, R2, R0, RZ",
             "IADD3 R1, R1, 0x1, RZ",
             "ISETP.NE.AND P0, PT, R1, 0x5, PT",
             "@P0 BRA `(.L_x_0)",
             *STORE_PROLOGUE, "STG.E desc[UR6][R8.64], R2", "EXIT"], threads=64)
    assert r.words().tolist() == (5 * np.arange(64)).tolist()
    assert r.counts("IADD3 R2, R2, R0, RZ") == (2 * 5, 64 * 5, 64 * 5)  # two warps, five trips
    assert r.counts("@P0 BRA `(.L_x_0)") == (10, 320, 256)  # the last trip's branch is not taken


def test_an_opcode_without_semantics_is_an_error_naming_it():
    from bankexplorer.sass.issue import EmulationError

    with pytest.raises(EmulationError, match=r"FROB R1, R0.*\(FROB\) is not modelled"):
        Ran(["S2R R0, SR_TID.X", "FROB R1, R0", "EXIT"])


def test_the_opcode_facts_name_exactly_the_control_opcodes_registered():
    """One table of opcode facts: the control-flow opcodes are those ops/control.py registers, and
    every fact set names only opcodes the table executes."""
    from bankexplorer.sass import opcode
    from bankexplorer.sass.ops import table_for

    table = table_for("sm_90")
    control = {n for n, fn in table.items() if fn.__module__.endswith(".ops.control")}
    assert control == set(opcode.CONTROL_OPCODES)
    assert opcode.SELF_ADVANCING <= opcode.CONTROL_OPCODES
    for facts in (opcode.SHARED_OPCODES, opcode.WRITE_OPCODES, opcode.BRANCH_OPCODES):
        assert facts <= set(table), facts - set(table)
