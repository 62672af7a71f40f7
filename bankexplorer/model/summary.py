"""What a trace needs summed up: totals, the histogram of N-way degrees, the worst instructions and
totals per label or pc, accumulated batch by batch so that a trace of any length takes constant
memory. The whole-pattern analysis (:meth:`Analysis.totals`) and the streaming command line share
:func:`batch_totals`, so the two agree by construction.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

#: the keys of ``totals`` in ``analyze --json``, in order
TOTAL_KEYS = ("instructions", "executed", "invalid", "wavefronts", "ideal", "kernel_wavefronts", "kernel_ideal",
              "kernel_instructions", "worst_degree", "bytes_requested", "bytes_moved", "shared_bytes")
WORST = 10


@dataclass
class RowCounts:
    """Per-row numbers of one batch of analyzed warp instructions (rows with an error: ``ok`` False)."""

    ok: np.ndarray  # (N,) bool
    wavefronts: np.ndarray  # (N,) without the loads of compare-and-swap loops
    ideal: np.ndarray
    degree: np.ndarray
    bytes_requested: np.ndarray
    executions: np.ndarray  # (N,) or None: 1 per row
    loop_loads: np.ndarray  # (N,) wavefronts of compare-and-swap loop loads
    repeat: np.ndarray
    loop_ideal: np.ndarray  # (N,) the ideal of those loads

    def total_wavefronts(self) -> np.ndarray:
        """Wavefronts per row, loop loads included, 0 on rows with an error."""
        return np.where(self.ok, self.wavefronts + self.loop_loads, 0)

    def total_ideal(self) -> np.ndarray:
        """The ideal per row, loop loads included (a conflict-free loop's reloads are no excess),
        0 on rows with an error."""
        return np.where(self.ok, self.ideal + self.loop_ideal, 0)


def batch_totals(c: RowCounts, row_bytes: int) -> dict[str, int]:
    """The totals of one batch (everything but ``shared_bytes``)."""
    ok, rep = c.ok, c.repeat
    wf = c.total_wavefronts()
    ideal = c.total_ideal()
    execs = np.where(ok, c.executions, 0)
    loop_execs = np.where(np.where(ok, c.loop_loads, 0) > 0, execs, 0)  # the loop's load runs as often
    return {
        "instructions": int(ok.size),
        "executed": int(((execs + loop_execs) * rep).sum()),
        "invalid": int((~ok).sum()),
        "wavefronts": int(wf.sum()),
        "ideal": int(ideal.sum()),
        "kernel_wavefronts": int((wf * rep).sum()),
        "kernel_ideal": int((ideal * rep).sum()),
        "kernel_instructions": int(rep[ok].sum()),
        "worst_degree": int(c.degree[ok].max(initial=0)),
        "bytes_requested": int((np.where(ok, c.bytes_requested, 0) * rep).sum()),
        "bytes_moved": int((wf * row_bytes * rep).sum()),
    }


@dataclass
class _Groups:
    """Totals per key (a label or a pc): instructions, wavefronts, ideal, kernel wavefronts."""

    names: list = field(default_factory=list)
    index: dict = field(default_factory=dict)
    sums: np.ndarray = field(default_factory=lambda: np.zeros((0, 4), np.int64))

    def add(self, ids: np.ndarray, names: list, c: RowCounts) -> None:
        """``ids``: (N,) index into ``names`` per row, -1 for rows without a key."""
        has = ids >= 0
        if not has.any():
            return
        used, inv = np.unique(ids[has], return_inverse=True)
        wf = c.total_wavefronts()[has]
        ideal = c.total_ideal()[has]
        rep = c.repeat[has]
        cols = [np.bincount(inv, minlength=used.size)] + [
            np.bincount(inv, weights=w, minlength=used.size) for w in (wf, ideal, wf * rep)]
        part = np.stack([np.asarray(x).round().astype(np.int64) for x in cols], axis=1)
        rows = []
        for u in used.tolist():
            name = names[u]
            if name not in self.index:
                self.index[name] = len(self.names)
                self.names.append(name)
            rows.append(self.index[name])
        if len(self.names) > self.sums.shape[0]:
            grown = np.zeros((len(self.names), 4), np.int64)
            grown[: self.sums.shape[0]] = self.sums
            self.sums = grown
        np.add.at(self.sums, np.array(rows), part)

    def to_json(self, key: str) -> list[dict]:
        out = []
        for name, (n, wf, ideal, kwf) in zip(self.names, self.sums.tolist()):
            out.append({key: name, "instructions": n, "wavefronts": wf, "ideal": ideal, "excess": wf - ideal,
                        "kernel_wavefronts": kwf})
        out.sort(key=lambda d: (-d["excess"], -d["wavefronts"], str(d[key])))  # worst first
        return out


class Summary:
    """Totals, N-way histogram, worst instructions and per-label / per-pc totals of a stream of batches."""

    def __init__(self, row_bytes: int, shared_bytes: int = 0, worst: int = WORST) -> None:
        self.row_bytes = row_bytes
        self.totals = {k: 0 for k in TOTAL_KEYS}
        self.totals["shared_bytes"] = shared_bytes
        self.histogram = np.zeros(0, np.int64)
        self.n_worst = worst
        self.worst = np.zeros((0, 5), np.int64)  # row, wavefronts, ideal, degree, excess
        self.worst_keys: list[tuple[str, object]] = []  # (label, pc) of each worst row
        self.labels = _Groups()
        self.pcs = _Groups()

    def add(self, first_row: int, c: RowCounts, label_ids: np.ndarray | None = None, label_names: list | None = None,
            pc: np.ndarray | None = None, label_of=None) -> None:
        """One batch of rows ``first_row ...``. ``label_ids``/``label_names``: per-row label; ``pc``: (N,)
        ints, -1 where none; ``label_of(i)`` gives (label, pc) of batch row ``i`` for the worst list."""
        t = batch_totals(c, self.row_bytes)
        for k, v in t.items():
            self.totals[k] = max(self.totals[k], v) if k == "worst_degree" else self.totals[k] + v
        deg = c.degree[c.ok]
        if deg.size:
            h = np.bincount(deg)
            if h.size > self.histogram.size:
                h[: self.histogram.size] += self.histogram
                self.histogram = h
            else:
                self.histogram[: h.size] += h
        # the worst rows: most excess wavefronts, then most wavefronts, then file order
        wf = c.total_wavefronts()
        ideal = c.total_ideal()
        excess = wf - ideal
        cand = np.flatnonzero(c.ok)
        if cand.size > self.n_worst:
            order = np.lexsort((cand, -wf[cand], -excess[cand]))[: self.n_worst]
            cand = cand[order]
        new = np.stack([cand + first_row, wf[cand], ideal[cand], c.degree[cand], excess[cand]], axis=1)
        keys = [label_of(int(i)) if label_of else ("", None) for i in cand]
        allrows = np.concatenate([self.worst, new.astype(np.int64)])
        allkeys = self.worst_keys + keys
        order = np.lexsort((allrows[:, 0], -allrows[:, 1], -allrows[:, 4]))[: self.n_worst]
        self.worst = allrows[order]
        self.worst_keys = [allkeys[i] for i in order]
        if label_ids is not None and label_names is not None:
            self.labels.add(label_ids, label_names, c)
        if pc is not None and (pc >= 0).any():
            u, inv = np.unique(pc, return_inverse=True)
            self.pcs.add(np.where(pc >= 0, inv.reshape(-1), -1), u.tolist(), c)

    def to_json(self, where=None) -> dict:
        """``where(row)``: the (instruction, iteration, warp) of an output row (default: the row is
        the instruction, as in a trace)."""
        worst = []
        for (row, wf, ideal, deg, exc), (label, pc) in zip(self.worst.tolist(), self.worst_keys):
            k, it, w = where(row) if where else (row, 0, 0)
            d = {"row": row, "instruction": k, "iteration": it, "warp": w, "wavefronts": wf, "ideal": ideal,
                 "excess": exc, "n_way": deg}
            if label:
                d["label"] = label
            if pc is not None:
                d["pc"] = pc
            worst.append(d)
        out: dict = {"n_way_histogram": {str(k): int(n) for k, n in enumerate(self.histogram.tolist()) if n},
                     "worst": worst}
        if self.labels.names:
            out["by_label"] = self.labels.to_json("label")
        if self.pcs.names:
            out["by_pc"] = self.pcs.to_json("pc")
        return out

    def text_lines(self, where=None) -> list[str]:
        s = self.to_json(where)
        lines = ["N-way histogram (warp instructions): " + (", ".join(
            f"{k}-way {n:,}" for k, n in s["n_way_histogram"].items()) or "none")]
        if s["worst"]:
            lines.append("worst instructions (most excess wavefronts):")
            for d in s["worst"]:
                tag = f" {d['label']}" if "label" in d else ""
                tag += f" pc 0x{d['pc']:x}" if "pc" in d else ""
                # numbered as the table and --instruction number them: the pattern's instruction
                at = f" (warp {d['warp']}, iteration {d['iteration']})" if (d["iteration"], d["warp"]) != (0, 0) else ""
                lines.append(f"  #{d['instruction']:<8}{tag} {d['wavefronts']:,} wavefronts, ideal {d['ideal']:,}, "
                             f"{d['n_way']}-way{at}")
        for key in ("label", "pc"):
            groups = s.get(f"by_{key}")
            if groups:
                lines.append(f"per {key} (most excess first):")
                for g in groups[:50]:
                    name = f"0x{g[key]:x}" if key == "pc" else g[key]
                    lines.append(f"  {name:<24} {g['instructions']:>10,} instr {g['wavefronts']:>12,} wavefronts "
                                 f"ideal {g['ideal']:>12,} excess {g['excess']:>10,}")
                if len(groups) > 50:
                    lines.append(f"  ... and {len(groups) - 50:,} more (see --json)")
        return lines
