"""The animated WebP writer: frames as changed rectangles must read back pixel for pixel."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from bankexplorer.export.webp import encode_animation


def _frames():
    rng = np.random.default_rng(7)
    pal = rng.integers(0, 256, (6, 3), dtype=np.uint8)
    base = rng.integers(0, 6, (41, 67), dtype=np.uint8)  # odd sizes: offsets must still be even
    frames = [base]
    for k in range(5):
        f = frames[-1].copy()
        f[3 + k * 5: 9 + k * 5, 11 + k: 30 + 2 * k] = (k + 1) % 6  # a rectangle lights up
        frames.append(f)
    frames.append(frames[-1].copy())  # a frame with no change at all
    return frames, pal


def test_frames_read_back_exactly_with_their_durations():
    frames, pal = _frames()
    durations = [500] + [120] * (len(frames) - 2) + [900]
    data = encode_animation(frames, durations, palette=pal)
    im = Image.open(io.BytesIO(data))
    assert im.format == "WEBP" and im.is_animated and im.n_frames == len(frames) and im.size == (67, 41)
    for k, f in enumerate(frames):
        im.seek(k)
        assert np.array_equal(np.asarray(im.convert("RGB")), pal[f]), k
        assert im.info["duration"] == durations[k]


def test_rgb_frames_and_palette_frames_give_the_same_file():
    frames, pal = _frames()
    d = [100] * len(frames)
    assert encode_animation([pal[f] for f in frames], d) == encode_animation(frames, d, palette=pal)
