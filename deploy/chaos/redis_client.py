"""The chaos driver's Redis client: redis-py (installed by deploy/chaos.sh in its venv),
with the one thing the driver needs on top: a command retried, over a new connection,
while Redis is away (killed, restarting, loading its AOF)."""

import time

import redis


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


def fields(entry_fields):
    """A stream entry's fields ({k: v} or a flat [k, v, k, v] list) as a dict of str -> bytes."""
    if isinstance(entry_fields, dict):
        items = entry_fields.items()
    else:
        it = iter(entry_fields)
        items = zip(it, it)
    return {(k.decode() if isinstance(k, bytes) else k): v for k, v in items}
