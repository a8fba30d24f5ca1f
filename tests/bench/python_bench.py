#!/usr/bin/env python3
"""Figures of the Python module (docs/python.md), as key=value lines, each the median of --runs:

  open_s=            lanescope.open(FILE), in this process
  open_info_s=       lanescope.open(FILE).info()
  cli_info_s=        `lanescope-cli info FILE --format json`, the whole process, run in turn with the above
  open_over_cli=     open_s / cli_info_s
  events_<table>_ms= Report.events(table) for the tables named by --events (rows in events_<table>=;
                     events_<table>_first_ms= the first call, on memory the process never used,
                     after pandas' own first frame)
  lane_views_ms=     Report.lane_events(lane) of every lane: every interval event as views, no copy
  open_cache_first_s= lanescope.open(FILE, cache=True) with an empty cache folder (a new temporary
                     one): the import, then its model saved
  open_cache_s=      lanescope.open(FILE, cache=True) again: the saved model read back
  compare_s=         lanescope.compare([FILE, *OTHERS]) with --compare OTHERS (comma-separated)
  compare_cache_first_s= the same with cache=True and an empty cache folder: imported, then saved
  compare_cache_s=   again: every report read back from its saved model

usage: PYTHONPATH=build/release/app/python python3 tests/bench/python_bench.py FILE
           [--cli build/release/app/lanescope-cli] [--runs 5] [--events kernels,cuda_api]
           [--compare OTHER[,OTHER...]]
"""

import argparse
import gc
import os
import shutil
import statistics
import subprocess
import tempfile
import time

import lanescope
import pandas  # noqa: F401 (imported by the first frame otherwise, and timed with it)


def seconds(work):
    begin = time.perf_counter()
    result = work()
    return time.perf_counter() - begin, result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--cli", default="build/release/app/lanescope-cli")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--events", default="kernels,cuda_api")
    parser.add_argument("--compare", default="")
    args = parser.parse_args()

    opens, open_infos, clis = [], [], []
    for _ in range(args.runs):  # in turn, so that both see the same machine
        clis.append(seconds(lambda: subprocess.run([args.cli, "info", args.file, "--format", "json"], check=True,
                                                   stdout=subprocess.DEVNULL))[0])
        took, report = seconds(lambda: lanescope.open(args.file))
        opens.append(took)
        open_infos.append(took + seconds(report.info)[0])
        del report
        gc.collect()
    print(f"open_s={statistics.median(opens):.3f}")
    print(f"open_info_s={statistics.median(open_infos):.3f}")
    print(f"cli_info_s={statistics.median(clis):.3f}")
    print(f"open_over_cli={statistics.median(opens) / statistics.median(clis):.3f}")

    report = lanescope.open(args.file)
    # pandas builds its first frame of a process slowly (about 0.1 s here: what it imports on
    # first use), whatever the frame; built here, it is not counted in the first call below.
    pandas.DataFrame({"warm": [0]})
    for table in filter(None, args.events.split(",")):
        # Each frame dropped before the next, as a notebook that reassigns `df` does; the first
        # call of all also pays for fresh pages (events_<table>_first_ms=).
        runs = [seconds(lambda: len(report.events(table))) for _ in range(args.runs)]
        print(f"events_{table}={runs[0][1]}")
        print(f"events_{table}_first_ms={runs[0][0] * 1e3:.1f}")
        print(f"events_{table}_ms={statistics.median(t for t, _ in runs) * 1e3:.1f}")
    lanes = range(len(report.lanes()))
    runs = [seconds(lambda: sum(len(report.lane_events(i)) for i in lanes)) for _ in range(args.runs)]
    print(f"lane_views={runs[0][1]}")
    print(f"lane_views_ms={statistics.median(t for t, _ in runs) * 1e3:.1f}")
    del report
    gc.collect()

    folder = tempfile.mkdtemp(prefix="lanescope-bench-cache-")
    os.environ["XDG_CACHE_HOME"] = folder  # read by each open
    try:
        took, report = seconds(lambda: lanescope.open(args.file, cache=True))
        assert not report.from_cache
        print(f"open_cache_first_s={took:.3f}")
        del report
        gc.collect()
        reopens = []
        for _ in range(args.runs):
            took, report = seconds(lambda: lanescope.open(args.file, cache=True))
            assert report.from_cache
            reopens.append(took)
            del report
            gc.collect()
        print(f"open_cache_s={statistics.median(reopens):.3f}")
        if args.compare:
            compare_cached(args, folder)
    finally:
        shutil.rmtree(folder)


def compare_cached(args, folder):
    """compare_s=, compare_cache_first_s= and compare_cache_s= (see above), each run once."""
    paths = [args.file, *args.compare.split(",")]
    shutil.rmtree(os.path.join(folder, "lanescope"), ignore_errors=True)
    took, plain = seconds(lambda: lanescope.compare(paths))
    print(f"compare_s={took:.3f}")
    took, first = seconds(lambda: lanescope.compare(paths, cache=True))
    print(f"compare_cache_first_s={took:.3f}")
    took, again = seconds(lambda: lanescope.compare(paths, cache=True))
    print(f"compare_cache_s={took:.3f}")
    assert plain == first == again


if __name__ == "__main__":
    main()
