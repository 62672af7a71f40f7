"""The hardware: bank geometry, presets, and the rules that split a warp request into wavefronts.

Every rule here was checked against the H100 measurements bundled in
``resources/hardware/h100_shared_wavefronts.jsonl`` (Nsight Compute wavefront counters); where
a document says otherwise, the measurement wins. Each rule names its probe family and its score on
the part of it set aside (``resources/hardware/README.md``, "Probe discipline"); the rules written
from the 1,235 rows were held to ``h100_verification.jsonl`` afterwards: 590 cases measured once
the rules existed, every one exact but 23 contended compare-and-swap loops (the lower bound below).
In short, for the NVIDIA sm_70-sm_90 preset:

* A request is cut into **phases** (groups of lanes served together). 1/2/4-byte loads,
  stores and atomics are one phase for the whole warp. 8-byte accesses (atomics included) are
  one phase per half-warp and 16-byte accesses one per quarter-warp; a *load* of 8 or 16 bytes
  through a shared-window address (``LDS``) gets twice as many lanes per phase when, for every
  active lane ``i``, lane ``i^1`` is inactive or reads the same address, or the same holds for
  ``i^2`` (family ``merge_pairs``, 176 loads, held-out half 87/87: :func:`_pairs_share`). Stores never
  merge, nor do loads through a generic address (``LD``, measured in
  ``resources/hardware/h100_verification.jsonl``). This is what the hardware counter
  (``l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld``) counts; Nsight Compute's *source page*
  counts a merged phase that has a bank conflict as its two phases apart (more wavefronts than
  the hardware served: ``resources/hardware/kernels/extra17/README.md``, the two counters side by
  side in ``h100_lds_merge_counters.jsonl``). The model counts what the hardware serves; the
  per-SASS export, which reproduces the source page, also gives the page's figure
  (:func:`source_page_cost`) and says where the two differ. ``ldmatrix`` and ``stmatrix`` are one phase
  per 8x8 matrix (lanes 8m..8m+7 give its eight 16-byte rows).
* Within a phase each bank delivers one **word** per wavefront: the phase costs as many
  wavefronts as the most distinct words any one bank must deliver. Lanes on the same word
  share it (broadcast), for stores too. Atomics are the exception: every active lane is an
  access of its own, so lanes on one address still serialize.
* Phases with no active lane cost nothing.
* Compare-and-swap (``ATOMS.CAS``) makes **two passes** over the banks (family: ``atomics/``; held
  to the verification run's CAS rows), so it costs twice the
  wavefronts of the same addresses as an atomic add. Atomics the hardware has no instruction for
  (``float`` add, 64-bit add/min/max/and/or/xor) are compiled to a loop of a load and a
  ``ATOMS.CAST.SPIN`` compare-and-swap; one uncontended iteration costs like a CAS, and lanes that
  contend for one address make the loop retry (see :data:`NATIVE_ATOMIC_OPS`).
* **Compare-and-swap loops** (``ATOMS.CAST.SPIN``) serve one lane per bank slot per iteration, the
  lowest remaining lane (the others' compare fails and they retry): the loop runs as many times as the busiest slot of a phase
  has lanes, each iteration costs two wavefronts per phase that still has lanes (which adds up to the
  atomic count above, doubled), and each iteration reloads the remaining lanes' words with an
  ``LDS`` whose ideal is any load's (Nsight's source page gives the loop's ``LDS`` row its own
  ideal: a conflict-free loop's reloads are no bank conflict; the engine's ``_cas_loops``, lane by lane in ``reference.reference_cas_loop``; measured in ``resources/hardware/atomics/`` and
  ``h100_verification.jsonl``). 64-bit loops whose lanes share one address retried more often than
  this in some runs (64 to 96 wavefronts for 32 lanes); the model gives the lower bound and says so.

What nvcc makes of a source atomic (measured in ``resources/hardware/atomics/MEASURED.md``):

* ``atomicAdd(p, 1)`` with the result unused becomes ``ATOMS.POPC.INC``: lanes on one word are
  merged (a population count), so it costs like a load: the most distinct words in one bank
  (op ``popc_inc``).
* An associative atomic (add, sub, and, or, xor, min, max) on an address the compiler proves to be
  the same for the whole warp is **warp-aggregated** (``REDUX``/``POPC``, then one lane's
  ``ATOMS``): one lane per warp (:func:`aggregated_lanes`). ``atomicInc`` and float add are not.

Because accesses are naturally aligned, a lane's ``width``-byte access covers whole banks of one
128-byte row, so "distinct words per bank" equals "distinct *units* per *slot*", where a unit is an
aligned ``max(width, bank_width)``-byte block and a slot is the unit's position in the row. The
engine counts units, which keeps the arithmetic to one integer per lane.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

KINDS = ("load", "store", "atomic", "ldmatrix", "stmatrix")
MATRIX_KINDS = ("ldmatrix", "stmatrix")
WIDTHS = (1, 2, 4, 8, 16)
KIND_CODE = {k: i for i, k in enumerate(KINDS)}
#: engine-only kinds: a load through a generic address (no phase merging) and an atomic whose
#: bank passes are doubled (compare-and-swap, and the CAS loops the compiler emits)
KIND_CODE["load_generic"] = len(KINDS)
KIND_CODE["atomic_cas"] = len(KINDS) + 1
#: a compiler-made compare-and-swap loop (LDS + ATOMS.CAST.SPIN), see the module notes
KIND_CODE["atomic_cas_loop"] = len(KINDS) + 2
#: ATOMS.POPC.INC: an atomic whose lanes on one word merge, so it counts words like a load
KIND_CODE["atomic_merged"] = len(KINDS) + 3
#: kinds whose lanes on one address still count once each
ATOMIC_CODES = (KIND_CODE["atomic"], KIND_CODE["atomic_cas"], KIND_CODE["atomic_cas_loop"])

SPACES = ("shared", "generic")
ATOMIC_OPS = ("add", "fadd", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas", "popc_inc")
#: ops the compiler may aggregate over a warp when every lane has the same address
AGGREGATABLE_OPS = frozenset({"add", "min", "max", "and", "or", "xor"})
#: what ``ATOMS`` does natively on sm_70-sm_90, per width (measured on an H100: every other
#: op/width compiles to a load plus an ``ATOMS.CAST.SPIN`` compare-and-swap loop)
NATIVE_ATOMIC_OPS = {
    4: frozenset({"add", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas", "popc_inc"}),
    8: frozenset({"exch", "cas"}),
}


def atomic_is_native(op: str, width: int) -> bool:
    return op in NATIVE_ATOMIC_OPS.get(width, frozenset())


def kind_code(kind: str, width: int, space: str = "shared", op: str = "add") -> int:
    """The engine's code for an instruction: the user's kind refined by what changes the rules."""
    if kind == "load" and space == "generic":
        return KIND_CODE["load_generic"]
    if kind == "atomic":
        if op == "popc_inc" and width == 4:
            return KIND_CODE["atomic_merged"]
        if not atomic_is_native(op, width):
            return KIND_CODE["atomic_cas_loop"]
        if op == "cas":
            return KIND_CODE["atomic_cas"]
    return KIND_CODE.get(kind, 0)


def code_for_ptx(kind: str, width: int, ptx: str = "") -> int:
    """The engine code of a measured row (``ptx`` as in the hardware data: ``ld.v2.u32`` is a
    generic-address load, ``atom.shared.cas.b32`` a compare-and-swap, ``atom.shared.add.f32``
    a float add)."""
    parts = ptx.split(".")
    space = "shared" if "shared" in parts or not ptx else "generic"
    op = "add"
    if kind == "atomic" and len(parts) >= 4:
        op = parts[2]
        if op == "add" and parts[-1].startswith("f"):
            op = "fadd"
    return kind_code(kind, width, space, op)


def passes(kind: np.ndarray) -> np.ndarray:
    """How many times an instruction's phases go through the banks (CAS: compare, then swap)."""
    kind = np.asarray(kind)
    return np.where((kind == KIND_CODE["atomic_cas"]) | (kind == KIND_CODE["atomic_cas_loop"]), 2, 1)


