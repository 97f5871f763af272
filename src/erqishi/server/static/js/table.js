// The game table, drawn from one `state` message (docs/protocol.md): status line, every
// seat, the pending card, your hand, your options, the timer, hints, the log and the
// end-of-hand breakdown. renderBoard() also draws the replay's frames.
//
// data-testid (stable, for browser tests):
//   table           the whole table (data-hand, data-step = game.step, data-phase)
//   table-strip     the status line, the others' seats and the pending card (on a phone a
//                   strip that stays at the top while you scroll to your hand)
//   status          the status line (圈, hand number, dealer, turn, stock)
//   seat-panel-N    seat N's panel (name, tags, card count, announced 八块, melds, row);
//                   class "turn" on the seat to act, data-dealer="1" on the dealer;
//                   data-last = what it did last of the hand's last discard, flip and take
//                   ("discard", "flip", "take", most recent last), each with a last-tag
//                   (data-kind); row its row of cards
//   (data-last)     on a tile (and its meld): it is the last discard, flip or take of the
//                   hand ("flip take": the flipped card that was taken); class anim-take /
//                   anim-flip while it animates
//   pending         the pending card box; pending-card its tile (data-card)
//   prompt          what you are asked to do now
//   outranked       your 吃 (对, 开, 胡) lost to another seat's response in the window
//                   (R-5.4): data-mine, data-take, data-by
//   my-hand         your hand (data-tap "once" | "raise", prefs.js); hand-card one tile
//                   (data-card="x3"; data-legal="1" and clickable when discarding it is
//                   legal: a click sends "discard x3", or with "raise" the first tap
//                   raises it, data-raised="1", and a second tap sends it); discard-hint
//   action          one option button, data-action = the ASCII action it sends
//   declared        "declared, waiting for the others" (your response in this window)
//   timer           the countdown (data-remaining = whole seconds left), with the default
//   hints           asks the server for hints; hints-panel shows the reply (下叫)
//   log             the events of this hand in words
//   result          the end-of-hand breakdown; next-hand sends `next`; ready lists who is
//                   ready; replay-hand links to the hand's replay
//   match-over      the final standings (or, after a 解散 vote, dissolved): standings
//                   (li data-seat), standings-chart the running totals (an SVG: chart-line
//                   per seat, data-seat; chart-point per hand), again (再来一局),
//                   again-cancel, start-now (the host: at once), again-ready (who is ready)
//   spectating      shown instead of a hand to a spectator
//   legend          explains the tile colours
//   hall            your seat's tools: tuoguan (托管 on/off, data-on), autopass (checkbox),
//                   dissolve (ask for a 解散 vote), talk-toggle (the quick phrases)
//   tuoguan-tag     on a seat panel whose seat is on 托管; tuoguan-note on your own side
//   host-tag        on the host's seat panel
//   vote            an open 解散 vote: vote-agree, vote-refuse (when you are asked),
//                   vote-timer, vote-agreed
//   talk-panel      phrase buttons (data-id), emote buttons (data-id), talk-text and
//                   talk-send where the room allows free text
//   bubble          what a seat just said (data-kind phrase|emote|text), for a few seconds
import { h, arr, signed } from "./dom.js";
import { t, getLang, listSep } from "./i18n.js";
import { face, tile, tiles, cardList, parseAction, actionLabel, kuai, groupName, sortCards } from "./cards.js";
import { eventText, sentence, refusalText, cardRefusalText, term } from "./narrate.js";
import { seatLabel } from "./names.js";
import { recordStars } from "./learn.js";

const KIND_ORDER = { hu: 0, kai: 1, dui: 2, chi: 3, discard: 4, pass: 9 };
const EN_VERB = { chi: "chow (吃)", dui: "pung (对)", kai: "kong (开)", hu: "win (胡)", pass: "pass (过)", discard: "discard (打)" };
const ZH_VERB = { chi: "吃", dui: "对", kai: "开", hu: "胡", pass: "过", discard: "打" };

const isInt = (x) => Number.isInteger(x);
const SVG = "http://www.w3.org/2000/svg";
/** One colour per seat (the chart's lines and the legend). */
const SEAT_COLORS = ["#b3261e", "#1f4f7a", "#2e7d32", "#8e44ad"];
/** How long a phrase stays beside its speaker. */
export const BUBBLE_MS = 4000;

/** The words of a `said` message in the page's language (a phrase: Chinese, and the
 * English after it in English; an emote: its symbol; a text: as typed). */
export function saidText(said, talk) {
  if (!said || typeof said !== "object") return "";
  const en = getLang() === "en";
  if (typeof said.phrase === "string") {
    const p = arr(talk && talk.phrases).find((x) => x && x.id === said.phrase);
    if (!p) return said.phrase;
    return en ? `${p.zh} — ${p.en}` : String(p.zh);
  }
  if (typeof said.emote === "string") {
    const e = arr(talk && talk.emotes).find((x) => x && x.id === said.emote);
    return e ? String(e.symbol) : said.emote;
  }
  return typeof said.text === "string" ? said.text : "";
}

function emoteLabel(said, talk) {
  const e = arr(talk && talk.emotes).find((x) => x && x.id === said.emote);
  if (!e) return null;
  return getLang() === "en" ? String(e.en) : String(e.zh);
}

/** What `seat` said in the last few seconds, as a bubble (text nodes only). */
function bubbleFor(seat, ctx) {
  const b = ctx && ctx.bubbles && ctx.bubbles.get(seat);
  if (!b || Date.now() - b.at > BUBBLE_MS) return null;
  const said = b.said;
  const kind = typeof said.phrase === "string" ? "phrase" : typeof said.emote === "string" ? "emote" : "text";
  const label = kind === "emote" ? emoteLabel(said, ctx.talk) : null;
  return h(
    "div",
    { class: `bubble ${kind}`, testid: "bubble", dataset: { kind, seat }, role: "status", title: label },
    saidText(said, ctx.talk),
    label ? h("span", { class: "bubble-label" }, label) : null,
  );
}

/** Names of the seats from the room (fallback 座N). */
export function seatNames(room) {
  const names = [];
  for (const s of arr(room && room.seats)) {
    if (s && isInt(s.seat)) names[s.seat] = typeof s.name === "string" && s.name ? s.name : null;
  }
  return names;
}

/** Naming context: who is "you", names, English verb endings. */
export function makeNames(names, me) {
  const who = (seat) => {
    if (!isInt(seat)) return "?";
    if (seat === me) return t("you");
    return seatLabel(names[seat]) || t("seat_n", { n: seat }); // a bot's seat in words
  };
  const s = (seat) => (seat === me ? "" : "s");
  return { who, s, me, names };
}

