#!/usr/bin/env bash
# Throughput and memory benchmark of `ncclscope analyze` against `grep -c NCCL`.
#
# Usage: bench/run_bench.sh [SIZE_MB]          (default 1024)
#   RUNS=3        timed runs per tool (the fastest counts)
#   MEMCHECK=1    also measure peak RSS at 10 MB and 2048 MB (0 to skip)
#   KEEP=0        keep the generated logs under $BENCH_DIR (default: deleted at the end)
#   BENCH_DIR=/tmp/ncclscope-bench   where the logs are generated
#   NCCLSCOPE=path/to/ncclscope      binary to measure (default: build-rel/ncclscope, built here)
#
# The log is real corpus output: coll_heavy.log (12k COLL lines), subsys_all.log
# (NCCL_DEBUG_SUBSYS=ALL) and default.log concatenated again and again. Each copy gets its own
# hostname and commIds (64 distinct hosts, then the copies repeat them), so the job has a fixed
# size (64 hosts x 12 processes) however long the log is: that is what makes peak RSS comparable
# between 10 MB and 2 GB. Page cache is warmed before timing; both tools run single-threaded.
set -euo pipefail

SIZE_MB=${1:-1024}
RUNS=${RUNS:-3}
MEMCHECK=${MEMCHECK:-1}
KEEP=${KEEP:-0}
BENCH_DIR=${BENCH_DIR:-/tmp/ncclscope-bench}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CORPUS="$ROOT/testdata/corpus/h200x4"
HOSTS=64

if [[ -z "${NCCLSCOPE:-}" ]]; then
  cmake -S "$ROOT" -B "$ROOT/build-rel" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DNCCLSCOPE_TESTS=OFF >/dev/null
  cmake --build "$ROOT/build-rel" --target ncclscope >/dev/null
  NCCLSCOPE="$ROOT/build-rel/ncclscope"
fi

mkdir -p "$BENCH_DIR"
cleanup() { if [[ "$KEEP" != 1 ]]; then rm -rf "$BENCH_DIR"; fi; }
trap cleanup EXIT

# One copy of the three logs for host number $1: host "vm" becomes "nodeNNN", commIds get the
# host number in their first hex digits.
one_copy() {
  local h
  h=$(printf '%03d' "$1")
  local hx
  hx=$(printf '%04x' "$1")
  for f in coll_heavy.log subsys_all.log default.log; do
    sed -e "s/^vm:/node$h:/" -e "s/commId 0x..../commId 0x$hx/g" "$CORPUS/$f"
  done
}

# Writes a log of at least $1 MB to $2 (copies are whole, so it may be a little larger).
generate() {
  local want=$(($1 * 1024 * 1024)) out=$2
  [[ -f "$out" ]] && return
  local tmpl="$BENCH_DIR/tmpl"
  mkdir -p "$tmpl"
  for ((h = 0; h < HOSTS; h++)); do [[ -f "$tmpl/$h" ]] || one_copy "$h" >"$tmpl/$h"; done
  : >"$out"
  local size=0 c=0
  while ((size < want)); do
    cat "$tmpl/$((c % HOSTS))" >>"$out"
    size=$(stat -c %s "$out")
    c=$((c + 1))
  done
}

warm() { cat "$1" >/dev/null; cat "$1" >/dev/null; }

now() { date +%s.%N; }

# Fastest wall time of $RUNS runs of the command.
best_time() {
  local best=""
  for ((r = 0; r < RUNS; r++)); do
    local t0 t1
    t0=$(now)
    "$@" >"$BENCH_DIR/out" 2>&1 || true  # not /dev/null: grep stops at the first match there
    t1=$(now)
    best=$(awk -v a="$t0" -v b="$t1" -v best="$best" \
      'BEGIN { d = b - a; if (best == "" || d < best) best = d; printf "%.3f", best }')
  done
  echo "$best"
}

# Peak RSS in MiB of one run.
peak_rss() {
  /usr/bin/time -f %M -o "$BENCH_DIR/rss" "$@" >/dev/null 2>&1 || true
  awk '{ printf "%.1f", $1 / 1024 }' "$BENCH_DIR/rss"
}

analyze() { "$NCCLSCOPE" analyze --format json --quiet "$1"; }

LOG="$BENCH_DIR/bench-${SIZE_MB}MB.log"
echo "generating $LOG ..." >&2
generate "$SIZE_MB" "$LOG"
BYTES=$(stat -c %s "$LOG")
MB=$(awk -v b="$BYTES" 'BEGIN { printf "%.1f", b / 1e6 }')
warm "$LOG"

export LC_ALL=C  # grep's fastest mode (and what a user typing grep -c usually gets in CI)
T_GREP=$(best_time grep -c NCCL "$LOG")
T_NS=$(best_time analyze "$LOG")

echo
echo "ncclscope benchmark: $(nproc) cores, $(uname -m), file $MB MB ($BYTES bytes), best of $RUNS"
echo "binary: $NCCLSCOPE"
printf '%-34s %10s %10s\n' "command" "wall s" "MB/s"
printf '%-34s %10s %10s\n' "grep -c NCCL FILE" "$T_GREP" \
  "$(awk -v b="$BYTES" -v t="$T_GREP" 'BEGIN { printf "%.0f", b / 1e6 / t }')"
printf '%-34s %10s %10s\n' "ncclscope analyze --format json" "$T_NS" \
  "$(awk -v b="$BYTES" -v t="$T_NS" 'BEGIN { printf "%.0f", b / 1e6 / t }')"
printf '%-34s %10s\n' "ratio analyze / grep" \
  "$(awk -v a="$T_NS" -v g="$T_GREP" 'BEGIN { printf "%.2f", a / g }')"

if [[ "$MEMCHECK" == 1 ]]; then
  echo
  printf '%-34s %10s\n' "peak RSS of analyze" "MiB"
  for mb in 10 "$SIZE_MB" 2048; do
    f="$BENCH_DIR/bench-${mb}MB.log"
    echo "generating $f ..." >&2
    generate "$mb" "$f"
    printf '%-34s %10s\n' "$(awk -v b="$(stat -c %s "$f")" 'BEGIN { printf "%.0f MB log", b / 1e6 }')" \
      "$(peak_rss "$NCCLSCOPE" analyze --format json --quiet "$f")"
    if [[ "$f" != "$LOG" && "$KEEP" != 1 ]]; then rm -f "$f"; fi
  done
fi
