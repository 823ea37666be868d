#!/usr/bin/env python3
"""Redis commands per task by process and by command, from a MONITOR capture, an
`ss -tnp` snapshot (which process owns each client port) and a "<pid> <name>" list.
A command MONITOR shows as from "lua" ran in the script the same process ran last.
Tasks are counted as the client's XADDs to task_available. Run by
bench/commands_by_role.sh.  Usage: commands_by_role.py MON SS PIDS"""
import re, sys, collections
mon, ss, pidmap = sys.argv[1:4]
roles = {}
for line in open(pidmap):
    pid, role = line.split(None, 1)
    roles[pid] = role.strip()
port_role = {}
for line in open(ss):
    m = re.search(r'\s(\S+):(\d+)\s+\S+:\d+\s+users:\(\("([^"]+)",pid=(\d+)', line)
    if m:
        port_role[m.group(2)] = roles.get(m.group(4), m.group(3))
counts = collections.Counter()
by_cmd = collections.Counter()
tasks = 0
last = None
for line in open(mon):
    m = re.match(r'[\d.]+ \[\d+ ([^\]]+)\] "([^"]+)"(?: "([^"]*)")?', line)
    if not m:
        continue
    client, cmd, arg = m.group(1), m.group(2).upper(), m.group(3)
    if client == 'lua':
        role = last
        cmd = cmd + ' (in script)'
    else:
        port = client.rsplit(':', 1)[-1]
        role = port_role.get(port, 'unknown:' + port)
        if cmd in ('EVALSHA', 'EVAL'):
            last = role
    if cmd == 'XADD' and arg == 'task_available' and client != 'lua':
        tasks += 1
    if cmd in ('INFO', 'MONITOR', 'PING'):
        continue
    counts[(role, cmd)] += 1
    by_cmd[cmd.replace(' (in script)', '')] += 1
print(f'tasks={tasks}')
tot = sum(counts.values())
print(f'commands per task: {tot / tasks:.2f}')
per_role = collections.Counter()
for (r, c), n in counts.items():
    per_role[r] += n
for r, n in sorted(per_role.items(), key=lambda x: -x[1]):
    print(f'{r:20s} {n / tasks:6.2f}   ' + ', '.join(f'{c} {counts[(r, c)] / tasks:.2f}' for (rr, c) in sorted(counts, key=lambda k: -counts[k]) if rr == r))
print('by command: ' + ', '.join(f'{c} {n / tasks:.2f}' for c, n in by_cmd.most_common()))