function sortActions(actions) {
  return actions
    .slice()
    .sort((a, b) => (KIND_ORDER[parseAction(a).kind] ?? 5) - (KIND_ORDER[parseAction(b).kind] ?? 5));
}

function relation(view, seat, me) {
  const order = arr(view.order).filter(isInt);
  if (!isInt(me) || seat === me || order.length < 2) return null;
  const i = order.indexOf(me);
  if (i < 0) return null;
  if (order[(i + 1) % order.length] === seat) return t("xiajia");
  if (order[(i - 1 + order.length) % order.length] === seat) return t("shangjia");
  return null;
}

function melds(groups, mark, fx) {
  const list = arr(groups);
  if (!list.length) return h("span", { class: "muted" }, t("none"));
  return list.map((g, k) => {
    const marked = mark && mark.index === k ? mark : null;
    const cards = cardList(g && g.cards);
    const at = marked ? cards.indexOf(marked.card) : -1;
    return h(
      "span",
      { class: `meld${marked ? " hl-meld" : ""}`, title: groupName(g), dataset: { last: marked ? marked.kinds.join(" ") : null } },
      h("span", { class: "meld-name" }, groupName(g || {})),
      h("span", { class: "tiles" }, cards.map((c, i) => (i === at ? markTile(tile(c, { size: "s" }), marked.kinds, fx) : tile(c, { size: "s" })))),
      isInt(g && g.hu) ? h("span", { class: "meld-hu" }, t("hu_unit", { hu: g.hu })) : null,
    );
  });
}

/** How long the take and flip animations last (style.css has the same). */
const FX_MS = { take: 650, flip: 550 };

/** Mark a tile as the last discard, flip or take (kinds, most recent last); a card that has
 * just been flipped or taken animates (continuing where it was if the table is redrawn). */
function markTile(el, kinds, fx) {
  el.dataset.last = kinds.join(" ");
  el.classList.add("hl", ...kinds.map((k) => `hl-${k}`));
  const anim = kinds.includes("take") ? "take" : kinds.includes("flip") ? "flip" : null;
  const age = anim && fx && typeof fx.age === "function" ? fx.age(fx.events[anim]) : Infinity;
  if (anim && age < FX_MS[anim]) {
    el.classList.add(`anim-${anim}`);
    el.style.animationDelay = `-${Math.max(0, Math.round(age))}ms`;
  }
  return el;
}

/**
 * The last discard, flip and take of the hand, from its events (the public story, R-9), and
 * where each card is now: still on offer ("pending"), in a row ("row": rowSeat, rowFromEnd
 * cards from the row's end), taken into a meld ("meld": by the take at event takeIndex) or
 * won on ("won"). Each is {i (its event's index), seat, card, …} or null.
 */
export function lastMarks(log) {
  const events = arr(log);
  const marks = { discard: null, flip: null, take: null };
  events.forEach((ev, i) => {
    if (!ev || typeof ev !== "object" || !isInt(ev.seat)) return;
    if (ev.event === "discarded") marks.discard = { i, seat: ev.seat, card: ev.card };
    else if (ev.event === "flipped") marks.flip = { i, seat: ev.seat, card: ev.card };
    else if (ev.event === "took") marks.take = { i, seat: ev.seat, card: ev.card, take: ev.take, cards: arr(ev.cards) };
  });
  for (const kind of ["discard", "flip"]) {
    const m = marks[kind];
    if (!m) continue;
    m.where = "pending";
    // the card's fate is the first take, pass or win after it (nothing else comes first)
    for (let j = m.i + 1; j < events.length; j++) {
      const ev = events[j];
      if (!ev || typeof ev !== "object") continue;
      if (ev.event === "took") {
        m.where = "meld";
        m.takeIndex = j;
        break;
      }
      if (ev.event === "won") {
        m.where = "won";
        break;
      }
      if (ev.event === "passed") {
        m.where = "row";
        m.rowSeat = ev.seat;
        m.rowFromEnd = events.slice(j + 1).filter((e) => e && e.event === "passed" && e.seat === ev.seat).length;
        break;
      }
    }
  }
  return marks;
}

/** Where on the board each mark shows: per seat its panel's kinds, a row tile and a meld;
 * the pending card's kinds. */
function placeMarks(marks, view) {
  const out = { seats: new Map(), pending: [] };
  if (!marks) return out;
  const seat = (s) => {
    if (!out.seats.has(s)) out.seats.set(s, { kinds: [], row: null, meld: null });
    return out.seats.get(s);
  };
  const svs = arr(view.seats).filter((sv) => sv && isInt(sv.seat));
  // most recent last: the panel's outline takes the colour of its latest mark
  const order = ["discard", "flip", "take"].filter((k) => marks[k]).sort((a, b) => marks[a].i - marks[b].i);
  for (const kind of order) {
    const m = marks[kind];
    seat(m.seat).kinds.push(kind);
    if (kind === "take") {
      const sv = svs.find((x) => x.seat === m.seat);
      const index = sv ? takenMeld(arr(sv.melds), m) : -1;
      if (index >= 0) {
        const also = ["discard", "flip"].filter((k) => marks[k] && marks[k].where === "meld" && marks[k].takeIndex === m.i);
        seat(m.seat).meld = { index, card: m.card, kinds: [...also, "take"] };
      }
    } else if (m.where === "pending") {
      if (view.phase === "response" && view.pending === m.card) out.pending.push(kind);
    } else if (m.where === "row") {
      const sv = svs.find((x) => x.seat === m.rowSeat);
      const row = sv ? arr(sv.row) : [];
      const index = row.length - 1 - m.rowFromEnd;
      if (index >= 0 && row[index] === m.card) {
        const r = seat(m.rowSeat);
        r.row = r.row && r.row.index === index ? { index, kinds: [...r.row.kinds, kind] } : { index, kinds: [kind] };
      }
    }
  }
  return out;
}

/** The meld of `melds` that the take `m` laid down (the last one with its cards), or -1. */
function takenMeld(melds, m) {
  const want = m.take === "chi" ? [m.card, ...cardList(m.cards)] : Array(m.take === "kai" ? 4 : 3).fill(m.card);
  const key = sortCards(want).join(",");
  for (let k = melds.length - 1; k >= 0; k--) {
    if (sortCards(arr(melds[k] && melds[k].cards)).join(",") === key) return k;
  }
  return -1;
}

const LAST_TAG = { discard: "last_discard_tag", flip: "last_flip_tag", take: "last_take_tag" };

