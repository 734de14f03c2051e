#!/usr/bin/env bash
# Throughput and memory of `ncclscope analyze` against `grep -c NCCL`, shape by shape.
#
# Usage: bench/run_bench.sh [SIZE_MB]          (default 256: the size of each generated log)
#   SHAPES="mixed comms restarts ranks coll all long gzip files hung big-j2"   rows to run
#   RUNS=5         timed runs per tool and shape, side by side (the fastest of each counts)
#   MEMCHECK=1     peak RSS of analyze on the shape at a quarter of its size and at full size
#   KEEP=0         keep the generated logs under $BENCH_DIR (default: deleted at the end)
#   BENCH_DIR=/tmp/ncclscope-bench   where the logs are generated
#   NCCLSCOPE=path/to/ncclscope      binary to measure (default: build-rel/ncclscope, built here)
#   NCCLSCOPE_BASE=path/to/ncclscope a second binary timed in the same runs (e.g. an older commit)
#   BASE_TIMEOUT=120                 seconds one run of the second binary may take
#   ALL_CORES=1    also time analyze with its default --jobs (one thread per core), in the same
#                  runs: the "cores" columns (MB/s and ratio to the single-threaded grep)
#
# Shapes (bench/gen_shapes.py; every line comes from testdata/corpus/h200x4):
#   mixed    coll_heavy + subsys_all + default per host, 64 hosts (the original run_bench.sh log)
#   comms    4 processes creating 10,000 communicators each (world + splits, connect, destroy)
#   restarts hundreds of restarts of the same 4 processes (same pids and comm pointers)
#   ranks    1,024 ranks on 128 hosts with COLL lines (bench/gen_job.py)
#   coll     NCCL_DEBUG_SUBSYS=INIT,COLL: a long COLL flood
#   all      NCCL_DEBUG_SUBSYS=ALL, 64 hosts
#   long     very long lines (ring orders of 2,048-16,384 ranks, Trees of up to 1,024 channels)
#   gzip     mixed, gzip-compressed (grep side: zgrep -c NCCL; MB/s of the uncompressed bytes)
#   files    one file per rank, 4,096 files in a directory (grep -rc; analyze -j 1 DIR)
#   hung     files, as a job that hung: every rank's file ends with PyTorch's watchdog lines
#            (hang.log's), one rank stuck (the triage of a failed 4,096-rank job)
#   big-j2   mixed at twice SIZE_MB, analyze -j 2 (the file cut into pieces) vs one grep
# Every other row runs analyze single-threaded (-j 1), like grep. Page cache is warmed first.
# Columns: MB/s from the best wall time of RUNS runs of each tool, run side by side; ratio =
# analyze wall / grep wall; cpu rat = analyze CPU (user + system) / grep CPU, best of the runs,
# the steadier number when other work shares the machine.
# Performance is measured here, never asserted in CI.
set -euo pipefail

SIZE_MB=${1:-256}
SHAPES=${SHAPES:-"mixed comms restarts ranks coll all long gzip files hung big-j2"}
RUNS=${RUNS:-5}
MEMCHECK=${MEMCHECK:-1}
KEEP=${KEEP:-0}
BENCH_DIR=${BENCH_DIR:-/tmp/ncclscope-bench}
BASE_TIMEOUT=${BASE_TIMEOUT:-120}
ALL_CORES=${ALL_CORES:-0}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GEN="$ROOT/bench/gen_shapes.py"

if [[ -z "${NCCLSCOPE:-}" ]]; then
  cmake -S "$ROOT" -B "$ROOT/build-rel" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DNCCLSCOPE_TESTS=OFF >/dev/null
  cmake --build "$ROOT/build-rel" --target ncclscope >/dev/null
  NCCLSCOPE="$ROOT/build-rel/ncclscope"
fi
BASE=${NCCLSCOPE_BASE:-}

mkdir -p "$BENCH_DIR"
cleanup() { if [[ "$KEEP" != 1 ]]; then rm -rf "$BENCH_DIR"; fi; }
trap cleanup EXIT
export LC_ALL=C  # grep's fastest mode (and what a user typing grep -c usually gets in CI)

