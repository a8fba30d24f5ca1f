"""lanescope-cli info lists Nsight Systems' messages in time order, whatever the order of the
export's DIAGNOSTIC_EVENT rows (nsys 2025.6 says they may come in any order)."""

import json
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = Path(os.environ.get("LANESCOPE_TEST_DATA", HERE.parent / "data"))
CLI = os.environ.get("LANESCOPE_CLI", str(HERE.parents[1] / "build" / "release" / "app" / "lanescope-cli"))


def test_messages_of_an_export_in_reverse_order_are_listed_by_time(tmp_path):
    shuffled = tmp_path / "reversed.sqlite"
    shutil.copy(DATA / "nsys-2025.3" / "cuda_graphs.sqlite", shuffled)
    db = sqlite3.connect(shuffled)
    db.executescript("CREATE TABLE d AS SELECT * FROM DIAGNOSTIC_EVENT ORDER BY timestamp DESC, rowid DESC;"
                     "DELETE FROM DIAGNOSTIC_EVENT; INSERT INTO DIAGNOSTIC_EVENT SELECT * FROM d; DROP TABLE d;")
    db.commit()
    first = db.execute("SELECT timestamp FROM DIAGNOSTIC_EVENT ORDER BY rowid LIMIT 1").fetchone()[0]
    assert first == db.execute("SELECT max(timestamp) FROM DIAGNOSTIC_EVENT").fetchone()[0]
    db.close()
    info = json.loads(subprocess.run([CLI, "info", str(shuffled), "--format", "json"], capture_output=True,
                                     text=True, check=True).stdout)
    times = [m["time_ns"] for m in info["nsys_messages"]]
    assert len(times) == 19
    assert times == sorted(times)
    table = subprocess.run([CLI, "info", str(shuffled)], capture_output=True, text=True, check=True).stdout
    listed = [int(line.split()[0]) for line in table.split("Nsight Systems messages")[1].splitlines()
              if line.strip() and line.split()[0].lstrip("-").isdigit()]
    assert listed == sorted(listed) and len(listed) == 19
