#!/usr/bin/env bash
# Chorus against the floor of its design, alternating (docs/performance.md, "Ninth part of
# issue 31"): each round runs `chorus-bench --spawn` ("chorus"), `chorus-floor run --kind
# bus` (floor (a)) and `chorus-floor run --kind raw` (floor (b)), the order rotated from
# round to round, each at one task in flight (1,000 tasks after 200 of warm-up) and at 256
# (5,000 after 500). Every run's JSON is kept in OUT_DIR; a line per run is printed as it
# ends, then each side's lowest–highest (median) of every figure.
#
#   bench/floor_ab.sh BIN_DIR [ROUNDS=4] [OUT_DIR=/tmp/floor-ab]
set -euo pipefail
bin=${1:?usage: bench/floor_ab.sh BIN_DIR [ROUNDS] [OUT_DIR]}
rounds=${2:-4}
out=${3:-/tmp/floor-ab}
mkdir -p "$out"
sides=(chorus bus raw)
for r in $(seq 1 "$rounds"); do
    for i in 0 1 2; do
        side=${sides[$(((i + r - 1) % 3))]}
        for c in 1 256; do
            if [ "$c" = 1 ]; then load=(--tasks 1000 --concurrency 1); else load=(--tasks 5000 --concurrency 256 --warmup 500); fi
            if [ "$side" = chorus ]; then
                cmd=("$bin/chorus-bench" --spawn --json --query "2+4" "${load[@]}")
            else
                cmd=("$bin/chorus-floor" run --kind "$side" --json "${load[@]}")
            fi
            file="$out/$side-c$c-r$r.json"
            load_avg=$(cut -d' ' -f1 /proc/loadavg)
            "${cmd[@]}" | tail -1 > "$file"
            python3 - "$file" "$side" "$c" "$r" "$load_avg" <<'EOF'
import json, sys
f, side, c, r, load = sys.argv[1:]
d = json.load(open(f))
print("round %s %-6s c=%-3s p50 %6.3f p99 %7.3f ms  %6.0f t/s  %5.1f cmd/task  cpu all %.3f w/o redis+client %.3f redis %.3f ms/task  load %s %s" % (
    r, side, c, d["p50_ms"], d["p99_ms"], d["tasks_per_s"], d["redis_commands_per_task"],
    d["cpu_ms_per_task_all"], d["cpu_ms_per_task_without_redis_and_client"],
    d["redis_cpu_ms_per_task"], load, "" if not d["not_completed"] else "NOT COMPLETED %s" % d["not_completed"]))
EOF
        done
    done
done
python3 - "$out" <<'EOF'
import glob, json, os, statistics, sys
out = sys.argv[1]
figures = [("p50_ms", 1), ("p99_ms", 1), ("redis_commands_per_task", 1), ("cpu_ms_per_task_all", 1),
           ("cpu_ms_per_task_without_redis_and_client", 1), ("tasks_per_s", 256),
           ("redis_commands_per_task", 256), ("cpu_ms_per_task_all", 256),
           ("cpu_ms_per_task_without_redis_and_client", 256), ("redis_cpu_ms_per_task", 256)]
for side in ("chorus", "bus", "raw"):
    print(side)
    for key, c in figures:
        vals = [json.load(open(f))[key] for f in sorted(glob.glob(os.path.join(out, "%s-c%d-r*.json" % (side, c))))]
        if vals:
            print("  %-45s c=%-3d %s–%s (median %s), n=%d" % (key, c, min(vals), max(vals), round(statistics.median(vals), 3), len(vals)))
EOF
