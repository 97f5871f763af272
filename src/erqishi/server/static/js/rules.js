// (being written)
import { h, replace } from "./dom.js";

export function rulesPage(root) {
  replace(root, h("p", { class: "muted" }, "…"));
  return { render() {}, destroy() {} };
}
