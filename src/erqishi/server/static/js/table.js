// The game table, drawn from one `state` message (docs/protocol.md): status line, every
// seat, the pending card, your hand, your options, the timer, hints, the log and the
// end-of-hand breakdown. renderBoard() also draws the replay's frames.
//
// data-testid (stable, for browser tests):
//   status          the status line (圈, hand number, dealer, turn, stock)
//   seat-panel-N    seat N's panel (name, tags, card count, announced 八块, melds, row);
//                   class "turn" on the seat to act, data-dealer="1" on the dealer
//   pending         the pending card box; pending-card its tile (data-card)
//   prompt          what you are asked to do now
//   my-hand         your hand; hand-card one tile (data-card="x3"; data-legal="1" and
//                   clickable when discarding it is legal: a click sends "discard x3")
//   action          one option button, data-action = the ASCII action it sends
//   declared        "declared, waiting for the others" (your response in this window)
//   timer           the countdown (data-remaining = whole seconds left), with the default
//   hints           asks the server for hints; hints-panel shows the reply (下叫)
//   log             the events of this hand in words
//   result          the end-of-hand breakdown; next-hand sends `next`; ready lists who is
//                   ready; replay-hand links to the hand's replay
//   match-over      the final standings
//   spectating      shown instead of a hand to a spectator
//   legend          explains the tile colours
import { h, arr, signed } from "./dom.js";
import { t, getLang } from "./i18n.js";
import { face, tile, tiles, parseAction, actionLabel, kuai, groupName, sortCards } from "./cards.js";
import { eventText, sentence, refusalText, cardRefusalText } from "./narrate.js";
import { recordStars } from "./learn.js";

const KIND_ORDER = { hu: 0, kai: 1, dui: 2, chi: 3, discard: 4, pass: 9 };
const EN_VERB = { chi: "chow", dui: "pung", kai: "kong", hu: "win", pass: "pass", discard: "discard" };
const ZH_VERB = { chi: "吃", dui: "对", kai: "开", hu: "胡", pass: "过", discard: "打" };

const isInt = (x) => Number.isInteger(x);

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
    return names[seat] || t("seat_n", { n: seat });
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

function melds(groups) {
  const list = arr(groups);
  if (!list.length) return h("span", { class: "muted" }, t("none"));
  return list.map((g) =>
    h(
      "span",
      { class: "meld", title: groupName(g) },
      h("span", { class: "meld-name" }, groupName(g || {})),
      tiles(g && g.cards),
      isInt(g && g.hu) ? h("span", { class: "meld-hu" }, t("hu_unit", { hu: g.hu })) : null,
    ),
  );
}

/** One seat's panel. opts: {room seat info, showHand} */
function seatPanel(view, sv, nm, opts) {
  const seat = sv.seat;
  const info = opts.roomSeat || {};
  const turn = isInt(view.turn) && view.turn === seat && view.phase !== "over";
  const dealer = view.dealer === seat;
  const tags = [];
  if (seat === nm.me) tags.push(h("span", { class: "tag me" }, t("you")));
  const rel = relation(view, seat, nm.me);
  if (rel) tags.push(h("span", { class: "tag" }, rel));
  if (dealer) tags.push(h("span", { class: "tag dealer", testid: "dealer", title: t("dealer") }, t("dealer_mark")));
  if (info.kind === "bot") tags.push(h("span", { class: "tag bot" }, t("bot")));
  if (info.kind === "human" && info.connected === false) tags.push(h("span", { class: "tag off" }, t("offline")));
  if (info.away) tags.push(h("span", { class: "tag off" }, t("away")));
  const order = arr(view.order);
  if (order.length && !order.includes(seat)) tags.push(h("span", { class: "tag off" }, t("sits_out")));
  if (turn) tags.push(h("span", { class: "tag turn" }, view.phase === "response" ? t("turn_response") : t("turn_mark")));
  const name = seat === nm.me ? nm.names[seat] || t("you") : nm.who(seat);
  const hand = opts.showHand && sv.hand ? sortCards(sv.hand) : null;
  return h(
    "div",
    {
      class: `seat-panel${turn ? " turn" : ""}${seat === nm.me ? " mine" : ""}`,
      testid: `seat-panel-${seat}`,
      dataset: { seat, dealer: dealer ? "1" : null },
    },
    h("div", { class: "seat-head" }, h("strong", { class: "seat-name" }, name), h("span", { class: "seat-no" }, t("seat_n", { n: seat })), tags),
    h(
      "div",
      { class: "seat-info" },
      h("span", { testid: "hand-size" }, t("hand_size", { n: isInt(sv.hand_size) ? sv.hand_size : "?" })),
      sv.announced ? h("span", { class: "announced", testid: "announced" }, t("announced", { count: kuai(sv.announced), n: sv.announced })) : null,
    ),
    h("div", { class: "seat-line" }, h("span", { class: "label" }, t("melds") + t("colon")), melds(sv.melds)),
    h(
      "div",
      { class: "seat-line" },
      h("span", { class: "label" }, t("row") + t("colon")),
      arr(sv.row).length ? tiles(sv.row) : h("span", { class: "muted" }, t("none")),
    ),
    hand ? h("div", { class: "seat-line" }, h("span", { class: "label" }, t("hand") + t("colon")), tiles(hand)) : null,
  );
}

