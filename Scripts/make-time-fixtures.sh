#!/usr/bin/env bash
# Writes Tests/Fixtures/duckdb/times.parquet with DuckDB's command line (pip install duckdb-cli),
# once: a TIME column (microseconds, as DuckDB writes it) and an INTERVAL column without months,
# four rows, one of them null in each. The tests read it and never need DuckDB.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -f Tests/Fixtures/duckdb/times.parquet
duckdb -c "COPY (
  SELECT * FROM (VALUES
    (1, TIME '00:00:00', INTERVAL '3 days 4 hours'),
    (2, TIME '08:30:00', INTERVAL '90 minutes'),
    (3, TIME '23:59:59.999999', NULL),
    (4, NULL, INTERVAL '0 seconds')
  ) AS t(n, t, i)
) TO 'Tests/Fixtures/duckdb/times.parquet'"

# Times of day as pyarrow writes each width (time32[s] and [ms]: INT32 TIME(MILLIS); time64[us]
# and [ns]: INT64 TIME(MICROS) and TIME(NANOS)) and as Polars writes pl.Time (nanoseconds),
# with the values flt reads them as beside them (times.jsonl).
python3 - <<'PY'
import datetime as dt
import json
import pyarrow as pa
import pyarrow.parquet as pq
import polars as pl

times = [dt.time(0, 0), dt.time(8, 30), dt.time(22, 0, 0, 500000), dt.time(23, 59, 59, 999999), None]
table = pa.table({
    "n": pa.array(range(1, 6), pa.int64()),
    "s": pa.array([t.replace(microsecond=0) if t else None for t in times], pa.time32("s")),
    "ms": pa.array([t.replace(microsecond=t.microsecond // 1000 * 1000) if t else None
                    for t in times], pa.time32("ms")),
    "us": pa.array(times, pa.time64("us")),
    "ns": pa.array(times, pa.time64("ns")),
})
pq.write_table(table, "Tests/Fixtures/parquet/times.parquet")
with open("Tests/Fixtures/parquet/times.jsonl", "w") as out:
    for row in table.to_pylist():
        out.write(json.dumps({k: (v.isoformat() if isinstance(v, dt.time) else v)
                              for k, v in row.items()}) + "\n")
pl.DataFrame({"n": [1, 2, 3], "at": [dt.time(6, 15), None, dt.time(21, 45, 30)]}).write_parquet(
    "Tests/Fixtures/polars/times.parquet")
PY
