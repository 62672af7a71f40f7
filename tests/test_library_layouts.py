"""Layouts as kernel libraries write them: CuTe, Triton, TMA; ldmatrix fragments and TV copies."""

import numpy as np
import pytest

from bankexplorer.io import patternfile as pf
from bankexplorer.model import BankExplorerError, ExprError, Pattern, SharedArray, Transform, analyze
from bankexplorer.model.libraries import cute, from_text, tma, triton
from bankexplorer.model.libraries.access import (check_runs, fragment_index, fragment_shape, fragment_sweep,
                                                matrix_fragment, mode_expr, tv_copy, vector_sweep)
from bankexplorer.model.libraries.cute import LayoutParseError
from bankexplorer.model.pattern import Instruction
from bankexplorer.model.swizzle import Swizzle
from bankexplorer.resources import EXAMPLES


def table(text, rows, cols):
    lay = cute.parse(text)
    r, c = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    return lay(r, c).tolist()


# ---- CuTe: offsets against hand-computed tables --------------------------------------------------
def test_row_and_column_major():
    assert table("(_2,_3):(_3,_1)", 2, 3) == [[0, 1, 2], [3, 4, 5]]
    assert table("(2,3):(1,2)", 2, 3) == [[0, 2, 4], [1, 3, 5]]
    # no stride: CuTe's compact column-major default
    assert table("(2,3)", 2, 3) == [[0, 2, 4], [1, 3, 5]]
    # padded rows (stride 5 for 3 columns)
    assert table("(3,3):(5,1)", 3, 3) == [[0, 1, 2], [5, 6, 7], [10, 11, 12]]


def test_one_d_coordinates_are_colexicographic():
    lay = cute.parse("(_2,_3):(_3,_1)")
    # index i -> (i % 2, i / 2): the first mode varies fastest
    assert lay(np.arange(6)).tolist() == [0, 3, 1, 4, 2, 5]


def test_nested_modes():
    # mode 0 = (2,2):(1,4), mode 1 = (2,2):(2,8); coordinate x in a mode -> (x % 2, x / 2)
    assert table("((2,2),(2,2)):((1,4),(2,8))", 4, 4) == [
        [0, 2, 8, 10],
        [1, 3, 9, 11],
        [4, 6, 12, 14],
        [5, 7, 13, 15],
    ]
    # the example: ((_8,_8),(_8,_2)):((_64,_1),(_8,_512)), 64 x 16
    lay = cute.parse("((_8,_8),(_8,_2)):((_64,_1),(_8,_512))")
    assert lay.mode_sizes() == (64, 16)
    assert lay(0, 0) == 0 and lay(1, 0) == 64 and lay(7, 0) == 448 and lay(8, 0) == 1 and lay(9, 0) == 65
    assert lay(0, 1) == 8 and lay(0, 7) == 56 and lay(0, 8) == 512 and lay(63, 15) == 7 * 64 + 7 + 7 * 8 + 512
    # a bijection onto 0..1023
    r, c = np.meshgrid(np.arange(64), np.arange(16), indexing="ij")
    assert sorted(lay(r, c).ravel().tolist()) == list(range(1024))


def test_zero_and_negative_strides():
    assert table("(2,3):(0,1)", 2, 3) == [[0, 1, 2], [0, 1, 2]]
    assert table("(2,3):(_3,_-1)", 2, 3) == [[0, -1, -2], [3, 2, 1]]


