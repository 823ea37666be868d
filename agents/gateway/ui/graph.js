// Chorus live view: a task's plan drawn as a graph in SVG — one node per step, an edge
// for each reference between steps and from each shown step to the report; each node's
// state (waiting, running, done, failed) comes from the task's messages.

import { $, cut, el, fmtMs, sv } from "/ui/common.js";

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

export function renderGraph(v) {
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
  // The report is done when it says completed; any other status (partial, failed,
  // deadline exceeded…) is drawn as a failure.
  const reportState = !report ? "waiting" : report.status === "completed" ? "done" : "failed";
  node(svg, pos.get("⟨report⟩"), "report", reportState, "report",
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

