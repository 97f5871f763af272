// The pocket scorer's scoring, done in the page so it works offline: an exact
// implementation of RULES.md R-3 (groups, hu; locks; the winning card's place),
// R-4.4 (seven groups; quads and the pair), R-5.13 (yu), R-6.1 (10 hu), R-7 (the best
// grouping by, tiers, 番, score) and R-8 (payments), for every
// rule option of R-10 that scoring reads.
//
// Only the logic is written here. Every number comes from the package's own rule data,
// served by GET /api/rules (src/erqishi/server/rules_page.py): the hu table (HU_TABLE), the
// ranks of 二七十, the tier of every hu (TIER_ROWS / tier_of), the 番 registry (FAN_RULES:
// names, switches, weights under each option), the flat 天胡 score, every preset's options
// and the 抬炮 multiple by player count. tests/server/test_score_page.py checks that this
// file agrees with the package (erqishi score) on every worked case and hundreds of random
// hands.
//
// The search is a plain exact enumeration, like tests/support/bruteforce.py: the locked
// 坎/滚 are fixed (a 坎 of the winning card's identity may take it as a 开), the
// winning card may go onto an exposed 对 under yu, and the free cards (at most two of an
// identity, three with the winning card) are cut into groups in every way, lowest card
// first. Every grouping of is scored and the best kept.
//
// Cards are numbered 0-19 as in the package (Card values): 小 一…十 0-9, 大 壹…拾 10-19.

const SEPARATORS = new Set([" ", "\t", "\r", "\n", ",", "，", "、", ";", "\u3000", "\xa0"]);

/** An error of the input (a bad card, a meld that is no group, a fifth copy…): `code` names
 * it, `params` fill its message (i18n.js sc_err_<code>), `message` says it in English. */
export class ScoreError extends Error {
  constructor(code, message, params = {}) {
    super(message);
    this.code = code;
    this.params = params;
  }
}

