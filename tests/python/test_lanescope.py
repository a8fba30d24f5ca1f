"""The Python module `import lanescope` (app/python, docs/python.md) on real corpus reports.

Run by ctest (python_tests) with PYTHONPATH at the built module and LANESCOPE_CLI,
LANESCOPE_TEST_DATA and LANESCOPE_SHARED_CORPUS set; what the module gives is checked against
nsys's own outputs (the expected CSVs) and against lanescope-cli on the same files.
"""

import gc
import io
import json
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import lanescope

HERE = Path(__file__).resolve().parent
DATA = Path(os.environ.get("LANESCOPE_TEST_DATA", HERE.parent / "data"))
SHARED = Path(os.environ.get("LANESCOPE_SHARED_CORPUS", HERE.parents[2] / "shared" / "corpus"))
CLI = os.environ.get("LANESCOPE_CLI", str(HERE.parents[1] / "build" / "release" / "app" / "lanescope-cli"))

TRAIN = DATA / "nsys-2025.3" / "train_1gpu.nsys-rep"
REPORTS = ["train_1gpu", "cpu_1gpu", "ddp_rank0"]


def cli(*args):
    """lanescope-cli's exit status, stdout and stderr."""
    run = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True, check=False)
    return run.returncode, run.stdout, run.stderr


def read_csv(text_or_path):
    """A CSV as pandas reads it, numbers read back exactly as printed."""
    source = io.StringIO(text_or_path) if isinstance(text_or_path, str) else text_or_path
    return pd.read_csv(source, float_precision="round_trip")


def same_table(expected, actual):
    """As the C++ stats tests compare nsys's CSVs: the same header, row count and sequence of the
    column the report is ordered by (the first two fields of a summary), and the same rows,
    compared as sorted lists (rows equal in that column may come in any order). Values and dtypes
    as pandas.read_csv makes them of the printed numbers, compared exactly."""
    assert list(actual.columns) == list(expected.columns)
    assert len(actual) == len(expected)
    order = list(expected.columns[:2])
    pd.testing.assert_frame_equal(actual[order], expected[order], check_exact=True)

    def rows(frame):
        return frame.sort_values(list(frame.columns)).reset_index(drop=True)

    pd.testing.assert_frame_equal(rows(actual), rows(expected), check_exact=True)


@pytest.fixture(scope="module")
def train():
    return lanescope.open(TRAIN)


def view_owner(array):
    """The object at the end of a numpy array's chain of bases."""
    while isinstance(array, np.ndarray) and array.base is not None:
        array = array.base
    return array


def test_info_is_the_cli_json(train):
    code, out, _ = cli("info", TRAIN, "--format", "json")
    assert code == 0
    assert train.info() == json.loads(out)


@pytest.mark.parametrize("name", REPORTS)
def test_kernel_count_equals_the_kernel_table(name):
    report = lanescope.open(DATA / "nsys-2025.3" / f"{name}.nsys-rep")
    kernels = report.info()["counts"]["kernels"]
    assert kernels > 0
    assert kernels == len(report.sql("select * from CUPTI_ACTIVITY_KIND_KERNEL"))


@pytest.mark.parametrize("name", REPORTS)
def test_cuda_gpu_kern_sum_equals_nsys_stats(name):
    report = lanescope.open(DATA / "nsys-2025.3" / f"{name}.sqlite")
    expected = read_csv(DATA / "expected" / name / "cuda_gpu_kern_sum.csv")
    actual = report.stats("cuda_gpu_kern_sum")
    assert actual.dtypes["Avg (ns)"] == np.float64 and actual.dtypes["Instances"] == np.int64
    same_table(expected, actual)


def test_every_summary_and_trace_equals_nsys_stats(train):
    """Every report with a non-empty expected CSV, empty cells (NaN) and all."""
    compared = 0
    for name in lanescope.stats_reports():
        path = DATA / "expected" / "train_1gpu" / f"{name}.csv"
        actual = train.stats(name)
        if not path.exists():
            continue
        if path.stat().st_size == 0:
            assert len(actual) == 0, name
            continue
        same_table(read_csv(path), actual)
        compared += 1
    assert compared >= 15


