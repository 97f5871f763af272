// The room page /r/CODE: join with a display name (or watch), the lobby's seats, then the
// table (table.js). Every render is from the latest `state` message only.
//
// data-testid (stable, for browser tests):
//   room-code       the room's code
//   share-link      a read-only field with the room's link; copy-link copies it
//   name-input      your display name; join joins and takes the first empty seat;
//   spectate        joins without a seat (watch)
//   lobby-seat-N    seat N in the lobby; sit-N takes it; stand leaves your seat;
//                   unbot-N removes the bot in seat N
//   fill-bots       fills every empty seat with a bot
//   start           starts the match (every seat taken)
//   rename-input, rename   change your display name
//   spectators      the number of spectators
//   room-missing    shown when the room does not exist
//   talk-toggle, talk-panel, bubble   the quick phrases in the lobby too (as at the table)
// The table's own ids are listed at the top of table.js; the header has conn-status
// (connection indicator), lang-toggle and the settings (settings-toggle: prefs.js).
import { h, replace, store, toast, getJSON, arr } from "./dom.js";
import { t, getLang, errText, listSep } from "./i18n.js";
import { Connection, tokenKey } from "./net.js";
import { renderGame, updateTimers, seatNames, talkPanel, saidText, BUBBLE_MS } from "./table.js";
import { presetName, roomRules, botLevelName } from "./lobby.js";
import { seatLabel } from "./names.js";
import { errorPage } from "./errors.js";
import { tapMode } from "./prefs.js";
import { playSound } from "./sound.js";
import { parseAction } from "./cards.js";

const NAME_KEY = "erqishi.name";
/** How long "your 吃 was outranked" stays in sight. */
const OUTRANKED_MS = 8000;
const reducedMotion = () => {
  try {
    return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  } catch {
    return false;
  }
};

