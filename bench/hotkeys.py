"""Per-key command counts from MONITOR captures (bench/cluster.sh with BENCH_MONITOR=S).

    python3 bench/hotkeys.py SECONDS monitor-*.txt

Counts, for every key, the commands that named it (a script's declared keys count for
the EVALSHA, and each command the script runs counts again, as MONITOR shows it with
`[0 lua]`), over every capture given, per second of capture. Keys of one task are
folded into one row per pattern (`chorus:{<task>}:once:…`), so what stays are the keys
that every task touches: the hot single keys. Prints the top rows and, for each single
key, the node (capture file) it was seen on.
"""

import collections
import re
import shlex
import sys

NO_KEY = {
    "PING", "INFO", "CLUSTER", "WAIT", "PUBLISH", "SPUBLISH", "CLIENT", "HELLO", "READONLY",
    "SCRIPT", "AUTH", "SELECT", "COMMAND", "CONFIG", "ROLE", "MULTI", "EXEC", "DISCARD",
    "SUBSCRIBE", "SSUBSCRIBE", "PSUBSCRIBE", "MONITOR", "ECHO", "TIME", "DBSIZE",
}
TASK = re.compile(r"\{[^}]*\}")


def keys_of(args):
    cmd = args[0].upper()
    if cmd in NO_KEY:
        return []
    if cmd in ("EVALSHA", "EVAL", "EVALSHA_RO", "EVAL_RO", "FCALL"):
        n = int(args[2]) if len(args) > 2 and args[2].isdigit() else 0
        return args[3:3 + n]
    if cmd in ("XREAD", "XREADGROUP"):
        up = [a.upper() for a in args]
        if "STREAMS" not in up:
            return []
        rest = args[up.index("STREAMS") + 1:]
        return rest[: len(rest) // 2]
    return args[1:2]


def pattern(key):
    """A task's or a session's key folded to its pattern; single keys as they are."""
    if key.startswith("chorus:sent:"):
        return TASK.sub("{…}", key)
    if key.startswith("chorus:{") or key.startswith("{chorus:"):
        return TASK.sub("{…}", key, count=1)
    if key.startswith("report_tokens:"):
        return "report_tokens:…"
    if key.startswith("chorus:session:") or key.startswith("chorus:chat:"):
        return re.sub(r"^(chorus:(session|chat):)[^:]+", r"\1…", key)
    if key.startswith("chorus:ingress:") or key.startswith("chorus:tokens:"):
        return TASK.sub("{…}", key)
    return key


def main():
    seconds = float(sys.argv[1])
    per_key = collections.Counter()
    per_pattern = collections.Counter()
    where = collections.defaultdict(set)
    per_node = collections.Counter()
    single_node = collections.Counter()
    for path in sys.argv[2:]:
        node = re.sub(r".*-(\d+)\.txt$", r"\1", path)
        with open(path, errors="replace") as f:
            for line in f:
                at = line.find("] ")
                if at < 0:
                    continue
                try:
                    args = shlex.split(line[at + 2:])
                except ValueError:
                    continue
                if not args:
                    continue
                for key in keys_of(args):
                    per_key[key] += 1
                    per_pattern[pattern(key)] += 1
                    where[pattern(key)].add(node)
                    per_node[node] += 1
                    if "…" not in pattern(key):
                        single_node[node] += 1
    print("%-60s %10s %8s  %s" % ("key (pattern)", "commands", "per s", "node(s)"))
    for key, n in per_pattern.most_common(30):
        print("%-60s %10d %8.0f  %s" % (key[:60], n, n / seconds, ",".join(sorted(where[key]))))
    # The single keys: every task touches them, on one node each.
    print()
    print("single keys (one key, one slot), per second:")
    for key, n in per_pattern.most_common():
        if "…" not in key:
            print("  %-50s %8.0f  node %s" % (key, n / seconds, ",".join(sorted(where[key]))))
    print()
    print("per node: key-commands per second (all keys / single keys):")
    for node in sorted(per_node):
        print("  node %s  %8.0f / %6.0f" % (node, per_node[node] / seconds, single_node[node] / seconds))


if __name__ == "__main__":
    main()
