"""A minimal Redis client (RESP2 over a socket, stdlib only) that reconnects by itself."""

import socket
import time


class RedisError(Exception):
    """An error reply from Redis."""


class Redis:
    """One connection to Redis; every command reconnects and retries while Redis is away."""

    def __init__(self, port, host="127.0.0.1", timeout=5.0):
        self.addr = (host, port)
        self.timeout = timeout
        self.sock = None
        self.buf = b""

    def close(self):
        if self.sock is not None:
            try:
                self.sock.close()
            except OSError:
                pass
        self.sock = None
        self.buf = b""

    def _connect(self):
        self.sock = socket.create_connection(self.addr, timeout=self.timeout)
        self.buf = b""

    @staticmethod
    def _encode(args):
        out = [b"*%d\r\n" % len(args)]
        for a in args:
            if isinstance(a, str):
                a = a.encode()
            elif isinstance(a, int):
                a = str(a).encode()
            out.append(b"$%d\r\n%s\r\n" % (len(a), a))
        return b"".join(out)

    def _line(self):
        while b"\r\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("connection closed")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def _exact(self, n):
        while len(self.buf) < n + 2:
            chunk = self.sock.recv(max(65536, n + 2 - len(self.buf)))
            if not chunk:
                raise ConnectionError("connection closed")
            self.buf += chunk
        data, self.buf = self.buf[:n], self.buf[n + 2:]
        return data

    def _reply(self):
        line = self._line()
        kind, rest = line[:1], line[1:]
        if kind == b"+":
            return rest.decode()
        if kind == b"-":
            return RedisError(rest.decode(errors="replace"))
        if kind == b":":
            return int(rest)
        if kind == b"$":
            n = int(rest)
            return None if n < 0 else self._exact(n)
        if kind == b"*":
            n = int(rest)
            return None if n < 0 else [self._reply() for _ in range(n)]
        raise ConnectionError("bad reply %r" % line)

    def once(self, *args):
        """Sends one command on the current connection (no retry)."""
        if self.sock is None:
            self._connect()
        try:
            self.sock.sendall(self._encode(args))
            reply = self._reply()
        except (OSError, ConnectionError):
            self.close()
            raise
        if isinstance(reply, RedisError):
            raise reply
        return reply

    def cmd(self, *args, retry_for=120.0):
        """Sends one command, reconnecting and retrying for up to `retry_for` seconds.
        A command whose reply was lost may have run twice: callers use it for
        idempotent work only (reads, or XADDs whose duplicates Chorus deduplicates)."""
        start = time.monotonic()
        while True:
            try:
                return self.once(*args)
            except (OSError, ConnectionError):
                if time.monotonic() - start > retry_for:
                    raise
                time.sleep(0.1)
            except RedisError as e:
                if str(e).startswith("LOADING") and time.monotonic() - start < retry_for:
                    time.sleep(0.1)
                    continue
                raise


def fields(entry_fields):
    """A stream entry's flat [k, v, k, v] list as a dict of str -> bytes."""
    it = iter(entry_fields)
    return {k.decode(): v for k, v in zip(it, it)}
