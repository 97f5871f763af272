// The client's entry: the header (language toggle, connection indicator) and routing by
// location.pathname: / (lobby), /r/CODE (room and table), /history, /replay/ID, /t (争霸赛
// tournaments), /t/new, /t/ID.
import { h, replace } from "./dom.js";
import { t, getLang, setLang, onLang } from "./i18n.js";
import { lobbyPage } from "./lobby.js";
import { roomPage } from "./room.js";
import { historyPage } from "./history.js";
import { replayPage } from "./replay.js";
import { loadNarration } from "./narrate.js";
import { learnPage } from "./learn.js";
import { rulesPage } from "./rules.js";
import { scorePage } from "./score.js";
import { tournamentsPage, newTournamentPage, tournamentPage } from "./tournament.js";
import { loadPresets } from "./lobby.js";
import { errorPage, pageError } from "./errors.js";
import { prefsControl, onPrefs } from "./prefs.js";
import { playSound } from "./sound.js";

const main = document.getElementById("app");
let page = null; // {render(), destroy()} of the current page
// what the server said went wrong with the page it sent (404, no such room, 500), for that path
const served = pageError();

/** Go to an in-app path without reloading the page. */
export function navigate(path) {
  if (path !== window.location.pathname) window.history.pushState({}, "", path);
  route();
}

function route() {
  if (page && page.destroy) page.destroy();
  page = null;
  setConn("idle");
  const path = window.location.pathname;
  let m;
  if (served && path === served.path) page = errorPage(main, served, { navigate });
  else if ((m = /^\/r\/([^/]+)\/?$/.exec(path))) page = roomPage(main, decodeURIComponent(m[1]), { navigate, setConn });
  else if (/^\/history\/?$/.test(path)) page = historyPage(main, { navigate });
  else if ((m = /^\/replay\/([^/]+)\/?$/.exec(path))) page = replayPage(main, decodeURIComponent(m[1]), { navigate });
  else if ((m = /^\/learn(?:\/([^/]+))?\/?$/.exec(path))) page = learnPage(main, m[1] ? decodeURIComponent(m[1]) : null, { navigate });
  else if (/^\/rules\/?$/.test(path)) page = rulesPage(main, { navigate });
  else if (/^\/score\/?$/.test(path)) page = scorePage(main, { navigate });
  else if (/^\/t\/?$/.test(path)) page = tournamentsPage(main, { navigate });
  else if (/^\/t\/new\/?$/.test(path)) page = newTournamentPage(main, { navigate });
  else if ((m = /^\/t\/([1-9][0-9]*)\/?$/.exec(path))) page = tournamentPage(main, m[1], { navigate });
  else if (path === "/" || path === "") page = lobbyPage(main, { navigate });
  else page = errorPage(main, { status: 404, kind: "not_found" }, { navigate });
  window.scrollTo(0, 0);
}

let connStatus = "idle";
function setConn(status) {
  connStatus = status;
  const el = document.getElementById("conn-status");
  if (!el) return;
  el.dataset.status = status;
  el.textContent = status === "idle" ? "" : t(`conn_${status}`);
  el.hidden = status === "idle";
}

function header() {
  const toggle = h("button", {
    id: "lang-toggle",
    testid: "lang-toggle",
    type: "button",
    class: "btn small",
    onclick: () => setLang(getLang() === "en" ? "zh" : "en"),
  });
  const home = h("a", { href: "/", id: "home-link", testid: "home-link", class: "brand" });
  const hist = h("a", { href: "/history", id: "history-nav", testid: "history-nav", class: "nav" });
  const learn = h("a", { href: "/learn", id: "learn-nav", testid: "learn-nav", class: "nav" });
  const rules = h("a", { href: "/rules", id: "rules-nav", testid: "rules-nav", class: "nav" });
  const score = h("a", { href: "/score", id: "score-nav", testid: "score-nav", class: "nav" });
  const contests = h("a", { href: "/t", id: "tournaments-nav", testid: "tournaments-nav", class: "nav" });
  for (const a of [home, hist, learn, rules, score, contests]) {
    a.addEventListener("click", (e) => {
      if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
      e.preventDefault();
      navigate(a.getAttribute("href"));
    });
  }
  const conn = h("span", { id: "conn-status", testid: "conn-status", class: "conn", role: "status" });
  // the page's settings (sound, how a tap discards), kept in this browser
  const prefs = prefsControl({ onSound: () => playSound("on") });
  const bar = h("header", { class: "topbar" }, home, h("nav", { class: "navs" }, learn, rules, score, contests, hist), h("span", { class: "spacer" }), conn, prefs.button, toggle, prefs.panel);
  const paint = () => {
    home.textContent = t("brand");
    hist.textContent = t("history");
    learn.textContent = t("nav_learn_short");
    rules.textContent = t("nav_rules");
    score.textContent = t("nav_score");
    contests.textContent = t("nav_tournaments");
    toggle.textContent = t("lang_toggle");
    toggle.title = t("lang_toggle_title");
    document.documentElement.lang = getLang() === "en" ? "en" : "zh-CN";
    document.title = t("title");
    setConn(connStatus);
  };
  paint();
  onLang(() => {
    paint();
    prefs.paint();
    if (page && page.render) page.render();
  });
  onPrefs(() => {
    if (page && page.render) page.render();
  });
  return bar;
}

document.body.prepend(header());
if (!document.getElementById("toasts")) document.body.append(h("div", { id: "toasts", "aria-live": "polite" }));
window.addEventListener("popstate", route);
try {
  // the one narration's sentences and the rule presets come from the server first
  await Promise.all([loadNarration(), loadPresets()]);
  route();
} catch (err) {
  replace(main, h("p", { class: "error" }, String(err && err.message ? err.message : err)));
}
