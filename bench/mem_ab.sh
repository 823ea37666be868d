#!/usr/bin/env bash
# Peak RSS per process at 256 in flight, several builds or settings in alternating runs.
#
#   bench/mem_ab.sh RUNS NAME=BIN_DIR[:VAR=VALUE,VAR=VALUE] ...
#
# Each run is `chorus-bench --spawn --json --query "2+4" --tasks 5000 --concurrency 256
# --warmup 500` from BIN_DIR, with the given variables in its environment (the processes
# it starts inherit them). Prints one line per run (tasks/s, p50, every process's peak
# RSS in MiB, CPU ms per task summed over the roles and MCP servers, the 1-minute load
# average when the run ended) and the medians per NAME (docs/performance.md, "Where the
# memory goes"); the JSON lines stay in the file named at the end.
runs=$1; shift
out=$(mktemp); : > "$out"
for i in $(seq 1 $runs); do
  for spec in "$@"; do
    side=${spec%%=*}; rest=${spec#*=}; dir=${rest%%:*}; envs=""; [[ $rest == *:* ]] && envs=${rest#*:}
    line=$(env ${envs//,/ } $dir/chorus-bench --spawn --json --query "2+4" --tasks 5000 --concurrency 256 --warmup 500 | tail -1)
    load=$(cut -d' ' -f1 /proc/loadavg)
    echo "{\"side\":\"$side\",\"load\":$load,\"r\":$line}" >> $out
    python3 -c 'import json,sys; d=json.loads(sys.argv[1]); r=d["r"]; cpu=sum(p["cpu_ms_per_task"] for p in r["processes"] if p["name"]!="bench client" and not p["name"].startswith("redis")); print(d["side"].ljust(8), "%6d t/s p50 %7.1f ms cpu %.3f load %.2f |"%(r["tasks_per_s"],r["p50_ms"],cpu,d["load"]), " ".join("%s %.1f"%(p["name"],p["peak_rss_mib"]) for p in r["processes"] if p["name"] not in ("bench client",)))' "$(tail -1 $out)"
  done
done
python3 - $out <<'PY'
import json,sys,statistics as st,collections
rows=[json.loads(l) for l in open(sys.argv[1])]
by=collections.defaultdict(list)
for r in rows: by[r["side"]].append(r["r"])
for side,rs in by.items():
    names=[p["name"] for p in rs[0]["processes"]]
    med=lambda xs: round(st.median(xs),1)
    cpu=lambda r: sum(p["cpu_ms_per_task"] for p in r["processes"] if p["name"]!="bench client" and not p["name"].startswith("redis"))
    print("median",side.ljust(8),"t/s",med([r["tasks_per_s"] for r in rs]),"p50",med([r["p50_ms"] for r in rs]),"cpu",round(st.median([cpu(r) for r in rs]),3),"|"," ".join("%s %s"%(n,med([p["peak_rss_mib"] for r in rs for p in r["processes"] if p["name"]==n])) for n in names if n!="bench client"))
PY
echo "runs: $out"
