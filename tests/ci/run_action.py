#!/usr/bin/env python3
"""Runs a composite GitHub Action (action.yml) the way the runner does, for tests.

Usage: run_action.py ACTION_DIR WORKDIR [NAME=VALUE ...]

Checks the action's structure (composite; every `inputs.X` a step uses is declared and every
declared input is used; every output comes from a step's output), then runs its steps in order
with bash in WORKDIR: `${{ inputs.X }}` from NAME=VALUE or the input's default, `${{ steps.S.
outputs.K }}` from what step S wrote to $GITHUB_OUTPUT, `${{ github.X }}` from a fake context,
$GITHUB_ACTION_PATH = ACTION_DIR. $GITHUB_STEP_SUMMARY and $GITHUB_OUTPUT come from the caller's
environment. The action's outputs are appended to $GITHUB_OUTPUT as the runner would expose them,
step stdout/stderr pass through, and the exit code is that of the first failing step (0 if none).
"""
import os
import re
import subprocess
import sys
import tempfile

import yaml

EXPR = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")


def fail(message):
    print(f"action.yml: {message}", file=sys.stderr)
    sys.exit(100)


def read_outputs(path):
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if "=" in line:
                k, v = line.rstrip("\n").split("=", 1)
                out[k] = v
    return out


def main(argv):
    action_dir, workdir = argv[1], argv[2]
    given = dict(a.split("=", 1) for a in argv[3:])
    with open(os.path.join(action_dir, "action.yml"), encoding="utf-8") as f:
        action = yaml.safe_load(f)
    for key in ("name", "description", "inputs", "outputs", "runs"):
        if key not in action:
            fail(f"no '{key}'")
    if action["runs"].get("using") != "composite":
        fail("runs.using is not composite")
    inputs = action["inputs"]
    steps = action["runs"]["steps"]
    text = yaml.safe_dump(steps)
    used = set(re.findall(r"inputs\.([A-Za-z0-9_-]+)", text))
    if used - set(inputs):
        fail(f"steps use undeclared inputs {sorted(used - set(inputs))}")
    if set(inputs) - used:
        fail(f"declared inputs no step uses: {sorted(set(inputs) - used)}")
    for name in given:
        if name not in inputs:
            fail(f"test passes unknown input {name}")
    for name, spec in inputs.items():
        if spec.get("required") and name not in given:
            fail(f"required input {name} not given")
    step_ids = {s.get("id") for s in steps}
    for name, spec in action["outputs"].items():
        m = re.fullmatch(r"\$\{\{\s*steps\.([\w-]+)\.outputs\.([\w-]+)\s*\}\}", spec.get("value", ""))
        if not m or m.group(1) not in step_ids:
            fail(f"output {name} does not come from a step's output")
    for s in steps:
        if s.get("shell") != "bash" or "run" not in s:
            fail(f"step {s.get('name')} is not a bash run step")

    values = {n: given.get(n, str(spec.get("default", ""))) for n, spec in inputs.items()}
    github = {"server_url": "https://github.com", "action_repository": "acme/ncclscope",
              "action_ref": "v1"}
    step_outputs = {}

    def evaluate(s):
        def one(m):
            expr = m.group(1)
            parts = expr.split(".")
            if parts[0] == "inputs":
                return values[parts[1]]
            if parts[0] == "steps" and parts[2] == "outputs":
                return step_outputs.get(parts[1], {}).get(parts[3], "")
            if parts[0] == "github":
                return github.get(parts[1], "")
            fail(f"unsupported expression {expr}")
        return EXPR.sub(one, str(s))

    final_output = os.environ.get("GITHUB_OUTPUT")
    for s in steps:
        env = dict(os.environ)
        env.update({k: evaluate(v) for k, v in (s.get("env") or {}).items()})
        env["GITHUB_ACTION_PATH"] = action_dir
        env.setdefault("RUNNER_TEMP", tempfile.gettempdir())
        with tempfile.NamedTemporaryFile("w", delete=False) as out:
            env["GITHUB_OUTPUT"] = out.name
        rc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c",
                             evaluate(s["run"])], cwd=workdir, env=env).returncode
        step_outputs[s.get("id", "")] = read_outputs(env["GITHUB_OUTPUT"])
        os.unlink(env["GITHUB_OUTPUT"])
        if rc != 0:
            break
    if final_output:
        with open(final_output, "a", encoding="utf-8") as f:
            for name, spec in action["outputs"].items():
                f.write(f"{name}={evaluate(spec['value'])}\n")
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv))
