// The pocket scorer, /score (计胡器): made for a phone at a real table. Tap cards on a
// keyboard of 小 and 大 cards into the hand, a meld or the winning card; choose how the win
// came (抬炮, 翻胡, 自摸, 天胡; 地胡), the 圈 and the rules; the verdict shows at once: the best
// grouping with each group's hu, the tier, each 番, the score and who pays what (RULES.md
// R-3 - R-8), or why the hand does not win; without a winning card, the 下叫 of a hand one
// card short. Scoring runs in the page (scorer.js, over the rule data of GET /api/rules), so
// it works offline once the service worker (/sw.js) has cached the client.
//
// The address holds the hand, so a link shows everyone the same verdict:
//   /score?h=二三四五六七七七壹贰叁陆陆陆捌玖拾&m=一一一&w=四&s=discard&q=3&d=1&r=leshan&o=cap:160,yu:on
// h the concealed hand before the winning card, m one exposed meld each (a 开 made under yu
// onto an exposed 对 is written 三三三+三), w the winning card (none: the waits; none with
// s=tian: 天胡), s the source (discard, flip, own_flip, tian), d=1 地胡, q the 圈 number, r the
// preset, o rule options over it (name:value, comma-separated). Cards are Chinese
// characters or ASCII tokens (x1…x10, d1…d10), as everywhere.
//
// data-testid: key-x1…key-d10 (keyboard), mode-hand, mode-meld, mode-win, lay-meld, meld-yu,
// cancel-meld, hand-tile, meld, building-tile, win-tile, source-discard/-flip/-own_flip/-tian,
// di-toggle, quan, preset, opt-<name>, undo, clear, copy-link, verdict (data-state, data-hu,
// data-base, data-score, data-fan, data-payments, data-reason), waits, wait (data-card,
// data-hu, data-score, data-fan).
import { h, replace, getJSON, toast } from "./dom.js";
import { t, getLang, errText, listSep } from "./i18n.js";
import { tile, groupName } from "./cards.js";
import { createScorer, ScoreError } from "./scorer.js";
import { term } from "./narrate.js";

let DATA = null;
let SCORER = null;
let loading = null;

/** The rule data of GET /api/rules and a scorer over it (loaded once; offline, the service
 * worker's copy). */
export async function loadRules() {
  if (DATA) return DATA;
  if (!loading) {
    loading = getJSON("/api/rules").then((data) => {
      DATA = data;
      SCORER = createScorer(data);
      return data;
    });
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}

/** Register the service worker that keeps the scorer and the rules working offline. */
export function registerOffline() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return Promise.resolve(null);
  return navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => null);
}

const pick = (pair) => (Array.isArray(pair) ? pair[getLang() === "en" ? 1 : 0] : "");
const SOURCES = ["discard", "flip", "own_flip", "tian"];
// the rule options the scorer lets one change (the others do not touch scoring)
const SCORING_OPTIONS = ["players", "tiers", "tianhu", "taipao_multiplier", "cap", "yu", "quan_fan", "shuang_quan", "tian_di_fan", "kun_fan", "piao_fan"];
const NUMBERS = { taipao_multiplier: [1, 2, 3, 4], cap: [50, 80, 100, 160, 200] };

function emptyState() {
  return { hand: [], melds: [], building: [], buildYu: false, win: null, source: "discard", di: false, quan: null, preset: "leshan", over: {}, mode: "hand" };
}

function snapshot(s) {
  return JSON.stringify({ ...s, mode: undefined });
}

