#!/usr/bin/env bash
# The window in a real X server: start a private Xvfb, open an example with
# BANKEXPLORER_SCREENSHOT, and check the image: the app's window, the requested size, and its
# views drawn (many distinct colours inside each view, not a blank or one-colour area).
# Exit 0 when all holds, 1 when the check fails, 2 when no X server could be had.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
EXAMPLE=${1:-resources/examples/07_transpose_padded_32x33.json}
SIZE=1600x1000

need_pkgs=()
command -v Xvfb >/dev/null 2>&1 || need_pkgs+=(xvfb xauth)
# what Qt's xcb platform plugin loads at run time (Qt 6.5+ needs libxcb-cursor0)
for lib in libxcb-cursor.so.0 libxkbcommon-x11.so.0 libxcb-icccm.so.4 libxcb-keysyms.so.1 \
           libxcb-image.so.0 libxcb-render-util.so.0 libxcb-shape.so.0 libxcb-xkb.so.1 libEGL.so.1 \
           libfontconfig.so.1 libdbus-1.so.3; do
  ldconfig -p 2>/dev/null | grep -q "$lib" || need_pkgs+=("$lib")
done
if [ ${#need_pkgs[@]} -gt 0 ]; then
  pkgs=(xvfb xauth libxcb-cursor0 libxkbcommon-x11-0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0
        libxcb-render-util0 libxcb-shape0 libxcb-xkb1 libegl1 libfontconfig1 libdbus-1-3)
  echo "gui_smoke: missing ${need_pkgs[*]}; installing the X server and Qt's xcb dependencies"
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${pkgs[@]}" >/dev/null; } 2>&1; then
    echo "gui_smoke: could not install ${pkgs[*]} (no apt-get, no root or no network);" \
         "the window check may fail below"
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
  grep -q "xcb" "$work/app.err" && echo "gui_smoke: Qt's xcb plugin needs libxcb-cursor0 (apt-get install libxcb-cursor0)" >&2
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
QT_QPA_PLATFORM=offscreen "$PY" "$work/check.py" "$shot" "$SIZE" "$work/app.out"
