"""Animated WebP written frame by changed rectangle.

A replay's frames differ from one another only where lanes light up, but libwebp's animation
encoder (Pillow's ``save_all``) compares and encodes every full frame: 34 frames of 2432x1720 take it
3 s or more. The container is simple (RIFF: ``VP8X``, ``ANIM``, one ``ANMF`` per frame), so each
frame after the first is encoded here as a lossless still of just the rectangle that changed, placed
at its offset without blending: the same pictures, a fraction of the work. Format reference: the
WebP container specification (RIFF chunks, ``ANMF`` offsets stored halved).
"""

from __future__ import annotations

import io
import struct

import numpy as np


def _chunk(tag: bytes, payload: bytes) -> bytes:
    pad = b"\0" if len(payload) % 2 else b""
    return tag + struct.pack("<I", len(payload)) + payload + pad


def _u24(v: int) -> bytes:
    return int(v).to_bytes(3, "little")


def _still(rgb: np.ndarray) -> bytes:
    """The image chunk(s) of a lossless still of ``rgb`` (whatever follows ``RIFF....WEBP``)."""
    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(rgb, "RGB").save(buf, "WEBP", lossless=True, quality=0, method=0, exact=True)
    data = buf.getvalue()
    body = data[12:]
    if body[:4] == b"VP8X":  # a still with extended features: keep only its image chunks
        size = struct.unpack("<I", body[4:8])[0]
        body = body[8 + size + (size & 1):]
    return body


def _changed_box(prev: np.ndarray, cur: np.ndarray) -> tuple[int, int, int, int]:
    """(x, y, w, h) of the pixels that differ, x and y even (ANMF stores offsets halved); 2x2 when none."""
    diff = prev != cur
    if diff.ndim == 3:
        diff = diff.any(axis=2)
    rows, cols = np.flatnonzero(diff.any(axis=1)), np.flatnonzero(diff.any(axis=0))
    if rows.size == 0:
        return 0, 0, min(2, cur.shape[1]), min(2, cur.shape[0])
    y0, y1 = int(rows[0]) & ~1, int(rows[-1]) + 1
    x0, x1 = int(cols[0]) & ~1, int(cols[-1]) + 1
    return x0, y0, x1 - x0, y1 - y0


def encode_animation(frames: list[np.ndarray], durations: list[int], loop: int = 0,
                     palette: np.ndarray | None = None) -> bytes:
    """An animated WebP of ``frames`` (all the same size), each shown ``durations[k]`` ms: RGB
    arrays (H, W, 3 uint8), or palette indices (H, W) with ``palette`` (N, 3 uint8), compared as
    indices and turned into colours only where they changed. Lossless: every frame is exactly its
    array."""
    pal = None if palette is None else np.asarray(palette, np.uint8).reshape(-1, 3)
    h, w = frames[0].shape[:2]
    out = [_chunk(b"VP8X", bytes([0x02, 0, 0, 0]) + _u24(w - 1) + _u24(h - 1)),  # 0x02: animation
           _chunk(b"ANIM", struct.pack("<IH", 0xFFFFFFFF, loop))]
    prev = None
    for k, cur in enumerate(frames):
        x, y, fw, fh = (0, 0, w, h) if prev is None else _changed_box(prev, cur)
        head = _u24(x // 2) + _u24(y // 2) + _u24(fw - 1) + _u24(fh - 1) + _u24(durations[k])
        flags = 0x02  # do not blend: the rectangle replaces what was there; no disposal
        crop = cur[y:y + fh, x:x + fw]
        rgb = pal[crop] if pal is not None else np.ascontiguousarray(crop)
        out.append(_chunk(b"ANMF", head + bytes([flags]) + _still(rgb)))
        prev = cur
    body = b"WEBP" + b"".join(out)
    return b"RIFF" + struct.pack("<I", len(body)) + body
