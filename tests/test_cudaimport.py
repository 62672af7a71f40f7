"""CUDA import: every construct of the issue gives the instructions and wavefronts it should, the
bundled .cu examples give the numbers of their hand-made pattern files, and what is not understood
is reported at its line and column while the rest is imported."""

import numpy as np
import pytest

from bankexplorer.cudaimport import ImportOptions, import_cuda
from bankexplorer.io import patternfile as pf
from bankexplorer.model import analyze
from bankexplorer.resources import EXAMPLES

CUDA = EXAMPLES / "cuda"


def imp(text, block=None, **kw):
    return import_cuda(text, ImportOptions(block=block, **kw))


def wavefronts(result):
    """Wavefronts per instruction (asserted equal over warps and loop iterations)."""
    an = analyze(result.pattern, detail=False)
    assert not an.instruction_errors, an.instruction_errors
    out = []
    for k in range(len(result.pattern.instructions)):
        vals = set(an.result.wavefronts[an.rows_of(k)].tolist())
        assert len(vals) == 1, (k, vals)
        out.append(vals.pop())
    return out


def warnings(result):
    return [d for d in result.diagnostics if d.severity != "note"]


def problems(result):
    return [(d.line, d.column, d.severity) for d in warnings(result)]


# ---- the classic examples ------------------------------------------------------------------
@pytest.mark.parametrize("stem", ["04_stride32_float", "06_transpose_32x32", "07_transpose_padded_32x33",
                                  "08_xor_swizzle_col", "09_xor_swizzle_row_variant", "12_float4_loads"])
def test_example_matches_its_pattern_file(stem):
    res = import_cuda((CUDA / f"{stem}.cu").read_text())
    assert res.complete, [str(d) for d in res.diagnostics]
    mine, theirs = analyze(res.pattern, detail=False), analyze(pf.load(EXAMPLES / f"{stem}.json"), detail=False)
    assert res.pattern.block == theirs.pattern.block
    assert [i.kind for i in res.pattern.instructions] == [i.kind for i in theirs.pattern.instructions]
    # the same rows (instruction, loop iteration, warp) with the same wavefronts and ideal
    for field in ("source", "iteration", "warp"):
        assert np.array_equal(getattr(mine, field), getattr(theirs, field)), field
    assert np.array_equal(mine.result.wavefronts, theirs.result.wavefronts)
    assert np.array_equal(mine.result.ideal, theirs.result.ideal)
    assert mine.totals().wavefronts == theirs.totals().wavefronts


def test_transpose_example_details():
    res = import_cuda((CUDA / "06_transpose_32x32.cu").read_text())
    assert res.block_origin == "launch at line 28"
    store, load = res.pattern.instructions
    assert store.index == ("threadIdx.y + j", "threadIdx.x") and load.index == ("threadIdx.x", "threadIdx.y + j")
    assert store.loops[0].values() == range(0, 32, 8)
    assert [s.line for s in res.sources] == [14, 22]
    assert wavefronts(res) == [1, 32]
    padded = import_cuda((CUDA / "07_transpose_padded_32x33.cu").read_text()).pattern.arrays[0]
    assert padded.dims == (32, 32) and padded.padding == 1  # TILE_DIM + 1 is read as padding