def test_swizzle_composition():
    # Sw<1,1,1> o (4,4):(4,1): bit 2 (the row's low bit) XORs into bit 1
    assert table("Sw<1,1,1> o _0 o (4,4):(4,1)", 4, 4) == [
        [0, 1, 2, 3],
        [6, 7, 4, 5],
        [8, 9, 10, 11],
        [14, 15, 12, 13],
    ]
    # the offset is added before the swizzle: Sw(k + L(x))
    assert cute.parse("Sw<1,1,1> o 4 o (4,4):(4,1)")(0, 0) == 6
    # Sw<3,3,3> on a (8,64) half tile: chunk (bits 3-5) ^= row (bits 6-8)
    lay = cute.parse("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)")
    assert [int(lay(r, 0)) for r in range(8)] == [r * 64 + r * 8 for r in range(8)]
    assert int(lay(5, 19)) == 5 * 64 + ((19 // 8) ^ 5) * 8 + 19 % 8


def test_negative_shift_swizzle():
    # Sw<1,0,-2>: the bit at M + max(0,S) = 0 XORs into the bit at M + max(0,-S) = 2
    sw = cute.parse("Sw<1,0,-2> o _0 o _8:_1")
    assert [int(sw(i)) for i in range(8)] == [0, 5, 2, 7, 4, 1, 6, 3]
    # Sw<2,1,-3>: bits 1-2 XOR into bits 4-5
    sw = cute.parse("Sw<2,1,-3> o _0 o _64:_1")
    got = [int(sw(i)) for i in range(64)]
    assert got[2] == 2 ^ 16 and got[4] == 4 ^ 32 and got[6] == 6 ^ 48 and got[16] == 16
    assert sorted(got) == list(range(64))


def test_print_round_trip_and_pointer_prefix():
    for text in ("(_8,_64):(_64,_1)", "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)", "((_8,_8),(_8,_2)):((_64,_1),(_8,_512))",
                 "_64:_1", "Sw<2,4,-3> o _0 o (_4,_8):(_8,_1)"):
        assert str(cute.parse(text)) == text
    assert str(cute.parse("Sw<3,3,3> o (8,64):(64,1)")) == "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)"
    assert str(cute.parse("smem_ptr[16b](0x7f0000000400) o Sw<3,4,3> o _0 o (_8,_64):(_64,_1)")) == \
        "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)"


def test_pointer_swizzle_acts_on_bytes():
    """``Sw<B,M,S> o smem_ptr[Nb](unset) o L`` (CuTe's GMMA/UMMA atoms) swizzles byte addresses."""
    # float, 32-byte rows: Sw<1,4,3> flips byte bit 4 (the 4-element half row) when bit 7 (row 4..7) is set
    assert table("Sw<1,4,3> o smem_ptr[32b](unset) o (_8,_8):(_8,_1)", 8, 8) == \
        [[r * 8 + c for c in range(8)] for r in range(4)] + \
        [[r * 8 + (c ^ 4) for c in range(8)] for r in range(4, 8)]
    # the same swizzle on element offsets would flip element bit 4 instead: a different layout
    assert table("Sw<1,4,3> o _0 o (_8,_8):(_8,_1)", 8, 8) == [[r * 8 + c for c in range(8)] for r in range(8)]
    # Sw<3,4,3> on the bytes of half = Sw<3,3,3> on their element offsets, = TMA SWIZZLE_128B
    r, c = np.meshgrid(np.arange(8), np.arange(64), indexing="ij")
    gmma = SharedArray("s", "half", (8, 64), transform=from_text("Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)"))
    elem = SharedArray("s", "half", (8, 64), transform=from_text("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)"))
    box = SharedArray("s", "half", (8, 64), transform=tma.make("128B"))
    assert gmma.validate() == []
    assert np.array_equal(gmma.byte_offsets((r, c)), elem.byte_offsets((r, c)))
    assert np.array_equal(gmma.byte_offsets((r, c)), box.byte_offsets((r, c)))
    assert gmma.byte_offsets((np.array([5]), np.array([19]))).tolist() == [2 * (5 * 64 + ((19 // 8) ^ 5) * 8 + 3)]
    # float SW128 atom: the same 128-byte swizzle (Sw<3,4,3> for every type), unlike Sw<3,4,3> on elements
    f = SharedArray("s", "float", (8, 32), transform=from_text("Sw<3,4,3> o smem_ptr[32b](unset) o (_8,_32):(_32,_1)"))
    fb = SharedArray("s", "float", (8, 32), transform=tma.make("128B"))
    r, c = np.meshgrid(np.arange(8), np.arange(32), indexing="ij")
    assert np.array_equal(f.byte_offsets((r, c)), fb.byte_offsets((r, c)))
    # a swizzled pointer as print(tensor) shows it; the printed address is not used, the array's base is
    t = cute.parse("Sw<3,4,3>_smem_ptr[16b](0x7f0000000400) o (_8,_64):(_64,_1)")
    assert t.on_bytes and t.ptr_bits == 16 and str(t) == "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)"
    at128 = SharedArray("s", "half", (8, 64), base=128, transform=gmma.transform)
    # row 0 at address 128 (bits 7-9 = 1): its chunk 0 is stored in chunk 1, position-dependent like the TMA
    assert at128.byte_offsets((np.array([0]), np.array([0]))).tolist() == [16]
    at1024 = SharedArray("s", "half", (8, 64), base=1024, transform=gmma.transform)
    assert np.array_equal(at1024.byte_offsets((r[:, :8], c[:, :8])), gmma.byte_offsets((r[:, :8], c[:, :8])))


def test_pointer_swizzle_checks_element_width_and_base():
    lay = from_text("Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)")
    (where, msg), = SharedArray("s", "float", (8, 64), transform=lay).validate()
    assert where == "transform.layout" and "printed for 16-bit elements (smem_ptr[16b])" in msg and "32 bits" in msg
    (where, msg), = SharedArray("s", "half", (8, 64), base=240, transform=lay).validate()
    assert "before the array's base 240" in msg and "multiple of 1024 bytes" in msg
    # Sw<0,...> (CuTe's INTERLEAVE, no swizzle) and multi-mode atoms as tile_to_shape prints them
    inter = cute.parse("Sw<0,4,3> o smem_ptr[16b](unset) o ((_8,_8),(_8,_16)):((_8,_64),(_1,_512))")
    assert inter.mode_sizes() == (64, 128) and int(inter(9, 8)) == 8 + 64 + 512
    umma = cute.parse("Sw<3,4,3> o smem_ptr[16b](unset) o ((_128,_16),_1,_4):((_64,_1),_0,_16)")
    assert umma.mode_sizes() == (2048, 1, 4)
    # element (m=1, k=0) of k-block 0 is 128 bytes on: row 1 of the 128B pattern, chunk 0 -> chunk 1
    assert int(umma(1, 0, 0)) == 64 + 8 and int(umma(128, 0, 1)) == 1 + 16


def test_hierarchical_coordinates():
    """An array whose dims are the flattened shape indexes the layout leaf by leaf."""
    lay = from_text("((_8,_2),_64):((_64,_512),_1)")
    flat = SharedArray("s", "half", (8, 2, 64), transform=lay)
    modes = SharedArray("s", "half", (16, 64), transform=lay)
    assert flat.validate() == [] and modes.validate() == []
    i, j, k = (a.ravel() for a in np.meshgrid(np.arange(8), np.arange(2), np.arange(64), indexing="ij"))
    assert np.array_equal(flat.element_offsets((i, j, k)), i * 64 + j * 512 + k)
    # the same element through the top-level modes: mode-0 index i + 8 j
    assert np.array_equal(modes.element_offsets((i + 8 * j, k)), flat.element_offsets((i, j, k)))
    (where, msg), = SharedArray("s", "half", (8, 3, 64), transform=lay).validate()
    assert "or [8, 2, 64] for hierarchical coordinates" in msg


@pytest.mark.parametrize("text,col,expected", [
    ("Sw<3,4,3> o smem_ptr[16](unset) o (_8,_64):(_64,_1)", 24, "expected 'b]' after the element width, found ']'"),
    ("Sw<3,4,3> o smem_ptr[4b](unset) o (_8,_64):(_64,_1)", 13, "4-bit elements are not modelled"),
    ("Sw<3,4,3> o smem_ptr[16b](unset (_8,_64):(_64,_1)", 33, "expected ')' closing the pointer's address, found '('"),
    ("Sw<3,4,3> o smem_ptr[16b](0x7f00", 33, "expected ')' closing the pointer's address, found the end"),
    ("Sw<3,4,3> o smem_ptr[16b](unset) (_8,_64):(_64,_1)", 34, "expected 'o' after the pointer, found '('"),
    ("Sw<3,4,3> o smem_ptr(0x10) o (_8,_64):(_64,_1)", 27, "a swizzled pointer needs its element width"),
])
def test_pointer_parse_errors(text, col, expected):
    with pytest.raises(LayoutParseError) as e:
        cute.parse(text)
    assert e.value.pos + 1 == col and expected in e.value.message, (e.value.pos + 1, e.value.message)


@pytest.mark.parametrize("text,col,expected", [
    ("(8,64:(64,1)", 6, "expected ',' or ')' in the shape, found ':'"),
    ("(8,64):(64)", 8, "the stride (64) does not have the shape's structure (8,64)"),
    ("Sw<3,4> o (8,8):(8,1)", 7, "expected ',' after M in Sw<B,M,S>, found '>'"),
    ("Sw<3,4,2> o (8,8):(8,1)", 1, "|S| must be at least B"),
    ("(8,64):(64,1) junk", 15, "expected the end of the layout, found 'j'"),
    ("(8,64):(64,x)", 12, "expected an integer or '(' in the stride, found 'x'"),
    ("(8,0):(1,1)", 1, "shape entries must be positive"),
    ("(8,8):(1,8) o (2,2)", 13, "only a swizzle Sw<B,M,S> can be composed"),
    ("Sw<3,4,3> (8,8):(8,1)", 11, "expected 'o' (composition) after the swizzle, found '('"),
    ("", 1, "expected a CuTe layout"),
])
def test_parse_errors_name_the_column(text, col, expected):
    with pytest.raises(LayoutParseError) as e:
        cute.parse(text)
    assert isinstance(e.value, ExprError) and isinstance(e.value, BankExplorerError)
    assert e.value.pos + 1 == col
    assert expected in e.value.message and f"at column {col} of" in e.value.message


# ---- TMA ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode,B", [("32B", 1), ("64B", 2), ("128B", 3)])
def test_tma_modes_equal_their_swizzle(mode, B):
    width = int(mode[:-1])
    a = SharedArray("s", "half", (64, width // 2), transform=tma.make(mode))
    assert a.validate() == []
    cute_form = SharedArray("s", "half", (64, width // 2), transform=Transform.make("cute", B=B, M=4, S=3, unit="byte"))
    idx = a.all_indices()
    assert np.array_equal(a.byte_offsets(idx), cute_form.byte_offsets(idx))
    assert np.array_equal(a.byte_offsets(idx), Swizzle(B, 4, 3)(np.arange(64 * width, step=2)))
    # 16-byte chunk c of 128-byte span row r lands at chunk c ^ (bits 7.. of the address)
    lin = np.arange(0, 4096, 16)
    assert np.array_equal(Swizzle(B, 4, 3)(lin) >> 4, (lin >> 4) ^ ((lin >> 7) & ((1 << B) - 1)))


def test_tma_swizzles_the_address_not_the_offset():
    a = SharedArray("s", "half", (8, 64), base=512, transform=tma.make("128B"))
    # row 0 sits at address 512: bits 7-9 = 4, so its chunk 0 moves to chunk 4
    assert a.byte_offsets((np.array([0]), np.array([0]))).tolist() == [64]
    assert a.validate() == []
    (where, msg), = SharedArray("s", "half", (8, 64), base=64, transform=tma.make("128B")).validate()
    assert where == "transform.mode" and "base 64 is not" in msg
    assert tma.period("128B") == 1024 and tma.period("64B") == 512 and tma.period("32B") == 256


def test_tma_box_row_wider_than_the_swizzle_is_refused():
    a = SharedArray("s", "half", (8, 64), transform=tma.make("64B"))
    (where, msg), = a.validate()
    assert where == "transform.mode" and "128 B is wider than the 64B swizzle" in msg


# ---- Triton ---------------------------------------------------------------------------------------
def stored(arr):
    """What each memory slot holds when the tensor holds 0..n-1 (Triton's doc tables)."""
    off = arr.element_offsets(arr.all_indices())
    out = np.empty(arr.numel, np.int64)
    out[off] = np.arange(arr.numel)
    return out.reshape(arr.dims).tolist()


@pytest.mark.parametrize("vec,per,mx,shape,expected", [
    (1, 1, 4, (4, 4), [[0, 1, 2, 3], [5, 4, 7, 6], [10, 11, 8, 9], [15, 14, 13, 12]]),
    (1, 2, 4, (4, 4), [[0, 1, 2, 3], [4, 5, 6, 7], [9, 8, 11, 10], [13, 12, 15, 14]]),
    (1, 1, 2, (8, 4), [[0, 1, 2, 3], [5, 4, 7, 6], [8, 9, 10, 11], [13, 12, 15, 14],
                       [16, 17, 18, 19], [21, 20, 23, 22], [24, 25, 26, 27], [29, 28, 31, 30]]),
    (1, 2, 2, (8, 4), [[0, 1, 2, 3], [4, 5, 6, 7], [9, 8, 11, 10], [13, 12, 15, 14],
                       [16, 17, 18, 19], [20, 21, 22, 23], [25, 24, 27, 26], [29, 28, 31, 30]]),
    (2, 1, 4, (4, 8), [[0, 1, 2, 3, 4, 5, 6, 7], [10, 11, 8, 9, 14, 15, 12, 13],
                       [20, 21, 22, 23, 16, 17, 18, 19], [30, 31, 28, 29, 26, 27, 24, 25]]),
])
def test_triton_swizzled_shared_published_examples(vec, per, mx, shape, expected):
    """The five examples in Triton's SwizzledSharedEncodingAttr documentation."""
    a = SharedArray("s", "int", shape, transform=triton.swizzled(vec, per, mx, (1, 0)))
    assert a.validate() == []
    assert stored(a) == expected


def test_triton_formula_and_order():
    r, c = np.meshgrid(np.arange(32), np.arange(64), indexing="ij")
    formula = ((c // 8) ^ ((r // 1) % 8)) * 8 + c % 8
    assert np.array_equal(triton.swizzled_column(r, c, 8, 1, 8, 64), formula)
    # order [0, 1]: dimension 0 is contiguous, so the same table transposed
    a = SharedArray("s", "int", (4, 4), transform=triton.swizzled(1, 1, 4, (0, 1)))
    off = a.element_offsets(a.all_indices()).reshape(4, 4)
    assert off.tolist() == [[0, 5, 10, 15], [1, 4, 11, 14], [2, 7, 8, 13], [3, 6, 9, 12]]
    # narrow tile: the xor amount wraps modulo the number of columns, as Triton's linear layout does
    a = SharedArray("s", "half", (8, 16), transform=triton.swizzled(8, 1, 8, (1, 0)))
    assert a.element_offsets((np.arange(4), np.zeros(4, int))).tolist() == [0, 24, 32, 56]


def test_nvmma_equals_tma_boxes():
    # 128B swizzle on a 16x128 half tile: two boxes of 16 rows x 64 columns, each TMA-128B swizzled
    a = SharedArray("s", "half", (16, 128), transform=triton.nvmma(128, element_bits=16))
    assert a.validate() == []
    box = SharedArray("b", "half", (16, 64), transform=tma.make("128B"))
    r, c = np.meshgrid(np.arange(16), np.arange(64), indexing="ij")
    assert np.array_equal(a.byte_offsets((r, c)), box.byte_offsets((r, c)))
    assert np.array_equal(a.byte_offsets((r, c + 64)), box.byte_offsets((r, c)) + 16 * 128)
    # transposed: dimension 0 is the contiguous one
    t = SharedArray("t", "half", (64, 16), transform=triton.nvmma(128, transposed=True))
    assert np.array_equal(t.byte_offsets((c, r)), box.byte_offsets((r, c)))
    # swizzlingByteWidth = 0: no swizzle, row-major boxes of at most 256 columns
    plain = SharedArray("p", "half", (16, 64), transform=triton.nvmma(0))
    assert plain.validate() == [] and np.array_equal(plain.byte_offsets((r, c)), (r * 64 + c) * 2)
    wide = SharedArray("w", "half", (8, 512), transform=triton.nvmma(0))
    assert wide.byte_offsets((np.array([1, 1]), np.array([3, 259]))).tolist() == [2 * 259, 2 * (8 * 256 + 259)]
    assert from_text("#ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16}>") == \
        triton.nvmma(0, False, 16)
    # element width must match the array's type
    bad = SharedArray("s", "float", (16, 64), transform=triton.nvmma(128, element_bits=16))
    assert bad.validate() == [("transform.elementBitWidth", "is 16 but the array's float elements are 32 bits")]


def test_paste_recognises_each_library():
    assert from_text("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)") == Transform.make(
        "cute-layout", layout="Sw<3,4,3> o _0 o (_8,_64):(_64,_1)")
    assert from_text("#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], "
                     "CTAsPerCGA = [1, 1], CTASplitNum = [1, 1], CTAOrder = [1, 0]}>") == triton.swizzled(8, 1, 8, (1, 0))
    assert from_text("#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 16}>") == \
        triton.nvmma(64, True, 16)
    assert from_text("#triton_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], "
                     "hasLeadingOffset = true}>") == triton.nvmma(128)
    assert from_text("CU_TENSOR_MAP_SWIZZLE_32B") == tma.make("32B")
    assert from_text("SWIZZLE_NONE") == tma.make("none")


@pytest.mark.parametrize("text,col,expected", [
    ("#ttg.swizzled_shared<{vec = 8, perPhase 1}>", 41, "expected '=' after perPhase"),
    ("#ttg.swizzled_shared<{vec = 8, foo = 1}>", 32, "swizzled_shared has no parameter 'foo'"),
    ("#ttg.swizzled_shared<{vec = 8, order = [1 0]}>", 43, "expected ',' or ']' in order"),
    ("#ttg.nvmma_shared<{swizzlingByteWidth = 96}>", 41, "swizzlingByteWidth must be 0, 32, 64 or 128, got 96"),
    ("#ttg.blocked<{sizePerThread = [1, 8]}>", 1, "expected #ttg.swizzled_shared"),
    ("CU_TENSOR_MAP_SWIZZLE_96B", 15, "expected a TMA swizzle mode"),
])
def test_paste_errors_name_the_column(text, col, expected):
    with pytest.raises(LayoutParseError) as e:
        from_text(text)
    assert e.value.pos + 1 == col and expected in e.value.message


# ---- arrays using the kinds: validation and files -----------------------------------------------
def test_array_dims_must_match_the_layout():
    lay = from_text("((_8,_8),(_8,_2)):((_64,_1),(_8,_512))")
    assert SharedArray("s", "half", (64, 16), transform=lay).validate() == []
    assert SharedArray("s", "half", (1024,), transform=lay).validate() == []
    (where, msg), = SharedArray("s", "half", (16, 64), transform=lay).validate()
    assert where == "transform.layout" and "needs dims [64, 16] or [1024]" in msg
    (where, msg), = SharedArray("s", "half", (8, 8), transform=from_text("(8,8):(-8,1)")).validate()
    assert msg == "maps s[7][0] to a negative offset (-56)"  # the most negative one
    (where, msg), = SharedArray("s", "half", (8, 8), transform=Transform.make("cute-layout", layout="(8,8")).validate()
    assert where == "transform.layout" and "at column 5" in msg


def test_file_round_trip_and_errors_with_paths():
    p = pf.load(EXAMPLES / "20_cute_sw333_ldmatrix_x4.json")
    assert pf.loads(pf.dumps(p)) == p
    d = pf.to_dict(p)
    d["arrays"][0]["transform"]["layout"] = "Sw<3,3,3> o _0 o (_8,_64):(_64 _1)"
    with pytest.raises(BankExplorerError) as e:
        pf.from_dict(d)
    assert "arrays[0].transform.layout: expected ',' or ')' in the stride, found '_' at column 32" in str(e.value)
    d = pf.to_dict(pf.load(EXAMPLES / "22_triton_swizzled_shared_ldmatrix.json"))
    d["arrays"][0]["transform"]["order"] = [1, 1]
    with pytest.raises(BankExplorerError, match=r"arrays\[0\]\.transform\.order: must list each"):
        pf.from_dict(d)


@pytest.mark.parametrize("transform,dims", [
    (cute.make("Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)"), (8, 64)),
    (cute.make("((_8,_2),_64):((_64,_512),_1)"), (8, 2, 64)),
    (triton.swizzled(8, 2, 4, (1, 0)), (16, 64)),
    (triton.nvmma(64, True, 16), (64, 16)),
    (tma.make("64B"), (16, 32)),
])
def test_every_library_form_round_trips_and_meets_the_schema(transform, dims):
    jsonschema = pytest.importorskip("jsonschema")
    import json

    from bankexplorer.resources import SCHEMA

    arr = SharedArray("A", "half", dims, transform=transform)
    assert arr.validate() == []
    try:
        ins = fragment_sweep(arr, 4, trans=True)
    except BankExplorerError:  # a tile ldmatrix cannot read (2 x 64, or contiguous along dim 0): scalar loads
        ins = Instruction(kind="load", array="A", index=("lane % 8",) + ("0",) * (arr.ndim - 1))
    p = Pattern(arrays=(arr,), instructions=(ins,))
    assert not analyze(p).instruction_errors
    assert pf.loads(pf.dumps(p)) == p
    v = jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text()))
    d = pf.to_dict(p)
    assert list(v.iter_errors(d)) == []
    bad = json.loads(json.dumps(d))
    bad["arrays"][0]["transform"]["surprise"] = 1
    assert list(v.iter_errors(bad))


def test_schema_rejects_bad_library_parameters():
    jsonschema = pytest.importorskip("jsonschema")
    import json

    from bankexplorer.resources import SCHEMA

    v = jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text()))
    d = pf.to_dict(pf.load(EXAMPLES / "23_tma_128b_ldmatrix.json"))
    for t in ({"kind": "tma", "mode": "16B"}, {"kind": "triton-nvmma", "swizzlingByteWidth": 48},
              {"kind": "triton-swizzled", "vec": 3}, {"kind": "cute-layout"}):
        d["arrays"][0]["transform"] = t
        assert list(v.iter_errors(d)), t


# ---- access side --------------------------------------------------------------------------------
def test_ldmatrix_fragments():
    assert fragment_index("16x16", 4) == ("lane % 16", "(lane / 16) * 8")
    assert fragment_index("8x8", 1) == ("lane % 8", "0")
    assert fragment_index("16x8", 2) == ("lane % 16", "0")
    assert fragment_index("8x16", 2) == ("lane % 8", "(lane / 8) * 8")
    assert fragment_index("16x16", 4, rows_first=False) == ("lane % 8 + (lane / 16) * 8", "((lane / 8) % 2) * 8")
    with pytest.raises(BankExplorerError, match="holds 4 matrices"):
        fragment_index("16x16", 2)
    ins = matrix_fragment("A", 4, "16x16", trans=True, row0="m")
    assert ins.index == ("m + lane % 16", "(lane / 16) * 8") and ins.trans and ins.kind == "ldmatrix"
    # the bundled example 15 writes the same instruction by hand
    p = pf.load(EXAMPLES / "15_ldmatrix_x4_swizzle343.json")
    assert p.instructions[0].index == matrix_fragment("A", 4, "16x16").index


def test_ldmatrix_rows_of_each_matrix():
    """Lane 8m+i gives row i of matrix m; for 16x16 the matrices go down, then across."""
    p = Pattern(arrays=(SharedArray("A", "half", (16, 16)),), instructions=(matrix_fragment("A", 4, "16x16"),))
    an = analyze(p)
    rows = an.lane_index[0, :, 0].tolist()
    cols = an.lane_index[0, :, 1].tolist()
    assert rows == list(range(16)) * 2 and cols == [0] * 16 + [8] * 16


def test_tv_layout_expressions_and_wavefronts():
    assert mode_expr((8, 16), (128, 1), "tid") == "(tid % 8) * 128 + (tid / 8)"
    assert mode_expr((4, (2, 2)), (0, (1, -4)), "x") == "((x / 4) % 2) + (x / 8) * (-4)"
    tile = (16, 64)
    row_major = SharedArray("A", "half", tile, transform=from_text("(_16,_64):(_64,_1)"))
    swizzled = SharedArray("A", "half", tile, transform=from_text("Sw<3,3,3> o _0 o (_16,_64):(_64,_1)"))
    # threads along the rows (8 per row), 8 values each: every quarter-warp reads one 128-byte row
    along = tv_copy("((_8,_16),_8):((_128,_1),_16)", tile, "A", 8, arr=row_major)
    # threads down the columns: a quarter-warp reads 8 rows of the same 16-byte column chunk
    down = tv_copy("((_16,_8),_8):((_1,_128),_16)", tile, "A", 8, arr=row_major)
    assert along.width == 16 and along.active == "tid < 128"

    def wf(arr, ins):
        an = analyze(Pattern(block=(128, 1, 1), arrays=(arr,), instructions=(ins,)))
        assert not an.instruction_errors
        return an.result.wavefronts.tolist()

    assert wf(row_major, along) == [4, 4, 4, 4]
    assert wf(row_major, down) == [32, 32, 32, 32]
    assert wf(swizzled, down) == [4, 4, 4, 4]
    # every (thread, value) is read exactly once
    an = analyze(Pattern(block=(128, 1, 1), arrays=(row_major,), instructions=(along,)))
    idx = an.lane_index[:, :, 0] * 64 + an.lane_index[:, :, 1]
    assert sorted(idx.ravel().tolist()) == list(range(0, 1024, 8))


def test_tv_copy_refuses_what_cute_would_not_vectorize():
    col_major = SharedArray("A", "half", (16, 64), transform=from_text("(_16,_64):(_1,_16)"))
    with pytest.raises(BankExplorerError, match="not 16 consecutive, aligned bytes"):
        tv_copy("((_8,_16),_8):((_128,_1),_16)", (16, 64), "A", 8, arr=col_major)
    with pytest.raises(BankExplorerError, match="must divide the 8 values"):
        tv_copy("((_8,_16),_8):((_128,_1),_16)", (16, 64), "A", 3)


def test_fragment_shapes_fit_the_tile():
    assert [fragment_shape(m, 2, 16, 64) for m in (1, 2, 4)] == ["8x8", "16x8", "16x16"]
    assert fragment_shape(4, 2, 8, 64) == "8x32" and fragment_shape(2, 2, 8, 64) == "8x16"
    assert fragment_shape(4, 4, 16, 32) == "16x8" and fragment_shape(4, 1, 16, 64) == "16x32"
    with pytest.raises(BankExplorerError, match="holds no .x4 fragment"):
        fragment_shape(4, 2, 8, 8)


@pytest.mark.parametrize("matrices,trans", [(1, False), (2, False), (4, False), (4, True)])
def test_fragment_sweep_reads_every_matrix_row_once(matrices, trans):
    arr = SharedArray("A", "half", (2, 16, 64), transform=triton.swizzled(8, 1, 8, (2, 1, 0)))
    ins = fragment_sweep(arr, matrices, trans=trans)
    assert ins.index[0] == "0" and ins.trans == trans
    an = analyze(Pattern(arrays=(arr,), instructions=(ins,)))
    assert not an.instruction_errors
    li = an.lane_index[:, :8 * matrices]
    starts = sorted((int(r), int(c)) for r, c in zip(li[:, :, 1].ravel(), li[:, :, 2].ravel()))
    assert starts == [(r, c) for r in range(16) for c in range(0, 64, 8)]
    assert an.result.wavefronts.tolist() == [matrices] * (128 // (8 * matrices))  # swizzled: the minimum


def test_vector_sweep_and_contiguity():
    arr = SharedArray("A", "float", (8, 32), transform=from_text("Sw<3,2,3> o _0 o (_8,_32):(_32,_1)"))
    ins = vector_sweep(arr, 32)
    assert ins.index == ("(v + tid) / 8", "((v + tid) % 8) * 4") and ins.loops[0].values() == range(0, 64, 32)
    an = analyze(Pattern(arrays=(arr,), instructions=(ins,)))
    assert an.result.wavefronts.tolist() == [4, 4]
    # Sw<3,2,3> on float elements keeps 4-float runs (bits 0-1 untouched); Sw<2,1,3> swaps float pairs
    with pytest.raises(BankExplorerError, match=r"A\[0\]\[16..19\] is not 16 consecutive, aligned bytes in this layout \(byte offsets \[72, 76, 64, 68\]\)"):
        check_runs(SharedArray("A", "float", (8, 32), transform=from_text("Sw<2,1,3> o _0 o (_8,_32):(_32,_1)")),
                   4, "vector")
    # contiguous along neither of the last two dimensions: refused, saying so
    with pytest.raises(BankExplorerError, match=r"A\[0\]\[0..7\] is not 16 consecutive, aligned bytes .* \(byte offsets "
                       r"\[0, 2, 4, 6, 12, 14, 8, 10\]\).* not contiguous along the last dimension nor along the one before"):
        fragment_sweep(SharedArray("A", "half", (16, 64), transform=from_text("Sw<1,1,1> o _0 o (_16,_64):(_64,_1)")), 4)


def test_numbers_quoted_in_docs_library_layouts():
    def byte(arr, *c):
        return int(arr.byte_offsets(tuple(np.array([x]) for x in c))[0])

    sw = SharedArray("A", "half", (8, 64), transform=from_text("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)"))
    assert byte(sw, 5, 19) == 758 and (758 // 4) % 32 == 29
    assert byte(SharedArray("A", "half", (8, 64), transform=from_text("(_8,_64):(_64,_1)")), 5, 19) == 678
    assert byte(SharedArray("A", "half", (8, 64), transform=from_text(
        "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)")), 5, 19) == 758
    assert byte(SharedArray("A", "half", (512,), transform=sw.transform), 157) == 758
    nested = cute.parse("((_8,_8),(_8,_2)):((_64,_1),(_8,_512))")
    assert int(nested(9, 8)) == 577 and int(nested(63, 15)) == 1023
    assert byte(SharedArray("A", "half", (16, 64), transform=triton.swizzled(8, 1, 8, (1, 0))), 5, 19) == 2 * 379
    assert byte(SharedArray("A", "half", (16, 64), transform=triton.swizzled(8, 2, 4, (1, 0))), 5, 19) == 2 * 323
    nv = SharedArray("A", "half", (16, 128), transform=triton.nvmma(128, False, 16))
    assert byte(nv, 5, 19) == 758 and byte(nv, 5, 83) == 2806
    for mode, cols, rows in (("32B", 16, [0, 32, 64, 96, 144, 176, 208, 240]),
                             ("64B", 32, [0, 64, 144, 208, 288, 352, 432, 496]),
                             ("128B", 64, [0, 144, 288, 432, 576, 720, 864, 1008])):
        box = SharedArray("A", "half", (8, cols), transform=tma.make(mode))
        assert [byte(box, r, 0) for r in range(8)] == rows
    shifted = SharedArray("A", "half", (8, 64), base=128, transform=tma.make("128B"))
    assert [byte(shifted, r, 0) // 16 % 8 for r in range(8)] == [(r + 1) % 8 for r in range(8)]


# ---- the shipped examples ------------------------------------------------------------------------
@pytest.mark.parametrize("name,wavefronts,iterations", [
    ("20_cute_sw333_ldmatrix_x4.json", [4, 32], 2),
    ("21_cute_sw333_ldmatrix_x4_trans.json", [4, 32], 2),
    ("22_triton_swizzled_shared_ldmatrix.json", [4], 8),
    ("23_tma_128b_ldmatrix.json", [4], 16),
    ("24_cute_sw233_ldmatrix_2way.json", [8], 2),
    ("25_cute_float4_column_reads.json", [4, 32, 16], 8),
    ("26_triton_swizzled_ldmatrix_float4.json", [4, 32, 8, 4, 32], None),
    ("27_tma_float4_and_64b.json", [4, 32, 4, 16], None),
])
def test_library_examples(name, wavefronts, iterations):
    an = analyze(pf.load(EXAMPLES / name))
    assert not an.instruction_errors
    for k, expected in enumerate(wavefronts):
        rows = an.rows_of(k)
        assert iterations is None or len(rows) == iterations
        assert an.result.wavefronts[rows].tolist() == [expected] * len(rows)


def test_examples_read_every_element_once():
    """The ldmatrix loops of the TMA example cover the 64x64 tile exactly (no row read twice)."""
    an = analyze(pf.load(EXAMPLES / "23_tma_128b_ldmatrix.json"))
    a = an.pattern.arrays[0]
    starts = an.batch.addr[an.batch.addr >= 0].reshape(-1)
    assert sorted(starts.tolist()) == sorted(set(starts.tolist()))
    assert len(starts) == 64 * 64 * 2 // 16 and a.nbytes == 8192