def test_stats_range_equals_the_cli(train):
    start, end = 100_000_000, 300_000_000
    code, out, _ = cli("stats", TRAIN, "--report", "cuda_gpu_kern_sum", "--format", "csv", "--range", f"{start}:{end}")
    assert code == 0
    ranged = train.stats("cuda_gpu_kern_sum", range=(start, end))
    assert 0 < ranged["Instances"].sum() < train.stats("cuda_gpu_kern_sum")["Instances"].sum()
    same_table(read_csv(out), ranged)


def test_analyze_equals_nsys_analyze(train):
    gaps = train.analyze("gpu_gaps", gap=1)
    same_table(read_csv(DATA / "expected" / "train_1gpu" / "gpu_gaps_1ms.csv"), gaps)
    assert len(train.analyze("gpu_gaps")) == 0  # nsys finds none above its default 500 ms
    with pytest.raises(ValueError):
        train.analyze("gpu_gaps", gap="soon")
    with pytest.raises(ValueError, match="unknown rule no_such_rule"):
        train.analyze("no_such_rule")


def test_sql_types_and_names(train):
    frame = train.sql("select start, end, end - start as d, shortName, null as missing, 0.5 * start as half "
                      "from CUPTI_ACTIVITY_KIND_KERNEL order by start limit 5")
    assert list(frame.columns) == ["start", "end", "d", "shortName", "missing", "half"]
    assert frame.dtypes["start"] == np.int64 and frame.dtypes["half"] == np.float64
    assert frame["missing"].isna().all()
    assert (frame["d"] == frame["end"] - frame["start"]).all()
    nullable = train.sql("select case when start % 2 = 0 then start end as even from CUPTI_ACTIVITY_KIND_KERNEL")
    assert str(nullable.dtypes["even"]) == "Int64"


@pytest.mark.parametrize("table,sql_table", [("kernels", "CUPTI_ACTIVITY_KIND_KERNEL"),
                                             ("memcpy", "CUPTI_ACTIVITY_KIND_MEMCPY"),
                                             ("memset", "CUPTI_ACTIVITY_KIND_MEMSET"),
                                             ("cuda_api", "CUPTI_ACTIVITY_KIND_RUNTIME")])
def test_events_equal_the_sql_tables(train, table, sql_table):
    events = train.events(table)
    rows = train.sql(f"select start, end from {sql_table}")
    assert len(events) == len(rows) == train.info()["counts"][table]
    ours = sorted(zip(events["start_ns"].tolist(), (events["start_ns"] + events["duration_ns"]).tolist()))
    assert ours == sorted(zip(rows["start"].tolist(), rows["end"].tolist()))
    # Lane by lane, each lane's rows in start order.
    for _, lane in events.groupby("lane", sort=False):
        assert lane["start_ns"].is_monotonic_increasing


EXPORTED = sorted(rep for folder in ("nsys-2025.3", "nsys-2022.4") for rep in (DATA / folder).glob("*.nsys-rep")
                  if rep.with_suffix(".sqlite").exists())
EXPORTED.append(SHARED / "public" / "openhackathons-org__AI-Profiler__baseline_nvtx.nsys-rep")  # someone else's


@pytest.mark.parametrize("rep", EXPORTED, ids=lambda rep: f"{rep.parent.name}/{rep.stem}")
def test_events_equal_nsys_own_export(rep):
    # Every interval table read from the .nsys-rep holds the (start, end) of the rows Nsight
    # Systems itself exported from the same file; NVTX: its push/pop and start/end ranges (event
    # types 59 and 60) that ended; OS runtime: its calls, not the marks where tracing started or
    # stopped on a thread (event classes 31 and 32, in the OS runtime lane's instants).
    tables = {"kernels": "CUPTI_ACTIVITY_KIND_KERNEL", "memcpy": "CUPTI_ACTIVITY_KIND_MEMCPY",
              "memset": "CUPTI_ACTIVITY_KIND_MEMSET", "cuda_api": "CUPTI_ACTIVITY_KIND_RUNTIME",
              "sync": "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
              "nvtx": "NVTX_EVENTS where eventType in (59, 60) and end is not null",
              "osrt": "OSRT_API where eventClass not in (31, 32)"}
    if not rep.exists():
        pytest.skip(f"{rep} is absent: the shared corpus is not beside this clone")
    report = lanescope.open(rep)
    db = sqlite3.connect(f"file:{rep.with_suffix('.sqlite')}?mode=ro", uri=True)
    exported = {name for (name,) in db.execute("select name from sqlite_master where type = 'table'")}
    compared = 0
    for table, source in tables.items():
        events = report.events(table)
        ours = sorted(zip(events["start_ns"].tolist(), (events["start_ns"] + events["duration_ns"]).tolist()))
        theirs = sorted(db.execute(f"select start, end from {source}")) if source.split()[0] in exported else []
        assert ours == theirs, table
        compared += len(ours)
    db.close()
    assert compared > 0


