"""Table-by-table differences between Nsight Systems' SQLite export of a report and Lanescope's
export of the same report (docs/sql.md, "The export").

Run as a script to see them:  python3 nsys_export_diff.py NSYS.sqlite LANESCOPE.sqlite
Used by test_export_equals_nsys.py, which allows only the differences of ALLOWED.

A difference is (table, column or None, kind, detail); kinds:
  missing-table, extra-table   a table only in nsys's export, or only in Lanescope's
  columns                      the column names or their order differ
  declaration                  a column's declared type, NOT NULL or PRIMARY KEY differs
  row-count                    the tables hold different numbers of rows
  values                       a column holds other values (compared as sorted lists)
  order                        the same rows (each column's values equal as lists) in another order
"""

import sqlite3
import sys
from collections import namedtuple

Difference = namedtuple("Difference", "table column kind detail")


def _tables(db):
    return sorted(r[0] for r in db.execute("SELECT name FROM sqlite_schema WHERE type = 'table'"))


def _declaration(db, table):
    # (name, declared type, not null, primary key) of each column, in order.
    return [(r[1], r[2], r[3], r[5]) for r in db.execute(f"PRAGMA table_info('{table}')")]


def _rows(db, table):
    return db.execute(f"SELECT * FROM '{table}' ORDER BY rowid").fetchall()


def _sortable(value):
    # Sorts values of mixed types (NULL, integers, reals, text, blobs) in one list.
    return (type(value).__name__, value if value is not None else 0)


def table_differences(nsys, ours, table):
    """The differences of one table present in both databases."""
    found = []
    left, right = _declaration(nsys, table), _declaration(ours, table)
    if [c[0] for c in left] != [c[0] for c in right]:
        only_nsys = [c[0] for c in left if c[0] not in [d[0] for d in right]]
        only_ours = [c[0] for c in right if c[0] not in [d[0] for d in left]]
        return [Difference(table, None, "columns", f"only nsys {only_nsys}, only Lanescope {only_ours}")]
    for a, b in zip(left, right):
        if a != b:
            found.append(Difference(table, a[0], "declaration", f"nsys {a[1:]} Lanescope {b[1:]}"))
    rows_nsys, rows_ours = _rows(nsys, table), _rows(ours, table)
    if len(rows_nsys) != len(rows_ours):
        return found + [Difference(table, None, "row-count", f"nsys {len(rows_nsys)}, Lanescope {len(rows_ours)}")]
    if rows_nsys == rows_ours:
        return found
    differing = []
    for i, (name, *_rest) in enumerate(left):
        a = [r[i] for r in rows_nsys]
        b = [r[i] for r in rows_ours]
        if a != b and sorted(a, key=_sortable) != sorted(b, key=_sortable):
            first = next(k for k, (x, y) in enumerate(zip(sorted(a, key=_sortable), sorted(b, key=_sortable))) if x != y)
            differing.append(Difference(table, name, "values",
                                        f"sorted value {first}: nsys {sorted(a, key=_sortable)[first]!r:.60}, "
                                        f"Lanescope {sorted(b, key=_sortable)[first]!r:.60}"))
    if differing:
        return found + differing
    first = next(k for k, (x, y) in enumerate(zip(rows_nsys, rows_ours)) if x != y)
    return found + [Difference(table, None, "order", f"row {first}: nsys {rows_nsys[first]!r:.80}, "
                                                     f"Lanescope {rows_ours[first]!r:.80}")]


def differences(nsys_path, ours_path):
    """Every difference between two exports."""
    nsys = sqlite3.connect(f"file:{nsys_path}?immutable=1", uri=True)
    ours = sqlite3.connect(f"file:{ours_path}?immutable=1", uri=True)
    left, right = set(_tables(nsys)), set(_tables(ours))
    found = [Difference(t, None, "missing-table", "") for t in sorted(left - right)]
    found += [Difference(t, None, "extra-table", "") for t in sorted(right - left)]
    for table in sorted(left & right):
        found += table_differences(nsys, ours, table)
    return found


if __name__ == "__main__":
    for d in differences(sys.argv[1], sys.argv[2]):
        print(f"{d.table:40} {d.column or '':20} {d.kind:13} {d.detail}")
