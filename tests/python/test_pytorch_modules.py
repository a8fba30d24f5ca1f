"""lanescope-cli pytorch --view modules against an independent computation over the raw Kineto
JSON (docs/analyses.md, "PyTorch modules"): the module tree is rebuilt from the python_function
events' "Python id" / "Python parent id" links (the CLI nests by time), and a module call's
device time from the CUDA API calls its [start, end] contains. Times in ns as in
test_pytorch_operators.py."""
import collections
import csv
import io
import json

import pytest

from test_pytorch_operators import CALL_CATS, DATA, GPU_CATS, load_events, ns, run_cli

PROFILED = DATA / "kineto" / "pytorch_profiled_gpu.pt.trace.json.gz"
WITHOUT_MODULES = ["train_1gpu_rank0.pt.trace.json", "pytorch_profiled_cpu.pt.trace.json"]
PREFIX = "nn.Module: "
COLUMNS = ["Depth", "Calls", "Host Total (ns)", "Host Self (ns)", "Device Total (ns)", "Device Self (ns)"]


def expected_modules(events):
    """The rows [path, depth, calls, host total, host self, device total, device self] in tree
    order: depth first, siblings by their first call's start."""
    frames = {}  # (pid, Python id) -> the python_function event
    calls = collections.defaultdict(list)  # (pid, tid) -> [start, end, correlation]
    gpu_ns = collections.Counter()  # correlation -> GPU ns launched
    for e in events:
        if e.get("ph") != "X":
            continue
        start = ns(e["ts"])
        end = start + ns(e.get("dur", 0))
        if e.get("cat") == "python_function":
            frames[(e["pid"], e["args"]["Python id"])] = e
        elif e.get("cat") in CALL_CATS:
            calls[(e["pid"], e["tid"])].append((start, end, int(e["args"].get("correlation", 0))))
        elif e.get("cat") in GPU_CATS and e.get("args", {}).get("correlation"):
            gpu_ns[int(e["args"]["correlation"])] += end - start

    def enclosing_module(pid, frame):
        """The nearest nn.Module call above `frame` through its parent links, or None."""
        parent = frame["args"]["Python parent id"]
        while parent is not None:
            frame = frames[(pid, parent)]
            if frame["name"].startswith(PREFIX):
                return frame
            parent = frame["args"]["Python parent id"]
        return None

    def path_of(pid, module):
        names = []
        while module is not None:
            names.append(module["name"][len(PREFIX):])
            module = enclosing_module(pid, module)
        return "/".join(reversed(names))

    modules = [(pid, f) for (pid, _), f in frames.items() if f["name"].startswith(PREFIX)]
    device = {}  # id(module event) -> its device total: GPU ns of the calls it contains
    for pid, m in modules:
        start = ns(m["ts"])
        end = start + ns(m["dur"])
        device[id(m)] = sum(gpu_ns[c] for s, e, c in calls[(pid, m["tid"])] if start <= s and e <= end)
    rows = {}  # path -> [depth, calls, host total, host self, device total, device self, first start]
    children = collections.defaultdict(set)  # path -> child paths
    for pid, m in modules:
        path = path_of(pid, m)
        parent = enclosing_module(pid, m)
        duration = ns(m["dur"])
        row = rows.setdefault(path, [path.count("/"), 0, 0, 0, 0, 0, ns(m["ts"])])
        row[1] += 1
        row[2] += duration
        row[3] += duration
        row[4] += device[id(m)]
        row[5] += device[id(m)]
        row[6] = min(row[6], ns(m["ts"]))
        if parent is not None:
            parent_row = rows.setdefault(path_of(pid, parent), [0, 0, 0, 0, 0, 0, ns(parent["ts"])])
            parent_row[3] -= duration
            parent_row[5] -= device[id(m)]
            children[path_of(pid, parent)].add(path)
    ordered = []
    roots = sorted((p for p in rows if "/" not in p), key=lambda p: rows[p][6])
    stack = list(reversed(roots))
    while stack:
        path = stack.pop()
        ordered.append([path, *rows[path][:6]])
        stack.extend(sorted(children[path], key=lambda p: rows[p][6], reverse=True))
    return ordered


