#!/bin/sh
# The GitLab CI template (ci/gitlab/ncclscope.yml): valid YAML with a hidden `.ncclscope` job whose
# JUnit report is declared; its script, taken from the YAML and run as GitLab would (bash -e -o
# pipefail, the template's variables overridden by the job's), writes a well-formed JUnit report
# with one test case per rule and the gate's exit code, and says what to set when it has no
# ncclscope. Usage: gitlab_template_test.sh NCCLSCOPE SOURCE_DIR
set -u
ncclscope=$1
src=$2
python=/usr/bin/python3
[ -x "$python" ] || python=python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
fail=0
cp "$src/testdata/corpus/seeds/seed004-g6e-ofi-init-failed-socket.log" "$work/nccl.log"

# The job's script and variables, as GitLab reads them.
"$python" - "$src/ci/gitlab/ncclscope.yml" "$work" <<'PY' || exit 1
import sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
job = doc[".ncclscope"]
assert job["artifacts"]["reports"]["junit"] == "ncclscope-junit.xml", "no JUnit report declared"
assert job["artifacts"]["when"] == "always", "artifacts only on success"
for p in job["artifacts"]["paths"]:
    assert p.startswith("ncclscope-"), p
script = "\n".join(job["script"])
assert "# ncclscope-script-begin" in script
open(sys.argv[2] + "/script.sh", "w").write(script)
with open(sys.argv[2] + "/variables.sh", "w") as f:
    for k, v in job["variables"].items():
        f.write(f"export {k}='{v}'\n")
PY

# run NAME VAR=VALUE...: the script in $work/NAME with the template's variables, then these.
run() {
  name=$1
  shift
  mkdir -p "$work/$name"
  cp "$work/nccl.log" "$work/$name/"
  (cd "$work/$name" && . "$work/variables.sh" && for kv in "$@"; do export "$kv"; done &&
    PATH=$work/no-ncclscope-here /bin/bash -e -o pipefail "$work/script.sh") >"$work/$name.log" 2>&1
  rc=$?
}
check() {
  what=$1
  shift
  if ! "$@"; then echo "FAIL: $what"; fail=1; fi
}

run gate NCCLSCOPE_BINARY="$ncclscope" NCCLSCOPE_PATHS=nccl.log
check "gate: exit 1 on a socket fallback (got $rc)" [ "$rc" -eq 1 ]
for f in ncclscope-junit.xml ncclscope-report.md ncclscope-report.json; do
  check "gate: $f written" [ -s "$work/gate/$f" ]
done
rules=$("$ncclscope" rules --format json | "$python" -c 'import json,sys; print(len(json.load(sys.stdin)))')
check "gate: JUnit well-formed, one test case per rule, socket-fallback failing" "$python" - \
  "$work/gate/ncclscope-junit.xml" "$rules" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
cases = root.findall(".//testcase[@classname='ncclscope.rules']")
names = {c.get("name") for c in cases}
failing = {c.get("name") for c in cases if c.find("failure") is not None}
ok = len(cases) >= int(sys.argv[2]) and "socket-fallback" in failing and "socket-fallback" in names
if not ok:
    print(f"{len(cases)} rule test cases (want >= {sys.argv[2]}), failing {sorted(failing)}")
sys.exit(0 if ok else 1)
PY
check "gate: the text report in the job log" grep -q 'socket-fallback' "$work/gate.log"

run never NCCLSCOPE_BINARY="$ncclscope" NCCLSCOPE_PATHS=nccl.log NCCLSCOPE_FAIL_ON=never
check "never: exit 0 (got $rc)" [ "$rc" -eq 0 ]
check "never: JUnit still written" [ -s "$work/never/ncclscope-junit.xml" ]

run policy NCCLSCOPE_BINARY="$ncclscope" NCCLSCOPE_PATHS='*.log' NCCLSCOPE_FAIL_ON=never \
  NCCLSCOPE_POLICY="$src/testdata/policy/ci-gate.json"
check "policy: exit 0 (got $rc)" [ "$rc" -eq 0 ]
check "policy: a policy-violation test case" grep -q 'name="policy-violation"' "$work/policy/ncclscope-junit.xml"

run missing NCCLSCOPE_BINARY="$ncclscope" NCCLSCOPE_PATHS="nccl.log nope.log"
check "missing: exit 2 (got $rc)" [ "$rc" -eq 2 ]

run nobinary NCCLSCOPE_PATHS=nccl.log
check "no binary: exit 2 (got $rc)" [ "$rc" -eq 2 ]
check "no binary: says what to set" grep -q 'set NCCLSCOPE_BINARY, NCCLSCOPE_SOURCE or NCCLSCOPE_REPO' "$work/nobinary.log"

[ "$fail" -eq 0 ] && echo "GitLab template: 5 scenarios passed"
exit "$fail"