def test_event_names_are_the_strings(train):
    kernels = train.events("kernels")
    names = np.array(train.strings(), dtype=object)[kernels["name_id"].to_numpy()]
    by_name = pd.Series(kernels["duration_ns"].to_numpy(np.int64)).groupby(names).sum()
    summary = train.stats("cuda_gpu_kern_sum").set_index("Name")["Total Time (ns)"]
    assert by_name.sort_index().to_dict() == summary.sort_index().to_dict()


def test_lane_events_are_views_that_keep_the_report_alive():
    report = lanescope.open(TRAIN)
    lanes = report.lanes()
    busiest = int(lanes.loc[lanes["events"].idxmax(), "lane"])
    first = report.lane_events(busiest)
    start = first["start_ns"].to_numpy()
    again = report.lane_events(busiest)["start_ns"].to_numpy()
    assert np.shares_memory(start, again)  # the same memory both times: the model's own
    assert not start.flags.owndata and not start.flags.writeable
    assert isinstance(view_owner(start), lanescope.Report)
    for column in first.columns:  # every column of the lane viewed in place
        assert isinstance(view_owner(first[column].to_numpy()), lanescope.Report), column
    saved = start.copy()
    del report, first, again, lanes
    gc.collect()
    assert isinstance(view_owner(start), lanescope.Report)  # kept by the array
    assert np.array_equal(start, saved)
    assert start.sum() == saved.sum()


def test_events_view_one_lane_and_copy_several(train):
    lanes = train.lanes()
    for table in lanescope.event_tables:
        events = train.events(table)
        holding = events["lane"].unique()
        instants = "time_ns" in events.columns
        time = "time_ns" if instants else "start_ns"
        if len(holding) == 1 and lanes.loc[holding[0], "instants" if instants else "events"] == len(events):
            lane = train.lane_instants if instants else train.lane_events
            assert np.shares_memory(events[time].to_numpy(), lane(int(holding[0]))[time].to_numpy()), table
        else:
            assert not isinstance(view_owner(events[time].to_numpy()), lanescope.Report), table
    assert len(train.events("nvtx")["lane"].unique()) == 1  # one thread's NVTX: a view
    assert len(train.events("kernels")["lane"].unique()) == 1  # the stream's kernels, apart: a view
    assert len(train.events("cuda_api")["lane"].unique()) == 2  # two threads: a copy
    with pytest.raises(ValueError, match="unknown table bogus"):
        train.events("bogus")


def test_the_kernels_of_several_streams_are_one_view():
    # The import packs the streams' kernel lanes into one block per column, one lane after the
    # other: the kernels table views it whole, and equals the kernel lanes put end to end.
    report = lanescope.open(DATA / "nsys-2025.3" / "two_gpus_one_process.nsys-rep")
    kernels = report.events("kernels")
    holding = [int(lane) for lane in kernels["lane"].unique()]
    assert len(holding) >= 2 and holding == list(range(holding[0], holding[0] + len(holding)))
    assert len(kernels) == report.info()["counts"]["kernels"]
    parts = [report.lane_events(lane).drop(columns="kind") for lane in holding]
    expected = pd.concat(parts, ignore_index=True)
    for column in expected.columns:
        values = kernels[column].to_numpy()
        assert isinstance(view_owner(values), lanescope.Report) and not values.flags.writeable, column
        assert np.shares_memory(values, report.lane_events(holding[0])[column].to_numpy()), column
        assert np.array_equal(values, expected[column].to_numpy()), column
    assert (kernels["lane"].to_numpy() == np.repeat(holding, [len(p) for p in parts])).all()
    memcpy = report.events("memcpy")  # the memory lanes: several, copied
    assert len(memcpy) > 0 and not isinstance(view_owner(memcpy["start_ns"].to_numpy()), lanescope.Report)


