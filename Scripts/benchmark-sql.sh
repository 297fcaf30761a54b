#!/usr/bin/env bash
# The database benchmark: flt on a PostgreSQL table against psql running the same statements,
# side by side in one run, on the generated phone catalog (1,000,000 rows by default) moved
# into a throwaway server with `flt -f sql`. Whole processes, both sides (connection included):
#   - a count (flt pushes the whole filter down: count(*) there);
#   - disjunctive facets on three fields: pushed down (GROUP BY per field), and computed in
#     flt after fetching (a part of the filter only flt can answer keeps them there);
#     psql runs the three GROUP BYs;
#   - a sorted top 5.
# Prints medians, the ratio flt / psql and the answers' agreement as Markdown for BENCHMARKS.md.
#
#   bash Scripts/benchmark-sql.sh [ROWS] [RUNS]      (defaults: 1000000 rows, 5 runs)
#
# Needs root or a postgres user to start the server (.ci/postgres), and psql.
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-1000000}
runs=${2:-5}
swift build -c release --product flt >/dev/null
swift build -c release --product flt-bench >/dev/null
flt=$PWD/.build/release/flt
root=$PWD
eval "$(.ci/postgres start)"
data=$(mktemp -d)
trap 'cd "$root"; rm -rf "$data"; .ci/postgres stop "$FLT_POSTGRES_DIR"' EXIT
.build/release/flt-bench generate "$rows" "$data" >&2
cd "$data"
export PGPASSWORD='scram pass'
url="postgresql://flt_scram@127.0.0.1:$FLT_POSTGRES_PORT/flt"

start=$(date +%s.%N)
"$flt" -f sql --dialect postgresql --table phones true phones.jsonl | psql -q -v ON_ERROR_STOP=1 "$url" >/dev/null
psql -q "$url" -c 'ANALYZE phones' >/dev/null
echo "moved $rows rows into PostgreSQL with flt -f sql | psql in $(awk -v a="$start" -v b="$(date +%s.%N)" "BEGIN { printf \"%.1f\", b - a }") s" >&2

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# time_both NAME FLT-COMMAND PSQL-COMMAND: medians of whole runs, after checking the answers.
time_both() {
  local name=$1 a=$2 b=$3
  : >ta; : >tb
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e" -o t bash -c "$a >/dev/null"; cat t >>ta
    /usr/bin/time -f "%e" -o t bash -c "$b >/dev/null"; cat t >>tb
  done
  x=$(median <ta); y=$(median <tb)
  echo "| $name | $x s | $y s | $(awk -v a="$x" -v b="$y" 'BEGIN { printf "%.2fx", a / b }') |"
}

filter='color in (Starlight, "Space Black") and diskSpace >= 256'
sql_where="color IN ('Starlight', 'Space Black') AND \"diskSpace\" >= 256"
flt_count="$flt --table phones -c '$filter' '$url'"
echo "SELECT count(*) FROM phones WHERE $sql_where;" >count.sql
psql_count="psql -At '$url' -f count.sql"
[ "$(bash -c "$flt_count")" = "$(bash -c "$psql_count")" ] || { echo "counts differ" >&2; exit 1; }

where4='color in (Starlight, "Space Black") and diskSpace >= 256 and memory >= 8 and price < 1500'
printf 'load "%s" table phones\nfacets color, diskSpace, memory where %s\n' "$url" "$where4" >pushed.flt
# lower(model) != "none": true for every phone, but only flt evaluates it, so the facets are
# counted in flt over the rows the rest of the filter leaves.
printf 'load "%s" table phones\nfacets color, diskSpace, memory where %s and lower(model) != "none"\n' \
  "$url" "$where4" >fetched.flt
facet() {
  local field=$1 others=$2
  echo "SELECT \"$field\", count(*) FROM phones WHERE $others AND price < 1500 GROUP BY 1;"
}
{
  facet color "\"diskSpace\" >= 256 AND memory >= 8"
  facet diskSpace "color IN ('Starlight', 'Space Black') AND memory >= 8"
  facet memory "$sql_where"
} >facets.sql
psql_facets="psql -At '$url' -f facets.sql"
# The counts agree: every value's count, pushed down, fetched, and psql's.
norm() { awk '/[0-9]$/ && !/values?$/ && !/^─/ { print $NF }' | sort -n | tr '\n' ' '; }
a=$("$flt" run pushed.flt | norm); b=$("$flt" run fetched.flt | norm)
c=$(bash -c "$psql_facets" | awk -F'|' '{ print $2 }' | sort -n | tr '\n' ' ')
[ "$a" = "$b" ] && [ "$a" = "$c" ] || { echo "facet counts differ: $a / $b / $c" >&2; exit 1; }

top_flt="$flt --table phones -f csv -s price '$filter order by price desc limit 5' '$url'"
echo "SELECT price FROM phones WHERE $sql_where ORDER BY price DESC NULLS LAST LIMIT 5;" >top.sql
top_psql="psql -At '$url' -f top.sql"
[ "$(bash -c "$top_flt" | tail -n +2)" = "$(bash -c "$top_psql")" ] || { echo "top 5 differ" >&2; exit 1; }

echo "| $rows rows in PostgreSQL, whole process | flt | psql | flt / psql |"
echo "|---|---|---|---|"
time_both "count \`$filter\`" "$flt_count" "$psql_count"
time_both "facets color, diskSpace, memory where <4 conditions>, pushed down (3 GROUP BYs)" "$flt run pushed.flt" "$psql_facets"
time_both "the same facets computed in flt after fetching the rows" "$flt run fetched.flt" "$psql_facets"
time_both "\`... order by price desc limit 5\`" "$top_flt" "$top_psql"
