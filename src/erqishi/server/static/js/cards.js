// Cards and actions: the ASCII forms of FORMATS.md (x1…x10 小 一…十, d1…d10 大 壹…拾)
// shown as Chinese faces, and labels for the actions in the words of the terminal game.
import { h } from "./dom.js";
import { t, getLang } from "./i18n.js";

const SMALL = ["一", "二", "三", "四", "五", "六", "七", "八", "九", "十"];
const BIG = ["壹", "贰", "叁", "肆", "伍", "陆", "柒", "捌", "玖", "拾"];
/** The ranks of 二七十 / 贰柒拾 (2, 7, 10): marked under the face, not by a colour (大 are red, 小 black). */
const EJS_RANKS = new Set([2, 7, 10]);

/** {big, rank} of "x3" / "d10" / "三" / "拾", or null for anything else. */
export function parseCard(card) {
  if (typeof card !== "string") return null;
  const m = /^([xd])(\d{1,2})$/i.exec(card.trim());
  if (m) {
    const rank = Number(m[2]);
    return rank >= 1 && rank <= 10 ? { big: m[1].toLowerCase() === "d", rank } : null;
  }
  const s = SMALL.indexOf(card);
  if (s >= 0) return { big: false, rank: s + 1 };
  const b = BIG.indexOf(card);
  if (b >= 0) return { big: true, rank: b + 1 };
  return null;
}

/** The Chinese face of a card ("x7" → 七, "d7" → 柒); unknown input comes back as text. */
export function face(card) {
  const c = parseCard(card);
  if (!c) return card === null || card === undefined ? "?" : String(card);
  return (c.big ? BIG : SMALL)[c.rank - 1];
}

/** A card list as one string of faces ("x7 x8" → 七八). */
export function faces(cards) {
  return cardList(cards).map(face).join("");
}

/** A card list from an array or a string of ASCII tokens or Chinese characters. */
export function cardList(cards) {
  if (Array.isArray(cards)) return cards.filter((c) => typeof c === "string");
  if (typeof cards !== "string") return [];
  const s = cards.trim();
  if (!s) return [];
  if (/[xd]\d/i.test(s)) return s.split(/[\s,]+/).filter(Boolean);
  return Array.from(s).filter((ch) => parseCard(ch));
}

/** Display order: small before big, then by rank. */
export function sortCards(cards) {
  const key = (c) => {
    const p = parseCard(c);
    return p ? (p.big ? 10 : 0) + p.rank : 99;
  };
  return cardList(cards).slice().sort((a, b) => key(a) - key(b));
}

/** A tooltip naming the card: "小七 (x7) · 二七十" / "small 7 (x7) · of 二七十". */
export function cardTitle(card) {
  const c = parseCard(card);
  if (!c) return String(card);
  const ascii = `${c.big ? "d" : "x"}${c.rank}`;
  const name = t(c.big ? "card_big" : "card_small", { face: face(card), rank: c.rank });
  return EJS_RANKS.has(c.rank) ? `${name} (${ascii}) · ${t("card_ejs")}` : `${name} (${ascii})`;
}

/**
 * One card tile. Options: size ("s" small), testid, legal (clickable), onclick, extra class.
 * 大 cards have the "big" style, 小 the "small" style; 二七十/贰柒拾 are underlined. In
 * English the rank (1-10) stands in a corner of the tile.
 */
export function tile(card, opts = {}) {
  const c = parseCard(card);
  const classes = ["tile"];
  if (c) classes.push(c.big ? "big" : "small");
  if (c && EJS_RANKS.has(c.rank)) classes.push("ejs");
  if (opts.size === "s") classes.push("tile-s");
  if (opts.cls) classes.push(opts.cls);
  const props = {
    class: classes.join(" "),
    title: cardTitle(card),
    testid: opts.testid,
    // the rank 1-10, shown in a corner of the tile on English pages (style.css) for readers
    // who do not read the Chinese numerals yet
    dataset: { card: typeof card === "string" ? card : null, rank: c ? String(c.rank) : null },
  };
  if (opts.button) {
    props.type = "button";
    if (opts.legal) {
      props.dataset.legal = "1";
      props.onclick = opts.onclick;
    } else if (opts.why) {
      // refused by the engine: says why on hover (title) and on tap (opts.onwhy)
      props["aria-disabled"] = "true";
      props.class += " refused";
      props.title = `${cardTitle(card)}: ${opts.why}`;
      props.dataset.why = opts.why;
      props.onclick = opts.onwhy;
    } else {
      props.disabled = true;
    }
    props["aria-label"] = opts.why ? `${cardTitle(card)}: ${opts.why}` : cardTitle(card);
    return h("button", props, face(card));
  }
  return h("span", props, face(card));
}

/** A row of small tiles for a card list. */
export function tiles(cards, size = "s") {
  return h("span", { class: "tiles" }, cardList(cards).map((c) => tile(c, { size })));
}

/** {kind, cards, bai, raw} of an ASCII action such as "chi x7 x8 bai x6 x7 x8". */
export function parseAction(raw) {
  const text = typeof raw === "string" ? raw.trim() : "";
  const words = text.split(/\s+/);
  const kind = (words[0] || "").toLowerCase();
  const cards = [];
  const bai = [];
  let current = cards;
  for (const w of words.slice(1)) {
    if (w.toLowerCase() === "bai") {
      current = [];
      bai.push(current);
    } else current.push(w);
  }
  return { kind, cards, bai, raw: text };
}

/**
 * An action for display. 吃 names the card taken: "吃捌：八八 + 摆 陆柒捌 / 柒捌玖"
 * (English "Chow 捌 with 八八 + lay down 陆柒捌"); 对/开/胡/过; 打 for a discard.
 */
export function actionLabel(raw, pending) {
  const a = parseAction(raw);
  const en = getLang() === "en";
  switch (a.kind) {
    case "chi": {
      let text = t("chi_label", { card: pending ? face(pending) : "?", pair: faces(a.cards) });
      if (a.bai.length) text += t("chi_bai", { groups: a.bai.map(faces).join(" / ") });
      return text;
    }
    case "discard":
      return t("discard_card", { card: faces(a.cards) });
    case "dui":
      return en ? "Pung (对)" : "对";
    case "kai":
      return en ? "Kong (开)" : "开";
    case "hu":
      return en ? "Win (胡)" : "胡";
    case "pass":
      return en ? "Pass (过)" : "过";
    default:
      return a.raw || "?";
  }
}

/** The Chinese count of a 八块 announcement: 8 → 八块, 12 → 十二块. */
export function kuai(count) {
  const n = Number(count) || 0;
  const digits = ["零", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
  let word;
  if (n < 10) word = digits[n];
  else if (n < 20) word = "十" + (n % 10 ? digits[n % 10] : "");
  else if (n < 100) word = digits[Math.floor(n / 10)] + "十" + (n % 10 ? digits[n % 10] : "");
  else word = String(n);
  return `${word}块`;
}

/** The Chinese group name with the English kind in English mode: "顺子 (run)". */
export function groupName(group) {
  const name = group && typeof group.name === "string" ? group.name : "";
  const kind = group && typeof group.kind === "string" ? group.kind : "";
  if (getLang() !== "en") return name || kind;
  const en = { run: "run", ejs: "2-7-10", hua: "mixed", dui: "pung", kan: "kan", kai: "kong", gun: "gun", pair: "pair" };
  const word = en[kind] || kind;
  return name ? (word ? `${name} (${word})` : name) : word;
}