def grown_export(tmp_path, copies, long_events):
    """train_1gpu's export with its kernels, memcpys and CUDA runtime calls repeated `copies`
    times, each copy after the one before, and its last `long_events` kernels and runtime calls
    made 5 s long: lanes of more than a million events, some too long for a 32-bit duration."""
    path = tmp_path / "grown.sqlite"
    shutil.copyfile(DATA / "nsys-2025.3" / "train_1gpu.sqlite", path)
    db = sqlite3.connect(path)
    first, last = db.execute("select min(start), max(end) from (select start, end from CUPTI_ACTIVITY_KIND_KERNEL"
                             " union all select start, end from CUPTI_ACTIVITY_KIND_MEMCPY"
                             " union all select start, end from CUPTI_ACTIVITY_KIND_RUNTIME)").fetchone()
    span = last - first + 1000
    for table in ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_RUNTIME"):
        columns = [row[1] for row in db.execute(f"pragma table_info({table})")]
        shifted = ", ".join(f"{c} + n.i * {span}" if c in ("start", "end") else c for c in columns)
        db.execute(f"create temp table original as select * from {table}")
        db.execute(f"with recursive n(i) as (select 1 union all select i + 1 from n where i < {copies - 1}) "
                   f"insert into {table} ({', '.join(columns)}) select {shifted} from original, n")
        db.execute("drop table original")
    for table in ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME"):
        db.execute(f"update {table} set end = start + 5000000000 where rowid in "
                   f"(select rowid from {table} order by start desc limit {long_events})")
    db.commit()
    db.close()
    return path


def test_events_of_several_stretches_equal_the_lanes_filtered(tmp_path):
    # A table copied from lanes is cut into stretches of about a million events, copied on every
    # core: each column must equal the lanes' own columns filtered by kind, lane after lane. The
    # runtime calls are their threads' whole lanes (copied column by column); the kernels are the
    # stream's kernel lane (viewed), the memcpys share the stream's memory lane with its memsets
    # (copied row by row).
    report = lanescope.open(grown_export(tmp_path, copies=600, long_events=2))
    lanes = report.lanes()
    assert (lanes["events"] > 1 << 20).sum() >= 2  # the stream and a thread cut into stretches
    for table, kind in (("kernels", 3), ("memcpy", 4), ("cuda_api", 1)):
        events = report.events(table)
        parts = []
        for lane in lanes.loc[~lanes["kind"].isin(["NCCL", "NVTX on GPU"]), "lane"]:  # not the copies
            frame = report.lane_events(int(lane))
            frame = frame[frame["kind"] == kind].drop(columns="kind")
            parts.append(frame.assign(lane=np.int32(lane)))
        expected = pd.concat(parts, ignore_index=True)[list(events.columns)]
        assert len(events) == len(expected) == report.info()["counts"][table], table
        for column in events.columns:
            assert np.array_equal(events[column].to_numpy(), expected[column].to_numpy()), (table, column)
    for table in ("kernels", "cuda_api"):
        durations = report.events(table)["duration_ns"]
        assert durations.dtype == np.int64 and (durations == 5_000_000_000).sum() == 2, table
    assert report.events("memcpy")["duration_ns"].dtype == np.uint32  # no long memcpy: 32 bits


def test_lanes_count_every_event(train):
    lanes = train.lanes()
    counts = train.info()["counts"]
    assert lanes["events"].sum() == counts["slices"] + counts["nccl"]
    streams = lanes.loc[lanes["kind"] == "CUDA HW", "stream"]  # a stream's kernels, its memory operations
    assert sorted(streams.unique().tolist()) == train.info()["gpus"][0]["streams"] and len(streams) == 2
    with pytest.raises(IndexError):
        train.lane_events(len(lanes))


