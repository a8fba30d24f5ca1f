#!/usr/bin/env python3
"""Writes a copy of an Nsight Systems SQLite export whose GPU_METRICS table is repeated, each copy
shifted past the one before in time, until it holds at least --samples rows: a report heavy in
GPU metric samples, as a long run with GPU metrics on at a high rate records, for
lanescope-bench (docs/performance.md). The input is never changed.

    python3 tests/bench/workloads/grow_gpu_metrics.py tests/data/nsys-2025.3/train_metrics.sqlite \\
        /tmp/metrics_big.sqlite --samples 20000000
"""
import argparse
import shutil
import sqlite3
import sys


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("export")
    parser.add_argument("out")
    parser.add_argument("--samples", type=int, default=20_000_000)
    args = parser.parse_args()
    shutil.copyfile(args.export, args.out)
    db = sqlite3.connect(args.out)
    columns = [row[1] for row in db.execute("PRAGMA table_info(GPU_METRICS)")]
    if "timestamp" not in columns:
        print(f"{args.export}: no GPU_METRICS table with a timestamp column", file=sys.stderr)
        return 1
    count, first, last = db.execute("SELECT count(*), min(timestamp), max(timestamp) FROM GPU_METRICS").fetchone()
    if count == 0:
        print(f"{args.export}: GPU_METRICS is empty", file=sys.stderr)
        return 1
    span = last - first + 1000
    copies = 1
    while count < args.samples:  # doubles the table: copies [0, copies) shifted by copies spans
        shifted = ", ".join(f"timestamp + {span * copies}" if c == "timestamp" else c for c in columns)
        db.execute(f"INSERT INTO GPU_METRICS SELECT {shifted} FROM GPU_METRICS")
        count *= 2
        copies *= 2
    db.commit()
    print(f"{args.out}: {count} GPU metric samples")
    return 0


if __name__ == "__main__":
    sys.exit(main())