/** One seat's panel. opts: {room seat info, showHand} */
function seatPanel(view, sv, nm, opts) {
  const seat = sv.seat;
  const info = opts.roomSeat || {};
  const turn = isInt(view.turn) && view.turn === seat && view.phase !== "over" && !opts.halted;
  const dealer = view.dealer === seat;
  const tags = [];
  if (seat === nm.me) tags.push(h("span", { class: "tag me" }, t("you")));
  const rel = relation(view, seat, nm.me);
  if (rel) tags.push(h("span", { class: "tag" }, rel));
  if (dealer) tags.push(h("span", { class: "tag dealer", testid: "dealer", title: t("dealer") }, t("dealer_mark")));
  if (info.kind === "bot") tags.push(h("span", { class: "tag bot" }, t("bot")));
  if (info.kind === "human" && info.connected === false) tags.push(h("span", { class: "tag off" }, t("offline")));
  if (info.away) tags.push(h("span", { class: "tag off" }, t("away")));
  if (info.tuoguan) tags.push(h("span", { class: "tag tuoguan", testid: "tuoguan-tag" }, t("tuoguan_tag")));
  if (opts.host) tags.push(h("span", { class: "tag host", testid: "host-tag" }, t("host_tag")));
  const order = arr(view.order);
  if (order.length && !order.includes(seat)) tags.push(h("span", { class: "tag off" }, t("sits_out")));
  if (turn) tags.push(h("span", { class: "tag turn" }, view.phase === "response" ? t("turn_response") : t("turn_mark")));
  // what this seat did last: the last discard, flip or take of the hand (most recent last)
  const mark = opts.mark || { kinds: [], row: null, meld: null };
  for (const kind of mark.kinds) {
    const take = kind === "take" && opts.takeKind ? takeWord(opts.takeKind) : "";
    tags.push(h("span", { class: `tag last last-${kind}`, testid: "last-tag", dataset: { kind } }, t(LAST_TAG[kind], { take })));
  }
  const latest = mark.kinds.length ? mark.kinds[mark.kinds.length - 1] : null;
  const name = seat === nm.me ? nm.names[seat] || t("you") : nm.who(seat);
  const hand = opts.showHand && sv.hand ? sortCards(sv.hand) : null;
  const row = arr(sv.row);
  return h(
    "div",
    {
      class: `seat-panel${turn ? " turn" : ""}${seat === nm.me ? " mine" : ""}${latest ? ` hl-seat hl-seat-${latest}` : ""}`,
      testid: `seat-panel-${seat}`,
      dataset: { seat, dealer: dealer ? "1" : null, last: mark.kinds.length ? mark.kinds.join(" ") : null },
    },
    h("div", { class: "seat-head" }, h("strong", { class: "seat-name" }, name), h("span", { class: "seat-no" }, t("seat_n", { n: seat })), tags),
    opts.bubble || null,
    h(
      "div",
      { class: "seat-info" },
      h("span", { testid: "hand-size" }, t("hand_size", { n: isInt(sv.hand_size) ? sv.hand_size : "?" })),
      sv.announced ? h("span", { class: "announced", testid: "announced" }, t("announced", { count: kuai(sv.announced), n: sv.announced })) : null,
    ),
    h("div", { class: "seat-line melds-line" }, h("span", { class: "label" }, t("melds") + t("colon")), melds(sv.melds, mark.meld, opts.fx)),
    h(
      "div",
      { class: "seat-line row-line" },
      h("span", { class: "label" }, t("row") + t("colon")),
      row.length
        ? h(
            "span",
            { class: "tiles row", testid: "row" },
            row.map((c, i) => (mark.row && mark.row.index === i ? markTile(tile(c, { size: "s" }), mark.row.kinds, opts.fx) : tile(c, { size: "s" }))),
          )
        : h("span", { class: "muted" }, t("none")),
    ),
    hand ? h("div", { class: "seat-line" }, h("span", { class: "label" }, t("hand") + t("colon")), tiles(hand)) : null,
  );
}

function statusLine(view, game, nm, roomQuan, halted) {
  const parts = [];
  // the current 圈: the table's (always known), else the view's (null when 圈胡 is off)
  const quan = game && isInt(game.quan) ? game.quan : view.quan;
  if (quan !== null && quan !== undefined) {
    parts.push(roomQuan ? t("status_quan", { quan, of: roomQuan }) : t("status_quan_only", { quan }));
  }
  if (game && isInt(game.hand)) parts.push(t("status_hand", { n: game.hand }));
  if (isInt(view.dealer)) parts.push(t("status_dealer", { who: nm.who(view.dealer) }));
  if (halted) parts.push(t("room_dissolved"));
  else if (view.phase === "over") parts.push(t("status_over"));
  else if (view.phase === "response") parts.push(t("status_response"));
  else if (isInt(view.turn)) parts.push(t("status_turn", { who: nm.who(view.turn) }));
  if (isInt(view.stock_left)) parts.push(t("status_stock", { n: view.stock_left }));
  return h("div", { class: "status", testid: "status" }, parts.map((p) => h("span", {}, p)));
}

function pendingBox(view, nm, kinds, fx) {
  if (!view.pending || view.phase !== "response") return null;
  const key = view.pending_flip ? "pending_flipped" : "pending_discarded";
  const card = tile(view.pending, { testid: "pending-card", cls: "tile-l" });
  return h(
    "div",
    { class: "pending", testid: "pending", dataset: { flip: view.pending_flip ? "1" : "0", seat: view.turn } },
    h("span", {}, t(key, { who: nm.who(view.turn), s: nm.s(view.turn) })),
    kinds && kinds.length ? markTile(card, kinds, fx) : card,
  );
}

/** A take in words for the seat's tag: 吃 / 对 / 开 ("chow (吃)" in English). */
function takeWord(kind) {
  return t(`decl_${kind}`);
}

/** The seats, the status line and the pending card of one view (also used by the replay). */
export function renderBoard(view, opts) {
  const { top, mine } = boardParts(view, opts);
  return h("div", { class: "board" }, top, mine);
}

/**
 * The board in two parts: `top` (the status line, the others' seats and the pending card:
 * on a phone a strip that stays in sight while you play) and `mine` (your own seat). With
 * opts.marks (lastMarks of the hand's log) the last discard, flip and take are marked on
 * their cards and seats; opts.fx times their animations.
 */
