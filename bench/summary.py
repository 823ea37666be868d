"""Prints the Celery and Chorus figures of one compare.sh run side by side, with ratios
and the Chorus targets. Arguments: eight JSON objects (Celery chain @1, chain @N,
chord @1, chord @N, then Chorus the same four) and the Celery worker setting."""

import json
import sys


def faster(ratio):
    """Celery time / Chorus time, said the right way round."""
    if ratio >= 1:
        return f"Chorus {ratio:.1f}x faster"
    return f"Celery {1 / ratio:.1f}x faster"


def largest_agent(run):
    agents = [p for p in run["processes"] if p["name"] not in ("redis-server", "bench client")]
    return max(agents, key=lambda p: p["peak_rss_mib"])


def main():
    runs = [json.loads(a) for a in sys.argv[1:9]]
    celery_setting = sys.argv[9] if len(sys.argv) > 9 else "celery"
    c_chain_1, c_chain_n, c_chord_1, c_chord_n, h_chain_1, h_chain_n, h_chord_1, h_chord_n = runs

    rows = []

    def latency(name, c, h):
        for key in ("p50_ms", "p99_ms"):
            rows.append((f"{name} {key[:3]} (concurrency 1)", f"{c[key]:.3f} ms",
                         f"{h[key]:.3f} ms", faster(c[key] / h[key])))

    def throughput(name, c, h):
        rows.append((f"{name} throughput (Celery {c['concurrency']} / Chorus {h['concurrency']} in flight)",
                     f"{c['tasks_per_s']:.0f} /s", f"{h['tasks_per_s']:.0f} /s",
                     f"{h['tasks_per_s'] / c['tasks_per_s']:.1f}x more"))

    latency("2+4", c_chain_1, h_chain_1)
    throughput("2+4", c_chain_n, h_chain_n)
    latency("3-way fan-out", c_chord_1, h_chord_1)
    throughput("3-way fan-out", c_chord_n, h_chord_n)

    width = max(len(r[0]) for r in rows)
    print()
    print(f"{'':<{width}}  {'Celery':>12}  {'Chorus':>12}  Chorus vs Celery")
    print(f"{'':<{width}}  {'(' + celery_setting + ')'}")
    for name, c, h, ratio in rows:
        print(f"{name:<{width}}  {c:>12}  {h:>12}  {ratio}")

    rss = {name: largest_agent(run) for name, run in
           (("2+4 @1", h_chain_1), ("2+4 many", h_chain_n), ("fan-out @1", h_chord_1), ("fan-out many", h_chord_n))}
    worst = max(rss.values(), key=lambda p: p["peak_rss_mib"])
    rss_text = ", ".join(f"{k}: {p['name']} {p['peak_rss_mib']:.1f} MiB" for k, p in rss.items())
    checks = [
        ("2+4 p50 < 1.5 ms at concurrency 1", h_chain_1["p50_ms"] < 1.5, f"{h_chain_1['p50_ms']:.3f} ms"),
        ("2+4 > 5,000 tasks/s with many in flight", h_chain_n["tasks_per_s"] > 5000,
         f"{h_chain_n['tasks_per_s']:.0f} /s at {h_chain_n['concurrency']} in flight"),
        ("3-way fan-out p50 < 2.5 ms", h_chord_1["p50_ms"] < 2.5, f"{h_chord_1['p50_ms']:.3f} ms"),
        ("every agent's peak RSS < 20 MB", worst["peak_rss_mib"] * 1.048576 < 20,
         f"largest peak per run: {rss_text}"),
    ]
    print()
    print("Chorus targets:")
    for name, ok, value in checks:
        print(f"  [{'met' if ok else 'MISSED'}] {name}: {value}")
    incomplete = [r["not_completed"] for r in (h_chain_1, h_chain_n, h_chord_1, h_chord_n) if r["not_completed"]]
    if incomplete:
        print(f"  warning: some Chorus reports were not completed: {incomplete}")


if __name__ == "__main__":
    main()
