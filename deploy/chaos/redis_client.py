"""The chaos driver's Redis client: redis-py (installed by deploy/chaos.sh in its venv),
with the one thing the driver needs on top: a command retried, over a new connection,
while Redis is away (killed, restarting, loading its AOF) — or, on a Redis Cluster, while
a primary fails over or its slots move."""

import time

import redis
from redis.cluster import ClusterNode, RedisCluster


class Redis:
    """One client of the Redis under test; every command retries while Redis is away."""

    def __init__(self, port, host="127.0.0.1", timeout=5.0):
        self.client = redis.Redis(host=host, port=port, socket_timeout=timeout,
                                  socket_connect_timeout=timeout)

    def cmd(self, *args, retry_for=120.0):
        """Sends one command, reconnecting and retrying for up to `retry_for` seconds.
        A command whose reply was lost may have run twice: callers use it for
        idempotent work only (reads, or XADDs whose duplicates Chorus deduplicates)."""
        start = time.monotonic()
        while True:
            try:
                return self.client.execute_command(*args)
            except (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError):
                if time.monotonic() - start > retry_for:
                    raise
                self.client.connection_pool.disconnect()
                time.sleep(0.1)

    def xadd(self, stream, data):
        """XADD stream * data <data> (retried while Redis is away)."""
        return self.cmd("XADD", stream, "*", "data", data)

    def publish(self, channel, data):
        """PUBLISH; how many subscribers heard it."""
        return self.cmd("PUBLISH", channel, data)


# What a Cluster command meets while a primary fails over or a slot moves, and is
# retried for: the node gone, the cluster down until the promotion, a redirection
# redis-py gave up following.
CLUSTER_RETRY = (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError,
                 redis.exceptions.ClusterDownError, redis.exceptions.ClusterError,
                 redis.exceptions.MasterDownError, redis.exceptions.SlotNotCoveredError,
                 redis.exceptions.TryAgainError, redis.exceptions.MovedError,
                 redis.exceptions.AskError, redis.exceptions.RedisClusterException)


class ClusterRedis:
    """One client of the Redis Cluster under test (every node a seed); every command
    retries while the cluster is failing over, on a client made again from every seed.
    With `replica_acks` ≥ 1 the driver's own writes (requests, answers) are followed by
    `WAIT replica_acks` on the connection that wrote them, and written again until a
    replica has them: as a client with `bus.replica_acks` does, so a request the
    driver counts as sent survives its primary's death."""

    def __init__(self, ports, host="127.0.0.1", timeout=5.0, replica_acks=0, ack_timeout_ms=2000):
        self.ports, self.host, self.timeout = list(ports), host, timeout
        self.replica_acks, self.ack_timeout_ms = replica_acks, ack_timeout_ms
        self.client = None
        self.nodes = {}  # port -> a plain client of that node, for PUBLISH
        self.count = {"retried": 0, "unacked": 0}

    def _client(self):
        if self.client is None:
            self.client = RedisCluster(
                startup_nodes=[ClusterNode(self.host, p) for p in self.ports],
                socket_timeout=self.timeout, socket_connect_timeout=1.0,
                cluster_error_retry_attempts=1)
        return self.client

    def _reset(self):
        try:
            if self.client is not None:
                self.client.close()
        except Exception:  # noqa: BLE001 - a client being thrown away
            pass
        self.client = None

    def _retry(self, fn, retry_for):
        start = time.monotonic()
        while True:
            try:
                return fn(self._client())
            except CLUSTER_RETRY:
                if time.monotonic() - start > retry_for:
                    raise
                self.count["retried"] += 1
                self._reset()
                time.sleep(0.1)

    def cmd(self, *args, retry_for=120.0):
        """One keyed command, retried (see Redis.cmd: idempotent work only)."""
        return self._retry(lambda c: c.execute_command(*args), retry_for)

    def xadd(self, stream, data, retry_for=120.0):
        """XADD stream * data <data>, then (replica_acks ≥ 1) WAIT on the same connection
        to the stream's primary; written again until enough replicas have it."""
        if not self.replica_acks:
            return self.cmd("XADD", stream, "*", "data", data, retry_for=retry_for)

        def acked(c):
            node = c.get_node_from_key(stream)
            pipe = c.get_redis_connection(node).pipeline(transaction=False)
            pipe.execute_command("XADD", stream, "*", "data", data)
            pipe.execute_command("WAIT", self.replica_acks, self.ack_timeout_ms)
            entry, acks = pipe.execute(raise_on_error=False)
            if isinstance(entry, Exception):
                # MOVED/ASK (a slot moved: this connection is the old primary's),
                # CLUSTERDOWN, LOADING…: refresh the slot map and write again.
                raise redis.exceptions.ClusterError("XADD %s: %s" % (stream, entry))
            if isinstance(acks, Exception) or int(acks) < self.replica_acks:
                self.count["unacked"] += 1
                raise redis.exceptions.ClusterError("XADD %s reached %s replicas" % (stream, acks))
            return entry

        return self._retry(acked, retry_for)

    def publish(self, channel, data):
        """PUBLISH on the first node that answers, in seed order (a PUBLISH reaches every
        node of a Cluster; the roles subscribe on their first seed that answers, so the
        count of subscribers heard is theirs on that node)."""
        start = time.monotonic()
        while True:
            for port in self.ports:
                node = self.nodes.get(port)
                if node is None:
                    node = self.nodes[port] = redis.Redis(
                        host=self.host, port=port, socket_timeout=self.timeout,
                        socket_connect_timeout=0.5)
                try:
                    return node.execute_command("PUBLISH", channel, data)
                except (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError):
                    node.connection_pool.disconnect()
                    continue
            if time.monotonic() - start > 120.0:
                raise redis.ConnectionError("no cluster node answers")
            time.sleep(0.1)


def fields(entry_fields):
    """A stream entry's fields ({k: v} or a flat [k, v, k, v] list) as a dict of str -> bytes."""
    if isinstance(entry_fields, dict):
        items = entry_fields.items()
    else:
        it = iter(entry_fields)
        items = zip(it, it)
    return {(k.decode() if isinstance(k, bytes) else k): v for k, v in items}