export function boardParts(view, opts) {
  const nm = opts.nm;
  const roomSeats = opts.roomSeats || [];
  const svs = arr(view.seats).filter((sv) => sv && isInt(sv.seat));
  // The others in playing order starting from your 下家; your own seat last.
  const me = nm.me;
  const others = svs.filter((sv) => sv.seat !== me);
  if (isInt(me)) others.sort((a, b) => ((a.seat - me + 100) % 100) - ((b.seat - me + 100) % 100));
  const mine = svs.find((sv) => sv.seat === me);
  const over = view.phase === "over";
  const placed = placeMarks(opts.marks, view);
  const panel = (sv) =>
    seatPanel(view, sv, nm, {
      roomSeat: roomSeats.find((r) => r && r.seat === sv.seat),
      showHand: opts.showHands || (over && sv.seat !== me) || (sv.seat !== me && Array.isArray(sv.hand)),
      bubble: bubbleFor(sv.seat, opts.hall),
      host: isInt(opts.host) && opts.host === sv.seat,
      mark: placed.seats.get(sv.seat),
      takeKind: opts.marks && opts.marks.take ? opts.marks.take.take : null,
      fx: opts.fx,
      halted: opts.halted,
    });
  return {
    top: h(
      "div",
      { class: "board-top", testid: "table-strip" },
      statusLine(view, opts.game, nm, opts.roomQuan, opts.halted),
      h("div", { class: "seats" }, others.map(panel)),
      pendingBox(view, nm, placed.pending, opts.fx),
    ),
    mine: mine ? h("div", { class: "seats mine" }, panel(mine)) : null,
  };
}

function legend() {
  return h(
    "div",
    { class: "legend", testid: "legend" },
    tile("x1", { size: "s" }),
    h("span", {}, t("legend_small")),
    tile("d1", { size: "s" }),
    h("span", {}, t("legend_big")),
    tile("x7", { size: "s" }),
    tile("d7", { size: "s" }),
    h("span", {}, t("legend_red")),
  );
}

function timerBox(game, view, received, hasOptions) {
  const timer = game.timer;
  if (!timer || typeof timer !== "object" || !Number.isFinite(timer.remaining_ms)) return null;
  const deadline = received + Math.max(0, timer.remaining_ms);
  const total = Number.isFinite(timer.total_ms) && timer.total_ms > 0 ? timer.total_ms : timer.remaining_ms || 1;
  // default: an ASCII action ("pass", "kai"), or "bot" (the room's bot makes the move),
  // or "next" (between hands: the next hand starts).
  let def = null;
  const d = typeof timer.default === "string" ? timer.default : "";
  if (d === "next") def = t("timer_next");
  else if (d === "bot" || (!d && hasOptions)) def = hasOptions ? t("timer_bot") : null;
  else if (d) def = t("timer_default", { action: actionLabel(d, view && view.pending) });
  const el = h(
    "div",
    { class: "timer", testid: "timer", dataset: { deadline, total } },
    h("span", { class: "timer-sec" }),
    h("span", { class: "timer-bar" }, h("span", { class: "timer-fill" })),
    def ? h("span", { class: "timer-default", testid: "timer-default" }, def) : null,
  );
  updateTimer(el);
  return el;
}

function updateTimer(el) {
  const deadline = Number(el.dataset.deadline);
  const total = Number(el.dataset.total) || 1;
  const left = Math.max(0, deadline - Date.now());
  const secs = Math.ceil(left / 1000);
  el.dataset.remaining = String(secs);
  const sec = el.querySelector(".timer-sec");
  if (sec) sec.textContent = t("timer_secs", { n: secs });
  const fill = el.querySelector(".timer-fill");
  if (fill) fill.style.width = `${Math.min(100, (100 * left) / total)}%`;
  el.classList.toggle("low", secs <= 5);
}

/** Count every timer under root down (called a few times a second). */
export function updateTimers(root) {
  for (const el of root.querySelectorAll(".timer[data-deadline]")) updateTimer(el);
}

function promptText(game, view, nm, legal, discards, others) {
  const pending = view.pending;
  if (game.declared) return null;
  if (view.phase === "response" && pending && others.length) {
    const kinds = [...new Set(others.map((a) => parseAction(a).kind))];
    const en = getLang() === "en";
    const opts = kinds.map((k) => (en ? EN_VERB[k] || k : ZH_VERB[k] || k)).join("/");
    let text = t(view.pending_flip ? "prompt_flipped" : "prompt_discarded", {
      who: nm.who(view.turn),
      card: face(pending),
      opts,
    });
    const hasKai = kinds.includes("kai");
    if (hasKai && !kinds.includes("pass")) {
      text = text.replace(/[？?]$/, "") + t(kinds.length === 1 ? "prompt_must_kai" : "prompt_must_kai_hu");
    }
    return text;
  }
  if (discards.length) {
    if (view.phase === "opening") return others.some((a) => parseAction(a).kind === "hu") ? t("prompt_opening_tianhu") : t("prompt_opening");
    return t("prompt_discard");
  }
  if (view.phase === "over") return null;
  if ((view.phase === "opening" || view.phase === "discard") && isInt(view.turn) && view.turn !== nm.me) {
    return t("prompt_wait_for", { who: nm.who(view.turn) });
  }
  return t("prompt_wait");
}

function hintsPanel(hints, pending) {
  if (!hints) return null;
  const waitsText = (waits) =>
    arr(waits).map((w) =>
      h(
        "span",
        {
          class: `wait${w && (w.live === 0 || w.live === false) ? " dead" : ""}`,
          title: w && isInt(w.live) ? t("hint_live", { n: w.live }) : null,
        },
        tile(w && w.card, { size: "s" }),
        h("span", {}, t("hint_score", { hu: w && w.hu !== undefined ? w.hu : "?", score: w && w.score !== undefined ? w.score : "?" })),
      ),
    );
  const lines = [];
  const discards = arr(hints.discards).filter((d) => d && arr(d.waits).length);
  if (discards.length) {
    for (const d of discards) {
      lines.push(h("div", { class: "hint-line" }, h("span", {}, t("hint_discard", { card: face(d.card) })), waitsText(d.waits)));
    }
  } else if (Array.isArray(hints.discards) && hints.discards.length) {
    lines.push(h("div", { class: "hint-line" }, t("hints_discard_none")));
  }
  const waits = arr(hints.waits);
  lines.push(
    h(
      "div",
      { class: "hint-line" },
      h("span", {}, t("hint_waits")),
      waits.length ? waitsText(waits) : h("span", { class: "muted" }, t("none")),
    ),
  );
  const advice = hints.suggest;
  if (advice && typeof advice.action === "string") {
    const said = advice.text && typeof advice.text === "object" ? advice.text[getLang() === "en" ? "en" : "zh"] : "";
    lines.push(
      h(
        "div",
        { class: "hint-line", testid: "hint-suggest" },
        t("hint_suggest", { action: actionLabel(advice.action, pending) }),
        said ? h("span", { class: "muted" }, ` (${said})`) : null,
      ),
    );
  }
  return h("div", { class: "hints-panel", testid: "hints-panel" }, h("strong", {}, t("hints_title")), lines);
}

