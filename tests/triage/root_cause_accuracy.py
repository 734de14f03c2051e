#!/usr/bin/env python3
"""Root-cause accuracy of an ncclscope binary on the labelled failure sets (docs/root-cause.md).

    python3 tests/triage/root_cause_accuracy.py build/ncclscope [--min-scenarios N] [--min-real-world N]
                                                [--set dev|heldout|all]

Sets (labels written from each run's ground truth or each thread's conclusion, never from
ncclscope's output):
  scenarios   testdata/corpus/*/expected-root-causes.json: failing jobs run on H200 machines;
              one row per restart attempt, right when the class is the expected one and the
              culprit ranks are exactly the expected set.
  real-world  testdata/real-world/labels.json entries with a root_cause: public-thread excerpts;
              right when the class matches and, where the label names them, the rank is among
              the culprits and the host matches a culprit's (one contains the other).
              `--set dev` (default) counts the entries without a "set" key, `--set heldout`
              only those marked "set": "heldout" (failure excerpts labelled before ncclscope
              was run on them, testdata/real-world/README.md), `--set all` both. The scenarios
              are measured with dev and all; --set heldout prints the excerpts alone.
Also counted: process deaths called a hang (timeout-unknown) — must be 0.
Prints one row per case and the totals; exits 1 when a total is below its --min-* floor.
"""
import argparse
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
TESTDATA = ROOT / "testdata"


def analyze(binary, inputs):
    out = subprocess.run([binary, "analyze", "--format", "json", "--fail-on", "never", *inputs],
                         capture_output=True, text=True, check=False)
    # 3: the input holds no NCCL debug lines; the report (and its root cause) is still written.
    if out.returncode not in (0, 3):
        raise RuntimeError(f"{' '.join(map(str, inputs))}: exit {out.returncode}: {out.stderr}")
    return json.loads(out.stdout)


def culprit_ranks(rc):
    return sorted(c["rank"] for c in rc["culprits"] if c["rank"] is not None)


def culprit_text(rc):
    parts = [str(c["rank"]) if c["rank"] is not None else (c["host"] or "?")
             for c in rc["culprits"]]
    return ",".join(parts) or "-"


def host_matches(label, got):
    return bool(label and got) and (label in got or got in label)


def scenarios(binary):
    rows, right, total, hangs = [], 0, 0, 0
    for expected in sorted(TESTDATA.glob("corpus/*/expected-root-causes.json")):
        folder = expected.parent
        for case in json.loads(expected.read_text()):
            inputs = [folder / p for p in case.get("inputs", [case["file"]])]
            report = analyze(binary, inputs)
            attempts = report["attempts"]
            label = f"{folder.name}/{case['file']}" + (" +" if len(inputs) > 1 else "")
            if len(attempts) != len(case["attempts"]):
                total += len(case["attempts"])
                rows.append(f"  MISS {label}: {len(attempts)} attempts, expected "
                            f"{len(case['attempts'])}")
                continue
            for n, (want, got) in enumerate(zip(case["attempts"], attempts), 1):
                rc = got["root_cause"]
                ok = rc["class"] == want["class"] and culprit_ranks(rc) == sorted(want["ranks"])
                total += 1
                right += ok
                # A known miss (the label's "known_miss": the log cannot tell) is listed as a
                # miss, not as a death called a hang.
                if want["class"] in ("process-killed", "crash-signal") and \
                        rc["class"] == "timeout-unknown" and "known_miss" not in case:
                    hangs += 1
                rows.append(f"  {'ok  ' if ok else 'MISS'} {label}"
                            f"{f' attempt {n}' if len(attempts) > 1 else ''}: expected "
                            f"{want['class']} {want['ranks']} -> {rc['class']} "
                            f"[{culprit_text(rc)}] ({rc['confidence']})"
                            f"{' (known miss)' if not ok and 'known_miss' in case else ''}")
    return rows, right, total, hangs


def in_set(entry, which):
    """dev: entries without a "set" key; heldout: "set": "heldout"; all: every entry."""
    return which == "all" or entry.get("set", "dev") == which


def real_world(binary, which):
    rows, right, cls_right, total, hangs = [], 0, 0, 0, 0
    labels = json.loads((TESTDATA / "real-world/labels.json").read_text())
    for e in labels:
        want = e.get("root_cause")
        if not want or not in_set(e, which):
            continue
        total += 1
        rc = analyze(binary, [TESTDATA / "real-world" / e["file"]])["root_cause"]
        cls = rc["class"] == want["class"]
        who = True
        if want.get("rank") is not None:
            who = want["rank"] in culprit_ranks(rc)
        if want.get("host"):
            who = who and any(host_matches(want["host"], c["host"]) for c in rc["culprits"])
        right += cls and who
        cls_right += cls
        if want["class"] in ("process-killed", "crash-signal") and rc["class"] == "timeout-unknown":
            hangs += 1
        wanted = want["rank"] if want.get("rank") is not None else (want.get("host") or "-")
        rows.append(f"  {'ok  ' if cls and who else 'MISS'} {e['file']}: expected {want['class']} "
                    f"{wanted} -> {rc['class']} [{culprit_text(rc)}] ({rc['confidence']})")
    return rows, right, cls_right, total, hangs


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("binary")
    p.add_argument("--min-scenarios", type=int, default=0)
    p.add_argument("--min-real-world", type=int, default=0)
    p.add_argument("--set", choices=("dev", "heldout", "all"), default="dev",
                   help="which real-world excerpts to measure (default: dev)")
    args = p.parse_args()
    binary = str(pathlib.Path(args.binary).resolve())

    s_right = s_total = s_hangs = 0
    if args.set != "heldout":
        rows, s_right, s_total, s_hangs = scenarios(binary)
        print("scenarios (testdata/corpus/*/expected-root-causes.json), per attempt:")
        print("\n".join(rows))
        print(f"  {s_right} of {s_total} right (class and culprit ranks); deaths called a hang: "
              f"{s_hangs}")
    rows, r_right, r_cls, r_total, r_hangs = real_world(binary, args.set)
    print(f"real-world excerpts with a root_cause label (testdata/real-world/labels.json, set "
          f"{args.set}):")
    print("\n".join(rows))
    print(f"  {r_right} of {r_total} right (class and labelled rank/host); class alone {r_cls} "
          f"of {r_total}; deaths called a hang: {r_hangs}")
    bad = s_right < args.min_scenarios or r_right < args.min_real_world or s_hangs or r_hangs
    if bad:
        print(f"below the floor: scenarios {s_right} < {args.min_scenarios} or real-world "
              f"{r_right} < {args.min_real_world}, or a death called a hang", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