# ---- types ---------------------------------------------------------------------------------
@pytest.mark.parametrize("ctype,size,wf", [
    ("char", 1, 1), ("short", 2, 1), ("half", 2, 1), ("__half", 2, 1), ("int", 4, 1), ("unsigned", 4, 1),
    ("unsigned int", 4, 1), ("float", 4, 1), ("double", 8, 2), ("int2", 8, 2), ("float2", 8, 2),
    ("__half2", 4, 1), ("int4", 16, 4), ("float4", 16, 4), ("uint32_t", 4, 1), ("long long", 8, 2),
])
def test_element_types(ctype, size, wf):
    res = imp(f"__shared__ {ctype} s[64];\nauto v = s[threadIdx.x];\ns[threadIdx.x * 2] = v;")
    assert res.complete
    assert res.pattern.arrays[0].elem_size == size
    assert [i.kind for i in res.pattern.instructions] == ["load", "store"]
    # stride 2 elements: 2x the bytes of the contiguous read, at least one wavefront per 128 B
    assert wavefronts(res) == [wf, max(2, 2 * wf) if size >= 4 else max(1, size * 64 // 128)]


def test_unknown_type_reported_at_the_type():
    res = imp("__shared__ MyStruct s[32];\n__shared__ float t[32];\nt[threadIdx.x] = 0;")
    assert problems(res) == [(1, 12, "warning")]
    assert "element type 'MyStruct'" in warnings(res)[0].message
    assert [a.name for a in res.pattern.arrays] == ["t"] and wavefronts(res) == [1]


# ---- extern __shared__ -----------------------------------------------------------------------
@pytest.mark.parametrize("how", ["option", "comment", "launch"])
def test_extern_size(how):
    text = "extern __shared__ float s[];\ns[threadIdx.x * 33] = 0;\n"
    opts = {}
    if how == "option":
        opts = {"extern_bytes": 4224}
    elif how == "comment":
        text = "// extern-size: 4224\n" + text
    else:
        text += "constexpr int SMEM = 32 * 33 * 4;\nk<<<1, 32, SMEM>>>(out);\n"
    res = imp(text, **opts)
    assert res.pattern.arrays[0].dims == (1056,)
    assert not [d for d in res.diagnostics if "extern" in d.message]
    assert wavefronts(res) == [1]


def test_extern_without_size_is_a_note_with_the_default():
    res = imp("extern __shared__ float4 s[];\nfloat4 v = s[threadIdx.x];", block=(32, 1, 1))
    assert res.pattern.arrays[0].dims == (48 * 1024 // 16,)
    assert res.complete and any(d.severity == "note" and "49,152 bytes" in d.message for d in res.diagnostics)
    assert wavefronts(res) == [4]


def test_extern_arrays_share_the_dynamic_base():
    res = imp("// extern-size: 1024\n__shared__ int a[8];\nextern __shared__ float s[];\nextern __shared__ int t[];\n"
              "s[threadIdx.x] = 0;")
    a, s, t = res.pattern.arrays
    assert s.base == t.base == 32 and s.dims == (256,)


# ---- constants and locals -------------------------------------------------------------------
def test_define_constexpr_const():
    res = imp("#define N 64\nconstexpr int PAD = 4;\nconst int K = N / 2;\n__shared__ float s[N][N + PAD];\n"
              "int tid = threadIdx.x;\ns[K][tid % N] = 0;\n", block=(64, 1, 1))
    arr = res.pattern.arrays[0]
    assert arr.dims == (64, 64) and arr.padding == 4
    ins = res.pattern.instructions[0]
    assert ins.index == ("K", "tid % N")  # named constants stay by name ...
    assert dict(res.pattern.constants) == {"K": 32, "N": 64}  # ... and come with the pattern
    assert wavefronts(res) == [1]


def test_defines_option_gives_a_parameter_a_value():
    # a __device__ function's parameter (walked on its own, no call gives it a value)
    text = "__device__ void put(int ld) {\n __shared__ float s[32 * 32];\n s[threadIdx.x * ld] = 0;\n}"
    res = imp(text)
    assert problems(res) == [(3, 4, "warning")] and "'ld'" in warnings(res)[0].message
    res = imp(text, defines={"ld": 32})
    assert res.complete and wavefronts(res) == [32]
    # called, it takes the value of its argument: (32 + 1) floats apart, no conflict
    call = text + "\n__global__ void k() {\n put(blockDim.x + 1);\n}"
    res = imp(call, (32, 1, 1))
    assert res.complete and wavefronts(res) == [1]


def test_a_kernels_int_parameter_takes_the_launchers_value_unless_given():
    """The verification launcher (and the measured kernels) pass 64 to an int parameter: the import
    takes that value, says so at the parameter, and keeps the name in the pattern to edit."""
    text = ("__global__ void k(float *out, int n, int ld) {\n  __shared__ float s[64 * 64];\n"
            "  for (int i = threadIdx.x; i < n; i += blockDim.x) s[i * ld] = 0;\n}\n")
    res = imp(text, (32, 1, 1))
    assert res.complete and res.runtime_names == ("ld", "n")
    notes = [(d.line, d.column, d.message) for d in res.diagnostics if d.severity == "note"]
    assert [(ln, col) for ln, col, _m in notes] == [(1, 35), (1, 42)]  # at each name
    assert "'n' has no value given: taken as 64" in notes[0][2] and "-D n=VALUE" in notes[0][2]
    (ins,) = res.pattern.instructions
    # ld stays a name in the index (editable); the loop over n is unrolled for n = 64
    assert dict(res.pattern.constants) == {"ld": 64} and ins.iterations() == 2
    assert wavefronts(res) == [32]  # 64 floats apart: every lane on bank 0
    given = imp(text, (32, 1, 1), defines={"n": 96, "ld": 33})
    assert given.complete and not [d for d in given.diagnostics if d.severity == "note"]
    assert given.pattern.instructions[0].iterations() == 3 and wavefronts(given) == [1]


def test_lane_warp_and_thread_indices():
    res = imp("__shared__ float s[8][33];\nint lane = threadIdx.x % 32, warp = threadIdx.x / 32;\n"
              "s[warp][lane] = 0;\nfloat v = s[lane % 8][warp * 4];\n", block=(256, 1, 1))
    a, b = res.pattern.instructions
    # a 1-D block: lane and warp are the model's own names, kept as written
    assert a.index == ("warp", "lane") and b.index == ("lane % 8", "warp * 4")
    # 32 lanes over 8 rows of 33 floats, one column: 8 distinct words, 8 banks -> 1 wavefront
    assert wavefronts(res) == [1, 1]
    res3 = imp("__shared__ float t[4][8][32];\nt[threadIdx.z][threadIdx.y][threadIdx.x * blockDim.y] = 0;",
               block=(4, 8, 4))
    assert res3.pattern.instructions[0].index == ("threadIdx.z", "threadIdx.y", "threadIdx.x * blockDim.y")
    assert wavefronts(res3) == [8]  # warp 0: x 0..3 (8 floats apart), y 0..7 (32 floats apart): 8-way


def test_lane_in_a_2d_block_stays_spelled_out():
    # threadIdx.x % 32 is not the lane of the warp when blockDim.x is 16: it must not become 'lane'
    res = imp("__shared__ float s[8][32];\nint lane = threadIdx.x % 32;\ns[threadIdx.y][lane] = 0;", block=(16, 8, 1))
    assert res.pattern.instructions[0].index == ("threadIdx.y", "threadIdx.x % 32")
    assert wavefronts(res) == [2]  # warp 0 is rows 0 and 1, columns 0..15 of each: banks 0..15 twice


def test_local_reassigned_under_a_condition():
    res = imp("__shared__ float s[64];\nint i = threadIdx.x;\nif (threadIdx.x >= 16) i = i * 2;\ns[i] = 0;")
    assert res.pattern.instructions[0].index == ("threadIdx.x >= 16 ? threadIdx.x * 2 : threadIdx.x",)
    assert wavefronts(res) == [2]  # lanes 16..31 hit words 32..62 = banks 0,2,..,30, which lanes 0..15 use too


# ---- reads, writes, vectors, atomics ----------------------------------------------------------
def test_assignment_is_a_store_and_compound_is_load_then_store():
    res = imp("__shared__ float s[32][32];\nint x = threadIdx.x;\ns[x][0] += s[0][x];\ns[0][x]++;\n")
    kinds = [(i.kind, i.index, s.line) for i, s in zip(res.pattern.instructions, res.sources)]
    assert kinds == [("load", ("0", "threadIdx.x"), 3), ("load", ("threadIdx.x", "0"), 3),
                     ("store", ("threadIdx.x", "0"), 3), ("load", ("0", "threadIdx.x"), 4),
                     ("store", ("0", "threadIdx.x"), 4)]
    assert wavefronts(res) == [1, 32, 32, 1, 1]


def test_reinterpret_cast_vector_accesses():
    res = imp("__shared__ float sh[8][128];\nint lane = threadIdx.x % 32, warp = threadIdx.x / 32;\n"
              "float4 a = reinterpret_cast<float4*>(&sh[warp][lane * 4])[0];\n"
              "float4 b = *reinterpret_cast<float4*>(&sh[warp][lane * 4]);\n"
              "*reinterpret_cast<float2*>(&sh[warp][lane * 2]) = make_float2(0.f, 0.f);\n"
              "float4 c = reinterpret_cast<const float4*>(sh[warp])[lane];\n"
              "float4 d = reinterpret_cast<float4*>(&sh[warp][lane / 2 * 8])[1];\n", block=(256, 1, 1))
    ins = res.pattern.instructions
    assert [(i.kind, i.width) for i in ins] == [("load", 16), ("load", 16), ("store", 8), ("load", 16), ("load", 16)]
    assert ins[0].index == ins[3].index == ("warp", "lane * 4")
    assert ins[4].index == ("warp", "lane / 2 * 8 + 4")
    # d: lanes 2m, 2m+1 read the same 16 B at float 8m + 4: 16 chunks on 4 bank groups -> 4 wavefronts
    assert wavefronts(res) == [4, 4, 2, 4, 4]


def test_vector_component_of_a_vector_array():
    res = imp("__shared__ float4 s[32];\nfloat a = s[threadIdx.x].x;\nfloat b = s[threadIdx.x].y;")
    (ins,) = res.pattern.instructions
    assert (ins.width, ins.index) == (4, ("threadIdx.x",))
    assert wavefronts(res) == [4]  # a 4-byte load from each lane's float4: lanes 16 B apart -> 4-way
    # .y is 4 bytes inside one 16-byte element: the model addresses whole elements, so it says so
    assert problems(res) == [(3, 11, "warning")] and "bytes 4..7" in warnings(res)[0].message


def test_atomics():
    res = imp("__shared__ int hist[1024];\nint lane = threadIdx.x % 32;\natomicAdd(&hist[lane], 1);\n"
              "atomicAdd(hist + lane * 32, 1);\natomicMax(&hist[lane * 2], 7);")
    assert [i.kind for i in res.pattern.instructions] == ["atomic"] * 3
    assert [i.index for i in res.pattern.instructions] == [("lane",), ("lane * 32",), ("lane * 2",)]
    assert wavefronts(res) == [1, 32, 2]
    assert [i.op for i in res.pattern.instructions] == ["add", "add", "max"]


def test_atomic_operations_follow_the_hardware():
    """atomicCAS is two bank passes; float and 64-bit adds are CAS loops; 64-bit goes per half-warp
    (the rules measured on an H100, resources/hardware/h100_verification.jsonl)."""
    res = imp("__shared__ int c[64];\n__shared__ float f[64];\n__shared__ unsigned long long u[64];\n"
              "int lane = threadIdx.x % 32;\natomicAdd(&c[lane], 1);\natomicCAS(&c[lane], 0, 1);\n"
              "atomicSub(&c[lane], 1);\natomicAdd(&f[lane], 1.0f);\natomicExch(&u[lane], 1ull);\n"
              "atomicAdd(&u[lane], 1ull);")
    assert [i.op for i in res.pattern.instructions] == ["add", "cas", "add", "add", "exch", "add"]
    assert wavefronts(res) == [1, 2, 1, 2, 2, 4]
    an = analyze(res.pattern)
    assert "ATOMS.CAST.SPIN" in an.note(3) and an.note(0) == ""


# ---- loops and conditions ---------------------------------------------------------------------
def test_for_loops_become_pattern_loops():
    res = imp("#define ROWS 8\n__shared__ float s[32][32];\n"
              "for (int i = 0; i < 4; i++)\n  for (int j = 0; j < 32; j += ROWS)\n"
              "    s[threadIdx.y + j][threadIdx.x ^ i] = 0;\n", block=(32, 8, 1))
    (ins,) = res.pattern.instructions
    assert [(lp.var, lp.start, lp.stop, lp.step) for lp in ins.loops] == [("i", 0, 4, 1), ("j", 0, 32, 8)]
    an = analyze(res.pattern, detail=False)
    assert len(an) == 4 * 4 * 8 and set(an.result.wavefronts.tolist()) == {1}


def test_loop_that_changes_an_outer_variable_is_unrolled():
    res = imp("__shared__ float s[32 * 35];\nint off = 0;\nfor (int k = 0; k < 3; ++k) {\n"
              "  s[off + threadIdx.x * 32] = 0;\n  off += 33;\n}")
    ins = res.pattern.instructions
    assert [i.index for i in ins] == [("threadIdx.x * 32",), ("33 + threadIdx.x * 32",),
                                      ("66 + threadIdx.x * 32",)]
    assert all(not i.loops for i in ins) and wavefronts(res) == [32, 32, 32]


def test_strided_loop_with_a_thread_start():
    res = imp("__shared__ float s[32][32];\nfor (int i = threadIdx.x; i < 1000; i += 32)\n"
              "  s[i / 32][i % 32] = 0;\n")
    (ins,) = res.pattern.instructions
    assert ins.loops[0].stop == 32 and "< 1000" in ins.active
    an = analyze(res.pattern, detail=False)
    assert an.result.wavefronts.tolist() == [1] * 32
    assert an.result.bytes_requested.tolist()[-1] == 8 * 4  # the last iteration: lanes 0..7 only


def test_if_on_thread_index_sets_active_lanes():
    res = imp("__shared__ float s[128];\nint lane = threadIdx.x % 32;\n"
              "s[lane * 2] = 0;\nif (lane < 16) s[lane * 2] = 1;\nelse s[lane * 4] = 2;\n"
              "if (threadIdx.x >= 32) return;\ns[lane * 32 % 128] = 3;\n", block=(64, 1, 1))
    ins = res.pattern.instructions
    assert [i.active for i in ins] == ["", "lane < 16", "!(lane < 16)", "!(threadIdx.x >= 32)"]
    an = analyze(res.pattern, detail=False)
    per_warp = [an.result.wavefronts[an.rows_of(k)].tolist() for k in range(4)]
    # 32 lanes stride 2: 2 wavefronts; 16 lanes stride 2: 1; lanes 16..31 at stride 4: 2-way;
    # lane * 32 % 128: 4 distinct words in bank 0: 4, and after the early return only warp 0 runs
    assert per_warp == [[2, 2], [1, 1], [2, 2], [4, 0]]


# ---- block size ---------------------------------------------------------------------------------
def test_block_from_launch_comment_option_and_default():
    body = "__shared__ float s[8][32];\ns[threadIdx.y][threadIdx.x] = 0;\n"
    r = imp(body + "k<<<grid, dim3(32, 8)>>>(a);\n")
    assert r.pattern.block == (32, 8, 1) and r.block_origin == "launch at line 3" and r.complete
    r = imp("// block: 16, 4\n" + body + "k<<<grid, dim3(32, 8)>>>(a);\n")
    assert r.pattern.block == (16, 4, 1) and r.block_origin == "comment at line 1"
    r = imp(body + "k<<<grid, dim3(32, 8)>>>(a);\n", block=(64, 2, 1))
    assert r.pattern.block == (64, 2, 1) and r.block_origin == "given"
    r = imp(body + "dim3 b(32, 4);\nk<<<1, b>>>(a);\n")
    assert r.pattern.block == (32, 4, 1)
    r = imp(body)
    assert r.pattern.block == (32, 1, 1) and any("assuming 32x1x1" in d.message for d in r.diagnostics)


def test_bad_block_comment_is_reported():
    r = imp("// block: 64, 64\n__shared__ float s[32];\ns[threadIdx.x] = 0;")
    assert problems(r) == [(1, 1, "warning")] and "block" in warnings(r)[0].message
    assert r.pattern.block == (32, 1, 1)


# ---- what is not understood ---------------------------------------------------------------------
def test_syntax_error_position_and_the_rest_imported():
    r = imp("__shared__ float s[32];\ns[threadIdx.x] = 1 +;\nfloat v = s[threadIdx.x];\n")
    assert problems(r) == [(2, 20, "error")] and "syntax error" in warnings(r)[0].message
    assert [i.kind for i in r.pattern.instructions] == ["store", "load"]


def test_missing_bracket_position():
    r = imp("__shared__ float s[32];\nint x = threadIdx.x;\nfloat v = s[x;\ns[x] = 2;\n")
    errs = [d for d in r.diagnostics if d.severity == "error"]
    assert [(d.line, d.column) for d in errs] == [(3, 14)] and "expected ']'" in errs[0].message


@pytest.mark.parametrize("code,where,fragment", [
    ("while (true) { s[threadIdx.x] = 0; }", (3, 1), "a while loop"),
    ("int v = s[0];\ns[v] = 1;", (4, 3), "from data"),
    ("s[foo(threadIdx.x)] = 1;", (3, 3), "the result of foo()"),
    ("for (int i = 0; i < 10; i--) s[i] = 0;", (3, 1), "never ends"),
    ("for (int i = 0; i < n; i++) s[i] = 0;", (3, 21), "'n'"),
    ("switch (threadIdx.x) { case 0: s[0] = 1; }", (3, 1), "switch"),
])
def test_unsupported_code_is_reported_where_it_is(code, where, fragment):
    r = imp(f"__shared__ float s[64];\nint n;\n{code}\ns[threadIdx.x] = 9;\n")
    warn = [d for d in r.diagnostics if d.severity != "note"]
    assert (warn[0].line, warn[0].column) == where and fragment in warn[0].message, [str(d) for d in warn]
    assert r.pattern.instructions[-1].index == ("threadIdx.x",)  # the line after it is still imported
    assert r.sources[-1].line == 4 + code.count("\n")


def test_loops_without_constant_bounds_import_their_body_once():
    r = imp("__global__ void k(const int *p) {\n  __shared__ float s[1024]; int n = p[0];\n"
            "  for (int i = threadIdx.x; i < n; i += blockDim.x) s[i * 2] = 0;\n"
            "  int stride = 16;\n  while (stride > 0) { s[threadIdx.x * stride] += 1; stride >>= 1; }\n}\n")
    ins = r.pattern.instructions
    # the for loop's first iteration (i = threadIdx.x); the while loop, whose condition has a value
    # before each pass (stride = 16, 8, 4, 2, 1), pass by pass
    assert [(i.kind, i.index) for i in ins] == [("store", ("threadIdx.x * 2",))] + [
        (kind, (f"threadIdx.x * {k}" if k > 1 else "threadIdx.x",)) for k in (16, 8, 4, 2, 1) for kind in ("load", "store")]
    assert not any(i.loops for i in ins) and wavefronts(r) == [2] + [k for k in (16, 8, 4, 2, 1) for _ in "ls"]
    assert problems(r) == [(3, 33, "warning")]  # at the unknown bound 'n'
    assert "first iteration" in warnings(r)[0].message


def test_elision_in_a_pasted_snippet_is_not_an_error():
    r = imp("__shared__ float tile[32][33];\nint x = threadIdx.x, y = threadIdx.y;\n"
            "tile[y][x] = in[...];\nfloat v = tile[x][y];\n", block=(32, 8, 1))
    assert r.complete and [i.kind for i in r.pattern.instructions] == ["store", "load"]
    assert wavefronts(r) == [1, 1]


def test_source_spans_point_at_the_access():
    r = imp("__shared__ float s[32];\nfloat a = 1.0f + s[threadIdx.x * 2];\n")
    (span,) = r.sources
    assert (span.line, span.column, span.end_line, span.end_column) == (2, 18, 2, 36)
    assert span.text == "s[threadIdx.x * 2]"
    assert r.instruction_at_line(2) == [0] and r.instruction_at_line(1) == []


def test_nothing_is_run_even_for_hostile_text():
    # system() and an endless loop are only read: the first is an unknown call, the second is reported
    r = imp('__shared__ float s[32];\nsystem("rm -rf /");\nfor (;;) s[0] = 1;\ns[threadIdx.x] = 0;')
    assert [i.index for i in r.pattern.instructions] == [("0",), ("threadIdx.x",)]
    assert problems(r) == [(3, 1, "warning")] and "imported once" in warnings(r)[0].message


def test_binary_and_huge_text_are_refused_with_a_message():
    r = imp("__shared__ float s[32];\n\0")
    assert r.diagnostics[0].severity == "error" and "NUL" in r.diagnostics[0].message
    r = imp("x" * (1 << 21))
    assert "larger than" in r.diagnostics[0].message and not r.pattern.instructions


# ---- pointers, templates, long loops -----------------------------------------------------------
def test_pointer_offsets_that_cross_rows_use_the_flat_offset():
    res = imp("__shared__ float s[32][33];\nfloat* row = s[threadIdx.x];\nfloat a = row[5];\n"
              "float* p = &s[0][0] + threadIdx.x * 33;\np[1] = 2;\n")
    a, b = res.pattern.instructions
    assert a.index == ("threadIdx.x", "5")
    assert b.index == ("(threadIdx.x * 33 + 1) / 33", "(threadIdx.x * 33 + 1) % 33")  # s[0][34..] is s[1][1..]
    assert res.complete and wavefronts(res) == [1, 1]


def test_template_parameters_from_defines_and_long_unused_loops_become_repeats():
    text = ("template <int BM, int BK>\n__global__ void gemm() {\n  __shared__ float As[BK][BM];\n"
            "  int ty = threadIdx.x / 16;\n  for (int kk = 0; kk < 1000; ++kk)\n"
            "    for (int k = 0; k < BK; ++k) {\n      float a = As[k][ty * 4];\n    }\n}\n")
    res = imp(text)
    assert not res.pattern.instructions and "template parameter 'BK'" in warnings(res)[0].message
    res = imp(text, defines={"BM": 64, "BK": 8})
    (ins,) = res.pattern.instructions
    assert res.pattern.arrays[0].dims == (8, 64)
    # 8,000 iterations are too many to list; kk is used by no index, so it becomes a repeat count
    assert [lp.var for lp in ins.loops] == ["k"] and ins.repeat == 1000
    an = analyze(res.pattern, detail=False)
    assert an.totals().kernel_instructions == 8 * 1000 and set(an.result.wavefronts.tolist()) == {1}


def test_an_expression_that_doubles_itself_is_not_followed_and_does_not_blow_up():
    text = "__shared__ float s[32];\nint a = threadIdx.x;\n" + "a = a + a;\n" * 200 + "s[a % 32] = 0;\ns[threadIdx.x] = 1;"
    r = imp(text)  # 2**200 characters if it were followed
    assert problems(r) == [(203, 3, "warning")] and "longer than 2,000 characters" in warnings(r)[0].message
    assert [i.index for i in r.pattern.instructions] == [("threadIdx.x",)]


@pytest.mark.parametrize("text", [
    "__shared__ float s[32];\nfloat v = threadIdx.x ? : s[0];\ns[threadIdx.x] = 1;",  # GNU ?: (part missing)
    "__shared__ float s[32];\ns[threadIdx.x]] = 1;\n}}}\ns[threadIdx.x] = 1;",
    "__shared__ float s[32];\ntemplate<int N> s[N] = 0;\ns[threadIdx.x] = 1;",
    "__shared__ float s[32];\n#define F(x) s[x]\nF(threadIdx.x) = 2;\ns[threadIdx.x] = 1;",
])
def test_broken_code_never_raises_and_keeps_the_last_line(text):
    r = imp(text)
    assert r.pattern.instructions and r.pattern.instructions[-1].index == ("threadIdx.x",)
    assert r.sources[-1].line == text.count("\n") + 1


def test_settings_comments_can_use_the_texts_constants():
    r = imp("// block: TILE, ROWS\n// extern-size: TILE * (TILE + 1) * 4\n#define TILE 32\nconstexpr int ROWS = 8;\n"
            "extern __shared__ float s[];\ns[threadIdx.y * (TILE + 1) + threadIdx.x] = 0;\n")
    assert r.complete and r.pattern.block == (32, 8, 1) and r.block_origin == "comment at line 1"
    assert r.pattern.arrays[0].dims == (32 * 33,)
    r = imp("// extern-size: N_BYTES\nextern __shared__ float s[];\ns[threadIdx.x] = 0;\n")
    assert problems(r) == [(1, 1, "warning")] and "'N_BYTES' not understood" in warnings(r)[0].message


def test_return_inside_a_loop_is_noted():
    r = imp("__shared__ float s[64];\nfor (int k = 0; k < 4; k++) {\n  if (threadIdx.x < k) return;\n"
            "  s[threadIdx.x] = k;\n}\ns[threadIdx.x] = 0;\n")
    a, b = r.pattern.instructions
    assert a.active == "!(threadIdx.x < k)" and b.active == ""
    assert any(d.line == 3 and d.severity == "note" and "active again" in d.message for d in r.diagnostics)


# ---- functions defined in the text: inlined where they are called ------------------------------
INLINED = """\
__device__ __forceinline__ int swz(int r, int c) { return r * 32 + (c ^ (r % 32)); }
__device__ float get(const float *p, int i) { return p[i]; }
__device__ void put(float *p, int i, float v) { if (i >= 1000) return; p[i] = v; }
__global__ void k(const float *in, float *out) {
    __shared__ float s[32 * 32];
    int x = threadIdx.x, y = threadIdx.y;
    put(s, y * 32 + x, in[x]);
    __syncthreads();
    out[x] = get(s, swz(x, y)) + get(s, x * 32 + y);
}
"""


def test_device_functions_are_inlined_with_their_arguments():
    r = imp(INLINED, (32, 8, 1))
    assert warnings(r) == []
    ins = r.pattern.instructions
    assert [i.kind for i in ins] == ["store", "load", "load"]
    # the access is where the function writes it; the call's line is where nvcc's code for it is
    assert [(s.line, s.site) for s in r.sources] == [(3, 7), (2, 9), (2, 9)]
    assert [s.code_line for s in r.sources] == [7, 9, 9]
    # the returned index swz(x, y) is followed: the XOR makes the column read conflict-free
    assert wavefronts(r) == [1, 1, 32]
    # the early return inside put() narrows the lanes for put() only: every lane stores
    an = analyze(r.pattern, detail=False)
    assert an.batch.active[an.rows_of(0)].all()


def test_a_function_is_not_walked_on_its_own_when_it_is_called():
    r = imp(INLINED, (32, 8, 1))
    assert len(r.pattern.instructions) == 3  # not 5: get() and put() are not kernels of their own


def test_recursive_calls_are_reported_not_followed():
    text = """\
__device__ int f(int *p, int n) { return n ? f(p, n - 1) + p[n] : 0; }
__global__ void k(int *out) {
    __shared__ int s[64];
    s[threadIdx.x] = 1;
    out[0] = f(s, 3);
}
"""
    r = imp(text, (32, 1, 1))
    assert any("calls itself" in d.message for d in r.diagnostics)
    assert r.pattern.instructions[0].kind == "store"


# ---- arrays of structs ---------------------------------------------------------------------------
@pytest.mark.parametrize("fields,access,wf", [
    ("float x, y, z;", "pts[threadIdx.x].y = 1.f;", 1),  # 12-byte stride: 3 words, odd: every bank once
    ("float x, y, z, w;", "pts[threadIdx.x].x = 1.f;", 4),  # 16-byte stride: 4-way
    ("double d; int i;", "pts[threadIdx.x].d = 1.0;", 4),  # 16-byte stride, 8-byte field: 512 bytes, 4 wavefronts
])
def test_struct_fields_are_words_of_the_element(fields, access, wf):
    text = f"struct P {{ {fields} }};\n__global__ void k() {{\n    __shared__ P pts[32];\n    {access}\n}}\n"
    r = imp(text, (32, 1, 1))
    assert warnings(r) == []
    arr = r.pattern.arrays[0]
    assert arr.dims[-1] * {"float": 4, "int": 4}[arr.dtype] == {3: 12, 4: 16}.get(len(fields.split(",")), 16)
    assert wavefronts(r) == [wf]


def test_a_whole_struct_read_loads_each_field():
    text = """\
typedef struct { float x, y, z; } P;
__global__ void k(float *out) {
    __shared__ P pts[64];
    P p = pts[(threadIdx.x * 5) % 64];
    out[threadIdx.x] = p.x + p.z;
}
"""
    r = imp(text, (64, 1, 1))
    assert warnings(r) == []
    assert [(i.kind, i.width or 4, i.index[-1]) for i in r.pattern.instructions] == [
        ("load", 4, "0"), ("load", 4, "1"), ("load", 4, "2")]


def test_a_struct_the_model_cannot_lay_out_is_reported():
    r = imp("struct Q { float v[2][2]; };\n__global__ void k() {\n    __shared__ Q q[32];\n    q[threadIdx.x].v[0][0] = 1;\n}\n",
            (32, 1, 1))
    assert any("element type 'Q'" in d.message for d in r.diagnostics)


def test_structs_of_arrays_are_laid_out_as_c_does():
    """``struct { float x[128]; float y[128]; }``: p.y[t] is 512 bytes after p.x[t]; an array of
    such structs puts each struct's arrays one after the other."""
    text = ("struct P { float x[128]; float y[128]; };\nstruct Q { int id; float v[4]; };\n"
            "__global__ void k(float *o) {\n  __shared__ P p;\n  __shared__ Q q[32];\n"
            "  p.x[threadIdx.x] = 1; p.y[threadIdx.x] = 2;\n"
            "  o[0] = p.y[(threadIdx.x * 2) & 127] + q[threadIdx.x & 31].v[3];\n}\n")
    r = imp(text, (128, 1, 1))
    assert warnings(r) == []
    an = analyze(r.pattern, detail=False)
    first = {k: an.batch.addr[an.rows_of(k)[0]][:4].tolist() for k in range(4)}
    base_q = next(a for a in r.pattern.arrays if a.name == "q").base
    assert first[0] == [0, 4, 8, 12] and first[1] == [512, 516, 520, 524]
    assert first[2] == [512, 520, 528, 536]
    assert first[3] == [base_q + 20 * t + 16 for t in range(4)]  # Q is 20 bytes: id, then v[0..3]
    # stride 2 words: 2-way; stride 5 words (20-byte structs): 32 lanes on 32 distinct banks
    assert wavefronts(r) == [1, 1, 2, 1]


# ---- cooperative groups --------------------------------------------------------------------------
def test_cooperative_groups_ranks_are_thread_indices():
    text = """\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *out) {
    cg::thread_block block = cg::this_thread_block();
    auto warp = cg::tiled_partition<32>(block);
    __shared__ int s[128];
    s[block.thread_rank()] = 1;
    block.sync();
    out[0] = s[warp.thread_rank() * 4 + warp.meta_group_rank()] + s[block.size() - 1];
}
"""
    r = imp(text, (32, 4, 1))
    assert warnings(r) == []
    idx = [i.index[0] for i in r.pattern.instructions]
    assert idx[0] == "threadIdx.x + threadIdx.y * 32"
    assert wavefronts(r) == [1, 4, 1]  # lane*4 + warp: 4-way; s[127]: a broadcast


# ---- inline PTX ----------------------------------------------------------------------------------
def test_inline_ptx_ldmatrix_and_ld_shared_on_a_cvta_address():
    text = """\
#include <cuda_fp16.h>
__global__ void k(float *out) {
    __shared__ half tile[16][64];
    int t = threadIdx.x;
    unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(&tile[t % 16][(t / 16) * 8]));
    unsigned r0, r1, r2, r3, v;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\\n"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
    asm volatile("ld.shared.b32 %0, [%1+4];" : "=r"(v) : "r"(addr));
    out[t] = r0 + r1 + r2 + r3 + v;
}
"""
    r = imp(text, (32, 1, 1))
    assert warnings(r) == []
    a, b = r.pattern.instructions
    assert (a.kind, a.matrices, a.trans, a.index) == ("ldmatrix", 4, True, ("threadIdx.x % 16", "threadIdx.x / 16 * 8"))
    assert (b.kind, b.width) == ("load", 4) and b.index[-1] == "threadIdx.x / 16 * 8 + 2"  # +4 bytes: 2 halves on
    assert wavefronts(r) == [32, 16]  # 128-byte rows: the rows of a matrix, and the 16 words, share a bank


# ---- while and do loops with a value before each pass ----------------------------------------------
def test_while_loop_with_a_known_value_each_pass_is_unrolled():
    r = imp(open_text := """\
__global__ void k(float *out) {
    __shared__ float s[128];
    int t = threadIdx.x;
    int stride = blockDim.x / 2;
    while (stride > 0) {
        if (t < stride) s[t] += s[t + stride];
        stride >>= 1;
    }
    int k = 0;
    do { s[(t + k) % 128] = 0; k += 32; } while (k < 96);
}
""", (128, 1, 1))
    assert warnings(r) == [], open_text
    loads = [i for i in r.pattern.instructions if i.kind == "load"]
    assert len(loads) == 2 * 7  # stride 64, 32, ..., 1
    assert [i.label.rsplit("(", 1)[1] for i in r.pattern.instructions if i.kind == "store"][-3:] == [
        "k=0)", "k=32)", "k=64)"]
    an = analyze(r.pattern, detail=False)
    assert not an.instruction_errors
    # warps with a lane under the stride: 2 at stride 64, then 1; two loads and a store each; then 3 x 4 stores
    assert an.totals().executed == (2 + 1 * 6) * 3 + 3 * 4


def test_while_loop_on_the_thread_is_imported_once_with_a_warning():
    r = imp("__global__ void k() {\n    __shared__ int s[64];\n    int i = threadIdx.x;\n"
            "    while (i < 64) { s[i] = 0; i = i * 2 + 32; }\n}\n", (32, 1, 1))  # no constant step
    assert any("while loop is not modelled" in d.message for d in r.diagnostics)
    assert len(r.pattern.instructions) == 1


def test_a_halo_tile_declared_n_plus_2r_owns_its_columns():
    text = """\
#define R 2
__global__ void k(const float *in) {
    __shared__ float tile[16 + 2 * R][16 + 2 * R];
    __shared__ float pad[16][16 + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    tile[ty + R][tx + R] = in[0];
    if (tx < R) tile[ty + R][tx + 16 + R] = 0.f;
    pad[ty][tx] = 1.f;
}
"""
    r = imp(text, (16, 16, 1))
    assert warnings(r) == []
    tile, pad = r.pattern.arrays
    assert (tile.dims, tile.padding) == ((20, 20), 0)  # its halo columns are indexed: they are the array's
    assert (pad.dims, pad.padding) == ((16, 16), 1)  # nothing reaches column 16: shown as padding


def test_a_function_templates_arguments_are_bound_where_it_is_called():
    """``warpReduce<64>(sdata, tid)`` (reduction #6): ``blockSize`` is 64 inside, so the branches
    on it are decided as nvcc's instantiation decides them, not imported both ways."""
    text = """\
template <unsigned int blockSize, int step = 2>
__device__ void warpReduce(volatile float *sdata, unsigned int tid) {
    if (blockSize >= 64) sdata[tid] += sdata[tid + 32];
    if (blockSize >= 128) sdata[tid] += sdata[tid + 64];
    sdata[tid] += sdata[tid + step];
}
__global__ void k(float *out) {
    __shared__ float sdata[256];
    if (threadIdx.x < 32) warpReduce<64>(sdata, threadIdx.x);
    out[0] = sdata[0];
}
"""
    r = imp(text, (64, 1, 1))
    assert warnings(r) == []
    lines = [s.line for s in r.sources]
    assert 4 not in lines and lines.count(3) == 3 and lines.count(5) == 3  # load, load, store each
    # the default of ``step`` counts too
    assert [i.index for i in r.pattern.instructions if i.kind == "load"][:4] == [
        ("threadIdx.x + 32",), ("threadIdx.x",), ("threadIdx.x + 2",), ("threadIdx.x",)]


def test_a_break_on_a_constant_condition_ends_the_loop_there():
    """``if (k == 6) break;`` in a constant loop: six passes (the GPU runs 6 LDS.128, measured in
    kernels/extra5/double2_break); a break on a condition of the thread is still reported."""
    text = """\
__global__ void k(double *out) {
    __shared__ double2 s[128];
    double acc = 0.0;
    for (int k = 0; k < 16; ++k) {
        if (k == 6) break;
        acc += s[(threadIdx.x * 2 + k) % 128].x;
    }
    for (int j = 0; j < 4; ++j) {
        if (threadIdx.x < j) break;
        acc += s[j].x;
    }
    out[0] = acc;
}
"""
    r = imp(text, (64, 1, 1))
    loads = [i for i in r.pattern.instructions if i.kind == "load"]
    first = [i for i, s in zip(r.pattern.instructions, r.sources) if s.line == 6]
    assert sum(i.iterations() for i in first) == 6
    assert [(d.line, "break" in d.message) for d in warnings(r)] == [(9, True)]
    assert len(loads) >= 2


def test_a_barrier_that_votes_reads_its_argument():
    text = ("__global__ void k(int *out) {\n  __shared__ int f[128];\n  f[threadIdx.x] = 0;\n"
            "  out[0] = __syncthreads_or(f[(threadIdx.x + 1) % 128]) + __syncthreads_count(f[threadIdx.x ^ 1]);\n}\n")
    r = imp(text, (128, 1, 1))
    assert warnings(r) == []
    assert [(i.kind, i.index) for i in r.pattern.instructions] == [
        ("store", ("threadIdx.x",)), ("load", ("(threadIdx.x + 1) % 128",)), ("load", ("threadIdx.x ^ 1",))]
    assert r.barriers == (2, 3)  # each vote is a barrier after its read


def test_wmma_fragments_from_shared_memory_are_ldmatrix_and_8_byte_accesses():
    """load_matrix_sync of a 16-bit m16n16k16 fragment is one ldmatrix.x4 (lane l: row l % 16,
    column 8 * (l / 16)); a float accumulator stored row-major is four 8-byte stores. Measured in
    kernels/extra5/wmma_padded_ld: 4 wavefronts per ldmatrix.x4 with ld 24 and 40, 4 per STS.64
    with ld 36."""
    text = """\
#include <mma.h>
using namespace nvcuda;
__global__ void k(float *out) {
    __shared__ half As[16][24];
    __shared__ half Bs[16][40];
    __shared__ float Cs[16][36];
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::load_matrix_sync(a, &As[0][0], 24);
    wmma::load_matrix_sync(b, &Bs[0][16], 40);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(&Cs[0][0], c, 36, wmma::mem_row_major);
    wmma::fragment<wmma::matrix_a, 8, 32, 16, half, wmma::row_major> other;
    wmma::load_matrix_sync(other, &As[0][0], 24);
}
"""
    r = imp(text, (32, 1, 1))
    ins = r.pattern.instructions
    assert [(i.kind, i.matrices, i.trans) for i in ins[:2]] == [("ldmatrix", 4, False), ("ldmatrix", 4, True)]
    assert [(i.kind, i.width) for i in ins[2:]] == [("store", 8)] * 4
    an = analyze(r.pattern, detail=False)
    addr = {k: an.batch.addr[an.rows_of(k)[0]].tolist() for k in range(len(ins))}
    assert addr[0][:3] == [0, 48, 96] and addr[0][16] == 16  # rows 48 B apart; lane 16: column 8
    assert wavefronts(r) == [4, 4, 4, 4, 4, 4]
    assert [d.line for d in warnings(r)] == [15] and "8x32x16" in warnings(r)[0].message


def test_switch_on_a_constant_walks_the_matching_case_and_its_fall_through():
    text = """\
#define MODE 1
__global__ void k(float *out) {
    __shared__ float a[256];
    float acc = 0.f;
    switch (MODE) {
    case 0:
        acc = a[threadIdx.x];
        break;
    case 1:
        acc = a[threadIdx.x * 2];
    case 2:
        acc += a[threadIdx.x * 4];
        break;
    default:
        acc = a[0];
    }
    switch (threadIdx.x % 2) { case 0: acc += a[1]; break; }
    out[0] = acc;
}
"""
    r = imp(text, (32, 1, 1))
    assert [i.index for i in r.pattern.instructions] == [("threadIdx.x * 2",), ("threadIdx.x * 4",)]
    assert [(d.line, "switch" in d.message) for d in warnings(r)] == [(17, True)]  # on the thread: reported


def test_struct_static_constexpr_members_and_lambdas_are_followed():
    text = """\
struct Cfg {
    static constexpr int TILE = 32;
    static constexpr int PAD = 1;
    static constexpr int ROWS = TILE / 4;
};
__global__ void k(float *out) {
    __shared__ float s[Cfg::TILE][Cfg::TILE + Cfg::PAD];
    auto at = [&](int r, int c) { return r * (Cfg::TILE + Cfg::PAD) + c; };
    float *flat = &s[0][0];
    flat[at(threadIdx.x, Cfg::ROWS)] = 1.f;
}
"""
    r = imp(text, (32, 1, 1))
    assert warnings(r) == []
    assert r.pattern.arrays[0].dims == (32, 33) or (r.pattern.arrays[0].dims, r.pattern.arrays[0].padding) == ((32, 32), 1)
    assert wavefronts(r) == [1]  # a column of a 33-float-wide tile: 32 banks
    an = analyze(r.pattern, detail=False)
    assert an.batch.addr[an.rows_of(0)[0]][:3].tolist() == [32, 32 + 132, 32 + 264]


def test_float3_is_three_floats_and_a_warp_broadcast_is_followed():
    text = """\
__global__ void k(float *out) {
    __shared__ float3 pos[64];
    __shared__ int q[4 * 33];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int base = 0;
    if (lane == 0) base = warp * 33;
    base = __shfl_sync(0xffffffffu, base, 0);
    q[base + lane] = 1;
    int other = __shfl_xor_sync(0xffffffffu, lane * 2, 1);
    out[0] = pos[threadIdx.x % 64].y + q[other];
}
"""
    r = imp(text, (128, 1, 1))
    assert warnings(r) == []
    an = analyze(r.pattern, detail=False)
    assert not an.instruction_errors
    store, pos_y, q_other = r.pattern.instructions
    assert (store.array, pos_y.array, q_other.array) == ("q", "pos", "q")
    addr = [an.batch.addr[an.rows_of(k)[1]].tolist() for k in range(3)]  # warp 1
    q0 = next(a for a in r.pattern.arrays if a.name == "q").base
    assert addr[0] == [q0 + 4 * (33 + t) for t in range(32)]  # base = 33 for every lane of warp 1
    assert addr[1][:2] == [12 * 32 + 4, 12 * 33 + 4]  # pos[t].y: 12-byte elements, field at byte 4
    assert addr[2][:4] == [q0 + 4 * 2 * (t ^ 1) for t in range(4)]  # the partner lane's lane * 2


def test_block_and_grid_indices_are_those_of_one_block():
    """The model is one block's shared memory: blockIdx is 0 and gridDim 1 (what the verification
    launcher runs), so a grid-stride loop around a shared access makes one block's passes."""
    text = ("__global__ void k(const float *in, float *out) {\n  __shared__ float s[256];\n"
            "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < 256; i += blockDim.x * gridDim.x)\n"
            "    s[i] = in[i];\n  out[0] = s[blockIdx.x];\n}\n")
    r = imp(text, (64, 1, 1))
    assert warnings(r) == []
    notes = [d.message for d in r.diagnostics if d.severity == "note"]
    assert any("blockIdx.x taken as 0" in m for m in notes) and any("gridDim.x taken as 1" in m for m in notes)
    store, load = r.pattern.instructions
    assert store.iterations() == 4 and load.index == ("0",)


def test_a_while_loop_that_is_a_for_loop_is_walked_as_one():
    """``int i = threadIdx.x; while (i < 512) { ...; i += offset; }``: four passes per thread of 128
    (measured in kernels/extra8/hist_bins_blockoffset: 16 atomic wavefronts, not the 4 of one pass)."""
    text = ("__global__ void k(int *out) {\n  __shared__ unsigned int temp[256];\n"
            "  int i = threadIdx.x + blockIdx.x * blockDim.x;\n  int offset = blockDim.x * gridDim.x;\n"
            "  while (i < 500) {\n    atomicAdd(&temp[(i * 3) & 255], 1u);\n    i += offset;\n  }\n"
            "  out[0] = temp[0];\n}\n")
    r = imp(text, (128, 1, 1))
    assert warnings(r) == []
    atom = r.pattern.instructions[0]
    assert atom.kind == "atomic" and atom.iterations() == 4
    an = analyze(r.pattern, detail=False)
    # the last pass: threads 116..127 are past 500
    assert int(an.batch.active[an.rows_of(0)].reshape(4, -1)[3].sum()) == 116


def test_a_for_header_with_two_variables_runs_the_other_update_each_pass():
    """GPU Gems 3's n-body: ``for (int i = 0, tile = 0; i < N; i += p, tile++)``: four passes for
    N = 512 and 128 threads, ``tile`` counting them."""
    text = """\
__global__ void k(float *out, int N) {
    __shared__ float sh[512];
    for (int i = 0, tile = 0; i < N; i += blockDim.x, tile++) {
        sh[tile * blockDim.x + threadIdx.x] = 1.f;
    }
    out[0] = sh[0];
}
"""
    r = imp(text, (128, 1, 1), defines={"N": 512})
    assert warnings(r) == []
    stores = [i for i in r.pattern.instructions if i.kind == "store"]
    assert len(stores) == 4  # unrolled: tile changes each pass
    an = analyze(r.pattern, detail=False)
    firsts = sorted(int(an.batch.addr[an.rows_of(k)[0]][0]) for k in range(4))
    assert firsts == [0, 512, 1024, 1536]
