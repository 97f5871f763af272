// The home page: create a room (POST /api/rooms) with the rules you choose, join a room by
// its code, go to history. Also the room's rules in words for everyone who joins
// (roomRules, from room.rules_words).
//
// data-testid: preset, match-quan, bots, players (selects); opt-NAME (one rule option: a
// select, or a checkbox for an on/off option; data-changed="1" when it differs from the
// preset), more-options (the other options), timer-response_seconds, timer-turn_seconds;
// vote-seconds, vote-timeout (selects: the 解散 vote's length and what silence counts as),
// free-text (checkbox: typed chat); create-room; code-input, join-code; history-link, rules-link, score-link, learn-link;
// room-rules (a room's rules in words; each item data-option=NAME, class "changed").
import { h, replace, getJSON, toast, store, arr } from "./dom.js";
import { t, getLang, errText, listSep } from "./i18n.js";
import { setBotWords, botKind, botAbout } from "./names.js";

// The presets, the bot levels and the rule options come from the server (GET /api/presets,
// GET /api/rule-options: the rule set's own data), so a new preset or option needs no
// change here.
let PRESETS = ["leshan"];
let WORDS = {}; // preset name -> {words: [zh, en], about: [zh, en], rules: {options}}
let BOTS = ["heuristic"];
let OPTIONS = []; // [{name, label, meaning, rule, kind, room, choices: [{value, words}], range}]
let TIMERS = []; // [{name, label, range, choices, default}]
/** The lengths a 解散 vote may be given here (POST /api/rooms takes 0.5…600 s). */
const VOTE_SECONDS = [15, 30, 60, 120, 300];

/** Load the presets, bot levels and rule options the server offers (once). */
export async function loadPresets() {
  const [body, options] = await Promise.all([getJSON("/api/presets"), getJSON("/api/rule-options").catch(() => ({}))]);
  const presets = arr(body.presets).filter((p) => p && typeof p.name === "string");
  if (presets.length) PRESETS = presets.map((p) => p.name);
  WORDS = Object.fromEntries(presets.map((p) => [p.name, p]));
  const bots = arr(body.bots).filter((b) => typeof b === "string");
  // the steady one first (the default), then the strong ones, then the rest
  if (bots.length) BOTS = ["heuristic", "learned", "search", "random"].filter((b) => bots.includes(b)).concat(bots.filter((b) => !["heuristic", "learned", "search", "random"].includes(b)));
  setBotWords(body.bot_words);
  OPTIONS = arr(options.options).filter((o) => o && typeof o.name === "string" && Array.isArray(o.choices));
  TIMERS = arr(options.timers).filter((o) => o && typeof o.name === "string");
}

const pick = (pair, fallback) => (Array.isArray(pair) && pair.length === 2 ? pair[getLang() === "en" ? 1 : 0] : fallback);
const inLang = (obj, fallback = "") => (obj && typeof obj === "object" ? String(obj[getLang() === "en" ? "en" : "zh"] ?? fallback) : fallback);
const same = (a, b) => (a ?? null) === (b ?? null);

/** A preset's name in words (from the server's rule data), else its code name. */
export function presetName(name) {
  return pick(WORDS[name] && WORDS[name].words, String(name));
}

/** A preset's label in the select: what it is, in words ("Leshan (leshan)"). */
function presetLabel(name) {
  return pick(WORDS[name] && WORDS[name].about, "") || presetName(name);
}

/** A bot level for the room's info line: its kind of play ("稳健" / "steady"). */
export function botLevelName(level) {
  return botKind(level);
}

/** The options of a preset (every option, as JSON values). */
function presetOptions(name) {
  const p = WORDS[name];
  return p && p.rules && typeof p.rules === "object" ? p.rules : {};
}

/**
 * A room's rules in words (room.rules_words, built by the server from the rule set): the
 * preset and what the room changed in the summary line, every room option in the list,
 * and the room's timers. Open in the lobby, folded at the table.
 */