# Generates shape $1 at $2 MB (comms: $2 scales the communicator count) into $3, once.
gen() {
  local shape=$1 mb=$2 out=$3
  [[ -e "$out" ]] && return
  echo "generating $out ..." >&2
  case "$shape" in
    comms) python3 "$GEN" comms --comms $((10000 * mb / SIZE_MB)) -o "$out" ;;
    gzip)
      gen mixed "$mb" "$BENCH_DIR/mixed-${mb}.log"
      gzip -c "$BENCH_DIR/mixed-${mb}.log" >"$out.tmp" && mv "$out.tmp" "$out"
      ;;
    big-j2) gen mixed "$mb" "$out" ;;
    *) python3 "$GEN" "$shape" --size-mb "$mb" -o "$out" ;;
  esac
}

# Input path of shape $1 at $2 MB.
input_of() {
  case "$1" in
    gzip) echo "$BENCH_DIR/mixed-$2.log.gz" ;;
    files | hung) echo "$BENCH_DIR/$1-$2" ;;
    big-j2) echo "$BENCH_DIR/mixed-$2.log" ;;
    *) echo "$BENCH_DIR/$1-$2.log" ;;
  esac
}

# Uncompressed bytes of an input.
bytes_of() {
  case "$1" in
    *.gz) gzip -dc "$1" | wc -c ;;
    *) find "$1" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }' ;;
  esac
}

