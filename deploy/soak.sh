#!/usr/bin/env bash
# Soak: runs Chorus for a few minutes at a steady rate and prints, every ~10 s, the tasks
# done, Redis's used_memory and key count and the bytes of log written, then one line with
# memory and log bytes per task at steady state. Bounded: it stops after --minutes.
#
#   deploy/soak.sh [--minutes N] [--rate TASKS_PER_S] [--finished-ttl SECS]
#                  [--maxmemory BYTES] [--policy POLICY] [--maxlen N] [--concurrency N]
#
# Defaults: 3 minutes at 200 tasks/s, finished TTL 30 s (so retention catches up within
# the run), maxmemory 1gb with noeviction (docs/deploy.md says why), every stream capped
# near 20000 entries, 64 tasks in flight. It starts its own redis-server on a free port
# (no persistence), every role and both MCP servers through deploy/run-local.sh (logs at
# its default, info,rmcp=warn), and drives "2+4"-style load with chorus-bench in 10 s
# rounds of rate × 10 tasks. At the end it waits the finished TTL once more, so the kept
# finished tasks expire, and prints what each cost. Binaries: $CHORUS_BIN (default
# target/release). Everything it started is stopped by PID at the end; its files stay in
# the printed directory.
set -euo pipefail
cd "$(dirname "$0")/.."

minutes=3 rate=200 finished_ttl=30 maxmemory=1gb policy=noeviction maxlen=20000 concurrency=64
while [ $# -gt 0 ]; do
  case $1 in
    --minutes) minutes=$2; shift 2 ;;
    --rate) rate=$2; shift 2 ;;
    --finished-ttl) finished_ttl=$2; shift 2 ;;
    --maxmemory) maxmemory=$2; shift 2 ;;
    --policy) policy=$2; shift 2 ;;
    --maxlen) maxlen=$2; shift 2 ;;
    --concurrency) concurrency=$2; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "soak.sh: unknown argument $1 (--help)" >&2; exit 2 ;;
  esac
done
bin=${CHORUS_BIN:-target/release}
for b in chorus chorus-pool chorus-bench chorus-mcp-math chorus-mcp-date; do
  [ -x "$bin/$b" ] || { echo "soak.sh: $bin/$b missing; run: cargo build --release --workspace --bins" >&2; exit 1; }
done
bin=$(cd "$bin" && pwd)

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/chorus-soak.XXXXXX")
port=$(free_port)
url=redis://127.0.0.1:$port
cli() { redis-cli -p "$port" "$@"; }

redis_pid='' roles_pid='' load_pid=''
stop() {
  trap - INT TERM EXIT
  for pid in $load_pid $roles_pid; do kill "$pid" 2>/dev/null || true; done
  for pid in $load_pid $roles_pid; do wait "$pid" 2>/dev/null || true; done
  [ -n "$redis_pid" ] && { kill "$redis_pid" 2>/dev/null || true; wait "$redis_pid" 2>/dev/null || true; }
  echo "soak.sh: stopped; files in $dir" >&2
}
trap stop INT TERM EXIT

redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$dir" \
  --maxmemory "$maxmemory" --maxmemory-policy "$policy" >"$dir/redis.log" 2>&1 &
redis_pid=$!
for _ in $(seq 1 50); do cli PING >/dev/null 2>&1 && break; sleep 0.1; done

CHORUS_BIN=$bin CHORUS_MATH_PORT=$(free_port) CHORUS_DATE_PORT=$(free_port) \
  CHORUS__AGENTS__HTTP_BIND=127.0.0.1:$(free_port) \
  CHORUS__BUS__FINISHED_TTL_SECS=$finished_ttl CHORUS__BUS__STREAM_MAXLEN=$maxlen \
  deploy/run-local.sh "$url" >"$dir/roles.log" 2>&1 &
roles_pid=$!

# One warm-up task through the whole pipeline (waits for the pools), then the baseline.
"$bin/chorus-bench" --redis "$url" --tasks 1 --warmup 0 >"$dir/bench.log" 2>&1
sleep 1

