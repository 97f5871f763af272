// /history: the stored matches (GET /api/matches), each opening its hands
// (GET /api/matches/ID) with a link to every hand's replay (/replay/ID).
//
// data-testid: match (one match, data-id), match-status (data-status finished | ended_early |
// running), open-match (show its hands), match-hands (the
// list), hand-link (a hand's replay link, data-id), more-matches (load older matches),
// download-match / download-hand (the record as a JSON file, FORMATS.md: GET
// /api/matches/ID/record, /api/hands/ID/record); match-tournament (a 争霸赛 table's match: its
// tournament, round and table, a link to the standings), match-sealed (its round is still
// played: its hands are shown once every table has finished), history-tournaments (the
// tournaments, each linking to its standings page /t/ID).
import { h, replace, getJSON, toast, arr, signed } from "./dom.js";
import { presetName } from "./lobby.js";
import { t, getLang, errText } from "./i18n.js";
import { seatLabel } from "./names.js";

/** A link that saves a record (FORMATS.md) as a JSON file. */
export function downloadLink(href, testid, label) {
  const name = href.replace(/^\/api\/(matches|hands)\/(\d+)\/record$/, (_, kind, id) => `erqishi-${kind === "hands" ? "hand" : "match"}-${id}.json`);
  return h("a", { href, download: name, testid, class: "btn small link", type: "application/json" }, label);
}

const PAGE = 20;

/** "finished", "ended_early" (a 解散 vote ended it) or "running", as the API says (older
 * servers: from `finished`). */
function matchStatus(m) {
  if (m.status === "ended_early" || m.status === "finished" || m.status === "running") return m.status;
  return m.finished ? "finished" : "running";
}

function when(iso) {
  if (typeof iso !== "string") return "";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(getLang() === "en" ? "en-GB" : "zh-CN");
}

