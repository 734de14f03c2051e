#!/usr/bin/env python3
"""Validates SARIF logs against the SARIF 2.1.0 JSON schema, plus what the schema cannot say.

Usage: validate_sarif.py SCHEMA [--expect-invalid] FILE[:EXIT_CODE]...

Each FILE must be valid against SCHEMA (any JSON Schema draft the installed jsonschema knows;
the OASIS schema is draft-04) and consistent: every result's ruleIndex names the descriptor of
its ruleId, helpUri/informationUri are absolute URIs, artifact URIs are URI references, and, when
:EXIT_CODE is given, the invocation's exitCode is that code. With --expect-invalid every FILE
must instead be rejected (a check that the validator really validates). Exit 0 when all files
are as expected, 1 otherwise.
"""
import json
import re
import sys

import jsonschema

ABSOLUTE_URI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$")
# RFC 3986 URI reference characters (unreserved, reserved, and %XX escapes).
URI_REFERENCE = re.compile(r"^([A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$")


def walk(node, key=None):
    """Yields (key, value) for every member of every object in the document."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield k, v
            yield from walk(v, k)
    elif isinstance(node, list):
        for v in node:
            yield from walk(v, key)


def consistency_problems(log, exit_code):
    problems = []
    for run in log.get("runs", []):
        rules = run["tool"]["driver"].get("rules", [])
        for i, result in enumerate(run.get("results", [])):
            idx = result.get("ruleIndex")
            if idx is None or idx >= len(rules) or rules[idx]["id"] != result.get("ruleId"):
                problems.append(f"results[{i}]: ruleIndex {idx} does not name {result.get('ruleId')}")
            if not result.get("locations"):
                problems.append(f"results[{i}]: no location")
        if exit_code is not None:
            got = [inv.get("exitCode") for inv in run.get("invocations", [])]
            if got != [exit_code]:
                problems.append(f"invocations exitCode {got}, the process exited {exit_code}")
    for key, value in walk(log):
        if key in ("helpUri", "informationUri") and not ABSOLUTE_URI.match(value):
            problems.append(f"{key} is not an absolute URI: {value!r}")
        if key == "artifactLocation" and "uri" in value and not URI_REFERENCE.match(value["uri"]):
            problems.append(f"artifact uri is not a URI reference: {value['uri']!r}")
    return problems


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema)
    expect_invalid = argv[2] == "--expect-invalid"
    files = argv[3:] if expect_invalid else argv[2:]
    failed = 0
    for spec in files:
        path, _, code = spec.partition(":") if re.search(r":\d+$", spec) else (spec, "", "")
        exit_code = int(code) if code else None
        try:
            with open(path, encoding="utf-8") as f:
                log = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{path}: not JSON: {e}")
            failed += 1
            continue
        problems = [f"schema: {e.message} at /{'/'.join(map(str, e.absolute_path))}"
                    for e in validator.iter_errors(log)]
        if not problems:
            problems = consistency_problems(log, exit_code)
        if expect_invalid:
            if problems:
                print(f"{path}: rejected as expected ({problems[0]})")
            else:
                print(f"{path}: accepted, but it is not valid SARIF")
                failed += 1
        elif problems:
            print(f"{path}: INVALID")
            for p in problems[:20]:
                print(f"  {p}")
            failed += 1
        else:
            results = sum(len(r.get("results", [])) for r in log["runs"])
            print(f"{path}: valid ({validator_class.__name__}, {results} results)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
