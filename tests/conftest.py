import json
import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# every test compiles for real and opens only the files it means to (the compile cache has its own
# tests, which point it at a folder of theirs)
os.environ.setdefault("BANKEXPLORER_CACHE", "off")

ROOT = Path(__file__).resolve().parent.parent
HARDWARE = ROOT / "resources" / "hardware" / "h100_shared_wavefronts.jsonl"
EXAMPLES = ROOT / "resources" / "examples"


@pytest.fixture(scope="session")
def hardware_rows() -> list[dict]:
    return [json.loads(line) for line in HARDWARE.read_text().splitlines() if line.strip()]


# ---- which files a piece of code opens (the hostile-input tests) ----------------------------
_OPENED: list[str] | None = None  # None: not recording


def _audit(event: str, args: tuple) -> None:
    if event == "open" and _OPENED is not None and args and isinstance(args[0], (str, bytes, os.PathLike)):
        _OPENED.append(os.path.abspath(os.fsdecode(args[0])))


@pytest.fixture(scope="session")
def _audit_hook():
    import sys

    sys.addaudithook(_audit)  # cannot be removed: it records only inside ``opened_files``


@pytest.fixture
def opened_files(_audit_hook):
    """A context manager recording the paths ``open``/``os.open`` see inside it (this process)."""
    from contextlib import contextmanager

    @contextmanager
    def record():
        global _OPENED
        got: list[str] = []
        _OPENED = got
        try:
            yield got
        finally:
            _OPENED = None

    return record


@pytest.fixture(scope="session", autouse=True)
def _one_qapplication(qapp):
    """The tests share one process, so one QApplication, made first: a command run in-process (an
    export renders offscreen) would otherwise make a bare QGuiApplication, and a later widget test
    in the same session would abort the interpreter (Qt refuses widgets without a QApplication).
    The app itself runs each command in its own process."""
    yield qapp
