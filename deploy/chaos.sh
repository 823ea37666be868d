#!/usr/bin/env bash
# Chaos suite: a real redis-server (AOF), both MCP servers and every Chorus role as its own
# process (two replicas of each pool), driven with thousands of tasks of known answers while
# processes are killed (-9) and restarted, Redis is killed and restarted, and MCP servers are
# stopped and brought back. Every task must get exactly one final report with the right
# values (or, when its tool was down past its deadline, a report naming what failed).
#
#   deploy/chaos.sh            full run: CHAOS_TASKS (5000) over CHAOS_SECONDS (240)
#   deploy/chaos.sh --short    CI run: 1000 tasks over 60 s (under ~2 minutes)
#   deploy/chaos.sh --cluster [--short]
#                              the same on a Redis Cluster of 3 primaries + 3 replicas
#                              (redis-server --cluster-enabled yes x6, redis-cli --cluster
#                              create): instead of the Redis restart, primaries killed (-9)
#                              and one reshard under load (redis-cli --cluster reshard)
#   deploy/chaos.sh --partitions N [--cluster] [--short]
#                              every role with bus.partitions = N (1..=64; default
#                              $CHORUS__BUS__PARTITIONS, else 1): the internal topics
#                              spread over N streams (on the 3-primary Cluster, N = 3
#                              puts one partition on each primary); the driver reads
#                              every partition of clarification_needed, the reshard
#                              picks among the partitions' streams, and the run fails
#                              unless plan_ready went to every partition. CI runs
#                              --cluster with --partitions 3
#
# Binaries come from $CHORUS_BIN (default target/debug). More knobs: CHAOS_DEADLINE_MS,
# CHAOS_CLAIM_IDLE_MS, CHAOS_SEED, CHAOS_KEEP=1 (keep the temp dir with every log).
# Last line: tasks=N crashes=K lost=L duplicates=D wrong=W asked=Q answered=A; exit
# status 0 only when L, D and W are all 0. The driver (deploy/chaos/chaos.py) runs in a venv made here
# when missing ($CHAOS_VENV, default target/chaos-venv) with redis-py ($CHAOS_REDIS_PY_SPEC,
# default redis==5.2.1) as its Redis client.
set -euo pipefail
cd "$(dirname "$0")/.."
export CHORUS_BIN=${CHORUS_BIN:-target/debug}
for b in chorus chorus-pool chorus-mcp-math chorus-mcp-date; do
  if [ ! -x "$CHORUS_BIN/$b" ]; then
    echo "chaos.sh: $CHORUS_BIN/$b is missing; run: cargo build --workspace --bins" >&2
    exit 2
  fi
done
command -v "${CHORUS_REDIS_SERVER:-redis-server}" >/dev/null || {
  echo "chaos.sh: redis-server not found (set CHORUS_REDIS_SERVER)" >&2
  exit 2
}
case " $* " in
  *" --cluster "*)
    command -v "${CHORUS_REDIS_CLI:-redis-cli}" >/dev/null || {
      echo "chaos.sh: redis-cli not found (set CHORUS_REDIS_CLI)" >&2
      exit 2
    } ;;
esac
venv=${CHAOS_VENV:-target/chaos-venv}
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check "${CHAOS_REDIS_PY_SPEC:-redis==5.2.1}"
# exec: the driver receives INT/TERM itself and kills every process it started, by PID.
export PYTHONDONTWRITEBYTECODE=1
exec "$venv/bin/python" deploy/chaos/chaos.py "$@"
