#!/usr/bin/env bash
# The session benchmark: flt against DuckDB (2 threads), side by side in one run, on the
# generated 1,000,000-row phone catalog. Each tool loads the JSON Lines file into memory, then
# runs a count, disjunctive facets on three fields (DuckDB: three GROUP BYs) and a sorted top 5;
# then the one-shot count of the whole process on JSON Lines and on CSV, and the CSV file loaded
# alone. Prints medians, the ratio flt / DuckDB and peak memory as Markdown tables for
# BENCHMARKS.md.
#
#   bash Scripts/benchmark-session.sh [ROWS] [RUNS]      (defaults: 1000000 rows, 5 runs)
#
# Installs DuckDB's Python package with pip if it is missing, and checks that both tools give
# the same answers before printing anything.
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-1000000}
runs=${2:-5}
python3 -c 'import duckdb' 2>/dev/null || pip install --quiet duckdb >&2
[ -x /usr/bin/time ] || { echo "/usr/bin/time (GNU time) is missing" >&2; exit 2; }
swift build -c release --product flt >/dev/null
swift build -c release --product flt-bench >/dev/null
flt=$PWD/.build/release/flt
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
.build/release/flt-bench generate "$rows" "$data" >&2
# The files just written (400 MB) are written out to disk now, not while a tool loads them.
sync
cd "$data"

filter='color in (Starlight, "Space Black") and diskSpace >= 256'
where4='color in (Starlight, "Space Black") and diskSpace >= 256 and memory >= 8 and price < 1500'
{
  echo 'set time on'
  echo 'load "phones.jsonl"'
  for _ in $(seq "$runs"); do echo "count $filter"; done
  for _ in $(seq "$runs"); do echo "facets color, diskSpace, memory where $where4"; done
  echo 'set format json'
  for _ in $(seq "$runs"); do echo "$filter order by price desc limit 5"; done
} >bench.flt
/usr/bin/time -f "%M" -o flt.peak "$flt" run bench.flt >flt.out 2>flt.err

cat >duck.py <<PY
import duckdb, json, statistics, sys, time, resource
runs = $runs
con = duckdb.connect()
con.execute("SET threads = 2")
def timed(sql):
    start = time.perf_counter(); result = con.execute(sql).fetchall()
    return time.perf_counter() - start, result
load, _ = timed("CREATE TABLE phones AS SELECT * FROM read_json_auto('phones.jsonl')")
color = "color IN ('Starlight', 'Space Black')"
count_sql = f"SELECT count(*) FROM phones WHERE {color} AND diskSpace >= 256"
parts = {"color": color, "diskSpace": "diskSpace >= 256", "memory": "memory >= 8"}
def facet(field):
    others = " AND ".join([p for f, p in parts.items() if f != field] + ["price < 1500"])
    return f"SELECT {field}, count(*) FROM phones WHERE {others} GROUP BY {field}"
top_sql = f"SELECT price FROM phones WHERE {color} AND diskSpace >= 256 ORDER BY price DESC LIMIT 5"
def median(sql_list):
    times, answer = [], None
    for _ in range(runs):
        start = time.perf_counter()
        answer = [con.execute(sql).fetchall() for sql in sql_list]
        times.append(time.perf_counter() - start)
    return statistics.median(times), answer
