#!/bin/sh
# The GitHub Action (action.yml + ci/github/run-ncclscope.sh) run as the runner would
# (tests/ci/run_action.py) on corpus logs, with fake $GITHUB_STEP_SUMMARY and $GITHUB_OUTPUT:
# the gate's exit code, the outputs (exit code, counts equal to the JSON report's, report paths),
# the Markdown summary, the annotations, a schema-valid SARIF file, several paths and paths with
# spaces, a policy, a missing input and no input at all.
# Usage: github_action_test.sh NCCLSCOPE SOURCE_DIR
set -u
ncclscope=$1
src=$2
python=/usr/bin/python3
[ -x "$python" ] || python=python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
fail=0
seeds=$src/testdata/corpus/seeds
mkdir -p "$work/ws/logs/run 1"
cp "$seeds/seed004-g6e-ofi-init-failed-socket.log" "$work/ws/logs/socket.log"
cp "$seeds/seed002-p4d-4pods-1gpu-efa-gdrdma.log" "$work/ws/logs/run 1/efa gdr.log"

# action NAME INPUT=VALUE...: runs the action in $work/ws; leaves NAME.{out,summary,stdout}, rc.
action() {
  name=$1
  shift
  : >"$work/$name.out"
  : >"$work/$name.summary"
  GITHUB_OUTPUT=$work/$name.out GITHUB_STEP_SUMMARY=$work/$name.summary RUNNER_TEMP=$work \
    "$python" "$src/tests/ci/run_action.py" "$src" "$work/ws" binary="$ncclscope" "$@" \
    >"$work/$name.stdout" 2>"$work/$name.stderr"
  rc=$?
  if [ "$rc" -eq 100 ]; then cat "$work/$name.stderr"; exit 1; fi
}
output() { sed -n "s/^$2=//p" "$work/$1.out" | tail -1; }
check() {  # check WHAT COMMAND...: fails the test with WHAT when COMMAND fails
  what=$1
  shift
  if ! "$@"; then
    echo "FAIL: $what"
    fail=1
  fi
}

# 1. A socket fallback: fails at --fail-on error, everything written.
action socket paths=logs/socket.log sarif-file=out/ncclscope.sarif
check "socket: exit 1 (got $rc)" [ "$rc" -eq 1 ]
check "socket: exit-code output" [ "$(output socket exit-code)" = 1 ]
json=$(output socket json-file)
check "socket: json-file output names a JSON report" [ -s "$json" ]
want=$("$python" -c 'import json,sys
f = json.load(open(sys.argv[1]))["findings"]
print(*[sum(1 for x in f if x["severity"] == s) for s in ("error", "warning", "info")])' "$json")
got="$(output socket errors) $(output socket warnings) $(output socket infos)"
check "socket: counts '$got' are the JSON report's '$want'" [ "$got" = "$want" ]
check "socket: at least one error" [ "$(output socket errors)" -ge 1 ]
check "socket: an ::error annotation for socket-fallback" \
  grep -q '^::error file=logs/socket.log,line=[0-9]*,title=socket-fallback::' "$work/socket.stdout"
check "socket: summary verdict" grep -q '^### ncclscope failed: findings at or above `error`' "$work/socket.summary"
check "socket: summary holds the Markdown report" grep -q 'socket-fallback' "$work/socket.summary"
check "socket: sarif-file output" [ "$(output socket sarif-file)" = out/ncclscope.sarif ]
check "socket: SARIF written in the workspace" [ -s "$work/ws/out/ncclscope.sarif" ]
if "$python" -c 'import jsonschema' 2>/dev/null; then
  check "socket: SARIF valid against the schema" "$python" "$src/tests/report/validate_sarif.py" \
    "$src/testdata/sarif/sarif-schema-2.1.0.json" "$work/ws/out/ncclscope.sarif:1" >/dev/null
fi

# 2. The same log with fail-on never passes; no annotations or summary when switched off.
action never paths=logs/socket.log fail-on=never annotations=false summary=false
check "never: exit 0 (got $rc)" [ "$rc" -eq 0 ]
check "never: exit-code output 0" [ "$(output never exit-code)" = 0 ]
check "never: no annotations" sh -c "! grep -q '^::' '$work/never.stdout'"
check "never: no summary" [ ! -s "$work/never.summary" ]
check "never: no sarif-file" [ -z "$(output never sarif-file)" ]

# 3. Several paths, a directory whose name has a space (one per line), and a policy.
action many "paths=logs/socket.log
logs/run 1" fail-on=never policy="$src/testdata/policy/ci-gate.json"
check "many: exit 0 (got $rc)" [ "$rc" -eq 0 ]
check "many: the path with spaces was read" grep -q 'efa gdr.log' "$work/many.stdout"
check "many: policy applied (policy-violation annotation)" grep -q 'title=policy-violation' "$work/many.stdout"

# 4. A glob, and extra arguments.
action glob "paths=logs/*.log" args="--slow-init 5" fail-on=warning
check "glob: findings at warning (got $rc)" [ "$rc" -eq 1 ]
check "glob: the glob found socket.log" grep -q 'file=logs/socket.log' "$work/glob.stdout"

# 5. A missing input: exit 2, said in the summary.
action missing "paths=logs/socket.log logs/nope.log"
check "missing: exit 2 (got $rc)" [ "$rc" -eq 2 ]
check "missing: exit-code output 2" [ "$(output missing exit-code)" = 2 ]
check "missing: summary says why" grep -q 'could not be read' "$work/missing.summary"

# 6. No NCCL lines at all: exit 3.
printf 'epoch 1 loss 0.3\n' >"$work/ws/logs/plain.txt"
action plain paths=logs/plain.txt
check "plain: exit 3 (got $rc)" [ "$rc" -eq 3 ]

# 7. No paths: an error annotation and exit 2.
action empty "paths= "
check "empty: exit 2 (got $rc)" [ "$rc" -eq 2 ]
check "empty: error annotation" grep -q '^::error title=ncclscope::no paths' "$work/empty.stdout"

[ "$fail" -eq 0 ] && echo "GitHub Action: 7 scenarios passed"
exit "$fail"
