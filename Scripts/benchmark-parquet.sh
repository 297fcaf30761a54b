#!/usr/bin/env bash
# Parquet, flt against DuckDB's command line side by side in one run, whole processes, best of
# RUNS wall-clock seconds:
#   Scripts/benchmark-parquet.sh [ROWS] [RUNS] [DIR]   default 1200000 rows, 5 runs, /tmp/bench
# DuckDB writes the data (snappy, its row groups of 122,880; and the same rows sorted by id in
# 30 row groups, and zstd) into DIR when missing. Needs a release build of flt
# (swift build -c release --product flt); installs duckdb-cli with pip when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-1200000}
runs=${2:-5}
dir=${3:-/tmp/bench}
mkdir -p "$dir"
command -v duckdb >/dev/null || pip install -q duckdb-cli
flt=$(realpath .build/release/flt)
flat="$dir/pq-$rows.parquet"
if [ ! -f "$flat" ]; then
  duckdb -c "
    COPY (SELECT i AS id,
      'iPhone ' || (12 + i % 5) || CASE WHEN i % 3 = 0 THEN ' Pro' ELSE '' END AS model,
      CASE WHEN i % 11 = 7 THEN NULL ELSE (i * 37) % 1500 + 99 END::INTEGER AS price,
      5.4 + (i % 7) * 0.2 AS screen,
      ['Midnight', 'Starlight', 'Space Black', 'Gold', 'Deep Purple'][i % 5 + 1] AS color,
      i % 2 = 0 AS in_stock,
      DATE '2020-01-01' + ((i * 97) % 1500)::INTEGER AS released,
      {'mp': 12 + (i % 4) * 12, 'zoom': 1 + i % 3} AS camera,
      list_slice(['5G', 'eSIM', 'MagSafe', 'USB-C'], 1 + i % 4, 1 + i % 4 + i % 3) AS tags
    FROM range($rows) t(i)) TO '$flat' (FORMAT parquet, COMPRESSION snappy);
    COPY (SELECT * FROM '$flat' ORDER BY id) TO '$dir/pq-$rows-sorted.parquet'
      (FORMAT parquet, ROW_GROUP_SIZE $((rows / 30 + 1)));
    COPY (SELECT * FROM '$flat') TO '$dir/pq-$rows-zstd.parquet' (FORMAT parquet, COMPRESSION zstd);"
fi
python3 - "$flt" "$dir" "$rows" "$runs" <<'PY'
import subprocess, sys, time
flt, folder, rows, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
flat, zstd = f"{folder}/pq-{rows}.parquet", f"{folder}/pq-{rows}-zstd.parquet"
sorted_ = f"{folder}/pq-{rows}-sorted.parquet"
out = f"{folder}/pq-written.parquet"

def best(command):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    return min(times)

def duck(sql):
    return ["duckdb", "-c", sql]

cases = [
    ("count price < 500 and color == Midnight (snappy)",
     [flt, "-c", 'price < 500 and color == "Midnight"', flat],
     duck(f"SELECT count(*) FROM '{flat}' WHERE price < 500 AND color = 'Midnight'")),
    ("the same, zstd",
     [flt, "-c", 'price < 500 and color == "Midnight"', zstd],
     duck(f"SELECT count(*) FROM '{zstd}' WHERE price < 500 AND color = 'Midnight'")),
    ("count model contains Pro and released >= 2023-01-01",
     [flt, "-c", 'model contains "Pro" and released >= 2023-01-01', flat],
     duck(f"SELECT count(*) FROM '{flat}' WHERE contains(model, 'Pro') AND released >= DATE '2023-01-01'")),
    ("count nested: camera.mp > 20 and tags contains eSIM",
     [flt, "-c", 'camera.mp > 20 and tags contains "eSIM"', flat],
     duck(f"SELECT count(*) FROM '{flat}' WHERE camera.mp > 20 AND list_contains(tags, 'eSIM')")),
    ("sorted, 1 row group of 30: id < 40000 and price < 700",
     [flt, "-c", "id < 40000 and price < 700", sorted_],
     duck(f"SELECT count(*) FROM '{sorted_}' WHERE id < 40000 AND price < 700")),
    ("sorted, all 30 row groups: id >= 0 and price < 700",
     [flt, "-c", "id >= 0 and price < 700", sorted_],
     duck(f"SELECT count(*) FROM '{sorted_}' WHERE id >= 0 AND price < 700")),
    ("top 5 by price (printed)",
     [flt, "-f", "jsonl", "price > 1500 order by price desc, id limit 5", flat],
     duck(f"SELECT * FROM '{flat}' WHERE price > 1500 ORDER BY price DESC, id LIMIT 5")),
    ("write every row as Parquet (snappy)",
     [flt, "-f", "parquet", "-o", out, "true", flat],
     duck(f"COPY (SELECT * FROM '{flat}') TO '{out}' (FORMAT parquet, COMPRESSION snappy)")),
]
print(f"{rows} rows, best of {runs}")
print(f"{'run':<56} {'flt s':>7} {'duckdb s':>9} {'ratio':>6}")
for name, mine, theirs in cases:
    a, b = best(mine), best(theirs)
    print(f"{name:<56} {a:7.3f} {b:9.3f} {a / b:6.2f}")
PY
