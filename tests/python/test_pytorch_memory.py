"""lanescope-cli pytorch --view memory against an independent computation over the raw Kineto
JSON (docs/analyses.md, "PyTorch memory").

The memory events are the "[memory]" instants a trace made with profile_memory=True holds.
Times: microsecond text to integer nanoseconds rounding half up (as in
test_pytorch_operators.py); the CLI's times are on the report's timeline, which starts at the
trace's first event, so the test finds that offset once and checks every time against it."""
import collections
import csv
import io
import json
import os
import subprocess
from pathlib import Path

import pytest

from test_pytorch_operators import load_events, ns

CLI = os.environ.get("LANESCOPE_CLI")
DATA = Path(os.environ.get("LANESCOPE_TEST_DATA", Path(__file__).resolve().parents[1] / "data")) / "kineto"
WITH_MEMORY = "pytorch_profiled_gpu.pt.trace.json.gz"
WITHOUT_MEMORY = ["pytorch_profiled_cpu.pt.trace.json", "train_1gpu_rank0.pt.trace.json"]


# The categories of complete events the importer draws on the timeline (its lanes); others (the
# "Trace" span, profiler overhead) do not move the timeline's start.
TIMELINE_CATS = {"cpu_op", "Operator", "cpu_instant_event", "user_annotation", "python_function", "cuda_runtime",
                 "cuda_driver", "Runtime", "Driver", "kernel", "Kernel", "gpu_memcpy", "Memcpy", "gpu_memset",
                 "Memset", "gpu_user_annotation"}


def timeline_origin(events):
    """The ns of the trace's first event on the timeline: its instants, counters and events of
    the categories above."""
    return min(ns(e["ts"]) for e in events if "ts" in e and (
        e.get("ph") in ("i", "I", "R", "C") or (e.get("ph") in ("X", "B") and e.get("cat") in TIMELINE_CATS)))


def device_label(args):
    kind, device = int(args["Device Type"]), int(args["Device Id"])
    return {0: "CPU", 1: f"CUDA {device}"}.get(kind, f"device type {kind} {device}")


def memory_events(events):
    """The [memory] instants in time order (ties in file order), as dicts with ns times."""
    found = []
    for e in events:
        if e.get("ph") in ("i", "I") and e.get("name") == "[memory]" and "Bytes" in e.get("args", {}):
            a = e["args"]
            found.append({"time": ns(e["ts"]), "pid": e["pid"], "tid": e["tid"], "device": device_label(a),
                          "address": int(a["Addr"]), "bytes": int(a["Bytes"]),
                          "allocated": int(a["Total Allocated"]), "reserved": int(a["Total Reserved"])})
    found.sort(key=lambda m: m["time"])  # stable: ties keep file order
    return found


def expected_devices(memory):
    """Per device: peak allocated and its first time, peak reserved and its first time, counts."""
    devices = {}
    for m in memory:
        d = devices.setdefault(m["device"], {"peak_allocated": -1, "peak_reserved": -1, "allocations": 0, "frees": 0})
        if m["allocated"] > d["peak_allocated"]:
            d["peak_allocated"], d["peak_allocated_at"] = m["allocated"], m["time"]
        if m["reserved"] > d["peak_reserved"]:
            d["peak_reserved"], d["peak_reserved_at"] = m["reserved"], m["time"]
        d["allocations" if m["bytes"] > 0 else "frees"] += m["bytes"] != 0
    return devices


