#!/usr/bin/env bash
# What a language model adds: asks a set of requests of Chorus without the model and
# with it, and prints per request the path of its plan (heuristic, llm,
# llm_failed:<code>), the answer and whether it is right; then totals: answered right,
# wrong, refused, asked, of how many, and the model's latency (p50, p90).
#
#   bench/model_eval.sh [--lang en|vi] [--limit N] [--only-model] [FILE…]
#
# FILE is in the corpus format (tests/corpus/README.md); default the blind batch
# tests/blind/batch-1.txt, which nobody tuned Chorus on. Each request is its own
# `chorus ask --local --json` (every role in one process, the in-memory bus), once
# without the model and once with the model the environment names:
#   CHORUS__LLM__BASE_URL, CHORUS__LLM__MODEL   (tests/model/up.sh start prints them;
#                                                 without them, the cached server is
#                                                 started if present)
# The model only plans here (CHORUS__LLM__SYNTHESIZE=false unless set): every request
# the heuristic answers for certain costs no model call, the rest cost one plan each.
# A valid model plan of the wrong operation counts as wrong, not hidden: right means
# the report's output values equal the expected ones exactly.
#
# --only-model asks only the requests the heuristic cannot answer for certain (those
# the model is asked about), so a run on a slow CPU model stays short.
# Model latency is the wall time of a request with the model less the same request
# without it, over the requests whose plan went to the model.
set -euo pipefail
cd "$(dirname "$0")/.."

LANG_FILTER="" LIMIT=0 ONLY_MODEL=0 FILES=()
while [ $# -gt 0 ]; do
  case "$1" in
    --lang) LANG_FILTER="$2"; shift 2 ;;
    --limit) LIMIT="$2"; shift 2 ;;
    --only-model) ONLY_MODEL=1; shift ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    *) FILES+=("$1"); shift ;;
  esac
