#!/bin/sh
# Validates `ncclscope --format sarif` against the official SARIF 2.1.0 JSON schema
# (testdata/sarif/sarif-schema-2.1.0.json) with Debian's python3-jsonschema: every golden corpus
# log, a directory, stdin, a policy run, a missing input (exit 2), a file without NCCL lines
# (exit 3), a merge of summaries, and help links. Broken copies of a valid log must be rejected.
# Usage: sarif_schema_test.sh NCCLSCOPE TESTDATA VALIDATOR_PY
# Exit 77 (skipped) when no Python with the jsonschema module is installed.
set -u
ncclscope=$1
testdata=$2
validator=$3

python=
for candidate in /usr/bin/python3 python3; do
  if "$candidate" -c 'import jsonschema' >/dev/null 2>&1; then
    python=$candidate
    break
  fi
done
if [ -z "$python" ]; then
  echo "no python3 with jsonschema (apt-get install python3-jsonschema); skipping"
  exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
cd "$testdata" || exit 1
specs=""
n=0

# run NAME ARGS...: ncclscope -f sarif -o $work/NAME.sarif ARGS, remembering the exit code.
run() {
  name=$1
  shift
  "$ncclscope" --format sarif --quiet -o "$work/$name.sarif" "$@" 2>"$work/$name.err"
  rc=$?
  if [ ! -s "$work/$name.sarif" ]; then
    echo "$name: no SARIF written (exit $rc)"
    cat "$work/$name.err"
    exit 1
  fi
  specs="$specs $work/$name.sarif:$rc"
  n=$((n + 1))
}

while read -r input; do
  [ -n "$input" ] && run "corpus$n" --fail-on warning "$input"
done <golden/inputs.txt
NCCLSCOPE_DOCS_URL=https://example.org/ncclscope/blob/main/docs run docs-url \
  corpus/seeds/seed004-g6e-ofi-init-failed-socket.log
run directory corpus/seeds
run policy --policy policy/ci-gate.json corpus/seeds/seed001-4pods-x4gpu-shm-socket.log
run missing "no such dir/missing log.txt" corpus/h200x4/default.log
run no-nccl corpus/README.md
"$ncclscope" --format sarif --quiet <corpus/h200x4/two_nodes.log >"$work/stdin.sarif" 2>/dev/null
specs="$specs $work/stdin.sarif:$?"
"$ncclscope" summarize -o "$work/part1.json" corpus/h200x4/two_nodes.log 2>/dev/null &&
  "$ncclscope" summarize -o "$work/part2.json" corpus/seeds 2>/dev/null || exit 1
"$ncclscope" merge --format sarif "$work/part1.json" "$work/part2.json" >"$work/merge.sarif" \
  2>/dev/null
specs="$specs $work/merge.sarif:$?"

# What the runs must show beyond validity.
fail=0
grep -q '"helpUri": "https://example.org/ncclscope/blob/main/docs/rules.md#socket-fallback"' \
  "$work/docs-url.sarif" || { echo "docs-url: no helpUri for socket-fallback"; fail=1; }
grep -q '"exitCode": 2' "$work/missing.sarif" &&
  grep -q 'missing%20log.txt' "$work/missing.sarif" ||
  { echo "missing: exit 2 and the missing input's URI expected"; fail=1; }
grep -q '"exitCode": 3' "$work/no-nccl.sarif" || { echo "no-nccl: exit 3 expected"; fail=1; }
grep -q '"ruleId": "policy-violation"' "$work/policy.sarif" ||
  { echo "policy: a policy-violation result expected"; fail=1; }
grep -q '"uri": "corpus/seeds/seed004-g6e-ofi-init-failed-socket.log"' "$work/directory.sarif" ||
  { echo "directory: evidence of a file in the directory expected"; fail=1; }

# shellcheck disable=SC2086
"$python" "$validator" sarif/sarif-schema-2.1.0.json $specs || fail=1

# The validator must reject what is not SARIF 2.1.0.
good=$work/docs-url.sarif
sed 's/"level": "error"/"level": "fatal"/' "$good" >"$work/bad-level.json"
sed 's/"version": "2.1.0"/"version": "2.0.0"/' "$good" >"$work/bad-version.json"
sed 's/"startLine": \([0-9]*\)/"startLine": "\1"/' "$good" >"$work/bad-line.json"
sed 's/"ruleIndex": \([0-9]*\)/"ruleIndex": 999/' "$good" >"$work/bad-index.json"
"$python" "$validator" sarif/sarif-schema-2.1.0.json --expect-invalid "$work/bad-level.json" \
  "$work/bad-version.json" "$work/bad-line.json" "$work/bad-index.json" || fail=1
[ "$fail" -eq 0 ] && echo "validated $((n + 2)) SARIF logs"
exit "$fail"