export function scorePage(root, { navigate }) {
  let state = emptyState();
  const undo = [];
  let linkProblems = [];
  let alive = true;
  let ready = false;
  const els = {};

  registerOffline();

  // ---------------------------------------------------------------- the address

  function readAddress() {
    const q = new URLSearchParams(window.location.search);
    const s = emptyState();
    const problems = [];
    const cardsOf = (text, what) => {
      try {
        return SCORER.parseCards(text);
      } catch {
        problems.push(`${what}=${text}`);
        return [];
      }
    };
    s.hand = cardsOf(q.get("h") || "", "h").sort((a, b) => a - b);
    for (const text of q.getAll("m")) {
      if (!text.trim()) continue;
      try {
        const g = SCORER.parseMeld(text);
        s.melds.push({ cards: g.cards, yu: !!g.yu });
      } catch {
        problems.push(`m=${text}`);
      }
    }
    const win = cardsOf(q.get("w") || "", "w");
    if (win.length === 1) s.win = win[0];
    else if (win.length > 1) problems.push(`w=${q.get("w")}`);
    const source = q.get("s");
    if (SOURCES.includes(source)) s.source = source;
    else if (source) problems.push(`s=${source}`);
    if (s.source === "tian") s.win = null;
    s.di = q.get("d") === "1" && s.source !== "tian";
    const quan = Number(q.get("q"));
    if (Number.isInteger(quan) && quan >= 1 && quan <= 10) s.quan = quan;
    else if (q.get("q")) problems.push(`q=${q.get("q")}`);
    const preset = q.get("r");
    if (preset && DATA.presets.some((p) => p.name === preset)) s.preset = preset;
    else if (preset) problems.push(`r=${preset}`);
    for (const item of (q.get("o") || "").split(",")) {
      if (!item.trim()) continue;
      const [key, raw] = item.split(":");
      const value = optionValue(key, raw);
      try {
        if (value === undefined) throw new Error(item);
        SCORER.rulesOf({ preset: s.preset, ...s.over, [key]: value });
        s.over[key] = value;
      } catch {
        problems.push(`o=${item}`);
      }
    }
    // no fifth copy from a link: drop what goes beyond four
    const seen = new Array(20).fill(0);
    const keepCard = (c) => (seen[c] += 1) <= 4;
    s.melds = s.melds.filter((m) => {
      const ok = m.cards.every((c) => seen[c] + m.cards.filter((x) => x === c).length <= 4);
      if (ok) m.cards.forEach((c) => (seen[c] += 1));
      else problems.push("m");
      return ok;
    });
    const before = s.hand.length;
    s.hand = s.hand.filter(keepCard);
    if (s.hand.length < before) problems.push("h");
    if (s.win !== null && !keepCard(s.win)) {
      s.win = null;
      problems.push("w");
    }
    return { s, problems };
  }

  function optionValue(key, raw) {
    if (!SCORING_OPTIONS.includes(key) || raw === undefined) return undefined;
    if (typeof DATA.defaults[key] === "boolean") return raw === "on" ? true : raw === "off" ? false : undefined;
    if (raw === "none") return null;
    if (/^\d+$/.test(raw)) return Number(raw);
    return raw;
  }

  function address(s = state) {
    const q = new URLSearchParams();
    const chars = (ids) => ids.map((c) => SCORER.charOf(c)).join("");
    if (s.hand.length) q.set("h", chars(s.hand));
    for (const m of s.melds) q.append("m", m.yu ? `${chars(m.cards.slice(0, 3))}+${chars(m.cards.slice(3))}` : chars(m.cards));
    if (s.win !== null) q.set("w", SCORER.charOf(s.win));
    q.set("s", s.source);
    if (s.di) q.set("d", "1");
    if (s.quan) q.set("q", String(s.quan));
    q.set("r", s.preset);
    const over = Object.entries(s.over).map(([k, v]) => `${k}:${v === true ? "on" : v === false ? "off" : v === null ? "none" : v}`);
    if (over.length) q.set("o", over.join(","));
    return `/score?${q.toString()}`;
  }

  // Browsers ignore history updates beyond a few hundred in ten seconds (Chromium: 200), so
  // fast tapping writes the address at most once every ADDRESS_MS, the last one always.
  const ADDRESS_MS = 120;
  let lastWrite = 0;
  let pendingWrite = null;

  function writeAddress() {
    const url = address();
    if (els.copy) els.copy.dataset.href = url;
    if (pendingWrite !== null) return;
    const now = performance.now();
    const put = () => {
      pendingWrite = null;
      lastWrite = performance.now();
      const latest = address();
      if (alive && latest !== window.location.pathname + window.location.search) window.history.replaceState({}, "", latest);
    };
    if (now - lastWrite >= ADDRESS_MS) put();
    else pendingWrite = setTimeout(put, ADDRESS_MS - (now - lastWrite));
  }

  // ---------------------------------------------------------------- state changes

  function change(f) {
    undo.push(snapshot(state));
    if (undo.length > 200) undo.shift();
    f();
    update();
  }

  function used(c) {
    let n = state.hand.filter((x) => x === c).length + state.building.filter((x) => x === c).length;
    for (const m of state.melds) n += m.cards.filter((x) => x === c).length;
    if (state.win === c) n += 1;
    return n;
  }

  function tap(c) {
    const left = 4 - used(c);
    if (state.mode === "win") {
      if (left <= 0 && state.win !== c) return;
      change(() => {
        state.win = c;
        if (state.source === "tian") state.source = "discard";
      });
      return;
    }
    if (left <= 0) return;
    if (state.mode === "meld") {
      if (state.building.length >= 4) return;
      change(() => {
        state.building.push(c);
        state.building.sort((a, b) => a - b);
      });
      return;
    }
    change(() => {
      state.hand.push(c);
      state.hand.sort((a, b) => a - b);
    });
  }

  function buildingMeld() {
    if (!state.building.length) return null;
    try {
      const g = SCORER.parseMeld({ cards: state.building, yu: false });
      return g;
    } catch {
      return null;
    }
  }

  function layMeld() {
    const g = buildingMeld();
    if (!g) return;
    change(() => {
      state.melds.push({ cards: state.building.slice(), yu: g.kind === "kai" && state.buildYu });
      state.building = [];
      state.buildYu = false;
    });
  }

  function rules() {
    return SCORER.rulesOf({ preset: state.preset, ...state.over });
  }

  // ---------------------------------------------------------------- the verdict

  function compute() {
    const r = rules();
    const input = { hand: state.hand, melds: state.melds, win: state.win, source: state.source, di: state.di, quan: state.quan };
    if (!state.hand.length && !state.melds.length) return { kind: "empty" };
    try {
      if (state.source !== "tian" && state.win === null) {
        if (!state.hand.length) throw new ScoreError("empty_hand", "the hand is empty");
        const short = SCORER.oneShort(input, r);
        if (!short.fits) return { kind: "count", short };
        return { kind: "waits", waits: SCORER.waits(input, r), rules: r };
      }
      const result = SCORER.score(input, r);
      return { kind: result.win ? "win" : "nowin", result, rules: r };
    } catch (err) {
      if (err instanceof ScoreError) return { kind: "error", error: err };
      throw err;
    }
  }

  function errorText(err) {
    const params = { ...err.params };
    if (params.card) params.card = SCORER.charOf(SCORER.parseCards(params.card)[0]);
    const key = `sc_err_${err.code}`;
    const text = t(key, params);
    return text === key ? err.message : text;
  }

  function groupsTable(groups) {
    return h(
      "table",
      { class: "groups sc-groups", testid: "groups" },
      h(
        "tbody",
        {},
        groups.map((g) =>
          h(
            "tr",
            { testid: "group", dataset: { kind: g.kind, hu: g.hu } },
            h("td", {}, groupName(g)),
            h("td", {}, h("span", { class: "tiles" }, g.cards.split(" ").map((c) => tile(c, { size: "s" })))),
            h("td", { class: "num" }, t("hu_unit", { hu: g.hu })),
            h(
              "td",
              {},
              h(
                "span",
                { class: "sc-tags" },
                g.exposed && !g.winning ? h("span", { class: "tag" }, t("sc_tag_exposed")) : null,
                g.winning ? h("span", { class: "tag turn" }, t("sc_tag_winning")) : null,
                g.yu ? h("span", { class: "tag" }, t("sc_tag_yu")) : null,
              ),
            ),
          ),
        ),
      ),
    );
  }

  function fanLine(result, r) {
    const fixed = DATA.tianhu_fixed;
    if (result.source === "tian" && r[fixed.option] === fixed.value) return h("p", { testid: "fans" }, t("sc_fixed", { score: fixed.score }));
    if (!result.fan.length) return h("p", { testid: "fans" }, t("sc_no_fan"));
    const weights = result.fan.map((name) => {
      const rule = DATA.fans.find((x) => x.fans.some((f) => f.name === name));
      const fan = rule.fans.find((f) => f.name === name);
      let w = fan.weight;
      for (const [opt, values] of Object.entries(fan.weight_by)) if (String(r[opt]) in values) w = values[String(r[opt])];
      return `${name} ×${2 ** w}`;
    });
    return h("p", { testid: "fans" }, t("sc_fans", { fans: weights.join(listSep()), mult: 2 ** result.fan_count }));
  }

  function paymentsBlock(result, r) {
    const rows = result.payments;
    const notes = [];
    if (r.cap !== null && result.score > r.cap) notes.push(t("sc_note_cap", { cap: r.cap }));
    if (result.source === "discard") {
      const factor = SCORER.taipaoFactor(r);
      notes.push(t(factor === 3 ? "sc_note_taipao" : "sc_note_taipao2", { factor }));
    }
    return [
      h("h3", {}, t("sc_pay")),
      h(
        "table",
        { class: "payments", testid: "payments" },
        h(
          "tbody",
          {},
          rows.map((p) => h("tr", { dataset: { role: p.role } }, h("td", {}, t(`sc_role_${p.role}`)), h("td", { class: "num" }, p.amount > 0 ? `+${p.amount}` : String(p.amount)))),
        ),
      ),
      notes.length ? h("p", { class: "muted small" }, notes.join("；")) : null,
    ];
  }

  function sizeLine(result) {
    const q = result.quads || 0;
    const need = 21 + Math.max(0, q - 1);
    return h("p", { class: "muted" }, t(q ? "sc_size_q" : "sc_size", { n: result.cards, need, q }));
  }

  function verdictView(v) {
    const box = h("div", { class: "card sc-verdict", testid: "verdict", "aria-live": "polite", dataset: { state: v.kind } });
    if (v.kind === "empty") return append(box, h("p", { class: "muted" }, t("sc_empty")));
    if (v.kind === "error") return append(box, h("p", { class: "error" }, t("sc_err", { message: errorText(v.error) })));
    if (v.kind === "count") {
      box.dataset.state = "count";
      return append(box, h("p", { class: "muted" }, t("sc_pick_win")), h("p", { class: "muted" }, t("sc_count", { n: v.short.total, need: v.short.need })));
    }
    if (v.kind === "waits") return waitsView(box, v.waits);
    const r = v.result;
    box.dataset.hu = String(r.hu);
    box.dataset.base = String(r.base);
    box.dataset.score = String(r.score);
    box.dataset.fan = JSON.stringify(r.fan);
    if (v.kind === "nowin") {
      box.dataset.reason = r.reason;
      const why = pick(r.reason_words);
      append(box, h("p", { class: "sc-nowin" }, t("sc_no_win", { why })));
      if (r.reason === "too_many" || r.reason === "too_few") append(box, sizeLine(r));
      if (r.groups.length) append(box, h("p", { class: "muted" }, t("sc_under", { hu: r.hu })), groupsTable(r.groups));
      return box;
    }
    box.dataset.payments = JSON.stringify(r.payments.map((p) => p.amount));
    return append(
      box,
      h("p", { class: "win-line" }, t("sc_win_line", { score: r.score })),
      h("h3", {}, t("sc_groups_best")),
      groupsTable(r.groups),
      h("p", { testid: "total" }, t("sc_total", { hu: r.hu, tier: term("tier", r.tier.name), base: r.base })),
      fanLine(r, v.rules),
      h("p", { class: "score", testid: "score" }, t("sc_score", { score: r.score })),
      paymentsBlock(r, v.rules),
    );
  }

  /** One line of the verdict, shown under the cards (on a phone the verdict is below the keyboard). */
  function summary(v) {
    if (v.kind === "win") return t("sc_summary_win", { score: v.result.score, hu: v.result.hu, tier: term("tier", v.result.tier.name) });
    if (v.kind === "nowin") return t("sc_no_win", { why: pick(v.result.reason_words) });
    if (v.kind === "waits") return v.waits.length ? t("sc_waits", { n: v.waits.length }) : t("sc_no_waits");
    if (v.kind === "error") return t("sc_err", { message: errorText(v.error) });
    if (v.kind === "count") return t("sc_count", { n: v.short.total, need: v.short.need });
    return "";
  }

  function waitsView(box, waits) {
    box.dataset.state = "waits";
    const list = h("div", { class: "sc-waits", testid: "waits", dataset: { count: waits.length } });
    if (!waits.length) append(list, h("p", {}, t("sc_no_waits")));
    for (const w of waits) {
      const label = [t("sc_wait_line", { hu: w.hu, score: w.score }), w.fan.join(listSep())].filter(Boolean).join(" · ");
      const button = h(
        "button",
        {
          type: "button",
          class: "btn sc-wait",
          testid: "wait",
          dataset: { card: w.card, hu: w.hu, score: w.score, fan: JSON.stringify(w.fan) },
          onclick: () => {
            const [c] = SCORER.parseCards(w.card);
            change(() => {
              state.win = c;
            });
          },
        },
        tile(w.card, { size: "s" }),
        h("span", {}, label),
      );
      append(list, button);
    }
    return append(box, h("h3", {}, waits.length ? t("sc_waits", { n: waits.length }) : t("sc_waits_title")), waits.length ? h("p", { class: "muted small" }, t("sc_wait_tap")) : null, list);
  }

  function append(el, ...children) {
    for (const c of children.flat()) if (c) el.append(c);
    return el;
  }

  // ---------------------------------------------------------------- drawing

  function render() {
    if (!alive) return;
    if (!DATA || !ready) {
      replace(root, h("p", { class: "muted" }, t("loading")));
      return;
    }
    const modeButtons = ["hand", "meld", "win"].map((m) =>
      h("button", { type: "button", class: "btn sc-mode", testid: `mode-${m}`, "aria-pressed": "false", onclick: () => setMode(m) }, t(`sc_mode_${m}`)),
    );
    els.modes = modeButtons;
    els.hand = h("div", { class: "sc-line-cards", testid: "hand" });
    els.melds = h("div", { class: "sc-line-cards", testid: "melds" });
    els.win = h("div", { class: "sc-line-cards", testid: "win" });
    els.count = h("p", { class: "muted small sc-count", testid: "count" });
    els.summary = h("button", { type: "button", class: "btn link sc-summary", testid: "summary", onclick: () => els.verdict.scrollIntoView({ block: "start", behavior: "smooth" }) });
    els.meldbar = h("div", { class: "sc-meldbar", testid: "meldbar" });
    els.keys = {};
    const keyRow = (big) =>
      h(
        "div",
        { class: "sc-keyrow" },
        h("span", { class: "sc-keylabel" }, t(big ? "sc_big" : "sc_small")),
        h(
          "div",
          { class: "sc-keygrid" },
          Array.from({ length: 10 }, (_, i) => {
            const id = SCORER.idOf(big, i + 1);
            const ascii = SCORER.asciiOf(id);
            const key = tile(ascii, { button: true, legal: true, testid: `key-${ascii}`, cls: "sc-key", onclick: () => tap(id) });
            const badge = h("span", { class: "sc-left", "aria-hidden": "true" });
            key.append(badge);
            els.keys[id] = { key, badge };
            return key;
          }),
        ),
      );
    els.sources = SOURCES.map((s) =>
      h(
        "button",
        {
          type: "button",
          class: "btn sc-src",
          testid: `source-${s}`,
          "aria-pressed": "false",
          onclick: () =>
            change(() => {
              state.source = s;
              if (s === "tian") {
                state.win = null;
                state.di = false;
                if (state.mode === "win") state.mode = "hand";
              }
            }),
        },
        t(`sc_src_${s}`),
      ),
    );
    els.di = h("button", { type: "button", class: "btn sc-src", testid: "di-toggle", "aria-pressed": "false", onclick: () => change(() => (state.di = !state.di)) }, t("sc_di"));
    els.quan = h(
      "select",
      { testid: "quan", id: "sc-quan", onchange: (e) => change(() => (state.quan = e.target.value ? Number(e.target.value) : null)) },
      h("option", { value: "" }, t("sc_quan_none")),
      Array.from({ length: 10 }, (_, i) => h("option", { value: String(i + 1) }, t("sc_quan_n", { n: i + 1, card: SCORER.charOf(SCORER.idOf(true, i + 1)) }))),
    );
    els.preset = h(
      "select",
      {
        testid: "preset",
        id: "sc-preset",
        onchange: (e) =>
          change(() => {
            state.preset = e.target.value;
            state.over = {};
          }),
      },
      DATA.presets.map((p) => h("option", { value: p.name }, `${pick(p.words)} (${p.name})`)),
    );
    els.options = {};
    els.optionsDrawn = null;
    const optionRows = SCORING_OPTIONS.map((name) => {
      const info = DATA.options.find((o) => o.name === name);
      if (!info) return null;
      const select = h("select", { testid: `opt-${name}`, id: `sc-opt-${name}`, onchange: (e) => setOption(name, JSON.parse(e.target.value)) });
      els.options[name] = { select, info };
      return h("label", { class: "sc-opt" }, h("span", {}, `${pick(info.label)}`, h("span", { class: "muted small" }, ` ${info.rule}`)), select);
    });
    const copy = h("button", { type: "button", class: "btn", testid: "copy-link", onclick: copyLink }, t("sc_copy"));
    els.copy = copy;
    const rulesLink = h("a", { href: "/rules", class: "btn link", testid: "rules-link" }, t("sc_rules_link"));
    rulesLink.addEventListener("click", (e) => {
      if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
      e.preventDefault();
      navigate("/rules");
    });
    els.verdict = h("div", { class: "sc-out" });
    const problems = linkProblems.length ? h("p", { class: "error small", testid: "link-problems" }, t("sc_link_bad", { what: linkProblems.join(" ") })) : null;
    replace(
      root,
      h(
        "section",
        { class: "scorer" },
        h("h1", {}, t("sc_title")),
        h("p", { class: "muted small" }, t("sc_intro")),
        problems,
        h(
          "div",
          { class: "sc-cols" },
          h(
            "div",
            { class: "sc-input" },
            h("div", { class: "sc-modes", role: "group", "aria-label": t("sc_modes") }, modeButtons),
            h("div", { class: "sc-keys", testid: "keyboard" }, keyRow(false), keyRow(true)),
            els.meldbar,
            h(
              "div",
              { class: "card sc-board" },
              h("div", { class: "sc-line" }, h("span", { class: "sc-label" }, t("sc_hand")), els.hand),
              h("div", { class: "sc-line" }, h("span", { class: "sc-label" }, t("sc_melds")), els.melds),
              h("div", { class: "sc-line" }, h("span", { class: "sc-label" }, t("sc_win")), els.win),
              els.count,
              els.summary,
            ),
            h(
              "div",
              { class: "buttons sc-tools" },
              h("button", { type: "button", class: "btn", testid: "undo", onclick: doUndo }, t("sc_undo")),
              h("button", { type: "button", class: "btn", testid: "clear", onclick: () => change(() => (state = { ...emptyState(), preset: state.preset, over: state.over })) }, t("sc_clear")),
              copy,
            ),
            h(
              "div",
              { class: "card sc-context" },
              h("h3", {}, t("sc_source")),
              h("div", { class: "sc-srcs" }, els.sources, els.di),
              h("div", { class: "sc-selects" }, h("label", {}, h("span", {}, t("sc_quan")), els.quan), h("label", {}, h("span", {}, t("sc_rules")), els.preset)),
              h("details", { class: "sc-more" }, h("summary", {}, t("sc_options")), h("div", { class: "sc-opts" }, optionRows)),
            ),
          ),
          h("div", { class: "sc-result" }, els.verdict, h("p", { class: "muted small" }, t("sc_offline_note"), " ", rulesLink)),
        ),
      ),
    );
    update();
  }

  function setMode(m) {
    if (m === "win" && state.source === "tian") return;
    state.mode = m;
    update();
  }

  function setOption(name, value) {
    change(() => {
      const preset = DATA.presets.find((p) => p.name === state.preset);
      const over = { ...state.over };
      if (preset && JSON.stringify(preset.rules[name]) === JSON.stringify(value)) delete over[name];
      else over[name] = value;
      state.over = over;
    });
  }

  function optionWords(info, value) {
    const known = info.values.find((v) => JSON.stringify(v[0]) === JSON.stringify(value));
    if (known) return getLang() === "en" ? known[2] : known[1];
    if (info.number && typeof value === "number") return pick(info.number).replace("{n}", String(value));
    return String(value);
  }

  function doUndo() {
    const prev = undo.pop();
    if (!prev) return;
    const mode = state.mode;
    state = { ...JSON.parse(prev), mode };
    update();
  }

  async function copyLink() {
    const url = new URL(address(), window.location.href).href;
    try {
      await navigator.clipboard.writeText(url);
      toast(t("sc_copied"), "info");
    } catch {
      window.prompt(t("sc_copy"), url);
    }
  }

  function removeButton(card, testid, onclick) {
    const el = tile(SCORER.asciiOf(card), { button: true, legal: true, testid, onclick, size: "s" });
    el.title = `${el.title} · ${t("sc_tap_remove")}`;
    return el;
  }

  function update() {
    if (!alive || !DATA || !els.hand) return;
    if (state.source === "tian" && state.mode === "win") state.mode = "hand";
    // the cards entered, each tap-to-remove
    replace(
      els.hand,
      state.hand.length
        ? state.hand.map((c, i) => removeButton(c, "hand-tile", () => change(() => state.hand.splice(i, 1))))
        : h("span", { class: "muted small" }, t("sc_none")),
    );
    replace(
      els.melds,
      state.melds.length
        ? state.melds.map((m, i) =>
            h(
              "button",
              { type: "button", class: "meld sc-meld", testid: "meld", title: t("sc_tap_remove"), onclick: () => change(() => state.melds.splice(i, 1)) },
              m.cards.map((c) => tile(SCORER.asciiOf(c), { size: "s" })),
              m.yu ? h("span", { class: "meld-name" }, t("sc_tag_yu")) : null,
              h("span", { class: "sc-x", "aria-hidden": "true" }, "×"),
            ),
          )
        : h("span", { class: "muted small" }, t("sc_none")),
    );
    replace(
      els.win,
      state.source === "tian"
        ? h("span", { class: "muted small" }, t("sc_tian_none"))
        : state.win !== null
          ? removeButton(state.win, "win-tile", () => change(() => (state.win = null)))
          : h("span", { class: "muted small" }, t("sc_none")),
    );
    const meldCards = state.melds.reduce((n, m) => n + m.cards.length, 0);
    els.count.textContent = t("sc_counts", { hand: state.hand.length, melds: meldCards, all: state.hand.length + meldCards + (state.win !== null ? 1 : 0) });
    // modes
    for (const [i, m] of ["hand", "meld", "win"].entries()) {
      els.modes[i].setAttribute("aria-pressed", String(state.mode === m));
      els.modes[i].classList.toggle("primary", state.mode === m);
      els.modes[i].disabled = m === "win" && state.source === "tian";
    }
    // the meld being built
    if (state.mode === "meld" || state.building.length) {
      const g = buildingMeld();
      const four = g && g.kind === "kai";
      els.meldbar.hidden = false;
      replace(
        els.meldbar,
        h("span", { class: "sc-label" }, t("sc_building")),
        h(
          "span",
          { class: "tiles sc-building" },
          state.building.length
            ? state.building.map((c, i) => removeButton(c, "building-tile", () => change(() => state.building.splice(i, 1))))
            : h("span", { class: "muted small" }, t("sc_meld_hint")),
        ),
        four
          ? h("label", { class: "sc-yu" }, h("input", { type: "checkbox", testid: "meld-yu", checked: state.buildYu, onchange: (e) => change(() => (state.buildYu = e.target.checked)) }), t("sc_yu"))
          : null,
        h("button", { type: "button", class: "btn primary", testid: "lay-meld", disabled: !g, onclick: layMeld }, g ? t("sc_lay_kind", { kind: groupName({ kind: g.kind, name: SCORER.isBig(g.cards[0]) ? DATA.groups.find((x) => x.kind === g.kind).name_big : DATA.groups.find((x) => x.kind === g.kind).name }) }) : t("sc_lay")),
        state.building.length ? h("button", { type: "button", class: "btn", testid: "cancel-meld", onclick: () => change(() => (state.building = [])) }, t("sc_cancel")) : null,
      );
    } else {
      els.meldbar.hidden = true;
    }
    // the keyboard: copies left of each card
    for (let c = 0; c < 20; c += 1) {
      const { key, badge } = els.keys[c];
      const left = 4 - used(c);
      const usable = state.mode === "win" ? left > 0 || state.win === c : left > 0 && !(state.mode === "meld" && state.building.length >= 4);
      key.disabled = !usable;
      if (usable) key.dataset.legal = "1";
      else delete key.dataset.legal;
      key.classList.toggle("sc-chosen", state.mode === "win" && state.win === c);
      badge.textContent = String(left);
      key.setAttribute("aria-label", `${SCORER.charOf(c)} · ${t("sc_left", { n: left })}`);
    }
    // how it came, the 圈, the rules
    for (const [i, s] of SOURCES.entries()) {
      els.sources[i].setAttribute("aria-pressed", String(state.source === s));
      els.sources[i].classList.toggle("primary", state.source === s);
    }
    els.di.setAttribute("aria-pressed", String(state.di));
    els.di.classList.toggle("primary", state.di);
    els.di.disabled = state.source === "tian";
    els.quan.value = state.quan ? String(state.quan) : "";
    els.preset.value = state.preset;
    const r = rules();
    // the option selects change only with the rules (render() draws them anew for a language)
    const optionsKey = JSON.stringify([r, state.over]);
    for (const [name, { select, info }] of els.optionsDrawn === optionsKey ? [] : Object.entries(els.options)) {
      const values = info.values.map((v) => v[0]);
      for (const n of NUMBERS[name] || []) if (!values.includes(n)) values.push(n);
      if (!values.some((v) => JSON.stringify(v) === JSON.stringify(r[name]))) values.push(r[name]);
      replace(
        select,
        values.map((v) => h("option", { value: JSON.stringify(v), selected: JSON.stringify(v) === JSON.stringify(r[name]) }, optionWords(info, v))),
      );
      select.value = JSON.stringify(r[name]);
      select.classList.toggle("sc-changed", name in state.over);
    }
    els.optionsDrawn = optionsKey;
    const v = compute();
    replace(els.verdict, verdictView(v));
    els.summary.textContent = summary(v);
    els.summary.hidden = v.kind === "empty";
    writeAddress();
  }

  // the hand comes from the address before anything is drawn (drawing writes the address)
  function start() {
    const { s, problems } = readAddress();
    state = s;
    linkProblems = problems;
    ready = true;
    render();
  }
  if (DATA) start();
  else {
    render();
    loadRules()
      .then(() => {
        if (alive) start();
      })
      .catch((err) => {
        if (alive) replace(root, h("p", { class: "error" }, t("err_load", { message: errText(err) })));
      });
  }

  return {
    render,
    destroy() {
      alive = false;
      if (pendingWrite !== null) clearTimeout(pendingWrite);
    },
  };
}
