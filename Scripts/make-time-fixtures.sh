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
