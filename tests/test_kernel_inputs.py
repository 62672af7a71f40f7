"""Each batch's input recipe (``resources/hardware/kernels/BATCH/make_inputs.py``) makes again, byte
for byte, the ``.npy`` files the kernels were measured with: the data in the repository can be
traced to its seed, and a recipe edited by mistake shows up here."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import kernel_inputs  # noqa: E402

RECIPES = kernel_inputs.recipes()
#: batches whose arrays their own scripts make (each README says how), not yet a make(out) recipe
OWN_SCRIPTS = {"cute", "merge_pairs", "triton", "xwarp_atomics"}


def test_every_batch_with_inputs_has_its_recipe_beside_them():
    batches_with_npy = {p.parent.relative_to(kernel_inputs.KERNELS).as_posix()
                        for p in kernel_inputs.KERNELS.rglob("*.npy")}
    # a recipe may write a sub-folder of its batch (extra20 writes extra20/yield/)
    orphans = sorted(b for b in batches_with_npy if not any(b == r or b.startswith(r + "/") for r in RECIPES)
                     and b.split("/")[0] not in OWN_SCRIPTS)
    assert not orphans, f"input arrays without a make_inputs.py beside them: {orphans}"
    assert len(RECIPES) >= 10


@pytest.mark.parametrize("batch", sorted(RECIPES))
def test_recipe_makes_the_committed_arrays_again(batch, tmp_path):
    folder = RECIPES[batch].parent
    kernel_inputs.load_recipe(RECIPES[batch]).make(tmp_path)
    made = {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.npy")}
    assert made, f"{batch}: the recipe wrote no arrays"
    committed = {p.relative_to(folder).as_posix() for p in folder.rglob("*.npy")}
    # a nested folder with its own recipe is that recipe's to check
    committed = {c for c in committed if not any((folder / c).is_relative_to(RECIPES[b].parent)
                                                 for b in RECIPES if b.startswith(batch + "/"))}
    assert made == committed, f"{batch}: made but not committed {sorted(made - committed)[:5]}, " \
                              f"committed but not made {sorted(committed - made)[:5]}"
    differ = [n for n in sorted(made) if (tmp_path / n).read_bytes() != (folder / n).read_bytes()]
    assert not differ, f"{batch}: {len(differ)} arrays differ from the committed ones, first {differ[:3]}"


def test_save_refuses_an_array_the_launcher_cannot_take(tmp_path):
    import numpy as np

    with pytest.raises(ValueError, match=r"big: float64 .*the launcher takes"):
        kernel_inputs.save(tmp_path, {"big": np.zeros(4, np.float64)})
