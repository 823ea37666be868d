"""Chaos driver (run by deploy/chaos.sh): sends tasks of known answers at a steady rate
while crashing and restarting processes, then checks every task has exactly one right
final report. With --cluster, on a Redis Cluster of three primaries and three replicas
whose primaries are killed (SIGKILL) and whose slots are resharded meanwhile. With
--partitions N (or CHORUS__BUS__PARTITIONS), every role runs with bus.partitions = N. Last line:
tasks=N crashes=K lost=L duplicates=D wrong=W asked=Q answered=A."""

import argparse
import json
import os
import random
import shutil
import signal
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import partitions  # noqa: E402
import procs  # noqa: E402
import questions  # noqa: E402
import tasks  # noqa: E402
from redis_client import ClusterRedis, Redis, fields  # noqa: E402


def args():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--short", action="store_true", help="CI size: 1000 tasks over 60 s")
    p.add_argument("--cluster", action="store_true",
                   help="on a Redis Cluster (3 primaries + 3 replicas): primaries killed, a reshard")
    p.add_argument("--partitions", type=int,
                   help="bus.partitions for every role (default: $CHORUS__BUS__PARTITIONS, else 1)")
    p.add_argument("--tasks", type=int)
    p.add_argument("--seconds", type=float)
    a = p.parse_args()
    env = os.environ.get
    a.tasks = a.tasks or int(env("CHAOS_TASKS", 1000 if a.short else 5000))
    a.seconds = a.seconds or float(env("CHAOS_SECONDS", 60 if a.short else 240))
    a.deadline_ms = int(env("CHAOS_DEADLINE_MS", 15000 if a.short else 20000))
    a.claim_idle_ms = int(env("CHAOS_CLAIM_IDLE_MS", 2000))
    a.seed = int(env("CHAOS_SEED", 7))
    a.partitions = a.partitions or int(env("CHORUS__BUS__PARTITIONS", 1))
    if not 1 <= a.partitions <= 64:
        p.error("--partitions: 1..=64")
    a.keep = env("CHAOS_KEEP") == "1"
    a.bin = env("CHORUS_BIN", "target/debug")
    # On a Cluster, every role and the driver wait for a replica to have each write
    # (bus.replica_acks), so a primary's death loses nothing acknowledged.
    a.replica_acks = int(env("CHAOS_REPLICA_ACKS", 1 if a.cluster else 0))
    return a


def log(t0, msg):
    print("[%6.1fs] %s" % (time.monotonic() - t0, msg), flush=True)


class Schedule:
    """The chaos plan, as (time from start, action, argument) sorted by time."""

    def __init__(self, seconds, deadline_s, rng, cluster=False):
        ev = []
        roles = procs.Cluster.ROLES
        # 1. Kill -9 each role in turn during the first fifth.
        for i, name in enumerate(roles):
            ev.append((2 + i * (seconds * 0.2 / len(roles)), "kill", name))
        # 2. Then a random role every 1-2 s until the end of sending.
        t = seconds * 0.22
        while t < seconds - 1:
            ev.append((t, "kill", rng.choice(roles)))
            t += rng.uniform(1.0, 2.0)
        # 3. Redis killed (-9) and restarted on the same port from its AOF (on a Cluster:
        # primaries killed and a reshard instead, by ClusterChaos).
        if not cluster:
            ev.append((seconds * 0.30, "redis", None))
        # 4. The math MCP server killed, down 4 s, started again.
        ev.append((seconds * 0.40, "mcp-kill", "math-mcp"))
        ev.append((seconds * 0.40 + 4, "mcp-start", "math-mcp"))
        # 5. The date MCP server frozen (SIGSTOP) past the task deadline, then thawed.
        freeze = deadline_s + 5
        ev.append((seconds * 0.50, "freeze", "date-mcp"))
        ev.append((seconds * 0.50 + freeze, "thaw", "date-mcp"))
        self.events = sorted(ev, key=lambda e: e[0])
        # Outages by what was down: a pool's MCP server, or ("redis") a Cluster shard
        # from its primary's kill until its old node is back as an in-sync replica.
        self.outages = {"math": [], "date": [], "redis": []}

    def due(self, now):
        out = []
        while self.events and self.events[0][0] <= now:
            out.append(self.events.pop(0))
        return out


