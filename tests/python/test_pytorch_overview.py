"""lanescope-cli pytorch --view overview against an independent computation over the raw
Kineto JSON (docs/analyses.md, "PyTorch overview").

Times: Kineto writes microseconds with fractions. Both sides turn ts and dur separately into
integer nanoseconds by rounding the decimal text half up (Decimal, ROUND_HALF_UP here; the
importer reads the digits), and an end is ts + dur in those nanoseconds. Times in the table are
on the report's timeline: ns since the first time the importer keeps (the earliest start of an
event it files in a lane, instant or counter sample).

The split is recomputed here by a sweep over the boundaries of every interval clipped to the
step, each elementary piece given to the highest-priority category active over it (the CLI
unites each category's intervals and subtracts cumulative unions instead)."""
import bisect
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
DATA = Path(os.environ.get("LANESCOPE_TEST_DATA", Path(__file__).resolve().parents[1] / "data"))
SHARED = Path(os.environ.get("LANESCOPE_SHARED_CORPUS", Path(__file__).resolve().parents[3] / "shared" / "corpus"))
HTA = SHARED / "public" / "facebookresearch__HolisticTraceAnalysis__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz"
TRACES = [
    DATA / "kineto" / "pytorch_profiled_gpu.pt.trace.json.gz",
    DATA / "kineto" / "train_1gpu_rank0.pt.trace.json",
    DATA / "kineto" / "ddp_rank0.pt.trace.json.gz",
    DATA / "kineto" / "pytorch_profiled_cpu.pt.trace.json",
    HTA,
]

OPERATOR_CATS = {"cpu_op", "Operator", "cpu_instant_event"}  # the "CPU ops" lane
RANGE_CATS = OPERATOR_CATS | {"user_annotation", "python_function"}  # every Nvtx lane
CALL_CATS = {"cuda_runtime", "cuda_driver", "Runtime", "Driver"}
KERNEL_CATS = {"kernel", "Kernel"}
MEMCPY_CATS = {"gpu_memcpy", "Memcpy"}
MEMSET_CATS = {"gpu_memset", "Memset"}
LANE_CATS = RANGE_CATS | CALL_CATS | KERNEL_CATS | MEMCPY_CATS | MEMSET_CATS | {"gpu_user_annotation"}
CATEGORIES = ["Kernel", "Memcpy", "Memset", "Runtime", "DataLoader", "CPU Exec"]  # by priority; Other the rest


def gpu_category(cat, name):
    if cat in KERNEL_CATS:  # old traces filed copies and fills under Kernel
        return "Memcpy" if name.startswith("Memcpy") else "Memset" if name.startswith("Memset") else "Kernel"
    return "Memcpy" if cat in MEMCPY_CATS else "Memset" if cat in MEMSET_CATS else None


def step_spans(cpu_steps, calls, gpu_by_correlation):
    """The steps' spans: each from its CPU range's start (or the previous span's end, if later)
    to the CPU range's end or the end of the last GPU work launched by a runtime call lying
    inside the CPU range, whichever is later."""
    starts = [s[0] for s in cpu_steps]
    gpu_end = [None] * len(cpu_steps)
    for start, end, correlation in calls:
        k = bisect.bisect_right(starts, start) - 1
        if k < 0 or end > cpu_steps[k][1] or not correlation:
            continue
        for gpu_end_ns in gpu_by_correlation.get(correlation, []):
            gpu_end[k] = gpu_end_ns if gpu_end[k] is None else max(gpu_end[k], gpu_end_ns)
    spans, previous_end = [], cpu_steps[0][0]
    for (start, end, name), launched_end in zip(cpu_steps, gpu_end):
        span_start = max(previous_end, start)
        span_end = max(end, span_start, launched_end if launched_end is not None else end)
        spans.append((name, span_start, span_end))
        previous_end = span_end
    return spans


