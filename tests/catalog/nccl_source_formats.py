#!/usr/bin/env python3
"""Checks ncclscope against every INFO format string in NCCL's own source, across releases.

Usage: tests/catalog/nccl_source_formats.py NCCL_GIT_DIR path/to/ncclscope [--tags T1,T2,...]

NCCL_GIT_DIR is a clone of https://github.com/NVIDIA/nccl (a bare clone is enough). For each
release tag (default: one per minor line from 2.3 to 2.30) every INFO(...) call in src/ is read,
its format string's conversions are filled with plausible values (%d -> 1, %s -> X, %p -> a
pointer, %lx -> hex), and the result is written as one NCCL line behind a `host:pid:tid [0]` head.
The lines go through `ncclscope events --unrecognized -f json`; the script prints how many
distinct formats were understood and lists the shapes that were not.

Filled-in formats are approximations: a `%s` that NCCL fills with a transport name or a list
gives "X", so a message can read differently from a real one. Remaining shapes are therefore
reviewed by hand (docs/real-world.md says how); this is a check, not a test.
"""
import argparse
import json
import re
import subprocess
import sys
import tempfile

TAGS = ["v2.3.7-1", "v2.4.8-1", "v2.5.7-1", "v2.7.8-1", "v2.9.9-1", "v2.12.12-1", "v2.15.5-1",
        "v2.18.3-1", "v2.21.5-1", "v2.23.4-1", "v2.26.6-1", "v2.28.9-1", "v2.30.7-1"]
CALL = re.compile(r'\b(INFO|WARN|TRACE)\s*\(\s*(?:(NCCL_[A-Z_|]+|[A-Za-z_]+)\s*,\s*)?'
                  r'((?:"(?:[^"\\]|\\.)*"\s*)+)', re.S)
CONV = re.compile(r'%[-+ #0]*\*?\d*(?:\.\*?\d+)?(?:hh|h|ll|l|z|j|t|L)?[diouxXfFeEgGcsp]')


def formats(repo, tags):
    """Distinct (level, format) pairs of INFO/WARN/TRACE calls, first tag that has each."""
    seen = {}
    for tag in tags:
        names = subprocess.run(["git", "-C", repo, "ls-tree", "-r", "--name-only", tag, "src"],
                               capture_output=True, text=True, check=True).stdout.split()
        for name in names:
            if not re.search(r"\.(cc|cu|h|c|cpp)$", name):
                continue
            src = subprocess.run(["git", "-C", repo, "show", f"{tag}:{name}"],
                                 capture_output=True, text=True, errors="replace").stdout
            for m in CALL.finditer(src):
                fmt = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(3)))
                seen.setdefault((m.group(1), fmt), (tag, name))
    return seen


def fill(fmt):
    """The format with each conversion replaced by a plausible value."""
    s = fmt.replace("\\n", " ").replace("\\t", " ").replace('\\"', '"').replace("%%", "%")

    def value(m):
        conv = m.group(0)[-1]
        return {"x": "1b000", "X": "1B000", "p": "0x7f00aa", "s": "X", "c": "c",
                "f": "0.50", "F": "0.50", "e": "0.50", "g": "0.50"}.get(conv, "1")
    return CONV.sub(value, s).strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("nccl_git_dir")
    ap.add_argument("ncclscope")
    ap.add_argument("--tags", default=",".join(TAGS))
    args = ap.parse_args()
    found = formats(args.nccl_git_dir, args.tags.split(","))
    info = [fill(fmt) for (level, fmt) in found if level == "INFO"]
    info = [body for body in info if body]
    with tempfile.NamedTemporaryFile("w", suffix=".log") as f:
        for body in info:
            f.write(f"vm:100:101 [0] NCCL INFO {body}\n")
        f.flush()
        out = subprocess.run([args.ncclscope, "events", "--unrecognized", "-f", "json", f.name],
                             capture_output=True, text=True)
    report = json.loads(out.stdout)
    missed = sum(s["count"] for s in report.get("groups", []))
    print(f"{len(info):,} INFO formats from {len(args.tags.split(','))} releases; "
          f"{len(info) - missed:,} understood ({100.0 * (len(info) - missed) / len(info):.1f} %), "
          f"{missed} not:")
    for s in report.get("groups", []):
        print(f"  {s['count']:4}  {s['shape']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
