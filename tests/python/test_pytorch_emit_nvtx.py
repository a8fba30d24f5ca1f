"""lanescope-cli pytorch --view operators on Nsight Systems reports, whose operators are their NVTX
push/pop ranges (PyTorch's emit_nvtx records one per operator), against an independent computation
over the report's SQLite export (docs/analyses.md, "PyTorch operators").

From the export: NVTX_EVENTS of eventType 59 (push/pop) per thread, nested by time containment; a
range's CPU self is its duration minus its direct children's; its device self the GPU time
(CUPTI kernels, memcpys, memsets) of the CUDA runtime calls on its thread that it is the innermost
range to contain, matched by correlation id within the process; device total adds its descendants'.
A name is the range's text up to emit_nvtx's ", seq = ", ", op_id = " or ", sizes = "."""
import collections
import csv
import io
import os
import sqlite3
import subprocess
from bisect import bisect_right
from pathlib import Path

import pytest

CLI = os.environ.get("LANESCOPE_CLI")
DATA = Path(os.environ.get("LANESCOPE_TEST_DATA", Path(__file__).resolve().parents[1] / "data"))
SHARED = Path(os.environ.get("LANESCOPE_SHARED_CORPUS", Path(__file__).resolve().parents[3] / "shared" / "corpus"))
PUBLIC = "public/openhackathons-org__AI-Profiler__baseline_nvtx"
# (report read by Lanescope, its export): our own capture, and a public emit_nvtx capture (2022.2).
REPORTS = [
    (DATA / "nsys-2025.3" / "train_1gpu.nsys-rep", DATA / "nsys-2025.3" / "train_1gpu.sqlite"),
    (DATA / "nsys-2025.3" / "train_1gpu.sqlite", DATA / "nsys-2025.3" / "train_1gpu.sqlite"),
    (SHARED / (PUBLIC + ".nsys-rep"), SHARED / (PUBLIC + ".sqlite")),
]
PROCESS_MASK = ~((1 << 24) - 1)


def operator_name(text):
    for field in (", seq = ", ", op_id = ", ", sizes = "):
        text = text.split(field, 1)[0]
    return text


def expected_operators(export):
    db = sqlite3.connect(f"file:{export}?mode=ro", uri=True)
    ranges = collections.defaultdict(list)  # globalTid -> [start, end, name]
    for start, end, text, tid in db.execute(
        "SELECT n.start, n.end, coalesce(n.text, s.value), n.globalTid FROM NVTX_EVENTS n "
        "LEFT JOIN StringIds s ON s.id = n.textId WHERE n.eventType = 59 AND n.end IS NOT NULL"
    ):
        ranges[tid].append([start, end, operator_name(text or "")])
    gpu_ns = collections.Counter()  # (globalPid, correlation) -> GPU ns
    for table in ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"):
        for start, end, correlation, pid in db.execute(f"SELECT start, end, correlationId, globalPid FROM {table}"):
            gpu_ns[(pid, correlation)] += end - start
    calls = collections.defaultdict(list)
    for start, end, correlation, tid in db.execute(
        "SELECT start, end, correlationId, globalTid FROM CUPTI_ACTIVITY_KIND_RUNTIME"
    ):
        calls[tid].append((start, end, gpu_ns[(tid & PROCESS_MASK, correlation)]))
    rows = collections.defaultdict(lambda: [0, 0, 0, 0, 0])
    for tid, ops in ranges.items():
        ops.sort(key=lambda o: (o[0], -(o[1] - o[0])))
        parent, stack = [], []
        for i, (start, end, _) in enumerate(ops):
            while stack and ops[stack[-1]][1] <= start:
                stack.pop()
            parent.append(stack[-1] if stack else None)
            stack.append(i)
        starts = [o[0] for o in ops]
        device_self = [0] * len(ops)
        for start, end, gpu in calls.get(tid, []):
            i = bisect_right(starts, start) - 1
            while i is not None and i >= 0 and ops[i][1] < end:
                i = parent[i]
            if i is not None and i >= 0:
                device_self[i] += gpu
        device_total = list(device_self)
        children_cpu = [0] * len(ops)
        for i in reversed(range(len(ops))):
            if parent[i] is not None:
                children_cpu[parent[i]] += ops[i][1] - ops[i][0]
                device_total[parent[i]] += device_total[i]
        for i, (start, end, name) in enumerate(ops):
            row = rows[name]
            row[0] += 1
            row[1] += end - start
            row[2] += end - start - children_cpu[i]
            row[3] += device_total[i]
            row[4] += device_self[i]
    return dict(rows)


@pytest.mark.parametrize("report,export", REPORTS, ids=lambda p: p.name)
def test_nvtx_ranges_as_operators_match_the_export(report, export):
    if not CLI:
        pytest.skip("LANESCOPE_CLI is not set (the ctest python_tests sets it)")
    if not report.exists() or not export.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{report} or {export} is absent")
        pytest.skip(f"{report} or {export} (the shared corpus) is absent")
    result = subprocess.run(
        [CLI, "pytorch", str(report), "--view", "operators", "--format", "csv"], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert "NVTX ranges are shown as the operators" in result.stderr
    columns = ["Calls", "CPU Total (ns)", "CPU Self (ns)", "Device Total (ns)", "Device Self (ns)"]
    got = {row["Name"]: [int(row[c]) for c in columns] for row in csv.DictReader(io.StringIO(result.stdout))}
    expected = expected_operators(export)
    assert len(expected) >= 10
    assert got == expected
    assert any(v[4] > 0 for v in got.values()), "some range launched GPU work itself"