class ClusterChaos(threading.Thread):
    """The Cluster's part of the chaos, in a thread of its own so that sending, reading
    and answering go on meanwhile: at each planned time (seconds from the start of
    sending; never before the previous action is over), either a primary killed with
    SIGKILL — the first time the one serving `task_available`, then one at random —
    its replica promoted, the killed node restarted (it rejoins as a replica) and every
    replica in sync again; or a reshard under load (`redis-cli --cluster reshard`, which
    moves a primary's lowest slots first: as many as it takes to move one of the busy
    streams of RESHARD_TOPICS (their partitions with bus.partitions > 1) — the one that moves the fewest slots, at least
    RESHARD_MIN — with every key of those slots: streams, groups, pending entries, task
    state — to another primary). Each primary keeps slots: failing over a primary needs
    the votes of a majority of the primaries that serve slots."""

    RESHARD_TOPICS = ["task_available", "final_report", "plan_ready", "math_task", "date_task",
                      "math_result"]
    RESHARD_MIN = 1000

    # When (fraction of the sending time) and what.
    SHORT = [(0.12, "kill"), (0.35, "reshard"), (0.55, "kill"), (0.78, "kill")]
    FULL = [(0.08, "kill"), (0.25, "kill"), (0.40, "reshard"), (0.55, "kill"),
            (0.70, "kill"), (0.85, "kill")]

    def __init__(self, cluster, seconds, short, seed, t0, partitions_n=1):
        super().__init__(name="cluster-chaos", daemon=True)
        # With bus.partitions > 1 the busy streams are the topics' partitions.
        self.reshard_keys = [stream for topic in self.RESHARD_TOPICS
                             for stream in partitions.streams(topic, partitions_n)]
        self.reshard_keys.append("chorus:deadlines")
        self.admin, self.t0 = cluster.admin, t0
        self.plan = [(f * seconds, what) for f, what in (self.SHORT if short else self.FULL)]
        self.rng = random.Random(seed + 1)
        self.start_at = None
        self.halt = threading.Event()
        self.outages = []  # (kill, back) in seconds from the start of sending
        self.kills, self.reshards, self.skipped = 0, [], []
        self.error = None

    def now(self):
        return time.monotonic() - self.start_at

    def run(self):
        try:
            for at, what in self.plan:
                while self.now() < at and not self.halt.is_set():
                    time.sleep(0.05)
                if self.halt.is_set():
                    self.skipped.append(what)
                    continue
                if what == "kill":
                    self.kill()
                else:
                    self.reshard()
        except Exception as e:  # noqa: BLE001 - reported as the run's failure
            self.error = "%s: %s" % (type(e).__name__, e)
            log(self.t0, "!! cluster chaos failed: " + self.error)

    def kill(self):
        prim = self.admin.primaries()
        port = self.admin.primary_of("task_available") if not self.kills else None
        if port not in prim:
            port = self.rng.choice(sorted(prim))
        began = self.now()
        log(self.t0, "redis :%d (primary of %d slots): kill -9" % (port, prim[port]))
        self.admin.kill_primary(port)
        self.kills += 1
        self.admin.wait_promoted(port)
        promoted = self.now()
        log(self.t0, "redis :%d: a replica promoted after %.1f s (cluster_state:ok); restarting "
            "the killed node" % (port, promoted - began))
        self.admin.restart(port)
        back = self.now()
        self.outages.append((began, back))
        log(self.t0, "redis :%d: back as a replica, every replica in sync, %.1f s after the kill"
            % (port, back - began))

    def reshard(self):
        prim = self.admin.primaries()
        best = None
        for key in self.reshard_keys:
            source = self.admin.primary_of(key)
            slots = self.admin.slots_of(source) if source in prim else []
            slot = self.admin.keyslot(key)
            n = max(sum(1 for s in slots if s <= slot), self.RESHARD_MIN)
            if slots and n < len(slots) - 100 and (best is None or n < best[0]):
                best = (n, key, source)
        if best is None:
            raise RuntimeError("no busy stream can be resharded: primaries %s" % prim)
        n, key, source = best
        target = self.rng.choice(sorted(p for p in prim if p != source))
        began = self.now()
        log(self.t0, "reshard: %d of the %d slots of :%d (%s among them) to :%d"
            % (n, prim[source], source, key, target))
        self.admin.reshard(source, target, n)
        self.reshards.append((began, self.now()))
        log(self.t0, "reshard: done in %.1f s; %s now on :%s"
            % (self.now() - began, key, self.admin.primary_of(key)))


