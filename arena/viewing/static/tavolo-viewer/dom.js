// Small helpers to build the viewer's DOM. Every piece of text goes in through
// textContent: nothing from a replay is ever parsed as HTML.

const SVG_NS = "http://www.w3.org/2000/svg";

/** An element with an optional class, text, attributes and children. */
export function el(tag, { className, text, attrs } = {}, children = []) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, value);
  for (const child of children) {
    if (child) node.append(child);
  }
  return node;
}

/** An SVG element with attributes and children. */
export function svg(tag, attrs = {}, children = []) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  for (const child of children) node.append(child);
  return node;
}

/** The seat's colour class, shared by every drawing of that seat. */
export function seatClass(seat) {
  return `seat-${seat % 10}`;
}

/** "1st", "2nd", "3rd", "4th", ... */
export function ordinal(number) {
  const tens = number % 100;
  if (tens >= 11 && tens <= 13) return `${number}th`;
  return `${number}${{ 1: "st", 2: "nd", 3: "rd" }[number % 10] || "th"}`;
}
