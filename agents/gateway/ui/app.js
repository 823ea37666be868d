// Chorus live view. Plain JavaScript, no build step: everything it shows comes from the
// Chief's API (GET /tasks, /tasks/{id}/hops, /agents, /dead-letters, the SSE feed
// GET /events read with fetch() so the bearer token can be sent). docs/ui.md.
"use strict";

const TOKEN_KEY = "chorus.token";
const MAX_BUFFERED_TASKS = 200;
const $ = (id) => document.getElementById(id);

// ---- DOM helpers (text only: nothing from the API is parsed as HTML) ----------------
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}
const SVG = "http://www.w3.org/2000/svg";
function sv(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const cut = (s, n) => (s.length > n ? s.slice(0, n - 1) + "…" : s);
function fmtMs(x) {
  if (x === null || x === undefined) return "";
  if (x < 1) return x.toFixed(2) + " ms";
  if (x < 100) return x.toFixed(1) + " ms";
  if (x < 1000) return Math.round(x) + " ms";
  return (x / 1000).toFixed(2) + " s";
}
const nowUs = () => Date.now() * 1000;
function clock(us) {
  const d = new Date(Math.floor(us / 1000));
  return d.toISOString().slice(11, 23);
}
function firstLine(text) {
  for (const line of String(text || "").split("\n")) {
    const plain = line.replace(/^[#\-*> ]+/, "").replaceAll("**", "").trim();
    if (plain && !line.trim().startsWith("#") && !/^\*\*[^*]+:\*\*/.test(line.trim())) return plain;
  }
  return String(text || "").trim();
}
function show(node, on) { node.hidden = !on; }

// ---- the API, with the bearer token when the Chief asks for one ---------------------
let tokenPrompt = null;
const token = () => sessionStorage.getItem(TOKEN_KEY) || "";

function askToken(refused) {
  if (tokenPrompt) return tokenPrompt;
  tokenPrompt = new Promise((resolve) => {
    const dialog = $("token-dialog"), input = $("token-input"), form = $("token-form");
    $("token-error").textContent = refused ? "That token was refused; try another." : "";
    show($("token-error"), refused);
    show(dialog, true);
    input.value = "";
    input.focus();
    form.onsubmit = (ev) => {
      ev.preventDefault();
      const value = input.value.trim();
      if (!value) return;
      sessionStorage.setItem(TOKEN_KEY, value);
      show(dialog, false);
      form.onsubmit = null;
      tokenPrompt = null;
      resolve();
    };
  });
  return tokenPrompt;
}

async function api(path, options = {}) {
  for (;;) {
    const headers = Object.assign({}, options.headers || {});
    const sent = token();
    if (sent) headers.Authorization = "Bearer " + sent;
    const res = await fetch(path, Object.assign({}, options, { headers }));
    if (res.status !== 401) return res;
    await askToken(sent !== "" && sent === token());
  }
}

async function getJson(path, options) {
  const res = await api(path, options);
  const body = await res.json().catch(() => null);
  if (!res.ok) {
    const e = new Error((body && body.error && body.error.message) || "HTTP " + res.status);
    e.status = res.status;
    throw e;
  }
  return body;
}

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

// ---- the plan as a graph -------------------------------------------------------------
const NODE_W = 210, NODE_H = 62, GAP_X = 64, GAP_Y = 16, PAD = 12;

function refsOf(step) {
  const refs = [];
  for (const [name, arg] of Object.entries(step.arguments || {})) {
    if (arg && typeof arg === "object" && typeof arg.$ref === "string") refs.push({ name, from: arg.$ref });
  }
  return refs;
}

function argText(step) {
  return Object.entries(step.arguments || {}).map(([k, a]) =>
    k + "=" + (a && typeof a === "object" && a.$ref ? "⟨" + a.$ref + "⟩" : typeof a === "string" ? a : JSON.stringify(a))).join(" ");
}

function stepState(v, id) {
  const r = v.results.get(id);
  if (r) {
    const o = r.payload.outcome || {};
    const took = "+" + fmtMs((r.sent_us - v.first) / 1000);
    if (o.status === "ok") {
      const scalar = typeof o.value === "string" || typeof o.value === "number";
      const value = scalar && String(o.value).length <= 24 ? String(o.value) : o.text || JSON.stringify(o.value);
      return { state: "done", line: "= " + value, took };
    }
    return { state: "failed", line: "failed: " + (o.error || ""), took };
  }
  if (v.dispatched.has(id)) return { state: "running", line: "running…", took: "" };
  return { state: v.report ? "failed" : "waiting", line: v.report ? "not run" : "waiting", took: "" };
}

function renderGraph(v) {
  const box = $("graph");
  if (!v.plan || !v.plan.plan || !v.plan.plan.steps.length) {
    const why = v.plan ? v.plan.unplanned || (v.plan.reply ? "Answered without steps." : "No steps.") : "Waiting for the plan…";
    box.replaceChildren(el("p", { class: "empty", text: why }));
    $("plan-meta").textContent = "";
    return;
  }
  const steps = v.plan.plan.steps;
  const byId = new Map(steps.map((s) => [s.id, s]));
  // Each step as late as its consumers allow (so every edge spans one column), the
  // report last; within a column, steps in the order of what they read.
  const users = new Map(steps.map((s) => [s.id, []]));
  for (const s of steps) for (const r of refsOf(s)) if (users.has(r.from)) users.get(r.from).push(s.id);
  const depth = new Map();
  const depthOf = (id, guard) => {
    if (depth.has(id)) return depth.get(id);
    const next = guard < steps.length ? users.get(id) : [];
    const d = next.length ? 1 + Math.max(...next.map((u) => depthOf(u, guard + 1))) : 0;
    depth.set(id, d);
    return d;
  };
  steps.forEach((s) => depthOf(s.id, 0));
  const last = Math.max(...depth.values()) + 1;
  const level = new Map(steps.map((s) => [s.id, last - 1 - depth.get(s.id)]));
  const columns = Array.from({ length: last + 1 }, () => []);
  for (const s of steps) columns[level.get(s.id)].push(s.id);
  const rank = new Map();
  columns.forEach((col) => {
    const key = (id) => {
      const deps = refsOf(byId.get(id)).map((r) => rank.get(r.from)).filter((x) => x !== undefined);
      return deps.length ? deps.reduce((a, b) => a + b, 0) / deps.length : -1;
    };
    col.sort((a, b) => key(a) - key(b));
    col.forEach((id, i) => rank.set(id, i));
  });
  columns[last] = ["⟨report⟩"];
  const tallest = Math.max(...columns.map((c) => (c ? c.length : 0)));
  const height = PAD * 2 + tallest * NODE_H + (tallest - 1) * GAP_Y;
  const width = PAD * 2 + (last + 1) * NODE_W + last * GAP_X;
  const pos = new Map();
  columns.forEach((col, x) => (col || []).forEach((id, i) => {
    const top = (height - (col.length * NODE_H + (col.length - 1) * GAP_Y)) / 2;
    pos.set(id, { x: PAD + x * (NODE_W + GAP_X), y: top + i * (NODE_H + GAP_Y) });
  }));
  const svg = sv("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": "plan graph" });
  const defs = sv("defs");
  const marker = sv("marker", { id: "arrow", viewBox: "0 0 10 10", refX: "9", refY: "5", markerWidth: "7", markerHeight: "7", orient: "auto-start-reverse" });
  marker.append(sv("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "#9aa6b6" }));
  defs.append(marker);
  svg.append(defs);
  const edge = (from, to) => {
    const a = pos.get(from), b = pos.get(to);
    const x1 = a.x + NODE_W, y1 = a.y + NODE_H / 2, x2 = b.x - 2, y2 = b.y + NODE_H / 2, mx = (x1 + x2) / 2;
    svg.append(sv("path", { class: "edge", d: `M ${x1} ${y1} C ${mx} ${y1}, ${mx} ${y2}, ${x2} ${y2}`, "marker-end": "url(#arrow)" }));
  };
  for (const s of steps) for (const r of refsOf(s)) if (pos.has(r.from)) edge(r.from, s.id);
  for (const s of steps) if (s.output !== false) edge(s.id, "⟨report⟩");
  let done = 0;
  for (const s of steps) {
    const st = stepState(v, s.id);
    if (st.state === "done") done += 1;
    node(svg, pos.get(s.id), s.id, st.state, s.id + " · " + s.tool, st.took, s.pool + " · " + argText(s), st.line);
  }
  const report = v.report;
  node(svg, pos.get("⟨report⟩"), "report", report ? "done" : "waiting", "report",
    report ? "+" + fmtMs((v.reportMsg.sent_us - v.first) / 1000) : "", report ? "written by " + report.written_by : "", report ? report.status : "waiting");
  box.replaceChildren(svg);
  $("plan-meta").textContent = done + "/" + steps.length + " steps done · planned by " + v.plan.planner;
}

function node(svg, at, id, state, title, took, sub, line) {
  const g = sv("g", { class: "node " + state, "data-step": id, "data-state": state, transform: `translate(${at.x} ${at.y})` });
  g.append(sv("rect", { width: NODE_W, height: NODE_H, rx: 8, ry: 8 }));
  g.append(sv("title", {}, [title, took, sub, line].filter(Boolean).join("\n")));
  g.append(sv("text", { x: 10, y: 19, "font-weight": "600" }, cut(title, took ? 17 : 26)));
  if (took) g.append(sv("text", { x: NODE_W - 10, y: 19, class: "sub", "text-anchor": "end" }, took));
  g.append(sv("text", { x: 10, y: 37, class: "sub" }, cut(sub, 30)));
  g.append(sv("text", { x: 10, y: 54, class: state === "done" ? "val" : "sub" }, cut(line, 24)));
  svg.append(g);
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
