"""lanescope-cli pytorch --view operators --group-by shapes against an independent computation
over the raw Kineto JSON (docs/analyses.md, "PyTorch operators"): an operator's shapes are its
args' "Input Dims" written by json.dumps (no whitespace but one space after each comma, the
text the importer keeps), "" without them; the numbers are the operators test's per-instance
ones."""
import collections
import csv
import io
import json

import pytest

from test_pytorch_operators import DATA, OPERATOR_CATS, add_instance, load_events, ns, operator_instances, run_cli

WITH_SHAPES = ["pytorch_profiled_gpu.pt.trace.json.gz", "train_1gpu_rank0.pt.trace.json"]
COLUMNS = ["Calls", "CPU Total (ns)", "CPU Self (ns)", "Device Total (ns)", "Device Self (ns)"]


def shapes_text(event):
    dims = event.get("args", {}).get("Input Dims")
    return json.dumps(dims) if isinstance(dims, list) else ""


def expected_shapes(events):
    """Per (operator name, shapes text): [calls, cpu total, cpu self, device total, device self]."""
    # Each thread's operators with their shapes, in the order operator_instances gives them: the
    # same events, sorted the same stable way (by start, longer first, ties in file order).
    ops = collections.defaultdict(list)  # (pid, tid) -> [start, end, name, shapes]
    for e in events:
        if e.get("ph") == "X" and "ts" in e and e.get("cat") in OPERATOR_CATS:
            start = ns(e["ts"])
            ops[(e["pid"], e["tid"])].append([start, start + max(ns(e.get("dur", 0)), 0), e["name"], shapes_text(e)])
    rows = collections.defaultdict(lambda: [0, 0, 0, 0, 0])
    for thread, instances in operator_instances(events).items():
        thread_ops = sorted(ops[thread], key=lambda o: (o[0], -(o[1] - o[0])))
        assert [o[:3] for o in thread_ops] == [i[:3] for i in instances]
        for (_, _, name, shapes), instance in zip(thread_ops, instances):
            add_instance(rows[(name, shapes)], instance)
    return rows


def csv_rows(result):
    assert result.returncode == 0, result.stderr
    return list(csv.DictReader(io.StringIO(result.stdout)))


@pytest.mark.parametrize("trace", WITH_SHAPES)
def test_shapes_match_the_raw_json(trace):
    path = DATA / "kineto" / trace
    expected = expected_shapes(load_events(path))
    result = run_cli("pytorch", str(path), "--view", "operators", "--group-by", "shapes", "--format", "csv")
    assert result.stderr == ""
    table = csv_rows(result)
    got = {(row["Name"], row["Input Shapes"]): [int(row[c]) for c in COLUMNS] for row in table}
    assert len(got) == len(table), "one row per name and shapes"
    assert got == dict(expected)
    assert any(shapes for _, shapes in got) and any(not shapes for _, shapes in got)
    order = [(-got[(row["Name"], row["Input Shapes"])][1], row["Name"], row["Input Shapes"]) for row in table]
    assert order == sorted(order), "sorted by CPU Total descending, then by name, then by shapes"
    # A name's rows add up to its row of the view by name.
    by_name = csv_rows(run_cli("pytorch", str(path), "--view", "operators", "--format", "csv"))
    sums = collections.defaultdict(lambda: [0] * len(COLUMNS))
    for (name, _), values in got.items():
        sums[name] = [a + b for a, b in zip(sums[name], values)]
    assert sums == {row["Name"]: [int(row[c]) for c in COLUMNS] for row in by_name}


def test_the_profiled_trace_by_hand():
    """What the file says of a few operators, read off it."""
    path = DATA / "kineto" / "pytorch_profiled_gpu.pt.trace.json.gz"
    table = csv_rows(run_cli("pytorch", str(path), "--view", "operators", "--group-by", "shapes", "--format", "csv"))
    calls = {(row["Name"], row["Input Shapes"]): int(row["Calls"]) for row in table}
    # Two convolutions per step, six steps: one row per layer's shapes.
    assert {s: n for (name, s), n in calls.items() if name == "aten::conv2d"} == {
        "[[64, 3, 32, 32], [32, 3, 3, 3], [32], [], [], [], []]": 6,
        "[[64, 32, 16, 16], [64, 32, 3, 3], [64], [], [], [], []]": 6,
    }
    # The autograd engine's functions record no Input Dims.
    assert calls[("autograd::engine::evaluate_function: ConvolutionBackward0", "")] == 12


def test_a_trace_without_shapes_says_so():
    path = DATA / "kineto" / "pytorch_profiled_cpu.pt.trace.json"
    assert not any(shapes_text(e) for e in load_events(path)), "the CPU trace records no Input Dims"
    result = run_cli("pytorch", str(path), "--view", "operators", "--group-by", "shapes", "--format", "csv")
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert "records no input shapes (Input Dims of cpu_op events): record with record_shapes=True" in result.stderr
    assert result.stderr.count("\n") == 1
