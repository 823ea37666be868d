"""Measures the Celery chain and chord (see celery_tasks.py) like `chorus-bench` does:
p50/p99 end-to-end latency at concurrency 1, and throughput with many in flight.

    python celery_bench.py --mode chain|chord --tasks N --concurrency C --query Q

Prints one JSON object as the last line (keys p50_ms, p99_ms, tasks_per_s).
With concurrency C > 1 it submits C workflows, waits for all of them, and repeats
(waves), so C are in flight at the start of each wave.
"""

import argparse
import json
import time

from celery import chain, chord

import celery_tasks as t


def workflow(mode, query):
    if mode == "chain":
        return chain(t.plan.s(query), t.compute.s(), t.synthesize.s(query))
    if mode == "chord-client-plan":
        # The plan made by the client: one hop less than Chorus's planner process.
        return chord([t.compute.s(s) for s in t.parse(query)], t.synthesize_many.s(query))
    return t.plan_fanout.s(query)


def pct(values, q):
    values = sorted(values)
    i = max(1, min(len(values), int(-(-q * len(values) // 1)))) - 1
    return values[i]


def run(mode, query, tasks, concurrency, timeout=30):
    sig = workflow(mode, query)
    latencies = []
    started = time.perf_counter()
    done = 0
    while done < tasks:
        n = min(concurrency, tasks - done)
        t0 = time.perf_counter()
        results = [sig.apply_async() for _ in range(n)]
        for r in results:
            text = r.get(timeout=timeout)
            latencies.append(time.perf_counter() - t0)
            if "## Math Results" not in text:
                raise SystemExit(f"unexpected result {text!r}")
        done += n
    elapsed = time.perf_counter() - started
    return latencies, elapsed


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--mode", choices=["chain", "chord", "chord-client-plan"], default="chain")
    p.add_argument("--query", default="2+4")
    p.add_argument("--tasks", type=int, default=500)
    p.add_argument("--concurrency", type=int, default=1)
    p.add_argument("--warmup", type=int, default=50)
    a = p.parse_args()
    run(a.mode, a.query, a.warmup, a.concurrency, timeout=60)
    lat, elapsed = run(a.mode, a.query, a.tasks, a.concurrency)
    out = {
        "system": "celery",
        "mode": a.mode,
        "query": a.query,
        "tasks": a.tasks,
        "concurrency": a.concurrency,
        "p50_ms": round(pct(lat, 0.50) * 1000, 3),
        "p99_ms": round(pct(lat, 0.99) * 1000, 3),
        "tasks_per_s": round(a.tasks / elapsed, 1),
    }
    print(f"celery {a.mode} {a.query!r} x{a.tasks} concurrency {a.concurrency}: "
          f"p50 {out['p50_ms']} ms, p99 {out['p99_ms']} ms, {out['tasks_per_s']} /s")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
