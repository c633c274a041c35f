// The final standings, drawn on the table once the match is over.

import { el, ordinal, seatClass } from "./dom.js";

/** `players` by place, each with `detail(player)` beside its name. */
export function standings(players, names, detail) {
  const ranked = [...players].sort((a, b) => a.place - b.place);
  const list = el("ol", { className: "standings-list" });
  for (const player of ranked) {
    list.append(
      el("li", { className: `${seatClass(player.seat)} ${player.place === 1 ? "winner" : ""}` }, [
        el("span", { className: "standings-place", text: ordinal(player.place) }),
        el("span", { className: "standings-name", text: names[player.seat] }),
        el("span", { className: "standings-detail", text: detail(player) }),
      ]),
    );
  }
  const winner = ranked.find((player) => player.place === 1);
  return el("div", { className: "standings" }, [
    el("div", { className: "standings-title", text: winner ? `${names[winner.seat]} wins` : "The match is over" }),
    list,
  ]);
}
