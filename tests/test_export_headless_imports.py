"""Headless export must not pull in the window: bankexplorer.export never imports bankexplorer.gui."""

import subprocess
import sys

CODE = r"""
import importlib, pkgutil, sys
import bankexplorer.export as pkg
for m in pkgutil.iter_modules(pkg.__path__):
    importlib.import_module("bankexplorer.export." + m.name)
import bankexplorer.palette
bad = sorted(n for n in sys.modules if n == "bankexplorer.gui" or n.startswith("bankexplorer.gui."))
print(",".join(bad))
"""


def test_export_package_does_not_import_gui():
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"export imported: {out.stdout.strip()}"


def test_gui_palette_reexports_the_shared_palette():
    from bankexplorer import palette
    from bankexplorer.gui import palette as gui_palette

    assert gui_palette.BANK_COLORS is palette.BANK_COLORS
    assert gui_palette.SCREEN is palette.SCREEN
    assert gui_palette.ink_on is palette.ink_on
