#!/usr/bin/env bash
# Redis commands per task by role and by command, at one task in flight: runs
# `chorus-bench --spawn` from BIN_DIR, and for 2 s in the middle of the run records
# MONITOR on the Redis it started and which process owns each client connection
# (`ss -tnp`); bench/commands_by_role.py attributes each command to its process
# (commands a script runs, shown by MONITOR as from "lua", to the process that ran the
# script) and divides by the tasks the client submitted meanwhile.
#
#   bench/commands_by_role.sh BIN_DIR OUT_DIR [QUERY]
#
# OUT_DIR receives bench.txt (the benchmark's own report), mon.txt, ss.txt, pids.txt and
# summary.txt. MONITOR slows Redis while it runs; only the counts are read from it.
set -euo pipefail
bin=${1:?usage: bench/commands_by_role.sh BIN_DIR OUT_DIR [QUERY]}
out=${2:?usage: bench/commands_by_role.sh BIN_DIR OUT_DIR [QUERY]}
query=${3:-2+4}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
before=" $( (pgrep -f 'redis-server 127.0.0.1' || true) | tr '\n' ' ') "
"$bin/chorus-bench" --spawn --json --tasks 8000 --warmup 100 --concurrency 1 --query "$query" \
  > "$out/bench.txt" 2>&1 &
bench=$!
port=""
for _ in $(seq 1 100); do
  sleep 0.2
  for p in $(pgrep -f 'redis-server 127.0.0.1' || true); do
    case "$before" in *" $p "*) continue ;; esac
    port=$(ps -o args= -p "$p" | grep -o ':[0-9][0-9]*' | tr -d ':' | head -1)
  done
  [ -n "$port" ] && break
done
if [ -z "$port" ]; then
  echo "commands_by_role.sh: the benchmark's redis-server did not show up" >&2
  kill "$bench" 2>/dev/null || true
  exit 1
fi
sleep 5
# "<pid> <name>": the binary's name and its arguments (chorus agent planner, …).
ps -eo pid=,args= | grep -F "$bin/" | grep -v grep \
  | sed -E 's#^ *([0-9]+) [^ ]*/([^ /]+)#\1 \2#' > "$out/pids.txt"
timeout 2 redis-cli -p "$port" MONITOR > "$out/mon.txt" || true
ss -tnp > "$out/ss.txt"
wait "$bench" || true
python3 "$here/commands_by_role.py" "$out/mon.txt" "$out/ss.txt" "$out/pids.txt" | tee "$out/summary.txt"
