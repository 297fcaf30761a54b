#!/usr/bin/env bash
# The session benchmark: a script that loads the generated 1,000,000-row catalog into memory,
# then counts, counts facets and sorts, with `set time on` timing each statement. The one-shot
# `flt --count` of the same filter is the reference (it streams the file from disk).
#
#   bash Scripts/benchmark-session.sh [ROWS]      (default: 1000000 rows)
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-1000000}
swift build -c release --product flt >/dev/null
swift build -c release --product flt-bench >/dev/null
flt=$PWD/.build/release/flt
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
.build/release/flt-bench generate "$rows" "$data" >&2
cat >"$data/bench.flt" <<'FLT'
set time on
load "phones.jsonl"
count color in (Starlight, "Space Black") and diskSpace >= 256
facets color, diskSpace, memory where color in (Starlight, "Space Black") and diskSpace in (256, 512) and price < 1300
show model, price
color == Starlight and diskSpace >= 512 order by price desc limit 5
FLT
echo "== one-shot reference: flt --count (streams the file)"
/usr/bin/time -f "%e s, %M KB peak" "$flt" --count 'color in (Starlight, "Space Black") and diskSpace >= 256' "$data/phones.jsonl"
echo "== the script (times per statement: count, facets, sorted query)"
/usr/bin/time -f "%e s in all, %M KB peak" "$flt" run "$data/bench.flt" >/dev/null
