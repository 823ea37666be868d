#!/usr/bin/env bash
# Starts both MCP servers and every Chorus role as separate processes against one Redis,
# waits until they are ready, and stops them all on Ctrl-C / SIGTERM.
#
#   deploy/run-local.sh [REDIS_URL]        (default redis://127.0.0.1:6379)
#
# Binaries come from $CHORUS_BIN (default: target/release, then target/debug).
# Ports: CHORUS_MATH_PORT (7301), CHORUS_DATE_PORT (7302). Replicas: CHORUS_MATH_REPLICAS,
# CHORUS_DATE_REPLICAS (1 each). Logs: CHORUS_LOG (default info,rmcp=warn; a filter
# that names no rmcp directive gets ",rmcp=warn" appended: the MCP SDK's per-call info
# lines are ~2 KB of log per task — name rmcp yourself, e.g. CHORUS_LOG=debug,rmcp=info,
# to see them).
set -euo pipefail
cd "$(dirname "$0")/.."

redis_url=${1:-redis://127.0.0.1:6379}
bin=${CHORUS_BIN:-}
if [ -z "$bin" ]; then
  for d in target/release target/debug; do
    if [ -x "$d/chorus" ] && [ -x "$d/chorus-pool" ] && [ -x "$d/chorus-mcp-math" ] && [ -x "$d/chorus-mcp-date" ]; then bin=$d; break; fi
  done
fi
if [ -z "$bin" ]; then
  echo "run-local.sh: no built binaries; run: cargo build --release --workspace --bins" >&2
  exit 1
fi
math_port=${CHORUS_MATH_PORT:-7301}
date_port=${CHORUS_DATE_PORT:-7302}
export CHORUS__BUS__REDIS_URL=$redis_url
export CHORUS__POOLS__MATH__MCP_URL=http://127.0.0.1:$math_port/mcp
export CHORUS__POOLS__DATE__MCP_URL=http://127.0.0.1:$date_port/mcp
log=${CHORUS_LOG:-info,rmcp=warn}
case ",$log" in
  *,rmcp*) ;;
  *) log="$log,rmcp=warn" ;;
esac
export CHORUS_LOG=$log
# mimalloc commits arena memory on demand: about half the resident memory (docs/performance.md).
export MIMALLOC_ARENA_EAGER_COMMIT=${MIMALLOC_ARENA_EAGER_COMMIT:-0}
# and hands freed pages back at once, not after 1 s: 1-2 MiB less peak RSS per role under
# load (docs/performance.md, "Where the memory goes at 256 in flight").
export MIMALLOC_PURGE_DELAY=${MIMALLOC_PURGE_DELAY:-0}

pids=()
stop() {
  trap - INT TERM EXIT
  echo "run-local.sh: stopping ${#pids[@]} processes" >&2
  kill "${pids[@]}" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap stop INT TERM EXIT

start() { "$@" & pids+=($!); }

start "$bin/chorus-mcp-math" --transport http --bind 127.0.0.1 --port "$math_port"
start "$bin/chorus-mcp-date" --transport http --bind 127.0.0.1 --port "$date_port"
for port in "$math_port" "$date_port"; do
  for _ in $(seq 1 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
    sleep 0.1
  done
done
for role in chief planner router synthesizer verifier; do start "$bin/chorus" agent "$role"; done
# Pool agents from their own binary, chorus-pool (less of it resident than chorus; the
# same settings and behaviour as `chorus agent pool`, docs/performance.md).
for _ in $(seq 1 "${CHORUS_MATH_REPLICAS:-1}"); do start "$bin/chorus-pool" --pool math; done
for _ in $(seq 1 "${CHORUS_DATE_REPLICAS:-1}"); do start "$bin/chorus-pool" --pool date; done
echo "run-local.sh: ${#pids[@]} processes up against $redis_url (Ctrl-C stops them)" >&2
wait -n "${pids[@]}" || true
echo "run-local.sh: a process exited; stopping the rest" >&2
