#!/usr/bin/env bash
# End-to-end smoke test of deploy/docker-compose.yml on a real Docker engine, security
# on (Redis over TLS with an ACL user per service, a token on the Chief's HTTP doors):
#   builds the images from local files (deploy/build-images.sh), starts the stack,
#   checks that Redis refuses the default user and the HTTP API a request without the
#   token, sends a task with redis-cli PUBLISH inside the Redis container (over TLS as
#   the ACL user `client`; `watcher` for XLEN/XPENDING) and one through the HTTP API
#   from the host with the token, scales the math pool to 3 and runs CHORUS_SMOKE_TASKS (300)
#   tasks while killing one math container, restarts Redis and sends more, and checks
#   that every task has exactly one final report with the right value; then asks the
#   compose file's Prometheus for its targets (every one up, every service scraped) and
#   for `chorus_` series, and the Chief for its web view. Always cleans up.
#
# With --cluster, the same on a Redis Cluster (deploy/docker-compose.yml overridden by
# deploy/docker-compose.cluster.yml: six nodes, three primaries and three replicas,
# joined by the one-shot `cluster-init`): it also checks that the Cluster formed (every
# node cluster_state:ok, 3 primaries holding every slot, 3 replicas) and that every node
# refuses the default user; redis-cli runs with -c (it follows the Cluster's
# redirections); `chorus ask` runs inside the Chief's container (the nodes announce
# names that resolve on the compose network only); and instead of the Redis restart
# it restarts the primary holding `final_report`.
#
#   deploy/smoke.sh                      # from any directory
#   deploy/smoke.sh --cluster            # on a Redis Cluster
#   CHORUS_PROFILE=debug deploy/smoke.sh # use target/debug binaries (default: release)
#
# Needs docker, docker-compose (or docker compose), curl and jq (installed with apt-get
# when missing). Env: CHORUS_PROFILE, CHORUS_SMOKE_TASKS (300), CHORUS_SMOKE_PROJECT
# (chorus-smoke; chorus-smoke-cluster with --cluster), CHORUS_SMOKE_KEEP=1 (leave the
# stack up), CHORUS_IMAGE, REDIS_IMAGE.
# Last line: `smoke: ok tasks=… duplicates=0 lost=0 wrong=0 build=…s run=…s` (with
# --cluster, ` mode=cluster` after it) (exit 0) or `smoke: FAILED …` (exit 1).
set -euo pipefail
cluster=0
case "${1:-}" in
  "") ;;
  --cluster) cluster=1 ;;
  *) echo "usage: deploy/smoke.sh [--cluster]" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
export CHORUS_PROFILE=${CHORUS_PROFILE:-release}
export CHORUS_IMAGE=${CHORUS_IMAGE:-chorus:latest}
export REDIS_IMAGE=${REDIS_IMAGE:-redis:7-bookworm}
export PROMETHEUS_IMAGE=${PROMETHEUS_IMAGE:-chorus-prometheus:latest}
if [ "$cluster" = 1 ]; then project=${CHORUS_SMOKE_PROJECT:-chorus-smoke-cluster}; else project=${CHORUS_SMOKE_PROJECT:-chorus-smoke}; fi
load=${CHORUS_SMOKE_TASKS:-300}
work=$(mktemp -d "${TMPDIR:-/tmp}/chorus-smoke.XXXXXX")
files=(-f "$root/deploy/docker-compose.yml")
[ "$cluster" = 0 ] || files+=(-f "$root/deploy/docker-compose.cluster.yml")
if command -v docker-compose >/dev/null 2>&1; then dc=(docker-compose); else dc=(docker compose); fi
compose() { "${dc[@]}" -p "$project" "${files[@]}" "$@"; }

say() { echo "smoke: $*" >&2; }
tasks=0 duplicates=0 lost=0 wrong=0 build_s=0 run_s=0 run_start=0 failure="" skipped=()
fail() { failure=$*; say "FAIL: $*"; exit 1; }

