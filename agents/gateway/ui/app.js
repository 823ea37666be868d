// Chorus live view. Plain JavaScript modules, no build step: everything it shows comes
// from the Chief's API (GET /tasks, /tasks/{id}/hops, /agents, /dead-letters, the SSE
// feed GET /events read with fetch() so the bearer token can be sent). docs/ui.md.

import { $, api, askToken, clock, el, firstLine, fmtMs, getJson, nowUs, show, sleep } from "/ui/common.js";
import { renderGraph } from "/ui/graph.js";

const MAX_BUFFERED_TASKS = 200;

// ---- state ---------------------------------------------------------------------------
const tasks = new Map(); // task id → TaskSummary
const buffered = new Map(); // task id → messages seen on the feed
let selected = null; // { id, messages: Map(key → message) }

const msgKey = (m) => m.topic + "|" + m.sent_us + "|" + m.summary;

function remember(m) {
  let list = buffered.get(m.task_id);
  if (!list) {
    list = [];
    buffered.set(m.task_id, list);
    if (buffered.size > MAX_BUFFERED_TASKS) buffered.delete(buffered.keys().next().value);
  }
  list.push(m);
}

// ---- tasks list ----------------------------------------------------------------------
function applyToList(m) {
  const p = m.payload || {};
  let t = tasks.get(m.task_id);
  if (m.topic === "task_available") {
    if (!t) {
      t = { task_id: m.task_id, query: p.query || "", state: "pending", submitted_us: m.sent_us };
      tasks.set(m.task_id, t);
    }
    return;
  }
  if (!t) return;
  if (m.topic === "clarification_needed" && t.state !== "done") {
    t.state = "input_required";
    t.summary = p.question;
  } else if (m.topic === "clarification_answer" && t.state === "input_required") {
    t.state = "pending";
  } else if (m.topic === "final_report") {
    t.state = "done";
    t.status = p.status;
    t.finished_us = m.sent_us;
    t.latency_ms = Math.max(0, m.sent_us - t.submitted_us) / 1000;
    t.summary = firstLine(p.text);
  }
}

function renderTasks() {
  const body = $("tasks").tBodies[0];
  const rows = [...tasks.values()].sort((a, b) => b.submitted_us - a.submitted_us).slice(0, 100);
  body.replaceChildren(...rows.map((t) => {
    const state = t.state === "done" ? t.status || "done" : t.state;
    const latency = t.state === "done"
      ? fmtMs(t.latency_ms)
      : t.state === "input_required" ? "waiting" : fmtMs(Math.max(0, nowUs() - t.submitted_us) / 1000) + "…";
    const tr = el("tr", { "data-task": t.task_id, "data-state": t.state, class: selected && selected.id === t.task_id ? "selected" : "" },
      el("td", { class: "mono", text: clock(t.submitted_us).slice(0, 8) }),
      el("td", { class: "clip", text: t.query, title: t.query }),
      el("td", {}, el("span", { class: "badge " + state, text: state.replace("_", " ") })),
      el("td", { class: "num", text: latency }));
    tr.onclick = () => select(t.task_id);
    return tr;
  }));
  $("tasks-count").textContent = tasks.size ? String(tasks.size) : "";
  show($("tasks-empty"), tasks.size === 0);
}

async function loadTasks() {
  const list = await getJson("/tasks?limit=100");
  for (const t of list.tasks) tasks.set(t.task_id, t);
  renderTasks();
}

// ---- agents and dead letters ---------------------------------------------------------
async function loadAgents() {
  const list = await getJson("/agents");
  $("agents").tBodies[0].replaceChildren(...list.agents.map((a) => el("tr", { "data-role": a.role, "data-pool": a.pool || "" },
    el("td", { text: a.role }),
    el("td", { text: a.pool || "—" }),
    el("td", { class: "mono", text: a.instance.slice(-4), title: a.instance }),
    el("td", { class: "tools wrap", text: a.tools.join(", ") || "—" }),
    el("td", { class: "num", text: (a.age_ms / 1000).toFixed(1) + " s ago" }))));
  $("agents-count").textContent = String(list.agents.length);
}

