#!/usr/bin/env bash
# The window in a real X server: start a private Xvfb, open an example with
# BANKEXPLORER_SCREENSHOT, and check the image: the app's window, the requested size, and its
# views drawn (many distinct colours inside each view, not a blank or one-colour area); then
# drive the window with real mouse and key events (tests/xwindow_keys.py: a drag, the undo keys),
# and run tests/test_gui_xwindow.py (a first start on a 1366x768 screen) now that Xvfb is here.
# Exit 0 when all holds, 1 when the check fails, 2 when no X server could be had.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
EXAMPLE=${1:-resources/examples/07_transpose_padded_32x33.json}
SIZE=1600x1000

# What Qt's xcb platform plugin and the Qt libraries load at run time, as ldd sees it: a fresh
# Debian 12 lacks most of it. The packages are the README's apt-get line (so CI tests that line
# on a clean machine), plus the X server and xdotool for the real key events below.
qt_missing() {
  local qt
  qt=$("$PY" -c "import os, PySide6; print(os.path.dirname(PySide6.__file__))" 2>/dev/null) || return 0
  for f in "$qt"/Qt/plugins/platforms/libqxcb.so "$qt"/Qt/plugins/xcbglintegrations/*.so \
           "$qt"/Qt/lib/libQt6XcbQpa.so.6 "$qt"/Qt/lib/libQt6Gui.so.6 "$qt"/Qt/lib/libQt6Widgets.so.6 \
           "$qt"/Qt/lib/libQt6DBus.so.6 "$qt"/Qt/lib/libQt6OpenGL.so.6 "$qt"/Qt/lib/libQt6Svg.so.6; do
    [ -e "$f" ] && ldd "$f" 2>/dev/null | awk '/not found/ {print $1}'
  done | sort -u | tr '\n' ' '
}
readme_line=$(grep -m1 '^sudo apt-get install python3-venv' README.md || true)
readme_pkgs=(${readme_line#sudo apt-get install })
missing=$(qt_missing)
need_tools=()
for t in Xvfb:xvfb xauth:xauth xdotool:xdotool; do
  command -v "${t%%:*}" >/dev/null 2>&1 || need_tools+=("${t##*:}")
done
if [ -n "$missing" ] || [ ${#need_tools[@]} -gt 0 ]; then
  echo "gui_smoke: missing ${missing}${need_tools[*]}; installing the README's packages (${readme_pkgs[*]})" \
       "and xvfb xauth xdotool"
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${readme_pkgs[@]}" \
           xvfb xauth xdotool >/dev/null; } 2>&1; then
    echo "gui_smoke: could not install them (no apt-get, no root or no network); the window check may fail below"
  fi
  missing=$(qt_missing)
  if [ -n "$missing" ]; then
    echo "gui_smoke: FAILED, Qt still cannot load $missing after the README's apt-get line" >&2
    exit 1
  fi
fi
if ! command -v Xvfb >/dev/null 2>&1; then
  echo "gui_smoke: SKIPPED, no Xvfb on this machine and it could not be installed" >&2
  exit 2
fi

# a display number nobody uses
n=90
while [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ]; do n=$((n + 1)); done
work=$(mktemp -d)
Xvfb ":$n" -screen 0 1920x1200x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
xpid=$!
trap 'kill $xpid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$n" ] && break; sleep 0.1; done
if ! kill -0 $xpid 2>/dev/null; then
  echo "gui_smoke: Xvfb :$n did not start:" >&2; cat "$work/xvfb.log" >&2; exit 2
fi

shot="$work/window.png"
# a fresh settings folder: the first-start layout, and nothing written to the user's settings
out=$(env -u QT_QPA_PLATFORM DISPLAY=":$n" XDG_CONFIG_HOME="$work/config" QT_QPA_PLATFORM=xcb \
      BANKEXPLORER_SIZE=$SIZE BANKEXPLORER_SCREENSHOT="$shot" timeout 60 "$PY" -m bankexplorer "$EXAMPLE" 2>"$work/app.err")
rc=$?
echo "$out" | sed 's/^/gui_smoke: /'
if [ $rc -ne 0 ] || [ ! -s "$shot" ]; then
  echo "gui_smoke: FAILED, the app exited with $rc and no screenshot:" >&2
  tail -20 "$work/app.err" >&2
  grep -q "xcb" "$work/app.err" && echo "gui_smoke: Qt's xcb plugin cannot load: see the README's apt-get line" >&2
  exit 1
fi

echo "$out" >"$work/app.out"
cat >"$work/check.py" <<'PYEOF'
import json, sys
from PySide6.QtGui import QImage

path, size = sys.argv[1], sys.argv[2]
lines = open(sys.argv[3], encoding="utf-8").read().splitlines()
shot = next((l for l in lines if l.startswith("screenshot ")), "")
views = json.loads(next((l for l in lines if l.startswith("views ")), "views {}")[6:])
img = QImage(path)
W, H = (int(x) for x in size.split("x"))
problems = []
if img.isNull():
    problems.append("the screenshot is not an image")
elif (img.width(), img.height()) != (W, H):
    problems.append(f"image is {img.width()}x{img.height()}, expected {W}x{H}")
if "BankExplorer" not in shot:
    problems.append(f"the window title is not the app's: {shot!r}")
need = {"tile": 24, "banks": 24, "matrix": 6, "timeline": 4}
for name, least in need.items():
    if name not in views:
        problems.append(f"view {name} is not visible")
        continue
    x, y, w, h = views[name]
    colours = set()
    step = max(1, min(w, h) // 120)
    for yy in range(y, min(y + h, img.height()), step):
        for xx in range(x, min(x + w, img.width()), step):
            colours.add(img.pixel(xx, yy) & 0xFFFFFF)
    print(f"gui_smoke: {name:8s} {w}x{h} at ({x},{y}): {len(colours)} distinct colours (need {least})")
    if len(colours) < least:
        problems.append(f"view {name} looks blank: {len(colours)} colours")
if problems:
    print("gui_smoke: FAILED: " + "; ".join(problems), file=sys.stderr)
    sys.exit(1)
print("gui_smoke: OK, the window and its views are drawn")
PYEOF
QT_QPA_PLATFORM=offscreen "$PY" "$work/check.py" "$shot" "$SIZE" "$work/app.out" || exit 1

# --- the undo keys in the real window: a drag, then Ctrl+Z, Ctrl+Shift+Z, Ctrl+Z, Ctrl+Y ---
keys=$(env -u QT_QPA_PLATFORM DISPLAY=":$n" XDG_CONFIG_HOME="$work/config2" QT_QPA_PLATFORM=xcb \
       timeout 90 "$PY" tests/xwindow_keys.py 2>"$work/keys.err")
krc=$?
echo "gui_smoke: keys $keys"
if [ $krc -ne 0 ] || grep -q "Ambiguous shortcut" "$work/keys.err"; then
  echo "gui_smoke: FAILED, the undo keys in the real window: exit $krc" >&2
  tail -20 "$work/keys.err" >&2
  exit 1
fi
echo "gui_smoke: OK, Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y after a drag change the document"

# --- the real-window tests (a first start on a 1366x768 screen, the undo keys): they skip in the
# test step on a machine that had no Xvfb yet; here the X server and xdotool are installed ---
if ! env -u QT_QPA_PLATFORM "$PY" -m pytest -q -p no:cacheprovider tests/test_gui_xwindow.py -rs >"$work/xtests.out" 2>&1 \
   || grep -q "SKIPPED" "$work/xtests.out"; then
  echo "gui_smoke: FAILED, tests/test_gui_xwindow.py:" >&2
  tail -30 "$work/xtests.out" >&2
  exit 1
fi
echo "gui_smoke: OK, the real-window tests of tests/test_gui_xwindow.py pass"
