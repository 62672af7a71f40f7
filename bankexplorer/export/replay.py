"""The replay as an animated image (GIF, APNG or WebP): how one warp instruction is served,
wavefront by wavefront.

Frames: the whole request, one per wavefront (the lanes it serves bright and outlined, those
still waiting faded, those already served in full colour), then the totals; wavefronts + 2 in
all. Speed comes from drawing once: the tile and lanes-to-banks matrix are painted by Qt a single
time, quantized to a palette once, and every frame is made from that picture with numpy in
palette space (faded = the same picture through a lookup table, outlines = slices set to one
index), plus a small caption strip per frame. Pillow writes the frames with fast settings.
"""

from __future__ import annotations

import os

import numpy as np

from ..model.hardware import latency_cycles
from ..model.replay import ReplayStep, lane_text, replay_steps
from .matrix import MatrixPanel
from .canvas import Canvas
from .figure import Picture, subtitle
from .panel import lh, pct, tw
from .scene import ExportError, Scene
from .tile import TilePanel

ANIM_FORMATS = ("gif", "png", "webp")  # .png is an animated PNG (APNG)
#: milliseconds per frame: the request, each wavefront, the totals
DURATIONS = (1600, 700, 2600)
FADE = 0.72  # how far waiting cells fade toward the background


def anim_format_of(path: str | os.PathLike) -> str:
    from .render import suffix_format

    return suffix_format(path, ANIM_FORMATS, ".gif, .png (APNG) or .webp", "animation format")


class ReplayPicture(Picture):
    """The still part of every frame: title, a caption strip (filled per frame), the tile beside
    the lanes-to-banks matrix, and a key to the replay's marks."""

    def __init__(self, scene: Scene):
        super().__init__(scene)
        if scene.det is None:
            raise ExportError("the replay needs a valid instruction: "
                              + (scene.error or "the pattern has no instruction"))
        M, f = self.margin, self.f
        self.steps = replay_steps(scene.det)
        self.title_h = lh(f.title, 1.15) + lh(f.body) + 4
        self.caption_y = M + self.title_h
        self.caption_h = round(lh(f.heading, 1.2) + lh(f.body) + 10 + 14)
        top = self.caption_y + self.caption_h + M * 0.6
        self.tile = TilePanel(scene, max_w=560, max_h=560)
        self.matrix = MatrixPanel(scene, max_w=scene.hw.banks * 16)
        self.placements["tile"] = (self.tile, M, top)
        bx = M + self.tile.width + M * 1.5
        self.placements["matrix"] = (self.matrix, bx, top)
        self.key_y = top + max(self.tile.height, self.matrix.height) + M * 0.6
        self.width = round(max(bx + self.matrix.width, tw(scene.title, f.title), tw(subtitle(scene), f.body),
                               M + tw(self.key_text(), f.small)) + M)
        self.height = round(self.key_y + lh(f.small) + M * 0.6)

    @staticmethod
    def key_text() -> str:
        return ("thick outline: served in this wavefront  ·  faded: still waiting  ·  full colour: served already  ·  "
                "tile: cell colour = bank  ·  matrix: lane × bank, colour = wavefront")

    def draw_text(self, cv: Canvas) -> None:
        M, f, st = self.margin, self.f, self.st
        cv.text(M, M, self.scene.title, f.title, st.ink)
        cv.text(M, M + lh(f.title, 1.15), subtitle(self.scene), f.body, st.colors.faint)
        cv.text(M, self.key_y, self.key_text(), f.small, st.colors.faint)

    # ---- what each frame says --------------------------------------------------------------
    def caption(self, step: ReplayStep) -> tuple[str, str]:
        det, n = self.scene.det, len(self.steps) - 2
        served = len(self.steps[0].now)
        if step.kind == "request":
            return (f"The request: {served} lane{'s' if served != 1 else ''}, {det.degree}-way, "
                    f"{n} wavefront{'s' if n != 1 else ''} (ideal {det.ideal})",
                    "each wavefront serves one word per bank; lanes that need another word of a busy bank wait")
        if step.kind == "totals":
            eff = det.ideal / n if n else 1.0
            return (f"Done: {n} wavefront{'s' if n != 1 else ''} vs ideal {det.ideal} ({pct(eff)} efficient)",
                    f"≈ {float(latency_cycles(n)):.0f} cycles for a lone warp; on a busy SM one wavefront per cycle, "
                    f"so {n} cycle{'s' if n != 1 else ''} of the shared-memory pipe")
        return (f"Wavefront {step.wave + 1} of {n}: {lane_text(step.now)}",
                f"{len(step.now)} served now  ·  {len(step.done)} served before  ·  {len(step.waiting)} waiting")


# ---- frames in palette space ---------------------------------------------------------------------
def _qimage_rgb(img) -> np.ndarray:
    from PySide6.QtGui import QImage

    img = img.convertToFormat(QImage.Format.Format_RGB888)
    w, h, bpl = img.width(), img.height(), img.bytesPerLine()
    a = np.frombuffer(img.constBits(), np.uint8, count=bpl * h).reshape(h, bpl)
    return a[:, : w * 3].reshape(h, w, 3).copy()


