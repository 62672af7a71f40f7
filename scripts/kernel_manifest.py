#!/usr/bin/env python3
"""The manifest of measured kernels: ``resources/hardware/kernels/manifest.json``, one line a kernel.

The measured kernels sit in batch folders named by history (``extra``, ``extra2`` ... ``extra20``,
``more``; new ones by topic, as ``cute/``); the checkers of the shared tools find their sources by
those paths, so the folders keep their names and this manifest says what each kernel is. Per kernel:

- ``name`` (the key of its truth file, the path of its source without ``.cu``), ``folder``,
  ``batch`` (the first heading of the folder's README) and ``topic``: CuTe / Triton by folder, a
  ``probe family`` (a kernel written to measure one rule), ``CUB`` (it uses CUB), ``data-driven``
  (it reads ``// input:`` arrays: its addresses or trip counts come from data) or ``classic``;
- ``truth``: the ``persass*.json`` that holds Nsight Compute's source page of one block;
  ``inputs`` (its ``// input:`` arrays) and ``block``;
- ``status``: ``exact`` (every count per SASS instruction and every buffer as measured),
  ``totals-only`` (NVRTC made other code than the nvcc that was measured: only the shared-memory
  wavefront total is compared), ``xfail`` (measured, not matched, with the reason: a strict xfail
  in ``tests/test_emulator.py``), ``timing`` (its counts depend on which warp gets somewhere
  first; the run must say so), ``refused`` (the emulator must refuse it by name) or ``unchecked``
  (not compiled here yet: exact or totals-only, ``--compile`` finds out);
- ``measured``: executed warp instructions, threads and predicated-on threads summed over its SASS,
  and its shared-memory warp instructions and wavefronts.

``totals-only`` needs a compiler: ``--compile`` builds every kernel not compared yet (``--again``:
every kernel) with NVRTC and records whether the code is the measured code (``code``: same / other,
with the NVRTC version it was found with; another version's findings are dropped); without it the
last manifest's findings are kept. ``tests/test_emulator.py`` checks the
finding of every kernel it runs, ``tests/test_kernel_manifest.py`` that the manifest is in step
with the files.

usage: python scripts/kernel_manifest.py [--compile [--only PREFIX] [--again]] [--check]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parent.parent
KERNELS = REPO / "resources" / "hardware" / "kernels"
MANIFEST = KERNELS / "manifest.json"
#: the collection of the first batches (measured for the bank model, CI's shared checker runs all of
#: them); every other truth file is a batch measured per SASS instruction for the emulator
COLLECTION = "persass_resources.json"
STATUSES = ("exact", "totals-only", "xfail", "timing", "refused", "unchecked")

_INPUT = re.compile(r"//\s*input:\s*(\w+)\s*=\s*(\S+)")


class ManifestError(ValueError):
    """A truth file or kernel the manifest cannot describe (it names the file)."""


def truth_files(root: Path = KERNELS) -> list[Path]:
    """Every ``persass*.json`` under ``root``, largest first: where a kernel sits in two (the first 22
    in ``persass.json`` and in the collection), the larger file's record is the one used."""
    files = sorted(root.rglob("persass*.json"), key=lambda p: p.relative_to(root).as_posix())
    return sorted(files, key=lambda p: -len(json.loads(p.read_text())))


def _counts(rec: dict) -> list[tuple]:
    return [tuple(r.get(k) for k in ("executed", "threads", "pred_on_threads", "wavefronts")) for r in rec["sass"]]


def discover(root: Path = KERNELS) -> dict[str, tuple[str, dict]]:
    """Kernel name -> (its truth file relative to ``root``, its record), from the truth files found on
    disk. A kernel in two files must have the same counts in both."""
    out: dict[str, tuple[str, dict]] = {}
    for f in truth_files(root):
        rel = f.relative_to(root).as_posix()
        folder = f.parent.relative_to(root).as_posix()
        for key, rec in json.loads(f.read_text()).items():
            # a key names its source from here, or (as check_persass.py reads it) from the truth file's folder
            name = key if folder == "." or _has_source(root, key) else f"{folder}/{key}"
            if name in out:
                if _counts(out[name][1]) != _counts(rec):
                    raise ManifestError(f"{name}: {out[name][0]} and {rel} hold different counts")
                continue
            out[name] = (rel, rec)
    return dict(sorted(out.items()))


