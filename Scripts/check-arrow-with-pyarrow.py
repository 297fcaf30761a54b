#!/usr/bin/env python3
"""Arrow files and streams flt writes (`-f arrow`, `-f arrows`), read by pyarrow and Polars:
every value of every row equal to what pyarrow reads from the source flt was given (a Parquet
fixture pyarrow wrote), and to what flt prints of the source as JSON Lines for JSON input.
Run from the repository's folder, with pyarrow and polars installed (pip install pyarrow
polars) and flt built:

    python3 Scripts/check-arrow-with-pyarrow.py [.build/debug/flt]

CI runs it (`.ci/run`, in a virtual environment of its own). Exits 1 at the first difference.
"""
import datetime as dt
import decimal
import json
import os
import subprocess
import sys
import tempfile

import polars as pl
import pyarrow as pa
import pyarrow.ipc as ipc
import pyarrow.parquet as pq

FLT = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/flt"
PARQUET = "Tests/Fixtures/parquet"


def flt(*arguments, output=None):
    run = subprocess.run([FLT, *arguments], capture_output=True)
    if run.returncode != 0:
        sys.exit(f"flt {' '.join(arguments)} failed: {run.stderr.decode()}")
    if output:
        with open(output, "wb") as out:
            out.write(run.stdout)
    return run


def plain(value):
    """A value as both sides can be compared: decimals by their digits (flt writes exact
    decimals as text), date-times in UTC without a zone, a map's entries as key-value
    records."""
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(dt.timezone.utc).replace(tzinfo=None)
        return value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [{"key": plain(v[0]), "value": plain(v[1])} if isinstance(v, tuple) else plain(v)
                for v in value]
    return value


def compare(name, got, wanted):
    if len(got) != len(wanted):
        sys.exit(f"{name}: {len(got)} rows where the source has {len(wanted)}")
    for row, (a, b) in enumerate(zip(got, wanted)):
        if plain(a) != plain(b):
            sys.exit(f"{name} row {row}:\n  {plain(a)}\nwhere the source has\n  {plain(b)}")


checked = 0
with tempfile.TemporaryDirectory() as folder:
    for fixture in ["phones-plain", "types", "times", "nested", "nested-legacy", "small"]:
        source = f"{PARQUET}/{fixture}.parquet"
        wanted = pq.read_table(source).to_pylist()
        for format, opener in [("arrow", ipc.open_file), ("arrows", ipc.open_stream)]:
            path = os.path.join(folder, f"{fixture}.{format}")
            flt("-f", format, "-o", path, "true", source)
            table = opener(path).read_all()
            compare(f"{fixture}.{format} (pyarrow)", table.to_pylist(), wanted)
            frame = pl.read_ipc(path) if format == "arrow" else pl.read_ipc_stream(path)
            if not frame.equals(pl.from_arrow(table)):
                sys.exit(f"{fixture}.{format}: Polars reads otherwise than pyarrow")
            checked += 1
    # JSON input: what pyarrow reads of flt's Arrow is what flt prints as JSON Lines.
    path = os.path.join(folder, "phones.arrow")
    flt("-f", "arrow", "-o", path, "true", "examples/phones.json")
    printed = [json.loads(line) for line in flt("-f", "jsonl", "true", "examples/phones.json")
               .stdout.decode().splitlines()]
    got = ipc.open_file(path).read_all().to_pylist()

    def present(value):
        """Arrow has no missing field: a key JSON leaves out is null there."""
        if isinstance(value, dict):
            return {k: present(v) for k, v in value.items() if v is not None}
        if isinstance(value, list):
            return [present(v) for v in value]
        return value

    compare("phones.json as Arrow", [present(row) for row in got], printed)
    checked += 1
print(f"pyarrow and Polars read {checked} files flt wrote, value by value")