async function loadDead() {
  const list = await getJson("/dead-letters?limit=50");
  $("dead").tBodies[0].replaceChildren(...list.dead_letters.map((d) => el("tr", {},
    el("td", { class: "mono", text: d.time }),
    el("td", { text: d.topic }),
    el("td", { text: d.role }),
    el("td", { class: "num", text: String(d.deliveries) }),
    el("td", { class: "wrap", text: d.reason, title: d.original }))));
  $("dead-count").textContent = list.dead_letters.length ? String(list.dead_letters.length) : "";
  show($("dead-empty"), list.dead_letters.length === 0);
  show($("dead"), list.dead_letters.length > 0);
}

// ---- one task ------------------------------------------------------------------------
async function select(id) {
  selected = { id, messages: new Map() };
  for (const m of buffered.get(id) || []) selected.messages.set(msgKey(m), m);
  renderTasks();
  renderTask();
  await refreshHops(id);
}

async function refreshHops(id) {
  try {
    const hops = await getJson("/tasks/" + encodeURIComponent(id) + "/hops");
    if (!selected || selected.id !== id) return;
    for (const m of hops.hops) selected.messages.set(msgKey(m), m);
    renderTask();
  } catch (e) {
    if (e.status !== 404) throw e;
  }
}

function sortedMessages() {
  return [...selected.messages.values()].sort((a, b) => a.sent_us - b.sent_us);
}

// What the messages say about the task: plan, steps, question, report.
function taskView(msgs) {
  const v = { query: "", plan: null, planMsg: null, dispatched: new Map(), results: new Map(),
    question: null, report: null, reportMsg: null, first: msgs.length ? msgs[0].sent_us : 0 };
  for (const m of msgs) {
    const p = m.payload || {};
    if (m.topic === "task_available" && !v.query) v.query = p.query || "";
    else if (m.topic === "plan_ready") { v.plan = p; v.planMsg = m; v.dispatched.clear(); v.results.clear(); }
    else if (m.topic.endsWith("_task") && p.step_id) v.dispatched.set(p.step_id, m);
    else if (m.topic.endsWith("_result") && p.step_id) v.results.set(p.step_id, m);
    else if (m.topic === "clarification_needed") v.question = p;
    else if (m.topic === "clarification_answer") v.question = null;
    else if (m.topic === "final_report") { v.report = p; v.reportMsg = m; v.question = null; }
  }
  return v;
}

function renderTask() {
  show($("task-none"), !selected);
  show($("task-body"), !!selected);
  if (!selected) return;
  const msgs = sortedMessages();
  const v = taskView(msgs);
  const summary = tasks.get(selected.id) || {};
  $("task-query").textContent = v.query || summary.query || "";
  $("task-id").textContent = selected.id;
  const state = v.report ? v.report.status : v.question ? "input_required" : summary.state === "done" ? summary.status : "pending";
  $("task-state").className = "badge " + state;
  $("task-state").textContent = String(state).replace("_", " ");
  $("task").dataset.state = state;
  renderQuestion(v.question);
  renderGraph(v);
  renderReport(v);
  renderHops(msgs);
}

function renderQuestion(q) {
  const form = $("answer");
  const asked = q ? q.number + "|" + q.question : "";
  show(form, !!q);
  if (!q || form.dataset.asked === asked) return;
  form.dataset.asked = asked;
  $("answer-question").textContent = q.question;
  $("answer-text").value = "";
  show($("answer-error"), false);
  $("answer-options").replaceChildren(...(q.options || []).map((o, i) => {
    const b = el("button", { type: "button", class: "option", text: (i + 1) + ") " + o.label });
    b.onclick = () => sendAnswer(String(i + 1));
    return b;
  }));
}

function renderReport(v) {
  const pre = $("report");
  if (!v.report) {
    pre.className = "report empty";
    pre.textContent = v.plan && v.plan.reply ? v.plan.reply : "No report yet.";
    $("report-meta").textContent = "";
    return;
  }
  pre.className = "report";
  pre.textContent = v.report.text;
  const took = (v.reportMsg.sent_us - v.first) / 1000;
  $("report-meta").textContent = v.report.status + " · " + fmtMs(took) + " · written by " + v.report.written_by;
}