def _has_source(root: Path, name: str) -> bool:
    try:
        source_of(name, root)
    except ManifestError:
        return False
    return True


def source_of(name: str, root: Path = KERNELS) -> Path:
    """The kernel's source: ``NAME.cu`` (or another suffix: a Triton kernel's ``NAME.py``)."""
    if (root / f"{name}.cu").is_file():
        return root / f"{name}.cu"
    found = sorted(p for p in (root / name).parent.glob(Path(name).name + ".*")
                   if p.suffix in (".py", ".cu", ".ttgir", ".ptx") and p.name.count(".") == 1)
    if not found:
        raise ManifestError(f"{name}: no source beside its truth file ({name}.cu)")
    return found[0]


def expectations(test_file: Path = REPO / "tests" / "test_emulator.py") -> ModuleType:
    """``tests/test_emulator.py``'s KNOWN (strict xfails, with reasons), TIMING and REFUSED: they are
    kept beside the test that holds the emulator to them, and read from there."""
    spec = importlib.util.spec_from_file_location("_emulator_expectations", test_file)
    if spec is None or spec.loader is None:
        raise ManifestError(f"{test_file}: cannot be read")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _heading(folder: Path) -> str:
    readme = folder / "README.md"
    if not readme.is_file():
        return ""
    return next((ln.lstrip("# ").strip() for ln in readme.read_text().splitlines() if ln.startswith("#")), "")


def topic_of(name: str, text: str) -> str:
    """What kind of kernel it is, from its folder, name and text (see the module's docstring)."""
    parts = [p.lower() for p in name.split("/")]
    if any(p.startswith("cute") for p in parts[:-1]):
        return "CuTe"
    if any(p.startswith("triton") for p in parts[:-1]):
        return "Triton"
    if any("probe" in p for p in parts):
        return "probe family"
    if "cub/" in text or "cub::" in text:
        return "CUB"
    if _INPUT.search(text):
        return "data-driven"
    return "classic"


def compare_code(names: list[str], root: Path = KERNELS) -> dict[str, str]:
    """Kernel name -> ``same`` / ``other``: whether NVRTC here makes the measured code."""
    from bankexplorer.kernels.cuda_source import compile_text as build
    from bankexplorer.cuda.kernels import same_code
    from bankexplorer.sass.decode import decode, entry_names
    from bankexplorer.sass.opcode import BRANCH_OPCODES
    from bankexplorer.sass.operands import Label

    truth = discover(root)
    out: dict[str, str] = {}
    for name in names:
        path = source_of(name, root)
        b = build(path.read_text(), path=str(path))
        if not b.ok:
            raise ManifestError(f"{path}: NVRTC does not compile it:\n{b.log}")
        prog = decode(b.sass, entry_names(b.sass)[0])
        rows = [{"sass": ins.text, "target": next((o.target for o in ins.operands if isinstance(o, Label)), None)
                 if ins.base in BRANCH_OPCODES else None} for ins in prog.instructions]
        out[name] = "same" if same_code(truth[name][1]["sass"], rows) else "other"
        print(f"{name}: {out[name]}", file=sys.stderr)
    return out