function statusLine(view, game, nm, roomQuan) {
  const parts = [];
  // the current 圈: the table's (always known), else the view's (null when 圈胡 is off)
  const quan = game && isInt(game.quan) ? game.quan : view.quan;
  if (quan !== null && quan !== undefined) {
    parts.push(roomQuan ? t("status_quan", { quan, of: roomQuan }) : t("status_quan_only", { quan }));
  }
  if (game && isInt(game.hand)) parts.push(t("status_hand", { n: game.hand }));
  if (isInt(view.dealer)) parts.push(t("status_dealer", { who: nm.who(view.dealer) }));
  if (view.phase === "over") parts.push(t("status_over"));
  else if (view.phase === "response") parts.push(t("status_response"));
  else if (isInt(view.turn)) parts.push(t("status_turn", { who: nm.who(view.turn) }));
  if (isInt(view.stock_left)) parts.push(t("status_stock", { n: view.stock_left }));
  return h("div", { class: "status", testid: "status" }, parts.map((p) => h("span", {}, p)));
}

function pendingBox(view, nm) {
  if (!view.pending || view.phase !== "response") return null;
  const key = view.pending_flip ? "pending_flipped" : "pending_discarded";
  return h(
    "div",
    { class: "pending", testid: "pending", dataset: { flip: view.pending_flip ? "1" : "0", seat: view.turn } },
    h("span", {}, t(key, { who: nm.who(view.turn), s: nm.s(view.turn) })),
    tile(view.pending, { testid: "pending-card", cls: "tile-l" }),
  );
}

