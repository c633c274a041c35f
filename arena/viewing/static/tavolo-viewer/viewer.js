// The viewer: loads frames, keeps the current step, and draws the table, the
// controls, the transcript and the bots' logs. A step marked "decision" (a
// bot's choice, told by the event that follows) is not a stop of its own: the
// viewer moves between the other steps, and shows a decision's log with them.

import { el, seatClass } from "./dom.js";
import { buildControls } from "./controls.js";
import { drawMia } from "./mia.js";
import { drawMuggins } from "./muggins.js";
import { getJson, liveUrlFrom, sourcesOf, viewUrl } from "./sources.js";

const DRAWERS = { mia: drawMia, muggins: drawMuggins };
const BASE_DELAY_MS = 900;
const LIVE_POLL_MS = 700;
const BANNER_MARKS = ["crash", "infraction", "elimination", "end"];

function isStop(step) {
  return !step.marks.includes("decision");
}

function eventFromHash() {
  const match = /(?:^#|&)event=(\d+)/.exec(window.location.hash);
  return match ? Number(match[1]) : null;
}

/** The view a link asks for (`#event=12&view=public`, `view=2`), or null. */
function viewFromHash() {
  const match = /(?:^#|&)view=(full|public|\d+)/.exec(window.location.hash);
  if (!match) return null;
  return /^\d+$/.test(match[1]) ? Number(match[1]) : match[1];
}

export class Viewer {
  constructor(root, { followsHash = false } = {}) {
    this.root = root;
    this.sources = sourcesOf(root);
    this.followsHash = followsHash;
    this.documents = new Map();
    this.doc = null;
    this.view = "full";
    this.stops = [];
    this.position = 0;
    this.playing = false;
    this.speed = 1;
    this.timer = null;
    this.logs = null;
    this.live = Boolean(this.sources.live);
  }

  async start() {
    this.buildSkeleton();
    // A live match opens on its public view; a finished one on the full view.
    const asked = this.followsHash && !this.live ? viewFromHash() : null;
    const opening = this.live ? [this.sources.public, this.sources.frames] : [this.sources.frames, this.sources.public];
    const first = (asked !== null && viewUrl(this.sources, asked)) || opening.find(Boolean);
    try {
      this.show(await getJson(first), eventFromHash());
    } catch (error) {
      this.fail(error);
      return;
    }
    if (this.sources.logs) this.loadLogs();
    if (this.live && !this.doc.finished) this.poll();
    if (this.followsHash) {
      window.addEventListener("hashchange", () => {
        const index = eventFromHash();
        if (index !== null) this.goToEvent(index);
      });
    }
  }

  // The page's parts, built once.

  buildSkeleton() {
    this.root.classList.add("tv-root");
    this.root.replaceChildren();
    this.header = el("header", { className: "tv-header" });
    this.stage = el("div", { className: "tv-stage" });
    this.caption = el("div", { className: "tv-caption", attrs: { "aria-live": "polite" } });
    this.logBox = el("section", { className: "tv-logs", attrs: { "aria-label": "what the bots printed" } });
    this.controls = buildControls(this);
    this.transcript = el("ol", { className: "tv-transcript", attrs: { "aria-label": "transcript" } });
    const main = el("div", { className: "tv-main" }, [
      this.stage,
      this.caption,
      this.controls.element,
      this.logBox,
    ]);
    const side = el("aside", { className: "tv-side" }, [
      el("h2", { className: "tv-side-title", text: "Transcript" }),
      this.transcript,
    ]);
    this.root.append(this.header, el("div", { className: "tv-body" }, [main, side]));
    this.root.tabIndex = 0;
    this.root.addEventListener("keydown", (event) => this.onKey(event));
  }

  fail(error) {
    this.stage.replaceChildren(
      el("p", { className: "tv-error", text: `The replay could not be loaded: ${error.message}` }),
    );
  }

  // Documents and views.

  show(doc, eventIndex = null) {
    const current = eventIndex ?? this.currentEvent();
    this.doc = doc;
    this.view = doc.view;
    this.documents.set(String(doc.view), doc);
    this.stops = [];
    doc.steps.forEach((step, position) => {
      if (isStop(step)) this.stops.push(position);
    });
    this.drawHeader();
    this.drawTranscript();
    this.controls.setDocument(doc, this.stops);
    if (current === null) this.moveTo(this.live && !doc.finished ? this.stops.length - 1 : 0);
    else this.goToEvent(current);
  }

  async switchView(view) {
    const key = String(view);
    this.pause();
    try {
      let doc = this.documents.get(key);
      if (!doc) {
        const url = viewUrl(this.sources, view);
        if (!url) {
          this.controls.setDocument(this.doc, this.stops);
          return;
        }
        doc = await getJson(url);
      }
      this.show(doc, this.currentEvent());
    } catch (error) {
      this.fail(error);
    }
  }

  availableViews() {
    const views = [];
    const finished = !this.live || (this.doc && this.doc.finished);
    if (this.sources.frames && finished) views.push(["full", "Full view: everything"]);
    if (this.sources.public || !finished) views.push(["public", "Public view"]);
    if (this.sources.seat && finished && this.doc) {
      for (const seat of this.doc.seats) views.push([seat.seat, `What ${seat.bot} knew`]);
    }
    return views;
  }

  async loadLogs() {
    try {
      const logs = await getJson(this.sources.logs);
      this.logs = Object.entries(logs.seats || {}).map(([seat, entries]) => [Number(seat), entries]);
      this.draw();
    } catch (error) {
      this.logs = null;
    }
  }

  // Live matches.

  async poll() {
    while (this.live && !this.doc.finished) {
      await new Promise((resolve) => setTimeout(resolve, LIVE_POLL_MS));
      try {
        const update = await getJson(liveUrlFrom(this.sources.live, this.doc.next));
        if (update.finished) {
          const following = this.position >= this.stops.length - 1;
          this.live = false;
          this.documents.clear();
          const doc = await getJson(this.sources.frames || this.sources.public);
          this.show(doc, following ? doc.next : this.currentEvent());
          if (this.sources.logs) this.loadLogs();
          // The page around the viewer may follow too (the site's match page does).
          this.root.dispatchEvent(new CustomEvent("tavolo-viewer:finished", { bubbles: true }));
          return;
        }
        this.append(update.steps || [], update.next);
      } catch (error) {
        // A missed poll is retried at the next tick.
      }
    }
  }

  append(steps, next) {
    const following = this.position >= this.stops.length - 1;
    for (const step of steps) {
      if (step.index < this.doc.steps.length) continue;
      this.doc.steps.push(step);
      if (isStop(step)) {
        this.stops.push(this.doc.steps.length - 1);
        this.transcript.append(this.transcriptItem(step));
      }
    }
    this.doc.next = next ?? this.doc.steps.length;
    this.controls.setDocument(this.doc, this.stops);
    if (following && this.stops.length) this.moveTo(this.stops.length - 1);
    else this.controls.update(this.position);
  }

  // Moving.

  currentEvent() {
    if (!this.doc || !this.stops.length) return null;
    return this.doc.steps[this.stops[this.position]].index;
  }

  goToEvent(index) {
    const position = this.stops.findIndex((stop) => this.doc.steps[stop].index >= index);
    this.moveTo(position === -1 ? this.stops.length - 1 : position);
  }

  moveTo(position) {
    if (!this.stops.length) {
      this.stage.replaceChildren(el("p", { className: "tv-waiting", text: "Waiting for the first move…" }));
      return;
    }
    this.position = Math.max(0, Math.min(position, this.stops.length - 1));
    this.draw();
    if (this.followsHash) {
      const view = this.view === "full" ? "" : `&view=${this.view}`;
      window.history.replaceState(null, "", `#event=${this.currentEvent()}${view}`);
    }
  }

  step(delta) {
    this.moveTo(this.position + delta);
  }

  /** The previous (-1) or next (+1) start of a round or a hand. */
  jump(direction) {
    const starts = this.stops.filter((stop) => {
      const marks = this.doc.steps[stop].marks;
      return marks.includes("round") || marks.includes("hand");
    });
    const here = this.stops[this.position];
    const target =
      direction < 0
        ? starts.filter((stop) => stop < here).pop()
        : starts.find((stop) => stop > here);
    if (target !== undefined) this.moveTo(this.stops.indexOf(target));
    else this.moveTo(direction < 0 ? 0 : this.stops.length - 1);
  }

  play() {
    if (this.playing) return;
    if (this.position >= this.stops.length - 1 && !this.live) this.moveTo(0);
    this.playing = true;
    this.controls.update(this.position);
    this.tick();
  }

  pause() {
    this.playing = false;
    clearTimeout(this.timer);
    this.controls.update(this.position);
  }

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }

  setSpeed(speed) {
    this.speed = speed;
  }

  tick() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (!this.playing) return;
      if (this.position < this.stops.length - 1) this.step(1);
      else if (!this.live || this.doc.finished) {
        this.pause();
        return;
      }
      this.tick();
    }, BASE_DELAY_MS / this.speed);
  }

  onKey(event) {
    const tag = event.target.tagName;
    if (tag === "SELECT" || (tag === "INPUT" && event.key !== " ")) return;
    const actions = {
      " ": () => this.toggle(),
      ArrowLeft: () => this.step(-1),
      ArrowRight: () => this.step(1),
      ArrowUp: () => this.jump(-1),
      PageUp: () => this.jump(-1),
      ArrowDown: () => this.jump(1),
      PageDown: () => this.jump(1),
      Home: () => this.moveTo(0),
      End: () => this.moveTo(this.stops.length - 1),
    };
    const action = actions[event.key];
    if (!action || (event.key === " " && (tag === "BUTTON" || tag === "A"))) return;
    event.preventDefault();
    action();
  }

  // Drawing.

  drawHeader() {
    const doc = this.doc;
    const title = el("h1", { className: "tv-title", text: doc.game === "mia" ? "Mia" : "Muggins" });
    const seats = el("ul", { className: "tv-seats", attrs: { "aria-label": "seats" } });
    for (const seat of doc.seats) {
      seats.append(el("li", { className: seatClass(seat.seat), text: seat.bot }));
    }
    const status = this.live && !doc.finished ? el("span", { className: "tv-live", text: "live" }) : null;
    this.header.replaceChildren(
      el("div", { className: "tv-title-row" }, [title, status]),
      el("p", { className: "tv-rules", text: doc.rules_text }),
      seats,
    );
  }

  drawTranscript() {
    const items = this.stops.map((stop) => this.transcriptItem(this.doc.steps[stop]));
    this.transcript.replaceChildren(...items);
    this.transcriptItems = this.transcript.children;
  }

  transcriptItem(step) {
    const marks = step.marks.filter((mark) => mark !== "decision");
    const link = el("a", { attrs: { href: `#event=${step.index}` } }, [
      el("span", { className: "tv-index", text: step.index }),
      el("span", { className: "tv-text", text: step.text }),
    ]);
    if (!this.followsHash) {
      link.addEventListener("click", (event) => {
        event.preventDefault();
        this.goToEvent(step.index);
      });
    }
    return el("li", { className: marks.map((mark) => `mark-${mark}`).join(" ") }, [link]);
  }

  draw() {
    const doc = this.doc;
    const stop = this.stops[this.position];
    const step = doc.steps[stop];
    const previousStop = this.position > 0 ? this.stops[this.position - 1] : null;
    const previous = previousStop === null ? null : doc.steps[previousStop];
    const drawing = (DRAWERS[doc.game] || drawMia)(doc, step, previous);
    this.stage.replaceChildren(drawing);
    this.drawCaption(step);
    this.drawLogs(previous ? previous.index : -1, step.index);
    this.markTranscript();
    this.controls.update(this.position);
  }

  drawCaption(step) {
    const banner = BANNER_MARKS.find((mark) => step.marks.includes(mark));
    this.caption.className = banner ? `tv-caption banner-${banner}` : "tv-caption";
    this.caption.replaceChildren(
      el("span", { className: "tv-step-number", text: `event ${step.index}` }),
      el("span", { className: "tv-step-text", text: step.text }),
    );
  }

  /** What each bot printed while deciding the events after `after`, up to `upto`. */
  drawLogs(after, upto) {
    if (!this.logs) {
      this.logBox.hidden = true;
      return;
    }
    this.logBox.hidden = false;
    const names = this.doc.seats.map((seat) => seat.bot);
    const blocks = [];
    for (const [seat, entries] of this.logs) {
      for (const entry of entries) {
        if (entry.index > after && entry.index <= upto && entry.text) {
          blocks.push(
            el("div", { className: `tv-log ${seatClass(seat)}` }, [
              el("div", { className: "tv-log-head", text: `${names[seat]} printed, deciding event ${entry.index}:` }),
              el("pre", { text: entry.text }),
            ]),
          );
        }
      }
    }
    if (!blocks.length) blocks.push(el("p", { className: "tv-log-none", text: "No bot printed anything for this step." }));
    this.logBox.replaceChildren(el("h2", { className: "tv-side-title", text: "Bot logs" }), ...blocks);
  }

  markTranscript() {
    const previous = this.transcript.querySelector(".current");
    if (previous) {
      previous.classList.remove("current");
      previous.firstChild.removeAttribute("aria-current");
    }
    const item = this.transcriptItems[this.position];
    if (!item) return;
    item.classList.add("current");
    item.firstChild.setAttribute("aria-current", "step");
    const list = this.transcript;
    const top = item.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - item.offsetHeight) {
      list.scrollTop = top - list.clientHeight / 2;
    }
  }
}
