import json
import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parent.parent
HARDWARE = ROOT / "resources" / "hardware" / "h100_shared_wavefronts.jsonl"
EXAMPLES = ROOT / "resources" / "examples"


@pytest.fixture(scope="session")
def hardware_rows() -> list[dict]:
    return [json.loads(line) for line in HARDWARE.read_text().splitlines() if line.strip()]
