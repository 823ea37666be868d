#!/usr/bin/env python3
"""Where each Chorus process's resident memory is, at its largest, while a command runs.

    python3 bench/smaps_peak.py [--every 0.5] -- COMMAND ARGS...

Runs COMMAND (e.g. `chorus-bench --spawn ...`) and reads `/proc/PID/smaps` of every
process named chorus, chorus-pool or chorus-mcp-* every 0.5 s; keeps each process's
sample with the largest RSS and prints it split into the binary's code (r-x), the
binary's other pages, libraries, glibc's heap ([heap]), the main thread's stack and other
anonymous memory (mimalloc's segments, the other threads' stacks), in MiB, with its thread count
(docs/performance.md, "Memory per process, the heap and the runtime").
"""
import os
import subprocess
import sys
import time

NAMES = ("chorus", "chorus-pool", "chorus-mcp-math", "chorus-mcp-date")


def sample(pid):
    """Rss per kind (KiB) and threads of one process, or None when it is gone."""
    try:
        exe = os.readlink(f"/proc/{pid}/exe")
        lines = open(f"/proc/{pid}/smaps").read().splitlines()
        threads = len(os.listdir(f"/proc/{pid}/task"))
        cmd = open(f"/proc/{pid}/cmdline").read().split("\0")
    except OSError:
        return None
    kinds = dict(code=0, bin_data=0, libs=0, heap=0, stack=0, anon=0)
    kind = "anon"
    for line in lines:
        head = line.split()
        if not head:
            continue
        if "-" in head[0] and len(head) >= 5 and not head[0].endswith(":"):
            path = head[5] if len(head) > 5 else ""
            perms = head[1]
            if path == exe:
                kind = "code" if "x" in perms else "bin_data"
            elif path == "[heap]":
                kind = "heap"
            elif path.startswith("[stack"):
                kind = "stack"  # the main thread's; the others' are anonymous
            elif path.startswith("/"):
                kind = "libs"
            else:
                kind = "anon"
        elif head[0] == "Rss:":
            kinds[kind] += int(head[1])
    name = " ".join(c for c in cmd[1:] if c)[:40]
    return os.path.basename(exe), name, sum(kinds.values()), kinds, threads


def main():
    args = sys.argv[1:]
    every = 0.5
    if args[:1] == ["--every"]:
        every, args = float(args[1]), args[2:]
    if args[:1] == ["--"]:
        args = args[1:]
    child = subprocess.Popen(args)
    best = {}
    while child.poll() is None:
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                comm = open(f"/proc/{pid}/comm").read().strip()
            except OSError:
                continue
            if comm not in NAMES and not comm.startswith("chorus-mcp"):
                continue
            s = sample(pid)
            if s and (pid not in best or s[2] > best[pid][2]):
                best[pid] = s
        time.sleep(every)
    mib = lambda kib: "%.1f" % (kib / 1024)
    print("process | RSS | code | bin data | libs | [heap] | stack | anon | threads",
          file=sys.stderr)
    for exe, name, rss, k, threads in sorted(best.values(), key=lambda s: -s[2]):
        print(f"{exe} {name} | {mib(rss)} | {mib(k['code'])} | {mib(k['bin_data'])} | "
              f"{mib(k['libs'])} | {mib(k['heap'])} | {mib(k['stack'])} | "
              f"{mib(k['anon'])} | {threads}", file=sys.stderr)
    sys.exit(child.returncode)


if __name__ == "__main__":
    main()
