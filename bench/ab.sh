#!/usr/bin/env bash
# A/B of two builds through the real pipeline, in alternating runs (the machine is
# noisy: alternating spreads its drift over both sides).
#
#   bench/ab.sh BEFORE AFTER [RUNS]
#
# BEFORE and AFTER are directories holding release binaries (chorus, chorus-pool, chorus-mcp-math,
# chorus-mcp-date, and chorus-bench — or, for trees from before chorus-bench existed, a
# chorus with the `bench` subcommand). Each run spawns its own Redis, both MCP servers and
# every role. Workloads: "2+4" at concurrency 1 (p50 latency) and at 256 in flight
# (throughput). Prints one line per run and the medians per side.
set -euo pipefail
before=${1:?usage: bench/ab.sh BEFORE_BIN_DIR AFTER_BIN_DIR [RUNS]}
after=${2:?usage: bench/ab.sh BEFORE_BIN_DIR AFTER_BIN_DIR [RUNS]}
runs=${3:-3}

bench() { # DIR ARGS… → the JSON line
  local dir=$1; shift
  if [ -x "$dir/chorus-bench" ]; then
    "$dir/chorus-bench" --spawn --json "$@" | tail -1
  else
    "$dir/chorus" bench --spawn --json "$@" | tail -1
  fi
}
field() { python3 -c 'import json,sys; print(json.loads(sys.stdin.read())[sys.argv[1]])' "$1"; }

declare -A lat tput
for i in $(seq 1 "$runs"); do
  for side in before after; do
    dir=${!side}
    l=$(bench "$dir" --query "2+4" --tasks 1000 --concurrency 1 | field p50_ms)
    t=$(bench "$dir" --query "2+4" --tasks 5000 --concurrency 256 --warmup 500 | field tasks_per_s)
    lat[$side]+="$l "
    tput[$side]+="$t "
    printf 'run %d %-6s  2+4 p50 (c=1) %6s ms   throughput (256 in flight) %7s tasks/s\n' "$i" "$side" "$l" "$t"
  done
done
median() { python3 -c 'import statistics,sys; print(round(statistics.median(float(x) for x in sys.argv[1:]), 3))' "$@"; }
for side in before after; do
  # shellcheck disable=SC2086
  printf 'median %-6s  2+4 p50 (c=1) %6s ms   throughput (256 in flight) %7s tasks/s   (p50s: %s; tasks/s: %s)\n' \
    "$side" "$(median ${lat[$side]})" "$(median ${tput[$side]})" "${lat[$side]}" "${tput[$side]}"
done
