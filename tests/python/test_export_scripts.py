"""Small scripts that read an nsys SQLite export the ways real tools written for nsys's export read
it, run on nsys 2025.3's export of each capture of tests/data and on Lanescope's export of the
same `.nsys-rep`: each must print the same on both."""

import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

from test_export_equals_nsys import ALLOWED

HERE = Path(__file__).resolve().parent
DATA = Path(os.environ.get("LANESCOPE_TEST_DATA", HERE.parent / "data"))
CLI = os.environ.get("LANESCOPE_CLI", str(HERE.parents[1] / "build" / "release" / "app" / "lanescope-cli"))


def _has(db, table):
    return db.execute("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?", (table,)).fetchone()[0]


def names_through_text_id(db):
    """A converter that names NVTX ranges only through textId -> StringIds (registered strings)."""
    if not _has(db, "NVTX_EVENTS"):
        return []
    return db.execute("SELECT n.start, n.eventType, s.value FROM NVTX_EVENTS n JOIN StringIds s ON s.id = n.textId "
                      "ORDER BY n.start, n.rowid").fetchall()


def names_through_text(db):
    """A summary tool that reads only the text column (inline strings)."""
    if not _has(db, "NVTX_EVENTS"):
        return []
    return db.execute("SELECT text, count(*), sum(end - start) FROM NVTX_EVENTS WHERE text IS NOT NULL "
                      "GROUP BY text ORDER BY text").fetchall()


def nvtx_rows_by_type(db):
    """Counts NVTX rows per event type, as a per-domain report walks them all (naming rows too)."""
    if not _has(db, "NVTX_EVENTS"):
        return []
    return db.execute("SELECT eventType, count(*), count(DISTINCT domainId) FROM NVTX_EVENTS GROUP BY eventType "
                      "ORDER BY eventType").fetchall()


def enums_by_name(db):
    """Labels of memcpy kinds and sync types through the ENUM tables, joined by name."""
    rows = []
    if _has(db, "CUPTI_ACTIVITY_KIND_MEMCPY"):
        rows += db.execute("SELECT e.name, e.label, count(*), sum(m.bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY m "
                           "JOIN ENUM_CUDA_MEMCPY_OPER e ON e.id = m.copyKind GROUP BY e.id ORDER BY e.id").fetchall()
    if _has(db, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"):
        rows += db.execute("SELECT e.label, count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION s "
                           "JOIN ENUM_CUPTI_SYNC_TYPE e ON e.id = s.syncType GROUP BY e.id ORDER BY e.id").fetchall()
    rows += db.execute("SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'ENUM%' "
                       "ORDER BY name").fetchall()
    return rows


def threads_from_global_tid(db):
    """Process and thread ids decoded from globalTid, named through ThreadNames and PROCESSES."""
    return db.execute("SELECT (t.globalTid >> 24) & 0xFFFFFF AS pid, t.globalTid & 0xFFFFFF AS tid, s.value, p.name "
                      "FROM ThreadNames t JOIN StringIds s ON s.id = t.nameId "
                      "LEFT JOIN PROCESSES p ON p.globalPid = (t.globalTid >> 24) << 24 "
                      "ORDER BY pid, tid, s.value").fetchall()


def schema_listing(db):
    """The tables and their columns, as a tool listing the schema sees them (but for the tables
    Lanescope does not write yet, test_export_equals_nsys.ALLOWED)."""
    listing = []
    for (table,) in db.execute("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").fetchall():
        if (table, None, "missing-table") not in ALLOWED:
            listing.append((table, [tuple(r[1:3]) for r in db.execute(f"PRAGMA table_info('{table}')")]))
    return listing


def kernels_per_nvtx_range(db):
    """A per-NVTX kernel report: the kernels launched inside each push/pop range, by range name."""
    if not (_has(db, "NVTX_EVENTS") and _has(db, "CUPTI_ACTIVITY_KIND_KERNEL")):
        return []
    return db.execute(
        "SELECT coalesce(n.text, ns.value) AS range, ks.value AS kernel, count(*), sum(k.end - k.start) "
        "FROM NVTX_EVENTS n LEFT JOIN StringIds ns ON ns.id = n.textId "
        "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.globalTid = n.globalTid AND r.start >= n.start AND r.end <= n.end "
        "JOIN CUPTI_ACTIVITY_KIND_KERNEL k ON k.correlationId = r.correlationId "
        "AND (k.globalPid >> 24) = (r.globalTid >> 24) "
        "JOIN StringIds ks ON ks.id = k.shortName WHERE n.eventType = 59 "
        "GROUP BY range, kernel ORDER BY range, kernel").fetchall()


SCRIPTS = [names_through_text_id, names_through_text, nvtx_rows_by_type, enums_by_name, threads_from_global_tid,
           schema_listing, kernels_per_nvtx_range]
REPORTS = ["train_1gpu", "cpu_1gpu", "cuda_graphs", "ddp_rank0", "nccl_payloads", "occupancy", "unified_memory"]


@pytest.fixture(scope="module")
def exports(tmp_path_factory):
    made = {}
    for name in REPORTS:
        out = tmp_path_factory.mktemp("export") / f"{name}.sqlite"
        subprocess.run([CLI, "export", str(DATA / "nsys-2025.3" / f"{name}.nsys-rep"), "--to", "sqlite", "--out",
                        str(out)], check=True, capture_output=True)
        made[name] = out
    return made


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda s: s.__name__)
@pytest.mark.parametrize("name", REPORTS)
def test_a_script_prints_the_same_on_both_exports(name, script, exports):
    blobs = DATA / "nsys-2025.3" / f"{name}.blobs.sqlite"
    nsys = blobs if blobs.exists() else DATA / "nsys-2025.3" / f"{name}.sqlite"
    on_nsys = script(sqlite3.connect(f"file:{nsys}?immutable=1", uri=True))
    on_ours = script(sqlite3.connect(f"file:{exports[name]}?immutable=1", uri=True))
    assert on_ours == on_nsys