def aggregated_lanes(active: np.ndarray) -> np.ndarray:
    """A warp-aggregated atomic: only the first active lane of each warp issues the ATOMS."""
    active = np.asarray(active, bool)
    first = np.zeros_like(active)
    rows = np.flatnonzero(active.any(axis=-1))
    first[rows, np.argmax(active[rows], axis=-1)] = True
    return first


#: SM cycles, from resources/hardware/h100_timing.txt (32-bit loads, one warp / 32 warps)
LATENCY_BASE_CYCLES = 30.0
ISSUE_CYCLES_1WARP = 5.88


@dataclass(frozen=True)
class Hardware:
    """Bank geometry plus which rule set applies (``rules``: "nvidia" or "simple")."""

    name: str = "NVIDIA sm_70–sm_90"
    preset: str = "nvidia-sm70-sm90"
    banks: int = 32
    bank_width: int = 4
    warp_size: int = 32
    rules: str = "nvidia"
    #: bytes of shared memory one block can address: an explicit address past it is an error of
    #: its instruction (228 KB on sm_90; the generic preset lets a file set its own)
    shared_bytes: int = 228 << 10

    @property
    def row_bytes(self) -> int:
        """Bytes one wavefront can move: every bank delivers one word."""
        return self.banks * self.bank_width

    def with_numbers(self, banks: int, bank_width: int, warp_size: int) -> "Hardware":
        return replace(self, banks=banks, bank_width=bank_width, warp_size=warp_size)

    def validate(self) -> list[tuple[str, str]]:
        problems = []
        if self.banks not in (1, 2, 4, 8, 16, 32, 64):
            problems.append(("banks", "must be a power of two from 1 to 64"))
        if self.bank_width not in (1, 2, 4, 8, 16):
            problems.append(("bank_width", "must be one of 1, 2, 4, 8, 16"))
        if self.warp_size not in (1, 2, 4, 8, 16, 32, 64):
            problems.append(("warp_size", "must be a power of two from 1 to 64"))
        if self.rules not in ("nvidia", "simple"):
            problems.append(("rules", "must be 'nvidia' or 'simple'"))
        return problems


