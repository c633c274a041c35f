"""One Muggins match in progress (RULES.md Part 2), driven through `arena.engine.State`.

Tiles are ints and hands bitmasks (see `tiles`). The legal actions are the
shared dicts of `tiles.PLAY_ACTIONS`, listed in the engine's fixed order: hand
order (heaviest tile first), the left end before the right; the list itself is
often shared too (`line.FEW_PLAYS`). The first of them is the default move
played for an infraction and for a crashed seat. Events that never vary (a
seat's draw, pass or chosen action) are shared dicts built once, and a play
event is a copy of a shared template (`line.LAYS`); like everything a caller
receives, they must not be mutated.

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
from itertools import repeat, starmap
from operator import sub
from typing import Any

from arena.api import API_VERSION
from arena.engine import JSON, IllegalActionError, Outcome
from arena.games.muggins.game import MAX_PLAYERS, MugginsGame
from arena.games.muggins.line import (
    EMPTY,
    ENDS_VIEWS,
    FEW_PLAYS,
    FITTING,
    LAYS,
    PLAYS_ON,
    TILE_PLAYS_ON,
)
from arena.games.muggins.tiles import (
    HAND_VIEWS,
    MOVE_BITS,
    MOVE_OF_ACTION,
    PLAY_ACTIONS,
    TILE_BITS,
    TILE_COUNT,
    TILE_VIEWS,
    hand_items,
    hand_of,
    hand_views,
    hands_of,
    penalties,
    tile_of,
)

ACTION_EVENTS: tuple[tuple[JSON, ...], ...] = tuple(
    tuple({"type": "action", "seat": seat, "action": action} for action in PLAY_ACTIONS)
    for seat in range(MAX_PLAYERS)
)
"""``ACTION_EVENTS[seat][move]``: the input event of a legal action."""

DRAW_EVENTS: tuple[tuple[JSON, ...], ...] = tuple(
    tuple({"type": "draw", "seat": seat, "tile": view} for view in TILE_VIEWS)
    for seat in range(MAX_PLAYERS)
)
"""``DRAW_EVENTS[seat][tile]``: a draw as the full log records it."""

PUBLIC_DRAW_EVENTS: tuple[JSON, ...] = tuple(
    {"type": "draw", "seat": seat} for seat in range(MAX_PLAYERS)
)
"""``PUBLIC_DRAW_EVENTS[seat]``: a draw as the public history shows it, tile hidden."""

PASS_EVENTS: tuple[JSON, ...] = tuple({"type": "pass", "seat": seat} for seat in range(MAX_PLAYERS))
"""``PASS_EVENTS[seat]``: a pass."""

TILE_RANGE = range(TILE_COUNT)

WINNER, PLAYING, CRASHED = 0, 1, 2
"""Groups for placing seats: the winner, then the others, crashed seats last."""


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
        "_rules",
        "_seat",
        "_seats",
        "_target",
        "events",
        "game",
        "hand_number",
        "history",
        "scores",
    )

    def __init__(self, game: MugginsGame, seed: int) -> None:
        self._setup(game, seed)
        self._deal(opener=None)

    @classmethod
    def from_deal(
        cls,
        game: MugginsGame,
        hands: list[list[Any]],
        boneyard: list[Any],
        opener: int,
        seed: int = 0,
    ) -> MugginsState:
        """A match whose first hand is this deal, for tests and worked examples.

        `hands` holds each seat's tiles and `boneyard` the rest in the order they
        will be drawn, each tile as ``[a, b]`` in either order; together they must
        be the 28 tiles once each, every hand at least one tile. Later hands are
        dealt from `seed`. Such a match is not a replay of any seed.
        """
        dealt = [[tile_of(tile) for tile in hand] for hand in hands]
        draw_order = [tile_of(tile) for tile in boneyard]
        every = sorted(tile for hand in (*dealt, draw_order) for tile in hand)
        if len(dealt) != game.players or not all(dealt) or every != list(range(TILE_COUNT)):
            raise ValueError("a deal needs one non-empty hand per seat and all 28 tiles once")
        if not 0 <= opener < game.players:
            raise ValueError(f"no seat {opener} to open")
        state = cls.__new__(cls)
        state._setup(game, seed)
        state._start_hand([hand_of(hand) for hand in dealt], draw_order, opener)
        return state

    def _setup(self, game: MugginsGame, seed: int) -> None:
        self.game = game
        self._seats = game.players
        self._following = (*range(1, game.players), 0)
        """The seat after each seat, in turn order."""
        self._target = game.target
        self._rules = game.rules
        self._rng = random.Random(seed)
        self.events: list[JSON] = []
        self.history: list[JSON] = []
        self.scores = [0] * game.players
        self._players = [{"seat": seat, "score": 0, "hand_size": 0} for seat in range(game.players)]
        self._crashed: set[int] = set()
        self._result: Outcome | None = None
        self.hand_number = 0

    # -- the State protocol -------------------------------------------------

    def current_seat(self) -> int | None:
        return self._seat

    def legal_actions(self) -> list[JSON]:
        return self._legal

    def observation(self, seat: int) -> JSON:
        current = seat == self._seat
        # Scores and hand sizes change on nearly every move: the seats' public
        # dicts are brought up to date here rather than on every play and draw.
        for player, score, hand in zip(self._players, self.scores, self._hands, strict=True):
            player["score"] = score
            player["hand_size"] = hand.bit_count()
        return {
            "api_version": API_VERSION,
            "game": "muggins",
            "rules": self._rules,
            "seat": seat,
            "players": self._players,
            "scores": self.scores,
            "target": self._target,
            "hand": hand_items(HAND_VIEWS, self._hands[seat]),
            "line": self._line,
            "ends": ENDS_VIEWS[self._ends],
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
        if action is not legal[0]:  # the first is often the only one
            try:
                action = legal[legal.index(action)]
            except ValueError:
                message = f"{action!r} is not a legal action for seat {seat}"
                raise IllegalActionError(message) from None
        move = MOVE_OF_ACTION[id(action)]
        self.events.append(ACTION_EVENTS[seat][move])
        self._play(seat, move)
        if self._crashed:
            self._settle()

    def infraction(self, seat: int, reason: str) -> None:
        """Replace the seat's reply by the first legal move (RULES.md 2.8).

        Once the match is over it is neither applied nor recorded.
        """
        if self._seat is None:
            return
        if seat != self._seat:
            raise ValueError(f"seat {seat} is not the seat to play")
        self._record({"type": "infraction", "seat": seat, "reason": reason})
        self._play(seat, MOVE_OF_ACTION[id(self._legal[0])])
        self._settle()

    def crash(self, seat: int, reason: str) -> None:
        """Forfeit the seat: the engine plays its first legal move from now on.

        A seat that has already crashed, or any seat once the match is over, is
        neither changed nor recorded.
        """
        if not 0 <= seat < self._seats:
            raise ValueError(f"there is no seat {seat}")
        if self._seat is None or seat in self._crashed:
            return
        self._record({"type": "crash", "seat": seat, "reason": reason})
        self._crashed.add(seat)
        if len(self._crashed) == self._seats:
            self._finish("crashed", winner=None)
        else:
            self._settle()

    def is_over(self) -> bool:
        return self._seat is None

    def result(self) -> Outcome:
        if self._result is None:
            raise ValueError("the match is not over")
        return self._result

    # -- the rules ----------------------------------------------------------

    def _record(self, event: JSON) -> None:
        """Log an event that is public as it stands."""
        self.events.append(event)
        self.history.append(event)

    def _deal(self, opener: int | None) -> None:
        """Shuffle and deal a new hand; then draw an opener when there is none."""
        draw = self._rng.random
        # Sorting by a random key per tile is a uniform shuffle, twice as fast as rng.shuffle.
        keys = list(starmap(draw, repeat((), TILE_COUNT)))
        tiles = sorted(TILE_RANGE, key=keys.__getitem__)
        size = self.game.hand_size
        hands = hands_of(tiles, size, self._seats)
        if opener is None:
            opener = self._rng.randrange(self._seats)
        self._start_hand(hands, tiles[self._seats * size :], opener)

    def _start_hand(self, hands: list[int], draw_order: list[int], opener: int) -> None:
        self.hand_number += 1
        self._hands = hands
        self._boneyard = draw_order[::-1]
        self._line: list[list[int]] = []
        self._ends = EMPTY
        self.events.append(
            {
                "type": "hand",
                "number": self.hand_number,
                "opener": opener,
                "hands": hand_views(hands),
                "boneyard": [TILE_VIEWS[tile] for tile in draw_order],
            }
        )
        self.history.append({"type": "hand", "number": self.hand_number, "opener": opener})
        self._seat = opener
        self._legal = hand_items(PLAYS_ON[EMPTY], hands[opener])
        self._drawn: list[list[int]] = []

    def _draw_or_pass(self, seat: int, ends: int) -> None:
        """Draw for seats without a play, pass for them once the boneyard is empty;
        `seat` itself is known to have no play in its hand."""
        hands = self._hands
        boneyard = self._boneyard
        events = self.events
        history = self.history
        tile_plays = TILE_PLAYS_ON[ends]
        legal: list[JSON] = []
        for _ in range(self._seats):
            drawn: list[list[int]] = []
            while not legal and boneyard:
                tile = boneyard.pop()
                hands[seat] |= TILE_BITS[tile]
                drawn.append(TILE_VIEWS[tile])
                events.append(DRAW_EVENTS[seat][tile])
                history.append(PUBLIC_DRAW_EVENTS[seat])
                legal = tile_plays[tile]
            if legal:
                self._seat = seat
                self._legal = legal
                self._drawn = drawn
                return
            events.append(PASS_EVENTS[seat])
            history.append(PASS_EVENTS[seat])
            seat = self._following[seat]
            legal = hand_items(PLAYS_ON[ends], hands[seat])
        self._end_hand("blocked", last_player=None)

    def _play(self, seat: int, move: int) -> None:
        hands = self._hands
        hand = hands[seat] = hands[seat] ^ MOVE_BITS[move]
        ends, laid, on_right, points, template = LAYS[self._ends][move]
        if on_right:
            self._line.append(laid)
        else:
            self._line.insert(0, laid)
        self._ends = ends
        scores = self.scores
        score = scores[seat] = scores[seat] + points
        event = template.copy()
        event["seat"] = seat
        event["score"] = score
        self.events.append(event)
        self.history.append(event)
        if score >= self._target:
            self._finish("target", winner=seat)
        elif not hand:
            self._end_hand("domino", last_player=seat)
        else:
            # The next seat's turn, if it has a play. Only its tiles that fit
            # the ends count, and there are few of them as a rule.
            seat = self._following[seat]
            fitting = hands[seat] & FITTING[ends]
            legal = FEW_PLAYS[ends].get(fitting)
            if legal is None:  # `hand_items(PLAYS_ON[ends], fitting)`, inlined
                first, second, third, fourth = PLAYS_ON[ends]
                legal = [
                    *first[fitting & 127],
                    *second[fitting >> 7 & 127],
                    *third[fitting >> 14 & 127],
                    *fourth[fitting >> 21],
                ]
            if legal:
                self._seat = seat
                self._legal = legal
                if self._drawn:
                    self._drawn = []
            else:
                self._draw_or_pass(seat, ends)

    def _settle(self) -> None:
        """Play the default move for crashed seats until a live seat must decide."""
        while self._seat in self._crashed:
            self._play(self._seat, MOVE_OF_ACTION[id(self._legal[0])])

    def _end_hand(self, reason: str, last_player: int | None) -> None:
        """Count the hand; the next is opened by `last_player` or, if None, at random."""
        hands = self._hands
        lost = penalties(hands)
        scores = self.scores
        scores[:] = map(sub, scores, lost)
        event = {
            "type": "hand_end",
            "number": self.hand_number,
            "reason": reason,
            "hands": hand_views(hands),
            "penalties": lost,
            "scores": list(scores),
        }
        self.events.append(event)
        self.history.append(event)
        if self.hand_number >= self.game.hand_cap:
            self._finish("hand_cap", winner=None)
        else:
            self._deal(opener=last_player)

    def _finish(self, reason: str, winner: int | None) -> None:
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
            {"type": "end", "reason": reason, "places": places, "scores": list(self.scores)}
        )
