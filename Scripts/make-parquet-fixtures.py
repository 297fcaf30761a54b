#!/usr/bin/env python3
"""Writes the small Parquet files the tests read, once, with pyarrow (pip install pyarrow),
and beside each the same rows as JSON Lines, as flt reads them: the tests compare the two and
never need Python. Run from the repository's folder:

    python3 Scripts/make-parquet-fixtures.py

Each file covers a part of the format: codecs (none, snappy, gzip, zstd, LZ4), data pages v1
and v2, dictionary and plain encodings, nulls, several row groups, nested columns, and the
types flt maps (integers of every width and sign, floats, decimals, text, booleans, dates,
timestamps).
"""
import datetime as dt
import decimal
import json
import math
import os

import pyarrow as pa
import pyarrow.parquet as pq

OUT = "Tests/Fixtures/parquet"
os.makedirs(OUT, exist_ok=True)

COLORS = ["Midnight", "Starlight", "Space Black", "Gold", None, "Deep Purple"]


def phones(n):
    rows = []
    for i in range(n):
        rows.append({
            "id": i,
            "model": f"iPhone {12 + i % 5}" + (" Pro" if i % 3 == 0 else ""),
            "price": None if i % 11 == 7 else 499 + (i * 37) % 900,
            "screen": None if i % 13 == 5 else round(5.4 + (i % 7) * 0.2, 1),
            "color": COLORS[i % len(COLORS)],
            "inStock": None if i % 17 == 3 else i % 2 == 0,
            "released": dt.date(2020, 1, 1) + dt.timedelta(days=(i * 97) % 1500),
        })
    return rows


def schema():
    return pa.schema([
        ("id", pa.int64()), ("model", pa.string()), ("price", pa.int32()),
        ("screen", pa.float64()), ("color", pa.string()), ("inStock", pa.bool_()),
        ("released", pa.date32()),
    ])


def jsonable(value):
    if isinstance(value, dt.datetime):
        text = value.strftime("%Y-%m-%dT%H:%M:%S")
        if value.microsecond:
            text += "." + f"{value.microsecond:06d}".rstrip("0")
        return text + "Z"
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        # A map's entries come as (key, value) pairs: flt reads them as key-value records.
        return [{"key": jsonable(v[0]), "value": jsonable(v[1])} if isinstance(v, tuple)
                else jsonable(v) for v in value]
    return value


def write(name, table, **options):
    pq.write_table(table, f"{OUT}/{name}.parquet", **options)
    with open(f"{OUT}/{name}.jsonl", "w") as out:
        for row in table.to_pylist():
            out.write(json.dumps({k: jsonable(v) for k, v in row.items()}, ensure_ascii=False) + "\n")


table = pa.Table.from_pylist(phones(300), schema=schema())
write("phones-snappy", table, compression="snappy", row_group_size=128)
write("phones-gzip-v2", table, compression="gzip", data_page_version="2.0", row_group_size=100)
write("phones-plain", table, compression="none", use_dictionary=False, row_group_size=1000)
write("phones-v2-plain", table, compression="snappy", use_dictionary=False,
      data_page_version="2.0", data_page_size=512)

