// The rules page, /rules: 贰柒拾 as erqishi plays it (RULES.md), in the order a learner needs
// it, in Chinese and English (the language toggle). Everything comes from GET /api/rules
// (src/erqishi/server/rules_page.py): the words of each rule with its R-ids and the lesson
// that teaches it (/learn/<id>), and every table generated from the package's own rule data:
// the cards, the hu table, a winning hand, the win sources, each tier table, the 番 with their
// weights and switches, who pays, and the presets side by side. Offline, the service
// worker's copy answers.
//
// data-testid: rules-toc, rule-section (data-id, data-lesson), learn-link, hu-table,
// tier-table (data-tiers), fan-table, payments-table, presets-table, example, open-in-scorer.
import { h, replace } from "./dom.js";
import { t, getLang, errText, listSep } from "./i18n.js";
import { tile, groupName } from "./cards.js";
import { loadRules, registerOffline } from "./score.js";

const pick = (pair) => (Array.isArray(pair) ? pair[getLang() === "en" ? 1 : 0] : "");

export function rulesPage(root, { navigate }) {
  let data = null;
  let alive = true;
  let scrolled = false;

  registerOffline();

  function inApp(href, text, props = {}) {
    const a = h("a", { href, ...props }, text);
    a.addEventListener("click", (e) => {
      if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
      e.preventDefault();
      navigate(href);
    });
    return a;
  }

  /** A link to a section of this page: scrolls there and keeps the anchor in the address
   * (without a navigation, so the page is not rebuilt). */
  function anchor(id, text, props = {}) {
    const a = h("a", { href: `#${id}`, ...props }, text);
    a.addEventListener("click", (e) => {
      const target = document.getElementById(id);
      if (!target) return;
      e.preventDefault();
      target.scrollIntoView({ block: "start" });
      window.history.replaceState({}, "", `/rules#${id}`);
    });
    return a;
  }

  const optionInfo = (name) => data.options.find((o) => o.name === name);
  function valueWords(name, value) {
    const info = optionInfo(name);
    if (!info) return String(value);
    const known = info.values.find((v) => JSON.stringify(v[0]) === JSON.stringify(value));
    if (known) return getLang() === "en" ? known[2] : known[1];
    if (info.number && typeof value === "number") return pick(info.number).replace("{n}", String(value));
    return String(value);
  }
  const presetWords = (name) => pick((data.presets.find((p) => p.name === name) || { words: [name, name] }).words);
  const sourceName = (value) => (data.sources.find((s) => s.value === value) || { name: value }).name;

  // ---------------------------------------------------------------- generated tables

  function cardsTable() {
    const row = (big) =>
      h(
        "div",
        { class: "ru-cardrow" },
        h("span", { class: "ru-cardlabel" }, t(big ? "sc_big" : "sc_small")),
        data.cards
          .filter((c) => c.big === big)
          .map((c) => h("span", { class: "ru-card" }, tile(c.ascii, { size: "s" }), h("span", { class: "ru-ascii" }, c.ascii))),
      );
    return h("div", { class: "ru-cards", testid: "cards-table" }, row(false), row(true), h("p", { class: "muted small" }, t("ru_ejs_note", { ranks: data.ejs_ranks.join(listSep()) })));
  }

  function huTable() {
    return h(
      "table",
      { class: "ru-table", testid: "hu-table" },
      h("thead", {}, h("tr", {}, h("th", {}, t("ru_col_group")), h("th", { class: "num" }, t("ru_col_small")), h("th", { class: "num" }, t("ru_col_big")))),
      h(
        "tbody",
        {},
        data.groups.map((g) =>
          h(
            "tr",
            { dataset: { kind: g.kind } },
            h("td", {}, groupName({ kind: g.kind, name: g.name }), g.name_big !== g.name ? h("span", { class: "muted" }, ` / ${g.name_big}`) : null),
            h("td", { class: "num" }, String(g.hu[0])),
            h("td", { class: "num" }, String(g.hu[1])),
          ),
        ),
      ),
      h("caption", { class: "muted small" }, t("ru_hu_caption", { min: data.min_hu })),
    );
  }

  function scorerHref(ex) {
    const q = new URLSearchParams();
    q.set("h", ex.hand);
    for (const m of ex.melds) q.append("m", m);
    if (ex.win) q.set("w", ex.win);
    q.set("s", ex.source);
    q.set("r", "leshan");
    return `/score?${q.toString()}`;
  }

  function examplesView() {
    return h(
      "div",
      { class: "ru-examples" },
      data.examples.map((ex) =>
        h(
          "div",
          { class: "ru-example", testid: "example" },
          h("h3", {}, pick(ex.words)),
          h(
            "p",
            { class: "ru-example-cards" },
            h("span", { class: "muted small" }, t("sc_hand"), " "),
            h("span", { class: "tiles" }, Array.from(ex.hand).map((c) => tile(c, { size: "s" }))),
            " ",
            ex.melds.length ? h("span", { class: "muted small" }, t("sc_melds"), " ") : null,
            ex.melds.map((m) => h("span", { class: "meld" }, Array.from(m).map((c) => tile(c, { size: "s" })))),
            " ",
            h("span", { class: "muted small" }, t("sc_win"), " "),
            tile(ex.win, { size: "s" }),
          ),
          h(
            "table",
            { class: "groups sc-groups" },
            h(
              "tbody",
              {},
              ex.groups.map((g) =>
                h(
                  "tr",
                  {},
                  h("td", {}, groupName(g)),
                  h("td", {}, h("span", { class: "tiles" }, Array.from(g.cards).map((c) => tile(c, { size: "s" })))),
                  h("td", { class: "num" }, t("hu_unit", { hu: g.hu })),
                  h("td", {}, h("span", { class: "sc-tags" }, g.exposed ? h("span", { class: "tag" }, t("sc_tag_exposed")) : null, g.winning ? h("span", { class: "tag turn" }, t("sc_tag_winning")) : null)),
                ),
              ),
            ),
          ),
          h("p", {}, t("ru_example_total", { hu: ex.hu, tier: ex.tier, base: ex.base, fans: ex.fan.length ? ex.fan.join(listSep()) : t("none"), score: ex.score })),
          inApp(scorerHref(ex), t("ru_open_in_scorer"), { class: "btn small", testid: "open-in-scorer" }),
        ),
      ),
    );
  }

  function sourcesTable() {
    return h(
      "table",
      { class: "ru-table", testid: "sources-table" },
      h("tbody", {}, data.sources.map((s) => h("tr", {}, h("th", {}, s.name, getLang() === "en" ? h("span", { class: "muted" }, ` (${s.value})`) : null), h("td", {}, t(`ru_src_${s.value}`))))),
    );
  }

  function tiersView() {
    return h(
      "div",
      { class: "ru-tiers" },
      Object.entries(data.tiers).map(([name, table]) => {
        const users = data.presets.filter((p) => p.rules.tiers === name).map((p) => p.name);
        return h(
          "div",
          { class: "ru-tier", testid: "tier-table", dataset: { tiers: name } },
          h("h3", {}, `${valueWords("tiers", name)} (${name})`),
          users.length ? h("p", { class: "muted small" }, t("ru_used_by", { presets: users.map(presetWords).join(listSep()) })) : null,
          h(
            "table",
            { class: "ru-table ru-tiertable" },
            h("thead", {}, h("tr", {}, h("th", {}, t("ru_col_hu")), h("th", {}, t("ru_col_tier")), h("th", { class: "num" }, t("ru_col_base")))),
            h(
              "tbody",
              {},
              table.rows.map((row) =>
                h(
                  "tr",
                  {},
                  h("td", {}, row.high === null ? `≥ ${row.low}` : row.low === row.high ? String(row.low) : `${row.low}–${row.high}`),
                  h("td", {}, row.name),
                  h("td", { class: "num" }, row.base === null ? t("ru_top_short") : String(row.base)),
                ),
              ),
            ),
          ),
          table.top_examples.length
            ? h(
                "p",
                { class: "muted small" },
                t("ru_top_formula"),
                " ",
                t("ru_top_examples", { examples: table.top_examples.map(([hu, , base]) => t("ru_example_hu", { hu, base })).join("；") }),
              )
            : null,
        );
      }),
    );
  }

  function fanWeightWords(fan) {
    const parts = [t("ru_weight", { n: fan.weight })];
    for (const [option, values] of Object.entries(fan.weight_by)) {
      for (const [value, w] of Object.entries(values)) {
        if (w === fan.weight) continue;
        const label = pick(optionInfo(option).label);
        const flat = option === data.tianhu_fixed.option && value === data.tianhu_fixed.value;
        parts.push(flat ? t("ru_weight_flat", { option: label, value: valueWords(option, value), score: data.tianhu_fixed.score }) : t("ru_weight_under", { option: label, value: valueWords(option, value), n: w }));
      }
    }
    return parts.join("；");
  }

  function fansTable() {
    const rows = [];
    for (const rule of data.fans) {
      const sw = optionInfo(rule.switch);
      for (const fan of rule.fans) {
        rows.push(
          h(
            "tr",
            { dataset: { fan: fan.name } },
            h("th", {}, fan.name, h("span", { class: "muted small ru-code" }, rule.rule)),
            h("td", {}, pick(fan.words), h("span", { class: "muted small ru-code" }, t("ru_switch", { label: sw ? pick(sw.label) : rule.switch, name: rule.switch }))),
            h("td", {}, fanWeightWords(fan)),
          ),
        );
      }
    }
    return h(
      "div",
      {},
      h(
        "table",
        { class: "ru-table ru-fans", testid: "fan-table" },
        h("thead", {}, h("tr", {}, h("th", {}, t("ru_col_fan")), h("th", {}, t("ru_col_when")), h("th", {}, t("ru_col_weight")))),
        h("tbody", {}, rows),
      ),
      h("p", { class: "muted small" }, t("ru_fan_note")),
    );
  }

  function paymentsView() {
    const groups = [];
    for (const row of data.payments) {
      const key = `${row.players}|${row.preset || ""}|${row.score}`;
      let g = groups.find((x) => x.key === key);
      if (!g) groups.push((g = { key, rows: [], first: row }));
      g.rows.push(row);
    }
    return h(
      "div",
      { class: "ru-payments", testid: "payments-table" },
      groups.map((g) =>
        h(
          "div",
          { class: "ru-pay" },
          h(
            "h3",
            {},
            g.first.preset ? t("ru_pay_preset", { preset: presetWords(g.first.preset), cap: g.first.cap, score: g.first.score }) : t("ru_pay_players", { n: g.first.players, score: g.first.score }),
          ),
          h(
            "table",
            { class: "ru-table" },
            h(
              "tbody",
              {},
              g.rows.map((row) =>
                h(
                  "tr",
                  {},
                  h("th", {}, sourceName(row.source)),
                  h(
                    "td",
                    {},
                    row.roles
                      .map((role, i) => `${t(`sc_role_${role}`)} ${row.payments[i] > 0 ? "+" : ""}${row.payments[i]}`)
                      .join(" · "),
                  ),
                ),
              ),
            ),
          ),
        ),
      ),
    );
  }

  function presetsTable() {
    const head = h("tr", {}, h("th", {}, t("ru_col_option")), data.presets.map((p) => h("th", { dataset: { preset: p.name } }, pick(p.words), h("span", { class: "muted small ru-code" }, p.name))));
    const rows = data.options.map((o) =>
      h(
        "tr",
        { dataset: { option: o.name } },
        h("th", { title: pick(o.meaning) }, pick(o.label), h("span", { class: "muted small ru-code" }, o.rule)),
        data.presets.map((p) => h("td", { class: p.differs.includes(o.name) ? "ru-diff" : null, dataset: { preset: p.name } }, pick(p.words_of[o.name]))),
      ),
    );
    return h(
      "div",
      {},
      h("ul", { class: "ru-about" }, data.presets.map((p) => h("li", {}, h("b", {}, pick(p.words)), " — ", p.differs.length ? p.differs.map((n) => `${pick(optionInfo(n).label)} ${pick(p.words_of[n])}`).join("；") : t("ru_preset_default")))),
      h("table", { class: "ru-table ru-presets", testid: "presets-table" }, h("thead", {}, head), h("tbody", {}, rows)),
      h("p", { class: "muted small" }, t("ru_diff_note")),
      h("dl", { class: "ru-meanings" }, data.options.map((o) => [h("dt", {}, pick(o.label), h("span", { class: "muted small" }, ` ${o.name} · ${o.rule}`)), h("dd", {}, pick(o.meaning))])),
    );
  }

  const TABLES = { cards: cardsTable, hu: huTable, example: examplesView, sources: sourcesTable, tiers: tiersView, fans: fansTable, payments: paymentsView, presets: presetsTable };

  // ---------------------------------------------------------------- the page

  function section(s) {
    const table = s.table && TABLES[s.table] ? TABLES[s.table]() : null;
    return h(
      "section",
      { id: s.id, class: "card ru-section", testid: "rule-section", dataset: { id: s.id, lesson: s.lesson, rules: s.rules.join(" ") } },
      h("h2", {}, pick(s.title), " ", anchor(s.id, "#", { class: "ru-anchor", "aria-label": t("ru_anchor") })),
      h("p", { class: "ru-ids muted small" }, s.rules.join(" · ")),
      s.body.map((p) => h("p", {}, pick(p))),
      table,
      h("p", { class: "ru-learn" }, inApp(`/learn/${s.lesson}`, t("ru_learn"), { class: "btn small", testid: "learn-link", dataset: { lesson: s.lesson } })),
    );
  }

  function render() {
    if (!alive) return;
    if (!data) {
      replace(root, h("p", { class: "muted" }, t("loading")));
      return;
    }
    const toc = h(
      "nav",
      { class: "card ru-toc", testid: "rules-toc" },
      h("h2", {}, t("ru_contents")),
      h("ol", {}, data.sections.map((s) => h("li", {}, anchor(s.id, pick(s.title))))),
    );
    replace(
      root,
      h(
        "article",
        { class: "rules-page", testid: "rules-page" },
        h("h1", {}, t("ru_title")),
        h("p", { class: "muted" }, t("ru_intro")),
        h("p", {}, inApp("/score", t("ru_scorer_link"), { class: "btn", testid: "scorer-link" })),
        toc,
        data.sections.map(section),
      ),
    );
    if (!scrolled && window.location.hash) {
      scrolled = true;
      const target = document.getElementById(decodeURIComponent(window.location.hash.slice(1)));
      if (target) target.scrollIntoView({ block: "start" });
    }
  }

  loadRules()
    .then((d) => {
      data = d;
      render();
    })
    .catch((err) => {
      if (alive) replace(root, h("p", { class: "error" }, t("err_load", { message: errText(err) })));
    });
  render();

  return {
    render,
    destroy() {
      alive = false;
    },
  };
}