function resultBox(game, view, nm, ctx) {
  const r = game.result;
  if (!r || typeof r !== "object") return null;
  const out = [h("h2", {}, t("result_title"))];
  if (r.kind === "win" && isInt(r.winner)) {
    const sourceText = typeof r.source === "string" ? sentence(`source_${r.source}`) : "";
    out.push(h("p", { class: "win-line", testid: "result-winner" }, t("result_win", { who: nm.who(r.winner), s: nm.s(r.winner), source: sourceText })));
    out.push(nextRow(game, view, nm, ctx));
    if (r.card) {
      let line = t("result_card", { card: "" });
      const parts = [line, tile(r.card, { size: "s" })];
      if (isInt(r.from) && r.source === "discard") parts.push(t("result_from_discard", { who: nm.who(r.from) }));
      else if (isInt(r.from) && (r.source === "flip" || r.source === "own_flip")) parts.push(t("result_from_flip", { who: nm.who(r.from) }));
      out.push(h("p", { testid: "result-card" }, parts));
    }
    const groups = arr(r.groups);
    if (groups.length) {
      out.push(
        h(
          "table",
          { class: "groups", testid: "result-groups" },
          h("tbody", {}, groups.map((g) =>
            h("tr", {}, h("td", {}, groupName(g || {})), h("td", {}, tiles(g && g.cards)), h("td", { class: "num" }, t("hu_unit", { hu: g && g.hu !== undefined ? g.hu : "?" }))),
          )),
        ),
      );
    }
    const tier = r.tier && typeof r.tier === "object" ? r.tier : null;
    out.push(h("p", { testid: "result-hu" }, t("result_hu", { hu: r.hu ?? "?", tier: tier ? term("tier", tier.name) : "-", base: tier ? tier.base : "-" })));
    const fan = arr(r.fan).filter((f) => typeof f === "string");
    out.push(h("p", { testid: "result-fan" }, t("result_fan", { fans: fan.length ? fan.map((f) => term("fan", f)).join(sentence("list_sep")) : t("none") })));
    out.push(h("p", { class: "score", testid: "result-score" }, t("result_score", { score: r.score ?? "?" })));
  } else {
    out.push(h("p", { class: "win-line", testid: "result-dead" }, t("result_dead")));
    out.push(nextRow(game, view, nm, ctx));
  }
  const seats = arr(view && view.seats).map((sv) => sv && sv.seat).filter(isInt);
  const payments = arr(r.payments);
  const totals = arr(game.totals);
  const rows = (seats.length ? seats : payments.map((_, i) => i)).map((seat) =>
    h(
      "tr",
      { dataset: { seat } },
      h("td", {}, nm.who(seat)),
      h("td", { class: "num" }, payments[seat] !== undefined ? signed(payments[seat]) : ""),
      h("td", { class: "num" }, totals[seat] !== undefined ? signed(totals[seat]) : ""),
      h("td", {}, arr(game.ready).includes(seat) ? t("ready_mark") : ""),
    ),
  );
  out.push(
    h(
      "table",
      { class: "payments", testid: "result-payments" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, t("result_payments")), h("th", {}, t("result_totals")), h("th", {}, ""))),
      h("tbody", {}, rows),
    ),
  );
  if (r.hand_id !== undefined && r.hand_id !== null) {
    out.push(h("p", {}, h("a", { href: `/replay/${encodeURIComponent(r.hand_id)}`, target: "_blank", rel: "noopener", testid: "replay-hand", class: "btn small link" }, t("replay_this_hand"))));
  }
  return h("section", { class: "result card", testid: "result", dataset: { hand: game.hand } }, out);
}

/** Under the result's first line: the next hand's button, its timer and who is ready. */
function nextRow(game, view, nm, ctx) {
  if (game.match_over || ctx.status === "ended") return null;
  const out = [];
  const ready = arr(game.ready).filter(isInt);
  const me = nm.me;
  if (isInt(me) && !ready.includes(me)) {
    out.push(h("button", { type: "button", class: "btn primary", id: "next-hand", testid: "next-hand", onclick: ctx.next, disabled: ctx.busyNext }, t("next_hand")));
  } else if (isInt(me)) {
    out.push(h("p", { class: "muted" }, t("waiting_next")));
  }
  if (game.timer) out.push(timerBox(game, view, ctx.received, false));
  out.push(h("p", { class: "muted", testid: "ready" }, t("ready_list", { who: ready.length ? ready.map((s) => nm.who(s)).join(sentence("list_sep")) : t("none") })));
  return h("div", { class: "next-row", testid: "next-row" }, out);
}

/** An SVG element (drawn by this script: nothing is fetched, CSP allows it). */
function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  for (const c of children.flat()) if (c !== null && c !== undefined) el.append(c instanceof Node ? c : String(c));
  return el;
}

