"""The Muggins table, step by step: the line, the hands, the boneyard and the scores.

`MugginsTable` folds the replay's events one at a time. The events carry what
the engine worked out (each play's end counts, count, credit and total, each
hand's penalties); the table only keeps track of where things lie: the tiles
in each hand and, for drawing, the line as laid, each tile turned so that
touching halves match (RULES.md 2.3).
"""

from __future__ import annotations

from arena.engine import JSON
from arena.viewing.views import View, sees
from arena.viewing.words import generic_text, places_text

Tile = list[int]

END_REASONS = {
    "target": "a player reached the target",
    "hand_cap": "the hand cap was reached",
    "crashed": "every bot crashed",
}


def rules_text(rules: JSON) -> str:
    """The resolved rules in words."""
    return (
        f"Muggins, {rules['players']} players, {rules['hand_size']} tiles each, "
        f"each scoring for himself; first to {rules['target']} points wins; "
        f"the match stops after {rules['hand_cap']} hands."
    )


def tile_text(tile: Tile) -> str:
    return f"{tile[0]}-{tile[1]}"


def laid(line: list[JSON], tile: Tile, end: str) -> Tile:
    """`tile` turned as it lies at `end` of `line`: its touching half against the end."""
    high, low = tile
    if not line:
        return [high, low]
    if end == "left":
        return [low, high] if high == line[0]["tile"][0] else [high, low]
    return [high, low] if high == line[-1]["tile"][1] else [low, high]


def _heaviest_first(tile: Tile) -> tuple[int, int]:
    return (-tile[0], -tile[1])


class MugginsTable:
    """The whole table after each event so far."""

    def __init__(self, rules: JSON, names: list[str]) -> None:
        self.names = names
        self.target = rules["target"]
        players = len(names)
        self.scores = [0] * players
        self.hands: list[list[Tile]] = [[] for _ in names]
        self.drawn: list[list[Tile]] = [[] for _ in names]
        """The tiles each seat drew since it last played."""
        self.crashed = [False] * players
        self.hand_number = 0
        self.opener: int | None = None
        self.boneyard = 0
        self.line: list[JSON] = []
        self.ends: list[int] | None = None
        self.count = 0
        self.last_play: JSON | None = None
        self.hand_end: JSON | None = None
        self.ended: JSON | None = None

    # Folding events in.

    def take(self, event: JSON) -> None:
        kind = event["type"]
        if kind == "hand":
            self.hand_number = event["number"]
            self.opener = event["opener"]
            self.hands = [sorted(hand, key=_heaviest_first) for hand in event["hands"]]
            self.drawn = [[] for _ in self.names]
            self.boneyard = len(event["boneyard"])
            self.line = []
            self.ends = None
            self.count = 0
            self.last_play = None
            self.hand_end = None
        elif kind == "draw":
            self.boneyard -= 1
            hand = self.hands[event["seat"]]
            hand.append(event["tile"])
            hand.sort(key=_heaviest_first)
            self.drawn[event["seat"]] = [*self.drawn[event["seat"]], event["tile"]]
        elif kind == "play":
            self._play(event)
        elif kind == "hand_end":
            self.hands = [list(hand) for hand in event["hands"]]
            self.scores = list(event["scores"])
            self.hand_end = {key: event[key] for key in ("number", "reason", "penalties")}
            self.last_play = None
        elif kind == "crash":
            self.crashed[event["seat"]] = True
        elif kind == "end":
            self.ended = {key: event[key] for key in ("reason", "places", "scores")}

    def _play(self, event: JSON) -> None:
        seat, tile, end = event["seat"], event["tile"], event["end"]
        self.hands[seat] = [held for held in self.hands[seat] if held != tile]
        self.drawn[seat] = []
        piece = {
            "tile": laid(self.line, tile, end),
            "double": tile[0] == tile[1],
            "seat": seat,
            "credit": event["credit"],
        }
        if end == "left":
            self.line = [piece, *self.line]
        else:
            self.line = [*self.line, piece]
        self.ends = event["ends"]
        self.count = event["count"]
        self.scores[seat] = event["score"]
        self.last_play = {
            key: event[key] for key in ("seat", "tile", "end", "count", "credit", "score")
        }

    # What each step shows.

    def table(self, view: View, turn: int | None) -> JSON:
        shown = self.hand_end is not None
        places = self.ended["places"] if self.ended else None
        return {
            "hand": {"number": self.hand_number, "opener": self.opener},
            "turn": turn,
            "target": self.target,
            "line": self.line,
            "ends": self.ends,
            "count": self.count,
            "boneyard": self.boneyard,
            "players": [
                {
                    "seat": seat,
                    "score": score,
                    "hand": list(hand) if shown or sees(view, seat) else None,
                    "hand_size": len(hand),
                    "drawn": self.drawn[seat] if sees(view, seat) else None,
                    "crashed": self.crashed[seat],
                    "place": None if places is None else places[seat],
                }
                for seat, (score, hand) in enumerate(zip(self.scores, self.hands, strict=True))
            ],
            "last_play": self.last_play,
            "hand_end": self.hand_end,
            "over": self.ended is not None,
        }

    def text(self, event: JSON, view: View) -> str:
        """One transcript line for `event`, told as `view` knew it."""
        kind = event["type"]
        who = self.names[event["seat"]] if "seat" in event else ""
        if kind == "action":
            action = event["action"]
            return f"{who} chooses {tile_text(action['tile'])} on the {action['end']}"
        if kind == "hand":
            opens = f"Hand {event['number']}: {self.names[event['opener']]} opens"
            held = [
                f"{self.names[seat]} {' '.join(map(tile_text, hand))}"
                for seat, hand in enumerate(event["hands"])
                if sees(view, seat)
            ]
            return "; ".join([opens, *held])
        if kind == "draw":
            if sees(view, event["seat"]):
                return f"{who} draws {tile_text(event['tile'])}"
            return f"{who} draws a tile"
        if kind == "play":
            credit = f": scores {event['credit']}" if event["credit"] else ""
            left, right = event["ends"]
            played = " (played for the crashed bot)" if self.crashed[event["seat"]] else ""
            return (
                f"{who} plays {tile_text(event['tile'])} on the {event['end']}{played}, ends "
                f"{left} and {right} count {event['count']}{credit} (total {event['score']})"
            )
        if kind == "pass":
            return f"{who} passes"
        if kind == "hand_end":
            how = "domino" if event["reason"] == "domino" else "blocked"
            minus = ", ".join(
                f"{self.names[seat]} {-penalty if penalty else 0}"
                for seat, penalty in enumerate(event["penalties"])
            )
            return f"Hand {event['number']} ends ({how}): {minus}"
        if kind in ("infraction", "crash"):
            return f"{kind.capitalize()} by {who}: {event['reason']}"
        if kind == "end":
            why = END_REASONS.get(event["reason"], event["reason"])
            return f"The match is over, {why}: " + places_text(event["places"], self.names)
        return generic_text(event)

    @staticmethod
    def marks(event: JSON) -> list[str]:
        if event["type"] == "play" and event["credit"]:
            return ["score"]
        return MARKS.get(event["type"], [])


MARKS = {
    "action": ["decision"],
    "hand": ["hand"],
    "hand_end": ["hand_end"],
    "infraction": ["infraction"],
    "crash": ["crash"],
    "end": ["end"],
}
