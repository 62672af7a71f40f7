"""GPU presets and the CUDA occupancy rules: how many blocks of a kernel fit on one SM.

The rules follow ``cuda_occupancy.h`` (``cudaOccMaxActiveBlocksPerMultiprocessor``), so the
numbers here are the ones the CUDA occupancy API and Nsight Compute report:

* **warps**: ``max_warps_per_sm // ceil(threads / 32)``;
* **blocks**: the architecture's resident-block limit;
* **shared memory**: every block is charged its arrays *plus* the driver's per-block reservation
  (1 KB on sm_80 and later), rounded up to the allocation granularity (256 B on sm_70, 128 B
  from sm_80); ``shared_per_sm // charged``. A block above the per-block limit (48 KB by
  default, the opt-in maximum with ``cudaFuncAttributeMaxDynamicSharedMemorySize``) does not
  launch at all: 0 blocks;
* **registers** (only when a register count is given): registers are allocated per warp in
  units of 256, in each of the 4 sub-partitions of the SM.

The shared memory per SM is the largest carveout (the driver's default when the kernel needs
it); a smaller preferred carveout is not modelled.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..model.errors import BankExplorerError
from ..model.hardware import H100_SHARED_PER_BLOCK, STATIC_SHARED_PER_BLOCK

KB = 1024
DEFAULT_BLOCK_LIMIT = STATIC_SHARED_PER_BLOCK  # static __shared__ arrays and the default dynamic limit


@dataclass(frozen=True)
class GPU:
    """The per-SM limits that decide occupancy (CUDA C Programming Guide, compute capabilities)."""

    key: str
    name: str
    sm: str  # compute capability, e.g. "9.0"
    shared_per_sm: int  # bytes, largest carveout
    shared_per_block: int  # bytes, opt-in maximum
    reserved_per_block: int  # bytes the driver reserves for every block (sm_80+: 1 KB)
    granularity: int  # shared memory allocation unit, bytes
    max_blocks: int  # resident blocks per SM
    max_threads: int  # resident threads per SM
    registers_per_sm: int = 64 * KB
    register_unit: int = 256  # registers, allocated per warp
    max_registers_per_thread: int = 255
    max_threads_per_block: int = 1024
    warp_size: int = 32
    sub_partitions: int = 4

    @property
    def max_warps(self) -> int:
        return self.max_threads // self.warp_size

    def validate(self) -> list[tuple[str, str]]:
        """Problems with a (custom) GPU, as (field, message)."""
        p = []
        for f in ("shared_per_sm", "shared_per_block", "granularity", "max_blocks", "max_threads", "registers_per_sm"):
            if not isinstance(getattr(self, f), int) or getattr(self, f) < 1:
                p.append((f, "must be a positive integer"))
        if self.reserved_per_block < 0:
            p.append(("reserved_per_block", "must be 0 or more"))
        if not p and self.shared_per_block > self.shared_per_sm:
            p.append(("shared_per_block", "cannot exceed the shared memory per SM"))
        if not p and self.max_threads % self.warp_size:
            p.append(("max_threads", f"must be a multiple of the warp size ({self.warp_size})"))
        return p

    def with_values(self, **kw) -> "GPU":
        g = replace(self, **kw)
        problems = g.validate()
        if problems:
            raise BankExplorerError(problems[0][1], f"gpu.{problems[0][0]}")
        return g


GPUS: dict[str, GPU] = {
    g.key: g
    for g in (
        GPU("v100", "Tesla V100 (sm_70)", "7.0", 96 * KB, 96 * KB, 0, 256, 32, 2048),
        GPU("a100", "A100 (sm_80)", "8.0", 164 * KB, 163 * KB, 1 * KB, 128, 32, 2048),
        GPU("h100", "H100 (sm_90)", "9.0", 228 * KB, H100_SHARED_PER_BLOCK, 1 * KB, 128, 32, 2048),
        GPU("rtx4090", "GeForce RTX 4090 (sm_89)", "8.9", 100 * KB, 99 * KB, 1 * KB, 128, 24, 1536),
    )
}
#: the starting point of the "custom" entry: H100's numbers, meant to be edited
CUSTOM = replace(GPUS["h100"], key="custom", name="Custom")
DEFAULT_GPU = "h100"


def gpu(key: str) -> GPU:
    try:
        return GPUS[key] if key != "custom" else CUSTOM
    except KeyError:
        raise BankExplorerError(f"unknown GPU {key!r} (known: {', '.join(list(GPUS) + ['custom'])})") from None


@dataclass(frozen=True)
class Occupancy:
    """Resident blocks per SM and which limit decides it."""

    blocks: int  # resident blocks per SM (0: the block cannot launch)
    warps: int  # resident warps per SM
    occupancy: float  # resident warps / max warps
    by_warps: int
    by_blocks: int
    by_shared: int
    by_registers: int | None
    shared_charged: int  # bytes charged per block: arrays + reservation, rounded up
    limiter: str  # "warps", "blocks", "shared memory", "registers" (joined by " and " on ties)
    note: str = ""  # why a block cannot launch, or what it needs (opt-in)


def occupancy(g: GPU, threads: int, shared_bytes: int, registers: int | None = None, opt_in: bool = True) -> Occupancy:
    """Blocks of ``threads`` threads using ``shared_bytes`` of shared memory that fit on one SM."""
    if not 1 <= threads <= g.max_threads_per_block:
        raise BankExplorerError(f"a block has 1 to {g.max_threads_per_block} threads, got {threads}")
    if shared_bytes < 0:
        raise BankExplorerError("shared memory per block must be 0 or more")
    if registers is not None and not 0 <= registers <= g.max_registers_per_thread:
        raise BankExplorerError(f"registers per thread must be from 0 to {g.max_registers_per_thread}")
    warps_per_block = -(-threads // g.warp_size)
    by_warps = g.max_warps // warps_per_block
    by_blocks = g.max_blocks

    charged = -(-(shared_bytes + g.reserved_per_block) // g.granularity) * g.granularity
    limit = g.shared_per_block if opt_in else min(DEFAULT_BLOCK_LIMIT, g.shared_per_block)
    note = ""
    if charged > limit + g.reserved_per_block:
        by_shared = 0
        note = (f"{shared_bytes:,} bytes of shared memory is more than one block may use "
                f"({limit:,} bytes{' with opt-in' if opt_in else ' without opt-in'})")
    else:
        by_shared = g.shared_per_sm // charged if charged else 1 << 30
        if shared_bytes > DEFAULT_BLOCK_LIMIT:
            note = "over 48 KB: needs dynamic shared memory and cudaFuncAttributeMaxDynamicSharedMemorySize"

    by_regs = None
    if registers:
        per_warp = -(-registers * g.warp_size // g.register_unit) * g.register_unit
        warps_in_sub = (g.registers_per_sm // g.sub_partitions) // per_warp
        by_regs = (warps_in_sub * g.sub_partitions) // warps_per_block
        if per_warp * -(-warps_per_block // g.sub_partitions) * g.sub_partitions > g.registers_per_sm:
            by_regs = 0
            note = note or f"{registers} registers x {threads} threads do not fit in one SM's register file"

    limits = {"warps": by_warps, "blocks": by_blocks, "shared memory": by_shared}
    if by_regs is not None:
        limits["registers"] = by_regs
    blocks = min(limits.values())
    limiter = " and ".join(k for k, v in limits.items() if v == blocks)
    return Occupancy(
        blocks=blocks,
        warps=blocks * warps_per_block,
        occupancy=blocks * warps_per_block / g.max_warps,
        by_warps=by_warps,
        by_blocks=by_blocks,
        by_shared=by_shared,
        by_registers=by_regs,
        shared_charged=charged,
        limiter=limiter,
        note=note,
    )