class Timed(threading.Thread):
    """The MCP servers' outages (kill and start, freeze and thaw) at their planned times,
    in a thread of their own: on a Cluster the driver's own sending waits while the
    shard of `task_available` has no replica to acknowledge it, and a thaw must not wait
    for that. When halted, what is still open (a start, a thaw) is done at once."""

    MCP = ("mcp-kill", "mcp-start", "freeze", "thaw")

    def __init__(self, events, fire, start):
        super().__init__(name="mcp-chaos", daemon=True)
        self.events, self.fire, self.start_at = events, fire, start
        self.halt = threading.Event()
        self.crashes = 0

    def run(self):
        for at, action, name in self.events:
            while time.monotonic() - self.start_at < at and not self.halt.is_set():
                time.sleep(0.02)
            if self.halt.is_set() and action not in ("thaw", "mcp-start"):
                continue
            self.crashes += self.fire(action, name, time.monotonic() - self.start_at)


def run(a):
    rng = random.Random(a.seed)
    work = tempfile.mkdtemp(prefix="chorus-chaos-")
    settings = {
        "CHORUS__AGENTS__DEADLINE_MS": str(a.deadline_ms),
        "CHORUS__BUS__CLAIM_IDLE_MS": str(a.claim_idle_ms),
        # A new request waits for a pool with no live agent as long as its deadline
        # allows (the default is 5 s): the suite's goal is no degraded report for a task
        # whose deadline ends 2 s or more after the outage ends.
        "CHORUS__AGENTS__POOL_WAIT_MS": str(a.deadline_ms),
        "CHORUS__BUS__PARTITIONS": str(a.partitions),
    }
    if a.cluster:
        settings["CHORUS__BUS__REPLICA_ACKS"] = str(a.replica_acks)
        settings["CHORUS__BUS__REPLICA_ACK_TIMEOUT_MS"] = "2000"
    cluster = procs.Cluster(os.path.abspath(a.bin), work, settings, cluster=a.cluster)
    t0 = time.monotonic()

    def on_signal(signum, _frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    ok = False
    try:
        cluster.start()
        ok = drive(a, rng, cluster, t0)
    finally:
        cluster.stop_all()
        if a.keep or not ok:
            print("chaos: logs and AOF kept in %s" % work, flush=True)
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 0 if ok else 1


def wait_ready(r, t0, within=30.0):
    """Waits until both pools have a live agent listing tools in the registry
    (the hash chorus:registry:<group> of each group in the index chorus:registry): the
    planner plans only with live tools, so a task sent earlier would rightly be told
    the pool is down."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        live = set()
        now_ms = int(time.time() * 1000)
        raws = []
        for group in r.cmd("ZRANGE", "chorus:registry", "0", "-1") or []:
            name = group.decode() if isinstance(group, bytes) else group
            raws.extend(r.cmd("HVALS", "chorus:registry:" + name) or [])
        for raw in raws:
            try:
                entry = json.loads(raw)
            except (TypeError, ValueError):
                continue
            hb = entry.get("heartbeat", {})
            if entry.get("expires_ms", 0) > now_ms and hb.get("pool") and hb.get("tools"):
                live.add(hb["pool"])
        if {"math", "date"} <= live:
            log(t0, "both pools live in the registry")
            return
        time.sleep(0.1)
    raise SystemExit("chaos: the pools never announced themselves in the registry")


class Sent:
    """A task as sent: what it checks against and when it lived (seconds from the start
    of sending; `wall_ms`: wall clock at sending, for the report latency)."""

    def __init__(self, task, at, wall_ms):
        self.task, self.at, self.wall_ms = task, at, wall_ms


def drive(a, rng, cluster, t0):
    if a.cluster:
        r = ClusterRedis(cluster.node_ports, replica_acks=a.replica_acks)
        r.cmd("GET", "chorus:chaos")
        where = "a Redis Cluster on :%s, replica_acks %d" % (
            ",".join(map(str, cluster.node_ports)), a.replica_acks)
    else:
        r = Redis(cluster.redis_port)
        r.cmd("PING")
        where = "redis :%d" % cluster.redis_port
    run_id = "%x" % int(time.time())
    log(t0, "cluster up (%s, partitions %d, work %s); %d tasks over %.0f s, deadline %d ms"
        % (where, a.partitions, cluster.work, a.tasks, a.seconds, a.deadline_ms))
    wait_ready(r, t0)
    asker = questions.Asker(r, cluster.node_ports, kill=cluster.restart, partitions_n=a.partitions)
    asker.start()
    try:
        return drive_with(a, rng, cluster, t0, r, run_id, asker)
    finally:
        asker.stop()


def drive_with(a, rng, cluster, t0, r, run_id, asker):
    sched = Schedule(a.seconds, a.deadline_ms / 1000, rng, cluster=a.cluster)
    shards = ClusterChaos(cluster, a.seconds, a.short, a.seed, t0, a.partitions) if a.cluster else None
    crashes, self_exits = 0, []
    down = {}  # pool -> outage start (monotonic from t0)
    sent = {}  # task id -> Sent
    reports, last_id = {}, "0-0"
    follow = {}  # first turn's task id -> its conversation's second turn, sent after its report
    convo = {"started": 0, "followed": 0, "cut": 0}
    start = time.monotonic()

    def send(tid, task):
        r.xadd("task_available", tasks.bare(tid, task.query, task.session))
        sent[tid] = Sent(task, time.monotonic() - start, time.time() * 1000)
        if task.answer is not None:
            asker.expect_question(tid, task.answer)
        if task.follow is not None:
            follow[tid] = task
            convo["started"] += 1

    def tick():
        nonlocal last_id
        last_id = collect(r, reports, last_id)
        asker.poll(reports)
        for tid in [t for t in follow if t in reports]:
            first = follow.pop(tid)
            query, expected = first.follow
            # The second turn refers to the first one's answer: sent only when that
            # answer is there (a degraded first turn leaves nothing to refer to).
            if tasks.check(reports[tid][0][1], first.expected, False) is None:
                send(tid + "-2", tasks.Task(query, {"math"}, expected, session=first.session))
                convo["followed"] += 1
            else:
                convo["cut"] += 1

    i = 0
    timed = None
    if shards is not None:
        shards.start_at = start
        shards.start()
        timed = Timed([e for e in sched.events if e[1] in Timed.MCP],
                      lambda action, name, now: chaos(action, name, cluster, sched, down, now, t0),
                      start)
        sched.events = [e for e in sched.events if e[1] not in Timed.MCP]
        timed.start()
    while i < a.tasks:
        now = time.monotonic() - start
        for _, action, name in sched.due(now):
            crashes += chaos(action, name, cluster, sched, down, now, t0)
        while i < a.tasks and i <= now * a.tasks / a.seconds:
            tid = "chaos-%s-%d" % (run_id, i)
            send(tid, tasks.make(i, rng, session="chaos-%s-s%d" % (run_id, i)))
            i += 1
        if shards is not None and shards.error:
            raise SystemExit("chaos: the cluster chaos failed: " + shards.error)
        for name, code in cluster.self_exited():
            self_exits.append((name, code))
            log(t0, "!! %s exited by itself (status %s); restarted" % (name, code))
        tick()
        time.sleep(0.01)
    for _, action, name in sched.events:  # outages still open end now
        if action in ("thaw", "mcp-start"):
            crashes += chaos(action, name, cluster, sched, down, time.monotonic() - start, t0)
    if timed is not None:
        timed.halt.set()
        timed.join()
        crashes += timed.crashes
    if shards is not None:
        # What is under way ends (a node restarting, a reshard), nothing new starts.
        shards.halt.set()
        while shards.is_alive():
            tick()
            shards.join(0.05)
        sched.outages["redis"] = shards.outages
        crashes += shards.kills
        log(t0, "cluster: %d primaries killed, outages %s, reshards %s%s; driver retries %s"
            % (shards.kills, [(round(x, 1), round(y, 1)) for x, y in shards.outages],
               [(round(x, 1), round(y, 1)) for x, y in shards.reshards],
               ", not done: %s" % shards.skipped if shards.skipped else "", r.count))
        if shards.error:
            raise SystemExit("chaos: the cluster chaos failed: " + shards.error)
    log(t0, "all %d tasks sent; waiting for reports" % a.tasks)
    wait_until = time.monotonic() + a.deadline_ms / 1000 * 2 + 30
    while time.monotonic() < wait_until and (len(reports) < len(sent) or follow):
        tick()
        time.sleep(0.05)
    time.sleep(2.0)  # a late duplicate would show up now
    tick()
    log(t0, "conversations: %d started, %d followed up, %d not (first turn degraded)"
        % (convo["started"], convo["followed"], convo["cut"]))
    lived = {tid: lifetime(tid, s, asker, start, a.deadline_ms / 1000) for tid, s in sent.items()}
    crashes += asker.count["killed"]
    return verdict(a, r, sent, lived, reports, asker, sched.outages, crashes, self_exits, t0)


def lifetime(tid, s, asker, start, deadline_s):
    """(start, end) of a task's life in seconds from the start of sending: from sending
    to its deadline, which for a task that asked runs on from its last answer (the
    deadline is paused while it waits)."""
    answered = asker.last_answer_at(tid)
    if answered is None:
        return s.at, s.at + deadline_s
    return s.at, max(s.at, answered - start) + deadline_s


def chaos(action, name, cluster, sched, down, now, t0):
    """Performs one chaos action; returns the SIGKILLs it sent."""
    if action == "kill":
        cluster.restart(name)
        return 1
    if action == "redis":
        log(t0, "redis: kill -9; down 2 s (the router is restarted meanwhile); "
            "restarted from AOF on the same port")
        cluster.procs["redis"].kill()
        cluster.restart("router")  # starts while Redis is away
        time.sleep(2.0)
        cluster.procs["redis"].start()
        procs.wait_port(cluster.redis_port)
        return 2
    pool = name.split("-")[0]
    if action == "mcp-kill":
        log(t0, "%s: kill -9 (down)" % name)
        cluster.procs[name].kill()
        down[pool] = now
        return 1
    if action == "freeze":
        log(t0, "%s: SIGSTOP (frozen)" % name)
        cluster.procs[name].signal(signal.SIGSTOP)
        cluster.procs[name].stopped = True
        down[pool] = now
        return 0
    if action == "mcp-start":
        cluster.procs[name].start()
        procs.wait_port(cluster.math_port if pool == "math" else cluster.date_port)
    elif action == "thaw":
        cluster.procs[name].signal(signal.SIGCONT)
        cluster.procs[name].stopped = False
    if pool in down:
        sched.outages[pool].append((down.pop(pool), now))
        log(t0, "%s: back (%s)" % (name, "started" if action == "mcp-start" else "SIGCONT"))
    return 0


def collect(r, reports, last_id):
    """Reads new final_report entries into reports[task id] = [(entry id, payload)]."""
    while True:
        batch = r.cmd("XRANGE", "final_report", "(" + last_id, "+", "COUNT", "1000")
        if not batch:
            return last_id
        for entry_id, flat in batch:
            last_id = entry_id.decode()
            try:
                msg = json.loads(fields(flat).get("data", b"{}"))
            except ValueError:
                continue
            reports.setdefault(msg.get("task_id"), []).append((last_id, msg.get("payload", {})))


def met(pools, life, outages):
    """The outages (pool, start, end) of a pool the task needs during its life (sent
    before the outage's end + 5 s, deadline not over 2 s before the outage began). A
    Cluster shard's outage ("redis") is met by every task: any of its keys and streams
    may be on the killed primary."""
    begun, end = life
    return [(pool, a, b) for pool in sorted(set(pools) | {"redis"}) for a, b in outages.get(pool, [])
            if begun <= b + 5 and end + 2 >= a]


def per_outage(degraded_tasks, outages):
    """Degraded reports per outage: for each (pool, start, end), how many degraded tasks
    needed that pool while it was down, and how many of those had a deadline ending 2 s
    or more after the end of every outage they met (time enough to try again), with up
    to three of the latter as examples."""
    out = []
    for pool, spans in sorted(outages.items()):
        for a, b in spans:
            hit = [(pools, life, why) for pools, life, why in degraded_tasks
                   if (pool, a, b) in met(pools, life, outages)]
            margins = [life[1] - max(end for _, _, end in met(pools, life, outages))
                       for pools, life, why in hit]
            late = [why for (pools, life, why), m in zip(hit, margins) if m >= 2]
            out.append("%s down %.1f-%.1f s: %d degraded, %d of them with the deadline >= 2 s after "
                       "every outage they met ended (at most %.1f s after)"
                       % (pool, a, b, len(hit), len(late), max(margins) if margins else 0))
            out.extend("  e.g. " + why for why in late[:3])
    return out


def verdict(a, r, sent, lived, reports, asker, outages, crashes, self_exits, t0):
    lost = dups = wrong = degraded = 0
    degraded_tasks = []
    statuses, latencies, examples = {}, [], []
    for tid, s in sent.items():
        task, life = s.task, lived[tid]
        got = reports.get(tid, [])
        asked = asker.asked(tid)
        if asked and task.answer is None:
            # Only the tasks missing an operand may ask: a question here is a wrong
            # reading of the request (nobody answers it; the task waits).
            wrong += 1
            examples.append("wrong %s %r: asked %r, %d report(s)"
                            % (tid, task.query, asked[min(asked)][2].get("question"), len(got)))
            continue
        if not got:
            lost += 1
            examples.append("lost %s %r%s" % (tid, task.query,
                                              "" if task.answer is None else ": " + asker.story(tid)))
            continue
        if len(got) > 1:
            dups += 1
            examples.append("duplicate %s %r: %d reports" % (tid, task.query, len(got)))
        entry_id, payload = got[0]
        status = payload.get("status")
        statuses[status] = statuses.get(status, 0) + 1
        latencies.append(max(0.0, int(entry_id.split("-")[0]) - s.wall_ms))
        ex = bool(met(task.pools, life, outages))
        why = tasks.check(payload, task.expected, ex)
        if not why and len(asked) > 1:
            why = "asked %d times (a plain number settles it): %s" % (len(asked), asker.story(tid))
        if why:
            wrong += 1
            examples.append("wrong %s %r: %s%s" % (tid, task.query, why,
                                                   "" if task.answer is None else " [" + asker.story(tid) + "]"))
        elif status != "completed" and task.expected is not None:
            degraded += 1
            degraded_tasks.append((task.pools, life, "%s at %.1f s: %s, %d attempt(s): %s" % (
                tid, s.at, status, payload.get("iterations", 1),
                " ".join(payload.get("text", "").split())[:160])))
    for e in examples[:20]:
        print("  " + e)
    dead = r.cmd("XLEN", "dead_letter")
    for _, flat in r.cmd("XRANGE", "dead_letter", "-", "+", "COUNT", "10") or []:
        try:
            msg = json.loads(fields(flat).get("data", b"{}"))
            p = msg.get("payload", {})
            print("  dead letter %s: %s entry %s, group %s, %s deliveries: %s"
                  % (msg.get("task_id"), p.get("topic"), p.get("entry_id"), p.get("role"),
                     p.get("deliveries"), " ".join(str(p.get("reason", "")).split())[:300]))
        except (ValueError, AttributeError):
            print("  dead letter (undecodable): %r" % (flat,))
    latencies.sort()
    pct = (lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))]) if latencies else (lambda q: 0)
    log(t0, "statuses %s; degraded (tool down, reported as such) %d; dead letters %d; "
        "roles that exited by themselves %d %s" % (json.dumps(statuses, sort_keys=True), degraded,
                                                   dead, len(self_exits), self_exits[:5]))
    for line in per_outage(degraded_tasks, outages):
        log(t0, "degraded per outage: " + line)
    log(t0, "report latency (approx., send to report) p50 %.0f ms, p99 %.0f ms, max %.0f ms; outages %s"
        % (pct(0.5), pct(0.99), latencies[-1] if latencies else 0,
           {k: [(round(x, 1), round(y, 1)) for x, y in v] for k, v in outages.items()}))
    spread = spread_ok(a, r, t0)
    n_asked, n_answered, line = asker.summary()
    expected = sum(1 for s in sent.values() if s.task.answer is not None)
    log(t0, "questions: %d tasks meant to ask; %s" % (expected, line))
    print("tasks=%d crashes=%d lost=%d duplicates=%d wrong=%d asked=%d answered=%d"
          % (len(sent), crashes, lost, dups, wrong, n_asked, n_answered), flush=True)
    return lost == 0 and dups == 0 and wrong == 0 and spread


def spread_ok(a, r, t0):
    """With bus.partitions > 1: every partition of `plan_ready` has entries and the
    unpartitioned stream none (the roles and the driver agree on the names)."""
    if a.partitions <= 1:
        return True
    lengths = {s: r.cmd("XLEN", s) for s in partitions.streams("plan_ready", a.partitions)}
    plain = r.cmd("XLEN", "plan_ready")
    log(t0, "partitions: plan_ready entries per partition %s, on the unpartitioned stream %d"
        % (lengths, plain))
    if plain or not all(lengths.values()):
        log(t0, "!! the roles did not spread plan_ready over its %d partitions" % a.partitions)
        return False
    return True


if __name__ == "__main__":
    sys.exit(run(args()))
