// 争霸赛 tournaments (docs/tournament.md, "In the web game"):
//   /t          the tournaments (GET /api/tournaments) and a link to make one
//   /t/new      the organiser's form (POST /api/tournaments)
//   /t/ID       one tournament (GET /api/tournaments/ID, refreshed every few seconds):
//               registration by name (POST …/register), the organiser's "start round"
//               (POST …/start), each round's tables, your own table's button, the live
//               standings with their tie-breaks, the champion.
//
// Tokens stay in this browser (localStorage): the organiser token under
// erqishi.tournament.ID.organiser (an organiser link /t/ID#organiser=TOKEN brings it to
// another browser), the player token and entrant under erqishi.tournament.ID.player. "Go
// to my table" gives the table's room the player token as its seat token
// (erqishi.token.CODE, net.js), which the room's reserved seat admits.
//
// data-testid: t-list, t-item, t-new (link), t-form, t-name, t-preset, t-rounds, t-quan,
// t-start, t-leitai, t-bots, t-wait, t-create; t-page (data-status), t-title, t-status,
// t-rules, t-share-link, t-organiser-link, t-start-round, t-reg-name, t-register, t-you,
// t-entrants, t-entrant, t-go-table (data-code), t-round (data-round), t-table (data-code,
// data-status), t-standings, t-standing (data-entrant, data-place, data-total), t-champion.
import { h, replace, getJSON, toast, store, arr, signed } from "./dom.js";
import { getLang, errText } from "./i18n.js";
import { tokenKey } from "./net.js";
import { presetName, roomRules, botLevelName } from "./lobby.js";
import { seatLabel } from "./names.js";

const REFRESH_MS = 3000;
const WAITS = [0, 30, 60, 120, 300];

// The words of these pages, Chinese and English (game terms keep their Chinese with a gloss).
const TEXT = {
  tournaments: ["争霸赛", "Tournaments (争霸赛)"],
  new_tournament: ["举办争霸赛", "New tournament"],
  none_yet: ["还没有争霸赛。", "No tournament yet."],
  name: ["比赛名称", "Name"],
  preset: ["规则", "Rules"],
  rounds: ["轮数（瑞士制）", "Swiss rounds"],
  quan: ["每轮圈数", "圈 (deal rounds) per match"],
  start: ["开始时间（到时自动开始第 1 轮；可留空）", "Start time (round 1 starts then by itself; optional)"],
  leitai: ["最后加一场擂台决赛（擂主守擂）", "A 擂台 (ring) final at the end: the leader defends the title"],
  bots: ["补位机器人", "Bots for short tables"],
  wait: ["每桌等玩家到齐最多", "Each table waits for its players up to"],
  seconds: ["{n} 秒", "{n} s"],
  no_wait: ["不等", "no wait"],
  create: ["创建", "Create"],
  creating: ["创建中……", "Creating…"],
  status_registering: ["报名中", "registering"],
  status_playing: ["比赛中", "playing"],
  status_between_rounds: ["轮间休息", "between rounds"],
  status_finished: ["已结束", "finished"],
  summary: ["{rounds} 轮 · 每轮 {quan} 圈 · 每桌 {players} 人", "{rounds} rounds · {quan} 圈 (deal rounds) per match · {players} per table"],
  with_leitai: ["另有擂台决赛", "then a 擂台 (ring) final"],
  starts_at: ["开始时间：{when}", "Starts: {when}"],
  players_n: ["{n} 人报名", "{n} registered"],
  share: ["报名链接（发给玩家）", "Registration link (send it to the players)"],
  copy: ["复制", "Copy"],
  copied: ["已复制", "Copied"],
  organiser: ["你是组织者", "You are the organiser"],
  organiser_link: ["组织者链接（在另一台设备上管理；不要外传）", "Organiser link (to manage from another device; keep it to yourself)"],
  start_round: ["开始第 {n} 轮", "Start round {n}"],
  start_final: ["开始擂台决赛", "Start the 擂台 (ring) final"],
  need_players: ["至少要 {n} 人报名才能开始", "At least {n} players must register to start"],
  register: ["报名", "Register"],
  your_name: ["你的名字", "Your name"],
  registered_as: ["你已报名：{name}", "You are registered as {name}"],
  closed: ["报名已截止。", "Registration is closed."],
  entrants: ["参赛者", "Players"],
  go_table: ["去我的牌桌（第 {round} 轮第 {table} 桌）", "Go to my table (round {round}, table {table})"],
  round_n: ["第 {n} 轮", "Round {n}"],
  final_round: ["第 {n} 轮：擂台决赛", "Round {n}: 擂台 (ring) final"],
  table_n: ["第 {n} 桌", "Table {n}"],
  t_waiting: ["等待开桌", "opening"],
  t_lobby: ["等玩家到齐", "waiting for its players"],
  t_playing: ["进行中", "playing"],
  t_between: ["进行中", "playing"],
  t_finished: ["已结束", "finished"],
  hand_n: ["第 {n} 手", "hand {n}"],
  same_deals: ["每轮各桌打同样的牌（复式），成绩可以直接比较。", "Every table of a round plays the same deals (duplicate), so the scores compare across tables."],
  standings: ["积分榜", "Standings"],
  ranking: ["最终排名", "Final ranking"],
  place: ["名次", "Place"],
  player: ["选手", "Player"],
  total: ["总分", "Total"],
  round_col: ["第{n}轮", "R{n}"],
  best: ["最佳一轮", "Best round"],
  h2h: ["相互战绩", "Head-to-head"],
  hu: ["胡数", "Hu (胡)"],
  wins: ["胡牌手数", "Wins"],
  final_col: ["擂台", "Final (擂台)"],
  tiebreaks: ["同分时依次比：最佳一轮、相互战绩、胡数。", "Ties are broken by the best round, then head-to-head, then the hu (胡) of the hands won."],
  champion: ["冠军：{name}", "Champion: {name}"],
  load_failed: ["加载失败：{message}", "Could not load: {message}"],
  missing: ["没有这个争霸赛。", "There is no such tournament."],
  bot: ["机器人", "bot"],
};