def split(step_start, step_end, intervals):
    """ns per category (and Other) of [step_start, step_end), each instant to the first
    category (in CATEGORIES order) with an interval over it."""
    marks = []
    for category, start, end in intervals:
        start, end = max(start, step_start), min(end, step_end)
        if start < end:
            marks.append((start, 1, category))
            marks.append((end, -1, category))
    marks.sort(key=lambda m: m[0])
    active = collections.Counter()
    split_ns = collections.Counter()
    at = step_start
    for time, delta, category in marks:
        if time > at:
            owner = next((c for c in CATEGORIES if active[c] > 0), "Other")
            split_ns[owner] += time - at
            at = time
        active[category] += delta
    split_ns["Other"] += step_end - at
    return split_ns


def expected_overview(events):
    """One dict per step, keyed as the CLI's columns (estimates None when not recorded)."""
    origin, last = None, None
    intervals, cpu_steps, calls, kernels = [], [], [], []
    gpu_by_correlation = collections.defaultdict(list)
    for e in events:
        ph, cat, name = e.get("ph"), e.get("cat"), e.get("name", "")
        if "ts" not in e:
            continue
        start = ns(e["ts"])
        if ph in ("i", "I", "R", "C"):  # instants and counter samples are kept too
            origin = start if origin is None else min(origin, start)
            last = start if last is None else max(last, start)
            continue
        if ph != "X" or cat not in LANE_CATS:
            continue
        end = start + max(ns(e.get("dur", 0)), 0)
        origin = start if origin is None else min(origin, start)
        last = end if last is None else max(last, end)
        args = e.get("args", {})
        if cat in RANGE_CATS:
            if name.startswith("ProfilerStep#"):
                cpu_steps.append((start, end, name))
            elif cat in OPERATOR_CATS:
                intervals.append(("CPU Exec", start, end))
            if name.startswith("enumerate(DataLoader)"):
                intervals.append(("DataLoader", start, end))
        elif cat in CALL_CATS:
            intervals.append(("Runtime", start, end))
            calls.append((start, end, int(args.get("correlation", 0))))
        elif gpu_category(cat, name):
            intervals.append((gpu_category(cat, name), start, end))
            if int(args.get("correlation", 0)):
                gpu_by_correlation[int(args["correlation"])].append(end)
            if gpu_category(cat, name) == "Kernel":
                kernels.append((start, end, args.get("blocks per SM"), args.get("est. achieved occupancy %")))
    cpu_steps = sorted(set(cpu_steps))  # a step recorded twice is one step
    calls.sort()
    if cpu_steps:
        spans = step_spans(cpu_steps, calls, gpu_by_correlation)
    else:
        spans = [("(whole trace)", origin, last)]
    rows = []
    for name, start, end in spans:
        duration = end - start
        split_ns = split(start, end, intervals)
        row = {"Step": name, "Start (ns)": start - origin, "Duration (ns)": duration}
        row.update({f"{c} (ns)": split_ns[c] for c in CATEGORIES + ["Other"]})
        row["GPU Utilization (%)"] = 100 * split_ns["Kernel"] / duration if duration else 0.0
        sm, sm_recorded, occupancy, occupancy_ns = 0.0, False, 0.0, 0
        for k_start, k_end, blocks_per_sm, occupancy_pct in kernels:
            inside = min(k_end, end) - max(k_start, start)
            if inside <= 0:
                continue
            if blocks_per_sm is not None:
                sm += min(float(blocks_per_sm), 1.0) * inside
                sm_recorded = True
            if occupancy_pct is not None:
                occupancy += float(occupancy_pct) * inside
                occupancy_ns += inside
        row["Est. SM Efficiency (%)"] = 100 * sm / duration if sm_recorded else None
        row["Est. Achieved Occupancy (%)"] = occupancy / occupancy_ns if occupancy_ns else None
        rows.append(row)
    return rows


def run_cli(*args):
    if not CLI:
        pytest.skip("LANESCOPE_CLI is not set (the ctest python_tests sets it)")
    return subprocess.run([CLI, *args], capture_output=True, text=True)


def parse_cell(text):
    if text == "":
        return None
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text


