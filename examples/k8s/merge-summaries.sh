#!/bin/sh
# The merge step of examples/k8s (docs/scale-out.md): every summary in SUMMARIES, in name order,
# into SUMMARIES/report.json and report.txt; the text report also goes to the pod's log.
#   SUMMARIES   where the workers wrote (default /summaries)
#   SHARDS      when set, fail unless that many part-*.json summaries are there
#   FAIL_ON     ncclscope --fail-on for the exit code (default error)
set -eu
SUMMARIES=${SUMMARIES:-/summaries}
n=$(find "$SUMMARIES" -maxdepth 1 -name '*.json' ! -name 'report.json' | wc -l)
if [ -n "${SHARDS:-}" ] && [ "$n" -ne "$SHARDS" ]; then
  echo "merge: $n summaries in $SUMMARIES, expected $SHARDS: did every worker finish?" >&2
  exit 2
fi
set -- $(find "$SUMMARIES" -maxdepth 1 -name '*.json' ! -name 'report.json' | LC_ALL=C sort)
[ "$#" -gt 0 ] || { echo "merge: no summaries in $SUMMARIES" >&2; exit 2; }
ncclscope merge "$@" --color never --fail-on never -o "$SUMMARIES/report.txt" || true
cat "$SUMMARIES/report.txt"
rc=0
ncclscope merge "$@" -f json -o "$SUMMARIES/report.json" --fail-on "${FAIL_ON:-error}" -q || rc=$?
exit "$rc"
