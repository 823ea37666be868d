#!/usr/bin/env bash
# Celery vs Chorus on this machine, in one run, with the same work:
#   - "2+4": plan -> compute -> synthesize (Celery: a chain of three tasks; Chorus: every
#     role and both MCP servers as processes, a real MCP call for the sum);
#   - a 3-way fan-out "1+1, 2+2 and 3+3": plan -> 3 parallel computes -> synthesize
#     (Celery: a chord; Chorus: the planner's 3-step plan, dispatched at once).
# Each is measured at concurrency 1 (p50/p99 latency) and with many in flight
# (throughput). Prints both systems' figures and their ratios, and stops everything it
# started (by PID).
#
#   bench/compare.sh                      (about 3-5 minutes on 2 cores)
#
# Environment:
#   CHORUS_BIN        directory with chorus, chorus-pool, chorus-bench, chorus-mcp-math, chorus-mcp-date
#                     (default: build them with cargo build --release into
#                     ${CARGO_TARGET_DIR:-target}/release)
#   BENCH_VENV        the Python venv (default bench/.venv; created when missing)
#   BENCH_TASKS_LAT   workflows measured at concurrency 1 (default 1000)
#   BENCH_TASKS_TPUT  workflows measured with many in flight (default 5000)
#   CELERY_HIGH_C     Celery workflows in flight (default 100)
#   CHORUS_HIGH_C     Chorus tasks in flight (default 256)
#   CELERY_LAT_POOL   Celery worker for the concurrency-1 runs (default "solo 1")
#   CELERY_TPUT_POOL  Celery worker for the many-in-flight runs (default "threads 8")
#                     (measured here: solo is Celery's fastest at concurrency 1, threads
#                     with 8 its fastest with many in flight; prefork 2 and 4 were slower)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

venv=${BENCH_VENV:-$root/bench/.venv}
lat_n=${BENCH_TASKS_LAT:-1000}
tput_n=${BENCH_TASKS_TPUT:-5000}
celery_c=${CELERY_HIGH_C:-100}
chorus_c=${CHORUS_HIGH_C:-256}
celery_lat_pool=${CELERY_LAT_POOL:-solo 1}
celery_tput_pool=${CELERY_TPUT_POOL:-threads 8}
fanout_query="1+1, 2+2 and 3+3"

pids=()
workdir=$(mktemp -d "${TMPDIR:-/tmp}/chorus-compare.XXXXXX")
cleanup() {
  trap - INT TERM EXIT
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$workdir"
}
trap cleanup INT TERM EXIT
say() { echo "compare.sh: $*" >&2; }

# 1. Chorus binaries.
bin=${CHORUS_BIN:-}
if [ -z "$bin" ]; then
  say "building Chorus (release)"
  cargo build --release -p chorus-cli -p chorus-pool -p chorus-bench -p chorus-mcp-math -p chorus-mcp-date --bins >&2
  bin=${CARGO_TARGET_DIR:-$root/target}/release
fi
for b in chorus chorus-pool chorus-bench chorus-mcp-math chorus-mcp-date; do
  [ -x "$bin/$b" ] || { say "missing $bin/$b"; exit 1; }
done

# 2. Celery in a venv.
if [ ! -x "$venv/bin/celery" ]; then
  say "creating $venv and installing celery[redis]"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "celery[redis]" >&2
fi
py=$venv/bin/python

# 3. Redis for Celery, on a free port.
port=$("$py" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --daemonize no \
  --dir "$workdir" >"$workdir/redis.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do
  redis-cli -p "$port" PING >/dev/null 2>&1 && break
  sleep 0.05
done
export BENCH_REDIS_URL=redis://127.0.0.1:$port/0

# 4. Celery workers and runs.
worker=
start_worker() { # POOL CONCURRENCY
  say "celery worker: --pool $1 -c $2"
  (cd "$root/bench" && exec "$venv/bin/celery" -A celery_tasks worker --pool "$1" -c "$2" \
    --loglevel warning --without-gossip --without-mingle --without-heartbeat) \
    >>"$workdir/celery-worker.log" 2>&1 &
  worker=$!
  pids+=($worker)
}
stop_worker() { kill "$worker" 2>/dev/null || true; wait "$worker" 2>/dev/null || true; }
celery() { (cd "$root/bench" && "$py" celery_bench.py "$@" | tail -1); }
# shellcheck disable=SC2086
start_worker $celery_lat_pool
say "celery: chain 2+4, concurrency 1"
c_chain_1=$(celery --mode chain --query "2+4" --tasks "$lat_n" --concurrency 1)
say "celery: chord fan-out, concurrency 1"
c_chord_1=$(celery --mode chord --query "$fanout_query" --tasks "$lat_n" --concurrency 1)
stop_worker
# shellcheck disable=SC2086
start_worker $celery_tput_pool
say "celery: chain 2+4, concurrency $celery_c"
c_chain_n=$(celery --mode chain --query "2+4" --tasks "$tput_n" --concurrency "$celery_c" --warmup "$celery_c")
say "celery: chord fan-out, concurrency $celery_c"
c_chord_n=$(celery --mode chord --query "$fanout_query" --tasks "$((tput_n / 5))" --concurrency "$celery_c" --warmup "$celery_c")
stop_worker

# 5. Chorus: every role and both MCP servers as processes on their own Redis (--spawn).
chorus() { "$bin/chorus-bench" --spawn --json "$@" | tee -a "$workdir/chorus.txt" | tail -1; }
say "chorus: 2+4, concurrency 1"
h_chain_1=$(chorus --query "2+4" --tasks "$lat_n" --concurrency 1)
say "chorus: 2+4, concurrency $chorus_c"
h_chain_n=$(chorus --query "2+4" --tasks "$tput_n" --concurrency "$chorus_c" --warmup 500)
say "chorus: fan-out, concurrency 1"
h_chord_1=$(chorus --query "$fanout_query" --tasks "$lat_n" --concurrency 1)
say "chorus: fan-out, concurrency $chorus_c"
h_chord_n=$(chorus --query "$fanout_query" --tasks "$tput_n" --concurrency "$chorus_c" --warmup 500)
grep -v '^{' "$workdir/chorus.txt" >&2 || true

# 6. Side by side.
"$py" "$root/bench/summary.py" \
  "$c_chain_1" "$c_chain_n" "$c_chord_1" "$c_chord_n" \
  "$h_chain_1" "$h_chain_n" "$h_chord_1" "$h_chord_n" \
  "celery: pool $celery_lat_pool at concurrency 1, $celery_tput_pool in flight"
echo
echo "raw figures (JSON, in the order of the table):"
printf '%s\n' "$c_chain_1" "$c_chain_n" "$c_chord_1" "$c_chord_n" \
  "$h_chain_1" "$h_chain_n" "$h_chord_1" "$h_chord_n"
