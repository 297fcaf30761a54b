#!/usr/bin/env bash
# The stats benchmark: flt's `stats` in a session against DuckDB's GROUP BY (2 threads), side
# by side in one run, on the generated phone catalog loaded into memory by each. Checks that
# both give the same rows (means within 1e-9), then prints medians and ratios as Markdown for
# BENCHMARKS.md.
#
#   bash Scripts/benchmark-stats.sh [ROWS] [RUNS]      (defaults: 1000000 rows, 5 runs)
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-1000000}
runs=${2:-5}
python3 -c 'import duckdb' 2>/dev/null || pip install --quiet duckdb >&2
swift build -c release --product flt >/dev/null
swift build -c release --product flt-bench >/dev/null
flt=$PWD/.build/release/flt
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
.build/release/flt-bench generate "$rows" "$data" >&2
cd "$data"

# Each statement: flt's stats, then DuckDB's query giving the same columns and rows.
cat >statements.txt <<'EOF'
count(), mean(price), max(price) by color
SELECT color, count(*), avg(price), max(price) FROM phones GROUP BY color
count(), sum(price), min(price), max(screenSize) by diskSpace, memory where price < 1500
SELECT diskSpace, memory, count(*), sum(price), min(price), max(screenSize) FROM phones WHERE price < 1500 GROUP BY diskSpace, memory
price
SELECT count(price), min(price), max(price), sum(price), avg(price) FROM phones
EOF
{
  echo 'set time on'
  echo 'set format jsonl'
  echo 'load "phones.jsonl"'
  while IFS= read -r stats && IFS= read -r _; do
    for _ in $(seq "$runs"); do echo "stats $stats"; done
  done <statements.txt
} >bench.flt
/usr/bin/time -f "%M" -o flt.peak "$flt" run bench.flt >flt.out 2>flt.err

python3 - "$runs" <<'PY'
import duckdb, json, re, statistics, sys, time
runs = int(sys.argv[1])
lines = open("statements.txt").read().strip().split("\n")
pairs = list(zip(lines[0::2], lines[1::2]))
con = duckdb.connect()
con.execute("SET threads = 2")
con.execute("CREATE TABLE phones AS SELECT * FROM read_json_auto('phones.jsonl')")
times = []
for line in open("flt.err"):
    m = re.match(r"time: ([0-9.]+) (ms|s)", line)
    if m: times.append(float(m.group(1)) / (1000 if m.group(2) == "ms" else 1))
times = times[1:]  # the load
out = [json.loads(l) for l in open("flt.out") if l.startswith("{")]
# (JSON keys in column order: Python keeps them.)
def same(a, b):
    if isinstance(a, float) or isinstance(b, float):
        return abs(float(a) - float(b)) <= 1e-9 * max(abs(float(a)), abs(float(b)), 1)
    return a == b
print("| stats (flt) / GROUP BY (DuckDB) | flt | DuckDB (2 threads) | flt / DuckDB |")
print("|---|---|---|---|")
def fmt(s): return f"{s * 1000:.1f} ms"
for index, (stats, sql) in enumerate(pairs):
    duck_times, answer = [], None
    for _ in range(runs):
        start = time.perf_counter()
        answer = con.execute(sql).fetchall()
        duck_times.append(time.perf_counter() - start)
    rows = sorted([list(r) for r in answer], key=lambda r: [str(x) for x in r])
    # flt's rows of this statement: its runs' rows come in turn; the last run's are compared.
    per_run = len(rows)
    mine = [list(o.values()) for o in out[per_run * (runs - 1):per_run * runs]]
    out = out[per_run * runs:]
    mine = sorted(mine, key=lambda r: [str(x) for x in r])
    assert len(mine) == len(rows), (stats, len(mine), len(rows))
    for a, b in zip(mine, rows):
        assert all(same(x, y) for x, y in zip(a, b)), (stats, a, b)
    flt_time = statistics.median(times[index * runs:(index + 1) * runs])
    duck_time = statistics.median(duck_times)
    print(f"| `stats {stats}` | {fmt(flt_time)} | {fmt(duck_time)} | {flt_time / duck_time:.2f}x |")
PY
