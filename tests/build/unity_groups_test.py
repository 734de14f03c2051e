#!/usr/bin/env python3
"""Compiles every unity group of the library (cmake/UnityBuild.cmake) with -fsyntax-only.

Usage: unity_groups_test.py BUILD_DIR

The README's build and CI compile each src/ folder as one translation unit; a developer build
with ccache compiles file by file and would not see two files of a folder defining the same name
in their anonymous namespaces. This test includes the files of each group into one translation
unit, as CMake does, with the compile flags the build uses for them, and reports every clash.
"""
import collections
import json
import os
import shlex
import subprocess
import sys
import tempfile


def main(build):
    groups = collections.OrderedDict()
    with open(os.path.join(build, "unity_groups.txt"), encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line:
                group, path = line.split(":", 1)
                groups.setdefault(group, []).append(path)
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
        commands = {os.path.realpath(e["file"]): e for e in json.load(f)}
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for group, files in groups.items():
            entry = commands.get(os.path.realpath(files[0]))
            if entry is None:
                print(f"{group}: no compile command for {files[0]}")
                failed += 1
                continue
            args = shlex.split(entry["command"]) if "command" in entry else entry["arguments"]
            flags, skip = [], False
            for a in args[1:]:
                if skip:
                    skip = False
                    continue
                if a in ("-o", "-c", "-MF", "-MT", "-MQ"):
                    skip = True
                    continue
                if a in ("-MD", "-MMD") or os.path.realpath(a) == os.path.realpath(files[0]):
                    continue
                flags.append(a)
            unity = os.path.join(tmp, f"unity_{group}.cc")
            with open(unity, "w", encoding="utf-8") as out:
                for path in files:
                    out.write(f'#include "{path}"\n')
            result = subprocess.run([args[0], *flags, "-fsyntax-only", unity],
                                    cwd=entry["directory"], capture_output=True, text=True)
            if result.returncode != 0:
                failed += 1
                print(f"{group}: {len(files)} files do not compile as one unit:")
                errors = [l for l in result.stderr.splitlines() if "error:" in l]
                print("\n".join("  " + l for l in errors[:20]))
                print("  rename the helper, or list the file in NCCLSCOPE_UNITY_SKIP "
                      "(cmake/UnityBuild.cmake)")
            else:
                print(f"{group}: {len(files)} files compile as one unit")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
