"""The advisor on an imported kernel: it works from every executed access (those whose addresses
come from data too), and what it claims for a padding is what the kernel does once that padding is
written into its declaration, compiled and executed again."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bankexplorer.advisor import advise
from bankexplorer.compiler import nvrtc
from bankexplorer.model.analysis import analyze
from bankexplorer.sass.launch import LaunchConfig
from bankexplorer.kernels.cuda_source import emulate
from bankexplorer.sass.to_pattern import kernel_pattern
from bankexplorer.sass.whatif import rerun_source

pytestmark = pytest.mark.skipif(not nvrtc.available(), reason="NVRTC / nvdisasm not installed")

KERNELS = Path(__file__).resolve().parents[1] / "resources" / "hardware" / "kernels"

# the column a warp reads is chosen by the data: all zeros makes every lane read column 0
BY_DATA = """\
__global__ void pick(const int *col, float *out)
{
    __shared__ float t[32][32];
    int x = threadIdx.x, y = threadIdx.y;
    t[y][x] = x + 32 * y;
    __syncthreads();
    out[y * 32 + x] = t[x][col[y * 32 + x]];
}
"""


def _shared_wavefronts(run) -> int:
    return sum(r.wavefronts or 0 for r in run.rows)


def _padding_claim_holds(src: str, cfg: LaunchConfig, path: str | None = None):
    run = emulate(src, cfg, path=path)
    pat = kernel_pattern(run, src, "k", cfg=cfg, path=path)
    adv = advise(pat, families=("padding",))
    # the advisor starts from what the kernel executed: the emulator's count, access for access
    assert adv.current.wavefronts == _shared_wavefronts(run) == analyze(pat, detail=False).totals().wavefronts
    best = adv.best
    assert best.conflict_free and best.wavefronts < adv.current.wavefronts
    padded = best.candidate.apply(pat)
    text, rewrites = rerun_source(src, pat.kernel.compiled_arrays, padded.arrays)
    assert rewrites, "the best padding was not written into the source"
    again = emulate(text, cfg, path=path)
    # the claim, checked on the code the compiler makes of the padded source
    assert _shared_wavefronts(again) == best.wavefronts
    return adv, run, again


def test_transpose_padding_claim_holds_when_compiled():
    path = KERNELS / "transpose_naive.cu"
    adv, run, again = _padding_claim_holds(path.read_text(), LaunchConfig((32, 8, 1)), str(path))
    assert adv.best.label.startswith("padding 1")


def test_the_advisor_sees_accesses_whose_addresses_come_from_data():
    zeros = np.zeros(32 * 32, np.int32).tobytes()
    cfg = LaunchConfig((32, 32, 1), arrays={"col": zeros})
    adv, run, again = _padding_claim_holds(BY_DATA, cfg)
    # the data decides the read: the run says so, and the conflict the advisor removes is that one
    assert any("depend on the data in `col`" in m for _line, m in run.notes)
    assert adv.current.wavefronts > 32 * 32  # a 32-way conflict on each warp's read
    # with other data (every lane its own column, the diagonal) the same layout is conflict-free,
    # so the advice is about the data given, as the run says
    diag = np.tile(np.arange(32, dtype=np.int32), 32).tobytes()
    other = emulate(BY_DATA, LaunchConfig((32, 32, 1), arrays={"col": diag}))
    assert _shared_wavefronts(other) < adv.current.wavefronts
