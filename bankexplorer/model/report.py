"""The analysis as a text table: one line per warp instruction (and loop iteration), its
wavefronts, ideal, N-way conflict, efficiency and latency, then the totals and the notes.

What ``bankexplorer analyze`` prints, and what ``import-cuda --detail`` prints under its own
report; the model's words, so that every command that shows an analysis shows the same table.
"""

from __future__ import annotations

from .analysis import Analysis
from .hardware import latency_cycles


def format_table(an: Analysis) -> str:
    """``an`` as the text table ``bankexplorer analyze`` prints ("#" is the pattern's instruction:
    what ``--instruction``, the notes and the window number; one line per warp and iteration)."""
    p = an.pattern
    res = an.result
    lines = [f"{p.name}: {an.hardware.name}, {an.hardware.banks} banks x {an.hardware.bank_width} B, "
             f"block {p.block[0]}x{p.block[1]}x{p.block[2]} ({p.warps} warp{'s' if p.warps != 1 else ''})"]
    hdr = f"{'#':>4} {'instruction':<34} {'warp':>4} {'wavefronts':>10} {'ideal':>5} {'N-way':>5} {'eff':>5} {'latency':>7}"
    lines.append(hdr)
    lines.append("-" * len(hdr))
    c = an.counts()  # a compare-and-swap loop's row with its loads, as the totals add it up
    # "#" is the pattern's instruction (what --instruction, the notes and the window number), one
    # line per warp and loop iteration of it
    row_wf, row_ideal = c.total_wavefronts(), c.total_ideal()
    for r in range(len(an)):
        k = int(an.source[r])
        ins = p.instructions[k]
        title = ins.title()
        lv = an.loop_values[k][int(an.iteration[r])] if an.loop_values[k] else {}
        if lv:
            title += " " + ",".join(f"{n}={v}" for n, v in lv.items())
        if len(title) > 34:
            title = title[:33] + "…"
        if an.errors[r]:
            lines.append(f"{k:>4} {title:<34} {int(an.warp[r]):>4} error: {an.errors[r]}")
            continue
        wf, ideal = int(row_wf[r]), int(row_ideal[r])
        eff = f"{ideal / wf:.0%}" if wf else "-"
        lines.append(f"{k:>4} {title:<34} {int(an.warp[r]):>4} {wf:>10} {ideal:>5} {int(res.degree[r]):>4}x "
                     f"{eff:>5} {latency_cycles(wf):>6.0f}c")
    t = an.totals()
    lines.append("-" * len(hdr))
    lines.append(f"total per block pass: {t.wavefronts:,} wavefronts for {t.instructions:,} warp instructions "
                 f"(ideal {t.ideal:,}, excess {t.excess:,}, efficiency {t.efficiency:.0%})")
    lines.append(f"kernel (x repeat counts): {t.kernel_wavefronts:,} wavefronts, {t.kernel_excess:,} excess "
                 f"(what Nsight Compute counts as bank conflicts for 32-bit accesses)")
    lines.append(f"shared memory: {t.shared_bytes:,} bytes; throughput cost ~{t.kernel_wavefronts:,} SM cycles "
                 f"(one wavefront per cycle)")
    if t.invalid:
        lines.append(f"{t.invalid} warp instruction(s) have invalid accesses (see 'error' above)")
    for k in range(len(an.pattern.instructions)):
        note = an.note(k)
        if note:
            lines.append(f"note on instruction {k}: {note}")
    return "\n".join(lines)
