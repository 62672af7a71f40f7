"""``bankexplorer import-cuda``: the summary, the pattern file it writes, and exit status 2 with a
one-line message for a missing file, a syntax error, bad options or a text with no access."""

import json

import pytest

from bankexplorer.cli import main
from bankexplorer.io import patternfile as pf
from bankexplorer.model import analyze
from bankexplorer.resources import EXAMPLES

CUDA = EXAMPLES / "cuda"


def test_summary_names_the_worst_line(capsys):
    assert main(["import-cuda", str(CUDA / "06_transpose_32x32.cu")]) == 0
    out = capsys.readouterr().out
    assert "block 32x8x1 (launch at line 28)" in out and "arrays: float tile[32][32]" in out
    assert "   22  4 x LDS" in out and "32      1,024      32     992" in out  # executed, wavefronts, ideal, excess
    assert "worst conflict: line 22 (992 excess wavefronts per block; LDS R19, [R17]: 256 for an ideal of 8)" in out
    assert "1,056 wavefronts for 64 shared-memory warp instructions executed" in out
    # as written: the unoptimised build (-G), executed the same way: the same accesses here
    assert main(["import-cuda", str(CUDA / "06_transpose_32x32.cu"), "--as-written"]) == 0
    out = capsys.readouterr().out
    assert "as written (the unoptimised build, -G" in out
    assert "worst conflict: line 22 (992 excess wavefronts per block; LDS  (LD.E " in out


def test_detail_prints_every_warp_instruction(capsys):
    assert main(["import-cuda", str(CUDA / "04_stride32_float.cu"), "--detail"]) == 0
    out = capsys.readouterr().out
    assert "no bank conflict" not in out and "worst conflict: line 7 (" in out
    assert "31 excess" in out  # the analyze table's totals


def test_out_writes_a_pattern_that_analyzes_like_the_example(tmp_path, capsys):
    out = tmp_path / "p.json"
    assert main(["import-cuda", str(CUDA / "08_xor_swizzle_col.cu"), "--block", "32,8", "--out", str(out)]) == 0
    assert "wrote" in capsys.readouterr().out
    pat = pf.load(out)
    assert pat.name == "08_xor_swizzle_col" and pat.block == (32, 8, 1)
    assert json.loads(out.read_text())["instructions"][0]["label"].startswith("L13 STS")
    ref = analyze(pf.load(EXAMPLES / "08_xor_swizzle_col.json"), detail=False).result.wavefronts
    # one explicit instruction per executed warp instruction: the same costs as the example's rows
    assert sorted(analyze(pat, detail=False).result.wavefronts.tolist()) == sorted(ref.tolist())


def test_block_option_overrides_the_launch(capsys):
    assert main(["import-cuda", str(CUDA / "12_float4_loads.cu"), "--block", "64"]) == 0
    assert "block 64x1x1 (given)" in capsys.readouterr().out


def test_defines_and_extern_size(tmp_path, capsys):
    src = tmp_path / "k.cu"
    src.write_text("__global__ void k(int ld) {\n  extern __shared__ float s[];\n  s[threadIdx.x * ld] = 0;\n}\n")
    assert main(["import-cuda", str(src), "-D", "ld=33", "--extern-size", "8192"]) == 0
    out = capsys.readouterr().out
    assert "float s[2048]" in out and "no bank conflict" in out


def test_stdin(monkeypatch, capsys):
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO("__shared__ float s[1024];\ns[threadIdx.x * 2] = 0;\n"))
    assert main(["import-cuda", "-"]) == 0
    cap = capsys.readouterr()
    assert "worst conflict: line 2 (2-way" in cap.out and "stdin:1:1: note" in cap.err


@pytest.mark.parametrize("args,content,fragment", [
    (["missing.cu"], None, "No such file or directory"),
    (["k.cu"], "__shared__ float s[32];\ns[threadIdx.x = 1;\n", "first at line 2, column 18: syntax error"),
    (["k.cu"], "int x = threadIdx.x;\n", "no shared-memory access found"),
    (["k.cu"], b"\xff\xfe__shared__", "line 1: not UTF-8 text"),
    (["k.cu", "--block", "0,2"], "", "--block '0,2': x = 0: a block has 1 to 1,024 threads in x"),
    (["k.cu", "--block", "2,-2"], "", "--block '2,-2': write 1 to 3 sizes, e.g. 32,8"),
    (["k.cu", "--block", "64,64"], "", "--block '64,64': 4,096 threads: a block has 1 to 1,024"),
    (["k.cu", "-D", "N"], "", "-D 'N': write NAME=INTEGER"),
    (["k.cu", "--extern-size", "0"], "", "--extern-size must be from 1"),
])
def test_bad_input_exits_2_with_a_message(tmp_path, monkeypatch, capsys, args, content, fragment):
    monkeypatch.chdir(tmp_path)
    if content is not None:
        (tmp_path / "k.cu").write_bytes(content if isinstance(content, bytes) else content.encode())
    assert main(["import-cuda", *args]) == 2
    err = capsys.readouterr().err
    assert fragment in err and "Traceback" not in err


def test_invalid_access_is_reported_and_exits_1(tmp_path, capsys):
    f = tmp_path / "z.cu"
    f.write_text("__shared__ float s[32];\nfloat v = s[threadIdx.x / 0];\nfloat w = s[threadIdx.x];\n")
    assert main(["import-cuda", str(f)]) == 1  # as `analyze`: an invalid access is not a bank conflict
    out = capsys.readouterr().out
    assert "division by zero at column 13" in out
    assert "no bank conflict among the valid accesses" in out
    assert "1 instruction(s) have invalid accesses (first: line 2), not counted" in out