def build_manifest(root: Path = KERNELS, previous: dict | None = None, code: dict[str, str] | None = None,
                   nvrtc: str | None = None, expect: ModuleType | None = None) -> dict:
    """The manifest of the kernels on disk; ``code`` (new findings) over ``previous``'s."""
    expect = expect or expectations()
    known, timing, refused = expect.KNOWN, expect.TIMING, expect.REFUSED
    prev = {k["name"]: k for k in (previous or {}).get("kernels", [])}
    nvrtc = nvrtc or (previous or {}).get("nvrtc")
    kernels = []
    for name, (truth, rec) in discover(root).items():
        try:
            path: Path | None = source_of(name, root)
        except ManifestError:  # a case of a shared source (a Triton batch's cases.json names it)
            path = None
        text = path.read_text(errors="replace") if path else ""
        found = (code or {}).get(name) or prev.get(name, {}).get("code")
        entry: dict = {"name": name, "folder": Path(name).parent.as_posix(), "topic": topic_of(name, text),
                       "source": path.relative_to(root).as_posix() if path else None, "truth": truth,
                       "inputs": dict(_INPUT.findall(text)), "block": list(rec["block"])}
        if rec.get("timing") or name in timing:
            entry["status"] = "timing"
        elif name in refused:
            entry["status"], entry["reason"] = "refused", f"the emulator names {refused[name]} as not modelled"
        elif name in known:
            entry["status"], entry["reason"] = "xfail", known[name]
        elif found == "other":
            entry["status"] = "totals-only"
            entry["reason"] = "nvcc made other code than NVRTC here: only the shared-memory wavefront total is compared"
        elif found == "same":
            entry["status"] = "exact"
        else:
            entry["status"] = "unchecked"
        entry["code"] = found
        rows = rec["sass"]
        entry["measured"] = {k: sum(r.get(k) or 0 for r in rows) for k in ("executed", "threads", "pred_on_threads")}
        entry["measured"].update(shared_executed=rec.get("shared_executed"),
                                 shared_wavefronts=rec.get("shared_wavefronts"))
        kernels.append(entry)
    named = {k["source"] for k in kernels}
    others = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.cu")
                    if p.relative_to(root).as_posix() not in named)
    batches = {}
    for folder in sorted({k["folder"] for k in kernels}):
        batches[folder] = _heading(root / folder) or _heading(root / folder.split("/")[0])
    return {"about": "The measured kernels: one line a kernel (scripts/kernel_manifest.py writes it; "
                     "resources/hardware/kernels/README.md says what the fields mean)",
            "nvrtc": nvrtc, "batches": batches,
            "not_kernels": {p: "not a measured kernel: a measuring program or a side-by-side probe (see its README)"
                            for p in others},
            "kernels": kernels}


def dumps(manifest: dict) -> str:
    """JSON with one line a kernel, so that a change shows as the lines of the kernels it touches."""
    head = {k: v for k, v in manifest.items() if k != "kernels"}
    lines = json.dumps(head, indent=1, ensure_ascii=False)[:-2]
    body = ",\n".join("  " + json.dumps(k, ensure_ascii=False, separators=(", ", ": ")) for k in manifest["kernels"])
    return f'{lines},\n "kernels": [\n{body}\n ]\n}}\n'


def load(path: Path = MANIFEST) -> dict:
    return json.loads(path.read_text()) if path.is_file() else {}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--compile", action="store_true", help="build every kernel with NVRTC: same code as measured?")
    ap.add_argument("--only", default="", help="with --compile: only the kernels whose name starts so")
    ap.add_argument("--again", action="store_true", help="with --compile: also the kernels already compared")
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if the manifest is out of step")
    args = ap.parse_args()
    sys.path.insert(0, str(REPO))
    previous = load()
    code, nvrtc = None, None
    if args.compile:
        from bankexplorer.compiler import nvrtc as compiler

        nvrtc = compiler.version()
        if previous.get("nvrtc") not in (None, nvrtc):  # another compiler's findings do not carry over
            previous = {**previous, "nvrtc": nvrtc, "kernels": [{**k, "code": None} for k in previous["kernels"]]}
        done = {k["name"] for k in previous.get("kernels", []) if k.get("code")}
        todo = [n for n in discover() if n.startswith(args.only) and (args.again or n not in done)
                and _has_source(KERNELS, n) and source_of(n).suffix == ".cu"]  # NVRTC builds CUDA C++ only
        code = {}
        for i in range(0, len(todo), 20):  # written as it goes: a long run stopped keeps what it found
            code.update(compare_code(todo[i:i + 20]))
            if not args.check:
                MANIFEST.write_text(dumps(build_manifest(previous=previous, code=code, nvrtc=nvrtc)))
    text = dumps(build_manifest(previous=previous, code=code, nvrtc=nvrtc))
    if args.check:
        if not MANIFEST.is_file() or MANIFEST.read_text() != text:
            sys.exit(f"{MANIFEST.relative_to(REPO)} is out of step: run scripts/kernel_manifest.py")
        return
    MANIFEST.write_text(text)
    m = json.loads(text)
    by = {s: sum(k["status"] == s for k in m["kernels"]) for s in STATUSES}
    print(f"{len(m['kernels'])} kernels: " + ", ".join(f"{n} {s}" for s, n in by.items()))


if __name__ == "__main__":
    main()
