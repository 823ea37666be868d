#!/usr/bin/env python3
"""TCP_NODELAY on every TCP socket of the processes given by PID (root, or ptrace rights).

    bench/nodelay.py PID [PID ...]

Copies each socket's descriptor with pidfd_getfd(2) (Linux 5.6+) and reads the option
with getsockopt; prints one line per socket: pid, fd, local -> peer address, nodelay.
"""
import ctypes
import os
import socket
import sys

SYS_PIDFD_OPEN = 434
SYS_PIDFD_GETFD = 438
libc = ctypes.CDLL(None, use_errno=True)


def sockets(pid):
    for fd in sorted(os.listdir(f"/proc/{pid}/fd"), key=int):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:"):
            yield int(fd)


def main():
    for arg in sys.argv[1:]:
        pid = int(arg)
        comm = open(f"/proc/{pid}/comm").read().strip()
        pidfd = libc.syscall(SYS_PIDFD_OPEN, pid, 0)
        if pidfd < 0:
            print(f"{pid} {comm}: pidfd_open failed (errno {ctypes.get_errno()})")
            continue
        for fd in sockets(pid):
            mine = libc.syscall(SYS_PIDFD_GETFD, pidfd, fd, 0)
            if mine < 0:
                continue
            s = socket.socket(fileno=mine)
            try:
                if s.type != socket.SOCK_STREAM or s.family not in (socket.AF_INET, socket.AF_INET6):
                    continue
                try:
                    peer = s.getpeername()
                except OSError:
                    continue  # a listener
                local = s.getsockname()
                nodelay = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
                print(f"{pid} {comm} fd {fd} {local[0]}:{local[1]} -> {peer[0]}:{peer[1]} nodelay={int(bool(nodelay))}")
            finally:
                s.detach()
                os.close(mine)
        os.close(pidfd)


if __name__ == "__main__":
    main()
