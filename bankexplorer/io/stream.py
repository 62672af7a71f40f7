"""``analyze`` on explicit-address instructions, batch by batch: the engine on numpy arrays, the
summary accumulated, the output written in large chunks.

Rows carry the same fields as :meth:`Analysis.row_json` (file order; an explicit instruction is one
row: iteration 0, warp 0). Each row's text is assembled from pieces formatted once: the fields of
its template (kind, width, ...), its label, and its numbers, formatted once per distinct
combination, which in a trace repeat a great deal. A bad line partway through a trace ends the
output after the rows before it, with ``"error"`` in place of the totals: the JSON stays valid.
"""

from __future__ import annotations

import json
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import IO

import numpy as np

from ..model.engine import count_wavefronts, narrow
from ..model.errors import BankExplorerError
from ..model.hardware import issue_cycles_one_warp, latency_cycles
from ..model.summary import RowCounts, Summary
from .trace import InstructionBatch, Source

_NUMBER_KEYS = ("wavefronts", "ideal", "n_way", "phases", "active_lanes", "bytes_requested", "bytes_moved", "repeat",
                "executions", "loop_load_wavefronts", "loop_load_ideal")


@dataclass
class Outcome:
    summary: Summary
    first_error: str | None
    instructions: int


def _numbers_json(uniq: np.ndarray) -> list[str]:
    """The numeric fields of each distinct row, exactly as ``row_json`` computes them."""
    wf = uniq[:, 0]
    lat = latency_cycles(wf).tolist()
    issue = issue_cycles_one_warp(wf).tolist()
    out = []
    for v, la, iss in zip(uniq.tolist(), lat, issue):
        wf, ideal, deg, phases, active, breq, bmov, rep, execs, loads, load_ideal = v
        eff = round(float(ideal) / wf, 4) if wf else 1.0
        s = (f'"wavefronts": {wf}, "ideal": {ideal}, "excess": {wf - ideal}, "n_way": {deg}, "phases": {phases}, '
             f'"active_lanes": {active}, "bytes_requested": {breq}, "bytes_moved": {bmov}, "efficiency": {eff!r}, '
             f'"repeat": {rep}, "executions": {execs}, "latency_cycles": {la!r}, "issue_cycles_one_warp": {iss!r}')
        out.append(s + f', "loop_load_wavefronts": {loads}, "loop_load_ideal": {load_ideal}' if loads else s)
    return out


def _numbers_text(uniq: np.ndarray) -> list[str]:
    out = []
    for (wf, ideal, deg), la in zip(uniq.tolist(), latency_cycles(uniq[:, 0]).tolist()):
        eff = f"{ideal / wf:.0%}" if wf else "-"
        out.append(f"{wf:>10} {ideal:>5} {deg:>4}x {eff:>5} {la:>6.0f}c")
    return out


def _distinct(cols: np.ndarray, fmt) -> tuple[list[str], np.ndarray]:
    """Format each distinct row of ``cols`` (N, K) of non-negative ints once: the strings and each
    row's index into them. The columns are packed into one int64 key (renumbered densely whenever
    the next column would not fit): 1-D sorts, much faster than numpy's row-wise unique."""
    if cols.shape[0] == 0:
        return [], np.zeros(0, np.int64)
    key = np.zeros(cols.shape[0], np.int64)
    used = 0
    for k, top in enumerate(cols.max(axis=0).tolist()):
        b = int(top).bit_length()
        if used + b > 62:
            key = np.unique(key, return_inverse=True)[1].reshape(-1).astype(np.int64)
            used = int(key.max()).bit_length()
        if b:
            key = (key << b) | cols[:, k]
            used += b
    _, first, inv = np.unique(key, return_index=True, return_inverse=True)
    return fmt(cols[first]), inv.reshape(-1)