/** The running totals of each seat, hand by hand, as a line chart (0 before the first hand). */
export function standingsChart(running, seats, nm) {
  const rows = [seats.map(() => 0), ...arr(running).filter((r) => Array.isArray(r) && r.length === seats.length)];
  const W = 520;
  const H = 240;
  const L = 52;
  const R = 14;
  const T = 14;
  const B = 30;
  const all = rows.flat().map((v) => Number(v) || 0);
  let lo = Math.min(0, ...all);
  let hi = Math.max(0, ...all);
  if (lo === hi) hi = lo + 10;
  const steps = Math.max(1, rows.length - 1);
  const x = (i) => L + (i * (W - L - R)) / steps;
  const y = (v) => T + ((hi - v) * (H - T - B)) / (hi - lo);
  const parts = [];
  parts.push(svg("title", {}, t("chart_title")));
  // the frame, the zero line and the scale
  parts.push(svg("line", { x1: L, y1: T, x2: L, y2: H - B, stroke: "#9a8b70", "stroke-width": 1 }));
  parts.push(svg("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, stroke: "#9a8b70", "stroke-width": 1 }));
  parts.push(svg("line", { x1: L, y1: y(0), x2: W - R, y2: y(0), stroke: "#9a8b70", "stroke-dasharray": "4 3", "stroke-width": 1 }));
  for (const v of [...new Set([hi, 0, lo])]) {
    parts.push(svg("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", "font-size": 11, fill: "#5a4a36" }, signed(v)));
  }
  const every = Math.max(1, Math.ceil(steps / 10));
  for (let i = 0; i < rows.length; i += every) {
    const label = i === 0 ? t("chart_start") : String(i);
    parts.push(svg("text", { x: x(i), y: H - B + 16, "text-anchor": "middle", "font-size": 11, fill: "#5a4a36" }, label));
  }
  parts.push(svg("text", { x: W - R, y: H - 4, "text-anchor": "end", "font-size": 11, fill: "#5a4a36" }, t("chart_axis")));
  seats.forEach((seat, k) => {
    const color = SEAT_COLORS[seat % SEAT_COLORS.length];
    const points = rows.map((r, i) => `${x(i).toFixed(1)},${y(Number(r[k]) || 0).toFixed(1)}`).join(" ");
    parts.push(
      svg(
        "polyline",
        { points, fill: "none", stroke: color, "stroke-width": 2.5, "stroke-linejoin": "round", "data-testid": "chart-line", "data-seat": seat },
        svg("title", {}, nm.who(seat)),
      ),
    );
    rows.forEach((r, i) => {
      if (i === 0) return;
      const total = Number(r[k]) || 0;
      parts.push(
        svg(
          "circle",
          { cx: x(i).toFixed(1), cy: y(total).toFixed(1), r: 3.5, fill: color, "data-testid": "chart-point", "data-seat": seat, "data-hand": i, "data-total": total },
          svg("title", {}, t("chart_point", { who: nm.who(seat), n: i, total: signed(total) })),
        ),
      );
    });
  });
  const chart = svg(
    "svg",
    { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": t("chart_title"), "data-testid": "standings-chart", "data-hands": rows.length - 1 },
    parts,
  );
  const legend = h(
    "ul",
    { class: "chart-legend" },
    seats.map((seat) =>
      h(
        "li",
        { dataset: { seat } },
        svg("svg", { width: 14, height: 14, viewBox: "0 0 14 14", "aria-hidden": "true" }, svg("rect", { x: 1, y: 5, width: 12, height: 4, fill: SEAT_COLORS[seat % SEAT_COLORS.length] })),
        h("span", {}, nm.who(seat)),
      ),
    ),
  );
  return h("figure", { class: "chart-box" }, h("figcaption", { class: "muted small" }, t("chart_title")), chart, legend);
}

/** The end of a match (every 圈 played) or of the room (a 解散 vote passed): the standings,
 * the running totals chart and, after a match, 再来一局. */
function matchOverBox(msg, game, view, nm, ctx) {
  const room = msg.room || {};
  const ended = room.status === "ended";
  const mo = game.match_over && typeof game.match_over === "object" ? game.match_over : null;
  if (!mo && !ended) return null;
  const totals = mo && arr(mo.totals).length ? arr(mo.totals) : arr(game.totals);
  const seats = totals.map((_, seat) => seat);
  const ranked = totals.map((v, seat) => ({ seat, v: Number(v) || 0 })).sort((a, b) => b.v - a.v);
  const leaders = arr(mo && mo.leaders).filter(isInt);
  const lead = leaders.length ? leaders : ranked.length ? [ranked[0].seat] : [];
  const out = [h("h2", {}, ended ? t("room_dissolved") : t("match_over"))];
  if (ended) out.push(h("p", { class: "muted", testid: "dissolved" }, t("dissolved_note")));
  else out.push(h("p", { class: "win-line" }, t(lead.length > 1 ? "result_leaders" : "result_leader", { who: lead.map((s) => nm.who(s)).join(listSep()) })));
  out.push(h("h3", {}, t("standings_title")));
  out.push(
    h(
      "ol",
      { class: "standings", testid: "standings" },
      ranked.map((r) => h("li", { dataset: { seat: r.seat } }, h("span", {}, nm.who(r.seat)), h("span", { class: "num" }, signed(r.v)))),
    ),
  );
  out.push(standingsChart(game.running, seats, nm));
  const me = nm.me;
  if (!ended && room.status === "finished" && isInt(me)) {
    const ready = arr(game.ready).filter(isInt);
    const you = msg.you || {};
    const buttons = [];
    if (!ready.includes(me)) buttons.push(h("button", { type: "button", class: "btn primary", id: "again", testid: "again", onclick: () => ctx.hall.again(true) }, t("again")));
    else {
      buttons.push(h("span", { class: "muted", testid: "again-waiting" }, t("again_waiting")));
      buttons.push(h("button", { type: "button", class: "btn small", testid: "again-cancel", onclick: () => ctx.hall.again(false) }, t("again_cancel")));
    }
    if (you.host) buttons.push(h("button", { type: "button", class: "btn", id: "start-now", testid: "start-now", onclick: ctx.hall.startNow }, t("start_now")));
    out.push(h("div", { class: "buttons" }, buttons));
    out.push(h("p", { class: "muted", testid: "again-ready" }, t("again_ready", { who: ready.length ? ready.map((s) => nm.who(s)).join(listSep()) : t("none") })));
  }
  out.push(h("p", {}, h("a", { href: "/history", testid: "match-history", class: "btn small link" }, t("history_link"))));
  return h("section", { class: `match-over card${ended ? " dissolved" : ""}`, testid: "match-over", dataset: { ended: ended ? "1" : "0" } }, out);
}

/** The open 解散 vote: who asked, the countdown, and 同意 / 拒绝 for those asked. */
function voteBox(msg, nm, ctx) {
  const room = msg.room || {};
  const vote = room.vote && typeof room.vote === "object" ? room.vote : null;
  if (!vote) return null;
  const me = nm.me;
  const asked = arr(vote.asked).filter(isInt);
  const agreed = arr(vote.agreed).filter(isInt);
  const mine = isInt(me) && asked.includes(me) && !agreed.includes(me);
  const deadline = ctx.received + Math.max(0, Number(vote.remaining_ms) || 0);
  const timer = h(
    "div",
    { class: "timer", testid: "vote-timer", dataset: { deadline, total: Number(vote.total_ms) || 1 } },
    h("span", { class: "timer-sec" }),
    h("span", { class: "timer-bar" }, h("span", { class: "timer-fill" })),
    h("span", { class: "timer-default" }, t(vote.timeout === "refuse" ? "vote_timeout_refuse" : "vote_timeout_agree")),
  );
  updateTimer(timer);
  const parts = [h("p", { class: "vote-line" }, t(mine ? "vote_ask" : "vote_open", { who: nm.who(vote.by) })), timer];
  if (mine) {
    parts.push(
      h(
        "div",
        { class: "buttons" },
        h("button", { type: "button", class: "btn primary", testid: "vote-agree", onclick: () => ctx.hall.vote(true) }, t("vote_agree")),
        h("button", { type: "button", class: "btn", testid: "vote-refuse", onclick: () => ctx.hall.vote(false) }, t("vote_refuse")),
      ),
    );
  }
  parts.push(h("p", { class: "muted small", testid: "vote-agreed" }, t("vote_agreed", { who: agreed.length ? agreed.map((s) => nm.who(s)).join(listSep()) : t("none") })));
  return h("section", { class: "card vote", testid: "vote", role: "alertdialog", dataset: { by: vote.by } }, parts);
}

/** The quick phrases and emotes (and a short text where the room allows it). */
export function talkPanel(room, ctx) {
  const hall = ctx.hall;
  if (!hall || !hall.talkOpen) return null;
  const talk = hall.talk || {};
  const en = getLang() === "en";
  const phrases = arr(talk.phrases).filter((p) => p && typeof p.id === "string");
  const emotes = arr(talk.emotes).filter((e) => e && typeof e.id === "string");
  const parts = [
    h(
      "div",
      { class: "phrases" },
      phrases.map((p) =>
        h("button", { type: "button", class: "btn small phrase", testid: "phrase", dataset: { id: p.id }, title: en ? String(p.zh) : String(p.en), onclick: () => hall.say({ phrase: p.id }) }, en ? `${p.zh} · ${p.en}` : String(p.zh)),
      ),
    ),
    h(
      "div",
      { class: "emotes" },
      emotes.map((e) =>
        h("button", { type: "button", class: "btn small emote", testid: "emote", dataset: { id: e.id }, title: en ? String(e.en) : String(e.zh), "aria-label": en ? String(e.en) : String(e.zh), onclick: () => hall.say({ emote: e.id }) }, String(e.symbol), h("span", { class: "emote-label" }, en ? String(e.en) : String(e.zh))),
      ),
    ),
  ];
  if (room && room.free_text) {
    const max = Number.isInteger(talk.max_text) ? talk.max_text : 40;
    const input = h("input", { type: "text", id: "talk-text", testid: "talk-text", maxlength: String(max), placeholder: t("talk_placeholder", { n: max }), "aria-label": t("talk_placeholder", { n: max }) });
    const form = h("form", { class: "talk-form" }, input, h("button", { type: "submit", class: "btn small", testid: "talk-send" }, t("talk_send")));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (text) hall.say({ text });
      input.value = "";
    });
    parts.push(form);
  }
  return h("div", { class: "talk-panel", testid: "talk-panel" }, parts);
}

