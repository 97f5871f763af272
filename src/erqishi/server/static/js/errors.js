// The error pages, in the game's style and the reader's language: no such page (404), no
// such room (404: no link to share, a way to enter another code), a fault of the server
// (500). The server answers such a request with the client page marked by
// <meta name="erqishi-error" content="404" data-kind="…" data-code="…"> (erqishi.server.pages),
// whose body already holds the words in both languages for a browser without JavaScript.
//
// data-testid: error-page (data-status, data-kind), error-home, error-code-input, error-join.
import { h, replace, toast } from "./dom.js";
import { t } from "./i18n.js";

/** What the server said went wrong with this page, or null: {status, kind, code, path}. */
export function pageError() {
  const meta = document.querySelector('meta[name="erqishi-error"]');
  if (!meta) return null;
  const status = Number(meta.getAttribute("content")) || 500;
  const kind = meta.dataset.kind || (status === 404 ? "not_found" : "server_error");
  return { status, kind, code: meta.dataset.code || "", path: window.location.pathname };
}

/** The error page {status, kind ("not_found"|"room_missing"|"server_error"|"too_many_misses"), code}. */
export function errorPage(root, error, { navigate }) {
  const kinds = ["not_found", "room_missing", "server_error", "too_many_misses"];
  const kind = kinds.includes(error.kind) ? error.kind : "not_found";
  const status = Number(error.status) || (kind === "server_error" ? 500 : 404);
  const code = String(error.code || "").slice(0, 16);

  function render() {
    const home = h("a", { href: "/", class: "btn primary", testid: "error-home" }, t("back_home"));
    home.addEventListener("click", (e) => {
      if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
      e.preventDefault();
      navigate("/");
    });
    let join = null;
    if (kind === "not_found" || kind === "room_missing") {
      const input = h("input", {
        type: "text",
        id: "error-code-input",
        testid: "error-code-input",
        autocomplete: "off",
        autocapitalize: "characters",
        maxlength: "16",
        placeholder: t("code_placeholder"),
        "aria-label": t("room_code"),
      });
      join = h(
        "form",
        { class: "buttons" },
        input,
        h("button", { type: "submit", class: "btn", testid: "error-join" }, t("join_by_code")),
      );
      join.addEventListener("submit", (e) => {
        e.preventDefault();
        const next = input.value.trim().toUpperCase().replace(/[^A-Z0-9]/g, "");
        if (!next) {
          toast(t("err_enter_code"), "info");
          return;
        }
        window.location.assign(`/r/${next}`); // a full load: the server says whether it exists
      });
    }
    replace(
      root,
      h(
        "section",
        { class: "card error-page", testid: "error-page", dataset: { status, kind } },
        h("p", { class: "muted small" }, t("err_status", { status })),
        h("h1", {}, t(`err_${kind}_title`)),
        h("p", {}, t(`err_${kind}_text`, { code })),
        join,
        h("p", { class: "buttons" }, home),
      ),
    );
  }

  render();
  return { render, destroy() {} };
}