done
[ ${#FILES[@]} -gt 0 ] || FILES=(tests/blind/batch-1.txt)

if [ -z "${CHORUS__LLM__BASE_URL:-}" ]; then
  if bash tests/model/up.sh present; then
    eval "$(bash tests/model/up.sh start | sed 's/^/export /')"
  else
    echo "model_eval: no CHORUS__LLM__BASE_URL and no cached model server (tests/model/up.sh install)" >&2
    exit 2
  fi
fi

cargo build -q -p chorus-cli --bin chorus
CHORUS_BIN="${CARGO_TARGET_DIR:-target}/debug/chorus"

export CHORUS_BIN LANG_FILTER LIMIT ONLY_MODEL
exec python3 - "${FILES[@]}" <<'PY'
import json, os, re, statistics, subprocess, sys, time

BIN = os.environ["CHORUS_BIN"]
LANG_FILTER = os.environ["LANG_FILTER"]
LIMIT = int(os.environ["LIMIT"])
ONLY_MODEL = os.environ["ONLY_MODEL"] == "1"
MODEL_ENV = {k: v for k, v in os.environ.items() if k.startswith("CHORUS__LLM__")}
MODEL_ENV.setdefault("CHORUS__LLM__SYNTHESIZE", "false")
MODEL_ENV.setdefault("CHORUS__LLM__TIMEOUT_MS", "120000")
MODEL_ENV.setdefault("CHORUS__AGENTS__DEADLINE_MS", "300000")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def cases(path):
    """(line, query, expected, now, tz, lang) of every request line of `path`."""
    now = tz = lang = None
    session = None
    for n, raw in enumerate(open(path, encoding="utf-8"), 1):
        line = raw.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line.startswith("@"):
            name, _, value = line[1:].partition(" ")
            value = value.split(" # ")[0].strip()
            value = None if value == "none" else value
            if name == "now": now = value
            elif name == "tz": tz = value
            elif name == "lang": lang = value
            elif name == "session": session = value
            continue
        if session or line.startswith(">") or " => " not in line:
            continue  # conversations need a session: not asked here
        query, _, expected = line.partition(" => ")
        expected = expected.split(" # ")[0].strip()
        yield n, query.strip(), expected, now, tz, lang


def ask(query, now, tz, with_model):
    env = {k: v for k, v in os.environ.items() if not k.startswith("CHORUS__LLM__")}
    if with_model:
        env.update(MODEL_ENV)
    env["CHORUS_LOG"] = "warn,chorus_core::roles::planner=info,chorus_llm=info"
    args = [BIN, "ask", "--local", "--json", "--timeout", "400"]
    if now: args += ["--now", now]
    if tz: args += ["--timezone", tz]
    started = time.monotonic()
    p = subprocess.run(args + ["--", query], env=env, capture_output=True, text=True,
                       stdin=subprocess.DEVNULL, timeout=600)
    took = time.monotonic() - started
    logs = ANSI.sub("", p.stderr)
    path = "heuristic"
    for line in logs.splitlines():
        if "roles::planner" in line:
            found = re.findall(r"\bpath=([a-z][a-z_:0-9]*)", line)
            path = found[-1] if found else path
    try:
        out = json.loads(p.stdout)
    except ValueError:
        out = {"status": "no_answer", "text": p.stdout[-200:] + logs[-300:]}
    return out, path, took


def outcome(out):
    """(kind, shown): kind is values, refused, asked, help or failed."""
    if "question" in out:
        return "asked", "asks: " + out["question"]
    status = out.get("status")
    values = []
    for s in out.get("steps", []):
        if not s.get("output"):
            continue
        o = s.get("outcome") or {}
        if o.get("status") == "ok":
            v = o.get("value")
            values.append(v if isinstance(v, str) else json.dumps(v))
        elif o.get("status") == "failed":
            values.append("failed: " + str(o.get("error", "")))
        else:
            values.append("unfinished")
    if status == "unplannable":
        return "refused", "refused"
    if status == "completed" and not out.get("steps"):
        return "help", "help"
    if not values:
        return "failed", status or "no answer"
    return "values", " | ".join(values)


def judge(expected, kind, shown):
    """right, wrong, refused or asked."""
    if kind == "asked":
        return "right" if expected.startswith("asks:") else "asked"
    if expected.startswith("refused:"):
        return "right" if kind == "refused" else "wrong"
    if expected == "help":
        return "right" if kind == "help" else "wrong"
    if kind == "refused":
        return "refused"
    want = expected.split(":", 1)[1].strip() if expected.startswith("partial:") else expected
    return "right" if kind == "values" and shown == want else "wrong"


rows = []
for path in sys.argv[1:]:
    for n, query, expected, now, tz, lang in cases(path):
        if LANG_FILTER and lang != LANG_FILTER:
            continue
        if LIMIT and len(rows) >= LIMIT:
            break
        base, _, base_took = ask(query, now, tz, False)
        bkind, bshown = outcome(base)
        # The model is asked only when the heuristic refused or planned a part.
        if ONLY_MODEL and bkind != "refused" and base.get("status") != "partial":
            continue
        out, plan_path, took = ask(query, now, tz, True)
        kind, shown = outcome(out)
        row = dict(at=f"{os.path.basename(path)}:{n}", query=query, expected=expected,
                   without=judge(expected, bkind, bshown), path=plan_path, answer=shown,
                   verdict=judge(expected, kind, shown),
                   model_s=(took - base_took) if plan_path != "heuristic" else None)
        rows.append(row)
        print(f"{row['at']:<16} {plan_path:<26} {row['verdict']:<7} (without: {row['without']:<7}) "
              f"{query[:60]!r} => {shown[:70]!r} (expected {expected[:40]!r})"
              + (f" [{row['model_s']:.1f}s]" if row["model_s"] is not None else ""), flush=True)

def totals(key):
    return {v: sum(1 for r in rows if r[key] == v) for v in ("right", "wrong", "refused", "asked")}

print()
print(f"asked: {len(rows)} requests")
for label, key in (("without the model", "without"), ("with the model", "verdict")):
    t = totals(key)
    print(f"{label:<18} right {t['right']}, wrong {t['wrong']}, refused {t['refused']}, asked {t['asked']}")
paths = {}
for r in rows:
    p = r["path"] if not r["path"].startswith("llm_failed") else r["path"]
    paths[p] = paths.get(p, 0) + 1
print("paths: " + ", ".join(f"{k} {v}" for k, v in sorted(paths.items())))
model = [r for r in rows if r["path"] == "llm"]
t = {v: sum(1 for r in model if r["verdict"] == v) for v in ("right", "wrong")}
print(f"model plans used: {len(model)} (right {t['right']}, wrong {t['wrong']})")
lat = sorted(r["model_s"] for r in rows if r["model_s"] is not None)
if lat:
    p90 = lat[min(len(lat) - 1, int(0.9 * len(lat)))]
    print(f"model latency: p50 {statistics.median(lat):.1f} s, p90 {p90:.1f} s over {len(lat)} model calls")
else:
    print("model latency: no model call")
PY
