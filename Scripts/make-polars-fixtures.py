#!/usr/bin/env python3
"""Writes the Parquet files Polars writes (arrow-rs underneath), once (pip install polars), and
beside each the same rows as JSON Lines: the tests compare the two and never need Python. Run
from the repository's folder:

    python3 Scripts/make-polars-fixtures.py

Polars' defaults differ from pyarrow's and DuckDB's: zstd, and a one-value dictionary's
indices at bit width 0 (a bit-packed run that takes no byte). So: columns of every type that
are sparse (one value in a thousand rows), hold one value, or none; and a zstd file whose
pages are full of matches (sequential ids, prices of two decimals), as an order table is.
"""
import datetime as dt
import json
import os

import polars as pl

OUT = "Tests/Fixtures/polars"
os.makedirs(OUT, exist_ok=True)


def jsonable(value):
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    return value


def write(name, frame, **options):
    frame.write_parquet(f"{OUT}/{name}.parquet", **options)
    with open(f"{OUT}/{name}.jsonl", "w") as out:
        for row in frame.iter_rows(named=True):
            out.write(json.dumps({k: jsonable(v) for k, v in row.items()}) + "\n")


TYPES = {
    "i64": (pl.Int64, 5),
    "i32": (pl.Int32, -7),
    "f64": (pl.Float64, 2.5),
    "text": (pl.Utf8, "Space Black"),
    "flag": (pl.Boolean, True),
    "day": (pl.Date, dt.date(2024, 2, 29)),
    "at": (pl.Datetime("us", "UTC"), dt.datetime(2024, 2, 29, 12, 30, tzinfo=dt.timezone.utc)),
}


def frame(pattern):
    return pl.DataFrame({
        name: pl.Series(name, [pattern(i, value) for i in range(1000)], dtype=dtype)
        for name, (dtype, value) in TYPES.items()
    })


write("sparse", frame(lambda i, value: value if i == 999 else None))
write("one-value", frame(lambda i, value: value))
write("all-null", frame(lambda i, value: None))
orders = pl.DataFrame({
    "order_id": pl.Series(range(5000), dtype=pl.Int64),
    "amount": [round((i * 7919) % 10000 / 100, 2) for i in range(5000)],
    "qty": pl.Series([1 + i % 9 for i in range(5000)], dtype=pl.Int64),
})
write("orders-zstd", orders, row_group_size=2048)