def _qimage_gray(img) -> np.ndarray:
    w, h, bpl = img.width(), img.height(), img.bytesPerLine()
    a = np.frombuffer(img.constBits(), np.uint8, count=bpl * h).reshape(h, bpl)
    return a[:, :w].copy()


class _Frames:
    """Builds the frames of a :class:`ReplayPicture` at ``scale`` as palette-index arrays."""

    RAMP = 24  # caption text: ink over background in this many steps

    def __init__(self, pic: ReplayPicture, scale: int):
        from PIL import Image

        from .render import to_image

        self.pic, self.s = pic, scale
        st = pic.st
        rgb = _qimage_rgb(to_image(pic, scale))
        base = Image.fromarray(rgb).quantize(colors=96, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        self.idx = np.asarray(base, np.uint8)
        pal = np.array(base.getpalette()[: 96 * 3], np.float64).reshape(-1, 3)
        n = len(pal)
        bg = np.array(st.background, np.float64)
        ink = np.array(st.ink, np.float64)
        for exact in (bg, ink):  # the quantizer averages: keep the background and ink exact
            near = np.abs(pal - exact).sum(axis=1) <= 24
            pal[near] = exact
        faded = pal + (bg - pal) * FADE
        ramp = np.array([bg + (ink - bg) * (i / (self.RAMP - 1)) for i in range(self.RAMP)])
        self.waves = len(st.waves)
        extra = [st.ink, st.colors.faint, st.colors.empty] + [st.wave_rgb(k) for k in range(self.waves)]
        palette = np.vstack([pal, faded, ramp, np.array(extra, np.float64)])
        assert len(palette) <= 256
        self.palette = np.clip(np.round(palette), 0, 255).astype(np.uint8)
        self.fade_lut = np.arange(256, dtype=np.uint8)
        self.fade_lut[:n] = np.arange(n, 2 * n, dtype=np.uint8)
        self.ramp0 = 2 * n
        e0 = 2 * n + self.RAMP
        self.HL, self.FAINT, self.EMPTY, self.WAVE0 = e0, e0 + 1, e0 + 2, e0 + 3
        # pixel boxes of the grids (faded while wavefronts play) and of every access
        self.grid_boxes = []
        for key in ("tile", "matrix"):
            panel, x, y = pic.placements[key]
            self.grid_boxes.append(self._box(x + panel.left, y + panel.top, panel.grid_w, panel.grid_h))
        tile, tx, ty = pic.placements["tile"]
        matrix, mx, my = pic.placements["matrix"]
        self.lane_boxes: dict[int, list[tuple[int, int, int, int]]] = {}
        for run in tile.runs:
            boxes = []
            for r in run.rows:
                if not tile.r0 <= r < tile.r1:
                    continue
                c0 = max(run.col, tile.c0)
                c1 = run.col + 1 if run.down else min(run.col + run.length, tile.c1)
                if c1 <= c0:
                    continue
                x0, y0, _, _ = tile.cell_rect(r, c0)
                g = tile.gap
                boxes.append(self._box(tx + x0 - g / 2, ty + y0 - g / 2, (c1 - c0) * tile.cell, tile.cell))
            for ln in run.lanes:
                self.lane_boxes.setdefault(ln, []).extend(boxes)
        det = pic.scene.det
        for ln in np.flatnonzero(det.lane_addr >= 0).tolist():
            for b in sorted(set(int(x) for x in det.lane_banks[ln] if x >= 0)):
                x0, y0, cw, ch = matrix.cell_rect(ln, b)
                g = max(1.0, matrix.cell * 0.08)
                self.lane_boxes.setdefault(ln, []).append(self._box(mx + x0 - g / 2, my + y0 - g / 2, cw + g, ch + g))
        self.faded = self.idx.copy()
        for y0, y1, x0, x1 in self.grid_boxes:
            self.faded[y0:y1, x0:x1] = self.fade_lut[self.idx[y0:y1, x0:x1]]
        self.cap = self._box(pic.margin, pic.caption_y, pic.width - 2 * pic.margin, pic.caption_h)

    def _box(self, x, y, w, h) -> tuple[int, int, int, int]:
        s = self.s
        H, W = self.idx.shape if hasattr(self, "idx") else (10 ** 9, 10 ** 9)
        return (max(0, int(round(y * s))), min(H, int(round((y + h) * s))),
                max(0, int(round(x * s))), min(W, int(round((x + w) * s))))

    def _outline(self, a: np.ndarray, box, index: int, t: int) -> None:
        y0, y1, x0, x1 = box
        a[y0:y0 + t, x0:x1] = index
        a[max(y1 - t, y0):y1, x0:x1] = index
        a[y0:y1, x0:x0 + t] = index
        a[y0:y1, max(x1 - t, x0):x1] = index

    def _caption(self, a: np.ndarray, step: ReplayStep) -> None:
        """The caption strip: two lines of text (Qt, grayscale, mapped onto the ink ramp) and a
        progress bar of one segment per wavefront (numpy)."""
        from PySide6.QtGui import QImage, QPainter

        pic, s = self.pic, self.s
        y0, y1, x0, x1 = self.cap
        img = QImage(x1 - x0, y1 - y0, QImage.Format.Format_Grayscale8)
        img.fill(255)
        p = QPainter(img)
        try:
            p.scale(s, s)
            cv = Canvas(p)
            head, body = pic.caption(step)
            f = pic.f
            cv.text(0, 0, head, f.heading, (0, 0, 0))
            cv.text(0, lh(f.heading, 1.2), body, f.body, (0, 0, 0))
        finally:
            p.end()
        g = _qimage_gray(img)
        a[y0:y1, x0:x1] = (self.ramp0 + ((255 - g.astype(np.uint16)) * (self.RAMP - 1) + 127) // 255).astype(np.uint8)
        n = len(pic.steps) - 2
        if not n:
            return
        bh = max(4, int(8 * s))
        by1 = y1 - max(1, int(2 * s))
        by0 = by1 - bh
        seg = (x1 - x0) / n
        gap = max(1, int(seg * 0.15)) if seg >= 4 else 0
        for k in range(n):
            sx0, sx1 = int(x0 + k * seg), int(x0 + (k + 1) * seg) - gap
            if step.kind == "wavefront" and k == step.wave:
                color = self.HL
            elif step.kind == "totals" or (step.kind == "wavefront" and k < step.wave):
                color = self.WAVE0 + k % self.waves
            else:
                color = self.EMPTY
            a[by0:by1, sx0:max(sx1, sx0 + 1)] = color

    def frame(self, step: ReplayStep) -> np.ndarray:
        if step.kind != "wavefront":
            a = self.idx.copy()
        else:
            a = self.faded.copy()
            for lanes in (step.done, step.now):
                for ln in lanes.tolist():
                    for y0, y1, x0, x1 in self.lane_boxes.get(ln, ()):
                        a[y0:y1, x0:x1] = self.idx[y0:y1, x0:x1]
            t = max(2, int(round(3 * self.s)))
            for ln in step.now.tolist():
                for box in self.lane_boxes.get(ln, ()):
                    self._outline(a, box, self.HL, t)
        self._caption(a, step)
        return a


def replay_frames(scene: Scene, scale: int = 2) -> tuple[list[np.ndarray], np.ndarray, list[int]]:
    """(frames as (H, W) palette indices, the (256, 3) palette, durations in ms)."""
    from .render import check_scale, ensure_gui_app

    check_scale(scale)
    ensure_gui_app()
    pic = ReplayPicture(scene)
    fr = _Frames(pic, scale)
    frames = [fr.frame(s) for s in pic.steps]
    dur = [DURATIONS[0]] + [DURATIONS[1]] * (len(frames) - 2) + [DURATIONS[2]]
    return frames, fr.palette, dur


def encode(frames: list[np.ndarray], palette: np.ndarray, durations: list[int], fmt: str, small: bool = False) -> bytes:
    """The animation's bytes. GIF and APNG keep the palette frames; WebP is lossless, each frame
    the rectangle that changed (:mod:`.webp`). ``small`` trades time for
    size (GIF optimize, zlib level 9: several times smaller files, for documents kept in a repository)."""
    import io

    from PIL import Image

    pal = palette.reshape(-1).tolist() + [0] * (768 - palette.size)
    imgs = []
    for a in frames:
        im = Image.fromarray(a, "P")
        im.putpalette(pal)
        imgs.append(im)
    buf = io.BytesIO()
    if fmt == "gif":
        imgs[0].save(buf, "GIF", save_all=True, append_images=imgs[1:], duration=durations, loop=0, optimize=small,
                     disposal=1)
    elif fmt == "png":
        imgs[0].save(buf, "PNG", save_all=True, append_images=imgs[1:], duration=durations, loop=0, optimize=small,
                     compress_level=9 if small else 1, disposal=0, blend=0)
    elif fmt == "webp":
        # each frame as a lossless still of the rectangle that changed (libwebp's own animation
        # encoder compares and encodes every full frame: 3 s and more for a 32-way replay at 2x)
        from .webp import encode_animation

        return encode_animation(frames, durations, loop=0, palette=palette)
    else:
        raise ExportError(f"unknown animation format {fmt!r} (formats: {', '.join(ANIM_FORMATS)})")
    return buf.getvalue()


def export_replay(scene: Scene, out: str | os.PathLike, scale: int = 2) -> tuple[int, int]:
    """Write the replay of ``scene``'s instruction to ``out`` (.gif, .png = APNG, .webp) all at
    once; returns (bytes written, frames)."""
    from ..io.atomic import atomic_write
    from .render import check_writable

    fmt = anim_format_of(out)
    check_writable(out)
    frames, palette, dur = replay_frames(scene, scale)
    data = encode(frames, palette, dur, fmt)
    try:
        atomic_write(out, data)
    except OSError as e:
        raise ExportError(f"{out}: could not write ({e.strerror or e})")
    return len(data), len(frames)