/** Your seat's tools at the table: 托管, auto-pass, 解散, the quick phrases. */
function hallBar(msg, ctx) {
  const room = msg.room || {};
  const you = msg.you || {};
  const hall = ctx.hall;
  if (!hall || !isInt(you.seat) || room.status === "ended") return null;
  const mine = arr(room.seats).find((s) => s && s.seat === you.seat) || {};
  const on = Boolean(mine.tuoguan);
  const auto = h("input", { type: "checkbox", id: "autopass", testid: "autopass", checked: Boolean(you.autopass), onchange: (e) => hall.autopass(e.target.checked) });
  return h(
    "div",
    { class: "hall", testid: "hall" },
    h("button", { type: "button", class: `btn small${on ? " primary" : ""}`, id: "tuoguan", testid: "tuoguan", dataset: { on: on ? "1" : "0" }, "aria-pressed": on ? "true" : "false", onclick: () => hall.tuoguan(!on) }, on ? t("tuoguan_off") : t("tuoguan_on")),
    h("label", { class: "check small" }, auto, h("span", {}, t("autopass"))),
    h("button", { type: "button", class: "btn small", id: "dissolve", testid: "dissolve", disabled: Boolean(room.vote), onclick: hall.dissolve }, t("dissolve")),
    h("button", { type: "button", class: "btn small", id: "talk-toggle", testid: "talk-toggle", "aria-expanded": hall.talkOpen ? "true" : "false", onclick: hall.toggleTalk }, hall.talkOpen ? t("talk_close") : t("talk_toggle")),
    talkPanel(room, ctx),
  );
}

/**
 * The whole table for a state message. ctx: {act(action), next(), askHints(), hints,
 * busy (an act of this seq is on its way), busyNext, received (ms when the state came),
 * hall: {tuoguan(on), autopass(on), dissolve(), vote(agree), again(ready), startNow(),
 * say({phrase|emote|text}), toggleTalk(), talkOpen, talk (welcome.talk), bubbles (seat →
 * {said, at})}, tapMode ("once" | "raise"), raised (the card a first tap raised, or
 * null), raise(card), outranked ({mine, take, by} or null: your response that another
 * seat's outranked), fx: {age(i): ms since the page first saw event i of the hand}}.
 */
