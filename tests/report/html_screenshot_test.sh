#!/bin/sh
# Renders the HTML report of a log in headless Chromium and checks what the browser made of it
# against the JSON report of the same log (tests/report/check_rendered_report.py): the DOM holds
# every finding, the link graph and the class matrices; the screenshot shows text and the
# severity and link-class colours. Usage: html_screenshot_test.sh NCCLSCOPE CHROMIUM LOG [KEEP_PNG]
# Exit 77 (skipped) only when Chromium is not installed (the README's test command installs it);
# a Chromium that is installed but cannot render fails the test.
set -u
here=$(dirname "$0")
ncclscope=$1
chromium=$2
log=$3
keep=${4:-}
width=1280
height=2000
if [ -z "$chromium" ] || ! command -v "$chromium" >/dev/null 2>&1; then
  echo "chromium not installed ($chromium); skipping (apt-get install chromium)"
  exit 77
fi
python=/usr/bin/python3
[ -x "$python" ] || python=python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

"$ncclscope" -f html -o "$work/report.html" "$log"
rc=$?
"$ncclscope" -f json -o "$work/report.json" "$log"
# 0 = clean, 1 = findings: both mean the report was written.
if [ "$rc" -gt 1 ] || [ ! -s "$work/report.html" ] || [ ! -s "$work/report.json" ]; then
  echo "ncclscope failed (exit $rc)" >&2
  exit 1
fi

# As root in a container: no sandbox, no GPU, nothing fetched, a throwaway profile.
browse() {
  timeout 90 "$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --no-first-run --disable-sync --hide-scrollbars \
    --user-data-dir="$(mktemp -d -p "$work")" "$@" "file://$work/report.html"
}
browse --dump-dom >"$work/dom.html" 2>"$work/chromium-dom.log"
drc=$?
browse --screenshot="$work/report.png" --window-size=$width,$height >"$work/chromium.log" 2>&1
crc=$?
if [ "$drc" -ne 0 ] || [ ! -s "$work/dom.html" ] || [ ! -f "$work/report.png" ]; then
  echo "chromium did not render the report (dump-dom exit $drc, screenshot exit $crc)" >&2
  tail -5 "$work/chromium-dom.log" "$work/chromium.log" >&2
  exit 1
fi
"$python" "$here/check_rendered_report.py" "$work/report.json" "$work/dom.html" \
  "$work/report.png" $width $height
result=$?
if [ -n "$keep" ]; then cp "$work/report.png" "$keep"; fi
exit $result