def assert_rows_match(got, expected):
    assert [r["Step"] for r in got] == [r["Step"] for r in expected]
    for g, e in zip(got, expected):
        assert g.keys() == e.keys()
        for column, value in e.items():
            if isinstance(value, float):  # two decimals, float32 kernel args in the model
                assert g[column] == pytest.approx(value, abs=0.006), (e["Step"], column)
            else:
                assert g[column] == value, (e["Step"], column)


@pytest.mark.parametrize("path", TRACES, ids=lambda p: p.name)
def test_overview_matches_the_raw_json(path):
    if not path.exists():
        pytest.skip(f"{path} is absent (the shared corpus is not beside this checkout)")
    expected = expected_overview(load_events(path))
    result = run_cli("pytorch", str(path), "--view", "overview", "--format", "csv")
    assert result.returncode == 0, result.stderr
    got = [{k: parse_cell(v) for k, v in row.items()} for row in csv.DictReader(io.StringIO(result.stdout))]
    assert_rows_match(got, expected)
    for row in got:
        parts = sum(row[f"{c} (ns)"] for c in CATEGORIES + ["Other"])
        assert parts == row["Duration (ns)"], "the categories sum to the step's duration"
    starts = [row["Start (ns)"] for row in got]
    ends = [row["Start (ns)"] + row["Duration (ns)"] for row in got]
    assert all(end <= next_start for end, next_start in zip(ends, starts[1:])), "steps do not overlap"
    durations = sorted(row["Duration (ns)"] for row in got)
    summary = f"{len(got)} steps: min {durations[0]} ns, median "
    assert summary in result.stderr, "the summary goes to stderr beside the csv"


def test_steps_and_gpu_work_are_found():
    gpu = expected_overview(load_events(TRACES[0]))
    assert [r["Step"] for r in gpu] == [f"ProfilerStep#{n}" for n in range(2, 8)]
    assert all(r["Kernel (ns)"] > 0 and r["Memcpy (ns)"] > 0 and r["DataLoader (ns)"] > 0 for r in gpu)
    assert all(r["Est. SM Efficiency (%)"] is not None for r in gpu)
    train = expected_overview(load_events(TRACES[1]))
    assert [r["Step"] for r in train] == [f"ProfilerStep#{n}" for n in range(10)]


def test_json_has_the_summary_and_the_slowest_step():
    result = run_cli("pytorch", str(TRACES[1]), "--view", "overview", "--format", "json")
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["report"] == "pytorch_overview"
    durations = [row["Duration (ns)"] for row in doc["rows"]]
    assert len(durations) == 10
    ordered = sorted(durations)
    assert doc["summary"] == {
        "Steps": 10,
        "Min Step (ns)": ordered[0],
        "Median Step (ns)": (ordered[4] + ordered[5]) // 2,
        "Max Step (ns)": ordered[-1],
        "Slowest Step": doc["rows"][durations.index(ordered[-1])]["Step"],
    }
    table = run_cli("pytorch", str(TRACES[1]), "--view", "overview")
    assert "pytorch_overview_summary" in table.stdout and doc["summary"]["Slowest Step"] in table.stdout


def test_cpu_only_trace_is_one_step_without_gpu_work():
    result = run_cli("pytorch", str(TRACES[3]), "--view", "overview", "--format", "json")
    assert result.returncode == 0, result.stderr
    assert "no ProfilerStep#N ranges" in result.stderr and "no GPU work" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, "one line says both"
    (row,) = json.loads(result.stdout)["rows"]
    assert row["Step"] == "(whole trace)" and row["Start (ns)"] == 0
    assert row["Kernel (ns)"] == 0 and row["CPU Exec (ns)"] > 0 and row["DataLoader (ns)"] > 0
    assert row["Est. SM Efficiency (%)"] is None and row["Est. Achieved Occupancy (%)"] is None


