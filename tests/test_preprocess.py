"""The import's first stage, the C preprocessor: macros with arguments, #if, local includes and
-D values work, every line stays the user's, plain constants keep their names, and malformed
directives are reported with their line, never as a traceback."""

import subprocess
import sys
from pathlib import Path

from bankexplorer.cudaimport import ImportOptions, import_cuda
from bankexplorer.cudaimport.preprocess import needs_preprocessor, preprocess
from bankexplorer.model.analysis import analyze

ROOT = Path(__file__).resolve().parent.parent
SCAN = ROOT / "resources" / "examples" / "cuda" / "14_gpu_gems_scan_macros.cu"


def test_plain_text_is_left_alone():
    text = "#define TILE 32\n__global__ void k() { __shared__ float s[TILE]; }\n"
    assert not needs_preprocessor(text)
    assert preprocess(text).text == text and not preprocess(text).used


def test_gpu_gems_scan_macro_with_argument():
    text = SCAN.read_text()
    res = import_cuda(text, ImportOptions(path=str(SCAN)))
    assert res.complete, res.diagnostics
    first = res.pattern.instructions[0]
    assert first.index == ("threadIdx.x + (threadIdx.x >> LOG_NUM_BANKS)",)  # the constant keeps its name
    assert dict(res.pattern.constants)["LOG_NUM_BANKS"] == 5
    assert res.sources[0].line == 18  # the user's line, not the expanded text's
    padded = analyze(res.pattern, detail=False).totals()
    plain = analyze(import_cuda(text, ImportOptions(defines={"NO_PADDING": 1})).pattern, detail=False).totals()
    assert (padded.wavefronts, padded.worst_degree) == (52, 1)
    assert plain.worst_degree == 8 and plain.wavefronts > padded.wavefronts


def test_if_elif_nested_macros_and_a_local_include(tmp_path):
    (tmp_path / "tile.h").write_text("#define SCALE 2\n#define IDX(i) ((i) * SCALE)\n")
    src = tmp_path / "k.cu"
    src.write_text('// block: 32\n#include "tile.h"\n#include <cuda_fp16.h>\n#define TWICE(x) IDX(IDX(x))\n'
                   "#if SCALE > 3\n#error too big\n#elif SCALE == 2\n#define STRIDE TWICE(1)\n#else\n#define STRIDE 1\n"
                   "#endif\n__global__ void k(float *o) {\n  __shared__ float s[1024];\n"
                   "  o[threadIdx.x] = s[threadIdx.x * STRIDE];\n}\n")
    res = import_cuda(src.read_text(), ImportOptions(path=str(src)))
    assert res.complete, res.diagnostics
    (ins,) = res.pattern.instructions
    assert res.sources[0].line == 14
    assert analyze(res.pattern, detail=False).totals().worst_degree == 4  # stride 4: 4-way


def test_malformed_directives_are_reported_with_their_line():
    text = ("#define F(a, b) ((a) + (b))\n#if 1\n__global__ void k(float *o) {\n  __shared__ float s[64];\n"
            "  o[0] = s[threadIdx.x];\n}\n")
    res = import_cuda(text, ImportOptions())
    errs = [d for d in res.diagnostics if d.message.startswith("preprocessor")]
    assert errs and errs[0].line == 2 and "Unterminated #if" in errs[0].message
    # the command compiles a kernel (as written: its -G build): the compiler says it, on the same line
    p = subprocess.run([sys.executable, "-m", "bankexplorer", "import-cuda", "-", "--as-written"], input=text,
                       capture_output=True, text=True)
    assert p.returncode == 2 and "stdin:2:2: error: compiler error: the #endif for this directive is missing" in p.stderr
    assert "Traceback" not in p.stderr
    # a snippet is read by the preprocessor here
    snippet = text.replace("__global__ void k(float *o) {", "{")
    p = subprocess.run([sys.executable, "-m", "bankexplorer", "import-cuda", "-"], input=snippet,
                       capture_output=True, text=True)
    assert p.returncode == 2 and "stdin:2:1: error: preprocessor: Unterminated #if" in p.stderr


def test_cli_passes_defines_and_include_dirs(tmp_path):
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "pad.h").write_text("#define PAD(n) ((n) / 32)\n")
    src = tmp_path / "k.cu"
    src.write_text('// block: 32\n#include "pad.h"\n__global__ void k(float *o) {\n  __shared__ float s[2048];\n'
                   "  o[threadIdx.x] = s[threadIdx.x * 32 + PAD(threadIdx.x * 32)];\n}\n")
    p = subprocess.run([sys.executable, "-m", "bankexplorer", "import-cuda", str(src), "-I", str(inc), "--as-written"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "no bank conflict" in p.stdout  # the padding macro came from the include folder
