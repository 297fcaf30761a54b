#!/usr/bin/env bash
# Sharded PostgreSQL: the generated phone catalog (2,000,000 rows by default) in one table on
# one server, and the same rows in a table partitioned by price over two shards (foreign
# tables through postgres_fdw, the servers `.ci/postgres` starts). flt runs a count, facets on
# three fields, stats by colour and a sorted top 5 on each, alternated; prints medians of whole processes and
# the rows each statement brings to the coordinator (EXPLAIN ANALYZE of what flt sends, and of
# the statement over the whole table that flt sent before it asked partitions one by one).
#
#   bash Scripts/benchmark-sharded.sh [ROWS] [RUNS] [OLD_FLT]   (defaults: 2000000, 5)
#
# With OLD_FLT (a release build from before), its times on the sharded table are printed too.
# Needs root or a postgres user to start the servers, and psql.
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-2000000}
runs=${2:-5}
old=${3:-}
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
IFS=, read -r port1 port2 <<<"$FLT_POSTGRES_SHARD_PORTS"
shard1="postgresql://flt_scram@127.0.0.1:$port1/flt"
shard2="postgresql://flt_scram@127.0.0.1:$port2/flt"
split=1000

# One server: the whole table. Two shards: each loads its part (flt's filter splits the
# file), and the coordinator's partitioned table names them; text columns COLLATE "C"
# everywhere, so that text tests and sorts run on the shards.
load() { "$flt" -f sql --dialect postgresql --collate-c --table phones "$1" phones.jsonl \
  | psql -q -v ON_ERROR_STOP=1 "$2" >/dev/null; psql -q "$2" -c 'ANALYZE phones' >/dev/null; }
"$flt" -f sql --dialect postgresql --collate-c --table phones_one true phones.jsonl \
  | psql -q -v ON_ERROR_STOP=1 "$url" >/dev/null
psql -q "$url" -c 'ANALYZE phones_one' >/dev/null
load "price < $split" "$shard1"
load "price >= $split" "$shard2"
columns=$("$flt" -f sql --dialect postgresql --collate-c --table phones false phones.jsonl \
  | grep '^CREATE TABLE' | sed 's/ GENERATED ALWAYS AS IDENTITY//; s/);$//')
psql -q -v ON_ERROR_STOP=1 "$url" >/dev/null <<SQL
$columns) PARTITION BY RANGE ("price");
CREATE FOREIGN TABLE phones_1 PARTITION OF phones FOR VALUES FROM (MINVALUE) TO ($split)
  SERVER flt_shard1 OPTIONS (table_name 'phones');
CREATE FOREIGN TABLE phones_2 PARTITION OF phones FOR VALUES FROM ($split) TO (MAXVALUE)
  SERVER flt_shard2 OPTIONS (table_name 'phones');
-- The coordinator's own statistics of the shards' rows (sampled through postgres_fdw): without
-- them it guesses, and may sort a shard's rows itself rather than send the ORDER BY and LIMIT.
ANALYZE phones;
SQL

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
seconds() { /usr/bin/time -f "%e" -o t bash -c "$1 >/dev/null"; cat t; }
# Rows the coordinator received from the shards for statement $1 (the partitioned table).
moved() {
  psql -At "$url" -c "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) $1" \
    | grep 'Foreign Scan' | sed 's/.*actual rows=\([0-9]*\).*loops=\([0-9]*\).*/\1 \2/' \
    | awk '{ s += $1 * $2 } END { print s + 0 }'
}
# The statement flt sends for query $1 on table $2, values written in.
statement() { "$flt" sql -f json --inline --table "$2" "$1" "$url" | jq -r .sql; }

filter='color in (Starlight, "Space Black") and diskSpace >= 256'
where4='color in (Starlight, "Space Black") and diskSpace >= 256 and memory >= 8 and price < 1500'
for t in phones_one phones; do
  printf 'load "%s" table %s\nfacets color, diskSpace, memory where %s\n' "$url" "$t" "$where4" >"facets_$t.flt"
done
count() { echo "$1 --table $2 -c '$filter' '$url'"; }
top() { echo "$1 --table $2 -f csv -s price,model '$filter order by price desc, model limit 5' '$url'"; }
facets() { echo "$1 run facets_$2.flt"; }
stats() { echo "$1 --table $2 --stats 'count(), mean(price), max(memory) by color' '$filter' '$url'"; }

for kind in count facets stats top; do
  one=$($kind "$flt" phones_one); two=$($kind "$flt" phones)
  [ "$(bash -c "$one")" = "$(bash -c "$two")" ] || { echo "$kind differs between one server and two shards" >&2; exit 1; }
done

# Rows the shards send the coordinator: for the count and the top 5, the statements flt sends
# now, and those it sent before (the same query on the partitioned table as a whole).
sql() { "$flt" sql -f json --inline --table "$2" "$1" "$url"; }
as_whole() { sed 's/"phones_one"/"phones"/'; }
count_now=$(moved "$(sql "$filter" phones | jq -r .count)")
count_before=$(moved "$(sql "$filter" phones_one | jq -r .sql \
  | sed 's/^SELECT .* FROM "phones_one"/SELECT count(*) FROM "phones"/; s/ ORDER BY .*//')")
q="$filter order by price desc, model limit 5"
top_now=$(moved "$(sql "$q" phones | jq -r .sql)")
top_before=$(moved "$(sql "$q" phones_one | jq -r .sql | as_whole)")

echo "| $rows rows, whole process (median of $runs) | one server | two shards | two shards, flt before${old:+ ($old)} | rows sent to the coordinator, now / before |"
echo "|---|---|---|---|---|"
for kind in count facets stats top; do
  : >a; : >b; : >c
  for _ in $(seq "$runs"); do
    seconds "$($kind "$flt" phones_one)" >>a
    seconds "$($kind "$flt" phones)" >>b
    if [ -n "$old" ]; then seconds "$($kind "$old" phones)" >>c; fi
  done
  case $kind in
  count) rows_moved="$count_now / $count_before" ;;
  top) rows_moved="$top_now / $top_before" ;;
  stats) rows_moved="at most a row per colour, per shard (not measured)" ;;
  *) rows_moved="at most the values of a field, per shard and field (not measured)" ;;
  esac
  echo "| $kind | $(median <a) s | $(median <b) s | $([ -n "$old" ] && echo "$(median <c) s") | $rows_moved |"
done
