"""report.critical_path() and the CRITICAL_PATH table (docs/analyses.md, "Critical path") against
the hand-built traces' paths (tests/data/critical_path, written by hand from their construction)
and against lanescope-cli critical-path on corpus reports.
"""

import io
import json
import os
import subprocess
from pathlib import Path

import pandas as pd
import pytest

import lanescope

HERE = Path(__file__).resolve().parent
DATA = Path(os.environ.get("LANESCOPE_TEST_DATA", HERE.parent / "data"))
CLI = os.environ.get("LANESCOPE_CLI", str(HERE.parents[1] / "build" / "release" / "app" / "lanescope-cli"))
TRACES = DATA / "critical_path"

HAND_BUILT = ["gpu_bound.sqlite", "mixed_step.sqlite", "cuda_graph_launch.sqlite", "dataloader_blocks_main_thread.sqlite"]
CORPUS = [DATA / "nsys-2025.3" / "train_1gpu.nsys-rep", DATA / "nsys-2025.3" / "cuda_graphs.sqlite",
          DATA / "kineto" / "train_1gpu_rank0.pt.trace.json"]


def expected_of(trace):
    stem = trace.removesuffix(".sqlite").removesuffix(".trace.json")
    return pd.read_csv(TRACES / f"{stem}.expected.csv", keep_default_na=False)


@pytest.mark.parametrize("trace", HAND_BUILT)
def test_the_path_of_a_hand_built_trace(trace):
    path = lanescope.open(TRACES / trace).critical_path()
    expected = expected_of(trace)
    assert path["start_ns"].tolist() == expected["Start (ns)"].tolist()
    assert path["end_ns"].tolist() == expected["End (ns)"].tolist()
    assert path["duration_ns"].tolist() == expected["Duration (ns)"].tolist()
    assert path["category"].tolist() == expected["Category"].tolist()
    assert path["name"].tolist() == expected["Name"].tolist()
    assert path["lane"].tolist() == expected["Lane"].tolist()
    gaps = path["event_index"] < 0
    assert set(path.loc[gaps, "category"]) <= {"CPU", "Launch latency", "Sync latency", "Wait for rank"}


@pytest.mark.parametrize("file", CORPUS, ids=lambda f: f.name)
def test_the_path_covers_the_report_and_equals_the_command_line(file):
    report = lanescope.open(file)
    path = report.critical_path()
    assert len(path) > 0
    assert (path["start_ns"].iloc[1:].to_numpy() == path["end_ns"].iloc[:-1].to_numpy()).all()
    assert (path["duration_ns"] > 0).all()
    run = subprocess.run([CLI, "critical-path", str(file), "--format", "csv"], capture_output=True, text=True,
                         check=True)
    cli = pd.read_csv(io.StringIO(run.stdout), keep_default_na=False)
    assert path["start_ns"].tolist() == cli["Start (ns)"].tolist()
    assert path["category"].tolist() == cli["Category"].tolist()
    assert path["name"].tolist() == cli["Name"].tolist()
    # The SQL table holds the whole report's path, the same rows.
    table = report.sql("SELECT start, end, category, name, lane FROM CRITICAL_PATH ORDER BY segment")
    assert table["start"].tolist() == path["start_ns"].tolist()
    assert table["end"].tolist() == path["end_ns"].tolist()
    assert table["category"].tolist() == path["category"].tolist()
    assert table["lane"].tolist() == path["lane"].tolist()


def test_a_range_is_covered_exactly():
    report = lanescope.open(CORPUS[0])
    whole = report.critical_path()
    begin, end = int(whole["start_ns"].iloc[0]), int(whole["end_ns"].iloc[-1])
    middle = (begin + (end - begin) // 3, begin + 2 * (end - begin) // 3)
    part = report.critical_path(range=middle)
    assert part["start_ns"].iloc[0] == middle[0] and part["end_ns"].iloc[-1] == middle[1]
    assert part["duration_ns"].sum() == middle[1] - middle[0]


def test_bad_arguments_are_value_errors():
    report = lanescope.open(CORPUS[0])
    with pytest.raises(ValueError):
        report.critical_path(range=(10, 5))
    with pytest.raises(ValueError):
        report.critical_path(range=(0, 10), step=1)
    with pytest.raises(ValueError):
        report.critical_path(step=123456)


@pytest.mark.parametrize("file", [CORPUS[0], CORPUS[2]], ids=lambda f: f.name)
def test_a_step_is_the_steps_range_and_equals_the_command_line(file):
    # step=N is the Nth step as the Ranks panel counts them (lanescope-cli critical-path --step N).
    report = lanescope.open(file)
    path = report.critical_path(step=3)
    run = subprocess.run([CLI, "critical-path", str(file), "--step", "3", "--format", "json"], capture_output=True,
                         text=True, check=True)
    cli = json.loads(run.stdout)
    assert [path["start_ns"].iloc[0], path["end_ns"].iloc[-1]] == cli["range"]
    assert path["duration_ns"].sum() == cli["length_ns"]
    assert path["start_ns"].tolist() == [s["start_ns"] for s in cli["segments"]]
    assert path["category"].tolist() == [s["category"] for s in cli["segments"]]
    # The step is a part of the whole report: shorter than it, and inside it.
    whole = report.critical_path()
    assert whole["start_ns"].iloc[0] <= path["start_ns"].iloc[0] < path["end_ns"].iloc[-1] <= whole["end_ns"].iloc[-1]
    with pytest.raises(ValueError):
        report.critical_path(step=10**6)  # no such step
