#!/usr/bin/env bash
# chorus-bench on a local Redis Cluster (3 primaries + 3 replicas, `redis-cli --cluster
# create --cluster-replicas 1`) with `bus.partitions` = N, against one standalone
# Redis, in alternating runs (the machine is noisy: alternating spreads its drift over
# every side). Each run starts its own Redis (or Cluster), both MCP servers and every
# role (`chorus agent …`), runs chorus-bench against them, and reads each node's
# commands and CPU (`INFO commandstats`, `INFO cpu`, reset before the bench) after it.
#
#   bench/cluster.sh BIN_DIR ["standalone 1 3 6"] [RUNS]
#
# BIN_DIR holds release binaries (chorus, chorus-mcp-math, chorus-mcp-date,
# chorus-bench). Workload: BENCH_QUERY ("2+4"), BENCH_TASKS (5000) at
# BENCH_CONCURRENCY (256) in flight after BENCH_WARMUP (500). With BENCH_MONITOR=S,
# every primary is also watched with MONITOR for S seconds, BENCH_MONITOR_AFTER (5) s
# after the bench started (hot keys: see bench/hotkeys.py; MONITOR slows the nodes, so
# such runs are not for throughput; give them enough BENCH_TASKS to last).
# Prints one line per run and node, and a summary per side. Every process started is
# stopped by PID.
set -euo pipefail
bin=${1:?usage: bench/cluster.sh BIN_DIR [MODES] [RUNS]}
modes=${2:-"standalone 1 3 6"}
runs=${3:-3}
query=${BENCH_QUERY:-2+4}
tasks=${BENCH_TASKS:-5000}
concurrency=${BENCH_CONCURRENCY:-256}
warmup=${BENCH_WARMUP:-500}
monitor=${BENCH_MONITOR:-0}
monitor_after=${BENCH_MONITOR_AFTER:-5}
out=${BENCH_OUT:-$(mktemp -d)}
mkdir -p "$out"
work=$(mktemp -d)
pids=()

stop_all() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  pids=()
}
trap 'stop_all; rm -rf "$work"' EXIT

# N free ports whose cluster bus port (+10000) is free too.
free_ports() {
  python3 - "$1" <<'EOF'
import random, socket, sys
def free(p):
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", p)); return True
    except OSError:
        return False
    finally:
        s.close()
out = []
while len(out) < int(sys.argv[1]):
    p = random.randint(20000, 30000)
    if p not in out and free(p) and free(p + 10000):
        out.append(p)
print(" ".join(map(str, out)))
EOF
}

cli() { redis-cli -p "$1" "${@:2}"; }

