// The paper tally of Muggins (RULES.md Part 2): a stroke for each 5 points,
// and for each 50 a big X with a small x in each of the four spaces round it.

import { el, svg } from "./dom.js";

function line(x1, y1, x2, y2, width) {
  return svg("line", { x1, y1, x2, y2, "stroke-width": width, "stroke-linecap": "round" });
}

function smallX(cx, cy) {
  const r = 2;
  return [line(cx - r, cy - r, cx + r, cy + r, 1.2), line(cx - r, cy + r, cx + r, cy - r, 1.2)];
}

function fifty() {
  return svg("svg", { viewBox: "0 0 24 24", class: "tally-fifty" }, [
    line(3, 3, 21, 21, 2),
    line(3, 21, 21, 3, 2),
    ...smallX(12, 4.5),
    ...smallX(19.5, 12),
    ...smallX(12, 19.5),
    ...smallX(4.5, 12),
  ]);
}

function strokes(count) {
  const width = 5 * count + 2;
  const marks = [];
  for (let stroke = 0; stroke < count; stroke += 1) {
    const x = 3 + 5 * stroke;
    marks.push(line(x, 4, x, 20, 2));
  }
  return svg("svg", { viewBox: `0 0 ${width} 24`, class: "tally-strokes" }, marks);
}

/** The tally of `score`: negative scores are struck through in red. */
export function tally(score) {
  const fives = Math.floor(Math.abs(score) / 5);
  const box = el("span", {
    className: score < 0 ? "tally negative" : "tally",
    attrs: { role: "img", "aria-label": `tally of ${score} points` },
  });
  for (let symbol = 0; symbol < Math.floor(fives / 10); symbol += 1) box.append(fifty());
  if (fives % 10) box.append(strokes(fives % 10));
  if (!fives) box.append(el("span", { className: "tally-empty", text: "·" }));
  return box;
}
