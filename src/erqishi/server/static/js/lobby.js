// The home page: create a room (POST /api/rooms), join a room by its code, go to history.
//
// data-testid: preset, match-quan, bots, players (selects); create-room; code-input, join-code;
// history-link, rules-link, score-link, learn-link.
import { h, replace, getJSON, toast, store } from "./dom.js";
import { t, getLang } from "./i18n.js";

// The presets and bot levels come from the server (GET /api/presets: the rule set's own
// presets), so a new preset needs no change here.
let PRESETS = ["leshan"];
let WORDS = {}; // preset name -> {words: [zh, en], about: [zh, en]}
let BOTS = ["heuristic"];

/** Load the presets and bot levels the server offers (once). */
export async function loadPresets() {
  const body = await getJSON("/api/presets");
  const presets = (Array.isArray(body.presets) ? body.presets : []).filter((p) => p && typeof p.name === "string");
  if (presets.length) PRESETS = presets.map((p) => p.name);
  WORDS = Object.fromEntries(presets.map((p) => [p.name, p]));
  const bots = (Array.isArray(body.bots) ? body.bots : []).filter((b) => typeof b === "string");
  // the strongest first, as the lobby always showed them
  if (bots.length) BOTS = ["heuristic", "search", "random"].filter((b) => bots.includes(b)).concat(bots.filter((b) => !["heuristic", "search", "random"].includes(b)));
}

const pick = (pair, fallback) => (Array.isArray(pair) && pair.length === 2 ? pair[getLang() === "en" ? 1 : 0] : fallback);

/** A preset's name in words (from the server's rule data), else its code name. */
export function presetName(name) {
  return pick(WORDS[name] && WORDS[name].words, String(name));
}

/** A preset's label in the select: its name and what it changes. */
function presetLabel(name) {
  const about = pick(WORDS[name] && WORDS[name].about, "");
  return about ? `${presetName(name)} — ${about}` : presetName(name);
}

export function lobbyPage(root, { navigate }) {
  const saved = {
    preset: store.get("erqishi.preset") || "leshan",
    matchQuan: store.get("erqishi.match_quan") || "1",
    bots: store.get("erqishi.bots") || "heuristic",
    players: "",
  };

  function render() {
    const preset = h(
      "select",
      { id: "preset", testid: "preset", name: "preset" },
      PRESETS.map((p) => h("option", { value: p, selected: p === saved.preset }, presetLabel(p))),
    );
    const matchQuan = h(
      "select",
      { id: "match-quan", testid: "match-quan", name: "match_quan" },
      Array.from({ length: 10 }, (_, i) => String(i + 1)).map((q) =>
        h("option", { value: q, selected: q === saved.matchQuan }, t("quan_n", { n: q })),
      ),
    );
    const bots = h(
      "select",
      { id: "bots", testid: "bots", name: "bots" },
      BOTS.map((b) => h("option", { value: b, selected: b === saved.bots }, t(`bot_${b}`))),
    );
    const players = h(
      "select",
      { id: "players", testid: "players", name: "players" },
      ["", "2", "3", "4"].map((n) =>
        h("option", { value: n, selected: n === saved.players }, n ? t("players_n", { n }) : t("players_default")),
      ),
    );
    // public: listed to everyone (GET /api/rooms); by default a room is found only by its link
    const isPublic = h("input", { type: "checkbox", id: "public", testid: "public", name: "public" });
    const create = h("button", { type: "submit", class: "btn primary", id: "create-room", testid: "create-room" }, t("create_room"));
    const form = h(
      "form",
      { class: "card form", id: "create-form" },
      h("h2", {}, t("new_room")),
      h("label", {}, h("span", {}, t("preset")), preset),
      h("label", {}, h("span", {}, t("match_quan")), matchQuan),
      h("label", {}, h("span", {}, t("bot_level")), bots),
      h("label", {}, h("span", {}, t("players")), players),
      h("label", { title: t("public_room_note") }, h("span", {}, t("public_room")), isPublic),
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
      const body = { v: 2, preset: saved.preset, match_quan: Number(saved.matchQuan), bots: saved.bots };
      if (saved.players) body.players = Number(saved.players);
      if (isPublic.checked) body.public = true;
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
        toast(t("err_create", { message: err.message }));
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
  }

  render();
  return { render, destroy() {} };
}
