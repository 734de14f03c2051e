#!/usr/bin/env bash
# Byte-for-byte comparison of two ncclscope binaries over every corpus log: `events` and
# `analyze -f json` of each file, and `analyze -f json` of each directory of per-process files.
#
# Usage: bench/compare_outputs.sh OLD_BINARY NEW_BINARY [DIR...]
#   DIRs default to testdata/corpus (and ../shared/corpus when present). Extra arguments to
#   analyze can be given in ANALYZE_ARGS (e.g. "-j 2" for the new binary's parallel path, which
#   must not change a byte either). Prints one line per difference; exit status 1 if any.
set -uo pipefail
OLD=$1 NEW=$2
shift 2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIRS=("$@")
if ((${#DIRS[@]} == 0)); then
  DIRS=("$ROOT/testdata")
  [[ -d "$ROOT/../shared/corpus" ]] && DIRS+=("$ROOT/../shared/corpus")
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
n=0 bad=0
check() {  # label, extra arguments of the new binary, then the command's arguments
  local label=$1 extra=$2
  shift 2
  "$OLD" "$@" >"$TMP/a" 2>&1
  echo "rc=$?" >>"$TMP/a"
  # shellcheck disable=SC2086
  "$NEW" "$@" $extra >"$TMP/b" 2>&1
  echo "rc=$?" >>"$TMP/b"
  n=$((n + 1))
  if ! cmp -s "$TMP/a" "$TMP/b"; then
    bad=$((bad + 1))
    echo "DIFFERS: $label"
  fi
}
while IFS= read -r f; do
  check "events $f" "" events "$f"
  check "json $f" "${ANALYZE_ARGS:-}" analyze -f json --fail-on never "$f"
done < <(find "${DIRS[@]}" -type f \( -name '*.log' -o -name '*.txt' -o -name '*.log.gz' \) | sort)
while IFS= read -r d; do
  check "json dir $d" "${ANALYZE_ARGS:-}" analyze -f json --fail-on never "$d"
done < <(find "${DIRS[@]}" -type d -name 'debug_file' | sort)
echo "compared $n outputs, $bad differ"
((bad == 0))
