"""One Muggins match in progress (RULES.md Part 2), driven through `arena.engine.State`.

Each rule of RULES.md Part 2 has one named place: the opening count, what a
double counts at an end and the credit of a count in `line`; forced draws and
blocked hands in `MugginsState._next_turn`; rounding in `round_pips`; the
target reached at once in `MugginsState._play`; the hand cap in
`MugginsState._end_hand`.

Tiles are ints and a hand is a list of them, heaviest first (see `tiles`).
The legal actions are the shared dicts of `tiles.PLAY_ACTIONS`, listed in the
engine's fixed order: hand order, the left end before the right. The first of
them is the default move played for an infraction and for a crashed seat.
Like everything a caller receives, they must not be mutated.

Events (``state.events``, the whole truth; every dict JSON-ready):

- input events, as in `arena.engine`: ``action`` (with the legal action dict
  it matched), ``infraction`` and ``crash``;
- ``{"type": "hand", "number": n, "opener": s, "hands": [[[h, l], ...] per
  seat], "boneyard": [[h, l], ...]}``: a hand is dealt; the boneyard is listed
  in the order it will be drawn;
- ``{"type": "draw", "seat": s, "tile": [h, l]}``: the engine draws a tile for
  a seat that has no play;
- ``{"type": "play", "seat": s, "tile": [h, l], "end": "left" | "right",
  "ends": [left_pips, right_pips], "count": c, "credit": k, "score": total}``:
  a tile is laid; `ends` and `count` are the line after it, `credit` the
  points it scored and `score` the seat's new total;
- ``{"type": "pass", "seat": s}``: no play and an empty boneyard;
- ``{"type": "hand_end", "number": n, "reason": "domino" | "blocked",
  "hands": [[[h, l], ...] per seat], "penalties": [...], "scores": [...]}``:
  every hand is shown and each seat loses its own rounded pips;
- ``{"type": "end", "reason": "target" | "hand_cap" | "crashed", "places":
  [...], "scores": [...]}``: the match is over.

The public history (``state.history``, the observation's ``history`` by
reference) is the same list without what is hidden: no ``action`` events (the
``play`` event tells each play once), ``hand`` as ``{"type": "hand",
"number": n, "opener": s}`` and ``draw`` as ``{"type": "draw", "seat": s}``.
Hands are shown only by ``hand_end``.
"""

from __future__ import annotations

import random
from bisect import insort
from dataclasses import dataclass
from itertools import repeat, starmap

from arena.api import API_VERSION
from arena.engine import JSON, IllegalActionError, Outcome
from arena.games.chance import hand_stream
from arena.games.muggins.game import MAX_PLAYERS, MugginsEnd, MugginsGame
from arena.games.muggins.line import PLAYS_ON, Ends, after_play, credit, plays, row_of
from arena.games.muggins.tiles import (
    END_NAMES,
    END_OF_NAME,
    LEFT,
    PIPS,
    PLAY_ACTIONS,
    TILE_COUNT,
    TILE_VIEWS,
    tile_of,
)

SEATS = range(MAX_PLAYERS)


def _action_event(seat: int, action: JSON) -> JSON:
    return {"type": "action", "seat": seat, "action": action}


ACTION_EVENTS: tuple[tuple[tuple[JSON, JSON], ...], ...] = tuple(
    tuple((_action_event(seat, left), _action_event(seat, right)) for left, right in PLAY_ACTIONS)
    for seat in SEATS
)
"""``ACTION_EVENTS[seat][tile][end]``: the input event of a play. Like a seat's
draws and passes, it recurs all match long: each is one dict, built once."""

DRAW_EVENTS: tuple[tuple[JSON, ...], ...] = tuple(
    tuple({"type": "draw", "seat": seat, "tile": view} for view in TILE_VIEWS) for seat in SEATS
)
"""``DRAW_EVENTS[seat][tile]``: a draw, as the full log records it."""

PUBLIC_DRAW_EVENTS: tuple[JSON, ...] = tuple({"type": "draw", "seat": seat} for seat in SEATS)
"""A seat's draw as the public history shows it, the tile hidden."""