# teardown: the project's containers, network and volumes. When `down` fails — Docker
# 20.10 can keep a stale endpoint on the network ("has active endpoints", no container
# listed), and compose then stops before the volumes — the project's volumes are removed
# by their compose label anyway, so the next run starts clean (the network stays; the
# next `up` reuses it). Fails when a container or volume of the project is left.
teardown() {
  compose down -v --remove-orphans >/dev/null 2>&1 && return 0
  local v
  for v in $(docker volume ls -q --filter "label=com.docker.compose.project=$project"); do
    docker volume rm "$v" >/dev/null 2>&1 || true
  done
  [ -z "$(compose ps -q 2>/dev/null)" ] &&
    [ -z "$(docker volume ls -q --filter "label=com.docker.compose.project=$project")" ]
}

finish() {
  local rc=$?
  trap - EXIT INT TERM
  [ "$run_start" = 0 ] || run_s=$(($(date +%s) - run_start))
  if [ "$rc" != 0 ] && [ -z "$failure" ]; then failure="exit status $rc"; fi
  if [ -n "$failure" ] && [ -f "$work/up" ]; then
    say "last log lines of every container:"
    compose logs --no-color --tail=25 >&2 2>/dev/null || true
  fi
  if [ "${CHORUS_SMOKE_KEEP:-0}" = 1 ]; then
    say "CHORUS_SMOKE_KEEP=1: stack left up; stop it with: ${dc[*]} -p $project ${files[*]} down -v"
  elif [ -f "$work/up" ]; then
    teardown || say "docker-compose down failed: containers or volumes of $project are left"
  fi
  rm -rf "$work"
  local figures="tasks=$tasks duplicates=$duplicates lost=$lost wrong=$wrong build=${build_s}s run=${run_s}s"
  [ ${#skipped[@]} = 0 ] || figures="$figures skipped=$(IFS=,; echo "${skipped[*]}")"
  [ "$cluster" = 0 ] || figures="$figures mode=cluster"
  if [ -z "$failure" ]; then
    echo "smoke: ok $figures"
  else
    echo "smoke: FAILED ($failure) $figures"
    exit 1
  fi
}
trap finish EXIT
trap 'fail "interrupted"' INT TERM

docker info >/dev/null 2>&1 || fail "no Docker engine (docker info failed)"
for tool in jq curl; do
  command -v "$tool" >/dev/null 2>&1 && continue
  say "$tool missing; installing it with apt-get"
  sudo=(); [ "$(id -u)" = 0 ] || sudo=(sudo)
  { "${sudo[@]}" apt-get update -qq && DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "$tool"; } >/dev/null ||
    fail "$tool is needed on the host"
done

# --- images ------------------------------------------------------------------------
t=$(date +%s)
bash "$root/deploy/build-images.sh" "$CHORUS_PROFILE" || fail "image build"
build_s=$(($(date +%s) - t))
run_start=$(date +%s)

# Free host ports, so a Redis or a service already on 6379/8080 does not collide.
free_port() {
  local p=$1
  while (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; do p=$((p + 1)); done
  echo "$p"
}
export CHORUS_HTTP_PORT=${CHORUS_HTTP_PORT:-$(free_port 18080)}
export CHORUS_REDIS_PORT=${CHORUS_REDIS_PORT:-$(free_port 16379)}
export CHORUS_PROMETHEUS_PORT=${CHORUS_PROMETHEUS_PORT:-$(free_port 19090)}
export CHORUS_CLAIM_IDLE_MS=${CHORUS_CLAIM_IDLE_MS:-3000}
export CHORUS_LOG=${CHORUS_LOG:-info,rmcp=warn}

# `chorus probe` runs the health checks; an older binary without it gets stand-in checks
# (the process runs) and this script checks the HTTP endpoints itself.
has_probe=1
if ! docker run --rm "$CHORUS_IMAGE" chorus probe --help >/dev/null 2>&1; then
  has_probe=0
  say "note: this chorus binary has no 'probe' subcommand; health checks replaced by stand-ins"
  cat >"$work/override.yml" <<'EOF'
version: "2.4"
services:
  math-mcp: {healthcheck: {test: ["CMD", "chorus-mcp-math", "--version"]}}
  date-mcp: {healthcheck: {test: ["CMD", "chorus-mcp-date", "--version"]}}
  chief: {healthcheck: {test: ["CMD", "chorus", "--version"]}}
EOF
  files+=(-f "$work/override.yml")
fi

# --- up ----------------------------------------------------------------------------
teardown || fail "containers or volumes of an earlier $project are left and cannot be removed"
touch "$work/up"
compose up -d >"$work/up.log" 2>&1 || { cat "$work/up.log" >&2; fail "docker-compose up"; }

redis_ctr() { compose ps -q redis; }
# rcli ARGS: redis-cli in the Redis container over TLS as the ACL user `client` (writes
# requests and answers, reads reports); rwatch: as `watcher` (read-only, XLEN/XPENDING).
# On a Cluster, from the node `redis`, following redirections (-c).
follow=()
[ "$cluster" = 0 ] || follow=(-c)
rcli() { docker exec -i "$(redis_ctr)" redis-cli-as client "${follow[@]}" "$@"; }
rwatch() { docker exec -i "$(redis_ctr)" redis-cli-as watcher "${follow[@]}" "$@"; }
# radmin HOST ARGS: on a Cluster, redis-cli to node HOST as `cluster-admin` (CLUSTER, INFO).
radmin() { local h=$1; shift; docker exec -i -e REDIS_HOST="$h" "$(redis_ctr)" redis-cli-as cluster-admin "$@"; }
nodes=(redis redis-2 redis-3 redis-4 redis-5 redis-6)

# wait_for SECONDS WHAT COMMAND...: polls COMMAND every 0.5 s.
wait_for() {
  local secs=$1 what=$2 i
  shift 2
  for ((i = 0; i < secs * 2; i++)); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.5
  done
  fail "timed out after ${secs}s waiting for $what"
}
# Every container running, and healthy where it has a health check; the one-shots
# `secrets` and (Cluster) `cluster-init` exited with status 0.
all_healthy() {
  local id state
  for id in $(compose ps -q); do
    state=$(docker inspect -f '{{index .Config.Labels "com.docker.compose.service"}}/{{.State.Status}}/{{.State.ExitCode}}/{{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}' "$id")
    case "$state" in */running/*/healthy | */running/*/none | secrets/exited/0/none | cluster-init/exited/0/none) ;; *) return 1 ;; esac
  done
}
# ready SERVICE N: N containers of SERVICE have logged "chorus <role> ready".
ready() {
  local n=0 id
  for id in $(compose ps -q "$1"); do
    if docker logs "$id" 2>&1 | grep ' ready$' >/dev/null; then n=$((n + 1)); fi
  done
  [ "$n" -ge "$2" ]
}
# An MCP server answers /healthz (checked from the host on the container's address).
mcp_healthy() {
  local ip
  ip=$(docker inspect -f '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$(compose ps -q "$1")")
  curl -sf -m 2 "http://$ip:$2/healthz"
}
wait_for 120 "every container healthy" all_healthy
wait_for 30 "math-mcp /healthz" mcp_healthy math-mcp 7301
wait_for 30 "date-mcp /healthz" mcp_healthy date-mcp 7302
for s in chief planner router synthesizer verifier math date; do wait_for 60 "$s ready" ready "$s" 1; done
say "stack up in $(($(date +%s) - run_start))s (http :$CHORUS_HTTP_PORT, redis 127.0.0.1:$CHORUS_REDIS_PORT)"

# cluster_formed: every node says cluster_state:ok and knows the six; seen from the node
# `redis`, all six connected, three primaries holding slots, three replicas (one docker
# exec: CLUSTER INFO of every node, then CLUSTER NODES).
cluster_formed() {
  local n=${#nodes[@]}
  docker exec -i "$(redis_ctr)" sh -c 'for h in "$@"; do REDIS_HOST=$h redis-cli-as cluster-admin CLUSTER INFO; done
    redis-cli-as cluster-admin CLUSTER NODES' sh "${nodes[@]}" | tr -d '\r' >"$work/cluster.txt" || return 1
  [ "$(grep -cx 'cluster_state:ok' "$work/cluster.txt")" = "$n" ] || return 1
  [ "$(grep -cx "cluster_known_nodes:$n" "$work/cluster.txt")" = "$n" ] || return 1
  awk 'NF >= 8 && ($8 == "connected" || $8 == "disconnected")' "$work/cluster.txt" >"$work/nodes.txt"
  [ "$(awk '$8 == "connected"' "$work/nodes.txt" | wc -l)" = "$n" ] &&
    [ "$(awk '$3 ~ /master/ && NF >= 9' "$work/nodes.txt" | wc -l)" = 3 ] &&
    [ "$(awk '$3 ~ /slave/' "$work/nodes.txt" | wc -l)" = 3 ]
}
if [ "$cluster" = 1 ]; then
  wait_for 30 "the Cluster: every node cluster_state:ok, 3 primaries with slots, 3 replicas" cluster_formed
  say "Cluster formed: primaries $(awk '$3 ~ /master/ {split($2, a, ","); printf "%s ", a[2]}' "$work/nodes.txt")replicas $(awk '$3 ~ /slave/ {split($2, a, ","); printf "%s ", a[2]}' "$work/nodes.txt")cluster_state:ok on every node"
fi

# --- security on ---------------------------------------------------------------------
# Redis: TLS only, the default user off, every service on its own user.
secret() { docker exec -u 0 "$(compose ps -q chief)" cat "/secrets/$1"; }
noauth=$(docker exec "$(redis_ctr)" redis-cli --tls --cacert /secrets/ca.crt ping 2>&1 || true)
case "$noauth" in *NOAUTH*) ;; *) fail "Redis answered the default user: $noauth" ;; esac
if [ "$cluster" = 1 ]; then
  for h in "${nodes[@]:1}"; do
    noauth=$(docker exec "$(redis_ctr)" redis-cli --tls --cacert /secrets/ca.crt -h "$h" ping 2>&1 || true)
    case "$noauth" in *NOAUTH*) ;; *) fail "Cluster node $h answered the default user: $noauth" ;; esac
  done
fi
plain=$(docker exec "$(redis_ctr)" redis-cli ping 2>&1 || true)
[ "$plain" != PONG ] || fail "Redis answered a plain (non-TLS) connection"
[ "$(rcli ping)" = PONG ] || fail "Redis refused the client user over TLS"
for id in $(compose ps -q); do
  svc=$(docker inspect -f '{{index .Config.Labels "com.docker.compose.service"}}' "$id")
  case "$svc" in chief | planner | router | synthesizer | verifier | math | date) ;; *) continue ;; esac
  # Each agent's password file is its own: another agent's uid cannot read it.
  docker exec "$id" sh -c 'read -r p </secrets/pw/$CHORUS__BUS__REDIS_USER' ||
    fail "$svc cannot read its own password file"
  if [ "$svc" != chief ] && docker exec "$id" sh -c 'read -r p </secrets/pw/chief' 2>/dev/null; then
    fail "$svc can read the chief's password file"
  fi
done
# The MCP servers ask for their token (the pool agents send it; /healthz stays open).
mcp_unauth() {
  local ip
  ip=$(docker inspect -f '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$(compose ps -q "$1")")
  curl -s -m 5 -o /dev/null -w '%{http_code}' -X POST "http://$ip:$2/mcp" -H 'content-type: application/json' \
    -H 'accept: application/json, text/event-stream' -d '{}' || true
}
for m in "math-mcp 7301" "date-mcp 7302"; do
  # shellcheck disable=SC2086
  code=$(mcp_unauth $m)
  [ "$code" = 401 ] || fail "${m% *} answered $code to a request without its token (want 401)"
done
token=$(secret http-tokens | head -1)
[ -n "$token" ] || fail "no HTTP token in the secrets volume"
auth=(-H "authorization: Bearer $token")
say "security on: Redis TLS-only with the default user off, one password file per service uid, MCP servers 401 without their token"

# --- reports -----------------------------------------------------------------------
# reports: one line per final_report entry: task_id <TAB> status <TAB> output values.
reports() {
  rcli --raw XRANGE final_report - + | grep '^{' |
    jq -r '[.task_id, .payload.status, ([.payload.steps[] | select(.output) | .outcome.value // "-"] | join(","))] | @tsv'
}
# has_reports ID...: every ID has at least one report.
has_reports() {
  reports >"$work/reports.tsv"
  local id
  for id in "$@"; do grep -q "^$id	" "$work/reports.tsv" || return 1; done
}
# check ID WANT: exactly one report for ID, completed, with output value WANT.
check() {
  local id=$1 want=$2 lines n
  tasks=$((tasks + 1))
  lines=$(grep "^$id	" "$work/reports.tsv" || true)
  n=$(printf '%s' "$lines" | grep -c . || true)
  if [ "$n" = 0 ]; then lost=$((lost + 1)); say "lost: $id"; return; fi
  [ "$n" = 1 ] || { duplicates=$((duplicates + n - 1)); say "duplicate: $id has $n reports"; }
  if [ "$(printf '%s\n' "$lines" | awk 'NR==1' | cut -f2-)" != "completed	$want" ]; then
    wrong=$((wrong + 1))
    say "wrong: $id: $(printf '%s\n' "$lines" | awk 'NR==1' | cut -f2-) (want completed $want)"
  fi
}
# publish ID JSON: PUBLISH ingress from inside the Redis container; repeats while nobody
# (no Chief) is subscribed yet, since Pub/Sub keeps nothing. A resend is harmless: the
# same task id with the same request is accepted once. On a Cluster, PUBLISH counts
# only the subscribers of the node it ran on, and the Chief may listen on another node
# (the first seed that answered it), where the message still arrives: there a count of
# 0 proves nothing, and the task's report is what says it was heard.
publish() {
  local id=$1 json=$2 i
  for i in $(seq 1 60); do
    [ "$(rcli PUBLISH task_available "$json")" -ge 1 ] && return 0
    [ "$cluster" = 1 ] && has_reports "$id" && return 0
    sleep 0.5
  done
  fail "no subscriber on task_available for PUBLISH"
}

# 1. PUBLISH ingress inside the Redis container.
publish smoke-1 '{"query":"2+4","task_id":"smoke-1"}'
wait_for 30 "the report of smoke-1" has_reports smoke-1
check smoke-1 6
say "PUBLISH ingress: report ok"

# 1b. A question and its answer from redis-cli: the task asks, waits, and the answer by
# XADD completes it.
asked() { local entries; entries=$(rcli --raw XRANGE clarification_needed - +) && grep -q '"task_id":"smoke-ask"' <<<"$entries"; }
rcli XADD task_available '*' data '{"query":"divide 10 by","task_id":"smoke-ask"}' >/dev/null
wait_for 30 "the question of smoke-ask" asked
rcli XADD clarification_answer '*' data '{"task_id":"smoke-ask","answer":"4"}' >/dev/null
wait_for 30 "the report of smoke-ask" has_reports smoke-ask
check smoke-ask 2.5
say "a question and its answer: report ok"

# 2. The HTTP API from the host: POST /tasks, then GET /tasks/{id} until done.
http=http://127.0.0.1:$CHORUS_HTTP_PORT
http_up() { curl -sf -m 2 "$http/healthz"; }
http_ok=1
if [ "$has_probe" = 0 ]; then
  for _ in $(seq 1 10); do http_up >/dev/null 2>&1 && break; sleep 0.5; done
  if ! http_up >/dev/null 2>&1; then
    http_ok=0
    skipped+=(http)
    say "http: SKIPPED — the Chief in this build serves no HTTP API (no /healthz on :8080)"
  fi
else
  wait_for 30 "chief GET /healthz" http_up
fi
if [ "$http_ok" = 1 ]; then
  code=$(curl -s -m 5 -o /dev/null -w '%{http_code}' -X POST "$http/tasks" \
    -H 'content-type: application/json' -d '{"query":"(2+4)*3"}') || fail "POST /tasks: no answer"
  [ "$code" = 401 ] || fail "POST /tasks without the token answered $code (want 401)"
  code=$(curl -s -m 5 -o /dev/null -w '%{http_code}' "$http/tasks/x" -H 'authorization: Bearer wrong') || true
  [ "$code" = 401 ] || fail "GET /tasks with a wrong token answered $code (want 401)"
  code=$(curl -s -m 5 -o "$work/post.json" -w '%{http_code}' -X POST "$http/tasks" "${auth[@]}" \
    -H 'content-type: application/json' -d '{"query":"(2+4)*3","context":{"language":"en"}}') ||
    fail "POST /tasks: no answer"
  body=$(cat "$work/post.json")
  [ "$code" = 202 ] || fail "POST /tasks answered $code (want 202): $body"
  id=$(jq -r '.task_id // empty' <<<"$body")
  [ -n "$id" ] || fail "POST /tasks returned no task_id: $body"
  task_done() { curl -sf -m 2 "${auth[@]}" "$http/tasks/$id" | jq -e '.state == "done"'; }
  wait_for 30 "GET /tasks/$id state done" task_done
  status=$(curl -sf -m 2 "${auth[@]}" "$http/tasks/$id")
  got=$(jq -r '[.report.status, ([.report.steps[] | select(.output) | .outcome.value] | join(","))] | @tsv' <<<"$status")
  [ "$got" = "completed	18" ] || { wrong=$((wrong + 1)); say "wrong: HTTP task $id: $got (want completed 18)"; }
  has_reports "$id" || true
  check "$id" 18
  say "HTTP API: 401 without the token; with it, task $id done, report ok"
fi

# 3. `chorus ask` from the host through the published Redis port, over TLS (the CA from
# the secrets volume) as the ACL user `client`. On a Cluster, inside the Chief's
# container (its settings name the Cluster; the nodes' names resolve there only), as
# `client` too (with-redis-password, as root, reads that user's password).
target=${CARGO_TARGET_DIR:-$root/target}
case "$target" in /*) ;; *) target=$root/$target ;; esac
chorus_bin=${CHORUS_BIN:-$target/$CHORUS_PROFILE}/chorus
if [ "$cluster" = 1 ]; then
  tasks=$((tasks + 1))
  json=$(timeout 60 docker exec -u 0 -e CHORUS__BUS__REDIS_USER=client -e CHORUS_LOG=warn "$(compose ps -q chief)" \
    with-redis-password chorus ask --redis --json --timeout 30 "compute (2+4)*3 and tell me the weekday of 2026-12-25") ||
    fail "chorus ask --redis in the Chief's container"
  got=$(jq -r '[.status, ([.steps[] | select(.output) | .outcome.value] | join(","))] | @tsv' <<<"$json")
  [ "$got" = "completed	18,Friday" ] || { wrong=$((wrong + 1)); say "wrong: chorus ask: $got (want completed 18,Friday)"; }
  say "chorus ask via the Cluster: $got"
elif [ -x "$chorus_bin" ]; then
  tasks=$((tasks + 1))
  secret ca.crt >"$work/ca.crt" || fail "no CA certificate in the secrets volume"
  json=$(CHORUS__BUS__REDIS_URL=rediss://127.0.0.1:$CHORUS_REDIS_PORT CHORUS__BUS__TLS_CA_FILE="$work/ca.crt" \
    CHORUS__BUS__REDIS_USER=client CHORUS__BUS__REDIS_PASSWORD_ENV=CHORUS_SMOKE_REDIS_PASSWORD \
    CHORUS_SMOKE_REDIS_PASSWORD=$(secret pw/client) timeout 60 \
    "$chorus_bin" ask --redis --json --timeout 30 "compute (2+4)*3 and tell me the weekday of 2026-12-25") ||
    fail "chorus ask --redis"
  got=$(jq -r '[.status, ([.steps[] | select(.output) | .outcome.value] | join(","))] | @tsv' <<<"$json")
  [ "$got" = "completed	18,Friday" ] || { wrong=$((wrong + 1)); say "wrong: chorus ask: $got (want completed 18,Friday)"; }
  say "chorus ask via Redis: $got"
fi

# 4. Scale math to 3, send the load, kill one math container mid-run.
compose up -d --no-recreate --scale math=3 >"$work/up.log" 2>&1 || { cat "$work/up.log" >&2; fail "scale math=3"; }
wait_for 60 "3 math agents ready" ready math 3
half=$((load / 2))
xadds() { # xadds FROM TO: XADD bare requests "i + 1000" with task ids load-i
  local i
  for ((i = $1; i <= $2; i++)); do
    printf 'XADD task_available * data %s\n' "'{\"query\":\"$i + 1000\",\"task_id\":\"load-$i\"}'"
  done | rcli >/dev/null
}
load_start=$(date +%s%N)
xadds 1 "$half"
victim=$(compose ps -q math | awk 'NR==1')
docker kill "$victim" >/dev/null || fail "docker kill of a math container"
answered=$(reports | grep -c '^load-' || true)
pending=$(rwatch XPENDING math_task pool-math 2>/dev/null | awk 'NR==1' || true)
say "sent $half tasks, killed math container ${victim:0:12} with $answered answered, $((half - answered)) in flight, ${pending:-?} math_task entries pending; sending $((load - half)) more"
xadds $((half + 1)) "$load"
ids=()
for ((i = 1; i <= load; i++)); do ids+=("load-$i"); done
wait_for 120 "$load load reports" has_reports "${ids[@]}"
load_ms=$((($(date +%s%N) - load_start) / 1000000))
sleep 2 # late duplicates would show up now
has_reports || true
for ((i = 1; i <= load; i++)); do check "load-$i" $((i + 1000)); done
say "load: $load tasks over 3 math agents with one killed, all reported in ${load_ms} ms (victim now: $(docker inspect -f '{{.State.Status}}, restarts {{.RestartCount}}' "$victim"))"

# 5. Restart Redis (AOF keeps the data); agents reconnect by themselves. On a Cluster,
# the primary holding final_report's slot (back before cluster-node-timeout, it stays
# the primary, its AOF replayed; later, its replica has taken over).
before=$(rwatch XLEN final_report)
restarted=redis
if [ "$cluster" = 1 ]; then
  slot=$(radmin redis CLUSTER KEYSLOT final_report | tr -d '\r')
  cluster_formed || fail "the Cluster is not whole before the restart"
  restarted=$(awk -v slot="$slot" '$3 ~ /master/ {
      split($2, a, ","); for (i = 9; i <= NF; i++) { n = split($i, r, "-"); if (n == 1) r[2] = r[1];
        if (r[1] + 0 <= slot && slot <= r[2] + 0) print a[2] } }' "$work/nodes.txt")
  [ -n "$restarted" ] || fail "no primary holds final_report's slot $slot"
fi
docker restart "$(compose ps -q "$restarted")" >/dev/null || fail "docker restart $restarted"
redis_up() { [ "$(rcli ping)" = PONG ]; }
wait_for 60 "Redis back" redis_up
[ "$cluster" = 0 ] || wait_for 60 "the Cluster back (cluster_state:ok on every node)" cluster_formed
after=$(rwatch XLEN final_report)
[ "$after" -ge "$before" ] || fail "final_report lost entries over the Redis restart ($before -> $after)"
for i in 1 2 3; do
  rcli XADD task_available '*' data "{\"query\":\"$i + 2000\",\"task_id\":\"after-$i\"}" >/dev/null
done
publish after-pub '{"query":"5*7","task_id":"after-pub"}'
wait_for 60 "reports after the Redis restart" has_reports after-1 after-2 after-3 after-pub
sleep 1
has_reports || true
for i in 1 2 3; do check "after-$i" $((i + 2000)); done
check after-pub 35
[ "$(docker exec "$(compose ps -q "$restarted")" redis-cli --tls --cacert /secrets/ca.crt ping 2>&1)" != PONG ] ||
  fail "the default user answers after the Redis restart"
if [ "$cluster" = 1 ]; then
  say "restart of the primary $restarted (final_report's slot $slot): TLS and ACL kept, data kept ($before -> $after reports), new tasks answered"
else
  say "Redis restart: TLS and ACL kept, data kept ($before -> $after reports), new tasks answered"
fi

# 6. Prometheus: every target up (each role, pool replica, MCP server), chorus_ series
# from every job, and the Chief's count of completed tasks.
prom=http://127.0.0.1:$CHORUS_PROMETHEUS_PORT
jobs="chief planner router synthesizer verifier pool-math pool-date mcp-math mcp-date"
# targets_up: every active target up, and each job has one.
targets_up() {
  curl -sf -m 3 "$prom/api/v1/targets?state=active" >"$work/targets.json" || return 1
  jq -e '[.data.activeTargets[] | select(.health != "up")] | length == 0' "$work/targets.json" >/dev/null || return 1
  local j
  for j in $jobs; do
    jq -e --arg j "$j" '[.data.activeTargets[] | select(.labels.job == $j)] | length >= 1' "$work/targets.json" >/dev/null || return 1
  done
}
# promql QUERY: the query's result vector as JSON.
promql() { curl -sf -m 3 --get "$prom/api/v1/query" --data-urlencode "query=$1" | jq -c '.data.result'; }
# series_from_every_job: chorus_ series scraped from each job.
series_from_every_job() {
  local have j
  have=$(promql 'count by (job) ({__name__=~"chorus_.+"})' | jq -r '.[].metric.job')
  for j in $jobs; do grep -qx "$j" <<<"$have" || return 1; done
}
# completed_counted N: the Chief counted at least N completed tasks.
completed_counted() {
  local n
  n=$(promql 'sum(chorus_tasks_finished_total{status="completed"})' | jq -r '.[0].value[1] // 0')
  [ "${n%.*}" -ge "$1" ]
}
if ! (wait_for 60 "every Prometheus target up" targets_up); then
  jq -r '.data.activeTargets[] | "\(.labels.job) \(.scrapeUrl) \(.health) \(.lastError)"' "$work/targets.json" >&2 || true
  fail "Prometheus targets not all up"
fi
wait_for 60 "chorus_ series from every job in Prometheus" series_from_every_job
wait_for 60 "Prometheus counting the completed tasks" completed_counted "$tasks"
up=$(jq '.data.activeTargets | length' "$work/targets.json")
say "Prometheus: $up targets up (every service, 3 math replicas), chorus_ series from every job, >= $tasks completed tasks counted"

# 7. The web view: the page and its script come from the Chief, without a token.
if [ "$http_ok" = 1 ]; then
  # Read whole before matching: `curl | grep -q` with pipefail fails when grep stops
  # reading early and curl gets SIGPIPE on the rest of a long body.
  page=$(curl -sf -m 5 "$http/ui") || fail "GET /ui: no answer"
  grep -qi '<html' <<<"$page" || fail "GET /ui: no page"
  scraped=$(curl -sf -m 5 "$http/metrics") || fail "GET /metrics on the Chief: no answer"
  grep -q '^chorus_' <<<"$scraped" || fail "GET /metrics on the Chief: no chorus_ series"
  say "web view: /ui served by the Chief; /metrics on the Chief's port"
fi

if [ "$duplicates" != 0 ] || [ "$lost" != 0 ] || [ "$wrong" != 0 ]; then
  fail "duplicates=$duplicates lost=$lost wrong=$wrong"
fi