def made_up_trace():
    """Two steps, times in µs: step 1 recorded twice (user_annotation and cpu_op), step 2 as an
    old trace's cpu_op; a kernel launched in step 1 running past it to 150, one of step 2 to 260;
    an old trace's copy filed as Kernel; DataLoader as user_annotation and cpu_op; operators on
    two threads; the GPU's copy of step 1, which must not count."""

    def x(cat, name, ts, dur, tid=1, pid=1, **args):
        return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid, "ts": ts, "dur": dur, "args": args}

    gpu = {"pid": 0, "tid": 7}
    loader = "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"
    return [
        x("user_annotation", "ProfilerStep#1", 0, 100),
        x("cpu_op", "ProfilerStep#1", 0, 100),
        x("cpu_op", "ProfilerStep#2", 100, 100),
        x("user_annotation", loader, 5, 25),
        x("cpu_op", loader, 105, 15),
        x("cpu_op", "aten::mm", 40, 20),
        x("cpu_op", "autograd::engine::evaluate_function: MmBackward0", 50, 40, tid=2),
        x("cuda_runtime", "cudaLaunchKernel", 45, 5, correlation=1),
        x("cuda_runtime", "cudaMemcpyAsync", 52, 1, correlation=3),
        x("cuda_runtime", "cudaLaunchKernel", 160, 5, correlation=2),
        x("kernel", "gemm", 55, 95, **gpu, correlation=1, **{"blocks per SM": 0.5, "est. achieved occupancy %": 40}),
        x("Kernel", "Memcpy HtoD (Pageable -> Device)", 58, 12, **gpu, correlation=3),
        x("gpu_memset", "Memset (Device)", 140, 5, **gpu),
        x("kernel", "reduce", 170, 90, **gpu, correlation=2, **{"blocks per SM": 2}),
        x("gpu_user_annotation", "ProfilerStep#1", 55, 95, **gpu),
        {"ph": "i", "cat": "cpu_instant_event", "name": "Record Window End", "pid": 1, "tid": 1, "ts": 300, "s": "t"},
    ]


def test_a_made_up_trace_by_hand(tmp_path):
    events = made_up_trace()
    path = tmp_path / "made_up.pt.trace.json"
    path.write_text(json.dumps({"schemaVersion": 1, "traceEvents": events}))
    result = run_cli("pytorch", str(path), "--view", "overview", "--format", "csv")
    assert result.returncode == 0, result.stderr
    got = [{k: parse_cell(v) for k, v in row.items()} for row in csv.DictReader(io.StringIO(result.stdout))]
    assert_rows_match(got, expected_overview(load_events(path)))
    us = 1000
    # Step 1 runs to its kernel's end; step 2 starts there. Step 1: the kernel 55-150 hides the
    # copy and the memset; runtime 45-50 and 52-53; DataLoader 5-30; operators 40-90 outside
    # those: 40-45, 50-52, 53-55; Other 0-5 and 30-40. Step 2: runtime 160-165, kernel 170-260,
    # its cpu_op ProfilerStep#2 and the DataLoader before it count nothing.
    assert [(r["Step"], r["Start (ns)"], r["Duration (ns)"]) for r in got] == [
        ("ProfilerStep#1", 0, 150 * us),
        ("ProfilerStep#2", 150 * us, 110 * us),
    ]
    split_columns = [f"{c} (ns)" for c in CATEGORIES + ["Other"]]
    assert [r[c] for c in split_columns for r in got[:1]] == [95 * us, 0, 0, 6 * us, 25 * us, 9 * us, 15 * us]
    assert [r[c] for c in split_columns for r in got[1:]] == [90 * us, 0, 0, 5 * us, 0, 0, 15 * us]
    assert got[0]["GPU Utilization (%)"] == pytest.approx(100 * 95 / 150, abs=0.006)
    assert got[0]["Est. SM Efficiency (%)"] == pytest.approx(100 * 0.5 * 95 / 150, abs=0.006)
    assert got[0]["Est. Achieved Occupancy (%)"] == 40
    assert got[1]["Est. SM Efficiency (%)"] == pytest.approx(100 * 90 / 110, abs=0.006)
    assert got[1]["Est. Achieved Occupancy (%)"] is None