def test_modules_match_the_raw_json():
    expected = expected_modules(load_events(PROFILED))
    result = run_cli("pytorch", str(PROFILED), "--view", "modules", "--format", "csv")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    got = [[row["Module"], *(int(row[c]) for c in COLUMNS)] for row in csv.DictReader(io.StringIO(result.stdout))]
    assert got == expected
    paths = [row[0] for row in got]
    # The workload's Net: Sequential(Block(Conv2d, BatchNorm2d, ReLU), MaxPool2d, Block, MaxPool2d), Linear.
    assert paths[:4] == ["Net_0", "Net_0/Sequential_0", "Net_0/Sequential_0/Block_0",
                         "Net_0/Sequential_0/Block_0/Conv2d_0"]
    assert paths[-1] == "Net_0/Linear_0"
    assert all(row[2] == 6 for row in got), "6 profiled steps, one forward each"
    conv = got[3]
    assert conv[3] == conv[4] and conv[5] == conv[6] > 0, "a leaf's self is its total; the convolution ran on the GPU"
    children_device = sum(row[5] for row in got if row[1] == 1)
    assert got[0][5] == children_device + got[0][6], "Net's device total: its children's plus its own"


def write_synthetic_trace(path):
    """A trace with what the profiled workload lacks: the same model called on two threads, a
    module called from two places (Shared_0 under Net_0 and under Block_0), a module without
    GPU work, an operator outside every module and one outside every Python frame. Times in µs."""
    events = []

    def frame(tid, ident, parent, name, ts, dur):
        events.append({"ph": "X", "cat": "python_function", "name": name, "pid": 1, "tid": tid, "ts": ts,
                       "dur": dur, "args": {"Python id": ident, "Python parent id": parent}})

    def launch(tid, ts, correlation, kernel_dur):
        events.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": tid,
                       "ts": ts, "dur": 1, "args": {"correlation": correlation}})
        events.append({"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 200 + correlation * 10,
                       "dur": kernel_dur, "args": {"device": 0, "stream": 7, "correlation": correlation}})

    def op(tid, name, ts, dur):
        events.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": 1, "tid": tid, "ts": ts, "dur": dur})

    frame(1, 1, None, "train.py(10): step", 0, 100)
    frame(1, 2, 1, "nn.Module: Net_0", 5, 85)
    frame(1, 3, 2, "module.py(1784): _call_impl", 10, 30)
    frame(1, 4, 3, "nn.Module: Linear_0", 12, 26)
    frame(1, 5, 2, "nn.Module: Shared_0", 45, 10)
    frame(1, 6, 2, "nn.Module: Block_0", 60, 28)
    frame(1, 7, 6, "nn.Module: Shared_0", 62, 8)
    frame(1, 8, 6, "nn.Module: Idle_0", 72, 4.25)
    frame(2, 9, None, "nn.Module: Net_0", 20, 10.5)
    op(1, "aten::linear", 13, 24)
    op(1, "aten::mm", 14, 22)
    op(1, "aten::add", 46, 8)
    op(1, "aten::add", 63, 6)
    op(1, "aten::zero_", 94, 3)
    op(1, "aten::empty", 101, 1)
    op(2, "aten::add", 21, 2)
    launch(1, 15, 1, 4.5)
    launch(1, 50, 2, 2)
    launch(1, 65, 3, 3)
    launch(1, 80, 4, 1.25)
    launch(1, 95, 5, 7)
    path.write_text(json.dumps({"traceEvents": events}))


def test_modules_of_a_synthetic_trace(tmp_path):
    path = tmp_path / "modules.pt.trace.json"
    write_synthetic_trace(path)
    result = run_cli("pytorch", str(path), "--view", "modules", "--format", "csv")
    assert result.returncode == 0, result.stderr
    got = [[row["Module"], *(int(row[c]) for c in COLUMNS)] for row in csv.DictReader(io.StringIO(result.stdout))]
    assert got == expected_modules(load_events(path))
    # Net_0 on two threads; Shared_0 at two places; then by first call; Idle_0 without GPU work.
    assert got == [
        ["Net_0", 0, 2, 95500, 95500 - 26000 - 10000 - 28000, 10750, 0],
        ["Net_0/Linear_0", 1, 1, 26000, 26000, 4500, 4500],
        ["Net_0/Shared_0", 1, 1, 10000, 10000, 2000, 2000],
        ["Net_0/Block_0", 1, 1, 28000, 28000 - 8000 - 4250, 4250, 1250],
        ["Net_0/Block_0/Shared_0", 2, 1, 8000, 8000, 3000, 3000],
        ["Net_0/Block_0/Idle_0", 2, 1, 4250, 4250, 0, 0],
    ]


@pytest.mark.parametrize("trace", WITHOUT_MODULES)
def test_a_trace_without_modules_says_so(trace):
    path = DATA / "kineto" / trace
    assert not any(e.get("cat") == "python_function" for e in load_events(path))
    result = run_cli("pytorch", str(path), "--view", "modules", "--format", "csv")
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert "records no nn.Module events: record with with_modules=True" in result.stderr
    assert result.stderr.count("\n") == 1
