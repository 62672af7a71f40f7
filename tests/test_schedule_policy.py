"""The scheduling policies (``sass/policy.py``): named, swappable, each scored on its probe family,
and per-instruction certainty in ``--sass-json`` (exact, data, or schedule naming what decided it)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bankexplorer.compiler import nvrtc
from bankexplorer.sass import policy

KERNELS = Path(__file__).resolve().parents[1] / "resources" / "hardware" / "kernels"
needs_nvrtc = pytest.mark.skipif(not nvrtc.available(), reason="NVRTC / nvdisasm not installed")


def test_policies_are_chosen_by_name_and_say_where_they_come_from():
    assert policy.schedule_named(None) is policy.DEFAULT and policy.DEFAULT.name == "h100"
    for s in policy.SCHEDULES.values():
        assert policy.schedule_named(s.name) is s
        for p in s.policies:
            assert p.name and p.family and p.score and p.detail
    with pytest.raises(ValueError, match="no scheduling policy named 'gpu'.*h100, simple"):
        policy.schedule_named("gpu")
    # what the measurements say: the YIELD rule does not fit all its probes, the merge rule does
    assert not policy.DEFAULT.yield_rule.exact and policy.DEFAULT.reconverge.exact and policy.DEFAULT.split.exact


def _run(name: str, schedule: str | None = None):
    from bankexplorer.sass.launch import LaunchConfig
    from bankexplorer.kernels.cuda_source import emulate

    truth = json.loads((KERNELS / Path(name).parent / "persass.json").read_text())[name]
    path = KERNELS / f"{name}.cu"
    src = path.read_text()
    arrays = {n: np.load(path.parent / f).tobytes() for n, f in re.findall(r"//\s*input:\s*(\w+)\s*=\s*(\S+)", src)}
    return truth, emulate(src, LaunchConfig(tuple(truth["block"]), arrays=arrays), path=str(path), schedule=schedule)


def _exact_counts(truth: dict, run) -> bool:
    return all((w["executed"], w["threads"]) == (g.executed, g.threads) for w, g in zip(truth["sass"], run.rows))


@needs_nvrtc
def test_the_yield_policy_scores_as_it_says():
    """The YIELD policy's score ("28 of 40 probes": every executed and thread count) on its family,
    ``extra20/yield``; the rule before the probes ("simple") fits 2 of them; and where the default
    misses, every count it misses is flagged schedule-dependent."""
    names = sorted(json.loads((KERNELS / "extra20" / "yield" / "persass.json").read_text()))
    assert len(names) == 40
    exact = simple = 0
    for n in names:
        truth, run = _run(n)
        ok = _exact_counts(truth, run)
        exact += ok
        if not ok:
            assert all(g.certainty == "schedule" for w, g in zip(truth["sass"], run.rows)
                       if (w["executed"], w["threads"]) != (g.executed, g.threads)), n
        simple += _exact_counts(*_run(n, "simple"))
    assert f"{exact} of {len(names)}" == policy.YIELD_SWITCHES.score.removesuffix(" probes")
    assert f"{simple} of {len(names)}" == policy.YIELD_IGNORED.score.removesuffix(" probes")


@needs_nvrtc
def test_a_kernel_without_yield_claims_its_counts(tmp_path):
    """No policy decided anything in straight code with a block barrier: every row exact or data."""
    truth, run = _run("merge_pairs/lds64_pairs_0")
    assert {r.certainty for r in run.rows} == {"exact", "data"} and not run.schedule_dependent
    truth, run = _run("merge_pairs/lds64_pairs_0", "simple")
    assert run.schedule == "simple"


@needs_nvrtc
def test_sass_json_says_how_certain_each_count_is(tmp_path):
    """``--sass-json``: ``certainty`` per row, ``schedule`` naming the policy or the warps' order,
    and the keys the checkers read (``timing_dependent``, ``data``) as before."""
    out = tmp_path / "cas.json"
    src = KERNELS / "extra20" / "cas_loop_float_max_u64_min_one_warp.cu"
    p = subprocess.run([sys.executable, "-m", "bankexplorer", "import-cuda", str(src), "--sass-json", str(out)],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    d = json.loads(out.read_text())
    assert d["schedule"] == "h100" and d["schedule_dependent"] is True and d["timing_dependent"] is True
    kinds = {r["certainty"] for r in d["sass"]}
    assert kinds == {"exact", "data", "schedule"}
    for r in d["sass"]:
        assert (r["certainty"] == "schedule") == ("schedule" in r)
        if r["certainty"] == "data":
            assert r["data"]
    assert any(r.get("schedule") == ["yield-switches"] for r in d["sass"])
    # the report: the lines' flag, the total's share and the note naming the policy and its score
    p = subprocess.run([sys.executable, "-m", "bankexplorer", "import-cuda", str(src)],
                       capture_output=True, text=True, timeout=600)
    assert re.search(r"^ +32 .* data schedule$", p.stdout, re.M) and "depend on the GPU's scheduling" in p.stdout
    assert "yield-switches (28 of 40 probes)" in p.stderr

    out = tmp_path / "xwarp.json"
    src = KERNELS / "xwarp_atomics" / "xwarp_atomic_03.cu"
    p = subprocess.run([sys.executable, "-m", "bankexplorer", "import-cuda", str(src), "--sass-json", str(out),
                        "--arg", f"keys={src.with_suffix('.npy')}"], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    d = json.loads(out.read_text())
    flagged = [r for r in d["sass"] if r["certainty"] == "schedule"]
    assert [r["sass"].split()[0] for r in flagged] == ["STS"] and flagged[0]["schedule"] == ["warp order"]
    assert flagged[0]["timing_dependent"] is True and d["timing_dependent"] is True


@needs_nvrtc
def test_the_windows_per_line_view_says_schedule(qtbot):
    """The per-line view (from the run, and from the saved kernel, which keeps the run's notes)
    marks the lines whose counts the YIELD policy decided, and names it in the tooltip."""
    pytest.importorskip("PySide6")
    from bankexplorer.gui.line_tree import LineTree
    from bankexplorer.sass.line_totals import stats_from_pattern, stats_from_run
    from bankexplorer.sass.to_pattern import kernel_pattern

    truth, run = _run("extra20/cas_loop_float_max_u64_min_one_warp")
    lines = {ls.line: ls for ls in stats_from_run(run)}
    assert lines[32].schedule == "scheduling policy yield-switches"
    src = (KERNELS / "extra20" / "cas_loop_float_max_u64_min_one_warp.cu").read_text()
    pattern = kernel_pattern(run, src, "cas")
    saved = {ls.line: ls for ls in stats_from_pattern(pattern, None)}
    assert "yield-switches (28 of 40 probes)" in saved[32].schedule
    assert not any(ls.schedule for ls in saved.values() if ls.line not in {ln for ln, _ in run.notes})
    tree = LineTree()
    qtbot.addWidget(tree)
    tree.set_stats(list(saved.values()), src.split("\n"))
    item = tree.top_row(32)
    assert "schedule" in item.text(7) and "yield-switches" in item.toolTip(7)
