// /replay/ID: step through a stored hand (GET /api/hands/ID/replay): each frame's events
// in the one narration and the table as in its view (every hand shown). Step 0 is the
// deal, step K the K-th action, as everywhere. Buttons and the ←/→ keys (Home/End too).
//
// data-testid: replay-first, replay-prev, replay-next, replay-last (the step buttons),
// replay-step (the step counter), replay-text (the frame's text), replay-action (who did
// what, in words), replay-summary (the hand's outcome), replay-match (link to history).
import { h, replace, getJSON, arr, signed } from "./dom.js";
import { t } from "./i18n.js";
import { renderBoard, makeNames } from "./table.js";
import { actionLabel } from "./cards.js";
import { eventLines } from "./narrate.js";

export function replayPage(root, handId, { navigate }) {
  let hand = null;
  let frames = [];
  let names = [];
  let index = 0;
  let error = null;
  let destroyed = false;

  const go = (i) => {
    if (!frames.length) return;
    const next = Math.max(0, Math.min(frames.length - 1, i));
    if (next !== index) {
      index = next;
      render();
    }
  };

  const onKey = (e) => {
    if (e.target && /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)) return;
    if (e.key === "ArrowLeft") go(index - 1);
    else if (e.key === "ArrowRight") go(index + 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(frames.length - 1);
    else return;
    e.preventDefault();
  };
  document.addEventListener("keydown", onKey);

  function summary(nm) {
    if (!hand) return null;
    const bits = [];
    if (Number.isInteger(hand.index)) bits.push(t("hand_n", { n: hand.index + 1 }));
    if (hand.quan !== null && hand.quan !== undefined) bits.push(t("quan_short", { n: hand.quan }));
    if (Number.isInteger(hand.dealer)) bits.push(t("status_dealer", { who: nm.who(hand.dealer) }));
    if (hand.kind === "win") bits.push(t("hand_win", { who: nm.who(hand.winner), score: hand.score ?? "?" }));
    else if (hand.kind === "dead") bits.push(t("hand_dead"));
    const pays = arr(hand.payments);
    const payText = pays.length ? pays.map((p, s) => `${nm.who(s)} ${signed(p)}`).join("  ") : "";
    return h("div", { class: "muted", testid: "replay-summary" }, h("div", {}, bits.join(" · ")), payText ? h("div", {}, `${t("result_payments")}${t("colon")}${payText}`) : null);
  }

  function render() {
    if (destroyed) return;
    const nm = makeNames(names, null);
    const head = h("h1", {}, t("replay_title", { id: handId }));
    if (error) {
      replace(root, h("section", { class: "replay" }, head, h("p", { class: "error", testid: "replay-error" }, error)));
      return;
    }
    if (!frames.length) {
      replace(root, h("section", { class: "replay" }, head, h("p", { class: "muted" }, hand ? t("no_frames") : t("loading"))));
      return;
    }
    const frame = frames[index] || {};
    const prevView = index > 0 && frames[index - 1] ? frames[index - 1].view : null;
    const btn = (testid, label, target, disabled) =>
      h("button", { type: "button", class: "btn", testid, id: testid, disabled, onclick: () => go(target) }, label);
    const last = frames.length - 1;
    const controls = h(
      "div",
      { class: "replay-controls" },
      btn("replay-first", t("first"), 0, index === 0),
      btn("replay-prev", t("prev"), index - 1, index === 0),
      h("span", { class: "step", testid: "replay-step" }, t("step_of", { n: index, of: last })),
      btn("replay-next", t("next"), index + 1, index === last),
      btn("replay-last", t("last"), last, index === last),
    );
    const actionLine =
      typeof frame.action === "string" && frame.action
        ? `${nm.who(frame.seat)}${t("colon")}${actionLabel(frame.action, prevView && prevView.pending)}`
        : index === 0
          ? t("the_deal")
          : "";
    const view = frame.view && typeof frame.view === "object" ? frame.view : null;
    let board;
    try {
      board = view ? renderBoard(view, { nm, showHands: true, game: null }) : h("p", { class: "muted" }, t("no_view"));
    } catch (err) {
      console.error(err);
      board = h("p", { class: "error" }, t("error_render"));
    }
    const back = hand && hand.match !== undefined && hand.match !== null ? h("a", { href: "/history", testid: "replay-match", class: "btn small link" }, t("history_link")) : null;
    if (back) {
      back.addEventListener("click", (e) => {
        e.preventDefault();
        navigate("/history");
      });
    }
    replace(
      root,
      h(
        "section",
        { class: "replay" },
        head,
        summary(nm),
        controls,
        h(
          "div",
          { class: "frame-text card" },
          h("p", { testid: "replay-text" }, arr(frame.events).flatMap((ev) => eventLines(ev, nm)).join("\n")),
          actionLine ? h("p", { class: "muted", testid: "replay-action" }, actionLine) : null,
        ),
        board,
        h("p", { class: "muted small" }, t("replay_keys"), " ", back),
      ),
    );
  }

  (async () => {
    try {
      const body = await getJSON(`/api/hands/${encodeURIComponent(handId)}/replay`);
      hand = body.hand && typeof body.hand === "object" ? body.hand : null;
      frames = arr(body.frames).filter((f) => f && typeof f === "object");
      render();
      if (hand && hand.match !== undefined && hand.match !== null) {
        try {
          const m = await getJSON(`/api/matches/${encodeURIComponent(hand.match)}`);
          names = arr(m.match && m.match.seats).map((s) => (typeof s === "string" ? s : null));
        } catch {
          /* names are optional */
        }
      }
    } catch (err) {
      error = err.status === 404 || err.status === 422 ? t("hand_missing", { id: handId }) : t("err_load", { message: err.message });
    }
    render();
  })();

  return {
    render,
    destroy() {
      destroyed = true;
      document.removeEventListener("keydown", onKey);
    },
  };
}