def expected_allocations(memory, events):
    """Per allocation in time order: (device, address, bytes, time, freed time or None, operator).
    A free closes the latest earlier allocation of its (device, address) still open; the
    operator is the shortest cpu_op of the allocation's pid/tid that contains its time."""
    ops = collections.defaultdict(list)  # (pid, tid) -> [(start, end, name)]
    for e in events:
        if e.get("ph") == "X" and e.get("cat") in ("cpu_op", "Operator") and "ts" in e:
            start = ns(e["ts"])
            ops[(e["pid"], e["tid"])].append((start, start + max(ns(e.get("dur", 0)), 0), e["name"]))
    rows, open_blocks = [], collections.defaultdict(list)
    for m in memory:
        key = (m["device"], m["address"])
        if m["bytes"] > 0:
            containing = [o for o in ops[(m["pid"], m["tid"])] if o[0] <= m["time"] <= o[1]]
            shortest = min((o[1] - o[0] for o in containing), default=None)
            names = {o[2] for o in containing if o[1] - o[0] == shortest}
            open_blocks[key].append(len(rows))
            rows.append([m["device"], m["address"], m["bytes"], m["time"], None, names])
        elif m["bytes"] < 0 and open_blocks[key]:
            rows[open_blocks[key].pop()][4] = m["time"]
    return rows


def run_cli(*args):
    if not CLI:
        pytest.skip("LANESCOPE_CLI is not set (the ctest python_tests sets it)")
    return subprocess.run([CLI, *args], capture_output=True, text=True)


@pytest.fixture(scope="module")
def gpu_trace():
    path = DATA / WITH_MEMORY
    events = load_events(path)
    memory = memory_events(events)
    assert len(memory) > 500, "the trace was recorded with profile_memory=True"
    result = run_cli("pytorch", str(path), "--view", "memory", "--format", "json")
    assert result.returncode == 0, result.stderr
    return events, memory, json.loads(result.stdout)


def test_the_offset_is_the_first_event_of_the_trace(gpu_trace):
    events, memory, got = gpu_trace
    allocations = [m for m in memory if m["bytes"] > 0]
    assert allocations[0]["time"] - got["allocations"][0]["Allocated At (ns)"] == timeline_origin(events)


def test_devices_match_the_raw_json(gpu_trace):
    events, memory, got = gpu_trace
    offset = timeline_origin(events)
    expected = expected_devices(memory)
    assert set(expected) == {"CPU", "CUDA 0"}
    rows = {row["Device"]: row for row in got["devices"]}
    assert [row["Device"] for row in got["devices"]] == ["CPU", "CUDA 0"], "by device type, then id"
    for device, d in expected.items():
        row = rows[device]
        assert row["Peak Allocated (B)"] == d["peak_allocated"]
        assert row["Peak Allocated At (ns)"] == d["peak_allocated_at"] - offset
        assert row["Peak Reserved (B)"] == d["peak_reserved"]
        assert row["Peak Reserved At (ns)"] == d["peak_reserved_at"] - offset
        assert row["Allocations"] == d["allocations"]
        assert row["Frees"] == d["frees"]
    assert rows["CUDA 0"]["Peak Allocated (B)"] > 0 and rows["CUDA 0"]["Peak Reserved (B)"] >= rows["CUDA 0"][
        "Peak Allocated (B)"]


def test_allocations_match_the_raw_json(gpu_trace):
    events, memory, got = gpu_trace
    offset = timeline_origin(events)
    expected = expected_allocations(memory, events)
    assert len(got["allocations"]) == len(expected)
    freed = with_operator = 0
    for row, (device, address, size, time, freed_at, operators) in zip(got["allocations"], expected):
        assert row["Device"] == device
        assert row["Address"] == hex(address)
        assert row["Bytes"] == size
        assert row["Allocated At (ns)"] == time - offset
        if freed_at is None:
            assert row["Freed At (ns)"] is None and row["Lifetime (ns)"] is None
        else:
            freed += 1
            assert row["Freed At (ns)"] == freed_at - offset
            assert row["Lifetime (ns)"] == freed_at - time
        if operators:
            with_operator += 1
            assert row["Operator"] in operators
        else:
            assert row["Operator"] is None
    assert freed > 0 and with_operator > 0, "the trace frees blocks and allocates inside operators"