PASS_EVENTS: tuple[JSON, ...] = tuple({"type": "pass", "seat": seat} for seat in SEATS)

WINNER, PLAYING, CRASHED = 0, 1, 2
"""Groups for placing seats: the winner, then the others, crashed seats last."""


def round_pips(pips: int) -> int:
    """**Rounding** (RULES.md 2.6): pips to the nearest 5, remainders of 1 or 2
    down and of 3 or 4 up (2 -> 0, 3 -> 5, 7 -> 5, 8 -> 10)."""
    return (pips + 2) // 5 * 5


def penalty(hand: list[int]) -> int:
    """What a hand left at the end of a hand costs its own seat (RULES.md 2.6):
    its pips, rounded. Nobody is credited with anyone else's pips."""
    return round_pips(sum(PIPS[tile] for tile in hand))


@dataclass(frozen=True)
class Deal:
    """A hand's tiles: each seat's hand, the boneyard in the order it is drawn,
    and the seat that opens."""

    hands: list[list[int]]
    boneyard: list[int]
    opener: int


def _tile_views(tiles: list[int]) -> list[list[int]]:
    return [TILE_VIEWS[tile] for tile in tiles]


class MugginsState:
    """A Muggins match: hands, boneyard, line, scores, and whose turn it is."""

    __slots__ = (
        "_boneyard",
        "_crashed",
        "_drawn",
        "_ends",
        "_following",
        "_hands",
        "_legal",
        "_line",
        "_players",
        "_result",
        "_rng",
        "_seat",
        "_seed",
        "events",
        "game",
        "hand_number",
        "history",
        "scores",
    )

    def __init__(self, game: MugginsGame, seed: int, *, first_deal: Deal | None = None) -> None:
        """Start a match; `first_deal` replaces the first hand's shuffle (a test seam:
        such a match is not the replay of any seed; later hands come from `seed`)."""
        self.game = game
        self._following = (*range(1, game.players), 0)
        """The seat after each seat, in turn order."""
        self._rng = random.Random(seed)
        self._seed = seed
        self.events: list[JSON] = []
        self.history: list[JSON] = []
        self.scores = [0] * game.players
        self._players = [{"seat": seat, "score": 0, "hand_size": 0} for seat in range(game.players)]
        self._crashed: set[int] = set()
        self._result: Outcome | None = None
        self.hand_number = 0
        self._start_hand(self._shuffle(opener=None) if first_deal is None else first_deal)

    # -- the State protocol -------------------------------------------------

    def current_seat(self) -> int | None:
        return self._seat

    def legal_actions(self) -> list[JSON]:
        return self._legal

    def observation(self, seat: int) -> JSON:
        current = seat == self._seat
        for player, score, hand in zip(self._players, self.scores, self._hands, strict=True):
            player["score"] = score
            player["hand_size"] = len(hand)
        ends = self._ends
        return {
            "api_version": API_VERSION,
            "game": "muggins",
            "rules": self.game.rules,
            "seat": seat,
            "players": self._players,
            "scores": self.scores,
            "target": self.game.target,
            "hand": _tile_views(self._hands[seat]),
            "line": self._line,
            "ends": None
            if ends is None
            else {
                "left": {"pips": ends[0], "counts": ends[1]},
                "right": {"pips": ends[2], "counts": ends[3]},
            },
            "boneyard": len(self._boneyard),
            "hand_number": self.hand_number,
            "drawn": self._drawn if current else [],
            "legal_actions": self._legal if current else [],
            "history": self.history,
        }

    def apply(self, action: JSON) -> None:
        seat = self._seat
        if seat is None:
            raise IllegalActionError("the match is over")
        legal = self._legal
        if action is not legal[0]:
            try:  # the listed action itself, should `action` merely equal it
                action = legal[legal.index(action)]
            except ValueError:
                message = f"{action!r} is not a legal action for seat {seat}"
                raise IllegalActionError(message) from None
        tile, end = tile_of(action["tile"]), END_OF_NAME[action["end"]]
        self.events.append(ACTION_EVENTS[seat][tile][end])
        self._play(seat, tile, end)
        if self._crashed:
            self._settle()

    def infraction(self, seat: int, reason: str) -> None:
        """Replace the seat's reply by its first legal move (RULES.md 2.8).

        Once the match is over it is neither applied nor recorded.
        """
        if self._seat is None:
            return
        if seat != self._seat:
            raise ValueError(f"seat {seat} is not the seat to play")
        self._record({"type": "infraction", "seat": seat, "reason": reason})
        self._play_default(seat)
        self._settle()

    def crash(self, seat: int, reason: str) -> None:
        """Forfeit the seat: the engine plays its first legal move from now on
        (RULES.md 2.8). A seat that has already crashed, or any seat once the
        match is over, is neither changed nor recorded."""
        if not 0 <= seat < self.game.players:
            raise ValueError(f"there is no seat {seat}")
        if self._seat is None or seat in self._crashed:
            return
        self._record({"type": "crash", "seat": seat, "reason": reason})
        self._crashed.add(seat)
        if len(self._crashed) == self.game.players:
            self._finish(MugginsEnd.CRASHED, winner=None)
        else:
            self._settle()

    def is_over(self) -> bool:
        return self._seat is None

    def result(self) -> Outcome:
        if self._result is None:
            raise ValueError("the match is not over")
        return self._result

    # -- a hand: the deal and the opening (RULES.md 2.1, 2.2) ----------------

    def _shuffle(self, opener: int | None) -> Deal:
        """Shuffle and deal; with no `opener` (the first hand, or after a blocked
        one), draw one at random. Since engine 1.2.0 the hand's own stream
        (`arena.games.chance.hand_stream`) deals it; before, the match's one."""
        rng = (
            hand_stream(self._seed, self.hand_number + 1)
            if self.game.per_seat_chance
            else self._rng
        )
        draw = rng.random
        # Sorting by a random key per tile is a uniform shuffle (and the one
        # every replay was dealt with).
        keys = list(starmap(draw, repeat((), TILE_COUNT)))
        tiles = sorted(range(TILE_COUNT), key=keys.__getitem__)
        size, players = self.game.hand_size, self.game.players
        hands = [sorted(tiles[seat * size : (seat + 1) * size]) for seat in range(players)]
        if opener is None:
            opener = rng.randrange(players)
        return Deal(hands, tiles[players * size :], opener)

    def _start_hand(self, deal: Deal) -> None:
        """The opener may play any tile of his hand (RULES.md 2.2)."""
        self.hand_number += 1
        self._hands = deal.hands
        self._boneyard = deal.boneyard[::-1]  # drawn from the end
        self._line: list[list[int]] = []
        self._ends: Ends | None = None
        self.events.append(
            {
                "type": "hand",
                "number": self.hand_number,
                "opener": deal.opener,
                "hands": [_tile_views(hand) for hand in deal.hands],
                "boneyard": _tile_views(deal.boneyard),
            }
        )
        self.history.append({"type": "hand", "number": self.hand_number, "opener": deal.opener})
        self._seat: int | None = deal.opener
        self._legal = plays(deal.hands[deal.opener], None)
        self._drawn: list[list[int]] = []

    # -- a turn: play, or draw until a tile fits, or pass (RULES.md 2.3-2.5) --

    def _play(self, seat: int, tile: int, end: int) -> None:
        """Lay `tile` on `end` and score the count; then the match, the hand or
        the turn goes on."""
        hand = self._hands[seat]
        hand.remove(tile)
        before = self._ends
        ends, count = after_play(before, tile, end)
        self._ends = ends
        if before is None:
            self._line.append(TILE_VIEWS[tile])  # high half left, low half right
        elif end == LEFT:
            self._line.insert(0, [ends[0], before[0]])  # the tile as laid, [a, b]
        else:
            self._line.append([before[2], ends[2]])
        points = credit(count)
        score = self.scores[seat] = self.scores[seat] + points
        event = {
            "type": "play",
            "seat": seat,
            "tile": TILE_VIEWS[tile],
            "end": END_NAMES[end],
            "ends": [ends[0], ends[2]],
            "count": count,
            "credit": points,
            "score": score,
        }
        self.events.append(event)
        self.history.append(event)
        if score >= self.game.target:
            # The target reached at once (RULES.md 2.7): mid-hand, no more plays
            # and no subtractions.
            self._finish(MugginsEnd.TARGET, winner=seat)
        elif not hand:
            self._end_hand("domino", last_player=seat)
        else:
            self._next_turn(self._following[seat])

    def _next_turn(self, seat: int) -> None:
        """**Forced draws and blocked hands** (RULES.md 2.5). A seat with a play
        must play. One without draws a tile at a time until one fits, and must
        play that tile; with the boneyard empty, it passes. When every seat in
        turn has passed, the hand is blocked."""
        on_line = PLAYS_ON[row_of(self._ends)]
        for _ in range(self.game.players):
            legal: list[JSON] = []
            for tile in self._hands[seat]:
                legal += on_line[tile]
            drawn: list[list[int]] = []
            while not legal and self._boneyard:
                tile = self._boneyard.pop()
                insort(self._hands[seat], tile)
                drawn.append(TILE_VIEWS[tile])
                self.events.append(DRAW_EVENTS[seat][tile])
                self.history.append(PUBLIC_DRAW_EVENTS[seat])
                legal += on_line[tile]  # that tile, and no other
            if legal:
                self._seat = seat
                self._legal = legal
                self._drawn = drawn
                return
            self._record(PASS_EVENTS[seat])
            seat = self._following[seat]
        self._end_hand("blocked", last_player=None)

    def _play_default(self, seat: int) -> None:
        """`seat`, the seat to play, lays its first legal move (RULES.md 2.8)."""
        first = self._legal[0]
        self._play(seat, tile_of(first["tile"]), END_OF_NAME[first["end"]])

    def _settle(self) -> None:
        """Play the default move for crashed seats until a live seat must decide."""
        seat = self._seat
        while seat is not None and seat in self._crashed:
            self._play_default(seat)
            seat = self._seat

    # -- the end of a hand and of the match (RULES.md 2.6, 2.7) -------------

    def _end_hand(self, reason: str, last_player: int | None) -> None:
        """Every seat pays its own `penalty`. **The hand cap** (RULES.md 2.7) ends
        the match after `hand_cap` hands; otherwise the next hand is opened by
        whoever played the last tile, or after a blocked hand by a new draw."""
        lost = [penalty(hand) for hand in self._hands]
        scores = self.scores
        for seat, points in enumerate(lost):
            scores[seat] -= points
        self._record(
            {
                "type": "hand_end",
                "number": self.hand_number,
                "reason": reason,
                "hands": [_tile_views(hand) for hand in self._hands],
                "penalties": lost,
                "scores": list(scores),
            }
        )
        if self.hand_number >= self.game.hand_cap:
            self._finish(MugginsEnd.HAND_CAP, winner=None)
        else:
            self._start_hand(self._shuffle(opener=last_player))

    def _finish(self, reason: MugginsEnd, winner: int | None) -> None:
        """Places: the winner first, the others by score, equal scores sharing a
        place; crashed seats last (RULES.md 2.7, 2.8)."""
        self._seat = None
        self._legal = []
        self._drawn = []
        groups = [
            (CRASHED if seat in self._crashed else WINNER if seat == winner else PLAYING, -score)
            for seat, score in enumerate(self.scores)
        ]
        places = [1 + sum(other < group for other in groups) for group in groups]
        self._result = Outcome(tuple(places), tuple(self.scores), reason)
        self._record(
            {"type": "end", "reason": reason.value, "places": places, "scores": list(self.scores)}
        )

    def _record(self, event: JSON) -> None:
        """Log an event that is public as it stands."""
        self.events.append(event)
        self.history.append(event)