warm() { if [[ -d "$1" ]]; then cat "$1"/* >/dev/null; cat "$1"/* >/dev/null; else cat "$1" >/dev/null; cat "$1" >/dev/null; fi; }

grep_cmd() {
  case "$1" in
    gzip) echo "zgrep -c NCCL $2" ;;
    files | hung) echo "grep -rc NCCL $2" ;;
    *) echo "grep -c NCCL $2" ;;
  esac
}
jobs_of() { if [[ "$1" == big-j2 ]]; then echo 2; else echo 1; fi; }

# Wall and CPU (user + system) seconds of one run of "$@", as "WALL CPU" (output to a file: GNU
# grep stops at the first match when stdout is /dev/null); "timeout timeout" when it ran past
# $TIMEOUT seconds (if set). CPU time is the steadier number on a shared machine.
one_run() {
  local rc=0
  if [[ -n "${TIMEOUT:-}" ]]; then
    /usr/bin/time -f "%e %U %S" -o "$BENCH_DIR/time" timeout "$TIMEOUT" "$@" >"$BENCH_DIR/out" 2>&1 || rc=$?
  else
    /usr/bin/time -f "%e %U %S" -o "$BENCH_DIR/time" "$@" >"$BENCH_DIR/out" 2>&1 || rc=$?
  fi
  if [[ $rc == 124 ]]; then echo "timeout timeout"; else tail -n 1 "$BENCH_DIR/time" | awk '{ printf "%.3f %.3f", $1, $2 + $3 }'; fi
}
min_of() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || a == "timeout") print b; else if (b == "timeout" || a + 0 <= b + 0) print a; else print b }'; }
mbps() { if [[ "$2" == timeout || -z "$2" ]]; then echo "-"; else awk -v b="$1" -v t="$2" 'BEGIN { printf "%.0f", b / 1e6 / t }'; fi; }

# Peak RSS in MiB of one analyze run.
peak_rss() {
  /usr/bin/time -f %M -o "$BENCH_DIR/rss" "$@" >/dev/null 2>&1 || true
  # The last line: /usr/bin/time writes "Command exited with non-zero status N" first when
  # analyze exits 1 (a finding at error severity).
  tail -n 1 "$BENCH_DIR/rss" | awk '{ printf "%.1f", $1 / 1024 }'
}

echo "ncclscope benchmark: $(nproc) cores, $(uname -m), $SIZE_MB MB per shape, best of $RUNS," \
  "load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
echo "binary: $NCCLSCOPE${BASE:+; second binary: $BASE}"
hdr="%-9s %8s %10s %10s %7s %8s"
[[ "$ALL_CORES" == 1 ]] && hdr+=" %10s %7s"
[[ -n "$BASE" ]] && hdr+=" %10s %7s"
[[ "$MEMCHECK" == 1 ]] && hdr+=" %16s"
hdr+="\n"
args=(shape MB "grep MB/s" "ncs MB/s" ratio "cpu rat")
[[ "$ALL_CORES" == 1 ]] && args+=("cores MB/s" ratio)
[[ -n "$BASE" ]] && args+=("base MB/s" ratio)
[[ "$MEMCHECK" == 1 ]] && args+=("RSS MiB 1/4>full")
# shellcheck disable=SC2059
printf "$hdr" "${args[@]}"

for shape in $SHAPES; do
  mb=$SIZE_MB
  [[ "$shape" == big-j2 ]] && mb=$((2 * SIZE_MB))
  in=$(input_of "$shape" "$mb")
  gen "$shape" "$mb" "$in"
  bytes=$(bytes_of "$in")
  j=$(jobs_of "$shape")
  warm "$in"
  read -r -a gcmd <<<"$(grep_cmd "$shape" "$in")"
  acmd=("$NCCLSCOPE" analyze -j "$j" --format json --quiet "$in")
  ccmd=("$NCCLSCOPE" analyze --format json --quiet "$in")
  bcmd=()
  [[ -n "$BASE" ]] && bcmd=("$BASE" analyze -j "$j" --format json --quiet "$in")
  tg="" ta="" tb="" tc="" cg="" ca=""
  for ((r = 0; r < RUNS; r++)); do
    read -r w c <<<"$(one_run "${gcmd[@]}")"
    tg=$(min_of "$tg" "$w"); cg=$(min_of "$cg" "$c")
    read -r w c <<<"$(one_run "${acmd[@]}")"
    ta=$(min_of "$ta" "$w"); ca=$(min_of "$ca" "$c")
    if [[ "$ALL_CORES" == 1 ]]; then
      read -r w c <<<"$(one_run "${ccmd[@]}")"
      tc=$(min_of "$tc" "$w")
    fi
    if [[ -n "$BASE" && "$tb" != timeout ]]; then
      read -r w c <<<"$(TIMEOUT=$BASE_TIMEOUT one_run "${bcmd[@]}")"
      tb=$(min_of "$tb" "$w")
    fi
  done
  row=("$shape" "$(awk -v b="$bytes" 'BEGIN { printf "%.0f", b / 1e6 }')" "$(mbps "$bytes" "$tg")"
    "$(mbps "$bytes" "$ta")" "$(awk -v a="$ta" -v g="$tg" 'BEGIN { printf "%.2f", a / g }')"
    "$(awk -v a="$ca" -v g="$cg" 'BEGIN { printf "%.2f", (g > 0 ? a / g : 0) }')")
  if [[ "$ALL_CORES" == 1 ]]; then
    row+=("$(mbps "$bytes" "$tc")" "$(awk -v a="$tc" -v g="$tg" 'BEGIN { printf "%.2f", a / g }')")
  fi
  if [[ -n "$BASE" ]]; then
    if [[ "$tb" == timeout ]]; then
      row+=("<$(mbps "$bytes" "$BASE_TIMEOUT")" ">$(awk -v a="$BASE_TIMEOUT" -v g="$tg" 'BEGIN { printf "%.0f", a / g }')")
    else
      row+=("$(mbps "$bytes" "$tb")" "$(awk -v a="$tb" -v g="$tg" 'BEGIN { printf "%.2f", a / g }')")
    fi
  fi
  if [[ "$MEMCHECK" == 1 ]]; then
    quarter=$((mb / 4))
    qin=$(input_of "$shape" "$quarter")
    gen "$shape" "$quarter" "$qin"
    row+=("$(peak_rss "$NCCLSCOPE" analyze -j "$j" --format json --quiet "$qin")>$(peak_rss "${acmd[@]}")")
    if [[ "$KEEP" != 1 ]]; then rm -rf "$qin"; fi
  fi
  # shellcheck disable=SC2059
  printf "$hdr" "${row[@]}"
  if [[ "$KEEP" != 1 && "$shape" != mixed ]]; then rm -rf "$in"; fi
done