#: the most shared memory one block may have on an H100 (sm_90), with the opt-in attribute; without
#: it, 48 KiB (the static limit). The NVIDIA preset's patterns are checked against these; the
#: occupancy advisor's H100 has them too.
H100_SHARED_PER_BLOCK = 227 << 10
STATIC_SHARED_PER_BLOCK = 48 << 10

NVIDIA_SM70_SM90 = Hardware()
KEPLER_8BYTE = Hardware(name="Kepler 8-byte bank mode", preset="kepler-8byte", bank_width=8, shared_bytes=48 << 10)
GENERIC = Hardware(name="Generic (set your own numbers)", preset="generic", rules="simple")

PRESETS: dict[str, Hardware] = {h.preset: h for h in (NVIDIA_SM70_SM90, KEPLER_8BYTE, GENERIC)}


#: the most shared memory the generic preset may be given (1 GiB: far beyond any GPU)
MAX_SHARED_BYTES = 1 << 30


def past_shared_memory(addr: np.ndarray, width: np.ndarray, served: np.ndarray, hw: Hardware) -> np.ndarray:
    """(N,) rows with a served lane whose access ends past the shared memory of ``hw``."""
    if addr.size == 0 or int(addr.max()) + 16 <= hw.shared_bytes:  # the common case: nothing near the end
        return np.zeros(addr.shape[0], bool)
    end = np.asarray(addr, np.int64) + np.asarray(width, np.int64)[:, None]
    return ((end > hw.shared_bytes) & served).any(axis=1)


def past_shared_memory_message(addr: np.ndarray, width: int, served: np.ndarray, hw: Hardware) -> str:
    """What :func:`past_shared_memory` found in one row (lane arrays of one instruction)."""
    end = np.asarray(addr, np.int64) + width
    lane = int(np.argmax((end > hw.shared_bytes) & served))
    return (f"lane {lane}: address {int(addr[lane]):,} is past the end of shared memory "
            f"({hw.shared_bytes:,} bytes on {hw.name})")


def unit_bytes(width: np.ndarray | int, hw: Hardware) -> np.ndarray:
    """Size of the aligned block that one lane's access occupies in the bank rows."""
    return np.maximum(np.asarray(width), hw.bank_width)