def test_a_file_that_cannot_be_read_raises_the_importers_message(tmp_path):
    missing = tmp_path / "missing.nsys-rep"
    text = tmp_path / "notes.sqlite"
    text.write_text("not a report\n")
    for path in (missing, text):
        with pytest.raises(lanescope.Error) as raised:
            lanescope.open(path)
        code, _, err = cli("info", path)
        assert code == 2
        assert err == f"lanescope-cli: {raised.value}\n"  # the same one line
        assert str(path) in str(raised.value)


def test_a_bad_query_raises_sqlites_message(train):
    with pytest.raises(lanescope.Error, match="no such table: NO_SUCH_TABLE") as raised:
        train.sql("select * from NO_SUCH_TABLE")
    code, _, err = cli("sql", TRAIN, "select * from NO_SUCH_TABLE")
    assert code == 1 and err == f"lanescope-cli sql: {raised.value}\n"
    with pytest.raises(lanescope.Error):
        train.sql("delete from CUPTI_ACTIVITY_KIND_KERNEL")  # read-only
    assert len(train.sql("select 1 as one")) == 1  # the session still works


def test_an_unknown_stats_report_raises_the_clis_message(train):
    with pytest.raises(ValueError) as raised:
        train.stats("no_such_report")
    code, _, err = cli("stats", TRAIN, "--report", "no_such_report")
    assert code == 1 and err.splitlines()[0] == f"lanescope-cli stats: {raised.value}"
    with pytest.raises(ValueError):
        train.stats("cuda_gpu_kern_sum", range=(2, 1))


def test_progress_grows_to_one():
    fractions = []
    report = lanescope.open(DATA / "nsys-2025.3" / "cpu_1gpu.nsys-rep", progress=fractions.append)
    assert report.info()["counts"]["kernels"] > 0
    assert fractions[0] == 0.0 and fractions[-1] == 1.0
    assert all(a < b for a, b in zip(fractions, fractions[1:]))
    assert any(0.0 < f < 1.0 for f in fractions)  # the stages passed


def test_an_exception_in_progress_stops_the_import():
    def refuse(fraction):
        if fraction > 0:
            raise KeyError("enough")

    with pytest.raises(KeyError, match="enough"):
        lanescope.open(DATA / "nsys-2025.3" / "cpu_1gpu.sqlite", progress=refuse)


def test_bad_reader_is_refused():
    with pytest.raises(ValueError, match="reader"):
        lanescope.open(TRAIN, reader="other")


def same_report(a, b):
    """Everything the module gives of two reports is equal: info (but the memory the model
    takes, where a fresh import holds spare capacity that a saved model has not), every lane's
    events and instants, every event table, a statistics report and a query."""
    def described(report):
        return {key: value for key, value in report.info().items() if key not in ("model_bytes", "bytes_per_event")}
    assert described(a) == described(b)
    pd.testing.assert_frame_equal(a.lanes(), b.lanes())
    for lane in a.lanes()["lane"]:
        pd.testing.assert_frame_equal(a.lane_events(int(lane)), b.lane_events(int(lane)))
        pd.testing.assert_frame_equal(a.lane_instants(int(lane)), b.lane_instants(int(lane)))
    for table in lanescope.event_tables:
        pd.testing.assert_frame_equal(a.events(table), b.events(table))
    pd.testing.assert_frame_equal(a.stats("cuda_gpu_kern_sum"), b.stats("cuda_gpu_kern_sum"))
    query = "select count(*), sum(end - start) from CUPTI_ACTIVITY_KIND_KERNEL"
    pd.testing.assert_frame_equal(a.sql(query), b.sql(query))