def test_csv_holds_the_allocations_and_stderr_the_devices(gpu_trace):
    _, memory, got = gpu_trace
    result = run_cli("pytorch", str(DATA / WITH_MEMORY), "--view", "memory", "--format", "csv")
    assert result.returncode == 0
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(rows) == sum(1 for m in memory if m["bytes"] > 0)
    assert list(rows[0]) == ["Device", "Address", "Bytes", "Allocated At (ns)", "Freed At (ns)", "Lifetime (ns)",
                             "Operator"]
    for row, json_row in zip(rows, got["allocations"]):
        assert row["Freed At (ns)"] == ("" if json_row["Freed At (ns)"] is None else str(json_row["Freed At (ns)"]))
    cuda = next(d for d in got["devices"] if d["Device"] == "CUDA 0")
    assert f"CUDA 0: peak allocated {cuda['Peak Allocated (B)']} B at " in result.stderr
    table = run_cli("pytorch", str(DATA / WITH_MEMORY), "--view", "memory")
    assert table.returncode == 0
    assert table.stdout.startswith("pytorch_memory_devices\n")
    assert "\npytorch_memory_allocations\n" in table.stdout


@pytest.mark.parametrize("trace", WITHOUT_MEMORY)
def test_a_trace_without_memory_events_says_so(trace):
    path = DATA / trace
    assert not memory_events(load_events(path))
    for fmt in ("csv", "json", "table"):
        result = run_cli("pytorch", str(path), "--view", "memory", "--format", fmt)
        assert result.returncode == 0
        assert result.stdout == ""
        assert result.stderr.count("\n") == 1 and "no memory events" in result.stderr


def test_pairing_and_operators_on_a_small_trace(tmp_path):
    """Frees close the latest open allocation of their (device, address); a free without one
    closes nothing but counts; the operator is the innermost containing the allocation."""
    def memory(ts, size, addr, device=0, tid=2):
        kind = 1 if device >= 0 else 0
        return {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": tid,
                "ts": ts, "args": {"Total Reserved": 4096, "Total Allocated": 0, "Bytes": size, "Device Id": device,
                                   "Device Type": kind, "Addr": addr}}
    events = [
        {"ph": "X", "cat": "cpu_op", "name": "outer", "pid": 1, "tid": 2, "ts": 10, "dur": 20},
        {"ph": "X", "cat": "cpu_op", "name": "inner", "pid": 1, "tid": 2, "ts": 12, "dur": 2},
        memory(13, 512, 4096),        # in inner
        memory(20, 256, 4096),        # the same block again before its free: in outer
        memory(21, 128, 4096, 1),     # the same address on another device
        memory(22, -256, 4096),       # closes the allocation at 20
        memory(25, -512, 4096),       # then the one at 13
        memory(26, -64, 8192),        # allocated before the trace: closes nothing
        memory(40, 64, 8192, -1),     # a CPU allocation outside every operator
        memory(41, 32, 16384, 0, 3),  # on a thread without operators, never freed
    ]
    path = tmp_path / "memory.json"
    path.write_text(json.dumps({"traceEvents": events}))
    result = run_cli("pytorch", str(path), "--view", "memory", "--format", "json")
    assert result.returncode == 0, result.stderr
    got = json.loads(result.stdout)
    rows = [(r["Device"], r["Address"], r["Bytes"], r["Allocated At (ns)"], r["Freed At (ns)"], r["Lifetime (ns)"],
             r["Operator"]) for r in got["allocations"]]
    assert rows == [
        ("CUDA 0", "0x1000", 512, 3000, 15000, 12000, "inner"),
        ("CUDA 0", "0x1000", 256, 10000, 12000, 2000, "outer"),
        ("CUDA 1", "0x1000", 128, 11000, None, None, "outer"),
        ("CPU", "0x2000", 64, 30000, None, None, None),
        ("CUDA 0", "0x4000", 32, 31000, None, None, None),
    ]
    devices = {d["Device"]: (d["Allocations"], d["Frees"]) for d in got["devices"]}
    assert devices == {"CPU": (1, 0), "CUDA 0": (3, 3), "CUDA 1": (1, 0)}
