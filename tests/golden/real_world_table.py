#!/usr/bin/env python3
"""Line coverage of ncclscope on testdata/real-world, per shape: the table of docs/real-world.md.

Usage: tests/golden/real_world_table.py path/to/ncclscope [testdata/real-world]

For every excerpt in labels.json it runs `ncclscope analyze -f json` and reads stats.coverage
(NCCL lines read and understood) and stats.connection_lines, and compares the connections with
the label's via_lines (the `via` lines a reader counts in the excerpt). Shapes come from the
labels; one-off shapes (`other:...`) are pooled in one row. Excerpts with a gap are listed under
the table with what `ncclscope events --unrecognized` says about them.
"""
import collections
import json
import subprocess
import sys
from pathlib import Path


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    root = Path(sys.argv[2] if len(sys.argv) > 2 else "testdata/real-world")
    labels = json.loads((root / "labels.json").read_text())
    rows = collections.defaultdict(lambda: [0, 0, 0, 0, 0])
    total = [0, 0, 0, 0, 0]
    gaps = []
    for e in labels:
        path = root / e["file"]
        out = subprocess.run([binary, "analyze", "-f", "json", str(path)], capture_output=True,
                             text=True)
        stats = json.loads(out.stdout)["stats"]
        read = stats["coverage"]["nccl_lines_read"]
        understood = stats["coverage"]["understood"]
        via = e.get("via_lines", 0)
        links = min(stats.get("connection_lines", 0), via)
        shapes = {("other (one-off damage and launchers)" if s.startswith("other:") else s)
                  for s in e["shapes"]}
        for acc in [rows[s] for s in shapes] + [total]:
            acc[0] += 1
            acc[1] += read
            acc[2] += understood
            acc[3] += links
            acc[4] += via
        if understood < read or links < via:
            gaps.append((e["file"], read, understood, links, via))

    def pct(a, b):
        # Truncated to one decimal, as ncclscope prints it (99.96 % is not shown as 100 %).
        return f"{int(1000 * a / b) / 10:.1f} %" if b else "n/a"

    print("| shape | excerpts | NCCL lines | understood | share | connections / via lines |")
    print("|---|---:|---:|---:|---:|---:|")
    for shape, r in sorted(rows.items(), key=lambda kv: (-kv[1][0], kv[0])):
        print(f"| {shape} | {r[0]} | {r[1]:,} | {r[2]:,} | {pct(r[2], r[1])} | {r[3]} of {r[4]} |")
    t = total
    print(f"| **all** | {t[0]} | {t[1]:,} | {t[2]:,} | {pct(t[2], t[1])} | {t[3]} of {t[4]} |")
    if gaps:
        print("\nExcerpts with a gap (NCCL lines read, understood; connections, via lines):")
        for g in gaps:
            print(f"- `{g[0]}`: {g[1]} read, {g[2]} understood; {g[3]} of {g[4]} via lines")


if __name__ == "__main__":
    main()
