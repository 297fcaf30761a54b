#!/usr/bin/env bash
# The data benchmark: flt against jq and Miller on the same 1,000,000-row phone catalog, as
# JSON Lines and as CSV, for the design filter. Prints medians, ratios and peak memory as a
# Markdown table for BENCHMARKS.md.
#
#   bash Scripts/benchmark-data.sh [ROWS] [RUNS]      (defaults: 1000000 rows, 5 runs)
#
# Builds flt in release mode, generates the files with flt-bench into a temporary folder,
# installs Miller from Debian's packages if it is missing, and checks that every tool finds
# the same number of records before timing anything.
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-1000000}
runs=${2:-5}

if ! command -v mlr >/dev/null; then
  echo "installing Miller (mlr) from Debian's packages..." >&2
  (apt-get install -y miller || (apt-get update && apt-get install -y miller)) >/dev/null
fi
command -v jq >/dev/null || { echo "jq is missing" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time (GNU time) is missing" >&2; exit 2; }

swift build -c release --product flt >/dev/null
swift build -c release --product flt-bench >/dev/null
flt=$PWD/.build/release/flt
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
.build/release/flt-bench generate "$rows" "$data" >&2
cd "$data"

filter='color in ("Starlight", "Space Black") and diskSpace >= 256'
jq_filter='select((.color == "Starlight" or .color == "Space Black") and .diskSpace >= 256)'
mlr_filter='($color == "Starlight" || $color == "Space Black") && $diskSpace >= 256'

# name|format|command (each writes the matching records to stdout)
commands=(
  "flt|JSON Lines|$flt '$filter' phones.jsonl"
  "jq|JSON Lines|jq -c '$jq_filter' phones.jsonl"
  "mlr|JSON Lines|mlr --ijsonl --ojsonl filter '$mlr_filter' phones.jsonl"
  "flt|CSV|$flt --format csv '$filter' phones.csv"
  "mlr|CSV|mlr --csv filter '$mlr_filter' phones.csv"
)

# Every tool must find the same records.
for entry in "${commands[@]}"; do
  IFS='|' read -r name format command <<<"$entry"
  lines=$(bash -c "$command" | wc -l)
  [ "$format" = CSV ] && lines=$((lines - 1))
  echo "$name ($format): $lines matches" >&2
  echo "$lines" >>counts
done
[ "$(sort -u counts | wc -l)" = 1 ] || { echo "the tools disagree on the matches" >&2; exit 1; }

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

echo "| Tool | Format | Median (s) | Ratio to flt | Peak memory (MB) |"
echo "|---|---|---|---|---|"
declare -A reference
for entry in "${commands[@]}"; do
  IFS='|' read -r name format command <<<"$entry"
  : >times
  : >memory
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %M" -o stats bash -c "$command > /dev/null"
    read -r seconds kilobytes <stats
    echo "$seconds" >>times
    echo "$kilobytes" >>memory
  done
  seconds=$(median <times)
  megabytes=$(($(median <memory) / 1024))
  [ "$name" = flt ] && reference[$format]=$seconds
  ratio=$(awk -v a="$seconds" -v b="${reference[$format]}" 'BEGIN { printf "%.1fx", a / b }')
  echo "| $name | $format | $seconds | $ratio | $megabytes |"
done