export function renderGame(msg, ctx) {
  const game = msg.game;
  const room = msg.room || {};
  const view = game && typeof game.view === "object" && game.view ? game.view : null;
  if (!view) return h("p", { class: "muted" }, t("waiting_game"));
  const me = isInt(view.seat) ? view.seat : msg.you && isInt(msg.you.seat) ? msg.you.seat : null;
  const nm = makeNames(seatNames(room), me);
  const legal = arr(game.legal).filter((a) => typeof a === "string");
  const discards = legal.filter((a) => parseAction(a).kind === "discard");
  const others = sortActions(legal.filter((a) => parseAction(a).kind !== "discard"));
  const declared = typeof game.declared === "string" && game.declared ? game.declared : null;
  const canAct = !declared && !ctx.busy && view.phase !== "over";
  const legalCards = new Map();
  if (canAct) for (const a of discards) legalCards.set(parseAction(a).cards[0], a);

  // the last lesson (/learn/play) is done once a hand with the coach is over
  if (room.coach && game.result && isInt(me)) recordStars("play", 3);

  const parts = [];
  parts.push(voteBox(msg, nm, ctx));
  parts.push(matchOverBox(msg, game, view, nm, ctx));
  parts.push(resultBox(game, view, nm, { ...ctx, status: room.status }));

  const marks = lastMarks(game.log);
  const age = ctx.fx && typeof ctx.fx.age === "function" ? ctx.fx.age : () => Infinity;
  const fx = { age, events: { take: marks.take ? marks.take.i : null, flip: marks.flip ? marks.flip.i : null } };
  // a room ended by a 解散 vote mid-hand: nobody is to play any more
  const halted = room.status === "ended";
  const board = boardParts(view, { nm, roomSeats: arr(room.seats), game, roomQuan: room.match_quan, hall: ctx.hall, host: room.host, marks, fx, halted });

  // Your side: prompt, timer, options, hand.
  const mine = [];
  mine.push(hallBar(msg, ctx));
  const mySeat = arr(room.seats).find((s) => s && s.seat === me) || {};
  if (isInt(me) && mySeat.tuoguan && room.status !== "ended") mine.push(h("p", { class: "card warn small", testid: "tuoguan-note", role: "status" }, t("tuoguan_note")));
  if (isInt(me)) {
    // your 吃 (or 对, 开, 胡) lost to another seat's higher or earlier response (R-5.4): you
    // know what you declared, and everyone sees what was taken
    const out = ctx.outranked;
    if (out && isInt(out.by)) {
      const words = { who: nm.who(out.by), take: takeWord(out.take), mine: takeWord(out.mine) };
      mine.push(
        h(
          "p",
          { class: "outranked card warn small", testid: "outranked", role: "status", dataset: { mine: out.mine, by: out.by, take: out.take } },
          t(out.take === out.mine ? "outranked_order" : "outranked", words),
        ),
      );
    }
    const prompt = halted ? null : promptText(game, view, nm, legal, discards, others);
    if (prompt) mine.push(h("div", { class: "prompt", testid: "prompt" }, prompt));
    // the coach's note on your last move (room option coach: from your own view only)
    const note = game.coach && typeof game.coach === "object" && game.coach.text ? game.coach : null;
    if (note && note.hand === game.hand) {
      const text = String(getLang() === "en" ? note.text.en : note.text.zh);
      mine.push(h("p", { class: "coach", testid: "coach", role: "status", dataset: { reason: note.reason } }, text));
    }
    if (declared) {
      mine.push(h("div", { class: "declared", testid: "declared" }, t("declared", { action: actionLabel(declared, view.pending) })));
    }
    if (view.phase !== "over") mine.push(timerBox(game, view, ctx.received, legal.length > 0 && !declared));
    if (others.length && !declared) {
      mine.push(
        h(
          "div",
          { class: "actions", testid: "actions" },
          others.map((a) => {
            const kind = parseAction(a).kind;
            return h(
              "button",
              {
                type: "button",
                class: `btn action act-${kind}${kind === "hu" ? " primary" : ""}`,
                testid: "action",
                dataset: { action: a },
                disabled: !canAct,
                onclick: () => ctx.act(a),
              },
              kind === "hu" && view.phase === "opening" ? t("tianhu_button") : actionLabel(a, view.pending),
            );
          }),
        ),
      );
    }
    // why the engine refuses what you might reach for: held cards (on hover or tap) and a
    // 吃, 对 or 胡 of the pending card not offered (who may 吃 at all is left out)
    const refusals = arr(game.refusals).filter((r) => r && typeof r === "object" && typeof r.reason === "string");
    const cardWhy = new Map();
    for (const r of refusals) if ((r.reason === "locked" || r.reason === "shangtu_xiaxie") && r.card) cardWhy.set(r.card, cardRefusalText(r));
    const takeWhy = refusals.filter((r) => r.reason !== "locked" && r.reason !== "shangtu_xiaxie" && r.reason !== "not_chi_seat");
    if (takeWhy.length && !declared && view.phase === "response") {
      mine.push(h("ul", { class: "refusals small", testid: "refusals" }, takeWhy.map((r) => h("li", { dataset: { reason: r.reason } }, refusalText(r)))));
    }
    const why = h("p", { class: "why small", testid: "why", role: "status", "aria-live": "polite" });
    const hand = sortCards(arr(view.hand));
    // "raise": the first tap lifts a card, a second tap on it discards it (prefs.js), so one
    // tap never discards by accident; "once": a click discards
    const raising = ctx.tapMode === "raise";
    const raised = raising && legalCards.has(ctx.raised) ? ctx.raised : null;
    let raisedDone = false;
    mine.push(
      h(
        "div",
        { class: `hand${legalCards.size ? " discarding" : ""}`, testid: "my-hand", dataset: { tap: raising ? "raise" : "once" } },
        hand.map((c, i) => {
          const el = tile(c, {
            button: true,
            testid: "hand-card",
            legal: legalCards.has(c),
            onclick: () => (raising && raised !== c ? ctx.raise(c) : ctx.act(legalCards.get(c))),
            why: canAct && legalCards.size ? cardWhy.get(c) : undefined,
            onwhy: () => {
              why.textContent = cardWhy.get(c) || "";
            },
          });
          el.id = `hand-card-${i}`; // (the focus stays on it when the table is redrawn)
          if (raised === c && !raisedDone) {
            raisedDone = true; // (one copy of the card is lifted)
            el.classList.add("raised");
            el.dataset.raised = "1";
            el.setAttribute("aria-pressed", "true");
          }
          return el;
        }),
      ),
    );
    mine.push(why);
    if (legalCards.size) {
      const hint = raised ? t("raise_hint", { card: face(raised) }) : raising ? t("tap_to_raise") : t("click_to_discard");
      mine.push(h("p", { class: `muted small${raised ? " raise-hint" : ""}`, testid: "discard-hint" }, hint));
    }
    if (view.phase !== "over") {
      mine.push(
        h(
          "div",
          { class: "tools" },
          h("button", { type: "button", class: "btn small", id: "hints", testid: "hints", onclick: ctx.askHints }, t("hints_button")),
        ),
      );
      mine.push(hintsPanel(ctx.hints, view.pending));
    }
    mine.push(legend());
  } else {
    mine.push(h("p", { class: "muted", testid: "spectating" }, t("spectating")));
    mine.push(legend());
  }

  const log = h(
    "ol",
    { class: "log", testid: "log", id: "log" },
    arr(game.log).map((ev) => {
      const text = eventText(ev, nm);
      return text ? h("li", { class: `ev ev-${ev && ev.event}`, dataset: { step: ev && ev.step } }, text) : null;
    }),
  );

  parts.push(
    h(
      "div",
      { class: "table-grid" },
      h("div", { class: "table-main" }, board.top, board.mine, h("section", { class: "me-area" }, mine)),
      h("aside", { class: "table-side" }, h("h3", {}, t("log_title")), log),
    ),
  );
  return h("div", { class: "table", testid: "table", dataset: { hand: game.hand, step: game.step, phase: view.phase } }, parts);
}
