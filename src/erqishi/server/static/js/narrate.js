// The one narration of events (src/erqishi/play/narrate.py), rendered in the browser.
// The sentences come from the server (GET /api/narration: erqishi.play.narrate.TEMPLATES);
// this module only fills them, with the same parameters as the Python narrate_lines(),
// so a move reads the same in the web log, the web replay, the terminal and `erqishi replay`.
import { getJSON, arr } from "./dom.js";
import { getLang } from "./i18n.js";
import { face, faces, kuai } from "./cards.js";

let TEMPLATES = null;

/** Fetch the sentences once (before the first page renders). */
export async function loadNarration() {
  const body = await getJSON("/api/narration");
  TEMPLATES = body && typeof body.templates === "object" ? body.templates : {};
}

/** The sentence `key` in the current language (its key if unknown). */
export function sentence(key) {
  const entry = TEMPLATES && TEMPLATES[key];
  if (!Array.isArray(entry)) return key;
  return getLang() === "en" ? entry[1] : entry[0];
}

/** A tier's or a 番's Chinese name as the reader reads it (term() in Python): the name in
 * Chinese; in English the name with its gloss ("小和 (small win)"). */
export function term(kind, name) {
  const entry = TEMPLATES && TEMPLATES[`${kind}_${name}`];
  return getLang() === "en" && Array.isArray(entry) ? entry[1] : String(name);
}

/** `text` with every {name} replaced in one pass (as _fill in Python): a value that reads
 * like a placeholder (a player named "{card}") stays as it is; unknown names are left. */
function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (m, name) => (Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : m));
}

const plus = (v) => {
  const n = Number(v) || 0;
  return n >= 0 ? `+${n}` : String(n);
};

function scores(values, nm) {
  return arr(values)
    .map((v, s) => `${nm.who(s)} ${plus(v)}`)
    .join(sentence("score_sep"));
}

/** The lines of one event (a settled hand has several), as narrate_lines() in Python. */
export function eventLines(ev, nm) {
  if (!ev || typeof ev !== "object") return [];
  const seat = ev.seat;
  const base = { who: nm.who(seat), s: nm.s(seat) };
  switch (ev.event) {
    case "dealt": {
      const lines = [fill(sentence("dealt"), { hand: ev.hand, quan: ev.quan, dealer: nm.who(ev.dealer) })];
      if (Number.isInteger(ev.sits_out)) lines.push(fill(sentence("sits_out"), { who: nm.who(ev.sits_out), s: nm.s(ev.sits_out) }));
      return lines;
    }
    case "flipped":
      return [fill(sentence("flipped"), { ...base, card: face(ev.card), left: ev.stock_left })];
    case "discarded":
      return [fill(sentence("discarded"), { ...base, card: face(ev.card) })];
    case "took": {
      if (ev.take === "chi") {
        const groups = arr(ev.bai).map((g) => faces(g));
        const bai = groups.length ? fill(sentence("bai"), { ...base, groups: groups.join(" / ") }) : "";
        return [fill(sentence("took_chi"), { ...base, card: face(ev.card), pair: faces(ev.cards), bai })];
      }
      const key = ev.yu ? "took_kai_yu" : `took_${ev.take}`;
      return [fill(sentence(key), { ...base, card: face(ev.card) })];
    }
    case "announced":
      return [fill(sentence("announced"), { ...base, kuai: kuai(ev.count), count: ev.count })];
    case "passed":
      return [fill(sentence("passed"), { card: face(ev.card) })];
    case "won":
      if (!ev.card) return [fill(sentence("won_tian"), base)];
      return [fill(sentence("won"), { ...base, card: face(ev.card), source: sentence(`source_${ev.source}`) })];
    case "dead":
      return [sentence("dead")];
    case "scored":
      return scoredLines(ev, nm);
    case "match_over":
      return [
        fill(sentence("match_over"), {
          totals: scores(ev.totals, nm),
          leaders: arr(ev.leaders)
            .map((s) => nm.who(s))
            .join(sentence("list_sep")),
        }),
      ];
    default:
      return typeof ev.event === "string" ? [ev.event] : [];
  }
}

function scoredLines(ev, nm) {
  const lines = [];
  if (ev.kind === "win") {
    const fans = arr(ev.fan).map((f) => term("fan", f)).join(sentence("list_sep")) || sentence("none");
    const tier = ev.tier && typeof ev.tier === "object" ? ev.tier : null;
    lines.push(
      fill(sentence("scored_win"), {
        who: nm.who(ev.winner),
        s: nm.s(ev.winner),
        score: ev.score,
        hu: ev.hu,
        tier: tier ? term("tier", tier.name) : "-",
        base: tier ? tier.base : 0,
        fans,
      }),
    );
    for (const g of arr(ev.groups)) {
      const where = g.exposed ? sentence("where_exposed") : g.winning ? sentence("where_winning") : "";
      const glossed = getLang() === "en" && TEMPLATES && Array.isArray(TEMPLATES[`group_${g.kind}`]);
      const name = glossed ? sentence(`group_${g.kind}`) : g.name;
      lines.push(fill(sentence("scored_group"), { name, cards: faces(g.cards), where, hu: g.hu }));
    }
    lines.push(fill(sentence("scored_payments"), { payments: scores(ev.payments, nm) }));
  }
  // a dead hand pays nothing: its dead event told it all, but for the match totals
  const totals = arr(ev.totals);
  const payments = arr(ev.payments);
  if (totals.length !== payments.length || totals.some((v, i) => v !== payments[i])) {
    lines.push(fill(sentence("scored_totals"), { totals: scores(totals, nm) }));
  }
  return lines;
}

/** One line for an event in a log (a settled hand shows its first line). */
export function eventText(ev, nm) {
  return eventLines(ev, nm)[0] || "";
}

/** Why the engine refuses a move (a `game.refusals` entry), in the reader's language, as
 * erqishi.play.narrate.explain() words it; a reason without a sentence reads as the
 * engine's message. */
export function refusalText(r) {
  if (!r || typeof r !== "object") return "";
  const key = `why_${r.reason}`;
  const entry = TEMPLATES && TEMPLATES[key];
  if (!Array.isArray(entry) || key === "why_card") return String(r.message || "");
  return fill(sentence(key), { card: r.card ? face(r.card) : "", rule: String(r.rule || ""), message: String(r.message || "") });
}

/** "三 cannot be discarded: …" for a refused discard. */
export function cardRefusalText(r) {
  return fill(sentence("why_card"), { card: r && r.card ? face(r.card) : "", why: refusalText(r) });
}
