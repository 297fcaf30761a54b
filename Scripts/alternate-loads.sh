#!/usr/bin/env bash
# Two (or more) builds of flt against each other on one load, alternated so that a busy
# machine slows them alike: each binary runs `FILE` (a script that sets `time on` and loads
# one file) in a REPL, in turn, RUNS times; prints each one's median load time and median CPU
# (user + system). How BENCHMARKS.md's before-and-after figures of a load are taken.
#
#   bash Scripts/alternate-loads.sh RUNS FILE BINARY...
#   e.g. printf 'set time on\nload "phones.csv"\n' > /tmp/bench/csv.flt
#        bash Scripts/alternate-loads.sh 7 /tmp/bench/csv.flt /tmp/flt-before .build/release/flt
#
# The file's folder is the current folder while it runs (paths in it are relative to it).
set -euo pipefail
[ $# -ge 3 ] || { sed -n 2,10p "$0" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time (GNU time) is missing" >&2; exit 2; }
runs=$1
script=$(realpath "$2")
shift 2
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
binaries=()
for binary in "$@"; do binaries+=("$(realpath "$binary")"); done
cd "$(dirname "$script")"
for _ in $(seq "$runs"); do
  for index in "${!binaries[@]}"; do
    output=$({ /usr/bin/time -f "%U %S" "${binaries[$index]}" repl <"$script" 2>&1 1>/dev/null; } 2>&1)
    # ("time: 283.1 ms", or past a second "time: 1.457 s")
    ms=$(echo "$output" | sed -nE 's/^time: ([0-9.]+) ms$/\1/p; s/^time: ([0-9.]+) s$/\1/p' | head -1 |
      awk -v line="$(echo "$output" | grep -m1 '^time:')" '{ print (line ~ / ms$/) ? $1 : $1 * 1000 }')
    cpu=$(echo "$output" | tail -1 | awk '{print $1 + $2}')
    echo "$ms $cpu" >>"$results/$index"
  done
done
median() { sort -n | awk '{ value[NR] = $1 } END { print value[int((NR + 1) / 2)] }'; }
for index in "${!binaries[@]}"; do
  echo "${binaries[$index]}: load $(cut -d' ' -f1 "$results/$index" | median) ms," \
    "CPU $(cut -d' ' -f2 "$results/$index" | median) s (medians of $runs)"
done
