"""The Celery side of the comparison: the same work as Chorus's "2+4" and a 3-way fan-out.

plan -> compute -> synthesize as a chain, and plan -> chord(3 x compute) -> synthesize.
The compute step runs the arithmetic in the worker itself (Chorus's pool agent makes a
real MCP call over HTTP instead), so Celery does strictly less work per task here.
"""

import os
import re
from decimal import Decimal

from celery import Celery, chord

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")

app = Celery("chorus_compare", broker=REDIS_URL, backend=REDIS_URL)
app.conf.update(
    task_serializer="json",
    result_serializer="json",
    accept_content=["json"],
    broker_connection_retry_on_startup=True,
    worker_hijack_root_logger=False,
    result_expires=600,
)

_EXPR = re.compile(r"\s*(-?\d+(?:\.\d+)?)\s*([-+*/])\s*(-?\d+(?:\.\d+)?)\s*")
_OPS = {"+": "sum", "-": "subtract", "*": "multiply", "/": "divide"}


def parse(query):
    """'2+4' -> [step]; '1+1, 2+2 and 3+3' -> [step, step, step]."""
    steps = []
    for part in re.split(r",|\band\b", query):
        m = _EXPR.fullmatch(part)
        if m:
            steps.append({"tool": _OPS[m.group(2)], "a": m.group(1), "b": m.group(3)})
    if not steps:
        raise ValueError(f"cannot plan {query!r}")
    return steps


def run_tool(step):
    a, b = Decimal(step["a"]), Decimal(step["b"])
    value = {"sum": a + b, "subtract": a - b, "multiply": a * b, "divide": a / b}[step["tool"]]
    return {**step, "value": str(value)}


def report(query, results):
    lines = ["## Math Results:"]
    for r in results:
        lines.append(f"- **{r['tool']}** ({r['a']}, {r['b']}): {r['value']}")
    return "\n".join(lines)


@app.task
def plan(query):
    return parse(query)[0]


@app.task
def compute(step):
    return run_tool(step)


@app.task
def synthesize(result, query):
    return report(query, [result])


@app.task
def synthesize_many(results, query):
    return report(query, results)


@app.task(bind=True)
def plan_fanout(self, query):
    steps = parse(query)
    return self.replace(chord([compute.s(s) for s in steps], synthesize_many.s(query)))
