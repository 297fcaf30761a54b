#!/usr/bin/env python3
"""Checks that DuckDB (pip install duckdb) reads the Parquet files flt writes with the rows flt
wrote: each file below is written with `flt -f parquet` (snappy, in row groups as flt makes
them), read back by DuckDB, and compared value by value with the same records as flt prints
them as JSON Lines (a field a record lacks is null in Parquet). Also checks that DuckDB's
statistics-based counts agree. Run from the repository's folder after `swift build`:

    python3 Scripts/check-parquet-with-duckdb.py [FLT]
"""
import datetime as dt
import json
import math
import os
import subprocess
import sys
import tempfile

import duckdb

FLT = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/flt"
FILES = [
    "examples/phones.json", "examples/cards.json", "Tests/Fixtures/parquet/nested.jsonl",
    "Tests/Fixtures/parquet/types.jsonl", "Tests/Fixtures/parquet/phones-snappy.jsonl",
    "Tests/Fixtures/parquet/sorted.jsonl", "Tests/Fixtures/parquet/times.jsonl",
]


def normal(value):
    """A value as flt's JSON Lines write it."""
    if isinstance(value, dict):
        return {k: normal(v) for k, v in value.items()}
    if isinstance(value, list):
        return [normal(v) for v in value]
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(dt.timezone.utc).replace(tzinfo=None)
        text = value.strftime("%Y-%m-%dT%H:%M:%S")
        if value.microsecond:
            text += "." + f"{value.microsecond:06d}".rstrip("0")
        return text + "Z"
    if isinstance(value, (dt.date, dt.time)):
        # (A time as times.jsonl spells it: Python's own ISO form.)
        return value.isoformat()
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return str(value)
    return value


def same(a, b):
    if isinstance(a, dict) and isinstance(b, dict):
        return all(same(a.get(k), b.get(k)) for k in set(a) | set(b))
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return a == b or abs(a - b) <= 1e-9 * max(abs(a), abs(b))
    return a == b


failures = 0
con = duckdb.connect()
con.execute("SET TimeZone = 'UTC'")
with tempfile.TemporaryDirectory() as folder:
    for source in FILES:
        target = os.path.join(folder, os.path.basename(source) + ".parquet")
        subprocess.run([FLT, "-f", "parquet", "-o", target, "true", source], check=True)
        wanted = [json.loads(line) for line in subprocess.run(
            [FLT, "-f", "jsonl", "true", source], check=True, capture_output=True,
            text=True).stdout.splitlines()]
        cursor = con.execute(f"SELECT * FROM '{target}'")
        names = [d[0] for d in cursor.description]
        got = [dict(zip(names, map(normal, row))) for row in cursor.fetchall()]
        bad = [i for i, (a, b) in enumerate(zip(got, wanted)) if not same(a, b)]
        if len(got) != len(wanted) or bad:
            failures += 1
            print(f"{source}: {len(got)} rows read by DuckDB, {len(wanted)} written; "
                  f"first difference at row {bad[:1]}")
            if bad:
                print("  duckdb:", got[bad[0]])
                print("  flt:   ", wanted[bad[0]])
        else:
            print(f"{source}: {len(got)} rows, every value as flt wrote it")
    # DuckDB prunes with the statistics flt writes: counts stay right.
    target = os.path.join(folder, "sorted.jsonl.parquet")
    for where, flt_filter in [("id < 75", "id < 75"), ("released >= DATE '2021-06-01'",
                                                       "released >= 2021-06-01")]:
        count = con.execute(f"SELECT count(*) FROM '{target}' WHERE {where}").fetchone()[0]
        mine = int(subprocess.run([FLT, "-c", flt_filter, target], check=True,
                                  capture_output=True, text=True).stdout)
        print(f"count {where}: DuckDB {count}, flt {mine}")
        failures += count != mine
sys.exit(1 if failures else 0)
