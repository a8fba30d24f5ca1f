#!/usr/bin/env python3
"""Checks critical_path_reference.py against the hand-built traces and the corpus.

    python3 tests/tools/check_critical_path_reference.py [--corpus]

1. Every tests/data/critical_path/NAME.expected.csv: the reference's CSV on NAME.sqlite,
   NAME.trace.json (NAME ends in .pt) or NAME_rank*.sqlite (the ranks of one job, in order)
   must be the same, byte for byte.
2. With --corpus, on every tests/data/nsys-2025.3/*.sqlite and tests/data/kineto/*.json*,
   whole report: the segments are contiguous, in time order, of positive length, and add up to
   the range; a what-if of factor 1 gives the same length, and making everything 2x faster does
   not make it longer. Prints the totals per category.

Exit status 0 when everything holds, 1 otherwise.
"""

import glob
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
REFERENCE = os.path.join(HERE, "critical_path_reference.py")
CASES = os.path.join(REPO, "tests", "data", "critical_path")


def run(args):
    return subprocess.run([sys.executable, REFERENCE] + args, capture_output=True, text=True, check=True).stdout


def traces_of(expected):
    base = expected[: -len(".expected.csv")]
    for candidate in (base + ".sqlite", base + ".trace.json"):
        if os.path.exists(candidate):
            return [candidate]
    return sorted(glob.glob(base + "_rank*.sqlite"))


def check_cases():
    ok = True
    for expected in sorted(glob.glob(os.path.join(CASES, "*.expected.csv"))):
        files = traces_of(expected)
        if not files:
            print("MISSING trace for %s" % os.path.basename(expected))
            ok = False
            continue
        got = run(files)
        with open(expected, encoding="utf-8") as f:
            want = f.read()
        same = got == want
        ok &= same
        print("%s %s" % ("ok  " if same else "FAIL", os.path.basename(expected)))
        if not same:
            print(got)
    return ok


def check_corpus():
    ok = True
    files = sorted(glob.glob(os.path.join(REPO, "tests", "data", "nsys-2025.3", "*.sqlite")))
    files += sorted(glob.glob(os.path.join(REPO, "tests", "data", "kineto", "*.json*")))
    for path in files:
        d = json.loads(run([path, "--format", "json", "--what-if", ".=1"]))
        segs = d["segments"]
        A, B = d["range"]
        good = bool(segs) and segs[0]["start_ns"] == A and segs[-1]["end_ns"] == B
        good &= all(a["end_ns"] == b["start_ns"] for a, b in zip(segs, segs[1:]))
        good &= all(s["end_ns"] > s["start_ns"] for s in segs)
        good &= sum(s["end_ns"] - s["start_ns"] for s in segs) == d["length_ns"] == B - A
        good &= sum(d["by_category"].values()) == d["length_ns"]
        good &= d["what_if_length_ns"] == d["length_ns"]
        faster = json.loads(run([path, "--format", "json", "--what-if", ".=2"]))
        good &= faster["what_if_length_ns"] <= d["length_ns"]
        ok &= good
        totals = ", ".join("%s %d" % kv for kv in sorted(d["by_category"].items(), key=lambda kv: -kv[1]))
        print("%s %s: %d ns, %d segments; %s" % ("ok  " if good else "FAIL", os.path.basename(path), d["length_ns"],
                                                 len(segs), totals))
    return ok


def main():
    ok = check_cases()
    if "--corpus" in sys.argv[1:]:
        ok &= check_corpus()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
