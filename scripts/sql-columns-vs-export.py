#!/usr/bin/env python3
"""Compares Lanescope's SQL tables with an Nsight Systems export, column by column.

usage: PYTHONPATH=build/release/app/python /usr/bin/python3 scripts/sql-columns-vs-export.py REPORT EXPORT.sqlite

For every non-empty table of the export: whether Lanescope has it, its row count, and each column's
values as a sorted multiset (a column that REFERENCES StringIds compared by its text, since string
ids are numbered differently). Prints one line per difference; docs/sql.md says which are expected
(columns the model does not keep, NULL in Lanescope; ids numbered differently).
"""
import collections
import re
import sqlite3
import sys

import lanescope


def string_id_columns(db, table):
    sql = db.execute("SELECT sql FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0] or ""
    return {m.group(1) for m in (re.match(r"\s*(\w+)\s+\w+.*REFERENCES StringIds\(id\)", l) for l in sql.splitlines()) if m}


def normalized(value):
    if value is None or (isinstance(value, float) and value != value) or str(value) == "<NA>":
        return "NULL"
    if isinstance(value, float) and value.is_integer():
        return repr(int(value))
    return repr(value)


def main(report_path, export_path):
    db = sqlite3.connect(f"file:{export_path}?mode=ro", uri=True)
    report = lanescope.open(report_path)
    tables = [t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    differences = 0
    for table in tables:
        rows = db.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
        if rows == 0:
            continue
        try:
            ours = list(report.sql(f'SELECT * FROM "{table}" LIMIT 1').columns)
        except Exception as e:  # no such table
            print(f"{table}: not in Lanescope ({rows} rows): {e}")
            differences += 1
            continue
        columns = [c[1] for c in db.execute(f'PRAGMA table_info("{table}")')]
        absent = [c for c in columns if c not in ours]
        if absent:
            print(f"{table}: columns not in Lanescope: {absent}")
            differences += 1
        our_rows = int(report.sql(f'SELECT count(*) AS n FROM "{table}"')["n"][0])
        if our_rows != rows:
            print(f"{table}: {our_rows} rows in Lanescope, {rows} in the export")
            differences += 1
        strings = string_id_columns(db, table)
        for column in columns:
            if column in absent:
                continue
            if column in strings:
                q = f'SELECT s.value AS v FROM "{table}" x LEFT JOIN StringIds s ON s.id = x."{column}"'
            else:
                q = f'SELECT x."{column}" AS v FROM "{table}" x'
            theirs = collections.Counter(normalized(v) for (v,) in db.execute(q))
            mine = collections.Counter(normalized(v) for v in report.sql(q)["v"].tolist())
            if theirs != mine:
                only_theirs, only_mine = theirs - mine, mine - theirs
                print(f"{table}.{column}: {sum(only_theirs.values())} values only in the export "
                      f"(e.g. {list(only_theirs.items())[:2]}), {sum(only_mine.values())} only in Lanescope "
                      f"(e.g. {list(only_mine.items())[:2]})")
                differences += 1
    print(f"{differences} differences")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
