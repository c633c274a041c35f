// Dice faces and domino halves: pips on a three by three grid.

import { el } from "./dom.js";

/** Which of the nine cells (row by row) hold a pip, for 0 to 6. */
const PIP_CELLS = [
  [],
  [4],
  [0, 8],
  [0, 4, 8],
  [0, 2, 6, 8],
  [0, 2, 4, 6, 8],
  [0, 2, 3, 5, 6, 8],
];

/** A face of `count` pips (0 to 6) as a grid of nine cells. */
export function pipFace(count, className) {
  const cells = new Set(PIP_CELLS[count] || []);
  const face = el("span", { className, attrs: { "aria-hidden": "true" } });
  for (let cell = 0; cell < 9; cell += 1) {
    face.append(el("span", { className: cells.has(cell) ? "pip" : "no-pip" }));
  }
  return face;
}

/** One die showing `value`. */
export function die(value) {
  const face = pipFace(value, "die");
  face.setAttribute("aria-hidden", "false");
  face.setAttribute("role", "img");
  face.setAttribute("aria-label", `die showing ${value}`);
  return face;
}

/**
 * A domino as laid: `tile` is [a, b], a on the left (or top). Doubles stand
 * crosswise. `faceDown` draws its back.
 */
export function domino(tile, { double = false, faceDown = false, className = "" } = {}) {
  const classes = ["domino", double ? "double" : "", faceDown ? "face-down" : "", className];
  const node = el("span", { className: classes.filter(Boolean).join(" ") });
  if (faceDown) {
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", "a tile, face down");
    return node;
  }
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", `tile ${tile[0]}-${tile[1]}`);
  node.append(pipFace(tile[0], "half"), el("span", { className: "divider" }), pipFace(tile[1], "half"));
  return node;
}