function tt(key, params = {}) {
  const entry = TEXT[key];
  if (!entry) return key;
  const text = getLang() === "en" ? entry[1] : entry[0];
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in params && params[k] !== undefined && params[k] !== null ? String(params[k]) : m));
}

let nav = null; // the app's navigate(path)

function link(href, props, ...children) {
  const a = h("a", { href, ...props }, ...children);
  a.addEventListener("click", (e) => {
    if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0 || !nav) return;
    e.preventDefault();
    nav(href);
  });
  return a;
}

function when(iso) {
  if (typeof iso !== "string") return "";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(getLang() === "en" ? "en-GB" : "zh-CN");
}

const organiserKey = (id) => `erqishi.tournament.${id}.organiser`;
const playerKey = (id) => `erqishi.tournament.${id}.player`;

function savedPlayer(id) {
  try {
    const p = JSON.parse(store.get(playerKey(id)) || "null");
    return p && typeof p.token === "string" && Number.isInteger(p.entrant) ? p : null;
  } catch {
    return null;
  }
}

function post(url, body) {
  return getJSON(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ v: 2, ...body }) });
}

function shareField(value, testid) {
  const field = h("input", { type: "text", class: "share", readonly: true, value, testid });
  const copy = h(
    "button",
    {
      type: "button",
      class: "btn small",
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(field.value);
          toast(tt("copied"), "info");
        } catch {
          field.select();
        }
      },
    },
    tt("copy"),
  );
  return h("div", { class: "share-row" }, field, copy);
}

// ---------------------------------------------------------------------- /t