export function historyPage(root, { navigate }) {
  let matches = [];
  let done = false;
  let loading = false;
  let failed = null;
  const open = new Map(); // match id -> {hands, error} or "loading"
  let destroyed = false;
  let contests = []; // GET /api/tournaments: the newest tournaments, linked to their standings

  async function loadMore() {
    if (loading || done) return;
    loading = true;
    render();
    try {
      const body = await getJSON(`/api/matches?limit=${PAGE}&offset=${matches.length}`);
      const got = arr(body.matches).filter((m) => m && typeof m === "object");
      matches = matches.concat(got);
      if (got.length < PAGE) done = true;
      failed = null;
    } catch (err) {
      failed = errText(err);
    }
    loading = false;
    if (!destroyed) render();
  }

  async function toggle(id) {
    if (open.has(id)) {
      open.delete(id);
      render();
      return;
    }
    open.set(id, "loading");
    render();
    try {
      const body = await getJSON(`/api/matches/${encodeURIComponent(id)}`);
      open.set(id, { hands: arr(body.hands) });
    } catch (err) {
      open.set(id, { hands: [], error: errText(err) });
      toast(errText(err));
    }
    if (!destroyed) render();
  }

  function handRow(hand, seats) {
    const name = (s) => (Number.isInteger(s) ? (typeof seats[s] === "string" && seats[s] && seatLabel(seats[s])) || t("seat_n", { n: s }) : "-");
    const what =
      hand.kind === "win"
        ? t("hand_win", { who: name(hand.winner), score: hand.score ?? "?" })
        : hand.kind === "dead"
          ? t("hand_dead")
          : String(hand.kind ?? "");
    const link = h("a", { href: `/replay/${encodeURIComponent(hand.id)}`, testid: "hand-link", dataset: { id: hand.id }, class: "btn small" }, t("replay"));
    link.addEventListener("click", (e) => {
      if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
      e.preventDefault();
      navigate(`/replay/${encodeURIComponent(hand.id)}`);
    });
    return h(
      "li",
      { class: "hand-row" },
      h("span", {}, t("hand_n", { n: Number.isInteger(hand.index) ? hand.index + 1 : "?" })),
      hand.quan !== null && hand.quan !== undefined ? h("span", { class: "muted" }, t("quan_short", { n: hand.quan })) : null,
      h("span", { class: "muted" }, t("status_dealer", { who: name(hand.dealer) })),
      h("span", {}, what),
      h("span", { class: "spacer" }),
      link,
      downloadLink(`/api/hands/${encodeURIComponent(hand.id)}/record`, "download-hand", t("download_record")),
    );
  }

  function matchItem(m) {
    const seats = arr(m.seats);
    const totals = arr(m.totals);
    const leaders = arr(m.leaders);
    const state = open.get(m.id);
    const players = seats.map((name, i) =>
      h("span", { class: `player${leaders.includes(i) ? " leader" : ""}` }, `${typeof name === "string" ? seatLabel(name) : t("seat_n", { n: i })} ${totals[i] !== undefined ? signed(totals[i]) : ""}`),
    );
    let hands = null;
    if (state === "loading") hands = h("p", { class: "muted" }, t("loading"));
    else if (state) {
      hands = state.hands.length
        ? h("ol", { class: "hands", testid: "match-hands" }, state.hands.filter((x) => x && typeof x === "object").map((x) => handRow(x, seats)))
        : h("p", { class: "muted", testid: "match-hands" }, state.error || t("no_hands"));
    }
    const preset = typeof m.preset === "string" ? presetName(m.preset) : "";
    const tm = m.tournament && typeof m.tournament === "object" ? m.tournament : null;
    const contest = tm
      ? h(
          "p",
          { class: "muted small", testid: "match-tournament" },
          pageLink(`/t/${encodeURIComponent(tm.id)}`, t(tm.final ? "tm_final" : "tm_match", { name: tm.name || `#${tm.id}`, round: tm.round, table: Number(tm.table) + 1 })),
          m.sealed ? h("span", { testid: "match-sealed" }, ` · ${t("tm_sealed")}`) : null,
        )
      : null;
    return h(
      "li",
      { class: "card match", testid: "match", dataset: { id: m.id } },
      h(
        "div",
        { class: "match-head" },
        h("strong", {}, when(m.created)),
        h("span", { class: "muted" }, [preset, m.room ? `${t("room")} ${m.room}` : "", t("hands_count", { n: m.hands ?? 0 })].filter(Boolean).join(" · ")),
        // ended by a 解散 vote: stored as ended early, not as finished
        h(
          "span",
          { class: `match-status${m.status === "ended_early" ? " ended-early" : ""}`, testid: "match-status", dataset: { status: matchStatus(m) } },
          t(matchStatus(m) === "ended_early" ? "ended_early" : matchStatus(m) === "finished" ? "finished" : "unfinished"),
        ),
      ),
      contest,
      h("div", { class: "players" }, players),
      m.sealed
        ? null
        : h(
            "p",
            { class: "buttons" },
            h("button", { type: "button", class: "btn small", testid: "open-match", onclick: () => toggle(m.id) }, state ? t("hide_hands") : t("show_hands")),
            m.hands ? downloadLink(`/api/matches/${encodeURIComponent(m.id)}/record`, "download-match", t("download_match")) : null,
          ),
      hands,
    );
  }

  function pageLink(href, text) {
    const a = h("a", { href }, text);
    a.addEventListener("click", (e) => {
      if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
      e.preventDefault();
      navigate(href);
    });
    return a;
  }

  function render() {
    if (destroyed) return;
    const tournaments = contests.length
      ? h(
          "p",
          { class: "tm-history", testid: "history-tournaments" },
          `${t("nav_tournaments")}${t("colon")}`,
          contests.map((c, i) => [i ? " · " : "", pageLink(`/t/${encodeURIComponent(c.id)}`, String(c.name ?? `#${c.id}`))]),
        )
      : null;
    const list = matches.length
      ? h("ol", { class: "matches" }, matches.map(matchItem))
      : loading
        ? h("p", { class: "muted" }, t("loading"))
        : h("p", { class: "muted", testid: "no-matches" }, failed ? t("err_load", { message: failed }) : t("no_matches"));
    replace(
      root,
      h(
        "section",
        { class: "history" },
        h("h1", {}, t("history")),
        tournaments,
        list,
        failed && matches.length ? h("p", { class: "error" }, t("err_load", { message: failed })) : null,
        !done && matches.length ? h("button", { type: "button", class: "btn", testid: "more-matches", disabled: loading, onclick: loadMore }, t("more")) : null,
      ),
    );
  }

  loadMore();
  getJSON("/api/tournaments?limit=10")
    .then((body) => {
      contests = arr(body.tournaments).filter((c) => c && Number.isInteger(c.id));
      if (!destroyed && contests.length) render();
    })
    .catch(() => null);
  return {
    render,
    destroy() {
      destroyed = true;
    },
  };
}
