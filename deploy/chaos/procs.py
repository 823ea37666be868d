"""The processes of a chaos run: redis-server (AOF), the MCP servers and every role, each
started by this driver, restarted under the same name, and killed by PID at the end."""

import os
import signal
import socket
import subprocess
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

    def __init__(self, bin_dir, work, settings):
        self.bin, self.work = bin_dir, work
        self.redis_port, self.math_port, self.date_port = free_ports(3)
        base = dict(os.environ)
        base.update({
            "CHORUS__BUS__REDIS_URL": "redis://127.0.0.1:%d" % self.redis_port,
            "CHORUS__POOLS__MATH__MCP_URL": "http://127.0.0.1:%d/mcp" % self.math_port,
            "CHORUS__POOLS__DATE__MCP_URL": "http://127.0.0.1:%d/mcp" % self.date_port,
            "CHORUS_LOG": os.environ.get("CHORUS_LOG", "warn"),
            "MIMALLOC_ARENA_EAGER_COMMIT": os.environ.get("MIMALLOC_ARENA_EAGER_COMMIT", "0"),
        })
        base.update(settings)
        redis_bin = os.environ.get("CHORUS_REDIS_SERVER", "redis-server")
        self.procs = {}
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
                argv = [chorus, "agent", "pool", "--pool", name.split("-")[1]]
            self._add(name, argv, base)

    def _add(self, name, argv, env):
        self.procs[name] = Proc(name, argv, env, os.path.join(self.work, name + ".log"))

    def start(self):
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
        for name in reversed(list(self.procs)):
            self.procs[name].stop()
