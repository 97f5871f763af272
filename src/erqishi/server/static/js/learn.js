// The lessons (/learn, /learn/ID): the lesson data and every check come from the server
// (GET /api/lessons, GET /api/lessons/ID, POST /api/lessons/ID/try and /hint, which ask
// the engine and the scorer); this page only shows them and keeps the progress (stars per
// lesson) in localStorage as {"format": 1, "stars": {...}}, the format of erqishi learn's file.
//
// data-testid: lesson-item (data-id, data-stars), next-lesson, progress; lesson-title, intro,
// goal, learn-card (data-card, aria-pressed), learn-key, check, choice (data-key), board,
// learn-move (data-action), learn-refusals, feedback (data-ok, data-reason), story, hint,
// stars, next, back, start-play.
import { h, replace, getJSON, store, arr, toast } from "./dom.js";
import { getLang, onLang, errText } from "./i18n.js";
import { tile, face, actionLabel, groupName, sortCards } from "./cards.js";
import { refusalText } from "./narrate.js";

const KEY = "erqishi.learn";

const UI = {
  learn: ["学打贰柒拾", "Learn to play"],
  learn_intro: ["一课一个概念，一个牌局，一个目标；对错由规则引擎判断。不用提示、不出错做完得三颗星。", "One concept per lesson, one position, one goal, checked by the rules engine. Finish without a hint or a mistake for three stars."],
  progress: ["已完成 {n} / {of} 课", "{n} of {of} lessons done"],
  continue: ["继续：{title}", "Continue: {title}"],
  lesson_n: ["第 {n} 课", "Lesson {n}"],
  goal: ["目标", "Goal"],
  check: ["确定", "Check"],
  clear: ["清除", "Clear"],
  hint: ["提示", "Hint"],
  next: ["下一课", "Next lesson"],
  back: ["全部课程", "All lessons"],
  rules_link: ["规则", "Rules"],
  stars: ["{n} 颗星", "{n} star(s)"],
  your_hand: ["你的手牌", "Your hand"],
  your_melds: ["你亮的牌", "Your melds"],
  row: ["打出和翻出的", "Row"],
  pending_from: ["{who} {how}：", "{who} {how}:"],
  discarded: ["打出", "discarded"],
  flipped: ["翻出", "flipped"],
  you: ["你", "You"],
  shangjia: ["上家", "Your 上家"],
  xiajia: ["下家", "Your 下家"],
  seat: ["座位 {n}", "Seat {n}"],
  melds: ["亮牌", "Melds"],
  tap_wins: ["点出能胡的牌（小牌一排，大牌一排）：", "Tap the winning cards (small row, big row):"],
  hand_size: ["手里 {n} 张", "{n} cards in hand"],
  cards_left: ["堂牌余 {n} 张", "{n} cards left in the stock"],
  tap_discard: ["点一张牌打出去。", "Tap a card to discard it."],
  refused_list: ["不能做的：", "Not allowed now:"],
  winning_card: ["胡牌：{card}（{how}）", "Winning card: {card} ({how})"],
  source_discard: ["上家打的", "your 上家's discard"],
  play_start: ["开始和机器人打一手（教练开着）", "Start a hand against bots (coach on)"],
  play_note: ["开一桌：写上名字加入，点「空位补机器人」，再点「开始」。打完这一手就完成这一课；教练会在你的一步明显不好时说为什么。", "Open a table: type a name and join, press “Fill empty seats with bots”, then “Start”. Finish the hand to complete this lesson; the coach speaks up when a move is clearly worse."],
  no_lesson: ["没有这一课。", "No such lesson."],
  loading: ["加载中…", "Loading…"],
  error: ["出错了：{m}", "Something went wrong: {m}"],
  rule_ids: ["规则：{ids}", "Rules: {ids}"],
  kinds_pick: ["点牌", "tap cards"],
};