export function roomPage(root, code, { setConn, navigate }) {
  let summary = null; // GET /api/rooms/CODE before joining
  let missing = false;
  let msg = null; // the latest state message
  let received = 0;
  let hints = null;
  let notice = null; // the last saving_failed or saving_memory notice, shown while room.saving is not "ok"
  let hintsKey = null;
  let busySeq = null; // seq of the state an act was sent for
  let busyNext = false;
  let conn = null;
  let autoSit = false;
  let destroyed = false;
  let talk = null; // welcome.talk: the quick phrases and emotes
  let talkOpen = false;
  const bubbles = new Map(); // seat -> {said, at}: what each seat said last
  let raised = null; // {key (the decision), card}: the card lifted by a first tap
  let myDecl = null; // {hand, step, action}: your own response in the open window
  let outranked = null; // {hand, mine, by, take, at}: your response lost to another seat's
  let seenAt = []; // when this page first saw each event of the hand (0: before it connected)
  let seenHand = null;
  let fresh = true; // the next state is the first on this connection
  let lastOpen = null; // the last decision of yours that opened (for its sound)
  let resultShown = null; // the hand whose result was last scrolled into sight

  const send = (m) => {
    if (!conn || !conn.send(m)) {
      toast(t("err_offline"), "info");
      return false;
    }
    return true;
  };

  function connect(name, sit) {
    if (name) store.set(NAME_KEY, name);
    autoSit = sit;
    if (conn) conn.close();
    conn = new Connection(code, {
      hello: () => ({ name: store.get(NAME_KEY) || undefined, lang: getLang() }),
      onStatus: (status) => {
        if (status !== "open") fresh = true;
        setConn(status);
      },
      onMessage,
    });
    conn.start();
    render();
  }

  function handKey(m) {
    const g = m && m.game;
    const v = g && g.view;
    if (!v) return null;
    return `${g.hand}|${arr(v.hand).join(",")}|${arr(g.legal).join(",")}`;
  }

  function onMessage(m) {
    if (destroyed) return;
    switch (m.type) {
      case "welcome":
        if (m.talk && typeof m.talk === "object") talk = m.talk;
        break;
      case "said":
        if (Number.isInteger(m.seat)) {
          bubbles.set(m.seat, { said: m, at: Date.now() });
          setTimeout(render, BUBBLE_MS + 50);
          render();
        }
        break;
      case "vote_ended":
        toast(voteText(m), m.result === "passed" ? "info" : "error");
        break;
      case "state":
        if (!m.room && !m.game) return;
        if (m.game && !joinLog(m.game)) {
          // a gap in the hand's events (should not happen on one socket): start afresh
          if (conn) conn.restart();
          return;
        }
        if (m.game) seeEvents(m);
        msg = m;
        received = Date.now();
        missing = false;
        if (busySeq !== null && m.seq !== busySeq) busySeq = null;
        if (!m.game || !m.game.result || m.game.match_over) busyNext = false;
        if (hints && handKey(m) !== hintsKey) hints = null;
        maybeAutoSit();
        render();
        break;
      case "notice":
        // saving failed or works again: the server's own words, in the page's language
        if (m.text && typeof m.text === "object") {
          notice = m.code === "saving_ok" ? null : m;
          toast(getLang() === "en" ? m.text.en : m.text.zh, m.code === "saving_ok" ? "info" : "error");
          render();
        }
        break;
      case "hints":
        hints = m;
        hintsKey = handKey(msg);
        render();
        break;
      case "error":
        if (m.ref === "hello" && !msg && (m.code === "bad_name" || m.code === "name_taken")) {
          // the name was refused before joining: back to the form, the name there to change
          const refused = store.get(NAME_KEY) || "";
          store.set(NAME_KEY, null);
          if (conn) conn.close();
          conn = null;
          toast(errorText(m));
          render();
          const input = root.querySelector("#name-input");
          if (input) {
            input.value = refused;
            input.focus();
            input.select();
          }
          return;
        }
        if (m.code === "not_found") {
          // The room is gone (the server restarted or dropped it): stop reconnecting.
          missing = true;
          msg = null;
          if (conn) conn.close();
          conn = null;
          render();
          return;
        }
        if (m.ref === "act") {
          busySeq = null;
          myDecl = null;
        }
        if (m.ref === "next") busyNext = false;
        toast(errorText(m));
        render();
        break;
      default:
        break;
    }
  }

  // The server sends each connection only the hand's events it has not sent yet
  // (game.log_from says where they start): keep the whole log of the hand here.
  let log = [];
  let logHand = null;
  function joinLog(game) {
    const start = Number.isInteger(game.log_from) ? game.log_from : 0;
    if (start === 0 || game.hand !== logHand) log = [];
    if (start !== log.length) return false;
    log = log.concat(arr(game.log));
    logHand = game.hand;
    game.log = log;
    return true;
  }

  // What is new in this state: when each event was first seen (for the animations), a
  // sound for what just happened, and whether your own response was outranked.
  function seeEvents(m) {
    const g = m.game;
    const now = Date.now();
    const quiet = fresh; // a (re)connect: the whole log at once, no sounds or animations
    fresh = false;
    if (g.hand !== seenHand) {
      seenHand = g.hand;
      seenAt = [];
    }
    const before = seenAt.length;
    for (let i = before; i < log.length; i++) seenAt.push(quiet ? 0 : now);
    const added = quiet ? [] : log.slice(before).filter((ev) => ev && typeof ev === "object");
    const me = m.you && Number.isInteger(m.you.seat) ? m.you.seat : null;
    // your own response: as you sent it, or as the server says you declared it
    if (Number.isInteger(me) && typeof g.declared === "string" && g.declared && g.declared !== "pass") {
      myDecl = { hand: g.hand, step: g.step, action: g.declared };
    }
    let beaten = false;
    if (myDecl) {
      if (myDecl.hand !== g.hand) myDecl = null;
      else {
        const fate = log.find((ev) => ev && ev.step === myDecl.step + 1 && (ev.event === "took" || ev.event === "won" || ev.event === "passed"));
        if (fate) {
          if ((fate.event === "took" || fate.event === "won") && Number.isInteger(fate.seat) && fate.seat !== me) {
            const take = fate.event === "won" ? "hu" : fate.take;
            outranked = { hand: g.hand, mine: parseAction(myDecl.action).kind, by: fate.seat, take, at: now };
            beaten = !quiet;
            setTimeout(render, OUTRANKED_MS + 50);
            if (beaten && fate.event === "won") {
              // the hand is over and its result takes the eye: say it where it is seen too
              const name = seatNames(m.room)[fate.seat];
              const who = name ? seatLabel(name) : t("seat_n", { n: fate.seat });
              const words = { who, take: t(`decl_${take}`), mine: t(`decl_${outranked.mine}`) };
              toast(t(take === outranked.mine ? "outranked_order" : "outranked", words), "info");
            }
          }
          myDecl = null;
        }
      }
    }
    const open = Number.isInteger(me) && arr(g.legal).length && !g.declared ? `${g.hand}:${g.step}` : null;
    const opened = open !== null && open !== lastOpen;
    lastOpen = open;
    if (quiet) return;
    const kinds = new Set(added.map((ev) => ev.event));
    const sound = beaten ? "outranked" : kinds.has("won") ? "win" : opened ? "turn" : kinds.has("took") ? "take" : kinds.has("flipped") ? "flip" : kinds.has("discarded") ? "discard" : null;
    if (sound) playSound(sound);
  }

  /** ms since this page first saw event i of the hand (Infinity if it came with the page). */
  function eventAge(i) {
    if (!Number.isInteger(i) || i < 0 || i >= seenAt.length || !seenAt[i] || reducedMotion()) return Infinity;
    return Date.now() - seenAt[i];
  }

  function decisionKey() {
    const g = msg && msg.game;
    return g ? `${g.hand}:${g.step}:${msg.seq}` : null;
  }

  function maybeAutoSit() {
    if (!autoSit || !msg || !msg.room) return;
    const room = msg.room;
    const you = msg.you || {};
    if (room.status !== "lobby" || Number.isInteger(you.seat)) {
      // "join and sit" after the match began (or a seat kept from before): say which
      if (!Number.isInteger(you.seat)) toast(t("joined_watching"), "info");
      autoSit = false;
      return;
    }
    const empty = arr(room.seats).find((s) => s && s.kind === "empty");
    autoSit = false;
    if (empty) send({ type: "sit", seat: empty.seat });
    else toast(t("joined_watching_full"), "info");
  }

  // How a 解散 vote ended, in words (who refused, or who did not answer in time).
  function voteText(m) {
    const names = seatNames(msg && msg.room);
    const who = (seat) => (Number.isInteger(seat) ? names[seat] || t("seat_n", { n: seat }) : "?");
    if (m.result === "passed") return t(m.reason === "timeout" ? "vote_passed_timeout" : m.reason === "alone" ? "vote_passed_alone" : "vote_passed");
    if (m.reason === "timeout") return t("vote_refused_timeout", { who: arr(m.silent).map(who).join(listSep()) || "?" });
    return t("vote_refused", { who: who(m.refused) });
  }

  function errorText(m) {
    const code = typeof m.code === "string" ? m.code : "";
    const known = t(`error_${code}`);
    if (known !== `error_${code}`) return known;
    return errText(m) || t("error_generic");
  }

  // ---------------------------------------------------------------- pieces

  function header(room) {
    const link = `${window.location.origin}/r/${code}`;
    const input = h("input", { type: "text", readonly: true, class: "share", id: "share-link", testid: "share-link", value: link, "aria-label": t("share_link") });
    input.addEventListener("focus", () => input.select());
    const copy = h(
      "button",
      {
        type: "button",
        class: "btn small",
        id: "copy-link",
        testid: "copy-link",
        onclick: async () => {
          try {
            await navigator.clipboard.writeText(link);
          } catch {
            input.select();
            try {
              document.execCommand("copy");
            } catch {
              /* the field stays selected for a manual copy */
            }
          }
          toast(t("copied"), "info");
        },
      },
      t("copy"),
    );
    const info = [];
    if (room) {
      if (room.preset) info.push(presetName(room.preset));
      if (Number.isInteger(room.players)) info.push(t("players_n", { n: room.players }));
      if (room.match_quan !== undefined && room.match_quan !== null) info.push(t("quan_n", { n: room.match_quan }));
      if (room.bots) info.push(`${t("bot_level")}${t("colon")}${botLevelName(room.bots)}`);
      if (room.status) info.push(t(`status_${room.status}`));
      if (Number.isInteger(room.spectators) && room.spectators > 0) info.push(t("spectators", { n: room.spectators }));
    }
    return h(
      "section",
      { class: "room-head" },
      h("div", { class: "room-title" }, h("span", {}, t("room")), h("strong", { class: "code", id: "room-code", testid: "room-code" }, code)),
      h("div", { class: "share-row" }, input, copy),
      info.length ? h("div", { class: "muted small room-info", testid: "room-info" }, info.join(" · ")) : null,
      room ? roomRules(room) : null,
    );
  }

  function seatList(room, you, interactive) {
    const mySeat = you && Number.isInteger(you.seat) ? you.seat : null;
    return h(
      "ul",
      { class: "lobby-seats" },
      arr(room.seats).map((s) => {
        if (!s || !Number.isInteger(s.seat)) return null;
        const n = s.seat;
        const mine = n === mySeat;
        const label =
          s.kind === "empty" ? h("span", { class: "muted" }, t("empty_seat")) : h("strong", {}, typeof s.name === "string" && s.name ? seatLabel(s.name) : t("seat_n", { n }));
        const tags = [];
        const said = bubbles.get(n);
        if (said && Date.now() - said.at <= BUBBLE_MS) tags.push(h("span", { class: "bubble inline", testid: "bubble" }, saidText(said.said, talk)));
        if (mine) tags.push(h("span", { class: "tag me" }, t("you")));
        if (s.kind === "bot") tags.push(h("span", { class: "tag bot" }, t("bot")));
        if (s.kind === "human" && s.connected === false) tags.push(h("span", { class: "tag off" }, t("offline")));
        let button = null;
        if (interactive) {
          if (s.kind === "empty") button = h("button", { type: "button", class: "btn small", testid: `sit-${n}`, id: `sit-${n}`, onclick: () => send({ type: "sit", seat: n }) }, t("sit"));
          else if (mine) button = h("button", { type: "button", class: "btn small", testid: "stand", id: "stand", onclick: () => send({ type: "stand" }) }, t("stand"));
          else if (s.kind === "bot" && mySeat !== null)
            button = h("button", { type: "button", class: "btn small", testid: `unbot-${n}`, id: `unbot-${n}`, onclick: () => send({ type: "unbot", seat: n }) }, t("unbot"));
        }
        return h("li", { class: `lobby-seat${mine ? " mine" : ""}`, testid: `lobby-seat-${n}`, dataset: { kind: s.kind } }, h("span", { class: "seat-no" }, t("seat_n", { n })), label, tags, h("span", { class: "spacer" }), button);
      }),
    );
  }

  function joinForm() {
    const input = h("input", {
      type: "text",
      id: "name-input",
      testid: "name-input",
      maxlength: "24",
      autocomplete: "nickname",
      placeholder: t("name_placeholder"),
      value: store.get(NAME_KEY) || "",
    });
    const go = (sit) => {
      const name = input.value.trim().slice(0, 24);
      if (!name) {
        toast(t("err_enter_name"), "info");
        input.focus();
        return;
      }
      connect(name, sit);
    };
    const form = h(
      "form",
      { class: "card form join" },
      h("label", {}, h("span", {}, t("your_name")), input),
      h(
        "div",
        { class: "buttons" },
        h("button", { type: "submit", class: "btn primary", id: "join", testid: "join" }, t("join")),
        h("button", { type: "button", class: "btn", id: "spectate", testid: "spectate", onclick: () => go(false) }, t("spectate")),
      ),
    );
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      go(true);
    });
    return form;
  }

  function lobby(room, you) {
    const seated = Number.isInteger(you.seat);
    const seats = arr(room.seats);
    const anyEmpty = seats.some((s) => s && s.kind === "empty");
    const full = seats.length > 0 && !anyEmpty;
    const rename = h("input", { type: "text", id: "rename-input", testid: "rename-input", maxlength: "24", value: typeof you.name === "string" ? you.name : "", "aria-label": t("your_name") });
    const renameForm = h(
      "form",
      { class: "rename" },
      h("label", {}, h("span", {}, t("your_name")), rename),
      h("button", { type: "submit", class: "btn small", id: "rename", testid: "rename" }, t("rename")),
    );
    renameForm.addEventListener("submit", (e) => {
      e.preventDefault();
      const name = rename.value.trim().slice(0, 24);
      if (!name) return;
      store.set(NAME_KEY, name);
      send({ type: "name", name });
    });
    return h(
      "section",
      { class: "card lobby-room" },
      h("h2", {}, t("seats")),
      seatList(room, you, true),
      h(
        "div",
        { class: "buttons" },
        seated && anyEmpty ? h("button", { type: "button", class: "btn", id: "fill-bots", testid: "fill-bots", onclick: () => send({ type: "bots" }) }, t("fill_bots")) : null,
        seated ? h("button", { type: "button", class: "btn primary", id: "start", testid: "start", disabled: !full, onclick: () => send({ type: "start" }) }, t("start")) : null,
      ),
      h("p", { class: "muted small" }, seated ? (full ? t("hint_start") : t("hint_fill")) : t("hint_sit")),
      h("p", { class: "muted small", testid: "spectators" }, t("spectators", { n: Number.isInteger(room.spectators) ? room.spectators : 0 })),
      seated ? h("div", { class: "hall" }, h("button", { type: "button", class: "btn small", id: "talk-toggle", testid: "talk-toggle", onclick: hall.toggleTalk }, talkOpen ? t("talk_close") : t("talk_toggle")), talkPanel(room, { hall })) : null,
      renameForm,
    );
  }

  // ---------------------------------------------------------------- render

  function render() {
    if (destroyed) return;
    const active = document.activeElement;
    const focusId = active && root.contains(active) ? active.id : null;
    const focusValue = active && "value" in active ? active.value : null;

    if (missing && !msg) {
      // no such room (any more): the error page, which offers no link to share
      errorPage(root, { status: 404, kind: "room_missing", code }, { navigate });
      return;
    }
    const room = msg && msg.room ? msg.room : summary;
    const parts = [header(room)];
    if (notice && room && room.saving && room.saving !== "ok") {
      parts.push(h("p", { class: "card warn", testid: "saving-notice", role: "status" }, getLang() === "en" ? notice.text.en : notice.text.zh));
    }
    if (!msg) {
      if (missing) {
        parts.push(
          h(
            "section",
            { class: "card", testid: "room-missing" },
            h("p", {}, t("room_missing", { code })),
            h("a", { href: "/", class: "btn" }, t("back_home")),
          ),
        );
      } else if (conn) {
        parts.push(h("p", { class: "muted" }, t("connecting")));
        if (summary) parts.push(h("section", { class: "card" }, seatList(summary, null, false)));
      } else {
        parts.push(joinForm());
        if (summary) parts.push(h("section", { class: "card" }, h("h2", {}, t("seats")), seatList(summary, null, false)));
      }
    } else if (room && room.status === "lobby") {
      parts.push(lobby(room, msg.you || {}));
    } else {
      try {
        parts.push(
          renderGame(msg, {
            act,
            next,
            askHints,
            hints,
            busy: busySeq !== null && busySeq === msg.seq,
            busyNext,
            received,
            hall,
            tapMode: tapMode(),
            raised: raised && raised.key === decisionKey() ? raised.card : null,
            raise: (card) => {
              raised = { key: decisionKey(), card };
              render();
            },
            outranked: outranked && msg.game && outranked.hand === msg.game.hand && Date.now() - outranked.at < OUTRANKED_MS ? outranked : null,
            fx: { age: eventAge },
          }),
        );
      } catch (err) {
        // A state the table cannot draw must not break the page.
        console.error(err);
        parts.push(h("p", { class: "error" }, t("error_render")));
      }
    }
    const offered = root.querySelector("[data-testid=pending-card]");
    const from = offered ? { card: offered.dataset.card, rect: offered.getBoundingClientRect() } : null;
    replace(root, h("div", { class: "room" }, parts));
    flyTake(from);

    if (focusId) {
      const again = document.getElementById(focusId);
      if (again) {
        if (focusValue !== null && "value" in again && again.type === "text") again.value = focusValue;
        again.focus();
      }
    }
    const log = root.querySelector("#log");
    if (log) log.scrollTop = log.scrollHeight;
    revealResult() || revealDecision();
  }

  // A card just taken flies from where it was on offer into the taker's meld.
  function flyTake(from) {
    const el = root.querySelector(".anim-take");
    if (!from || !el || el.dataset.card !== from.card || typeof el.animate !== "function" || reducedMotion()) return;
    const to = el.getBoundingClientRect();
    const dx = from.rect.left + from.rect.width / 2 - (to.left + to.width / 2);
    const dy = from.rect.top + from.rect.height / 2 - (to.top + to.height / 2);
    if (Math.abs(dx) + Math.abs(dy) < 4) return;
    el.animate([{ transform: `translate(${dx}px, ${dy}px) scale(1.6)` }, { transform: "none" }], { duration: 450, easing: "cubic-bezier(.2,.7,.3,1)" });
  }

  // When a hand ends, its result (and the next hand's timer) comes into sight.
  function revealResult() {
    const g = msg && msg.game;
    if (!g || !g.result) {
      if (g) resultShown = null; // a hand in play: its end will be shown again
      return false;
    }
    const key = String(g.hand);
    if (key === resultShown) return false;
    resultShown = key;
    const box = root.querySelector("[data-testid=match-over]") || root.querySelector("[data-testid=result]");
    if (!box) return false;
    const top = box.getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight * 0.3) box.scrollIntoView({ block: "start", behavior: reducedMotion() ? "auto" : "smooth" });
    return true;
  }

  // When a new decision is yours, bring it into sight (on a phone it is below the seats).
  let lastDecision = null;
  function revealDecision() {
    const g = msg && msg.game;
    const open = g && arr(g.legal).length && !g.declared ? `${g.hand}:${g.step}` : null;
    if (!open || open === lastDecision) {
      lastDecision = open;
      return;
    }
    lastDecision = open;
    const area = root.querySelector(".me-area");
    const strip = root.querySelector("[data-testid=table-strip]");
    if (strip && area && getComputedStyle(strip).position === "sticky") {
      // a phone: the others and the card on offer stay in the strip at the top; bring your
      // prompt, options and hand into sight below it
      const target = root.querySelector("[data-testid=prompt]") || area;
      const hand = root.querySelector("[data-testid=my-hand]") || area;
      const limit = Math.max(0, Math.min(strip.getBoundingClientRect().bottom, strip.offsetHeight));
      const top = target.getBoundingClientRect().top;
      const bottom = hand.getBoundingClientRect().bottom;
      let by = 0;
      if (top < limit) by = top - limit - 6;
      else if (bottom > window.innerHeight) by = Math.min(top - limit - 6, bottom - window.innerHeight + 8);
      if (by) window.scrollBy({ top: by, behavior: reducedMotion() ? "auto" : "smooth" });
      return;
    }
    const target = root.querySelector("[data-testid=pending]") || area;
    if (!target || !area) return;
    const top = target.getBoundingClientRect().top;
    const bottom = area.getBoundingClientRect().bottom;
    const fits = bottom - top <= window.innerHeight;
    if (top < 0 || (fits ? bottom > window.innerHeight : top > window.innerHeight * 0.5)) {
      target.scrollIntoView({ block: "start", behavior: "smooth" });
    }
  }

  function act(action) {
    if (!msg || typeof action !== "string") return;
    if (send({ type: "act", action, seq: msg.seq })) {
      busySeq = msg.seq;
      raised = null;
      const g = msg.game;
      const v = g && g.view;
      if (v && v.phase === "response" && parseAction(action).kind !== "pass") myDecl = { hand: g.hand, step: g.step, action };
      render();
    }
  }

  function next() {
    if (send({ type: "next" })) {
      busyNext = true;
      render();
    }
  }

  function askHints() {
    send({ type: "hints" });
  }

  // The hall (docs/protocol.md): 托管, auto-pass, the 解散 vote, 再来一局, quick phrases.
  const hall = {
    get talk() {
      return talk;
    },
    get talkOpen() {
      return talkOpen;
    },
    bubbles,
    tuoguan: (on) => send({ type: "tuoguan", on: Boolean(on) }),
    autopass: (on) => send({ type: "autopass", on: Boolean(on) }),
    dissolve: () => send({ type: "dissolve" }),
    vote: (agree) => send({ type: "vote", agree: Boolean(agree) }),
    again: (ready) => send({ type: "again", ready: Boolean(ready) }),
    startNow: () => send({ type: "start" }),
    say: (body) => send({ type: "say", ...body }),
    toggleTalk: () => {
      talkOpen = !talkOpen;
      render();
    },
  };

  const ticker = setInterval(() => updateTimers(root), 250);

  // Start: the room summary (does it exist?), then the socket if we hold a token.
  const loadSummary = () =>
    getJSON(`/api/rooms/${encodeURIComponent(code)}`)
      .then((body) => {
        if (destroyed) return;
        const before = JSON.stringify(summary);
        summary = body && typeof body === "object" && body.room && typeof body.room === "object" ? body.room : body;
        if (!msg && JSON.stringify(summary) !== before) render(); // (a name being typed stays)
      })
      .catch((err) => {
        if (destroyed) return;
        if (err.status === 404) {
          missing = true;
          if (conn && !msg) {
            conn.close();
            conn = null;
          }
        }
        render();
      });
  loadSummary();
  // a visitor who has not joined (no socket) sees the room as it is now: its status and seats
  const watcher = setInterval(() => {
    if (!destroyed && !conn && !missing && !document.hidden) loadSummary();
  }, 3000);
  if (store.get(tokenKey(code))) connect(null, false);
  else render();

  return {
    render,
    destroy() {
      destroyed = true;
      clearInterval(ticker);
      clearInterval(watcher);
      if (conn) conn.close();
      conn = null;
    },
  };
}