count_t, count = median([count_sql])
facets_t, facets = median([facet(f) for f in parts])
top_t, top = median([top_sql])
json.dump({"load": load, "count": count_t, "facets": facets_t, "top": top_t,
           "count_value": count[0][0][0],
           "facets_value": [sorted([[str(k), v] for k, v in f]) for f in facets],
           "top_value": [r[0] for r in top[0]],
           "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}, sys.stdout)
PY
python3 duck.py >duck.json

python3 - "$runs" <<'PY'
import json, re, statistics, sys
runs = int(sys.argv[1])
duck = json.load(open("duck.json"))
times = []
for line in open("flt.err"):
    m = re.match(r"time: ([0-9.]+) (ms|s)", line)
    if m: times.append(float(m.group(1)) / (1000 if m.group(2) == "ms" else 1))
load, rest = times[0], times[1:]
count, facets, top = rest[:runs], rest[runs:2 * runs], rest[2 * runs:3 * runs]
out = open("flt.out").read().split("\n")
# The answers agree: the count, every facet count, the top five prices.
assert int(out[0]) == duck["count_value"], (out[0], duck["count_value"])
parsed, block = [], None
for line in out[runs:]:
    if re.match(r"^\w+\s+count$", line):
        block = {}
    elif block is not None and re.match(r"^\d+ values?$", line):
        parsed.append(sorted(block.items()))
        block = None
    elif block is not None and (m := re.match(r"^\s*(.*?)\s+(\d+)$", line)):
        block[m.group(1)] = int(m.group(2))
expected = [sorted((k, v) for k, v in f) for f in duck["facets_value"]]
assert parsed[:3] == expected, (parsed[:3], expected)
top_prices = [json.loads(l.rstrip(","))["price"] for l in out if l.startswith("{")][:5]
assert top_prices == duck["top_value"], (top_prices, duck["top_value"])
peak = int(open("flt.peak").read().strip()) // 1024
rows = [("load the file (JSON Lines)", load, duck["load"]),
        ("count `color in (Starlight, \"Space Black\") and diskSpace >= 256`", statistics.median(count), duck["count"]),
        ("facets color, diskSpace, memory where <4 conditions> (DuckDB: 3 GROUP BYs)", statistics.median(facets), duck["facets"]),
        ("`... order by price desc limit 5`", statistics.median(top), duck["top"])]
print("| Statement | flt | DuckDB (2 threads) | flt / DuckDB |")
print("|---|---|---|---|")
def fmt(s): return f"{s * 1000:.1f} ms" if s < 1 else f"{s:.2f} s"
for name, a, b in rows:
    print(f"| {name} | {fmt(a)} | {fmt(b)} | {a / b:.2f}x |")
print(f"| peak memory of the session | {peak} MB | {duck['peak_mb']} MB | {peak / duck['peak_mb']:.2f}x |")
PY

echo
echo "| One-shot count, whole process | flt | DuckDB (python3 -c, start included) | flt / DuckDB |"
echo "|---|---|---|---|"
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
for format in jsonl csv; do
  reader=$([ $format = csv ] && echo read_csv_auto || echo read_json_auto)
  duck_cmd="python3 -c \"import duckdb; print(duckdb.sql(\\\"SELECT count(*) FROM $reader('phones.$format') WHERE color IN ('Starlight', 'Space Black') AND diskSpace >= 256\\\").fetchall()[0][0])\""
  flt_cmd="$flt --count '$filter' phones.$format"
  [ "$(bash -c "$flt_cmd")" = "$(bash -c "$duck_cmd")" ] || { echo "counts differ on $format" >&2; exit 1; }
  : >a; : >b
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e" -o t bash -c "$flt_cmd >/dev/null"; cat t >>a
    /usr/bin/time -f "%e" -o t bash -c "$duck_cmd >/dev/null"; cat t >>b
  done
  x=$(median <a); y=$(median <b)
  echo "| \`flt --count\` on $format | $x s | $y s | $(awk -v a="$x" -v b="$y" 'BEGIN { printf "%.2fx", a / b }') |"
done

# The CSV file loaded alone (each tool in a process of its own, alternated; the session's memory
# above is the JSON Lines table's only).
echo
echo "| Load alone, medians of $runs | flt | DuckDB (2 threads) | flt / DuckDB |"
echo "|---|---|---|---|"
printf 'set time on\nload "phones.csv"\n' >csv.flt
: >a; : >b
for _ in $(seq "$runs"); do
  "$flt" run csv.flt 2>&1 >/dev/null | sed -nE 's/^time: ([0-9.]+) ms$/\1/p; s/^time: ([0-9.]+) s$/\1 1000/p' \
    | awk '{ print ($2 == "" ? $1 : $1 * $2) }' >>a
  python3 -c "
import duckdb, time
con = duckdb.connect(); con.execute('SET threads = 2')
start = time.perf_counter()
con.execute(\"CREATE TABLE t AS SELECT * FROM read_csv_auto('phones.csv')\")
print((time.perf_counter() - start) * 1000)" >>b
done
x=$(median <a); y=$(median <b)
echo "| load the file (CSV) | $(printf '%.1f' "$x") ms | $(printf '%.1f' "$y") ms | $(awk -v a="$x" -v b="$y" 'BEGIN { printf "%.2fx", a / b }') |"
