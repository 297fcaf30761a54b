#!/usr/bin/env python3
"""Writes Parquet files with DuckDB (pip install duckdb), once, and the counts DuckDB gives for
random filters over them: the tests hold flt's counts to DuckDB's and never need Python. Run
from the repository's folder:

    python3 Scripts/make-duckdb-fixtures.py

The same 3,000 rows are written with each codec DuckDB writes (snappy, zstd, gzip, LZ4_RAW,
none) in row groups of 500 (so that statistics rule some out), with integers of several
widths, decimals of each physical form, doubles, text, booleans, dates, timestamps with and
without a time zone, a struct and a list. Each filter is written twice, in flt and in DuckDB's
SQL, from the same random choices; Tests/Fixtures/duckdb/counts.json holds each with the count
DuckDB gave. A folder of hive-style partitions (hive/year=.../color=.../*.parquet) comes with
counts of its own.
"""
import json
import os
import random

import duckdb

OUT = "Tests/Fixtures/duckdb"
os.makedirs(OUT, exist_ok=True)
ROWS = 3000

con = duckdb.connect()
con.execute("SET TimeZone = 'UTC'")
con.execute(f"""
CREATE TABLE phones AS
SELECT
  i AS id,
  CASE WHEN i % 11 = 7 THEN NULL ELSE (i * 37) % 900 + 99 END::INTEGER AS price,
  CASE WHEN i % 13 = 5 THEN NULL ELSE ((i * 7) % 200 - 100)::TINYINT END AS delta,
  ((i * 7919) % 65536)::USMALLINT AS code,
  CASE WHEN i % 9 = 4 THEN NULL ELSE ((i * 13) % 10000) / 100.0 END::DECIMAL(6, 2) AS cost,
  (((i * 104729) % 1000000) / 1000.0)::DECIMAL(15, 3) AS volume,
  ((i * 31) % 99991 / 10.0)::DECIMAL(30, 1) AS budget,
  CASE WHEN i % 17 = 3 THEN NULL ELSE 5.4 + (i % 7) * 0.2 END::DOUBLE AS screen,
  CASE WHEN i % 6 = 5 THEN NULL
       ELSE ['Midnight', 'Starlight', 'Space Black', 'Gold', 'Deep Purple', 'Rosé'][i % 6 + 1]
  END AS color,
  'iPhone ' || (12 + i % 5)::VARCHAR || CASE WHEN i % 3 = 0 THEN ' Pro' ELSE '' END AS model,
  CASE WHEN i % 19 = 2 THEN NULL ELSE i % 2 = 0 END AS in_stock,
  DATE '2020-01-01' + ((i * 97) % 1500)::INTEGER AS released,
  TIMESTAMP '2024-03-01 00:00:00' + INTERVAL (i * 3601) SECOND AS seen,
  (TIMESTAMPTZ '2022-01-01 00:00:00+00' + INTERVAL (i * 7919) MINUTE) AS sold,
  CASE WHEN i % 10 = 9 THEN NULL
       ELSE {{'mp': 12 + (i % 4) * 12, 'zoom': CASE WHEN i % 5 = 1 THEN NULL ELSE 1 + (i % 3) END}}
  END AS camera,
  CASE WHEN i % 8 = 3 THEN NULL
       ELSE list_slice(['5G', 'eSIM', 'MagSafe', 'USB-C', 'Pro'], 1 + i % 5, 1 + i % 5 + i % 3)
  END AS tags
FROM range({ROWS}) t(i)
""")

for codec in ["snappy", "zstd", "gzip", "lz4", "uncompressed"]:
    con.execute(f"COPY phones TO '{OUT}/phones-{codec}.parquet' "
                f"(FORMAT parquet, COMPRESSION {codec}, ROW_GROUP_SIZE 500)")

# A folder of files in hive-style partitions (year=2021/color=Gold/data_0.parquet), as DuckDB
# writes them: flt reads the folder as one input, the folders' names as fields.
HIVE = f"{OUT}/hive"
if os.path.exists(HIVE):
    import shutil
    shutil.rmtree(HIVE)
con.execute(f"COPY (SELECT id, price, model, in_stock, year(released) AS year, "
            f"coalesce(color, 'none') AS color FROM phones WHERE id < 600) TO '{HIVE}' "
            f"(FORMAT parquet, PARTITION_BY (year, color), COMPRESSION zstd)")
hive_cases = []
for flt_filter, sql in [
    ("year == 2022", "year = 2022"), ("year >= 2023 and price < 400", "year >= 2023 AND price < 400"),
    ('color == "Gold" or color == "Rosé"', "color = 'Gold' OR color = 'Rosé'"),
    ('color in (Midnight, "none") and year < 2021', "color IN ('Midnight', 'none') AND year < 2021"),
    ("not (year between 2021 and 2022)", "NOT (year BETWEEN 2021 AND 2022)"),
    ('model contains "Pro" and year != 2020', "contains(model, 'Pro') AND year <> 2020"),
    ('color ==[c] "gold"', "lower(color) = 'gold'"), ("id < 100", "id < 100"),
]:
    count = con.execute(f"SELECT count(*) FROM read_parquet('{HIVE}/**/*.parquet', "
                        f"hive_partitioning = true) WHERE {sql}").fetchone()[0]
    hive_cases.append({"filter": flt_filter, "sql": sql, "count": count})

rng = random.Random(2026)


