#!/usr/bin/env bash
# How long the REPL takes to show a pasted line, in tmux (as a person pastes: tmux's
# paste-buffer): the time from the paste until the line's end is on the screen.
#   Scripts/benchmark-paste.sh [FLT_BINARY] [BYTES]     default: .build/release/flt, 100000
set -euo pipefail
cd "$(dirname "$0")/.."
binary=$(realpath "${1:-.build/release/flt}")
bytes=${2:-100000}
text=$(mktemp)
trap 'rm -f "$text"; tmux kill-session -t flt-paste 2>/dev/null || true' EXIT
python3 -c "import sys; n = int(sys.argv[1]); s = 'price > 1 and ' * (n // 14) + 'price > 2'; open(sys.argv[2], 'w').write(s)" "$bytes" "$text"
tmux kill-session -t flt-paste 2>/dev/null || true
tmux new-session -d -x 120 -y 30 -s flt-paste "cd examples && '$binary' repl phones.json"
for _ in $(seq 1 200); do tmux capture-pane -p -t flt-paste | grep -q 'phones>' && break; sleep 0.05; done
tmux load-buffer "$text"
start=$(date +%s.%N)
tmux paste-buffer -t flt-paste
for _ in $(seq 1 6000); do tmux capture-pane -p -t flt-paste | grep -q 'price > 2' && break; sleep 0.02; done
end=$(date +%s.%N)
echo "$(wc -c <"$text") bytes pasted, shown after $(python3 -c "print(round($end - $start, 3))") s"
