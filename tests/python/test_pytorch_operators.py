"""lanescope-cli pytorch --view operators against an independent computation over the raw
Kineto JSON (docs/analyses.md, "PyTorch operators").

Times: Kineto writes microseconds with fractions. Both sides turn ts and dur separately into
integer nanoseconds by rounding the decimal text half up (Decimal, ROUND_HALF_UP here; the
importer reads the digits), and an end is ts + dur in those nanoseconds."""
import collections
import csv
import decimal
import gzip
import io
import json
import os
import subprocess
from bisect import bisect_right
from pathlib import Path

import pytest

CLI = os.environ.get("LANESCOPE_CLI")
DATA = Path(os.environ.get("LANESCOPE_TEST_DATA", Path(__file__).resolve().parents[1] / "data"))
TRACES = ["train_1gpu_rank0.pt.trace.json", "ddp_rank0.pt.trace.json.gz", "ddp_rank1.pt.trace.json.gz"]
OPERATOR_CATS = {"cpu_op", "Operator"}
CALL_CATS = {"cuda_runtime", "cuda_driver", "Runtime", "Driver"}
GPU_CATS = {"kernel", "Kernel", "gpu_memcpy", "Memcpy", "gpu_memset", "Memset"}


def ns(micros):
    return int((decimal.Decimal(micros) * 1000).quantize(decimal.Decimal(1), rounding=decimal.ROUND_HALF_UP))


def load_events(path):
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        doc = json.load(f, parse_float=decimal.Decimal)
    return doc["traceEvents"] if isinstance(doc, dict) else doc


def operator_instances(events):
    """Per thread (pid, tid): its operators, each [start, end, name, cpu self, device total,
    device self] in ns, sorted by start, longer first."""
    ops = collections.defaultdict(list)  # (pid, tid) -> [start, end, name], file order
    calls = collections.defaultdict(list)  # (pid, tid) -> [start, end, correlation]
    gpu_ns = collections.Counter()  # correlation -> GPU ns launched
    for e in events:
        if e.get("ph") != "X" or "ts" not in e:
            continue
        start = ns(e["ts"])
        end = start + max(ns(e.get("dur", 0)), 0)
        cat = e.get("cat")
        if cat in OPERATOR_CATS:
            ops[(e["pid"], e["tid"])].append([start, end, e["name"]])
        elif cat in CALL_CATS:
            calls[(e["pid"], e["tid"])].append([start, end, int(e.get("args", {}).get("correlation", 0))])
        elif cat in GPU_CATS:
            correlation = int(e.get("args", {}).get("correlation", 0))
            if correlation:
                gpu_ns[correlation] += end - start
    instances = {}
    for thread, thread_ops in ops.items():
        # Nesting by time containment: by start, longer first; an operator's parent is the
        # innermost one still open (ending after it starts).
        thread_ops.sort(key=lambda o: (o[0], -(o[1] - o[0])))
        parent, stack = [], []
        for i, (start, end, _) in enumerate(thread_ops):
            while stack and thread_ops[stack[-1]][1] <= start:
                stack.pop()
            parent.append(stack[-1] if stack else None)
            stack.append(i)
        children_cpu = [0] * len(thread_ops)
        device_self = [0] * len(thread_ops)
        starts = [o[0] for o in thread_ops]
        for start, end, correlation in calls.get(thread, []):
            # The innermost operator containing the call: up from the last one started before it.
            i = bisect_right(starts, start) - 1
            while i is not None and i >= 0 and thread_ops[i][1] < end:
                i = parent[i]
            if i is not None and i >= 0 and correlation:
                device_self[i] += gpu_ns[correlation]
        device_total = list(device_self)
        for i in reversed(range(len(thread_ops))):
            if parent[i] is not None:
                children_cpu[parent[i]] += thread_ops[i][1] - thread_ops[i][0]
                device_total[parent[i]] += device_total[i]
        instances[thread] = [
            [start, end, name, end - start - children_cpu[i], device_total[i], device_self[i]]
            for i, (start, end, name) in enumerate(thread_ops)
        ]
    return instances


def add_instance(row, instance):
    """Adds one operator instance of operator_instances to a row [calls, cpu total, cpu self,
    device total, device self]."""
    start, end, _, cpu_self, device_total, device_self = instance
    row[0] += 1
    row[1] += end - start
    row[2] += cpu_self
    row[3] += device_total
    row[4] += device_self


def expected_operators(events):
    """Per operator name: [calls, cpu total, cpu self, device total, device self] in ns."""
    rows = collections.defaultdict(lambda: [0, 0, 0, 0, 0])
    for thread_ops in operator_instances(events).values():
        for instance in thread_ops:
            add_instance(rows[instance[2]], instance)
    return rows


def run_cli(*args):
    if not CLI:
        pytest.skip("LANESCOPE_CLI is not set (the ctest python_tests sets it)")
    return subprocess.run([CLI, *args], capture_output=True, text=True)


@pytest.mark.parametrize("trace", TRACES)
def test_operators_match_the_raw_json(trace):
    path = DATA / "kineto" / trace
    expected = expected_operators(load_events(path))
    assert expected, "the corpus trace has operators"
    result = run_cli("pytorch", str(path), "--view", "operators", "--format", "csv")
    assert result.returncode == 0, result.stderr
    table = list(csv.DictReader(io.StringIO(result.stdout)))
    columns = ["Calls", "CPU Total (ns)", "CPU Self (ns)", "Device Total (ns)", "Device Self (ns)"]
    got = {row["Name"]: [int(row[c]) for c in columns] for row in table}
    assert got == dict(expected)
    assert any(v[3] > 0 for v in got.values()), "some operator launched GPU work"
    order = [(-got[row["Name"]][1], row["Name"]) for row in table]
    assert order == sorted(order), "sorted by CPU Total descending, then by name"