def atom():
    """A random test, as (flt, SQL)."""
    kind = rng.choice(["int", "int", "decimal", "double", "text", "bool", "date", "time",
                       "null", "between", "in", "struct", "list", "len"])
    op = rng.choice(["<", "<=", ">", ">=", "==", "!="])
    sql_op = {"==": "=", "!=": "<>"}.get(op, op)
    if kind == "int":
        field, k = rng.choice([("price", rng.randint(80, 1010)), ("delta", rng.randint(-110, 110)),
                               ("code", rng.randint(0, 66000)), ("id", rng.randint(-5, 3005))])
        return f"{field} {op} {k}", f"{field} {sql_op} {k}"
    if kind == "decimal":
        field, k = rng.choice([("cost", f"{rng.randint(0, 10000) / 100:.2f}"),
                               ("volume", f"{rng.randint(0, 1000000) / 1000:.3f}"),
                               ("budget", f"{rng.randint(0, 10000) / 10:.1f}")])
        return f"{field} {op} {k}", f"{field} {sql_op} {k}"
    if kind == "double":
        k = rng.choice(["5.4", "5.8", "6", "6.2", "6.6"])
        return f"screen {op} {k}", f"screen {sql_op} {k}"
    if kind == "text":
        color = rng.choice(["Midnight", "Gold", "Rosé", "Space Black", "Red"])
        form = rng.choice(["eq", "ne", "contains", "starts"])
        if form == "eq":
            return f'color == "{color}"', f"color = '{color}'"
        if form == "ne":
            return f'color != "{color}"', f"color <> '{color}'"
        part = rng.choice(["Pro", "13", "iPhone 1", "e 14"])
        if form == "contains":
            return f'model contains "{part}"', f"contains(model, '{part}')"
        return f'model startsWith "{part}"', f"starts_with(model, '{part}')"
    if kind == "bool":
        return rng.choice([("in_stock", "in_stock"), ("not in_stock", "NOT in_stock")])
    if kind == "date":
        day = f"202{rng.randint(0, 4)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        return f"released {op} {day}", f"released {sql_op} DATE '{day}'"
    if kind == "time":
        day, hour = f"2024-0{rng.randint(3, 7)}-{rng.randint(1, 28):02d}", rng.randint(0, 23)
        if rng.random() < 0.5:
            return (f"seen {op} {day}T{hour:02d}:00:00Z",
                    f"seen {sql_op} TIMESTAMP '{day} {hour:02d}:00:00'")
        day = f"202{rng.randint(2, 4)}-0{rng.randint(1, 9)}-{rng.randint(1, 28):02d}"
        return (f"sold {op} {day}T{hour:02d}:30:00Z",
                f"sold {sql_op} TIMESTAMPTZ '{day} {hour:02d}:30:00+00'")
    if kind == "null":
        field = rng.choice(["price", "delta", "cost", "screen", "color", "in_stock", "camera",
                            "tags", "camera.zoom"])
        negated = rng.random() < 0.5
        return (f"{field} is {'not ' if negated else ''}null",
                f"{field} IS {'NOT ' if negated else ''}NULL")
    if kind == "between":
        low = rng.randint(80, 900)
        return (f"price between {low} and {low + 200}", f"price BETWEEN {low} AND {low + 200}")
    if kind == "in":
        values = rng.sample([99, 136, 173, 210, 500, 740, 997], 3)
        listed = ", ".join(map(str, values))
        return f"price in ({listed})", f"price IN ({listed})"
    if kind == "struct":
        field, k = rng.choice([("camera.mp", rng.choice([12, 24, 36, 48])),
                               ("camera.zoom", rng.randint(1, 3))])
        return f"{field} {op} {k}", f"camera.{field.split('.')[1]} {sql_op} {k}"
    if kind == "list":
        tag = rng.choice(["5G", "eSIM", "MagSafe", "USB-C", "Pro", "Lightning"])
        return f'tags contains "{tag}"', f"list_contains(tags, '{tag}')"
    k = rng.randint(0, 3)
    return f"len(tags) {op} {k}", f"len(tags) {sql_op} {k}"


def condition(depth=0):
    if depth >= 2 or rng.random() < 0.4:
        return atom()
    form = rng.choice(["and", "or", "not"])
    if form == "not":
        inner = condition(depth + 1)
        return f"not ({inner[0]})", f"NOT ({inner[1]})"
    left, right = condition(depth + 1), condition(depth + 1)
    word = form.upper()
    return f"({left[0]}) {form} ({right[0]})", f"({left[1]}) {word} ({right[1]})"


cases = []
seen = set()
while len(cases) < 150:
    flt, sql = condition()
    if flt in seen:
        continue
    seen.add(flt)
    count = con.execute(
        f"SELECT count(*) FROM '{OUT}/phones-snappy.parquet' WHERE {sql}").fetchone()[0]
    for codec in ["zstd", "gzip", "lz4", "uncompressed"]:
        other = con.execute(
            f"SELECT count(*) FROM '{OUT}/phones-{codec}.parquet' WHERE {sql}").fetchone()[0]
        assert other == count, (codec, sql)
    cases.append({"filter": flt, "sql": sql, "count": count})

with open(f"{OUT}/counts.json", "w") as out:
    json.dump({"duckdb": duckdb.__version__, "rows": ROWS, "cases": cases,
               "hive": hive_cases}, out, indent=1, ensure_ascii=False)
    out.write("\n")
print(f"{len(cases)} filters; matches from {min(c['count'] for c in cases)} "
      f"to {max(c['count'] for c in cases)}")
