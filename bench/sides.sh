#!/usr/bin/env bash
# The same build under several settings, in alternating runs (the machine is noisy:
# alternating spreads its drift over every side). Workloads as bench/ab.sh: "2+4" at
# concurrency 1 (p50 latency) and at 256 in flight (throughput).
#
#   bench/sides.sh BIN_DIR ROUNDS NAME=FLAGS…     e.g. off= traces=--traces
#
# BIN_DIR holds release binaries (chorus, chorus-pool, chorus-mcp-math, chorus-mcp-date,
# chorus-bench); FLAGS are chorus-bench flags (space separated, may be empty). Prints one
# line per run and the medians per side. With JSON_DIR set, every run's whole JSON report
# is kept there too (per-process CPU, Redis CPU, commands, OTLP bytes).
set -euo pipefail
dir=${1:?usage: bench/sides.sh BIN_DIR ROUNDS NAME=FLAGS...}
rounds=${2:?usage: bench/sides.sh BIN_DIR ROUNDS NAME=FLAGS...}
shift 2
[ $# -ge 1 ] || { echo "usage: bench/sides.sh BIN_DIR ROUNDS NAME=FLAGS..." >&2; exit 2; }

json_dir=${JSON_DIR:-}
bench() { # NAME ARGS… → the JSON line (kept as $JSON_DIR/NAME.json when set)
  local name=$1 line
  shift
  line=$("$dir/chorus-bench" --spawn --json "$@" | tail -1)
  if [ -n "$json_dir" ]; then printf '%s\n' "$line" >"$json_dir/$name.json"; fi
  printf '%s\n' "$line"
}
field() { python3 -c 'import json,sys; print(json.loads(sys.stdin.read())[sys.argv[1]])' "$1"; }

sides=()
declare -A flags lat tput
for spec in "$@"; do
  sides+=("${spec%%=*}")
  flags[${spec%%=*}]=${spec#*=}
done
for i in $(seq 1 "$rounds"); do
  for side in "${sides[@]}"; do
    # shellcheck disable=SC2086
    l=$(bench "$i-$side-c1" ${flags[$side]} --query "2+4" --tasks 1000 --concurrency 1 | field p50_ms)
    # shellcheck disable=SC2086
    t=$(bench "$i-$side-c256" ${flags[$side]} --query "2+4" --tasks 5000 --concurrency 256 --warmup 500 | field tasks_per_s)
    lat[$side]+="$l "
    tput[$side]+="$t "
    printf 'run %d %-8s  2+4 p50 (c=1) %6s ms   throughput (256 in flight) %7s tasks/s\n' "$i" "$side" "$l" "$t"
  done
done
median() { python3 -c 'import statistics,sys; print(round(statistics.median(float(x) for x in sys.argv[1:]), 3))' "$@"; }
for side in "${sides[@]}"; do
  # shellcheck disable=SC2086
  printf 'median %-8s  2+4 p50 (c=1) %6s ms   throughput (256 in flight) %7s tasks/s   (p50s: %s; tasks/s: %s)\n' \
    "$side" "$(median ${lat[$side]})" "$(median ${tput[$side]})" "${lat[$side]}" "${tput[$side]}"
done
