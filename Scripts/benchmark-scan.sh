#!/usr/bin/env bash
# The one-shot command, old binary against new, side by side in one run: files (JSON Lines,
# CSV) and a SQLite table, a count and printed records each; best of 3 wall-clock seconds.
#   Scripts/benchmark-scan.sh OLD_FLT NEW_FLT [DIR]     DIR default /tmp/bench
# DIR gets phones.jsonl / phones.csv (1,000,000 records, flt-bench generate) and p.db (the
# first 300,000 records as a SQLite table) when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
old=$(realpath "$1")
new=$(realpath "$2")
dir=${3:-/tmp/bench}
mkdir -p "$dir"
[ -f "$dir/phones.jsonl" ] || .build/release/flt-bench generate 1000000 "$dir"
if [ ! -f "$dir/p.db" ]; then
  head -300000 "$dir/phones.jsonl" >"$dir/p300k.jsonl"
  "$new" -f sql --dialect sqlite --table phones true "$dir/p300k.jsonl" | sqlite3 "$dir/p.db"
fi
python3 - "$old" "$new" "$dir" <<'PY'
import subprocess, sys, time
old, new, folder = sys.argv[1:]
runs = [
    ("jsonl 1M: -c price < 500 and color == Midnight",
     ["-c", 'price < 500 and color == "Midnight"', f"{folder}/phones.jsonl"]),
    ("jsonl 1M: -f jsonl diskSpace >= 512 (printed)",
     ["-f", "jsonl", "diskSpace >= 512", f"{folder}/phones.jsonl"]),
    ("csv 1M: order by price desc limit 10",
     ["-f", "jsonl", "diskSpace >= 512 order by price desc limit 10", f"{folder}/phones.csv"]),
    ("sqlite 300k: -c with a residual (matches)",
     ["-c", 'model matches "iPhone.*Pro" and price < 1200', "--table", "phones", f"{folder}/p.db"]),
    ("sqlite 300k: -f jsonl year(released) == 2022 (printed)",
     ["-f", "jsonl", "year(released) == 2022", "--table", "phones", f"{folder}/p.db"]),
]
def best(binary, arguments):
    times = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run([binary] + arguments, stdout=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    return min(times)
print(f"{'run':<56} {'old s':>7} {'new s':>7} {'new/old':>7}")
for label, arguments in runs:
    a, b = best(old, arguments), best(new, arguments)
    print(f"{label:<56} {a:7.3f} {b:7.3f} {b / a:7.2f}")
PY
