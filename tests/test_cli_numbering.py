"""The command line numbers a pattern's instructions one way (issue 42): ``analyze``'s table and
its worst list show the number ``export --instruction`` takes, and ``import-cuda``'s header gives
the whole command's time beside the block's own execution."""

import re

import pytest

from bankexplorer.cli import main
from bankexplorer.compiler import nvrtc
from bankexplorer.io import patternfile
from bankexplorer.resources import EXAMPLES


def test_analyze_numbers_what_export_instruction_takes(capsys, tmp_path, qapp):
    # qapp: the export renders in this process; it must find the QApplication the GUI tests share,
    # not make a bare QGuiApplication that a later widget test cannot use (Qt aborts the process)
    path = EXAMPLES / "06_transpose_32x32.json"  # 2 instructions x 8 warps x 4 iterations: 64 rows
    n = len(patternfile.load(path).instructions)
    assert main(["analyze", str(path)]) == 0
    out = capsys.readouterr().out
    table = [int(m.group(1)) for m in re.finditer(r"^\s+(\d+) (?:store|load) ", out, re.M)]
    worst = [int(m.group(1)) for m in re.finditer(r"^\s+#(\d+)\s", out, re.M)]
    assert len(table) == 64 and worst
    assert set(table) == set(range(n)) and set(worst) <= set(range(n))
    assert "(warp 5, iteration 0)" in out  # which warp instruction of it, said in words
    k = max(worst)
    assert main(["export", str(path), "--instruction", str(k), "--view", "banks", "--out",
                 str(tmp_path / "b.png")]) == 0


@pytest.mark.skipif(not nvrtc.available(), reason="needs the compile extra")
def test_import_cuda_header_gives_the_whole_commands_time(capsys):
    assert main(["import-cuda", str(EXAMPLES / "cuda" / "06_transpose_32x32.cu")]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    m = re.search(r"warp instructions, ([\d.]+) s; ([\d.]+) s in all, with compiling and the as-written build\)", head)
    assert m, head
    assert float(m.group(2)) > float(m.group(1))
