#!/usr/bin/env python3
"""Writes the small Arrow IPC files the tests read, once, with pyarrow and Polars
(pip install pyarrow polars), from the Parquet fixtures `make-parquet-fixtures.py` wrote: each
Arrow file holds the rows of a Parquet fixture, whose JSON Lines twin the tests compare it
with, so they never need Python. Run from the repository's folder:

    python3 Scripts/make-arrow-fixtures.py

Covered: the file and the stream format (and the stream format before Arrow 0.15, without
continuation markers), buffers uncompressed, LZ4-framed and zstd-compressed, several record
batches, dictionary-coded columns (with dictionaries replaced and extended by deltas in a
stream), text as views and lists as list views, large offsets, nested lists, structs and maps,
Feather as pandas writes it (pyarrow's `write_feather`: LZ4), and Polars' `write_ipc` and
`write_ipc_stream` (its string views). DuckDB writes Arrow IPC only through an extension it
downloads, so none of its files is here.
"""
import os

import polars as pl
import pyarrow as pa
import pyarrow.feather as feather
import pyarrow.ipc as ipc
import pyarrow.parquet as pq

PARQUET = "Tests/Fixtures/parquet"
OUT = "Tests/Fixtures/arrow"
os.makedirs(OUT, exist_ok=True)


def table(name):
    return pq.read_table(f"{PARQUET}/{name}.parquet")


def write_file(name, data, chunk=None, **options):
    with ipc.new_file(f"{OUT}/{name}.arrow", data.schema,
                      options=ipc.IpcWriteOptions(**options)) as writer:
        writer.write_table(data, max_chunksize=chunk)


def write_stream(name, data, chunk=None, **options):
    with ipc.new_stream(f"{OUT}/{name}.arrows", data.schema,
                        options=ipc.IpcWriteOptions(**options)) as writer:
        writer.write_table(data, max_chunksize=chunk)


phones = table("phones-plain")
write_file("phones", phones, chunk=128)
write_file("phones-lz4", phones, chunk=100, compression="lz4")
write_file("phones-zstd", phones, compression="zstd")
write_stream("phones", phones, chunk=64)
write_stream("phones-legacy", phones, chunk=200, use_legacy_format=True)
feather.write_feather(phones, f"{OUT}/phones.feather", chunksize=150)

# Dictionary-coded text: in a file (one dictionary), and in a stream whose batches each bring
# a dictionary of their own (replaced) or more of it (deltas).
coded = phones.cast(pa.schema([
    f.with_type(pa.dictionary(pa.int8(), f.type)) if f.name in ("model", "color") else f
    for f in phones.schema]))
write_file("phones-dictionary", coded, chunk=100)
batches = [pa.Table.from_pylist(phones.slice(i, 50).to_pylist()).cast(coded.schema)
           .combine_chunks().to_batches()[0] for i in range(0, 300, 50)]
with ipc.new_stream(f"{OUT}/phones-replaced.arrows", coded.schema) as writer:
    for batch in batches:
        writer.write_batch(batch)
with ipc.new_stream(f"{OUT}/phones-deltas.arrows", coded.schema,
                    options=ipc.IpcWriteOptions(emit_dictionary_deltas=True)) as writer:
    # Each batch's dictionary begins with the one before it, so the writer sends what is new.
    seen = {"model": [], "color": []}
    for i in range(0, 300, 50):
        part = phones.slice(i, 50)
        arrays = []
        for f in phones.schema:
            column = part.column(f.name).combine_chunks()
            if f.name in seen:
                for value in column.to_pylist():
                    if value is not None and value not in seen[f.name]:
                        seen[f.name].append(value)
                values = pa.array(seen[f.name], f.type)
                index = {v: k for k, v in enumerate(seen[f.name])}
                codes = pa.array([None if v is None else index[v] for v in column.to_pylist()],
                                 pa.int8())
                column = pa.DictionaryArray.from_arrays(codes, values)
            arrays.append(column)
        writer.write_batch(pa.RecordBatch.from_arrays(arrays, schema=coded.schema))

# Views: text as Utf8View; lists as ListView; large offsets.
viewed = phones.cast(pa.schema([
    f.with_type(pa.string_view()) if f.type == pa.string() else f for f in phones.schema]))
write_file("phones-views", viewed, chunk=128)
write_file("phones-large", phones.cast(pa.schema([
    f.with_type(pa.large_string()) if f.type == pa.string() else f for f in phones.schema])))

types = table("types")
write_file("types", types, compression="zstd")
rare = table("rare-types")
write_file("rare-types", rare)
write_file("times", table("times"))

nested = table("nested")
write_file("nested", nested, chunk=64, compression="lz4")
write_stream("nested", nested)


