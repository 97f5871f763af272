// /replay/ID: step through a stored hand (GET /api/hands/ID/replay): each frame's events
// in the one narration and the table as in its view (every hand shown). Step 0 is the
// deal, step K the K-th action, as everywhere. Buttons and the ←/→ keys (Home/End too).
// The address opens a step: /replay/ID?step=K (the address follows as you step, so it can
// be shared), and /replay/ID?hand=N&step=K the N-th hand (from 1) of ID's match.
//
// data-testid: replay-first, replay-prev, replay-next, replay-last (the step buttons),
// replay-step (the step counter), replay-text (the frame's text), replay-action (who did
// what, in words), replay-summary (the hand's outcome), replay-match (link to history),
// replay-step-link (copies the link to this step), download-hand (the hand's record as a
// JSON file, FORMATS.md).
import { h, replace, getJSON, arr, signed, toast } from "./dom.js";
import { t, errText } from "./i18n.js";
import { renderBoard, makeNames } from "./table.js";
import { actionLabel } from "./cards.js";
import { eventLines } from "./narrate.js";
import { downloadLink } from "./history.js";

/** A whole number ≥ min from the address's query, or null. */
function queryInt(name, min) {
  const raw = new URLSearchParams(window.location.search).get(name);
  if (raw === null || !/^\d{1,9}$/.test(raw.trim())) return null;
  const n = Number(raw);
  return n >= min ? n : null;
}

/** The address of step K of hand ID. */
export function stepPath(id, step) {
  return `/replay/${encodeURIComponent(id)}?step=${step}`;
}

export function replayPage(root, handId, { navigate }) {
  let hand = null;
  let frames = [];
  let names = [];
  let index = 0;
  let error = null;
  let destroyed = false;
  const wantStep = queryInt("step", 0);
  const wantHand = queryInt("hand", 1);

  // the address names the step shown (replaced, not pushed: Back leaves the replay)
  const follow = () => {
    const path = stepPath(handId, index);
    if (`${window.location.pathname}${window.location.search}` !== path) window.history.replaceState(window.history.state, "", path);
  };

  const go = (i) => {
    if (!frames.length) return;
    const next = Math.max(0, Math.min(frames.length - 1, i));
    if (next !== index) {
      index = next;
      follow();
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
    const stepLink = h(
      "button",
      {
        type: "button",
        class: "btn small",
        testid: "replay-step-link",
        onclick: async () => {
          const link = `${window.location.origin}${stepPath(handId, index)}`;
          try {
            await navigator.clipboard.writeText(link);
          } catch {
            /* no clipboard: the address bar holds the same link */
          }
          toast(t("step_link_copied"), "info");
        },
      },
      t("step_link"),
    );
    const download = downloadLink(`/api/hands/${encodeURIComponent(handId)}/record`, "download-hand", t("download_record"));
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
        h("p", { class: "buttons replay-links" }, stepLink, download),
        h("p", { class: "muted small" }, t("replay_keys"), " ", back),
      ),
    );
  }

  (async () => {
    try {
      const body = await getJSON(`/api/hands/${encodeURIComponent(handId)}/replay`);
      hand = body.hand && typeof body.hand === "object" ? body.hand : null;
      frames = arr(body.frames).filter((f) => f && typeof f === "object");
      if (wantStep !== null && frames.length) index = Math.min(wantStep, frames.length - 1);
      if (wantHand === null && wantStep !== null) follow();
      render();
      if (hand && hand.match !== undefined && hand.match !== null) {
        try {
          const m = await getJSON(`/api/matches/${encodeURIComponent(hand.match)}`);
          names = arr(m.match && m.match.seats).map((s) => (typeof s === "string" ? s : null));
          if (wantHand !== null) {
            // ?hand=N: the N-th hand of this match, at the step asked for
            const other = arr(m.hands).find((x) => x && x.index === wantHand - 1);
            if (!other) {
              error = t("hand_missing", { id: `${handId}?hand=${wantHand}` });
            } else if (String(other.id) !== String(handId)) {
              window.history.replaceState(window.history.state, "", stepPath(other.id, wantStep ?? 0));
              if (!destroyed) navigate(window.location.pathname);
              return;
            } else follow();
          }
        } catch {
          /* names are optional */
        }
      }
    } catch (err) {
      error = err.status === 404 || err.status === 422 ? t("hand_missing", { id: handId }) : t("err_load", { message: errText(err) });
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