# Every width and sign of integer, floats, decimals, timestamps of each unit, and text that is
# not ASCII: the logical types flt maps.
n = 40
types = pa.table({
    "i8": pa.array([(-1) ** i * (i * 3) % 128 for i in range(n)], pa.int8()),
    "u8": pa.array([(i * 7) % 256 for i in range(n)], pa.uint8()),
    "i16": pa.array([(-1) ** i * i * 800 for i in range(n)], pa.int16()),
    "u16": pa.array([i * 1600 for i in range(n)], pa.uint16()),
    "u32": pa.array([i * 100_000_000 for i in range(n)], pa.uint32()),
    "u64": pa.array([i * 10 ** 17 for i in range(n)], pa.uint64()),
    "f32": pa.array([i / 4 for i in range(n)], pa.float32()),
    "d9": pa.array([decimal.Decimal(i * 125) / 100 for i in range(n)], pa.decimal128(9, 2)),
    "d18": pa.array([decimal.Decimal(-i * 12345) / 1000 for i in range(n)], pa.decimal128(18, 3)),
    "d30": pa.array([decimal.Decimal(i) / 10 for i in range(n)], pa.decimal128(30, 1)),
    "ms": pa.array([dt.datetime(2024, 3, 1) + dt.timedelta(seconds=i * 3601, milliseconds=i * 7)
                    for i in range(n)], pa.timestamp("ms")),
    "us": pa.array([dt.datetime(2021, 12, 31, 23) + dt.timedelta(minutes=i * 61, microseconds=i)
                    for i in range(n)], pa.timestamp("us", tz="UTC")),
    "text": pa.array(["é" * (i % 3) + f"ünï {i}" if i % 5 else None for i in range(n)], pa.string()),
})
write("types", types, compression="snappy")