/** A scorer over the rule data of GET /api/rules. */
export function createScorer(data) {
  const cards = data.cards; // [{id, ascii, char, big, rank}] by id
  const charToId = new Map(cards.map((c) => [c.char, c.id]));
  const asciiOf = (id) => cards[id].ascii;
  const charOf = (id) => cards[id].char;
  const ejs = data.ejs_ranks; // [2, 7, 10]
  const kinds = Object.fromEntries(data.groups.map((g) => [g.kind, g]));
  const COPIES = data.copies;
  const presets = Object.fromEntries(data.presets.map((p) => [p.name, p]));
  const optionNames = new Set(data.options.map((o) => o.name));
  const optionByName = new Map(data.options.map((o) => [o.name, o]));

  /** Whether `value` is one the package accepts for option `name`: one of its listed
   * values, or a whole number within its range. */
  function validValue(name, value) {
    const o = optionByName.get(name);
    if (!o) return false;
    if (o.values.some((v) => v[0] === value)) return true;
    if (!o.range || typeof value !== "number" || !Number.isInteger(value)) return false;
    const [low, high] = o.range;
    return value >= low && (high === null || value <= high);
  }
  const reasonWords = Object.fromEntries(data.reasons.map((r) => [r.value, r.words]));

  const isBig = (id) => id >= 10;
  const rankOf = (id) => (id % 10) + 1;
  const idOf = (big, rank) => (big ? 10 : 0) + rank - 1;

  // ------------------------------------------------------------------ notation

  /** The cards of a card list, Chinese characters and/or ASCII tokens (x1…x10, d1…d10). */
  function parseCards(text) {
    const out = [];
    const s = String(text ?? "");
    let i = 0;
    while (i < s.length) {
      const ch = s[i];
      if (SEPARATORS.has(ch)) {
        i += 1;
        continue;
      }
      if (charToId.has(ch)) {
        out.push(charToId.get(ch));
        i += 1;
        continue;
      }
      const end = asciiEnd(s, i);
      if (end) {
        const digits = s.slice(i + 1, end);
        const n = Number(digits);
        if (n >= 1 && n <= 10 && digits[0] !== "0") {
          out.push(idOf("dD".includes(ch), n));
          i = end;
          continue;
        }
        throw new ScoreError("bad_card", `bad card ${s.slice(i, end)}: a rank is 1-10`, { token: s.slice(i, end), position: i });
      }
      let k = i + 1;
      while (k < s.length && !SEPARATORS.has(s[k]) && !charToId.has(s[k]) && !asciiEnd(s, k)) k += 1;
      const token = s.slice(i, k);
      throw new ScoreError("bad_card", `bad card ${token}: cards are 一…十, 壹…拾, x1…x10 or d1…d10`, { token, position: i });
    }
    return out;
  }

  function asciiEnd(s, i) {
    if (!"xXdD".includes(s[i])) return 0;
    let j = i + 1;
    while (j < s.length && s[j] >= "0" && s[j] <= "9") j += 1;
    return j > i + 1 ? j : 0;
  }

  /** 顺子 (run), 二七十 (ejs) or 花吃 (hua) of three cards, else null. */
  function classifyTriple(ids) {
    const [a, b, c] = ids.slice().sort((x, y) => x - y);
    if (a === b && b === c) return null;
    if (isBig(a) === isBig(b) && isBig(b) === isBig(c)) {
      if (b === a + 1 && c === b + 1) return "run";
      if (rankOf(a) === ejs[0] && rankOf(b) === ejs[1] && rankOf(c) === ejs[2]) return "ejs";
      return null;
    }
    if (rankOf(a) === rankOf(b) && rankOf(b) === rankOf(c)) return "hua";
    return null;
  }

  /** A group: its kind, cards (sorted), hu, exposed, winning, yu. */
  function group(kind, ids, exposed = false, winning = false, yu = false) {
    const sorted = ids.slice().sort((x, y) => x - y);
    const hu = kinds[kind].hu[isBig(sorted[0]) ? 1 : 0];
    return { kind, cards: sorted, hu, exposed, winning, yu };
  }

  /** An exposed meld from its cards (cases/README.md): 3 identical 对, 4 identical 开, a 对
   * plus its fourth written 三三三+三 a 开 made under yu, otherwise 顺子/二七十/花吃. */
  function parseMeld(meld) {
    if (meld && typeof meld === "object") {
      const ids = meld.cards.slice();
      const g = parseMeldCards(ids, String(ids.map(charOf).join("")));
      if (meld.yu) {
        if (g.kind !== "kai") throw new ScoreError("bad_meld", `meld ${ids.map(charOf).join("")} is not a group`, { text: ids.map(charOf).join("") });
        g.yu = true;
      }
      return g;
    }
    const text = String(meld);
    const plus = text.indexOf("+");
    if (plus >= 0) {
      const dui = parseCards(text.slice(0, plus));
      const fourth = parseCards(text.slice(plus + 1));
      if (dui.length === 3 && new Set(dui).size === 1 && fourth.length === 1 && fourth[0] === dui[0]) {
        return group("kai", dui.concat(fourth), true, false, true);
      }
      throw new ScoreError("bad_meld", `meld ${text} is not a group`, { text });
    }
    return parseMeldCards(parseCards(text), text);
  }

  function parseMeldCards(ids, text) {
    const same = ids.length > 0 && new Set(ids).size === 1;
    if (ids.length === 4 && same) return group("kai", ids, true);
    if (ids.length === 3) {
      if (same) return group("dui", ids, true);
      const kind = classifyTriple(ids);
      if (kind) return group(kind, ids, true);
    }
    throw new ScoreError("bad_meld", `meld ${text} is not a group`, { text });
  }

  // ------------------------------------------------------------------ rule sets

  /** Every option of a rule set from a preset name, or options over `leshan` (a "preset"
   * key names another base preset), as RuleSet.load reads them. */
  function rulesOf(spec) {
    if (spec === undefined || spec === null || spec === "") spec = "leshan";
    if (typeof spec === "string") {
      const text = spec.trim();
      if (text.startsWith("{")) {
        try {
          spec = JSON.parse(text);
        } catch {
          throw new ScoreError("bad_rules", `rule options are not valid JSON`, { spec: text });
        }
      } else {
        const preset = presets[text];
        if (!preset) throw new ScoreError("bad_rules", `unknown rules preset ${text}`, { spec: text });
        return { ...preset.rules };
      }
    }
    if (typeof spec !== "object" || Array.isArray(spec)) throw new ScoreError("bad_rules", "rules must be a preset or options", { spec: String(spec) });
    const base = typeof spec.preset === "string" ? spec.preset : "leshan";
    if (!presets[base]) throw new ScoreError("bad_rules", `unknown rules preset ${base}`, { spec: base });
    const out = { ...presets[base].rules };
    for (const [key, raw] of Object.entries(spec)) {
      if (key === "preset") continue;
      if (!optionNames.has(key)) throw new ScoreError("bad_rules", `unknown rule option ${key}`, { spec: key });
      let value = raw;
      if (typeof data.defaults[key] === "boolean" && (value === "on" || value === "off")) value = value === "on";
      if ((key === "cap" || key === "taipao_multiplier") && value === "none") value = null;
      if (typeof value === "string" && /^[0-9]{1,6}$/.test(value) && optionByName.get(key).range) value = Number(value);
      if (!validValue(key, value)) throw new ScoreError("bad_rules", `option ${key} cannot be ${JSON.stringify(raw)}`, { spec: key });
      out[key] = value;
    }
    return out;
  }

  /** A rule set given with every option is used as it is; anything else is read by rulesOf. */
  function fullRules(spec) {
    const complete = spec && typeof spec === "object" && !("preset" in spec) && [...optionNames].every((k) => k in spec);
    return complete ? spec : rulesOf(spec);
  }

  /** What the discarder pays on a 抬炮, in multiples of the score. */
  function taipaoFactor(rules) {
    const set = rules.taipao_multiplier;
    return set === null || set === undefined ? data.taipao_default[String(rules.players)] : set;
  }

  /** The tier [name, base] of `hu` under the rule set's table, null under 10 hu. */
  function tierOf(hu, rules) {
    const table = data.tiers[rules.tiers];
    if (hu < table.by_hu.length) return table.by_hu[hu];
    const top = table.rows[table.rows.length - 1];
    return [top.name, top.base === null ? 4 * Math.floor((hu + 2) / 5) * 5 : top.base];
  }

  function fanWeight(fan, rules) {
    for (const [option, values] of Object.entries(fan.weight_by)) {
      const v = rules[option];
      if (v !== undefined && Object.prototype.hasOwnProperty.call(values, String(v))) return values[String(v)];
    }
    return fan.weight;
  }

  // ------------------------------------------------------------------ the search

  // every group free cards can make: runs, 二七十, 花吃, three identical (only with the
  // winning card: a 对) and the pair
  const SHAPES = [];
  for (const big of [false, true]) {
    for (let r = 1; r <= 8; r += 1) SHAPES.push([idOf(big, r), idOf(big, r + 1), idOf(big, r + 2)]);
    SHAPES.push(ejs.map((r) => idOf(big, r)));
  }
  for (let r = 1; r <= 10; r += 1) {
    SHAPES.push([idOf(false, r), idOf(false, r), idOf(true, r)]);
    SHAPES.push([idOf(false, r), idOf(true, r), idOf(true, r)]);
  }
  for (let c = 0; c < 20; c += 1) {
    SHAPES.push([c, c, c]);
    SHAPES.push([c, c]);
  }
  const SHAPES_WITH = Array.from({ length: 20 }, (_, c) => SHAPES.filter((s) => s.includes(c)));

  function freeKind(shape, winning) {
    if (shape.length === 2) return "pair";
    if (shape[0] === shape[1] && shape[1] === shape[2]) return "dui"; // only ever with the winning card
    return classifyTriple(shape);
  }

  /** Call visit(groups) for every grouping of hand + melds + winning card that keeps the
   * locks and places the winning card as allow (R-4.4 not checked). */
  function eachGrouping(counts, melds, win, yu, visit) {
    if (yu && win !== null) {
      const i = melds.findIndex((g) => g.kind === "dui" && g.cards[0] === win);
      if (i >= 0) {
        const onto = melds.slice();
        onto[i] = group("kai", [win, win, win, win], true, true, true);
        withHand(counts, onto, null, visit);
      }
    }
    withHand(counts, melds, win, visit);
  }

  function withHand(counts, exposed, win, visit) {
    const choices = []; // per locked identity: [[group, uses the winning card]…]
    const free = counts.slice();
    for (let c = 0; c < 20; c += 1) {
      if (counts[c] === 4) choices.push([[group("gun", [c, c, c, c]), false]]);
      else if (counts[c] === 3) {
        const options = [[group("kan", [c, c, c]), false]];
        if (win === c) options.push([group("kai", [c, c, c, c], false, true), true]);
        choices.push(options);
      }
      if (counts[c] >= 3) free[c] = 0;
    }
    const chosen = exposed.slice();
    const pick = (i, winLeft) => {
      if (chosen.length > 7) return;
      if (i === choices.length) {
        partitions(free, winLeft, chosen, visit);
        return;
      }
      for (const [g, usesWin] of choices[i]) {
        chosen.push(g);
        pick(i + 1, usesWin ? null : winLeft);
        chosen.pop();
      }
    };
    pick(0, win);
  }

  function partitions(free, win, groups, visit) {
    if (groups.length > 7) return;
    let lowest = -1;
    for (let c = 0; c < 20; c += 1) {
      if (free[c] > 0 || win === c) {
        lowest = c;
        break;
      }
    }
    if (lowest < 0) {
      visit(groups);
      return;
    }
    for (const shape of SHAPES_WITH[lowest]) {
      const withWin = win !== null && shape.includes(win);
      for (const useWin of withWin ? [false, true] : [false]) {
        const need = new Map();
        for (const c of shape) need.set(c, (need.get(c) || 0) + 1);
        if (useWin) need.set(win, need.get(win) - 1);
        let ok = true;
        for (const [c, n] of need) if (free[c] < n) ok = false;
        if (!ok) continue;
        const kind = freeKind(shape, useWin);
        if (kind === "dui" && !useWin) continue;
        for (const [c, n] of need) free[c] -= n;
        groups.push(group(kind, shape, false, useWin));
        partitions(free, useWin ? null : win, groups, visit);
        groups.pop();
        for (const [c, n] of need) free[c] += n;
      }
    }
  }

  /** seven groups; no quad → seven triples; q ≥ 1 quads → 6 − q triples and a pair. */
  function legalShape(groups) {
    if (groups.length !== 7) return false;
    let q = 0;
    let pairs = 0;
    let triples = 0;
    for (const g of groups) {
      if (g.kind === "kai" || g.kind === "gun") q += 1;
      else if (g.kind === "pair") pairs += 1;
      else triples += 1;
    }
    return q === 0 ? triples === 7 && pairs === 0 : triples === 6 - q && pairs === 1;
  }

  // ------------------------------------------------------------------ the 番

  // one test per entry of the package's 番 registry (fan.py FAN_RULES), by its function name
  const FAN_TESTS = {
    tianhu: (f, ctx) => (ctx.source === "tian" ? "天胡" : null),
    dihu: (f, ctx) => (ctx.di ? "地胡" : null),
    kunhu: (f) => (f.kun ? "坤胡" : null),
    piaohu: (f) => (f.inHand ? null : "瞟胡"),
    quanhu: (f, ctx, rules) => {
      if (ctx.quan === null || ctx.quan === undefined) return null;
      if (f.quanOwned === 4) return rules.shuang_quan ? "双圈" : "圈胡";
      return f.quanOwned === 3 ? "圈胡" : null;
    },
  };
  for (const rule of data.fans) {
    if (!FAN_TESTS[rule.test]) throw new Error(`the scorer does not know the 番 test ${rule.test}`);
  }

  function lessFans(a, b) {
    for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
      if (a[i] !== b[i]) return a[i] < b[i];
    }
    return a.length < b.length;
  }

  /** Score one grouping: hu, tier, 番 and score (R-7.2 - R-7.4, R-10). */
  function rate(groups, held, ctx, rules) {
    let hu = 0;
    let kun = true;
    let inHand = held.ejsHeld;
    let quanOwned = 0;
    const quanCard = ctx.quan ? idOf(true, ctx.quan) : -1;
    for (const g of groups) {
      hu += g.hu;
      if (g.kind !== "pair" && g.hu < 1) kun = false;
      if (g.kind === "kan" || g.kind === "gun" || (g.kind === "kai" && !g.yu)) inHand = true;
      if (g.cards[0] === quanCard) {
        if (g.kind === "dui" || g.kind === "kan") quanOwned = 3;
        else if (g.kind === "kai" || g.kind === "gun") quanOwned = 4;
      }
    }
    const tier = tierOf(hu, rules);
    if (!tier) return { hu, tier: null, score: 0, fans: [], count: 0 };
    const fixed = data.tianhu_fixed;
    if (ctx.source === "tian" && rules[fixed.option] === fixed.value) {
      return { hu, tier, score: fixed.score, fans: rules.tian_di_fan ? ["天胡"] : [], count: 0 };
    }
    const facts = { kun, inHand, quanOwned };
    const fans = [];
    let count = 0;
    for (const rule of data.fans) {
      if (!rules[rule.switch]) continue;
      const name = FAN_TESTS[rule.test](facts, ctx, rules);
      if (name === null) continue;
      const fan = rule.fans.find((f) => f.name === name);
      fans.push(name);
      count += fanWeight(fan, rules);
    }
    fans.sort();
    return { hu, tier, score: tier[1] * 2 ** count, fans, count };
  }

  // ------------------------------------------------------------------ analysis

  /** The hand as the scorer reads it: cards, melds, counts, with the checks of the
   * package (HandAnalyzer): no fifth copy, 天胡/地胡 only on the dealt hand. */
  function prepare(input) {
    const hand = Array.isArray(input.hand) ? input.hand.slice() : parseCards(input.hand);
    if (!hand.length) throw new ScoreError("empty_hand", "the hand is empty");
    const melds = (input.melds || []).map(parseMeld);
    const counts = new Array(20).fill(0);
    for (const c of hand) counts[c] += 1;
    const used = counts.slice();
    for (const g of melds) for (const c of g.cards) used[c] += 1;
    for (let c = 0; c < 20; c += 1) {
      if (used[c] > COPIES) throw new ScoreError("fifth_copy", `${used[c]} copies of ${charOf(c)} in hand and melds; the deck has ${COPIES}`, { card: asciiOf(c), n: used[c] });
    }
    const source = input.source || "discard";
    const ctx = { source, di: !!input.di, quan: input.quan ? Number(input.quan) : null };
    if (!data.sources.some((s) => s.value === source)) throw new ScoreError("bad_source", `unknown win source ${source}`, { source });
    if (ctx.quan !== null && !(Number.isInteger(ctx.quan) && ctx.quan >= 1 && ctx.quan <= 10)) throw new ScoreError("bad_quan", "圈 number must be 1-10", { quan: input.quan });
    if (ctx.di && source === "tian") throw new ScoreError("tian_di", "a win cannot be both 天胡 and 地胡");
    const total = hand.length + melds.reduce((n, g) => n + g.cards.length, 0);
    const ejsHeld = [false, true].some((big) => ejs.every((r) => counts[idOf(big, r)] > 0));
    return { hand, melds, counts, used, ctx, total, ejsHeld };
  }

  /** the 4th card added to an exposed 对 (三三三+三) makes a group only under yu;
   * without it such a meld is refused, as `erqishi score` refuses it. */
  function checkYu(p, rules) {
    const grown = p.melds.find((g) => g.yu);
    if (grown && !rules.yu) {
      const meld = grown.cards.map(charOf).join("");
      throw new ScoreError("yu_meld", `meld ${meld}: a 开 made by adding the 4th card to an exposed 对 is a group only under the yu option (R-5.13)`, { meld });
    }
  }

  function checkDealt(p) {
    const { ctx } = p;
    if (ctx.source === "tian" || ctx.di) {
      const name = ctx.source === "tian" ? "天胡" : "地胡";
      const size = ctx.source === "tian" ? 21 : 20;
      if (p.melds.length) throw new ScoreError("dealt_melds", `${name} is won with the dealt hand, before any meld`, { name });
      if (p.total !== size) throw new ScoreError("dealt_size", `${name} is won with the ${size} dealt cards, not ${p.total}`, { name, size, total: p.total });
    }
  }

  /** Whether the card count fits for some place of the winning card: 0 when it does,
   * else 1 (too many cards) or -1 (too few). */
  function fits(p, win, yu) {
    let nf0 = 0;
    let nFixed = p.melds.length;
    let q0 = 0;
    for (let c = 0; c < 20; c += 1) {
      const n = p.counts[c];
      if (n === 3) nFixed += 1;
      else if (n === 4) {
        nFixed += 1;
        q0 += 1;
      } else nf0 += n;
    }
    for (const g of p.melds) if (g.cards.length === 4) q0 += 1;
    const shapes = [[nf0 + (win !== null ? 1 : 0), nFixed, q0]];
    if (win !== null) {
      if (yu && p.melds.some((g) => g.kind === "dui" && g.cards[0] === win)) shapes.push([nf0, nFixed, q0 + 1]);
      if (p.counts[win] === 3) shapes.push([nf0, nFixed, q0 + 1]);
      else if (p.counts[win] === 2) shapes.push([nf0 - 2, nFixed + 1, q0]);
    }
    for (const [nFree, nGroups, quads] of shapes) {
      const needPair = quads >= 1 ? 1 : 0;
      const t = 7 - nGroups - needPair;
      if (t >= 0 && nFree === 3 * t + 2 * needPair) return 0;
    }
    const total = p.total + (win !== null ? 1 : 0);
    return total > 21 + Math.max(0, q0 - 1) ? 1 : -1;
  }

  /** The quads a hand owns before the winning card: exposed 开 and concealed 滚. */
  function quadsOf(p) {
    return p.counts.filter((n) => n === 4).length + p.melds.filter((g) => g.cards.length === 4).length;
  }

  function best(p, win, rules) {
    let top = null;
    eachGrouping(p.counts, p.melds, win, !!rules.yu, (groups) => {
      if (!legalShape(groups)) return;
      const r = rate(groups, p, p.ctx, rules);
      if (
        top === null ||
        r.score > top.score ||
        (r.score === top.score && (r.hu > top.hu || (r.hu === top.hu && lessFans(r.fans, top.fans))))
      ) {
        top = { ...r, groups: groups.slice() };
      }
    });
    return top;
  }

  function shownGroups(groups) {
    const exposed = groups.filter((g) => g.exposed);
    const concealed = groups.filter((g) => !g.exposed).sort((a, b) => lessCards(a.cards, b.cards));
    return exposed.concat(concealed).map((g) => ({
      kind: g.kind,
      name: isBig(g.cards[0]) ? kinds[g.kind].name_big : kinds[g.kind].name,
      cards: g.cards.map(asciiOf).join(" "),
      exposed: g.exposed,
      winning: g.winning,
      yu: g.yu,
      hu: g.hu,
    }));
  }

  function lessCards(a, b) {
    for (let i = 0; i < Math.min(a.length, b.length); i += 1) if (a[i] !== b[i]) return a[i] - b[i];
    return a.length - b.length;
  }

  function evaluate(p, win, rules) {
    const fit = fits(p, win, !!rules.yu);
    const base = { win: false, hu: 0, base: 0, tier: null, fan: [], fan_count: 0, score: 0, groups: [], source: p.ctx.source };
    if (fit !== 0) {
      const reason = fit > 0 ? "too_many" : "too_few";
      return { ...base, reason, reason_words: reasonWords[reason], cards: p.total + (win !== null ? 1 : 0), quads: quadsOf(p) };
    }
    const top = best(p, win, rules);
    if (top === null) return { ...base, reason: "no_grouping", reason_words: reasonWords.no_grouping };
    if (!top.tier) {
      return { ...base, reason: "under_10", reason_words: reasonWords.under_10, hu: top.hu, groups: shownGroups(top.groups) };
    }
    return {
      win: true,
      reason: null,
      hu: top.hu,
      base: top.tier[1],
      tier: { name: top.tier[0], base: top.tier[1] },
      fan: top.fans,
      fan_count: top.count,
      score: top.score,
      groups: shownGroups(top.groups),
      source: p.ctx.source,
    };
  }

  /** Who pays what for a win of `score`, by role, the winner as seat 0 and the
   * discarder the last playing seat (as `erqishi score --json` shows them). */
  function payments(score, source, rules) {
    const n = rules.players;
    const sittingOut = n === 4 ? 3 : null;
    const playing = [...Array(n).keys()].filter((s) => s !== sittingOut);
    const discarder = source === "discard" ? playing[playing.length - 1] : null;
    const paid = rules.cap === null || rules.cap === undefined ? score : Math.min(score, rules.cap);
    const pay = new Array(n).fill(0);
    if (source === "discard") {
      const amount = paid * taipaoFactor(rules);
      pay[discarder] = -amount;
      pay[0] = amount;
    } else {
      for (const s of playing) {
        if (s === 0) continue;
        pay[s] = -paid;
        pay[0] += paid;
      }
    }
    return pay.map((amount, seat) => ({
      role: seat === 0 ? "winner" : seat === sittingOut ? "sitting_out" : seat === discarder ? "discarder" : "other",
      amount,
    }));
  }

  /** Score a hand: `input` is {hand, melds, win, source,
   * di, quan}: cards as text or ids, melds as text or {cards, yu}, win a card or null for
   * 天胡 (source "tian"). Returns what `erqishi score --json` says: win, reason, hu, base,
   * tier, fan, fan_count, score, groups, source, payments. Throws ScoreError on bad input. */
  function score(input, rulesSpec) {
    const rules = fullRules(rulesSpec);
    const p = prepare(input);
    let win = input.win;
    if (typeof win === "string") {
      const ids = parseCards(win);
      if (ids.length !== 1) throw new ScoreError("bad_card", "one winning card is needed", { token: win, position: 0 });
      win = ids[0];
    }
    if (win === undefined) win = null;
    if (p.ctx.source === "tian") {
      if (win !== null) throw new ScoreError("tian_win_card", "天胡 has no winning card");
    } else if (win === null) throw new ScoreError("no_win_card", "a winning card is needed (only 天胡 has none)");
    if (win !== null && p.used[win] >= COPIES) {
      throw new ScoreError("fifth_win", `winning card ${charOf(win)} would be a fifth copy`, { card: asciiOf(win), n: p.used[win] });
    }
    checkYu(p, rules);
    checkDealt(p);
    const result = evaluate(p, win, rules);
    if (result.win) result.payments = payments(result.score, p.ctx.source, rules);
    return result;
  }

  /** The waits (下叫) of a hand one card short: every card with a copy left that
   * wins, with its hu, base, tier, 番, score and grouping, in card order (erqishi waits). */
  function waits(input, rulesSpec) {
    const rules = fullRules(rulesSpec);
    const p = prepare({ ...input, source: input.source === "tian" ? "tian" : "discard" });
    if (p.ctx.source === "tian") throw new ScoreError("tian_waits", "天胡 has no winning card, so it has no waits");
    checkYu(p, rules);
    checkDealt(p);
    const out = [];
    for (let w = 0; w < 20; w += 1) {
      if (p.used[w] >= COPIES) continue;
      const r = evaluate(p, w, rules);
      if (r.win) out.push({ card: asciiOf(w), ...r });
    }
    return out;
  }

  /** Whether a hand of this size is one card short of a win: the counts a wait
   * needs, given its quads (a winning card that makes another quad asks one card more). */
  function oneShort(input, rulesSpec) {
    const rules = fullRules(rulesSpec);
    const p = prepare({ ...input, source: "discard", di: false });
    const q = quadsOf(p);
    const need = 20 + Math.max(0, q - 1);
    const canQuad = p.counts.some((n) => n === 3) || (rules.yu && p.melds.some((g) => g.kind === "dui"));
    return { total: p.total, quads: q, need, more: canQuad && q >= 1, fits: p.total === need || (canQuad && q >= 1 && p.total === need + 1) };
  }

  return { parseCards, parseMeld, classifyTriple, rulesOf, taipaoFactor, tierOf, score, waits, payments, oneShort, asciiOf, charOf, isBig, rankOf, idOf };
}

const SCORERS = new WeakMap();

/** scoreHand(data, input, rules): score one hand with the rule data of GET /api/rules (see
 * createScorer().score). */
export function scoreHand(data, input, rules) {
  let scorer = SCORERS.get(data);
  if (!scorer) {
    scorer = createScorer(data);
    SCORERS.set(data, scorer);
  }
  return scorer.score(input, rules);
}

/** findWaits(data, input, rules): the 下叫 of a hand one card short (see createScorer().waits). */
export function findWaits(data, input, rules) {
  let scorer = SCORERS.get(data);
  if (!scorer) {
    scorer = createScorer(data);
    SCORERS.set(data, scorer);
  }
  return scorer.waits(input, rules);
}