export function tournamentsPage(root, { navigate }) {
  nav = navigate;
  let list = null;
  let failed = null;
  let destroyed = false;
  getJSON("/api/tournaments")
    .then((body) => (list = arr(body.tournaments)))
    .catch((err) => (failed = errText(err)))
    .finally(() => !destroyed && render());

  function render() {
    const items = arr(list).map((s) =>
      h(
        "li",
        { class: "card", testid: "t-item", dataset: { id: s.id } },
        link(`/t/${encodeURIComponent(s.id)}`, {}, h("strong", {}, String(s.name ?? ""))),
        " ",
        h("span", { class: "muted" }, [tt(`status_${s.status}`), tt("players_n", { n: s.players ?? 0 }), s.champion ? tt("champion", { name: s.champion }) : ""].filter(Boolean).join(" · ")),
      ),
    );
    replace(
      root,
      h(
        "section",
        { class: "tournaments" },
        h("h1", {}, tt("tournaments")),
        h("p", {}, link("/t/new", { class: "btn primary", testid: "t-new" }, tt("new_tournament"))),
        failed ? h("p", { class: "error" }, tt("load_failed", { message: failed })) : null,
        list === null && !failed ? h("p", { class: "muted" }, "…") : items.length ? h("ol", { class: "matches", testid: "t-list" }, items) : h("p", { class: "muted", testid: "t-list" }, tt("none_yet")),
      ),
    );
  }
  render();
  return {
    render,
    destroy() {
      destroyed = true;
    },
  };
}

// ---------------------------------------------------------------------- /t/new

export function newTournamentPage(root, { navigate }) {
  nav = navigate;
  let presets = [{ name: "leshan" }];
  let bots = ["heuristic", "learned", "search", "random"];
  let busy = false;
  let destroyed = false;
  const values = { name: "", preset: "leshan", rounds: "3", quan: "1", start: "", leitai: false, bots: "heuristic", wait: "60" };
  getJSON("/api/presets")
    .then((body) => {
      const got = arr(body.presets).filter((p) => p && typeof p.name === "string");
      if (got.length) presets = got;
      const levels = arr(body.bots).filter((b) => typeof b === "string");
      if (levels.length) bots = ["heuristic", "learned", "search", "random"].filter((b) => levels.includes(b));
    })
    .catch(() => null)
    .finally(() => !destroyed && render());

  function field(label, control) {
    return h("label", {}, h("span", {}, label), control);
  }

  async function submit(e) {
    e.preventDefault();
    if (busy) return;
    const body = {
      name: values.name.trim(),
      preset: values.preset,
      rounds: Number(values.rounds),
      match_quan: Number(values.quan),
      leitai: Boolean(values.leitai),
      bots: values.bots,
      wait_seconds: Number(values.wait),
    };
    if (values.start) {
      const d = new Date(values.start); // (the browser's local time) as ISO 8601 in UTC
      if (!Number.isNaN(d.getTime())) body.start = d.toISOString();
    }
    busy = true;
    render();
    try {
      const made = await post("/api/tournaments", body);
      store.set(organiserKey(made.id), made.organiser_token);
      navigate(made.url);
    } catch (err) {
      toast(errText(err));
      busy = false;
      render();
    }
  }

  function render() {
    if (destroyed) return;
    const input = (key, props) => {
      const el = h("input", { ...props, value: values[key] });
      el.addEventListener("input", () => (values[key] = el.value));
      return el;
    };
    const select = (key, options, testid) => {
      const el = h("select", { testid }, options.map(([value, label]) => h("option", { value, selected: String(values[key]) === String(value) }, label)));
      el.addEventListener("change", () => (values[key] = el.value));
      return el;
    };
    const leitai = h("input", { type: "checkbox", testid: "t-leitai", checked: values.leitai });
    leitai.addEventListener("change", () => (values.leitai = leitai.checked));
    const numbers = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => [String(from + i), String(from + i)]);
    const form = h(
      "form",
      { class: "form card", testid: "t-form", onsubmit: submit },
      field(tt("name"), input("name", { type: "text", testid: "t-name", maxlength: 48, required: true, autocomplete: "off" })),
      field(tt("preset"), select("preset", presets.map((p) => [p.name, presetName(p.name)]), "t-preset")),
      h("div", { class: "cols" }, field(tt("rounds"), select("rounds", numbers(1, 10), "t-rounds")), field(tt("quan"), select("quan", numbers(1, 10), "t-quan"))),
      field(tt("start"), input("start", { type: "datetime-local", testid: "t-start" })),
      h("label", { class: "check" }, leitai, " ", tt("leitai")),
      h(
        "div",
        { class: "cols" },
        field(tt("bots"), select("bots", bots.map((b) => [b, botLevelName(b)]), "t-bots")),
        field(tt("wait"), select("wait", WAITS.map((n) => [String(n), n ? tt("seconds", { n }) : tt("no_wait")]), "t-wait")),
      ),
      h("p", { class: "buttons" }, h("button", { type: "submit", class: "btn primary", testid: "t-create", disabled: busy }, busy ? tt("creating") : tt("create"))),
    );
    replace(root, h("section", { class: "tournament-new" }, h("h1", {}, tt("new_tournament")), h("p", { class: "muted" }, tt("same_deals")), form));
  }
  render();
  return {
    render,
    destroy() {
      destroyed = true;
    },
  };
}

