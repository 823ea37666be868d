// Chorus live view: what every part of the page shares — DOM helpers that only ever set
// text (nothing from the API is parsed as HTML), formatting, and the API client that
// sends the bearer token and asks for one when the Chief answers 401.

const TOKEN_KEY = "chorus.token";
export const $ = (id) => document.getElementById(id);

// ---- DOM helpers (text only: nothing from the API is parsed as HTML) ----------------
export function el(tag, attrs, ...children) {
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
export function sv(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const cut = (s, n) => (s.length > n ? s.slice(0, n - 1) + "…" : s);
export function fmtMs(x) {
  if (x === null || x === undefined) return "";
  if (x < 1) return x.toFixed(2) + " ms";
  if (x < 100) return x.toFixed(1) + " ms";
  if (x < 1000) return Math.round(x) + " ms";
  return (x / 1000).toFixed(2) + " s";
}
export const nowUs = () => Date.now() * 1000;
export function clock(us) {
  const d = new Date(Math.floor(us / 1000));
  return d.toISOString().slice(11, 23);
}
export function firstLine(text) {
  for (const line of String(text || "").split("\n")) {
    const plain = line.replace(/^[#\-*> ]+/, "").replaceAll("**", "").trim();
    if (plain && !line.trim().startsWith("#") && !/^\*\*[^*]+:\*\*/.test(line.trim())) return plain;
  }
  return String(text || "").trim();
}
export function show(node, on) { node.hidden = !on; }

// ---- the API, with the bearer token when the Chief asks for one ---------------------
let tokenPrompt = null;
const token = () => sessionStorage.getItem(TOKEN_KEY) || "";

export function askToken(refused) {
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

export async function api(path, options = {}) {
  for (;;) {
    const headers = Object.assign({}, options.headers || {});
    const sent = token();
    if (sent) headers.Authorization = "Bearer " + sent;
    const res = await fetch(path, Object.assign({}, options, { headers }));
    if (res.status !== 401) return res;
    await askToken(sent !== "" && sent === token());
  }
}

export async function getJson(path, options) {
  const res = await api(path, options);
  const body = await res.json().catch(() => null);
  if (!res.ok) {
    const e = new Error((body && body.error && body.error.message) || "HTTP " + res.status);
    e.status = res.status;
    throw e;
  }
  return body;
}