def lanes_per_phase(
    kind: np.ndarray, width: np.ndarray, addr: np.ndarray, active: np.ndarray, hw: Hardware, merge: bool = True
) -> np.ndarray:
    """How many consecutive lanes are served together, per instruction (shape (N,)).

    ``addr``/``active`` are (N, warp) so the 8/16-byte merge condition can look at neighbours.
    ``merge=False``: the phases before any merge (what :func:`source_page_cost` splits back into).
    """
    W = hw.warp_size
    kind = np.asarray(kind)
    width = np.asarray(width)
    u = unit_bytes(width, hw)
    per = np.clip(hw.row_bytes // u, 1, W).astype(np.int64)
    if hw.rules == "simple":
        # teaching preset: atomics are one phase for the whole warp, whatever their width
        per = np.where(np.isin(kind, ATOMIC_CODES), W, per)
    if hw.rules == "nvidia" and merge:
        cand = np.flatnonzero((width > hw.bank_width) & (kind == KIND_CODE["load"]))
        merge = np.zeros(kind.shape[0], bool)
        if cand.size:
            merge[cand] = _pairs_share(addr[cand], active[cand], W)
        per = np.where(merge, np.minimum(per * 2, W), per)
    matrix = (kind == KIND_CODE["ldmatrix"]) | (kind == KIND_CODE["stmatrix"])
    per = np.where(matrix, 8, per)
    return per


def _pairs_share(addr: np.ndarray, active: np.ndarray, W: int) -> np.ndarray:
    """For each instruction: does every active lane i agree with lane i^1 (or, for all lanes, i^2)
    whenever that partner is active? (The measured condition for merging 8/16-byte load phases.)

    Rule of the hardware counter, family ``merge_pairs`` (``h200_lds_merge_pairs.jsonl``: 176
    randomized ``LDS.64``/``LDS.128``, lanes paired by i^1 or i^2, the other partner on a word of
    the same bank slot or another, some lanes off, some pairs broken): 87 of 87 held-out rows and
    89 of 89 others. An exception once written here for 8-byte loads paired by i^2 whose i^1
    neighbours hold two words of one slot (fitted to one kernel's source-page count) got 21 of that
    family's 26 such rows wrong: the hardware merges them; the source page counts them as halves,
    which :func:`source_page_cost` already says."""
    N = addr.shape[0]
    out = np.zeros(N, dtype=bool)
    for x in (1, 2):
        if 2 * x > W:
            continue
        # lanes i and i^x sit at [.., 0, ..] and [.., 1, ..] of this view
        a = addr.reshape(N, W // (2 * x), 2, x)
        m = active.reshape(N, W // (2 * x), 2, x)
        out |= (~m[:, :, 0] | ~m[:, :, 1] | (a[:, :, 0] == a[:, :, 1])).reshape(N, -1).all(axis=1)
    return out


def source_page_cost(merged: np.ndarray, halves: np.ndarray) -> np.ndarray:
    """What Nsight Compute's source page counts for one merged phase of an 8/16-byte load (see the
    module's notes): the merged phase's wavefronts when it has no bank conflict (0 or 1), else its
    two halves' wavefronts counted apart (``halves``: their sum). The hardware counter counts the
    merged phase (``merged``). Measured side by side in ``h100_lds_merge_counters.jsonl``; over the
    883 measured per-SASS ``LDS.64``/``LDS.128`` instructions this reproduces 882 (the one missed:
    ``extra17/lds128_merge_probe`` case 10, two lanes of one word in two quarters).

    Rule of the source page, family ``merge_pairs`` (``h200_lds_merge_pairs.jsonl``, both counters of
    the same 176 loads): 86 of 87 held-out rows, 174 of 176 in all; the two missed are 16-byte
    loads with a quad whose lane 4j+3 is active and 4j+2 is not, where the page counts one more
    (as ``extra19/lds128_partial_quads_probe``: no rule found yet; the page gives 33 of the family's
    35 such loads by this rule)."""
    return np.where(merged <= 1, merged, halves)


def cas_spin_winners(addr: np.ndarray, active: np.ndarray, width: int, hw: "Hardware" = None) -> np.ndarray:
    """Which lanes of one ``ATOMS.CAST.SPIN`` (the compare-and-store of a compiler-made CAS loop)
    may store: the lowest active lane of each bank slot of each phase. Every other lane fails this
    pass, whatever the values, and retries (measured: float adds of zeros still retry).
    ``addr``/``active``: (..., warp) arrays; the result has their shape."""
    hw = hw or NVIDIA_SM70_SM90
    addr = np.asarray(addr, np.int64)
    active = np.asarray(active, bool)
    W = addr.shape[-1]
    u = max(width, hw.bank_width)
    per = int(np.clip(hw.row_bytes // u, 1, W))
    slots = max(hw.row_bytes // u, 1)
    phase = np.arange(W) // per
    key = np.where(active, phase * slots + (addr // u) % slots, -1)
    earlier = (key[..., :, None] == key[..., None, :]) & np.tri(W, k=-1, dtype=bool)  # [i, j]: j < i, same key
    return active & ~earlier.any(axis=-1)


def matrix_lane_active(kind: np.ndarray, matrices: np.ndarray, W: int) -> np.ndarray:
    """For ldmatrix/stmatrix: which lanes' addresses the hardware reads (8 per matrix)."""
    lanes = np.arange(W)[None, :]
    return lanes < 8 * np.asarray(matrices)[:, None]


def latency_cycles(wavefronts: np.ndarray) -> np.ndarray:
    """One warp, dependent loads: 30 cycles, plus 2 per extra wavefront less one (measured)."""
    w = np.asarray(wavefronts, dtype=np.float64)
    return np.where(w <= 1, LATENCY_BASE_CYCLES, LATENCY_BASE_CYCLES + 2 * w - 3)


def issue_cycles_one_warp(wavefronts: np.ndarray) -> np.ndarray:
    """One warp, independent loads: issue-bound at ~6 cycles, then 2N + 2 (measured)."""
    w = np.asarray(wavefronts, dtype=np.float64)
    return np.where(w <= 1, ISSUE_CYCLES_1WARP, np.maximum(ISSUE_CYCLES_1WARP, 2 * w + 2))