// ---------------------------------------------------------------------- /t/ID

export function tournamentPage(root, id, { navigate }) {
  nav = navigate;
  let state = null;
  let failed = null;
  let missing = false;
  let busy = false;
  let destroyed = false;
  let regName = "";

  // an organiser link (#organiser=TOKEN) hands the organiser token to this browser
  const hash = /^#organiser=([A-Za-z0-9_-]{16,128})$/.exec(window.location.hash || "");
  if (hash) {
    store.set(organiserKey(id), hash[1]);
    window.history.replaceState({}, "", window.location.pathname);
  }

  async function load() {
    try {
      const body = await getJSON(`/api/tournaments/${encodeURIComponent(id)}`);
      state = body.tournament;
      failed = null;
    } catch (err) {
      if (err.status === 404) missing = true;
      failed = errText(err);
    }
    // (not while a name is being typed: the field keeps its focus; the next refresh renders)
    const typing = document.activeElement && document.activeElement.tagName === "INPUT" && root.contains(document.activeElement);
    if (!destroyed && !busy && !typing) render();
  }

  async function register(e) {
    e.preventDefault();
    const name = regName.trim();
    if (!name || busy) return;
    busy = true;
    try {
      const got = await post(`/api/tournaments/${encodeURIComponent(id)}/register`, { name });
      store.set(playerKey(id), JSON.stringify({ token: got.token, entrant: got.entrant, name: got.name }));
      regName = "";
    } catch (err) {
      toast(errText(err));
    }
    busy = false;
    await load();
  }

  async function startRound() {
    const token = store.get(organiserKey(id));
    if (!token || busy) return;
    busy = true;
    render();
    try {
      const body = await post(`/api/tournaments/${encodeURIComponent(id)}/start`, { token });
      state = body.tournament;
    } catch (err) {
      toast(errText(err));
    }
    busy = false;
    render();
  }

  function goTable(code) {
    const me = savedPlayer(id);
    if (!me) return;
    store.set(tokenKey(code), me.token); // the room's reserved seat admits this token
    navigate(`/r/${encodeURIComponent(code)}`);
  }

  function organiserPanel(s) {
    const token = store.get(organiserKey(id));
    if (!token) return null;
    const base = `${window.location.origin}/t/${encodeURIComponent(id)}`;
    let action = null;
    if (s.next) {
      const enough = arr(s.entrants).length >= (s.min_entrants || 2);
      const label = s.next === "final" ? tt("start_final") : tt("start_round", { n: arr(s.played).length + 1 });
      action = h(
        "p",
        { class: "buttons" },
        h("button", { type: "button", class: "btn primary", testid: "t-start-round", disabled: busy || !enough, onclick: startRound }, label),
        enough ? null : h("span", { class: "muted" }, tt("need_players", { n: s.min_entrants || 2 })),
      );
    }
    return h(
      "div",
      { class: "card tm-organiser" },
      h("h2", {}, tt("organiser")),
      action,
      s.registering ? h("label", {}, h("span", { class: "muted small" }, tt("share")), shareField(base, "t-share-link")) : null,
      h("details", {}, h("summary", { class: "muted small" }, tt("organiser_link")), shareField(`${base}#organiser=${token}`, "t-organiser-link")),
    );
  }

  function registration(s) {
    const me = savedPlayer(id);
    if (me) return h("p", { class: "card tm-you", testid: "t-you", dataset: { entrant: me.entrant } }, tt("registered_as", { name: me.name }));
    if (!s.registering) return s.web ? h("p", { class: "muted" }, tt("closed")) : null;
    const input = h("input", { type: "text", testid: "t-reg-name", maxlength: 24, value: regName, autocomplete: "nickname", placeholder: tt("your_name") });
    input.addEventListener("input", () => (regName = input.value));
    // (no render on blur: re-rendering the form between the mousedown and the click of its
    // button would swallow the click; the next refresh renders what changed)
    return h(
      "form",
      { class: "card rename", onsubmit: register },
      h("label", {}, h("span", {}, tt("your_name")), input),
      h("button", { type: "submit", class: "btn primary", testid: "t-register" }, tt("register")),
    );
  }

  function myTable(s) {
    const me = savedPlayer(id);
    const current = arr(s.played).at(-1);
    if (!me || !current || s.status !== "playing") return null;
    const table = arr(current.tables).find((tb) => arr(tb.seats).some((seat) => seat.entrant === me.entrant));
    if (!table || table.result) return null;
    return h(
      "p",
      { class: "buttons" },
      h("button", { type: "button", class: "btn primary", testid: "t-go-table", dataset: { code: table.code }, onclick: () => goTable(table.code) }, tt("go_table", { round: current.round, table: table.table + 1 })),
    );
  }

  function roundCard(r) {
    const me = savedPlayer(id);
    const tables = arr(r.tables).map((tb) => {
      const result = tb.result;
      const seats = arr(tb.seats).map((seat, i) =>
        h(
          "li",
          { class: me && seat.entrant === me.entrant ? "mine" : null },
          h("span", {}, seat.entrant === null ? seatLabel(seat.name) : seat.name),
          seat.bot ? h("span", { class: "tag bot" }, tt("bot")) : null,
          result ? h("span", { class: "num" }, signed(arr(result.totals)[i])) : null,
        ),
      );
      const status = [tt(`t_${tb.status}`), !result && tb.hand ? tt("hand_n", { n: tb.hand }) : ""].filter(Boolean).join(" · ");
      return h(
        "div",
        { class: "tm-table", testid: "t-table", dataset: { code: tb.code, status: tb.status } },
        h("h3", {}, tt("table_n", { n: tb.table + 1 }), " ", h("span", { class: "muted small" }, status)),
        h("ol", { class: "tm-seats" }, seats),
      );
    });
    const title = r.kind === "leitai" ? tt("final_round", { n: r.round }) : tt("round_n", { n: r.round });
    return h("section", { class: "card tm-round", testid: "t-round", dataset: { round: r.round, complete: r.complete ? "1" : "0" } }, h("h2", {}, title), h("div", { class: "tm-tables" }, tables));
  }

  function standingsTable(s) {
    const rows = arr(s.ranking || s.standings);
    if (!rows.length || !arr(s.played).length) return null;
    const swiss = arr(s.played).filter((r) => r.kind === "swiss").length;
    const finalPlayed = rows.some((x) => x.final !== null && x.final !== undefined);
    const me = savedPlayer(id);
    const head = h(
      "tr",
      {},
      h("th", {}, tt("place")),
      h("th", {}, tt("player")),
      h("th", { class: "num" }, tt("total")),
      Array.from({ length: swiss }, (_, i) => h("th", { class: "num" }, tt("round_col", { n: i + 1 }))),
      h("th", { class: "num" }, tt("best")),
      h("th", { class: "num" }, tt("h2h")),
      h("th", { class: "num" }, tt("hu")),
      h("th", { class: "num" }, tt("wins")),
      finalPlayed ? h("th", { class: "num" }, tt("final_col")) : null,
    );
    const body = rows.map((x) =>
      h(
        "tr",
        { testid: "t-standing", class: me && x.entrant === me.entrant ? "mine" : null, dataset: { entrant: x.entrant, place: x.place, total: x.total } },
        h("td", {}, String(x.place)),
        h("td", {}, String(x.name ?? ""), x.bot ? h("span", { class: "tag bot" }, tt("bot")) : null),
        h("td", { class: "num" }, signed(x.total)),
        Array.from({ length: swiss }, (_, i) => h("td", { class: "num" }, arr(x.scores)[i] !== undefined ? signed(arr(x.scores)[i]) : "")),
        h("td", { class: "num" }, signed(x.best)),
        h("td", { class: "num" }, signed(x.h2h)),
        h("td", { class: "num" }, String(x.hu ?? 0)),
        h("td", { class: "num" }, String(x.wins ?? 0)),
        finalPlayed ? h("td", { class: "num" }, x.final === null || x.final === undefined ? "" : signed(x.final)) : null,
      ),
    );
    return h(
      "section",
      { class: "card" },
      h("h2", {}, s.ranking ? tt("ranking") : tt("standings")),
      s.champion ? h("p", { class: "tm-champion", testid: "t-champion" }, tt("champion", { name: s.champion })) : null,
      h("div", { class: "tm-scroll" }, h("table", { class: "tm-standings", testid: "t-standings" }, h("thead", {}, head), h("tbody", {}, body))),
      h("p", { class: "muted small" }, tt("tiebreaks")),
    );
  }

  function render() {
    if (destroyed) return;
    if (!state) {
      replace(root, h("section", { class: "tournament" }, h("p", { class: missing ? "error" : "muted" }, missing ? tt("missing") : failed ? tt("load_failed", { message: failed }) : "…")));
      return;
    }
    const s = state;
    const summary = [tt("summary", { rounds: s.rounds, quan: s.match_quan, players: s.players }), s.leitai ? tt("with_leitai") : "", s.start ? tt("starts_at", { when: when(s.start) }) : ""].filter(Boolean).join(" · ");
    const entrants = arr(s.entrants).map((e) => h("li", { testid: "t-entrant", dataset: { entrant: e.entrant } }, String(e.name ?? "")));
    replace(
      root,
      h(
        "section",
        { class: "tournament", testid: "t-page", dataset: { status: s.status, version: s.version } },
        h("h1", { testid: "t-title" }, String(s.name ?? "")),
        h("p", {}, h("span", { class: "tag", testid: "t-status" }, tt(`status_${s.status}`)), " ", h("span", { class: "muted" }, summary)),
        h("div", { testid: "t-rules" }, roomRules({ ...s, status: s.status === "registering" ? "lobby" : "playing" })),
        failed ? h("p", { class: "error" }, tt("load_failed", { message: failed })) : null,
        organiserPanel(s),
        registration(s),
        myTable(s),
        standingsTable(s),
        arr(s.played)
          .slice()
          .reverse()
          .map(roundCard),
        arr(s.played).length ? h("p", { class: "muted small" }, tt("same_deals")) : null,
        h("section", { class: "card" }, h("h2", {}, `${tt("entrants")} (${entrants.length})`), h("ol", { class: "tm-entrants", testid: "t-entrants" }, entrants)),
      ),
    );
  }

  load();
  const timer = setInterval(() => {
    if (!destroyed && !document.hidden && !missing) load();
  }, REFRESH_MS);
  render();
  return {
    render,
    destroy() {
      destroyed = true;
      clearInterval(timer);
    },
  };
}
