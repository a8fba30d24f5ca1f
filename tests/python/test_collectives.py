"""report.collectives() and the COLLECTIVES table (docs/analyses.md, "Communication") against the
hand-cut traces of tests/data/communication (their sizes and bandwidths worked out by hand in its
README) and against lanescope-cli nccl."""

import io
import os
import subprocess
from pathlib import Path

import pandas as pd
import pytest

import lanescope

HERE = Path(__file__).resolve().parent
DATA = Path(os.environ.get("LANESCOPE_TEST_DATA", HERE.parent / "data"))
CLI = os.environ.get("LANESCOPE_CLI", str(HERE.parents[1] / "build" / "release" / "app" / "lanescope-cli"))


@pytest.mark.parametrize("trace", ["kernel_args.pt.trace.json", "record_param_comms_only.pt.trace.json"])
def test_the_hand_cut_collectives(trace):
    c = lanescope.open(DATA / "communication" / trace).collectives()
    assert c["operation"].tolist() == ["AllGather", "AllReduce"]
    assert c["size_bytes"].tolist() == [4194304, 1048576]
    assert c["ranks"].tolist() == [2, 2]
    assert c["duration_ns"].tolist() == [100000, 50000]
    assert c["algbw_gbps"].tolist() == pytest.approx([41.94304, 20.97152])
    assert c["busbw_gbps"].tolist() == pytest.approx([20.97152, 20.97152])
    assert (c["end_ns"] - c["start_ns"] == c["duration_ns"]).all()


def test_the_frame_equals_the_command_line_and_sizes_may_be_missing():
    file = DATA / "kineto" / "ddp_rank0.pt.trace.json.gz"
    c = lanescope.open(file).collectives()
    run = subprocess.run([CLI, "nccl", str(file), "--format", "csv"], capture_output=True, text=True, check=True)
    cli = pd.read_csv(io.StringIO(run.stdout))
    assert c["start_ns"].tolist() == cli["Start (ns)"].tolist()
    assert c["size_bytes"].tolist() == cli["Size (bytes)"].tolist()
    assert c["busbw_gbps"].round(3).tolist() == cli["BusBW (GB/s)"].tolist()
    # A report without sizes: every NCCL kernel still a row, the sizes missing.
    bare = lanescope.open(DATA / "critical_path" / "two_ranks_late_rank0.sqlite").collectives()
    assert len(bare) == 1
    assert bare["size_bytes"].isna().all() and bare["busbw_gbps"].isna().all()
