"""The processes of a chaos run: redis-server (AOF) — or, with --cluster, a Redis Cluster
of six redis-server nodes (three primaries, three replicas) — the MCP servers and every
role, each started by this driver, restarted under the same name, and killed by PID at
the end."""

import os
import signal
import socket
import subprocess
import threading
import time


def free_ports(n):
    """n distinct free ports: every probe socket stays open until all are chosen, so the
    kernel cannot hand the same port out twice."""
    socks = [socket.socket() for _ in range(n)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def free_cluster_ports(n, rng=None):
    """n free ports for Cluster nodes: each with its cluster bus port (+10,000) free too,
    so below 55,536, and both below the ephemeral range (outbound connections take
    ports from there). Every probe socket stays open until all are chosen."""
    import random
    rng = rng or random.Random()
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            ephemeral = int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        ephemeral = 32768
    high = min(ephemeral, 55536 + 10000) - 10000
    low = max(1024, high - 12000)
    socks, ports = [], []
    try:
        for _ in range(2000):
            if len(ports) == n:
                return ports
            port = rng.randrange(low, high)
            if port in ports or port + 10000 in ports:
                continue
            pair = []
            try:
                for p in (port, port + 10000):
                    sock = socket.socket()
                    pair.append(sock)
                    sock.bind(("127.0.0.1", p))
            except OSError:
                for sock in pair:
                    sock.close()
                continue
            socks.extend(pair)
            ports.append(port)
        raise RuntimeError("no %d free port pairs for the Cluster nodes in %d..%d" % (n, low, high))
    finally:
        for sock in socks:
            sock.close()


def wait_port(port, within=15.0):
    end = time.monotonic() + within
    while time.monotonic() < end:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return True
        except OSError:
            time.sleep(0.05)
    return False


class Proc:
    """One named process and how to start it again."""

    def __init__(self, name, argv, env, log):
        self.name, self.argv, self.env, self.log = name, argv, env, log
        self.popen = None
        self.killed_by_us = False
        self.stopped = False

    def start(self):
        with open(self.log, "ab") as log:
            self.popen = subprocess.Popen(self.argv, env=self.env, stdin=subprocess.DEVNULL,
                                          stdout=log, stderr=log)
        self.killed_by_us = False
        self.stopped = False

    def alive(self):
        return self.popen is not None and self.popen.poll() is None

    def signal(self, sig):
        if self.alive():
            os.kill(self.popen.pid, sig)

    def kill(self):
        """SIGKILL, as a crash; waits for it to be gone."""
        self.killed_by_us = True
        if self.alive():
            if self.stopped:
                os.kill(self.popen.pid, signal.SIGCONT)
            self.popen.kill()
            self.popen.wait()

    def stop(self):
        """SIGTERM, then SIGKILL after 3 s (cleanup)."""
        self.killed_by_us = True
        if not self.alive():
            return
        try:
            if self.stopped:
                os.kill(self.popen.pid, signal.SIGCONT)
            self.popen.terminate()
            self.popen.wait(timeout=3)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            self.popen.wait()
        except OSError:
            pass


class Cluster:
    """Redis, both MCP servers, and every role: chief, planner, router, synthesizer,
    verifier, two replicas of each pool."""

    ROLES = ["chief", "planner", "router", "synthesizer", "verifier",
             "pool-math-0", "pool-math-1", "pool-date-0", "pool-date-1"]

    NODES = 6  # with --cluster: three primaries, one replica each

    def __init__(self, bin_dir, work, settings, cluster=False):
        self.bin, self.work, self.cluster = bin_dir, work, cluster
        self.redis_port, self.math_port, self.date_port = free_ports(3)
        # With --cluster: the nodes' ports (the roles get them all as seed nodes);
        # redis_port is the first node's.
        self.node_ports = free_cluster_ports(self.NODES) if cluster else [self.redis_port]
        if cluster:
            self.redis_port = self.node_ports[0]
        # stop_all holds it while it stops everything; a node is restarted under it, so
        # none is started after the cleanup (the Cluster's chaos runs in a thread).
        self.lock = threading.Lock()
        self.closing = False
        base = dict(os.environ)
        urls = ["redis://127.0.0.1:%d" % p for p in self.node_ports]
        if cluster:
            base.update({"CHORUS__BUS__REDIS_MODE": "cluster",
                         "CHORUS__BUS__CLUSTER_NODES": ",".join(urls[1:])})
        base.update({
            "CHORUS__BUS__REDIS_URL": urls[0],
            "CHORUS__POOLS__MATH__MCP_URL": "http://127.0.0.1:%d/mcp" % self.math_port,
            "CHORUS__POOLS__DATE__MCP_URL": "http://127.0.0.1:%d/mcp" % self.date_port,
            "CHORUS_LOG": os.environ.get("CHORUS_LOG", "warn"),
            "MIMALLOC_ARENA_EAGER_COMMIT": os.environ.get("MIMALLOC_ARENA_EAGER_COMMIT", "0"),
            "MIMALLOC_PURGE_DELAY": os.environ.get("MIMALLOC_PURGE_DELAY", "0"),
        })
        base.update(settings)
        redis_bin = os.environ.get("CHORUS_REDIS_SERVER", "redis-server")
        self.procs = {}
        if cluster:
            # Each node in a directory of its own (its nodes.conf: a node restarted
            # after a kill knows who it was and rejoins as a replica). No AOF: a node
            # that comes back resyncs from the primary promoted in its place.
            for i, port in enumerate(self.node_ports):
                d = os.path.join(work, "redis-%d" % i)
                os.makedirs(d)
                self._add("redis-%d" % i, [
                    redis_bin, "--port", str(port), "--bind", "127.0.0.1", "--dir", d,
                    "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                    "--cluster-node-timeout", "2000", "--appendonly", "no", "--save", "",
                    "--daemonize", "no"], base)
        else:
            self._add("redis", [redis_bin, "--port", str(self.redis_port), "--bind", "127.0.0.1",
                                "--dir", work, "--appendonly", "yes", "--appendfsync", "always",
                                "--save", "", "--daemonize", "no"], base)
        for pool, port in (("math", self.math_port), ("date", self.date_port)):
            self._add(pool + "-mcp", [os.path.join(bin_dir, "chorus-mcp-" + pool), "--transport",
                                      "http", "--bind", "127.0.0.1", "--port", str(port)], base)
        chorus = os.path.join(bin_dir, "chorus")
        for name in self.ROLES:
            argv = [chorus, "agent", name]
            if name.startswith("pool-"):
                # The pool agent's own binary, as the tests' launcher starts it
                # (docs/performance.md, "Memory per process, the heap and the runtime").
                argv = [os.path.join(bin_dir, "chorus-pool"), "--pool", name.split("-")[1]]
            self._add(name, argv, base)

    def _add(self, name, argv, env):
        self.procs[name] = Proc(name, argv, env, os.path.join(self.work, name + ".log"))

    def start(self):
        if self.cluster:
            for i, port in enumerate(self.node_ports):
                self.procs["redis-%d" % i].start()
            for port in self.node_ports:
                if not wait_port(port):
                    raise RuntimeError("redis-server on :%d did not start" % port)
            self.admin = ClusterAdmin(self)
            self.admin.create()
        else:
            self.procs["redis"].start()
            if not wait_port(self.redis_port):
                raise RuntimeError("redis-server did not start")
        for name in ("math-mcp", "date-mcp"):
            self.procs[name].start()
        wait_port(self.math_port)
        wait_port(self.date_port)
        for name in self.ROLES:
            self.procs[name].start()

    def restart(self, name):
        """Kills `name` with SIGKILL and starts it again."""
        p = self.procs[name]
        p.kill()
        p.start()
        if name == "redis":
            wait_port(self.redis_port)

    def self_exited(self):
        """Processes that exited without being killed by us (restarted here)."""
        gone = []
        for p in self.procs.values():
            if p.popen is not None and not p.killed_by_us and p.popen.poll() is not None:
                gone.append((p.name, p.popen.returncode))
                time.sleep(0.2)  # a supervisor's restart pause
                p.start()
        return gone

    def stop_all(self):
        with self.lock:
            self.closing = True
        admin = getattr(self, "admin", None)
        if admin is not None:
            admin.stop()
        with self.lock:
            for name in reversed(list(self.procs)):
                self.procs[name].stop()

    def node(self, port):
        """The Proc of the cluster node on `port`."""
        return self.procs["redis-%d" % self.node_ports.index(port)]


def redis_cli():
    return os.environ.get("CHORUS_REDIS_CLI", "redis-cli")


class ClusterAdmin:
    """What an operator does to the Cluster, by redis-cli: create it, see who serves a
    key, kill a primary (SIGKILL) and wait for its replica's promotion, restart the node
    so it rejoins as a replica, and reshard. A redis-cli --cluster process still running
    at the end is killed by PID."""

    READY_WITHIN = 60.0

    def __init__(self, cluster):
        self.cluster = cluster
        self.running = None  # a redis-cli --cluster child, while it runs

    def cli(self, port, *args, timeout=5.0):
        """redis-cli -p port args…; its stdout ("" when the node does not answer)."""
        try:
            out = subprocess.run([redis_cli(), "-h", "127.0.0.1", "-p", str(port)] + list(args),
                                 stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return ""
        text = out.stdout.decode(errors="replace").strip()
        return "" if out.returncode != 0 or text.startswith("Could not connect") else text

    def _run(self, argv, timeout):
        if self.cluster.closing:
            raise RuntimeError("stopping")
        with open(os.path.join(self.cluster.work, "redis-cli.log"), "ab") as log:
            log.write(("$ %s\n" % " ".join(argv)).encode())
            log.flush()
            self.running = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
            try:
                code = self.running.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.running.kill()
                self.running.wait()
                code = "timed out"
            finally:
                self.running = None
        if code != 0:
            raise RuntimeError("%s failed (%s); see redis-cli.log" % (" ".join(argv[:3]), code))

    def stop(self):
        p = self.running
        if p is not None and p.poll() is None:
            p.kill()
            p.wait()

    def _waiting(self, end, what):
        if self.cluster.closing:
            raise RuntimeError("stopping")
        if time.monotonic() > end:
            raise RuntimeError(what)
        time.sleep(0.1)

    def create(self):
        self._run([redis_cli(), "--cluster", "create"]
                  + ["127.0.0.1:%d" % p for p in self.cluster.node_ports]
                  + ["--cluster-replicas", "1", "--cluster-yes"], timeout=60)
        self.wait_ready()

    def live_ports(self):
        return [p for p in self.cluster.node_ports if self.cluster.node(p).alive()]

    def nodes(self):
        """CLUSTER NODES as seen by the first live node: [(port, id, flags, slots)],
        slots: the sorted slot numbers the node serves."""
        for port in self.live_ports():
            text = self.cli(port, "CLUSTER", "NODES")
            if not text:
                continue
            out = []
            for line in text.splitlines():
                f = line.split()
                if len(f) < 8:
                    continue
                addr = f[1].split("@")[0].split(",")[0]
                slots = []
                for r in f[8:]:
                    if r.startswith("["):
                        continue
                    lo, _, hi = r.partition("-")
                    slots.extend(range(int(lo), int(hi or lo) + 1))
                out.append((int(addr.rsplit(":", 1)[1]), f[0], f[2], slots))
            return out
        return []

    def primaries(self):
        """Ports of the live primaries serving slots, with how many."""
        return {port: len(slots) for port, _, flags, slots in self.nodes()
                if "master" in flags and "fail" not in flags and slots}

    def slots_of(self, port):
        """The sorted slots the node on `port` serves."""
        return next((slots for p, _, _, slots in self.nodes() if p == port), [])

    def keyslot(self, key):
        for port in self.live_ports():
            reply = self.cli(port, "CLUSTER", "KEYSLOT", key)
            if reply.isdigit():
                return int(reply)
        raise RuntimeError("no node answers CLUSTER KEYSLOT")

    def primary_of(self, key):
        """The port of the primary serving `key`'s slot (the node that answers a
        read-only command on it without a redirection), or None."""
        for port in self.live_ports():
            role = self.cli(port, "ROLE")
            if not role.startswith("master"):
                continue
            reply = self.cli(port, "EXISTS", key)
            if reply and not reply.startswith(("MOVED", "ASK", "CLUSTERDOWN")):
                return port
        return None

    def ok(self, ports=None, in_sync=True):
        """Every node of `ports` (default: every live one) says cluster_state:ok with all
        16384 slots, and (in_sync) every primary with slots has a replica online."""
        for port in ports or self.live_ports():
            info = self.cli(port, "CLUSTER", "INFO")
            if "cluster_state:ok" not in info or "cluster_slots_ok:16384" not in info:
                return False
            if in_sync:
                repl = self.cli(port, "INFO", "replication")
                if "role:master" in repl:
                    if "state=online" not in repl and port in self.primaries():
                        return False
                elif "master_link_status:up" not in repl:
                    return False
        return True

    def wait_ready(self, within=None):
        end = time.monotonic() + (within or self.READY_WITHIN)
        while not self.ok():
            self._waiting(end, "the Redis Cluster did not become ok with every replica in sync")

    def kill_primary(self, port):
        """SIGKILL of the primary on `port`, as a crash."""
        self.cluster.node(port).kill()

    def wait_promoted(self, old, within=30.0):
        """Until a replica took over the slots of the primary that was on `old` and every
        other node says cluster_state:ok; returns the promoted replica's port."""
        end = time.monotonic() + within
        while True:
            prim = self.primaries()
            # (A node suspected but not yet failed is "fail?": every slot served by a
            # healthy primary means the promotion happened.)
            if old not in prim and sum(prim.values()) == 16384 and self.ok(in_sync=False):
                return prim
            self._waiting(end, "no replica of the primary on :%d was promoted within %.0f s"
                          % (old, within))

    def restart(self, port):
        """Starts the killed node again (its nodes.conf kept): it rejoins as a replica of
        the primary promoted in its place; waits until every replica is in sync."""
        with self.cluster.lock:
            if self.cluster.closing:
                raise RuntimeError("stopping")
            self.cluster.node(port).start()
        wait_port(port)
        self.wait_ready()

    def node_id(self, port):
        return self.cli(port, "CLUSTER", "MYID")

    def reshard(self, source, target, slots):
        """redis-cli --cluster reshard: `slots` slots from the primary on `source` to the
        one on `target`, slot by slot (IMPORTING, MIGRATING, MIGRATE of its keys)."""
        self._run([redis_cli(), "--cluster", "reshard", "127.0.0.1:%d" % source,
                   "--cluster-from", self.node_id(source), "--cluster-to", self.node_id(target),
                   "--cluster-slots", str(slots), "--cluster-yes"], timeout=300)
        self.wait_ready()
