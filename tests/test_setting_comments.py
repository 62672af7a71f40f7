"""The settings written in comments (``// block: 32, 8``, ``/* extern-size: 4096 */``) have one
reader, :func:`bankexplorer.sass.launch.setting_comments`: the emulator's launch and the as-written
import take the same comment (they used to differ: the import took the last, the launch the first,
and only the import saw a comment after code)."""

from bankexplorer.cudaimport import ImportOptions, import_cuda
from bankexplorer.sass.launch import setting_comments, text_settings

TEXT = """#define TILE 16
__global__ void k(float *o) {  // block: TILE, 4
  const char *s = "// block: 99";
  __shared__ float t[64 * 4];
  o[threadIdx.x] = t[threadIdx.y * 64 + threadIdx.x];
}
/* block: 8 */
/* extern-size:
   TILE * 4 */
"""


def test_every_settings_comment_is_found_in_order_with_its_place():
    assert setting_comments(TEXT) == [("block", "TILE, 4", 2, 32), ("block", "8", 7, 1),
                                      ("extern-size", "TILE * 4", 8, 1)]
    # prose is not a setting, nor is a string that looks like one
    assert setting_comments('// the block: is 32 wide\nx = "/* block: 2 */";\n') == []


def test_the_emulator_and_the_as_written_import_take_the_same_first_comment():
    settings = text_settings(TEXT)
    assert settings["block"] == ((16, 4, 1), "comment at line 2")
    assert settings["extern-size"] == (64, "comment at line 8")
    res = import_cuda(TEXT, ImportOptions())
    assert res.pattern.block == (16, 4, 1)
    assert res.block_origin == "comment at line 2"
