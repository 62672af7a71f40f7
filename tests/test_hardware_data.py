"""The model against every measured H100 instruction, through the file format and the CLI."""

import json
import subprocess
import sys

import numpy as np

from bankexplorer.io import patternfile
from bankexplorer.model import analyze
from bankexplorer.model.engine import WarpBatch, analyze_batch, count_wavefronts
from bankexplorer.model.reference import reference_wavefronts


def _as_pattern_dict(rows):
    instrs = []
    for r in rows:
        i = {"kind": r["kind"], "addresses": r["addresses"]}
        if r["kind"] in ("ldmatrix", "stmatrix"):
            i["matrices"], i["trans"] = r["matrices"], r["trans"]
        else:
            i["width"] = r["width"]
        instrs.append(i)
    return {"format": "bankexplorer-pattern", "version": 1, "instructions": instrs}


def test_data_is_complete(hardware_rows):
    assert len(hardware_rows) == 1235
    kinds = {r["kind"] for r in hardware_rows}
    assert kinds == {"load", "store", "atomic", "ldmatrix", "stmatrix"}


def test_every_row_through_file_format_and_engine(hardware_rows, tmp_path):
    path = tmp_path / "all.json"
    path.write_text(json.dumps(_as_pattern_dict(hardware_rows)))
    an = analyze(patternfile.load(path))
    got = an.result.wavefronts
    want = np.array([r["wavefronts"] for r in hardware_rows])
    wrong = [(r["id"], r["sass"], int(g)) for r, g in zip(hardware_rows, got) if g != r["wavefronts"]]
    assert wrong == []
    assert (got == want).all()


def test_fast_counter_and_reference_agree_on_data(hardware_rows):
    b = WarpBatch.from_rows(hardware_rows)
    fast = count_wavefronts(b)
    full = analyze_batch(b)
    want = np.array([r["wavefronts"] for r in hardware_rows])
    assert (fast.wavefronts == want).all()
    assert (fast.ideal == full.ideal).all() and (fast.degree == full.degree).all()
    ref = [reference_wavefronts(r["kind"], r.get("width") or 16, r["addresses"], matrices=r.get("matrices") or 0)
           for r in hardware_rows]
    assert ref == list(want)


def test_cli_json_matches_every_row(hardware_rows, tmp_path):
    """What ../shared/tools/check_fidelity.py does, on the repo's own copy of the data."""
    path = tmp_path / "all.json"
    path.write_text(json.dumps(_as_pattern_dict(hardware_rows)))
    p = subprocess.run([sys.executable, "-m", "bankexplorer", "analyze", str(path), "--json"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout)["instructions"]
    assert [g["wavefronts"] for g in got] == [r["wavefronts"] for r in hardware_rows]


def test_lane_assignment_is_consistent(hardware_rows):
    res = analyze_batch(WarpBatch.from_rows(hardware_rows))
    served = res.served
    # every served lane has a wavefront, the last one is wavefronts - 1, none beyond
    assert ((res.lane_wave >= 0) == served).all()
    assert (res.lane_wave.max(axis=1) + 1 == res.wavefronts).all()
    assert (res.ideal <= res.wavefronts).all()
    # the degree is the most wavefronts any phase needs
    assert (res.degree <= res.wavefronts).all()


def test_counts_only_path_reports_same_phases(hardware_rows):
    b = WarpBatch.from_rows(hardware_rows)
    full, fast = analyze_batch(b), count_wavefronts(b)
    assert (full.phases == fast.phases).all()
    assert (full.bytes_requested == fast.bytes_requested).all()
    assert (full.served == fast.served).all()
