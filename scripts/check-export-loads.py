#!/usr/bin/env python3
"""Loads a `sleeve export` CSV and NDJSON file with every engine installed here (DuckDB,
ClickHouse through chdb, pandas), using the one-line loads docs/guide/sharing.md shows, and checks that each
engine reads the same rows: count, failed count and total duration per file.

Usage: scripts/check-export-loads.py sleeve.csv sleeve.ndjson
Needs all three (scripts/requirements-test.txt). Exits 1 when an engine is missing, when one
fails to load a file, or when they disagree.
"""
import importlib.util
import sys


def duckdb_summary(path):
    import duckdb
    return duckdb.sql(
        f"SELECT count(*), count(*) FILTER (WHERE status = 'failed'), sum(duration_ns) FROM '{path}'"
    ).fetchall()[0]


def clickhouse_summary(path):
    import chdb
    text = str(chdb.query(
        f"SELECT count(), countIf(status = 'failed'), sum(duration_ns) FROM file('{path}')", "CSV"))
    return tuple(int(value) for value in text.strip().split(","))


def pandas_summary(path):
    import pandas
    frame = pandas.read_csv(path) if path.endswith(".csv") else pandas.read_json(path, lines=True)
    return (len(frame), int((frame.status == "failed").sum()), int(frame.duration_ns.sum()))


ENGINES = [("duckdb", duckdb_summary), ("chdb", clickhouse_summary), ("pandas", pandas_summary)]


def main(paths):
    results = {}
    missing = [module for module, _ in ENGINES if importlib.util.find_spec(module) is None]
    if missing:
        print(f"missing engines: {', '.join(missing)} (pip install -r scripts/requirements-test.txt)",
              file=sys.stderr)
        return 1
    for module, summary in ENGINES:
        for path in paths:
            results[(module, path)] = tuple(int(value) for value in summary(path))
            print(f"{module:7} {path}: rows, failed, total duration = {results[(module, path)]}")
    if len(set(results.values())) != 1:
        print("engines disagree", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