def large(t):
    if pa.types.is_list(t):
        return pa.large_list(large(t.value_type))
    if pa.types.is_struct(t):
        return pa.struct([f.with_type(large(f.type)) for f in t])
    if pa.types.is_string(t):
        return pa.large_string()
    return t


def viewed(column):
    """A column of lists as list views (their elements as they were), in reverse order within
    its buffers, as views allow."""
    if not pa.types.is_list(column.type):
        return column
    chunks = []
    for chunk in column.chunks:
        values = chunk.flatten()
        offsets = chunk.offsets.to_pylist()
        n = len(chunk)
        # The elements laid out row by row from the last row to the first.
        order, starts, sizes, at = [], [0] * n, [0] * n, 0
        for row in reversed(range(n)):
            start, end = offsets[row], offsets[row + 1]
            starts[row], sizes[row] = at, end - start
            order.extend(range(start, end))
            at += end - start
        chunks.append(pa.ListViewArray.from_arrays(
            pa.array(starts, pa.int32()), pa.array(sizes, pa.int32()), values.take(order),
            mask=chunk.is_null()))
    return pa.chunked_array(chunks)


plain = nested.select(["id", "camera", "tags", "sizes", "grid", "stores", "deep"])
write_file("nested-large", plain.cast(pa.schema([f.with_type(large(f.type)) for f in plain.schema])))
write_file("nested-views", pa.table({name: viewed(plain.column(name)) for name in plain.column_names}))

# Polars: its own writer (string views by default), uncompressed, zstd, and as a stream.
frame = pl.from_arrow(phones)
frame.write_ipc(f"{OUT}/phones-polars.arrow", compression="uncompressed")
frame.write_ipc(f"{OUT}/phones-polars-zstd.arrow", compression="zstd")
frame.write_ipc_stream(f"{OUT}/phones-polars.arrows", compression="lz4")
pl.from_arrow(nested.select(["id", "camera", "tags", "grid", "stores"])).write_ipc(
    f"{OUT}/nested-polars.arrow", compression="zstd")

# Hostile, yet as pyarrow writes them: a column of 2^31 - 1 nulls (no bytes at all); one list
# of 2^31 - 2 nulls; structs 70 deep (more than the 64 levels flt reads); a union.
nulls = pa.Array.from_buffers(pa.null(), 2 ** 31 - 1, [None])
write_file("many-nulls", pa.table({"x": nulls}))
elements = pa.Array.from_buffers(pa.null(), 2 ** 31 - 2, [None])
write_file("list-of-nulls", pa.table({
    "id": pa.array([1]),
    "l": pa.ListArray.from_arrays(pa.array([0, 2 ** 31 - 2], pa.int32()), elements)}))
deep_type, deep_value = pa.int32(), 1
for level in range(70):
    deep_type, deep_value = pa.struct([("x", deep_type)]), {"x": deep_value}
# (pyarrow writes no batch that deep: a stream of the schema alone.)
with ipc.new_stream(f"{OUT}/too-deep.arrows", pa.schema([("deep", deep_type)])):
    pass
for level in range(70 - 60):
    deep_type, deep_value = deep_type[0].type, deep_value["x"]
write_file("deep", pa.table({"deep": pa.array([deep_value, None], deep_type)}))
union = pa.UnionArray.from_sparse(pa.array([0, 1], pa.int8()),
                                  [pa.array([1, 2]), pa.array(["a", "b"])])
write_file("union", pa.table({"id": pa.array([1, 2]), "u": union}))

# LZ4's frame format (Arrow's LZ4_FRAME) as pyarrow writes it: the zstd fixtures' inputs.
for raw in sorted(os.listdir("Tests/Fixtures/zstd")):
    if raw.endswith(".raw"):
        with open(f"Tests/Fixtures/zstd/{raw}", "rb") as source:
            data = source.read()
        with open(f"Tests/Fixtures/lz4/{raw[:-4]}.lz4frame", "wb") as out:
            out.write(pa.Codec("lz4").compress(data, asbytes=True))

# One record batch of 70,000 rows (more than the 65,536 flt hands over at once), with a struct
# and a fixed-size list: the rows past the first 65,536 read as the others (zstd keeps it small).
n = 70_000
big = pa.table({
    "id": pa.array(range(n), pa.int32()),
    "s": pa.array([{"a": i % 100, "b": None if i % 7 == 0 else i % 3} for i in range(n)],
                  pa.struct([("a", pa.int8()), ("b", pa.int8())])),
    "f": pa.array([[i % 5, (i + 1) % 5] for i in range(n)], pa.list_(pa.int8(), 2)),
})
write_file("big-batch", big, chunk=n, compression="zstd")