# Starts the Redis side of MODE; sets ports (every node), url and env.
start_redis() {
  local mode=$1 dir=$2 p
  if [ "$mode" = standalone ]; then
    ports=$(free_ports 1)
    redis-server --port "$ports" --bind 127.0.0.1 --save "" --appendonly no \
      --dir "$dir" >"$dir/redis.log" 2>&1 &
    pids+=($!)
    url="redis://127.0.0.1:$ports"
    env_redis=(CHORUS__BUS__REDIS_URL="$url")
  else
    ports=$(free_ports 6)
    for p in $ports; do
      mkdir -p "$dir/$p"
      redis-server --port "$p" --bind 127.0.0.1 --save "" --appendonly no \
        --cluster-enabled yes --cluster-config-file nodes.conf --dir "$dir/$p" \
        >"$dir/$p/redis.log" 2>&1 &
      pids+=($!)
    done
    for p in $ports; do until cli "$p" PING >/dev/null 2>&1; do sleep 0.05; done; done
    # shellcheck disable=SC2046
    redis-cli --cluster create $(for p in $ports; do echo "127.0.0.1:$p"; done) \
      --cluster-replicas 1 --cluster-yes >"$dir/create.log" 2>&1
    for p in $ports; do
      until cli "$p" CLUSTER INFO | grep -q "cluster_state:ok"; do sleep 0.1; done
    done
    local first=${ports%% *} rest seeds=""
    rest=${ports#* }
    for p in $rest; do seeds+="${seeds:+,}redis://127.0.0.1:$p"; done
    url="redis://127.0.0.1:$first"
    env_redis=(CHORUS__BUS__REDIS_URL="$url" CHORUS__BUS__REDIS_MODE=cluster
      CHORUS__BUS__CLUSTER_NODES="$seeds" CHORUS__BUS__PARTITIONS="$mode")
  fi
  for p in $ports; do until cli "$p" PING >/dev/null 2>&1; do sleep 0.05; done; done
}

start_roles() {
  local dir=$1 mp dp role
  read -r mp dp <<<"$(free_ports 2)"
  "$bin/chorus-mcp-math" --transport http --bind 127.0.0.1 --port "$mp" >"$dir/math.log" 2>&1 &
  pids+=($!)
  "$bin/chorus-mcp-date" --transport http --bind 127.0.0.1 --port "$dp" >"$dir/date.log" 2>&1 &
  pids+=($!)
  env_roles=("${env_redis[@]}" CHORUS__POOLS__MATH__MCP_URL="http://127.0.0.1:$mp/mcp"
    CHORUS__POOLS__DATE__MCP_URL="http://127.0.0.1:$dp/mcp" CHORUS_LOG=warn)
  for role in chief planner router synthesizer verifier; do
    env "${env_roles[@]}" "$bin/chorus" agent "$role" >"$dir/$role.log" 2>&1 &
    pids+=($!)
  done
  for pool in math date; do
    env "${env_roles[@]}" "$bin/chorus" agent pool --pool "$pool" >"$dir/pool-$pool.log" 2>&1 &
    pids+=($!)
  done
}

# Per node: role, commands processed, CPU seconds (user + sys) since the reset.
node_stats() {
  local p role calls cpu
  for p in $ports; do
    role=$(cli "$p" ROLE | head -1)
    calls=$(cli "$p" INFO stats | tr -d '\r' | awk -F: '/^total_commands_processed:/{print $2}')
    cpu=$(cli "$p" INFO cpu | tr -d '\r' | awk -F: '/^used_cpu_(sys|user):/{s+=$2} END{printf "%.2f", s}')
    echo "$p $role $calls $cpu"
  done
}

field() { python3 -c 'import json,sys; print(json.loads(sys.stdin.read())[sys.argv[1]])' "$1"; }

for i in $(seq 1 "$runs"); do
  for mode in $modes; do
    dir="$work/run-$i-$mode"
    mkdir -p "$dir"
    start_redis "$mode" "$dir"
    start_roles "$dir"
    cpu0=()
    for p in $ports; do
      cpu0+=("$(cli "$p" INFO cpu | tr -d '\r' | awk -F: '/^used_cpu_(sys|user):/{s+=$2} END{printf "%.2f", s}')")
    done
    for p in $ports; do cli "$p" CONFIG RESETSTAT >/dev/null; done
    if [ "$monitor" != 0 ]; then
      (
        sleep "$monitor_after"
        for p in $ports; do
          if cli "$p" ROLE | head -1 | grep -q master; then
            timeout "$monitor" redis-cli -p "$p" MONITOR >"$out/monitor-$i-$mode-$p.txt" 2>/dev/null &
          fi
        done
        wait
      ) &
      pids+=($!)
    fi
    json=$(env "${env_redis[@]}" "$bin/chorus-bench" --redis "$url" --query "$query" \
      --tasks "$tasks" --concurrency "$concurrency" --warmup "$warmup" --json 2>"$dir/bench.err" | tail -1)
    echo "$json" >"$out/bench-$i-$mode.json"
    stats=$(node_stats)
    echo "$stats" >"$out/nodes-$i-$mode.txt"
    tput=$(field tasks_per_s <<<"$json")
    p50=$(field p50_ms <<<"$json")
    p99=$(field p99_ms <<<"$json")
    printf 'run %d %-10s %8s tasks/s  p50 %7s ms  p99 %7s ms\n' "$i" "$mode" "$tput" "$p50" "$p99"
    k=0
    while read -r p role calls cpu; do
      # CPU seconds: used_cpu_* is since the node started; subtract the start sample.
      printf '    node %s %-6s commands %9s  cpu %6.2f s\n' "$p" "$role" "$calls" \
        "$(python3 -c "print(max(0.0, $cpu - ${cpu0[$k]}))")"
      k=$((k + 1))
    done <<<"$stats"
    stop_all
  done
done
echo "results in $out"
