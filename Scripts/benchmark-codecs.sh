#!/usr/bin/env bash
# Parquet codecs as each writer writes them, flt against DuckDB's command line side by side
# (farm-bench: whole processes, medians, pairs in turn):
#   Scripts/benchmark-codecs.sh [ROWS] [RUNS] [DIR]   default 1000000 rows, 5 runs, /tmp/bench
# The same orders (an int64 id in sequence, an amount of two decimals, a quantity: PLAIN pages
# full of matches, as issue 51 found Polars' default zstd) written by Polars (zstd, its default,
# and snappy), DuckDB (zstd, snappy) and pyarrow (zstd), in row groups of 122,880, into DIR
# when missing. Needs a release build of flt (swift build -c release --product flt); installs
# polars, pyarrow, duckdb and duckdb-cli with pip when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-1000000}
runs=${2:-5}
dir=${3:-/tmp/bench}
mkdir -p "$dir"
python3 -c 'import polars, pyarrow, duckdb' 2>/dev/null \
  || pip install -q --break-system-packages polars pyarrow duckdb
command -v duckdb >/dev/null || pip install -q --break-system-packages duckdb-cli
flt=$(realpath .build/release/flt)
if [ ! -f "$dir/orders-$rows-polars-zstd.parquet" ]; then
  python3 - "$dir" "$rows" <<'PY'
import sys
import duckdb, polars as pl, pyarrow.parquet as pq
folder, rows = sys.argv[1], int(sys.argv[2])
base = f"{folder}/orders-{rows}"
orders = pl.DataFrame({
    "order_id": pl.int_range(0, rows, dtype=pl.Int64, eager=True),
    "amount": pl.Series([round((i * 7919) % 100000 / 100, 2) for i in range(rows)]),
    "qty": pl.Series([1 + i % 9 for i in range(rows)], dtype=pl.Int64),
})
orders.write_parquet(f"{base}-polars-zstd.parquet", row_group_size=122880)
orders.write_parquet(f"{base}-polars-snappy.parquet", compression="snappy", row_group_size=122880)
pq.write_table(orders.to_arrow(), f"{base}-pyarrow-zstd.parquet", compression="zstd",
               row_group_size=122880)
for codec in ["zstd", "snappy"]:
    duckdb.sql(f"COPY (SELECT * FROM '{base}-polars-zstd.parquet') TO '{base}-duckdb-{codec}.parquet'"
               f" (FORMAT parquet, COMPRESSION {codec})")
PY
fi
for writer in polars-zstd duckdb-zstd pyarrow-zstd polars-snappy duckdb-snappy; do
  file="$dir/orders-$rows-$writer.parquet"
  for filter in 'amount > 10' 'order_id > 10'; do
    sql="SELECT count(*) FROM '$file' WHERE ${filter}"
    echo "== $writer: $filter"
    farm-bench -n "$runs" --vs "duckdb -c \"$sql\"" -- "$flt" -c "$filter" "$file" \
      | grep -E "wall|peak"
  done
done