function renderHops(msgs) {
  const first = msgs.length ? msgs[0].sent_us : 0;
  let prev = first;
  $("hops").tBodies[0].replaceChildren(...msgs.map((m) => {
    const tr = el("tr", { "data-topic": m.topic },
      el("td", { text: m.time }),
      el("td", { class: "num", text: ((m.sent_us - prev) / 1000).toFixed(3) }),
      el("td", { class: "num", text: ((m.sent_us - first) / 1000).toFixed(3) }),
      el("td", { text: m.topic }),
      el("td", { class: "route", text: m.from + " → " + m.to }),
      el("td", { class: "wrap", text: m.summary }));
    prev = m.sent_us;
    return tr;
  }));
  const span = msgs.length ? (msgs[msgs.length - 1].sent_us - first) / 1000 : 0;
  $("hops-meta").textContent = msgs.length + " messages over " + span.toFixed(3) + " ms";
}

// ---- sending a request and an answer -------------------------------------------------
async function sendRequest(ev) {
  ev.preventDefault();
  const query = $("ask-query").value.trim();
  if (!query) return;
  $("ask-send").disabled = true;
  show($("ask-error"), false);
  try {
    const accepted = await getJson("/tasks", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query }) });
    $("ask-query").value = "";
    if (!tasks.has(accepted.task_id)) tasks.set(accepted.task_id, { task_id: accepted.task_id, query, state: "pending", submitted_us: nowUs() });
    await select(accepted.task_id);
  } catch (e) {
    $("ask-error").textContent = e.message;
    show($("ask-error"), true);
  } finally {
    $("ask-send").disabled = false;
  }
}

async function sendAnswer(answer) {
  if (!selected || !answer) return;
  $("answer-send").disabled = true;
  show($("answer-error"), false);
  try {
    await getJson("/tasks/" + encodeURIComponent(selected.id) + "/answer", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ answer }) });
    $("answer-text").value = "";
  } catch (e) {
    $("answer-error").textContent = e.message;
    show($("answer-error"), true);
  } finally {
    $("answer-send").disabled = false;
  }
}

// ---- the live feed -------------------------------------------------------------------
function setFeed(state, text) {
  $("feed").dataset.state = state;
  $("feed").textContent = text;
}

function onEvent(name, data) {
  if (name === "lagged") { reloadAll(); return; }
  if (name !== "message") return;
  const m = JSON.parse(data);
  remember(m);
  applyToList(m);
  scheduleRender();
  if (m.topic === "dead_letter") loadDead().catch(warn);
  if (selected && m.task_id === selected.id) {
    selected.messages.set(msgKey(m), m);
    scheduleTask();
  }
}

let renderQueued = false, taskQueued = false;
function scheduleRender() {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => { renderQueued = false; renderTasks(); });
}
function scheduleTask() {
  if (taskQueued) return;
  taskQueued = true;
  requestAnimationFrame(() => { taskQueued = false; renderTask(); });
}

async function follow() {
  for (;;) {
    try {
      setFeed("connecting", "connecting…");
      const res = await api("/events", { headers: { accept: "text/event-stream" } });
      if (!res.ok || !res.body) throw new Error("feed: HTTP " + res.status);
      setFeed("live", "live");
      await reloadAll();
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value.replaceAll("\r\n", "\n");
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let name = "message", data = "";
          for (const line of block.split("\n")) {
            if (line.startsWith("event:")) name = line.slice(6).trim();
            else if (line.startsWith("data:")) data += line.slice(5).trimStart();
          }
          if (data) onEvent(name, data);
        }
      }
    } catch (e) {
      console.warn("live feed:", e.message);
    }
    setFeed("down", "reconnecting…");
    await sleep(2000);
  }
}

function warn(e) { console.warn(e && e.message ? e.message : e); }

async function reloadAll() {
  await Promise.all([loadTasks(), loadAgents(), loadDead()]).catch(warn);
  if (selected) await refreshHops(selected.id).catch(warn);
}

function start() {
  $("ask").addEventListener("submit", sendRequest);
  $("answer").addEventListener("submit", (ev) => { ev.preventDefault(); sendAnswer($("answer-text").value.trim()); });
  $("token-change").addEventListener("click", () => askToken(false).then(reloadAll));
  setInterval(() => { loadAgents().catch(warn); scheduleRender(); }, 3000);
  follow();
}

start();
