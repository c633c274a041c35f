// Drawing a Mia table: the players round it with their lives as hearts, the
// cup in the middle with the dice under it, and the round's claims.

import { el, ordinal, seatClass } from "./dom.js";
import { die } from "./pips.js";
import { standings } from "./standings.js";

const CLAIM_VERBS = { announce: "announces", vouch: "vouches for", trust: "trusts and claims" };

function valueText(value) {
  return value === 21 ? "21 · Mia" : String(value);
}

/** The whole table of one step, as a new element. */
export function drawMia(doc, step, previous) {
  const table = step.table;
  const names = doc.seats.map((seat) => seat.bot);
  const felt = el("div", { className: "mia-table felt" });
  const count = table.players.length;
  const ring = el("div", { className: count > 6 ? "mia-ring crowded" : "mia-ring" });
  table.players.forEach((player, position) => {
    const seat = drawSeat(player, table, names[player.seat], step, previous);
    // Places round an ellipse, the first seat at the bottom, clockwise.
    const angle = Math.PI / 2 + (2 * Math.PI * position) / count;
    seat.style.setProperty("--x", `${50 + 41 * Math.cos(angle)}%`);
    seat.style.setProperty("--y", `${50 + 38 * Math.sin(angle)}%`);
    ring.append(seat);
  });
  if (table.over) {
    const lives = (player) => `${player.lives} ${player.lives === 1 ? "life" : "lives"} left`;
    ring.append(el("div", { className: "mia-centre" }, [standings(table.players, names, lives)]));
  } else {
    ring.append(drawCentre(table, names, previous));
  }
  felt.append(ring);
  return felt;
}

function drawSeat(player, table, name, step, previous) {
  const classes = ["mia-seat", seatClass(player.seat)];
  if (!player.in_game) classes.push("out");
  if (table.turn === player.seat && !table.over) classes.push("turn");
  if (table.round.claimant === player.seat) classes.push("claimant");
  const seat = el("div", { className: classes.join(" ") });
  seat.append(el("div", { className: "seat-name", text: name }));
  seat.append(hearts(player));
  const notes = el("div", { className: "seat-notes" });
  if (player.place !== null && player.place !== undefined) {
    notes.append(el("span", { className: "badge place", text: ordinal(player.place) }));
  }
  if (table.turn === player.seat && !table.over) {
    notes.append(el("span", { className: "badge turn-badge", text: "to play" }));
  }
  if (table.round.claimant === player.seat) {
    notes.append(el("span", { className: "badge claim-badge", text: "claimant" }));
  }
  if (table.round.accuser === player.seat) {
    notes.append(el("span", { className: "badge accuser-badge", text: "accuses" }));
  }
  const loss = table.loss;
  if (loss && loss.seat === player.seat && step.marks.includes("loss")) {
    seat.classList.add("hit");
    notes.append(el("span", { className: "badge loss-badge", text: `−${loss.lives_lost}` }));
  }
  seat.append(notes);
  return seat;
}

function hearts(player) {
  const row = el("div", {
    className: "hearts",
    attrs: { role: "img", "aria-label": `${player.lives} of ${player.starting_lives} lives` },
  });
  const shown = Math.max(player.starting_lives, player.lives);
  for (let life = 0; life < shown; life += 1) {
    const full = life < player.lives;
    row.append(el("span", { className: full ? "heart" : "heart lost", text: full ? "♥" : "♡" }));
  }
  return row;
}

function drawCentre(table, names, previous) {
  const round = table.round;
  const centre = el("div", { className: "mia-centre" });
  centre.append(el("div", { className: "round-label", text: round.number ? `Round ${round.number}` : "" }));
  const talk = el("div", { className: "round-talk" }, [drawClaim(round, names), drawClaims(round, names)]);
  centre.append(el("div", { className: "centre-row" }, [drawCup(table.cup, names, previous), talk]));
  return centre;
}

function drawClaim(round, names) {
  const claim = el("div", { className: "claim" });
  if (round.claim === null || round.claim === undefined) {
    claim.append(el("span", { className: "claim-label", text: "no claim yet" }));
    return claim;
  }
  claim.append(
    el("span", { className: "claim-label", text: "claim" }),
    el("span", { className: "claim-value", text: valueText(round.claim) }),
    el("span", { className: "claim-by", text: `by ${names[round.claimant]}` }),
  );
  if (round.vouches) {
    claim.append(el("span", { className: "vouches", text: `${round.vouches} vouched` }));
  }
  return claim;
}

/** The round's claims, the newest first. */
function drawClaims(round, names) {
  const history = el("ol", { className: "claims", attrs: { "aria-label": "claims this round, newest first" } });
  for (const made of [...round.claims].reverse()) {
    const item = el("li", { className: `${made.kind} ${seatClass(made.seat)}` });
    item.append(
      el("span", { className: "who", text: names[made.seat] }),
      el("span", { className: "verb", text: ` ${CLAIM_VERBS[made.kind] || made.kind} ` }),
      el("strong", { text: valueText(made.value) }),
    );
    history.append(item);
  }
  return history;
}

function drawCup(cup, names, previous) {
  const box = el("div", { className: "cup-box" });
  if (!cup) {
    box.append(el("div", { className: "cup-empty", text: "waiting for the roll" }));
    return el("div", { className: "cup-area" }, [box]);
  }
  const before = previous && previous.table.cup;
  const classes = ["cup"];
  if (cup.revealed) classes.push(before && before.revealed ? "lifted" : "lifting");
  else if (cup.dice) classes.push("peek");
  const rolled = !before || before.seat !== cup.seat || before.value !== cup.value;
  if (rolled && !cup.revealed) classes.push("shaking");
  const dice = el("div", { className: rolled && cup.dice ? "dice tumbling" : "dice" });
  if (cup.dice) {
    dice.append(die(cup.dice[0]), die(cup.dice[1]));
  } else {
    dice.append(el("span", { className: "hidden-dice", text: "?" }));
  }
  const lid = el("div", { className: classes.join(" "), attrs: { "aria-hidden": "true" } });
  box.append(dice, lid);
  let caption;
  if (cup.revealed) caption = `the cup is lifted: ${valueText(cup.value)}`;
  else if (cup.dice) caption = `under the cup: ${valueText(cup.value)}, seen by ${names[cup.seat]} only`;
  else caption = `${names[cup.seat]}'s dice, under the cup`;
  return el("div", { className: "cup-area" }, [box, el("div", { className: "cup-caption", text: caption })]);
}
