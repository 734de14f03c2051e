#!/bin/sh
# Renders the HTML report of a log in headless Chromium and checks the screenshot is a real
# picture (> 10 KB). Usage: html_screenshot_test.sh NCCLSCOPE CHROMIUM LOG [KEEP_PNG]
# Exit 77 (skipped) when Chromium cannot start at all in this environment.
set -u
ncclscope=$1
chromium=$2
log=$3
keep=${4:-}
if ! command -v "$chromium" >/dev/null 2>&1; then
  echo "chromium not found ($chromium); skipping"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

"$ncclscope" -f html -o "$work/report.html" "$log"
rc=$?
# 0 = clean, 1 = findings: both mean the report was written.
if [ "$rc" -gt 1 ] || [ ! -s "$work/report.html" ]; then
  echo "ncclscope failed (exit $rc)" >&2
  exit 1
fi

timeout 90 "$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-component-update --disable-sync --no-first-run --user-data-dir="$work/profile" \
  --screenshot="$work/report.png" --window-size=1280,1600 "file://$work/report.html" \
  >"$work/chromium.log" 2>&1
crc=$?
if [ ! -f "$work/report.png" ]; then
  if [ "$crc" -eq 124 ]; then
    echo "chromium timed out" >&2
    exit 1
  fi
  echo "chromium did not start (exit $crc); skipping" >&2
  tail -5 "$work/chromium.log" >&2
  exit 77
fi
size=$(wc -c <"$work/report.png")
echo "screenshot: $size bytes"
if [ "$size" -le 10240 ]; then
  echo "screenshot too small: the page did not render" >&2
  exit 1
fi
if [ -n "$keep" ]; then cp "$work/report.png" "$keep"; fi
exit 0