function u(key, params = {}) {
  const entry = UI[key];
  if (!entry) return key;
  const text = getLang() === "en" ? entry[1] : entry[0];
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

function tx(text) {
  if (!text || typeof text !== "object") return "";
  return String(getLang() === "en" ? text.en : text.zh);
}

/** The learner's progress: {format: 1, stars: {id: 1-3}} (bad stored data reads as none). */
export function loadProgress() {
  try {
    const data = JSON.parse(store.get(KEY) || "null");
    if (data && typeof data === "object" && data.stars && typeof data.stars === "object") {
      const stars = {};
      for (const [k, v] of Object.entries(data.stars)) if (Number.isInteger(v) && v >= 1 && v <= 3) stars[k] = v;
      return { format: 1, stars };
    }
  } catch {
    /* damaged: start afresh */
  }
  return { format: 1, stars: {} };
}

/** Note a finished lesson; the best stars are kept. */
export function recordStars(id, stars) {
  const p = loadProgress();
  p.stars[id] = Math.max(stars, p.stars[id] || 0);
  store.set(KEY, JSON.stringify(p));
}

function starText(n) {
  return "★".repeat(n) + "☆".repeat(3 - n);
}

function link(href, text, navigate, props = {}) {
  const a = h("a", { href, class: "btn link", ...props }, text);
  a.addEventListener("click", (e) => {
    if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    navigate(href);
  });
  return a;
}

export function learnPage(root, id, { navigate }) {
  let alive = true;
  let list = null; // GET /api/lessons
  let lesson = null; // GET /api/lessons/ID
  let error = null;
  // the learner's state in this lesson
  let moves = [];
  let board = null;
  let goal = null;
  let picked = [];
  let feedback = null;
  let story = [];
  let mistakes = 0;
  let hints = 0;
  let done = false;
  let stars = 0;
  let busy = false;

  const paint = () => {
    if (!alive) return;
    if (error) {
      replace(root, h("section", { class: "card learn" }, h("p", { class: "muted" }, error), link("/learn", u("back"), navigate, { testid: "back" })));
      return;
    }
    if (!list || (id && !lesson)) {
      replace(root, h("p", { class: "muted" }, u("loading")));
      return;
    }
    if (!id) return paintList();
    return paintLesson();
  };

  function paintList() {
    const progress = loadProgress();
    const items = arr(list.lessons);
    const finished = items.filter((x) => progress.stars[x.id]).length;
    const next = items.find((x) => !progress.stars[x.id]) || items[items.length - 1];
    replace(
      root,
      h(
        "section",
        { class: "card learn" },
        h("h1", {}, u("learn")),
        h("p", { class: "muted" }, u("learn_intro")),
        h("p", { testid: "progress" }, u("progress", { n: finished, of: items.length })),
        next ? link(`/learn/${next.id}`, u("continue", { title: tx(next.title) }), navigate, { testid: "next-lesson", class: "btn primary" }) : null,
        h(
          "ol",
          { class: "lesson-list" },
          items.map((x) =>
            h(
              "li",
              {},
              link(`/learn/${x.id}`, tx(x.title), navigate, {
                testid: "lesson-item",
                class: "lesson-link",
                dataset: { id: x.id, stars: progress.stars[x.id] || 0 },
              }),
              h("span", { class: "stars", "aria-label": u("stars", { n: progress.stars[x.id] || 0 }) }, starText(progress.stars[x.id] || 0)),
            ),
          ),
        ),
        link("/rules", u("rules_link"), navigate),
      ),
    );
  }

  function who(seat) {
    const me = lesson.board ? lesson.board.view.seat : 1;
    const order = arr(board && board.view.order);
    const i = order.indexOf(me);
    if (seat === me) return u("you");
    if (order.length && order[(i - 1 + order.length) % order.length] === seat) return u("shangjia");
    if (order.length && order[(i + 1) % order.length] === seat) return u("xiajia");
    return u("seat", { n: seat });
  }

  function cardToggle(card, index) {
    const on = picked.includes(index);
    const el = tile(card, { button: true, legal: !done, testid: "learn-card", onclick: () => {
      if (done) return;
      picked = on ? picked.filter((i) => i !== index) : [...picked, index];
      paint();
    } });
    el.setAttribute("aria-pressed", on ? "true" : "false");
    if (on) el.classList.add("picked");
    return el;
  }

  function keyboard() {
    // WAITS: every identity, small row and big row
    const rows = [];
    for (const big of [false, true]) {
      const keys = [];
      for (let r = 1; r <= 10; r++) {
        const card = `${big ? "d" : "x"}${r}`;
        const on = picked.includes(card);
        const el = tile(card, { button: true, legal: !done, testid: "learn-key", onclick: () => {
          if (done) return;
          picked = on ? picked.filter((c) => c !== card) : [...picked, card];
          paint();
        } });
        el.setAttribute("aria-pressed", on ? "true" : "false");
        if (on) el.classList.add("picked");
        keys.push(el);
      }
      rows.push(h("div", { class: "hand keyrow" }, keys));
    }
    return rows;
  }

  function boardView() {
    if (!board) return null;
    const v = board.view;
    const me = v.seat;
    const options = arr(board.options);
    const discards = new Map(options.filter((a) => a.startsWith("discard ")).map((a) => [a.split(" ")[1], a]));
    const others = arr(v.seats).filter((s) => s.seat !== me && arr(v.order).includes(s.seat));
    const mine = arr(v.seats).find((s) => s.seat === me) || { melds: [], row: [] };
    const meld = (g) => h("span", { class: "meld", title: `${groupName(g)} ${g.hu}` }, arr(g.cards).map((c) => tile(c, { size: "s" })));
    const seatBox = (s) =>
      h(
        "div",
        { class: "learn-seat" },
        h("strong", {}, who(s.seat)),
        h("span", { class: "small muted" }, ` · ${u("hand_size", { n: s.hand_size })} `),
        arr(s.melds).length ? h("span", {}, u("melds"), " ", arr(s.melds).map(meld)) : null,
        arr(s.row).length ? h("div", { class: "small muted" }, u("row"), " ", arr(s.row).map((c) => tile(c, { size: "s" }))) : null,
      );
    const pending = v.pending
      ? h("p", { class: "pending", testid: "pending" }, u("pending_from", { who: who(v.turn), how: v.pending_flip ? u("flipped") : u("discarded") }), " ", tile(v.pending))
      : null;
    const hand = sortCards(arr(v.hand)).map((c) =>
      tile(c, {
        button: true,
        legal: !done && !busy && (discards.size > 0),
        testid: "learn-card",
        onclick: () => tryMove(discards.get(c) || `discard ${c}`),
      }),
    );
    const moveButtons = options
      .filter((a) => !a.startsWith("discard "))
      .map((a) => h("button", { type: "button", class: "btn", testid: "learn-move", dataset: { action: a }, disabled: done || busy, onclick: () => tryMove(a) }, actionLabel(a, v.pending)));
    const refused = arr(board.refusals);
    return h(
      "div",
      { class: "learn-board", testid: "board" },
      others.map(seatBox),
      pending,
      arr(mine.melds).length ? h("p", {}, u("your_melds"), " ", arr(mine.melds).map(meld)) : null,
      h("p", { class: "small muted" }, u("your_hand"), discards.size ? ` · ${u("tap_discard")}` : ""),
      h("div", { class: "hand learn-hand" }, hand),
      moveButtons.length ? h("div", { class: "actions" }, moveButtons) : null,
      refused.length && !done
        ? h("div", { class: "small muted", testid: "learn-refusals" }, u("refused_list"), h("ul", {}, refused.map((r) => h("li", {}, refusalText(r)))))
        : null,
      h("p", { class: "small muted" }, u("cards_left", { n: v.stock_left })),
    );
  }

  function winView() {
    const w = lesson.win;
    if (!w) return null;
    return h(
      "div",
      { class: "learn-board", testid: "board" },
      h("p", {}, u("your_melds"), " ", arr(w.melds).map((m) => h("span", { class: "meld" }, arr(m).map((c) => tile(c, { size: "s" }))))),
      h("p", {}, u("your_hand")),
      h("div", { class: "hand" }, arr(w.hand).map((c) => tile(c))),
      h("p", {}, u("winning_card", { card: face(w.card), how: u("source_discard") }), " ", tile(w.card)),
    );
  }

  function paintLesson() {
    const items = arr(list.lessons);
    const index = items.findIndex((x) => x.id === lesson.id);
    const nextItem = items[index + 1];
    const kind = lesson.kind;
    let work = null;
    if (kind === "pick" || kind === "group") {
      work = [h("div", { class: "hand learn-hand" }, arr(lesson.cards).map((c, i) => cardToggle(c, i))), checkButtons()];
    } else if (kind === "waits") {
      work = [
        h("p", { class: "small muted" }, u("your_hand")),
        h("div", { class: "hand" }, arr(lesson.cards).map((c) => tile(c))),
        h("p", { class: "small muted" }, u("tap_wins")),
        ...keyboard(),
        checkButtons(),
      ];
    } else if (kind === "choose") {
      work = [
        winView(),
        h("div", { class: "actions" }, arr(lesson.choices).map((c) => h("button", { type: "button", class: "btn", testid: "choice", dataset: { key: c.key }, disabled: done || busy, onclick: () => send({ choice: c.key }) }, tx(c.text)))),
      ];
    } else if (kind === "move") {
      work = boardView();
    } else if (kind === "play") {
      work = [h("p", {}, u("play_note")), h("button", { type: "button", class: "btn primary", testid: "start-play", onclick: startPlay }, u("play_start"))];
    }
    const fb = feedback
      ? h("div", { class: `feedback ${feedback.ok ? "ok" : "wrong"}`, testid: "feedback", role: "status", "aria-live": "polite", dataset: { ok: feedback.ok ? "1" : "0", reason: feedback.reason || "" } }, tx(feedback.text))
      : h("div", { class: "feedback", testid: "feedback", role: "status", "aria-live": "polite", dataset: { ok: "" } });
    replace(
      root,
      h(
        "section",
        { class: "card learn" },
        h("p", { class: "muted small" }, u("lesson_n", { n: index + 1 }), " · ", u("rule_ids", { ids: arr(lesson.rules).join(" ") })),
        h("h1", { testid: "lesson-title" }, tx(lesson.title)),
        h("div", { testid: "intro" }, arr(lesson.intro).map((p) => h("p", {}, tx(p)))),
        h("p", { class: "goal", testid: "goal" }, h("strong", {}, u("goal"), getLang() === "en" ? ": " : "："), tx(goal || lesson.goal)),
        work,
        fb,
        story.length ? h("ul", { class: "story small", testid: "story" }, story.map((s) => h("li", {}, tx(s)))) : null,
        h(
          "div",
          { class: "actions" },
          !done && kind !== "play" ? h("button", { type: "button", class: "btn small", testid: "hint", onclick: askHint }, u("hint")) : null,
          done ? h("span", { class: "stars big-stars", testid: "stars", dataset: { n: stars } }, starText(stars)) : null,
          done && nextItem ? link(`/learn/${nextItem.id}`, u("next"), navigate, { testid: "next", class: "btn primary" }) : null,
          link("/learn", u("back"), navigate, { testid: "back" }),
        ),
      ),
    );
  }

  function checkButtons() {
    return h(
      "div",
      { class: "actions" },
      h("button", { type: "button", class: "btn primary", testid: "check", disabled: done || busy, onclick: () => {
        const cards = lesson.kind === "waits" ? picked : picked.map((i) => lesson.cards[i]);
        send({ cards });
      } }, u("check")),
      h("button", { type: "button", class: "btn small", disabled: done, onclick: () => { picked = []; paint(); } }, u("clear")),
    );
  }

  function tryMove(action) {
    if (done || busy) return;
    send({ action });
  }

  async function send(what) {
    busy = true;
    feedback = null; // the last answer goes until this one's arrives
    paint();
    try {
      const body = { moves, mistakes, hints, ...what };
      const res = await getJSON(`/api/lessons/${encodeURIComponent(lesson.id)}/try`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      if (!alive) return;
      feedback = res;
      if (res.ok) {
        if (what.action) moves = [...moves, what.action];
        story = [...story, ...arr(res.story)];
        if (res.board) board = res.board;
        goal = res.goal;
        picked = [];
      } else {
        mistakes += 1;
      }
      if (res.done) {
        done = true;
        stars = res.stars;
        recordStars(lesson.id, stars);
      }
    } catch (e) {
      toast(u("error", { m: errText(e) }));
    } finally {
      busy = false;
      paint();
    }
  }

  async function askHint() {
    try {
      const res = await getJSON(`/api/lessons/${encodeURIComponent(lesson.id)}/hint`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ moves, mistakes, hints }),
      });
      if (!alive) return;
      hints += 1;
      feedback = { ok: false, reason: "hint", text: res.text };
      paint();
    } catch (e) {
      toast(u("error", { m: errText(e) }));
    }
  }

  async function startPlay() {
    try {
      const res = await getJSON("/api/rooms", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ v: 2, preset: "leshan", match_quan: 1, bots: "heuristic", coach: true }),
      });
      store.set("erqishi.learn.play", res.code);
      navigate(res.url);
    } catch (e) {
      toast(u("error", { m: errText(e) }));
    }
  }

  async function load() {
    try {
      list = await getJSON("/api/lessons");
      if (id) {
        const res = await getJSON(`/api/lessons/${encodeURIComponent(id)}`);
        lesson = res.lesson;
        board = lesson.board;
        goal = lesson.goal;
      }
    } catch (e) {
      error = e.status === 404 ? u("no_lesson") : u("error", { m: errText(e) });
    }
    paint();
  }

  onLang(paint);
  paint();
  load();
  return {
    render: paint,
    destroy() {
      alive = false;
    },
  };
}
