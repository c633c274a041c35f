// Drawing a Muggins table: scores with the paper tally, the line of tiles
// (doubles crosswise, wrapping when long), the open ends and their count,
// every hand (face up when the view knows it) and the boneyard.

import { el, ordinal, seatClass } from "./dom.js";
import { domino } from "./pips.js";
import { standings } from "./standings.js";
import { tally } from "./tally.js";

const END_WORDS = { domino: "domino", blocked: "blocked: nobody can play" };

function sameTile(a, b) {
  return (a[0] === b[0] && a[1] === b[1]) || (a[0] === b[1] && a[1] === b[0]);
}

/** The whole table of one step, as a new element. */
export function drawMuggins(doc, step) {
  const table = step.table;
  const names = doc.seats.map((seat) => seat.bot);
  const box = el("div", { className: "muggins-table" });
  box.append(drawScores(table, names));
  const felt = el("div", { className: "felt muggins-felt" });
  felt.append(drawStatus(table, names, step));
  if (table.over) felt.append(standings(table.players, names, (player) => `${player.score} points`));
  felt.append(drawLine(table));
  felt.append(drawHands(table, names));
  box.append(felt);
  return box;
}

function drawScores(table, names) {
  const board = el("div", { className: "scoreboard" });
  for (const player of table.players) {
    const classes = ["score-card", seatClass(player.seat)];
    const toPlay = table.turn === player.seat && !table.over && !player.crashed;
    if (toPlay) classes.push("turn");
    if (player.crashed) classes.push("crashed");
    const card = el("div", { className: classes.join(" ") });
    const head = el("div", { className: "score-head" });
    head.append(el("span", { className: "seat-name", text: names[player.seat] }));
    head.append(el("span", { className: "score-number", text: player.score }));
    card.append(head);
    card.append(tally(player.score));
    const progress = el("div", { className: "progress", attrs: { "aria-hidden": "true" } });
    const bar = el("div", { className: "progress-bar" });
    bar.style.setProperty("--share", `${Math.max(0, Math.min(1, player.score / table.target)) * 100}%`);
    progress.append(bar);
    card.append(progress);
    const notes = el("div", { className: "seat-notes" });
    if (player.place) notes.append(el("span", { className: "badge place", text: ordinal(player.place) }));
    if (player.crashed) notes.append(el("span", { className: "badge crash-badge", text: "crashed" }));
    if (toPlay) notes.append(el("span", { className: "badge turn-badge", text: "to play" }));
    card.append(notes);
    board.append(card);
  }
  board.append(el("div", { className: "target", text: `first to ${table.target}` }));
  return board;
}

function drawStatus(table, names, step) {
  const status = el("div", { className: "line-status" });
  const play = table.last_play;
  status.append(el("span", { className: "hand-number", text: `Hand ${table.hand.number}` }));
  if (table.ends) {
    const [left, right] = table.ends;
    status.append(
      el("span", { className: "ends" }, [
        el("span", { className: "end-label", text: "open ends " }),
        el("strong", { text: `${left} · ${right}` }),
      ]),
    );
    const scoring = play && play.credit ? "count scoring" : "count";
    status.append(
      el("span", { className: scoring }, [
        el("span", { className: "end-label", text: "count " }),
        el("strong", { text: table.count }),
      ]),
    );
  } else {
    status.append(el("span", { className: "count", text: `${names[table.hand.opener]} opens` }));
  }
  if (play && play.credit && step.marks.includes("score")) {
    status.append(
      el("span", { className: `credit pop ${seatClass(play.seat)}`, text: `${names[play.seat]} +${play.credit}` }),
    );
  }
  status.append(drawBoneyard(table.boneyard));
  return status;
}

/** The boneyard as a small stack of face-down tiles (at most five drawn) and its size. */
function drawBoneyard(size) {
  const stack = el("span", { className: "boneyard-stack", attrs: { "aria-hidden": "true" } });
  for (let tile = 0; tile < Math.min(size, 5); tile += 1) {
    stack.append(domino(null, { faceDown: true, className: "small" }));
  }
  return el("span", { className: "boneyard" }, [stack, el("span", { text: `boneyard ${size}` })]);
}

function drawLine(table) {
  const line = el("div", { className: "line", attrs: { "aria-label": "the line of tiles" } });
  const last = table.last_play;
  if (!table.line.length) {
    line.append(el("div", { className: "line-empty", text: "no tile laid yet" }));
  }
  for (const piece of table.line) {
    const isLast = last && sameTile(piece.tile, last.tile);
    const classes = [seatClass(piece.seat), isLast ? "last" : ""];
    const tile = domino(piece.tile, { double: piece.double, className: classes.join(" ") });
    if (piece.credit) {
      tile.append(el("span", { className: "credit-tag", text: `+${piece.credit}` }));
    }
    line.append(tile);
  }
  if (table.hand_end) {
    const ended = table.hand_end;
    line.append(
      el("div", {
        className: "hand-end-banner",
        text: `Hand ${ended.number} ends (${END_WORDS[ended.reason] || ended.reason})`,
      }),
    );
  }
  return line;
}

function drawHands(table, names) {
  const hands = el("div", { className: "hands" });
  const penalties = table.hand_end ? table.hand_end.penalties : null;
  for (const player of table.players) {
    const turn = table.turn === player.seat && !table.over && !player.crashed ? " turn" : "";
    const row = el("div", { className: `hand-row ${seatClass(player.seat)}${turn}` });
    row.append(el("span", { className: "seat-name", text: names[player.seat] }));
    const tiles = el("span", { className: "hand-tiles" });
    if (player.hand) {
      const drawn = player.drawn || [];
      for (const tile of player.hand) {
        const justDrawn = drawn.some((other) => sameTile(other, tile));
        tiles.append(domino(tile, { className: justDrawn ? "small drawn" : "small" }));
      }
    } else {
      for (let count = 0; count < player.hand_size; count += 1) {
        tiles.append(domino(null, { faceDown: true, className: "small" }));
      }
    }
    if (!player.hand_size) tiles.append(el("span", { className: "empty-hand", text: "no tiles" }));
    row.append(tiles);
    if (penalties) {
      const penalty = penalties[player.seat];
      row.append(el("span", { className: "penalty", text: penalty ? `−${penalty}` : "0" }));
    }
    hands.append(row);
  }
  return hands;
}
