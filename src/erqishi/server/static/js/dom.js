// Small DOM helpers. Text always goes in through text nodes (never innerHTML), so
// names and other strings from the server cannot inject markup.

/** Create an element: h("button", {class: "x", testid: "start", onclick: f}, "text", child…). */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = String(value);
    else if (key === "testid") el.dataset.testid = value;
    else if (key === "dataset") {
      for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) el.dataset[k] = String(v);
    } else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "value") el.value = String(value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

/** Append children (nodes, strings, numbers, nested arrays; null and false are skipped). */
export function append(el, children) {
  for (const child of [children].flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** Replace every child of el. */
export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

/** localStorage that never throws (private windows, disabled storage). */
export const store = {
  get(key) {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key, value) {
    try {
      if (value === null || value === undefined) window.localStorage.removeItem(key);
      else window.localStorage.setItem(key, String(value));
    } catch {
      /* storage unavailable: keep going without it */
    }
  },
};

/** A short message in the corner that fades by itself. */
export function toast(message, kind = "error") {
  let box = document.getElementById("toasts");
  if (!box) {
    box = h("div", { id: "toasts", "aria-live": "polite" });
    document.body.append(box);
  }
  const item = h("div", { class: `toast ${kind}`, testid: "toast", role: "status" }, message);
  box.append(item);
  while (box.children.length > 4) box.firstElementChild.remove();
  setTimeout(() => item.classList.add("fade"), 3500);
  setTimeout(() => item.remove(), 4200);
}

/** Fetch JSON; throws Error(message) with the server's message on a non-2xx answer. */
export async function getJSON(url, options) {
  const response = await fetch(url, options);
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const message = body && typeof body.message === "string" ? body.message : `HTTP ${response.status}`;
    const error = new Error(message);
    error.status = response.status;
    if (body && typeof body.message_zh === "string") error.zh = body.message_zh; // i18n.js errText
    throw error;
  }
  return body || {};
}

/** An integer with its sign, e.g. +20, -60, 0. */
export function signed(n) {
  const v = Number(n) || 0;
  return v > 0 ? `+${v}` : String(v);
}

/** Safe array access: the value if it is an array, else []. */
export function arr(x) {
  return Array.isArray(x) ? x : [];
}