export function roomRules(room) {
  const w = room && room.rules_words;
  if (!w || typeof w !== "object") return null;
  const items = arr(w.items).filter((i) => i && typeof i.name === "string" && i.label && i.value);
  const text = (i) => t("rule_item", { label: inLang(i.label), value: inLang(i.value) });
  const changed = items.filter((i) => i.changed);
  const head = [`${t("room_rules")}${t("colon")}${inLang(w.preset, presetName(room.preset))}`];
  head.push(changed.length ? t("room_rules_changed", { items: changed.map(text).join(listSep()) }) : t("room_rules_as_preset"));
  const timers = room.timers && typeof room.timers === "object" ? room.timers : null;
  const timerLine =
    timers && Number.isFinite(timers.response_seconds) && Number.isFinite(timers.turn_seconds)
      ? h("p", { class: "muted small", testid: "room-timers" }, t("room_timers", { response: timers.response_seconds, turn: timers.turn_seconds }))
      : null;
  return h(
    "details",
    { class: "room-rules", testid: "room-rules", open: !room.status || room.status === "lobby" },
    h("summary", { testid: "room-rules-summary" }, head.join(" · ")),
    h(
      "ul",
      { class: "rule-words" },
      items.map((i) => h("li", { class: i.changed ? "changed" : null, dataset: { option: i.name }, title: i.rule || null }, text(i))),
    ),
    timerLine,
  );
}

