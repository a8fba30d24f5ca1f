#!/usr/bin/env python3
"""Writes a compile database with one entry per source file from a build's
compile_commands.json, in which a unity build (CMAKE_UNITY_BUILD) lists its batches
(Unity/unity_N_cxx.cxx, each #including its sources) instead of the sources: each batch
becomes an entry per source it includes, with the batch's command. clang-tidy then checks
every source, as in a build file by file.

usage: expand-unity-compile-commands.py BUILD_DIR OUT_DIR   (writes OUT_DIR/compile_commands.json)
"""
import json
import os
import re
import sys

INCLUDE = re.compile(r'^#include "(.+)"$')


def expand(entry):
    batch = entry["file"]
    if not re.search(r"/Unity/unity_\d+_\w+\.\w+$", batch):
        return [entry]
    with open(batch, encoding="utf-8") as f:
        sources = [m.group(1) for line in f if (m := INCLUDE.match(line.strip()))]
    return [dict(entry, file=source, command=entry["command"].replace(batch, source)) for source in sources]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    build_dir, out_dir = sys.argv[1:]
    with open(os.path.join(build_dir, "compile_commands.json"), encoding="utf-8") as f:
        entries = json.load(f)
    expanded = [e for entry in entries for e in expand(entry)]
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "compile_commands.json"), "w", encoding="utf-8") as f:
        json.dump(expanded, f, indent=1)


if __name__ == "__main__":
    main()
