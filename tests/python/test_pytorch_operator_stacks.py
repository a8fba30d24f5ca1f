"""lanescope-cli pytorch --view operators --group-by stack against an independent computation
over the raw Kineto JSON (docs/analyses.md, "PyTorch operators"): an operator's stack is the
innermost python_function event of its thread that contains it in time, then that frame's
ancestors through the "Python parent id" links (the CLI nests the frames by time), names
innermost first joined by " <- "; the numbers are the operators test's per-instance ones."""
import collections
import csv
import io

import pytest

from test_pytorch_modules import write_synthetic_trace
from test_pytorch_operators import DATA, add_instance, load_events, ns, operator_instances, run_cli

PROFILED = DATA / "kineto" / "pytorch_profiled_gpu.pt.trace.json.gz"
WITHOUT_STACKS = ["train_1gpu_rank0.pt.trace.json", "pytorch_profiled_cpu.pt.trace.json"]
COLUMNS = ["Calls", "CPU Total (ns)", "CPU Self (ns)", "Device Total (ns)", "Device Self (ns)"]


def expected_stacks(events):
    """Per (operator name, stack text): [calls, cpu total, cpu self, device total, device self]."""
    frames = {}  # (pid, Python id) -> the python_function event
    by_thread = collections.defaultdict(list)  # (pid, tid) -> [start, end, (pid, Python id)]
    for e in events:
        if e.get("ph") == "X" and e.get("cat") == "python_function":
            key = (e["pid"], e["args"]["Python id"])
            frames[key] = e
            start = ns(e["ts"])
            by_thread[(e["pid"], e["tid"])].append((start, start + ns(e["dur"]), key))

    def chain(key):
        """The frame's name and its ancestors', innermost first."""
        names = []
        while key[1] is not None:
            names.append(frames[key]["name"])
            key = (key[0], frames[key]["args"]["Python parent id"])
        return names

    rows = collections.defaultdict(lambda: [0, 0, 0, 0, 0])
    for thread, ops in operator_instances(events).items():
        for op in ops:
            containing = [chain(key) for s, e, key in by_thread[thread] if s <= op[0] and op[1] <= e]
            innermost = max(containing, key=len, default=[])
            add_instance(rows[(op[2], " <- ".join(innermost))], op)
    return rows


def test_stacks_match_the_raw_json():
    expected = expected_stacks(load_events(PROFILED))
    result = run_cli("pytorch", str(PROFILED), "--view", "operators", "--group-by", "stack", "--format", "csv")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    table = list(csv.DictReader(io.StringIO(result.stdout)))
    got = {(row["Name"], row["Call Stack"]): [int(row[c]) for c in COLUMNS] for row in table}
    assert len(got) == len(table), "one row per name and stack"
    assert got == dict(expected)
    order = [(-got[(row["Name"], row["Call Stack"])][1], row["Name"], row["Call Stack"]) for row in table]
    assert order == sorted(order), "sorted by CPU Total descending, then by name, then by stack"
    # The forward's convolution runs inside the Conv2d module, called from the training loop.
    conv = [stack for name, stack in got if name == "aten::conv2d"]
    assert conv and all("nn.Module: Conv2d_" in s and s.endswith("profiled_train.py(61): <module>") for s in conv)
    # The backward's operators run on the autograd thread, where no Python frame is recorded.
    assert got[("autograd::engine::evaluate_function: ConvolutionBackward0", "")][0] == 12
    # A name's rows add up to its row of the view by name.
    by_name = run_cli("pytorch", str(PROFILED), "--view", "operators", "--format", "csv")
    sums = collections.defaultdict(lambda: [0] * len(COLUMNS))
    for (name, _), values in got.items():
        sums[name] = [a + b for a, b in zip(sums[name], values)]
    assert sums == {row["Name"]: [int(row[c]) for c in COLUMNS] for row in csv.DictReader(io.StringIO(by_name.stdout))}


def test_stacks_of_a_synthetic_trace(tmp_path):
    path = tmp_path / "stacks.pt.trace.json"
    write_synthetic_trace(path)
    result = run_cli("pytorch", str(path), "--view", "operators", "--group-by", "stack", "--format", "csv")
    assert result.returncode == 0, result.stderr
    got = {(row["Name"], row["Call Stack"]): [int(row[c]) for c in COLUMNS]
           for row in csv.DictReader(io.StringIO(result.stdout))}
    assert got == dict(expected_stacks(load_events(path)))
    step = "train.py(10): step"
    assert got == {
        ("aten::linear", f"nn.Module: Linear_0 <- module.py(1784): _call_impl <- nn.Module: Net_0 <- {step}"):
            [1, 24000, 2000, 4500, 0],
        ("aten::mm", f"nn.Module: Linear_0 <- module.py(1784): _call_impl <- nn.Module: Net_0 <- {step}"):
            [1, 22000, 22000, 4500, 4500],
        ("aten::add", f"nn.Module: Shared_0 <- nn.Module: Net_0 <- {step}"): [1, 8000, 8000, 2000, 2000],
        ("aten::add", f"nn.Module: Shared_0 <- nn.Module: Block_0 <- nn.Module: Net_0 <- {step}"):
            [1, 6000, 6000, 3000, 3000],
        ("aten::add", "nn.Module: Net_0"): [1, 2000, 2000, 0, 0],  # the second thread
        ("aten::zero_", step): [1, 3000, 3000, 7000, 7000],  # in the step, outside every module
        ("aten::empty", ""): [1, 1000, 1000, 0, 0],  # outside every Python frame
    }


@pytest.mark.parametrize("trace", WITHOUT_STACKS)
def test_a_trace_without_python_frames_says_so(trace):
    path = DATA / "kineto" / trace
    result = run_cli("pytorch", str(path), "--view", "operators", "--group-by", "stack", "--format", "csv")
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert "records no Python call stacks (python_function events): record with with_stack=True" in result.stderr
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize("args", [["--group-by", "shape"], ["--view", "kernels", "--group-by", "stack"]])
def test_group_by_is_checked(args):
    view = [] if "--view" in args else ["--view", "operators"]
    result = run_cli("pytorch", str(PROFILED), *view, *args)
    assert result.returncode == 1, result.stderr
    assert "--group-by" in result.stderr and result.stdout == ""
