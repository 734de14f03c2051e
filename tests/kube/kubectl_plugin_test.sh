#!/usr/bin/env bash
# kubectl-ncclscope against a fake kubectl on PATH (testdata/kube/fake-kubectl): the calls it
# makes, the logs and pod status lines it collects, the report it produces, its exit codes.
#   kubectl_plugin_test.sh PLUGIN NCCLSCOPE TESTDATA
set -uo pipefail
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
plugin=$(abs "$1") ncclscope=$(abs "$2") testdata=$(cd "$3" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
ln -s "$testdata/kube/fake-kubectl" "$tmp/bin/kubectl"
export PATH="$tmp/bin:$PATH" NCCLSCOPE=$ncclscope FAKE_KUBECTL_CALLS=$tmp/calls
unset KUBECTL
[[ $(command -v kubectl) == "$tmp/bin/kubectl" ]] || { echo "FAIL the fake kubectl is not first on PATH"; exit 1; }

failures=0
check() {  # DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then echo "ok   $what"; else echo "FAIL $what"; failures=$((failures + 1)); fi
}
has() { grep -qF -- "$2" "$1"; }
lacks() { ! grep -qF -- "$2" "$1"; }
run() {  # OUT ARGS...: runs the plugin, stdout to OUT, stderr to OUT.err; returns its exit code
  local out=$1
  shift
  : >"$tmp/calls"
  "$plugin" "$@" >"$out" 2>"$out.err"
}

# 1. A Job: every pod's log and status, one analysis.
run "$tmp/job.txt" job/train -n ml --save "$tmp/run" -- --color never
rc=$?
check "job/train: exit code of ncclscope (socket fallback is an error)" test "$rc" = 1
check "job/train: workload read" has "$tmp/calls" "kubectl get job/train -n ml -o json"
check "job/train: pods listed by the Job's selector" has "$tmp/calls" \
  "kubectl get pods -n ml -l batch.kubernetes.io/controller-uid=5b2a6c1e-7d4f-4e55-9a0b-0c6f3c1d2e11 -o json"
for p in 0 1 2 3; do
  check "job/train: log of train-$p with prefix and timestamps" has "$tmp/calls" \
    "kubectl logs train-$p -c trainer -n ml --prefix --timestamps"
done
check "job/train: every container of the pending pod tried" has "$tmp/calls" \
  "kubectl logs train-4 -c metrics -n ml --prefix --timestamps"
check "job/train: failed fetch reported" has "$tmp/job.txt.err" "train-4/trainer: Error from server (BadRequest)"
check "job/train: namespace events read" has "$tmp/calls" "kubectl get events -n ml -o json"
check "job/train: node events read" has "$tmp/calls" \
  "kubectl get events -A --field-selector involvedObject.kind=Node -o json"
check "job/train: one job of 4 processes" has "$tmp/job.txt" "1 host, 4 processes, 5 communicators"
check "job/train: on 2 NCCL nodes" has "$tmp/job.txt" "as NCCL nodes simhost0,simhost1"
check "job/train: each pod is a source" has "$tmp/job.txt" "input <stdin>[pod/train-2/trainer]"

log2=$tmp/run/logs/train-2.trainer.log
check "status: OOMKilled last state of train-2, at its finish time" has "$log2" \
  "[pod/train-2/trainer] 2026-11-21T13:41:12Z       Reason:       OOMKilled"
check "status: exit code 137 of train-2" has "$log2" \
  "[pod/train-2/trainer] 2026-11-21T13:41:12Z       Exit Code:    137"
check "status: restart count of train-2" has "$log2" "[pod/train-2/trainer]     Restart Count:  1"
check "status: BackOff event of train-2" has "$log2" "2026-11-21T13:41:15Z   Warning  BackOff"
check "status: after the pod's log lines" test "$(tail -n 1 "$log2" | cut -c1-21)" = "[pod/train-2/trainer]"
log3=$tmp/run/logs/train-3.trainer.log
check "status: train-3 evicted" has "$log3" "[pod/train-3/trainer] Reason:           Evicted"
check "status: train-3 container exit code" has "$log3" "Exit Code:    137"
check "status: healthy pod has none" lacks "$tmp/run/logs/train-0.trainer.log" "Restart Count"
check "status: pending pod's scheduling failure" has "$tmp/run/logs/train-4.trainer.log" "FailedScheduling"
events=$tmp/run/logs/cluster-events.log
check "events: node OOMKilling of train-2's node" has "$events" "Warning  OOMKilling         node/gpu-node-b"
check "events: the Job's own warning" has "$events" "BackoffLimitExceeded"
check "events: nodes without our pods left out" lacks "$events" "cpu-node-z"
check "events: other pods' events left out" lacks "$tmp/run/logs/train-2.trainer.log" "other-0"

# Root cause: train-2 (rank 2: its log is nccl.vm.3694.log) was OOMKilled first; the node's
# OOMKilling event (pid 4242 as the node sees it) is the same kill; train-3's eviction 18 s later
# is not the cause.
check "root cause: the report opens with it" test "$(head -n 1 "$tmp/job.txt" | cut -c1-32)" = \
  "Root cause: rank 2 (vm pid 3694)"
check "root cause: OOM kill of rank 2" has "$tmp/job.txt" \
  "Root cause: rank 2 (vm pid 3694) was killed by SIGKILL (signal 9): out of host memory"
check "root cause: class process-killed" has "$tmp/job.txt" "  class process-killed, confidence high, at 2026-11-21 13:41:12"
check "root cause: evidence is train-2's OOMKilled state" has "$tmp/job.txt" \
  "<stdin>[pod/train-2/trainer]:420:       Reason:       OOMKilled"
check "root cause: the node's OOMKilling event joins it" has "$tmp/job.txt" \
  "<stdin>:1: Warning  OOMKilling         node/gpu-node-b"
check "root cause: train-3's eviction is a later end" has "$tmp/job.txt" \
  "rank 3 ended by signal 9 (its pod: Evicted) at 2026-11-21 13:41:30"
"$ncclscope" --color never --fail-on never "$tmp/run/logs" >"$tmp/saved.txt" 2>/dev/null
check "root cause: the same from the saved logs" has "$tmp/saved.txt" \
  "Root cause: rank 2 (vm pid 3694) was killed by SIGKILL (signal 9): out of host memory"

# The same analysis as the per-process files analysed directly (communicators and links).
section() { sed -n '/^Communicators/,/^Findings/p' "$1"; }
"$ncclscope" --color never "$testdata/corpus/h200x4/debug_file" >"$tmp/direct.txt" 2>/dev/null
check "job/train: communicators and links as in the direct analysis" \
  diff <(section "$tmp/direct.txt") <(section "$tmp/job.txt")

# 2. Pods by name, ncclscope options after --.
run "$tmp/names.json" train-0 pod/train-1 -n ml --no-status -- --format json --fail-on never
rc=$?
check "names: exit 0 with --fail-on never" test "$rc" = 0
check "names: pods read by name" has "$tmp/calls" "kubectl get pods train-0 train-1 -n ml -o json"
check "names: only those logs" lacks "$tmp/calls" "kubectl logs train-2"
check "names: --no-status reads no events" lacks "$tmp/calls" "get events"
check "names: JSON report" has "$tmp/names.json" '"schema_version": 1'
check "names: two pods" test "$(grep -c '"name": "<stdin>\[pod/' "$tmp/names.json")" = 2

# 3. A selector, --previous, --since, one at a time.
run "$tmp/prev.txt" -l job-name=train -n ml --previous --since 1h -P 1 -c trainer -- --color never
check "previous: kubectl logs --previous --since" has "$tmp/calls" \
  "kubectl logs train-2 -c trainer -n ml --prefix --timestamps --previous --since 1h"
check "previous: pods without a previous instance reported" has "$tmp/prev.txt.err" \
  "previous terminated container \"trainer\" in pod \"train-0\" not found"
check "previous: the one log analysed" has "$tmp/prev.txt" "input <stdin>[pod/train-2/trainer]"
check "previous: --container keeps the sidecar out" lacks "$tmp/calls" "-c metrics"

# 4. Bad targets: exit 2 with a message.
run "$tmp/bad.txt" job/nope -n ml
check "unknown job: exit 2" test $? = 2
check "unknown job: says so" has "$tmp/bad.txt.err" "kubectl get job/nope failed"
run "$tmp/none.txt" -l app=nothing -n ml
check "no pods: exit 2" test $? = 2
check "no pods: says so" has "$tmp/none.txt.err" "no pods with labels app=nothing in namespace ml"
run "$tmp/opt.txt" job/train -n ml --format json
check "ncclscope option before --: exit 2" test $? = 2
check "ncclscope option before --: says where it goes" has "$tmp/opt.txt.err" "ncclscope options go after --"

if [[ $failures -gt 0 ]]; then
  echo "$failures check(s) failed; plugin stderr of the job run:"
  cat "$tmp/job.txt.err"
  exit 1
fi