# The rarer types: timestamps in nanoseconds, half floats, UUIDs, JSON; Spark's INT96 times.
import uuid
def ns_text(ns):
    seconds, fraction = divmod(ns, 10 ** 9)
    text = dt.datetime.fromtimestamp(seconds, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
    return text + ("." + f"{fraction:09d}".rstrip("0") if fraction else "") + "Z"
nanos = [1_704_110_400 * 10 ** 9 + i * 1_000_001_007 for i in range(8)]
halves = [0.5, 1.25, -2.0, None, 65504.0, 0.0999755859375, -0.0, 3.0]
uuids = [uuid.UUID(int=(i * 0x9E3779B97F4A7C15) % (1 << 128)) for i in range(8)]
docs = [json.dumps({"n": i, "tags": ["a"] * (i % 3)}) if i % 4 else None for i in range(8)]
rare = pa.table({
    "ns": pa.array(nanos, pa.int64()).cast(pa.timestamp("ns", tz="UTC")),
    "half": pa.array(halves, pa.float32()).cast(pa.float16()),
    "id": pa.array([u.bytes for u in uuids], pa.uuid()),
    "doc": pa.array(docs, pa.json_()),
})
pq.write_table(rare, f"{OUT}/rare-types.parquet")
with open(f"{OUT}/rare-types.jsonl", "w") as out:
    for i in range(8):
        out.write(json.dumps({"ns": ns_text(nanos[i]), "half": halves[i], "id": str(uuids[i]),
                              "doc": docs[i]}) + "\n")
spark = pa.table({"old": pa.array(
    [dt.datetime(2021, 3, 4, 5, 6, 7) + dt.timedelta(days=i * 400, microseconds=i * 1001)
     for i in range(8)], pa.timestamp("us"))})
write("int96", spark, use_deprecated_int96_timestamps=True)

# zstd (Polars' default), small; LZ4_RAW; Brotli, which flt refuses by name.
write("zstd", table.slice(0, 20), compression="zstd")
write("lz4", table.slice(0, 20), compression="lz4")
pq.write_table(table.slice(0, 5), f"{OUT}/brotli.parquet", compression="brotli")


# Nested columns: structs (null, with null fields), lists (null, empty, null elements), lists of
# lists, lists of structs, maps, and a struct of a struct of a list of structs.
def nested_rows(n):
    rows = []
    for i in range(n):
        rows.append({
            "id": i,
            "camera": None if i % 7 == 3 else {
                "mp": None if i % 5 == 1 else 12 + i % 4 * 12, "zoom": round(1 + i % 3 * 1.5, 1)},
            "tags": None if i % 6 == 2 else [] if i % 6 == 4 else
                    [["5G", "eSIM", None, "MagSafe", "Pro"][(i + k) % 5] for k in range(i % 4 + 1)],
            "sizes": [128 * 2 ** k for k in range(i % 3)],
            "grid": None if i % 9 == 0 else [[i + k + m for m in range(k % 3)] for k in range(i % 3 + 1)],
            "stores": [{"name": ["Berlin", "Paris", None][(i + k) % 3],
                        "stock": None if (i + k) % 4 == 0 else (i * 7 + k) % 50}
                       for k in range(i % 3)],
            "specs": None if i % 8 == 5 else [("ram", 4 + i % 3 * 2), ("storage", 128 * (1 + i % 4))][: i % 3],
            "deep": {"a": None if i % 4 == 0 else {"b": [{"c": f"c{i}-{k}" if k != 1 else None}
                                                       for k in range(i % 3)]}},
        })
    return rows


nested_schema = pa.schema([
    ("id", pa.int64()),
    ("camera", pa.struct([("mp", pa.int32()), ("zoom", pa.float64())])),
    ("tags", pa.list_(pa.string())),
    ("sizes", pa.list_(pa.field("size", pa.int64(), nullable=False))),
    ("grid", pa.list_(pa.list_(pa.int32()))),
    ("stores", pa.list_(pa.struct([("name", pa.string()), ("stock", pa.int32())]))),
    ("specs", pa.map_(pa.string(), pa.int32())),
    ("deep", pa.struct([("a", pa.struct([("b", pa.list_(pa.struct([("c", pa.string())])))]))])),
])
nested = pa.Table.from_pylist(nested_rows(200), schema=nested_schema)
write("nested", nested, compression="snappy", row_group_size=64)
write("nested-v2", nested, compression="zstd", data_page_version="2.0", data_page_size=300,
      use_dictionary=False)
# Structs 70 deep: more than the 64 levels flt reads.
deep_type, deep_value = pa.int32(), 1
for level in range(70):
    deep_type, deep_value = pa.struct([("x", deep_type)]), {"x": deep_value}
pq.write_table(pa.table({"deep": pa.array([deep_value], deep_type)}), f"{OUT}/too-deep.parquet")
# The older layout of lists (the element called "item", its group "list"), as Spark writes them.
write("nested-legacy", nested.select(["id", "tags", "grid"]), compression="none",
      use_compliant_nested_type=False)

# Snappy's raw format, as pyarrow's snappy writes it: inputs beside their compressed bytes.
SNAPPY = "Tests/Fixtures/snappy"
os.makedirs(SNAPPY, exist_ok=True)
inputs = {
    "empty": b"",
    "short": b"flt",
    "text": ("The quick brown fox jumps over the lazy dog. " * 40).encode(),
    "runs": b"a" * 1000 + b"b" * 20000 + b"abc" * 2000,
    "bytes": bytes((i * 7919 + (i >> 3) * 31) % 251 for i in range(20_000)),
}
for name, data in inputs.items():
    with open(f"{SNAPPY}/{name}.raw", "wb") as out:
        out.write(data)
    with open(f"{SNAPPY}/{name}.snappy", "wb") as out:
        out.write(pa.compress(data, codec="snappy", asbytes=True))

# Zstandard frames as pyarrow's zstd writes them, at three levels: inputs beside their
# compressed bytes (tests compare). "long" spans several blocks of 128 KiB.
ZSTD = "Tests/Fixtures/zstd"
os.makedirs(ZSTD, exist_ok=True)
json_text = "".join(
    "{" + ", ".join(f'"{k}": {json.dumps(v, default=str)}' for k, v in row.items()) + "}\n"
    for row in phones(400)).encode()
zstd_inputs = dict(inputs)
zstd_inputs["json"] = json_text
def words(count, seed=12345):
    vocabulary = ("flt filter phones price color model Midnight Starlight 5G eSIM MagSafe zoom "
                  "camera released 2022 iPhone Pixel Galaxy Pro Max Ultra the a of and to in is "
                  "1099 1199 499 699 128 256 512 1024 ß é 東京 🙂").split()
    x, out = seed, []
    for _ in range(count):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        # Skewed: low indexes far more often.
        out.append(vocabulary[(x >> 8) % len(vocabulary) * ((x >> 4) % 4 + 1) // 4])
        if x % 11 == 0:
            out.append(str(x % 100000))
    return " ".join(out).encode()
zstd_inputs["long"] = words(25_000)
for name, data in zstd_inputs.items():
    with open(f"{ZSTD}/{name}.raw", "wb") as out:
        out.write(data)
    for level in (1, 3, 19):
        codec = pa.Codec("zstd", compression_level=level)
        with open(f"{ZSTD}/{name}-{level}.zst", "wb") as out:
            out.write(codec.compress(data, asbytes=True))
# LZ4's block format (Parquet's LZ4_RAW) as pyarrow writes it: the zstd inputs (their .raw
# files) compressed.
LZ4 = "Tests/Fixtures/lz4"
os.makedirs(LZ4, exist_ok=True)
for name, data in zstd_inputs.items():
    with open(f"{LZ4}/{name}.lz4", "wb") as out:
        out.write(pa.Codec("lz4_raw").compress(data, asbytes=True))
write("phones-lz4", table, compression="lz4", row_group_size=200)
write("phones-zstd", table, compression="zstd", row_group_size=256)
# The other encodings, one column each (dictionaries off, as they would take precedence).
write("phones-encodings", table, compression="snappy", use_dictionary=False,
      column_encoding={"id": "DELTA_BINARY_PACKED", "price": "DELTA_BINARY_PACKED",
                       "model": "DELTA_BYTE_ARRAY", "color": "DELTA_LENGTH_BYTE_ARRAY",
                       "screen": "BYTE_STREAM_SPLIT"})
write("phones-encodings-v2", table, compression="zstd", use_dictionary=False,
      data_page_version="2.0", row_group_size=100,
      column_encoding={"id": "BYTE_STREAM_SPLIT", "price": "BYTE_STREAM_SPLIT",
                       "model": "DELTA_LENGTH_BYTE_ARRAY", "color": "DELTA_BYTE_ARRAY",
                       "screen": "BYTE_STREAM_SPLIT"})

# Small files for the fuzzer's seeds (Fuzz/run parquet).
small = table.slice(0, 6).select(["id", "model", "price", "inStock", "released"])
pq.write_table(small, f"{OUT}/small-paged.parquet", compression="none", write_page_index=True,
               data_page_size=1, write_batch_size=2, use_dictionary=False)
write("small-nested", nested.slice(0, 5).select(["id", "camera", "tags", "grid", "specs"]),
      compression="snappy")
write("small", small, compression="snappy")
write("small-gzip-v2", small, compression="gzip", data_page_version="2.0")
write("small-plain", small, compression="none", use_dictionary=False)
write("small-zstd", small, compression="zstd")
write("small-encodings", small, compression="none", use_dictionary=False,
      column_encoding={"id": "DELTA_BINARY_PACKED", "model": "DELTA_BYTE_ARRAY",
                       "price": "BYTE_STREAM_SPLIT"})

# One row group of 12,000 rows in pages of about 2 KB, with a page index (and the same file
# without one): the page index rules pages out within the row group.
paged_rows = phones(12_000)
for row in paged_rows:
    row["released"] = dt.date(2020, 1, 1) + dt.timedelta(days=row["id"] // 10)
paged = pa.Table.from_pylist(paged_rows, schema=schema()).select(
    ["id", "price", "color", "released", "screen"])
for name, index in [("paged", True), ("paged-noindex", False)]:
    pq.write_table(paged, f"{OUT}/{name}.parquet", compression="snappy", data_page_size=2048,
                   use_dictionary=["color"],
                   write_page_index=index, row_group_size=20_000)

# Thirty row groups of 50 rows, ids and release dates rising: statistics rule most out.
rows = phones(1500)
for row in rows:
    row["released"] = dt.date(2020, 1, 1) + dt.timedelta(days=row["id"] // 2)
sorted_table = pa.Table.from_pylist(rows, schema=schema())
write("sorted", sorted_table, compression="snappy", row_group_size=50)