export function lobbyPage(root, { navigate }) {
  const saved = {
    preset: store.get("erqishi.preset") || "leshan",
    matchQuan: store.get("erqishi.match_quan") || "1",
    bots: store.get("erqishi.bots") || "heuristic",
    players: "",
    public: false,
    voteSeconds: "", // "" = the server's default (60 s)
    voteTimeout: "agree",
    freeText: false,
  };
  if (!PRESETS.includes(saved.preset)) saved.preset = PRESETS[0] || "leshan";
  // the options chosen over the preset (name -> JSON value), kept while the page lives
  let chosen = {};
  try {
    const kept = JSON.parse(store.get("erqishi.rules") || "{}");
    if (kept && kept.preset === saved.preset && kept.rules && typeof kept.rules === "object") chosen = kept.rules;
  } catch {
    chosen = {};
  }
  const timers = {};

  // one control per rule option, built from the server's data
  function optionControl(o, base) {
    const value = o.name in chosen ? chosen[o.name] : base[o.name];
    const differs = !same(value, base[o.name]);
    const label = pick(o.label, o.name);
    let control;
    if (o.kind === "switch") {
      control = h("input", { type: "checkbox", id: `opt-${o.name}`, testid: `opt-${o.name}`, checked: value === true });
      control.addEventListener("change", () => setOption(o, control.checked, base));
    } else {
      const choices = o.choices.slice();
      if (!choices.some((c) => same(c.value, value))) choices.push({ value, words: [String(value), String(value)] });
      control = h(
        "select",
        { id: `opt-${o.name}`, testid: `opt-${o.name}` },
        choices.map((c, i) => h("option", { value: String(i), selected: same(c.value, value) }, pick(c.words, String(c.value)))),
      );
      control.addEventListener("change", () => setOption(o, choices[Number(control.value)].value, base));
    }
    control.dataset.changed = differs ? "1" : "0";
    return h(
      "label",
      { class: `option${differs ? " changed" : ""}`, title: `${pick(o.meaning, "")} (${o.rule || ""})` },
      h("span", {}, label, differs ? h("span", { class: "mark" }, t("option_differs")) : null),
      control,
    );
  }

  function setOption(o, value, base) {
    if (same(value, base[o.name])) delete chosen[o.name];
    else chosen[o.name] = value;
    render();
  }

  function rulesBody() {
    const out = {};
    for (const [k, v] of Object.entries(chosen)) if (OPTIONS.some((o) => o.name === k)) out[k] = v;
    return out;
  }

  function render() {
    const base = presetOptions(saved.preset);
    const preset = h(
      "select",
      { id: "preset", testid: "preset", name: "preset" },
      PRESETS.map((p) => h("option", { value: p, selected: p === saved.preset }, presetLabel(p))),
    );
    preset.addEventListener("change", () => {
      saved.preset = preset.value;
      chosen = {}; // a new preset: its own options
      render();
    });
    const matchQuan = h(
      "select",
      { id: "match-quan", testid: "match-quan", name: "match_quan" },
      Array.from({ length: 10 }, (_, i) => String(i + 1)).map((q) =>
        h("option", { value: q, selected: q === saved.matchQuan }, t("quan_n", { n: q })),
      ),
    );
    matchQuan.addEventListener("change", () => {
      saved.matchQuan = matchQuan.value;
    });
    const bots = h(
      "select",
      { id: "bots", testid: "bots", name: "bots" },
      BOTS.map((b) => {
        const about = botAbout(b);
        return h("option", { value: b, selected: b === saved.bots }, about ? t("bot_choice", { name: botKind(b), about }) : botKind(b));
      }),
    );
    bots.addEventListener("change", () => {
      saved.bots = bots.value;
    });
    const players = h(
      "select",
      { id: "players", testid: "players", name: "players" },
      ["", "2", "3", "4"].map((n) =>
        h("option", { value: n, selected: n === saved.players }, n ? t("players_n", { n }) : t("players_default")),
      ),
    );
    players.addEventListener("change", () => {
      saved.players = players.value;
    });
    // the rule options: the room's own (圈 count aside: match-quan) first, the rest folded
    const shown = OPTIONS.filter((o) => o.name !== "match_quan");
    const first = shown.filter((o) => o.room).map((o) => optionControl(o, base));
    const rest = shown.filter((o) => !o.room).map((o) => optionControl(o, base));
    const moreChanged = shown.some((o) => !o.room && o.name in chosen);
    const timerControls = TIMERS.map((tm) => {
      const sel = h(
        "select",
        { id: `timer-${tm.name}`, testid: `timer-${tm.name}` },
        h("option", { value: "", selected: !timers[tm.name] }, t("timer_server_default", { n: tm.default ?? "?" })),
        arr(tm.choices).map((n) => h("option", { value: String(n), selected: timers[tm.name] === n }, t("seconds_n", { n }))),
      );
      sel.addEventListener("change", () => {
        if (sel.value) timers[tm.name] = Number(sel.value);
        else delete timers[tm.name];
      });
      return h("label", { class: "option" }, h("span", {}, pick(tm.label, tm.name)), sel);
    });
    // the 解散 vote (how long it lasts, what a seat that does not answer counts as) and talk
    const voteSeconds = h(
      "select",
      { id: "vote-seconds", testid: "vote-seconds", name: "vote_seconds" },
      h("option", { value: "", selected: !saved.voteSeconds }, t("timer_server_default", { n: 60 })),
      VOTE_SECONDS.map((n) => h("option", { value: String(n), selected: saved.voteSeconds === String(n) }, t("seconds_n", { n }))),
    );
    voteSeconds.addEventListener("change", () => {
      saved.voteSeconds = voteSeconds.value;
    });
    const voteTimeout = h(
      "select",
      { id: "vote-timeout", testid: "vote-timeout", name: "vote_timeout" },
      h("option", { value: "agree", selected: saved.voteTimeout === "agree" }, t("vote_timeout_agree_opt")),
      h("option", { value: "refuse", selected: saved.voteTimeout === "refuse" }, t("vote_timeout_refuse_opt")),
    );
    voteTimeout.addEventListener("change", () => {
      saved.voteTimeout = voteTimeout.value;
    });
    const freeText = h("input", { type: "checkbox", id: "free-text", testid: "free-text", name: "free_text", checked: saved.freeText });
    freeText.addEventListener("change", () => {
      saved.freeText = freeText.checked;
    });
    const hallControls = h(
      "fieldset",
      { class: "options hall-options", testid: "hall-options" },
      h("legend", {}, t("hall_options_title")),
      h("label", { class: "option" }, h("span", {}, t("vote_seconds_label")), voteSeconds),
      h("label", { class: "option" }, h("span", {}, t("vote_timeout_label")), voteTimeout),
      h("label", { class: "option check" }, h("span", {}, t("free_text_label")), freeText),
    );
    // public: listed to everyone (GET /api/rooms); by default a room is found only by its link
    const isPublic = h("input", { type: "checkbox", id: "public", testid: "public", name: "public", checked: saved.public });
    isPublic.addEventListener("change", () => {
      saved.public = isPublic.checked;
    });
    const create = h("button", { type: "submit", class: "btn primary", id: "create-room", testid: "create-room" }, t("create_room"));
    const form = h(
      "form",
      { class: "card form", id: "create-form" },
      h("h2", {}, t("new_room")),
      h("label", {}, h("span", {}, t("preset")), preset),
      h("label", {}, h("span", {}, t("match_quan")), matchQuan),
      h("label", {}, h("span", {}, t("bot_level")), bots),
      h("label", {}, h("span", {}, t("players")), players),
      OPTIONS.length
        ? h(
            "fieldset",
            { class: "options", testid: "rule-options" },
            h("legend", {}, t("options_title")),
            h("p", { class: "muted small" }, t("options_note")),
            first,
            rest.length ? h("details", { class: "more-options", testid: "more-options", open: moreChanged }, h("summary", {}, t("more_options")), rest) : null,
          )
        : null,
      timerControls.length ? h("fieldset", { class: "options timers" }, h("legend", {}, t("timers_title")), timerControls) : null,
      hallControls,
      h("label", { class: "option check", title: t("public_room_note") }, h("span", {}, t("public_room")), isPublic),
      create,
    );
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      saved.preset = preset.value;
      saved.matchQuan = matchQuan.value;
      saved.bots = bots.value;
      saved.players = players.value;
      store.set("erqishi.preset", saved.preset);
      store.set("erqishi.match_quan", saved.matchQuan);
      store.set("erqishi.bots", saved.bots);
      const rules = rulesBody();
      store.set("erqishi.rules", JSON.stringify({ preset: saved.preset, rules }));
      const body = { v: 2, preset: saved.preset, match_quan: Number(saved.matchQuan), bots: saved.bots };
      if (Object.keys(rules).length) body.rules = rules;
      if (saved.players) body.players = Number(saved.players);
      for (const [k, v] of Object.entries(timers)) body[k] = v;
      if (isPublic.checked) body.public = true;
      if (voteSeconds.value) body.vote_seconds = Number(voteSeconds.value);
      if (voteTimeout.value === "refuse") body.vote_timeout = "refuse";
      if (freeText.checked) body.free_text = true;
      create.disabled = true;
      try {
        const answer = await getJSON("/api/rooms", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(body),
        });
        const code = typeof answer.code === "string" ? answer.code : "";
        const url = typeof answer.url === "string" && answer.url.startsWith("/r/") ? answer.url : `/r/${code}`;
        if (!code && url === "/r/") throw new Error(t("err_no_code"));
        navigate(url);
      } catch (err) {
        toast(t("err_create", { message: errText(err) }));
        create.disabled = false;
      }
    });

    const codeInput = h("input", {
      id: "code-input",
      testid: "code-input",
      type: "text",
      autocomplete: "off",
      autocapitalize: "characters",
      maxlength: "16",
      placeholder: t("code_placeholder"),
    });
    const joinForm = h(
      "form",
      { class: "card form", id: "join-form" },
      h("h2", {}, t("join_room")),
      h("label", {}, h("span", {}, t("room_code")), codeInput),
      h("button", { type: "submit", class: "btn", id: "join-code", testid: "join-code" }, t("join_by_code")),
    );
    joinForm.addEventListener("submit", (e) => {
      e.preventDefault();
      let code = codeInput.value.trim();
      const m = /\/r\/([^/?#]+)/.exec(code); // a pasted link works too
      if (m) code = m[1];
      code = code.toUpperCase().replace(/[^A-Z0-9]/g, "");
      if (!code) {
        toast(t("err_enter_code"), "info");
        return;
      }
      navigate(`/r/${code}`);
    });

    const link = (href, id, text) => {
      const a = h("a", { href, id, testid: id, class: "btn link" }, text);
      a.addEventListener("click", (e) => {
        if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        navigate(href);
      });
      return a;
    };
    const hist = link("/history", "history-link", t("history_link"));
    const rulesLink = link("/rules", "rules-link", t("nav_rules"));
    const scoreLink = link("/score", "score-link", t("nav_score"));
    const learnLink = link("/learn", "learn-link", t("nav_learn"));
    learnLink.className = "btn primary";

    // keep the focus where it was across a re-render (an option changed)
    const active = document.activeElement;
    const focusId = active && root.contains(active) ? active.id : null;
    replace(
      root,
      h(
        "section",
        { class: "lobby" },
        h("h1", {}, t("title")),
        h("p", { class: "muted" }, t("tagline")),
        h("p", {}, learnLink),
        h("div", { class: "cols" }, form, joinForm),
        h("p", { class: "buttons" }, hist, rulesLink, scoreLink),
      ),
    );
    if (focusId) {
      const again = document.getElementById(focusId);
      if (again) again.focus();
    }
  }

  render();
  return { render, destroy() {} };
}