def test_open_with_cache_reads_the_saved_model_back(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("LANESCOPE_CACHE", raising=False)
    models = tmp_path / "lanescope" / "models"
    first = lanescope.open(TRAIN, cache=True)
    assert not first.from_cache
    entries = list(models.glob("*.model"))
    assert len(entries) == 1
    assert models.stat().st_mode & 0o777 == 0o700 and entries[0].stat().st_mode & 0o777 == 0o600
    again = lanescope.open(TRAIN, cache=True)
    assert again.from_cache
    same_report(again, first)
    same_report(again, lanescope.open(TRAIN))  # and the import without the cache
    assert not lanescope.open(TRAIN).from_cache  # cache=False by default: not even read
    assert list(models.glob("*.model")) == entries


def test_open_with_cache_off_in_the_environment_saves_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("LANESCOPE_CACHE", "off")
    assert not lanescope.open(TRAIN, cache=True).from_cache
    assert not lanescope.open(TRAIN, cache=True).from_cache
    assert not (tmp_path / "lanescope" / "models").exists()


def test_open_with_cache_warns_of_a_damaged_entry_and_imports_again(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("LANESCOPE_CACHE", raising=False)
    lanescope.open(TRAIN, cache=True)
    (entry,) = (tmp_path / "lanescope" / "models").glob("*.model")
    damaged = bytearray(entry.read_bytes())
    damaged[len(damaged) // 2] ^= 0xFF  # a byte of the events changed
    entry.write_bytes(bytes(damaged))
    with pytest.warns(RuntimeWarning, match="imported again"):
        reopened = lanescope.open(TRAIN, cache=True)
    assert not reopened.from_cache
    same_report(reopened, lanescope.open(TRAIN))
    assert lanescope.open(TRAIN, cache=True).from_cache  # saved whole again


def test_compare_two_ranks():
    paths = [SHARED / "nsys-2025.3" / f"ddp_rank{r}.nsys-rep" for r in (0, 1)]
    if not all(p.exists() for p in paths):
        pytest.skip(f"{SHARED}/nsys-2025.3 (the shared corpus) is absent")
    result = lanescope.compare(paths)
    assert len(result["ranks"]) == 2
    assert [r["rank"] for r in result["ranks"]] == [0, 1]
    code, out, _ = cli("compare", *paths, "--format", "json")
    assert code == 0 and result == json.loads(out)
    assert lanescope.compare(paths, align="clock")["align"] == "clock"
    with pytest.raises(ValueError, match="align"):
        lanescope.compare(paths, align="sideways")
    with pytest.raises(lanescope.Error, match="no such file"):
        lanescope.compare([paths[0], SHARED / "missing.nsys-rep"])


def test_compare_one_report_of_both_ranks():
    path = DATA / "nsys-2025.3" / "ddp_both_ranks.nsys-rep"
    result = lanescope.compare([path])
    assert [r["label"] for r in result["ranks"]] == ["python [791]", "python [792]"]
    code, out, _ = cli("compare", path, "--format", "json")
    assert code == 0 and result == json.loads(out)
    with pytest.raises(lanescope.Error, match="holds one"):
        lanescope.compare([DATA / "nsys-2025.3" / "ddp_rank0.nsys-rep"])


def test_compare_with_cache_saves_each_rank_and_reads_it_back(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("LANESCOPE_CACHE", raising=False)
    models = tmp_path / "lanescope" / "models"
    paths = [DATA / "nsys-2025.3" / f"ddp_rank{r}.nsys-rep" for r in (0, 1)]
    expected = lanescope.compare(paths)
    assert not models.exists()  # cache=False by default
    lanescope.open(paths[0], cache=True)  # one rank saved before, the other not
    assert lanescope.compare(paths, cache=True) == expected
    assert len(list(models.glob("*.model"))) == 2
    assert all(lanescope.open(p, cache=True).from_cache for p in paths)  # saved as open() saves them
    assert lanescope.compare(paths, cache=True) == expected  # both read back
    entry = next(models.glob("*.model"))
    damaged = bytearray(entry.read_bytes())
    damaged[len(damaged) // 2] ^= 0xFF
    entry.write_bytes(bytes(damaged))
    with pytest.warns(RuntimeWarning, match="imported again"):
        assert lanescope.compare(paths, cache=True) == expected
    assert all(lanescope.open(p, cache=True).from_cache for p in paths)  # saved whole again
