#!/usr/bin/env bash
# Regenerates testdata/golden/ from the current build: the text and JSON reports of every corpus
# log. Review the diff before committing: a golden change is a behaviour change.
#   tests/golden/update_golden.sh [path/to/ncclscope]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-$root/build/ncclscope}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
cd "$root/testdata"
while read -r input; do
  name=$(echo "$input" | sed 's#^corpus/##; s#/#__#g; s#\.log$##')
  "$bin" analyze --format json --fail-on never "$input" > "golden/$name.json" || true
  "$bin" analyze --format text --color never --fail-on never "$input" > "golden/$name.txt" || true
done < golden/inputs.txt
echo "updated $(wc -l < golden/inputs.txt) inputs in testdata/golden"

# `ncclscope diff` of corpus pairs (after the reports above: report_vs_log reads one of them).
while read -r name before after; do
  [ -n "$name" ] || continue
  "$bin" diff --color never "$before" "$after" > "golden/diff/$name.txt" || true
  "$bin" diff -f json "$before" "$after" > "golden/diff/$name.json" || true
  "$bin" diff -f markdown "$before" "$after" > "golden/diff/$name.md" || true
done < golden/diff/cases.txt
echo "updated $(wc -l < golden/diff/cases.txt) diff cases in testdata/golden/diff"
