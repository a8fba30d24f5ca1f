"""report.nvtx_payloads() (docs/python.md): NCCL's NVTX extended payloads of ddp_rank0, ddp_rank1 and
nccl_payloads, read natively and from the export made with --include-blobs=true, against the blobs decoded here with
struct from the export's own tables; the same rows as NVTX_PAYLOAD_VALUES joined to NVTX_EVENTS.
"""

import os
import sqlite3
import struct
from pathlib import Path

import pandas as pd
import pytest

import lanescope

HERE = Path(__file__).resolve().parent
DATA = Path(os.environ.get("LANESCOPE_TEST_DATA", HERE.parent / "data")) / "nsys-2025.3"
COLUMNS = ["start_ns", "end_ns", "name", "field", "value"]


def decoded_from_blobs(export):
    """Each NCCL range's fields, decoded here from NVTX_EVENTS.binaryData through the export's schema
    tables: { u64 count, count x { u64 schema id, u64 size, u64 offset } } then the bytes; NCCL's
    schemas hold a u64 communicator, then a size_t message size and an int root or an enum (4 bytes),
    or ints (ranks, rank, device)."""
    db = sqlite3.connect(f"file:{export}?immutable=1", uri=True)
    entries = {}
    for schema, idx, kind, name, offset in db.execute(
            "SELECT schemaId, idx, type, name, coalesce(offset, 0) FROM NVTX_PAYLOAD_SCHEMA_ENTRIES ORDER BY schemaId, idx"):
        entries.setdefault(schema, []).append((kind, name, offset))
    enums = {}
    for schema, name, value in db.execute("SELECT schemaId, name, coalesce(value, 0) FROM NVTX_PAYLOAD_ENUM_ENTRIES"):
        enums.setdefault(schema, {})[value] = name
    formats = {18: "<Q", 22: "<Q", 5: "<i"}
    rows = []
    for start, end, name, blob in db.execute(
            "SELECT start, end, coalesce(text, (SELECT value FROM StringIds WHERE id = textId)), binaryData "
            "FROM NVTX_EVENTS WHERE binaryData IS NOT NULL"):
        (count,) = struct.unpack_from("<Q", blob, 0)
        for k in range(count):
            schema, size, at = struct.unpack_from("<QQQ", blob, 8 + 24 * k)
            payload = blob[at:at + size]
            for kind, field, offset in entries[schema]:
                if kind in enums:
                    (number,) = struct.unpack_from("<I", payload, offset)
                    value = enums[kind][number]
                else:
                    (value,) = struct.unpack_from(formats[kind], payload, offset)
                rows.append((start, end, name, field, str(value)))
    db.close()
    return pd.DataFrame(rows, columns=COLUMNS).sort_values(["start_ns", "field"], kind="stable").reset_index(drop=True)


def by_start_and_field(frame):
    return frame.sort_values(["start_ns", "field"], kind="stable").reset_index(drop=True)


@pytest.mark.parametrize("rank, fields", [("ddp_rank0", 48 * 3), ("ddp_rank1", 48 * 3), ("nccl_payloads", 29)])
def test_the_payloads_equal_the_blobs_decoded_here(rank, fields):
    expected = decoded_from_blobs(DATA / f"{rank}.blobs.sqlite")
    assert len(expected) == fields
    for file in (f"{rank}.nsys-rep", f"{rank}.blobs.sqlite"):
        payloads = lanescope.open(DATA / file).nvtx_payloads()
        assert list(payloads.columns) == COLUMNS
        assert payloads["start_ns"].is_monotonic_increasing
        pd.testing.assert_frame_equal(by_start_and_field(payloads), expected)


def test_the_frame_is_the_sql_table_joined_to_its_events():
    report = lanescope.open(DATA / "ddp_rank0.nsys-rep")
    joined = report.sql("SELECT e.start AS start_ns, e.end AS end_ns, coalesce(e.text, s.value) AS name, v.field, "
                        "v.value FROM NVTX_PAYLOAD_VALUES v JOIN NVTX_EVENTS e ON e.rowid = v.event "
                        "LEFT JOIN StringIds s ON s.id = e.textId")
    pd.testing.assert_frame_equal(by_start_and_field(report.nvtx_payloads()), by_start_and_field(joined))
    sizes = report.nvtx_payloads().query("field == 'Message size [bytes]'")
    assert sizes.groupby("name")["value"].apply(lambda v: v.astype(int).sum()).to_dict() == \
        {"ncclAllReduce": 55837152, "ncclBroadcast": 6240}


def test_an_export_without_blobs_has_none_and_marks_end_where_they_start():
    empty = lanescope.open(DATA / "ddp_rank0.sqlite").nvtx_payloads()
    assert list(empty.columns) == COLUMNS and len(empty) == 0
    marks = lanescope.open(DATA / "cpu_1gpu.nsys-rep").nvtx_payloads()
    assert (marks["start_ns"] == marks["end_ns"]).all()
    first = marks[marks["field"] == "Frames[0].Function"]
    assert len(first) == 1301
    assert set(marks.query("field == 'Thread state'")["value"]) <= {"Running", "Blocking Wait", "Uninterruptible"}
