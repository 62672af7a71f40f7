"""Where bundled files live (examples, hardware data, schema), for both a checkout and an install."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "resources"
if not ROOT.is_dir():  # installed as a package: resources are shipped inside it
    ROOT = Path(__file__).resolve().parent / "resources"

EXAMPLES = ROOT / "examples"
HARDWARE = ROOT / "hardware"
SCHEMA = ROOT / "schema" / "pattern.schema.json"


def examples() -> list[Path]:
    return sorted(EXAMPLES.glob("*.json"))