/** The seats, the status line and the pending card of one view (also used by the replay). */
export function renderBoard(view, opts) {
  const nm = opts.nm;
  const roomSeats = opts.roomSeats || [];
  const svs = arr(view.seats).filter((sv) => sv && isInt(sv.seat));
  // The others in playing order starting from your 下家; your own seat last.
  const me = nm.me;
  const others = svs.filter((sv) => sv.seat !== me);
  if (isInt(me)) others.sort((a, b) => ((a.seat - me + 100) % 100) - ((b.seat - me + 100) % 100));
  const mine = svs.find((sv) => sv.seat === me);
  const over = view.phase === "over";
  const panel = (sv) =>
    seatPanel(view, sv, nm, {
      roomSeat: roomSeats.find((r) => r && r.seat === sv.seat),
      showHand: opts.showHands || (over && sv.seat !== me) || (sv.seat !== me && Array.isArray(sv.hand)),
    });
  return h(
    "div",
    { class: "board" },
    statusLine(view, opts.game, nm, opts.roomQuan),
    h("div", { class: "seats" }, others.map(panel)),
    pendingBox(view, nm),
    mine ? h("div", { class: "seats mine" }, panel(mine)) : null,
  );
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

function hintsPanel(hints) {
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
  return h("div", { class: "hints-panel", testid: "hints-panel" }, h("strong", {}, t("hints_title")), lines);
}

function resultBox(game, view, nm, ctx) {
  const r = game.result;
  if (!r || typeof r !== "object") return null;
  const out = [h("h2", {}, t("result_title"))];
  if (r.kind === "win" && isInt(r.winner)) {
    const sourceText = typeof r.source === "string" ? sentence(`source_${r.source}`) : "";
    out.push(h("p", { class: "win-line", testid: "result-winner" }, t("result_win", { who: nm.who(r.winner), s: nm.s(r.winner), source: sourceText })));
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
    out.push(h("p", { testid: "result-hu" }, t("result_hu", { hu: r.hu ?? "?", tier: tier ? tier.name : "-", base: tier ? tier.base : "-" })));
    const fan = arr(r.fan).filter((f) => typeof f === "string");
    out.push(h("p", { testid: "result-fan" }, t("result_fan", { fans: fan.length ? fan.join("、") : t("none") })));
    out.push(h("p", { class: "score", testid: "result-score" }, t("result_score", { score: r.score ?? "?" })));
  } else {
    out.push(h("p", { class: "win-line", testid: "result-dead" }, t("result_dead")));
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
    out.push(h("p", {}, h("a", { href: `/replay/${encodeURIComponent(r.hand_id)}`, target: "_blank", rel: "noopener", testid: "replay-hand" }, t("replay_this_hand"))));
  }
  if (!game.match_over) {
    const ready = arr(game.ready).filter(isInt);
    const me = nm.me;
    if (isInt(me) && !ready.includes(me)) {
      out.push(h("button", { type: "button", class: "btn primary", id: "next-hand", testid: "next-hand", onclick: ctx.next, disabled: ctx.busyNext }, t("next_hand")));
    } else if (isInt(me)) {
      out.push(h("p", { class: "muted" }, t("waiting_next")));
    }
    if (game.timer) out.push(timerBox(game, view, ctx.received, false));
    out.push(h("p", { class: "muted", testid: "ready" }, t("ready_list", { who: ready.length ? ready.map((s) => nm.who(s)).join("、") : t("none") })));
  }
  return h("section", { class: "result card", testid: "result" }, out);
}

function matchOverBox(game, nm) {
  const mo = game.match_over;
  if (!mo || typeof mo !== "object") return null;
  const totals = arr(mo.totals).length ? arr(mo.totals) : arr(game.totals);
  const ranked = totals.map((v, seat) => ({ seat, v: Number(v) || 0 })).sort((a, b) => b.v - a.v);
  const leaders = arr(mo.leaders).filter(isInt);
  const lead = leaders.length ? leaders : ranked.length ? [ranked[0].seat] : [];
  return h(
    "section",
    { class: "match-over card", testid: "match-over" },
    h("h2", {}, t("match_over")),
    h("p", { class: "win-line" }, t(lead.length > 1 ? "result_leaders" : "result_leader", { who: lead.map((s) => nm.who(s)).join("、") })),
    h(
      "ol",
      { class: "standings", testid: "standings" },
      ranked.map((r) => h("li", { dataset: { seat: r.seat } }, h("span", {}, nm.who(r.seat)), h("span", { class: "num" }, signed(r.v)))),
    ),
    h("p", {}, h("a", { href: "/history", testid: "match-history" }, t("history_link"))),
  );
}

/**
 * The whole table for a state message. ctx: {act(action), next(), askHints(), hints,
 * busy (an act of this seq is on its way), busyNext, received (ms when the state came)}.
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
  parts.push(matchOverBox(game, nm));
  parts.push(resultBox(game, view, nm, ctx));

  const board = renderBoard(view, { nm, roomSeats: arr(room.seats), game, roomQuan: room.match_quan });

  // Your side: prompt, timer, options, hand.
  const mine = [];
  if (isInt(me)) {
    const prompt = promptText(game, view, nm, legal, discards, others);
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
    mine.push(
      h(
        "div",
        { class: `hand${legalCards.size ? " discarding" : ""}`, testid: "my-hand" },
        hand.map((c) =>
          tile(c, {
            button: true,
            testid: "hand-card",
            legal: legalCards.has(c),
            onclick: () => ctx.act(legalCards.get(c)),
            why: canAct && legalCards.size ? cardWhy.get(c) : undefined,
            onwhy: () => {
              why.textContent = cardWhy.get(c) || "";
            },
          }),
        ),
      ),
    );
    mine.push(why);
    if (legalCards.size) mine.push(h("p", { class: "muted small" }, t("click_to_discard")));
    if (view.phase !== "over") {
      mine.push(
        h(
          "div",
          { class: "tools" },
          h("button", { type: "button", class: "btn small", id: "hints", testid: "hints", onclick: ctx.askHints }, t("hints_button")),
        ),
      );
      mine.push(hintsPanel(ctx.hints));
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
      h("div", { class: "table-main" }, board, h("section", { class: "me-area" }, mine)),
      h("aside", { class: "table-side" }, h("h3", {}, t("log_title")), log),
    ),
  );
  return h("div", { class: "table" }, parts);
}
