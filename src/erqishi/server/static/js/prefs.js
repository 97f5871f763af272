// The page's own settings (the ⚙ panel in the header), kept in this browser
// (localStorage): sound on or off (off by default) and how a tap on a card discards it.
//
// data-testid: settings-toggle (opens the panel), settings-panel, sound-toggle (a
// checkbox: on = sounds), tap-mode (a select: "once" | "raise").
import { h, store } from "./dom.js";
import { t } from "./i18n.js";

const SOUND_KEY = "erqishi.sound";
const TAP_KEY = "erqishi.tap";
const listeners = new Set();

/** A touch screen: one tap there must never discard by accident. */
export function isTouch() {
  try {
    return window.matchMedia("(pointer: coarse)").matches || navigator.maxTouchPoints > 0;
  } catch {
    return false;
  }
}

/** Sounds on? Off unless the player turned them on. */
export function soundOn() {
  return store.get(SOUND_KEY) === "on";
}

/** "once": a tap (click) on a card discards it; "raise": the first tap raises the card,
 * a second tap on it discards it. By default "raise" on a touch screen, else "once". */
export function tapMode() {
  const kept = store.get(TAP_KEY);
  if (kept === "once" || kept === "raise") return kept;
  return isTouch() ? "raise" : "once";
}

export function setSound(on) {
  store.set(SOUND_KEY, on ? "on" : "off");
  changed();
}

export function setTapMode(mode) {
  store.set(TAP_KEY, mode === "raise" ? "raise" : "once");
  changed();
}

/** Call f() after any setting changes. */
export function onPrefs(f) {
  listeners.add(f);
}

function changed() {
  for (const f of listeners) f();
}

/** The ⚙ button and its panel, for the header. onSound(on) runs on the click that turns
 * sound on (a user gesture: audio may start then). */
export function prefsControl({ onSound } = {}) {
  let open = false;
  const panel = h("div", { class: "prefs-panel", id: "settings-panel", testid: "settings-panel", hidden: true, role: "dialog" });
  const button = h("button", {
    type: "button",
    class: "btn small prefs-toggle",
    id: "settings-toggle",
    testid: "settings-toggle",
    "aria-expanded": "false",
    "aria-controls": "settings-panel",
    onclick: () => {
      open = !open;
      paint();
    },
  });
  function paint() {
    button.textContent = "⚙";
    button.title = t("prefs_title");
    button.setAttribute("aria-label", t("prefs_title"));
    button.setAttribute("aria-expanded", open ? "true" : "false");
    panel.hidden = !open;
    const sound = h("input", { type: "checkbox", id: "sound-toggle", testid: "sound-toggle", checked: soundOn() });
    sound.addEventListener("change", () => {
      setSound(sound.checked);
      if (sound.checked && onSound) onSound(true);
    });
    const mode = tapMode();
    const tap = h(
      "select",
      { id: "tap-mode", testid: "tap-mode", "aria-label": t("prefs_tap") },
      h("option", { value: "raise", selected: mode === "raise" }, t("prefs_tap_raise")),
      h("option", { value: "once", selected: mode === "once" }, t("prefs_tap_once")),
    );
    tap.addEventListener("change", () => setTapMode(tap.value));
    panel.replaceChildren(
      h("strong", {}, t("prefs_title")),
      h("label", { class: "check prefs-line" }, sound, h("span", {}, t("prefs_sound"))),
      h("label", { class: "prefs-line prefs-tap" }, h("span", {}, t("prefs_tap")), tap),
      h("p", { class: "muted small" }, t("prefs_note")),
      h("button", { type: "button", class: "btn small", testid: "settings-close", onclick: () => { open = false; paint(); } }, t("prefs_close")),
    );
  }
  paint();
  return { button, panel, paint };
}