info() { cli INFO "$1" | tr -d '\r' | awk -F: -v k="$2" '$1 == k { print $2 }'; }
done_count() { cli XINFO STREAM final_report | tr -d '\r' | awk 'p { print; exit } $0 == "entries-added" { p = 1 }'; }
log_bytes() { stat -c %s "$dir/roles.log"; }
count_keys() { cli --scan --pattern "$1" | wc -l; }

mem0=$(info memory used_memory) done0=$(done_count) log0=$(log_bytes)
echo "soak.sh: $url, ${minutes} min at ${rate} tasks/s, finished TTL ${finished_ttl} s, maxmemory $maxmemory ($policy), stream maxlen ~$maxlen; files in $dir" >&2
printf '%6s %9s %8s %12s %8s %12s\n' secs tasks tasks/s used_memory keys log_bytes

(
  end=$((SECONDS + minutes * 60))
  while [ $SECONDS -lt $end ]; do
    start=$SECONDS
    "$bin/chorus-bench" --redis "$url" --tasks $((rate * 10)) --concurrency "$concurrency" \
      --warmup 0 --json >>"$dir/bench.log" 2>&1 || echo "round failed" >>"$dir/bench.log"
    left=$((10 - (SECONDS - start)))
    [ $((SECONDS + left)) -gt $end ] && left=$((end - SECONDS))
    if [ $left -gt 0 ]; then sleep "$left"; fi
  done
) &
load_pid=$!

t0=$SECONDS prev_done=$done0 prev_t=$SECONDS samples=()
while kill -0 "$load_pid" 2>/dev/null; do
  sleep 10
  now_done=$(done_count) now_t=$SECONDS mem=$(info memory used_memory) keys=$(cli DBSIZE)
  printf '%6d %9d %8d %12d %8d %12d\n' $((now_t - t0)) $((now_done - done0)) \
    $(((now_done - prev_done) / (now_t - prev_t > 0 ? now_t - prev_t : 1))) \
    "$mem" "$keys" $(($(log_bytes) - log0))
  samples+=("$mem $keys")
  prev_done=$now_done prev_t=$now_t
done
wait "$load_pid" 2>/dev/null || true
load_pid=''

# Steady state: the last third of the samples taken under load. Then what the kept
# finished tasks cost: memory at the end of the load minus memory once they expired
# (the streams stay: they are capped, not expired).
secs=$((SECONDS - t0)) done_all=$(($(done_count) - done0)) logb=$(($(log_bytes) - log0))
steady=("${samples[@]: -$(( (${#samples[@]} + 2) / 3 ))}")
range() { printf '%s\n' "${steady[@]}" | awk -v f="$1" '{ v = $f; if (min == "" || v < min) min = v; if (v > max) max = v } END { print min "-" max }'; }
mem_end=$(info memory used_memory) reports=$(count_keys 'chorus:{*}:report')
task_keys=$(count_keys 'chorus:{*')
echo "soak.sh: load done; waiting $((finished_ttl + 5)) s for the finished tasks to expire" >&2
sleep $((finished_ttl + 5))
mem_drained=$(info memory used_memory) keys_drained=$(cli DBSIZE)
per_task=$(( reports > 0 ? (mem_end - mem_drained) / reports : 0 ))
echo "steady state (last third of ${secs} s under load): used_memory $(range 1) B, keys $(range 2); tasks=${done_all} ($((done_all / (secs > 0 ? secs : 1))) tasks/s); at the end of the load ${reports} finished tasks kept with ${task_keys} task keys, ${per_task} B of memory each (used_memory ${mem_end} -> ${mem_drained} once they expired; streams and the rest: $((mem_drained - mem0)) B over the ${mem0} B baseline, ${keys_drained} keys); log ${logb} B = $((done_all > 0 ? logb / done_all : 0)) B per task; evicted_keys=$(info stats evicted_keys)"