class Streamer:
    """Analyze the batches of a :class:`Source` and write ``analyze``'s text or JSON as it goes."""

    def __init__(self, src: Source, out: IO[str], as_json: bool, progress=None) -> None:
        self.src = src
        self.out = out
        self.as_json = as_json
        self.progress = progress  # called with the instructions done after each batch
        hw = src.header.hardware
        self.summary = Summary(hw.row_bytes, src.header.shared_bytes())
        self.first_error: str | None = None
        self.count = 0

    def run(self) -> Outcome:
        p, hw = self.src.header, self.src.header.hardware
        if self.as_json:
            head = {"pattern": p.name, "hardware": {"preset": hw.preset, "banks": hw.banks,
                                                     "bank_width": hw.bank_width, "warp_size": hw.warp_size}}
            self.out.write(json.dumps(head)[:-1] + ', "instructions": [\n')
        else:
            self.out.write(f"{p.name}: {hw.name}, {hw.banks} banks x {hw.bank_width} B, explicit addresses "
                           f"(one warp per instruction)\n")
            hdr = (f"{'#':>8} {'instruction':<34} {'warp':>4} {'wavefronts':>10} {'ideal':>5} {'N-way':>5} "
                   f"{'eff':>5} {'latency':>7}")
            self.out.write(hdr + "\n" + "-" * len(hdr) + "\n")
        # the engine on one batch (numpy, mostly without the interpreter lock) runs while the
        # next batch is read and the previous one written
        hw = self.src.header.hardware
        batches = iter(self.src.batches)
        bad: BankExplorerError | None = None
        with ThreadPoolExecutor(max_workers=1) as pool:
            pending = None
            while True:
                try:
                    b = next(batches)
                except StopIteration:
                    break
                except BankExplorerError as e:  # a bad line: what came before it is still written
                    bad = e
                    break
                b.batch.addr = narrow(b.batch.addr)
                job = pool.submit(count_wavefronts, b.batch, hw)
                if pending is not None:
                    self._batch(*pending)
                pending = (b, job)
            if pending is not None:
                self._batch(*pending)
        if bad is not None:
            if self.as_json:  # valid JSON still: the rows so far, and the error instead of the totals
                self.out.write('\n], "error": ' + json.dumps(str(bad)) + "}\n")
            raise bad
        t = self.summary.totals
        if self.as_json:
            self.out.write('\n], "totals": ' + json.dumps(t) + ', "summary": ' + json.dumps(self.summary.to_json())
                           + "}\n")
        else:
            self.out.write(self._text_tail())
        return Outcome(self.summary, self.first_error, self.count)

    def _batch(self, b: InstructionBatch, job: Future) -> None:
        res = job.result()
        n = len(b)
        errors: dict[int, str] = dict(b.errors)
        for r in np.flatnonzero(res.wavefronts < 0).tolist():
            errors.setdefault(r, f"warp 0: {res.error[r]}")
        ok = np.ones(n, bool)
        if errors:
            ok[list(errors)] = False
            if self.first_error is None:
                self.first_error = errors[min(errors)]
        executions = res.executions if res.executions is not None else np.ones(n, np.int64)
        zero = np.zeros(n, np.int64)
        loads = res.loop_load_wavefronts if res.loop_load_wavefronts is not None else zero
        load_ideal = res.loop_load_ideal if res.loop_load_ideal is not None else zero
        counts = RowCounts(ok, res.wavefronts, res.ideal, res.degree, res.bytes_requested, executions, loads, b.repeat,
                           load_ideal)
        conv = self.src.converter

        def label_of(i: int):
            lab = int(b.label[i])
            pc = int(b.pc[i])
            return (conv.labels[lab] if lab >= 0 else ""), (pc if pc >= 0 else None)

        self.summary.add(b.first, counts, b.label, conv.labels, b.pc, label_of)
        if self.as_json:
            self._write_json(b, res, counts, errors)
        else:
            self._write_text(b, res, counts, errors)
        self.count += n
        if self.progress:
            self.progress(self.count)

    def _write_json(self, b: InstructionBatch, res, c: RowCounts, errors: dict[int, str]) -> None:
        conv = self.src.converter
        n = len(b)
        served = np.count_nonzero(res.served, axis=1)
        tmpl = ['"iteration": 0, "warp": 0, ' + t.json_fields() + ", " for t in conv.templates]
        notes = [', "note": ' + json.dumps(t.ins.note({})) if t.ins.note({}) else "" for t in conv.templates]

        def fmt(uniq: np.ndarray) -> list[str]:  # template, then the numbers: all but the row's own number
            return [tmpl[t] + body + notes[t] for t, body in zip(uniq[:, 0].tolist(), _numbers_json(uniq[:, 1:]))]

        cols = np.stack([b.template, np.maximum(res.wavefronts, 0), res.ideal, res.degree, res.phases, served,
                         res.bytes_requested, res.bytes_moved, b.repeat, c.executions, c.loop_loads,
                         c.loop_ideal], axis=1)
        shared, inv = _distinct(cols.astype(np.int64), fmt)
        parts = map(shared.__getitem__, inv.tolist())
        ks = range(b.first, b.first + n)
        has = (b.label >= 0) | (b.pc >= 0)
        if has.any():
            labels = [', "label": ' + json.dumps(s) for s in conv.labels]
            extra: list[str] = [""] * n
            for r in np.flatnonzero(has).tolist():
                lab, pc = int(b.label[r]), int(b.pc[r])
                extra[r] = (labels[lab] if lab >= 0 else "") + (f', "pc": {pc}' if pc >= 0 else "")
            rows = [f'{{"instruction": {k}, {p}{x}}}' for k, p, x in zip(ks, parts, extra)]
        else:
            extra = [""] * n
            rows = [f'{{"instruction": {k}, {p}}}' for k, p in zip(ks, parts)]
        tl = b.template.tolist()
        for r, e in errors.items():
            t = tl[r]
            rows[r] = (f'{{"instruction": {b.first + r}, {tmpl[t]}"wavefronts": null, "error": {json.dumps(e)}'
                       f'{notes[t]}{extra[r]}}}')
        self.out.write((",\n" if self.count else "") + ",\n".join(rows))

    def _write_text(self, b: InstructionBatch, res, c: RowCounts, errors: dict[int, str]) -> None:
        conv = self.src.converter
        n = len(b)
        # a compare-and-swap loop's row with its loads, as the pattern's table and the totals
        cols = np.stack([c.total_wavefronts(), c.total_ideal(), res.degree], axis=1).astype(np.int64)
        bodies, inv = _distinct(cols, _numbers_text)
        titles = [_cut(t.title()) for t in conv.templates]
        labels = [_cut(s) for s in conv.labels]
        lab = b.label.tolist()
        names = [labels[x] if x >= 0 else titles[t] for x, t in zip(lab, b.template.tolist())]
        rows = [f"{k:>8} {name:<34}    0 {body}"
                for k, name, body in zip(range(b.first, b.first + n), names, map(bodies.__getitem__, inv.tolist()))]
        for r, e in errors.items():
            rows[r] = f"{b.first + r:>8} {names[r]:<34}    0 error: {e}"
        self.out.write("\n".join(rows) + "\n")

    def _text_tail(self) -> str:
        t = self.summary.totals
        eff = t["ideal"] / t["wavefronts"] if t["wavefronts"] else 1.0
        lines = ["-" * 82,
                 f"total: {t['wavefronts']:,} wavefronts for {t['instructions']:,} warp instructions "
                 f"(ideal {t['ideal']:,}, excess {t['wavefronts'] - t['ideal']:,}, efficiency {eff:.0%})",
                 f"kernel (x repeat counts): {t['kernel_wavefronts']:,} wavefronts, "
                 f"{t['kernel_wavefronts'] - t['kernel_ideal']:,} excess "
                 f"(what Nsight Compute counts as bank conflicts for 32-bit accesses)"]
        if t["invalid"]:
            lines.append(f"{t['invalid']:,} warp instruction(s) have invalid accesses (see 'error' above)")
        lines += self.summary.text_lines()
        for tm in self.src.converter.templates:
            if tm.ins.note({}):
                lines.append(f"note on {tm.title()}: {tm.ins.note({})}")
        return "\n".join(lines) + "\n"


def _cut(title: str) -> str:
    return title if len(title) <= 34 else title[:33] + "…"
