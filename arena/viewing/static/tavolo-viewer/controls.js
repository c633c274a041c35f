// The viewer's controls: play and pause, speed, stepping, jumps to rounds or
// hands, the view switch, and a timeline slider with its marks.

import { el, svg } from "./dom.js";

const SPEEDS = [0.5, 1, 2, 4, 8, 16, 32];
const TIMELINE_MARKS = ["round", "hand", "elimination", "infraction", "crash"];

/** Icon shapes on a 24 by 24 grid: a bar is [x, width], a triangle points left or right. */
const ICONS = {
  first: [["bar", 4, 3], ["left", 20, 4]],
  previousHand: [["left", 12, 4], ["left", 21, 13]],
  back: [["left", 18, 6]],
  play: [["right", 6, 19]],
  pause: [["bar", 6, 4], ["bar", 14, 4]],
  forward: [["right", 6, 18]],
  nextHand: [["right", 3, 11], ["right", 12, 20]],
  last: [["right", 4, 16], ["bar", 17, 3]],
};

function icon(name) {
  const shapes = ICONS[name].map(([kind, a, b]) => {
    if (kind === "bar") return svg("rect", { x: a, y: 5, width: b, height: 14, rx: 1 });
    return svg("polygon", { points: `${a},5 ${a},19 ${b},12` });
  });
  return svg("svg", { viewBox: "0 0 24 24", class: "tv-icon", "aria-hidden": "true" }, shapes);
}

function button(label, iconName, onClick) {
  const node = el("button", { className: "tv-button", attrs: { type: "button", "aria-label": label, title: label } });
  node.append(icon(iconName));
  node.addEventListener("click", onClick);
  return node;
}

/** Controls bound to `viewer`; `setDocument` and `update` keep them current. */
export function buildControls(viewer) {
  const playButton = button("Play (space)", "play", () => viewer.toggle());
  playButton.classList.add("tv-play");
  const buttons = el("div", { className: "tv-buttons" }, [
    button("First step (Home)", "first", () => viewer.moveTo(0)),
    button("Previous round or hand (↑)", "previousHand", () => viewer.jump(-1)),
    button("Step back (←)", "back", () => viewer.step(-1)),
    playButton,
    button("Step forward (→)", "forward", () => viewer.step(1)),
    button("Next round or hand (↓)", "nextHand", () => viewer.jump(1)),
    button("Last step (End)", "last", () => viewer.moveTo(viewer.stops.length - 1)),
  ]);

  const speed = el("select", { className: "tv-select", attrs: { "aria-label": "speed" } });
  for (const value of SPEEDS) {
    const option = el("option", { text: `${value}×`, attrs: { value: String(value) } });
    option.defaultSelected = value === 1;
    speed.append(option);
  }
  speed.addEventListener("change", () => viewer.setSpeed(Number(speed.value)));

  const view = el("select", { className: "tv-select tv-view", attrs: { "aria-label": "whose view" } });
  view.addEventListener("change", () => {
    const value = view.value;
    viewer.switchView(value === "full" || value === "public" ? value : Number(value));
  });

  const counter = el("span", { className: "tv-counter", attrs: { "aria-live": "off" } });
  const slider = el("input", {
    className: "tv-slider",
    attrs: { type: "range", min: "0", max: "0", value: "0", step: "1", "aria-label": "timeline" },
  });
  slider.addEventListener("input", () => viewer.moveTo(Number(slider.value)));
  const marks = el("div", { className: "tv-marks", attrs: { "aria-hidden": "true" } });
  const timeline = el("div", { className: "tv-timeline" }, [marks, slider]);
  const legend = el("div", { className: "tv-legend", attrs: { "aria-hidden": "true" } });

  const row = el("div", { className: "tv-control-row" }, [
    buttons,
    el("label", { className: "tv-label" }, [el("span", { text: "speed " }), speed]),
    el("label", { className: "tv-label" }, [el("span", { text: "view " }), view]),
    counter,
  ]);
  const element = el("div", { className: "tv-controls" }, [row, timeline, legend]);

  function setDocument(doc, stops) {
    slider.max = String(Math.max(0, stops.length - 1));
    const ticks = [];
    const last = Math.max(1, stops.length - 1);
    stops.forEach((stop, position) => {
      const mark = TIMELINE_MARKS.find((name) => doc.steps[stop].marks.includes(name));
      if (!mark) return;
      const tick = el("span", { className: `tv-mark mark-${mark}`, attrs: { title: doc.steps[stop].text } });
      tick.style.setProperty("--at", `${(100 * position) / last}%`);
      ticks.push(tick);
    });
    marks.replaceChildren(...ticks);
    const present = new Set(ticks.map((tick) => tick.className.replace("tv-mark mark-", "")));
    legend.replaceChildren(
      ...TIMELINE_MARKS.filter((mark) => present.has(mark)).map((mark) =>
        el("span", { className: `tv-legend-item mark-${mark}`, text: mark }),
      ),
    );
    const options = viewer.availableViews().map(([value, label]) => {
      const option = el("option", { text: label, attrs: { value: String(value) } });
      option.defaultSelected = String(value) === String(doc.view);
      return option;
    });
    view.replaceChildren(...options);
    view.disabled = options.length < 2;
  }

  function update(position) {
    slider.value = String(position);
    const total = viewer.stops.length;
    const index = viewer.currentEvent();
    counter.textContent = total ? `step ${position + 1} of ${total} · event ${index}` : "";
    playButton.replaceChildren(icon(viewer.playing ? "pause" : "play"));
    playButton.setAttribute("aria-label", viewer.playing ? "Pause (space)" : "Play (space)");
    playButton.title = playButton.getAttribute("aria-label");
  }

  return { element, setDocument, update };
}
