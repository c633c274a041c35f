"""`MiaState`: one Mia match in progress, a pure state machine (RULES.md Part 1).

The state keeps plain ints and lists mutated in place, and hands out shared,
precomputed objects (action dicts, recurring events, legal-action lists, the
players list, the round and the public history): callers must not mutate
anything they receive. Each seat's observation is one dict, brought up to
date by each call of `observation`: a bot reads it while it decides and
copies what it wants to keep.

Events, in ``state.events`` (the whole truth). Inputs, appended first:

- ``{"type": "action", "seat": s, "action": {...}}``: a seat's action.
- ``{"type": "infraction", "seat": s, "reason": "..."}``: a bad or late reply.
- ``{"type": "crash", "seat": s, "reason": "..."}``: a bot that can play no more.

Consequences:

- ``{"type": "round", "starter": s}``: a new round; `s` must roll.
- ``{"type": "dice", "seat": s, "dice": [high, low], "value": v}``: what `s` rolled.
- ``{"type": "announce", "seat": s, "value": v}``: `s` announced `v` after rolling.
- ``{"type": "vouch", "seat": s, "value": v}``: `s` took over the claim `v`.
- ``{"type": "trust", "seat": s, "value": v}``: `s` claimed `v` on the same dice.
- ``{"type": "reveal", "accuser": a, "claimant": c, "claim": v, "dice": [high, low],
  "value": real}``: `a` accused `c`; the dice under the cup are shown.
- ``{"type": "life_lost", "seat": s, "lives_lost": n, "lives": left, "reason": r}``:
  `n` lives actually taken (never below 0); `r` is ``"accusation"``,
  ``"too_low"`` (announced equal or lower), ``"concede"``, ``"infraction"`` or
  ``"crash"``.
- ``{"type": "eliminated", "seat": s, "place": p}``: `s` is out, finishing `p`-th.
- ``{"type": "turn_cap", "actions": n}``: the match stops after `n` actions.
- ``{"type": "end", "places": [...], "lives": [...]}``: the match is over.

The public history (``state.history``, the observation's ``history``) holds the
same event objects in the same order, except that it leaves out the ``action``
input events (the events they cause tell each one, as in Muggins) and that each
``dice`` event appears as ``{"type": "roll", "seat": s}``: dice are public only
in a ``reveal``.
"""

from __future__ import annotations

import random
from math import floor
from typing import Any, Protocol

from arena.api import API_VERSION
from arena.engine import JSON, IllegalActionError, Outcome
from arena.games.chance import mia_roll
from arena.games.mia.events import SEAT_EVENTS
from arena.games.mia.game import MiaEnd, MiaGame
from arena.games.mia.values import (
    ACCUSE,
    CONCEDE,
    MIA,
    NO_CLAIM_RANK,
    ORDERS,
    OUTCOMES,
    ROLL,
    VOUCH,
)

START, ANNOUNCING, RESPONDING, OVER = range(4)
"""Phases: the starter must roll; the roller must announce; the next player
responds to the standing claim; the match has ended."""

ONLY_ROLL = [ROLL]
NO_ACTIONS: list[JSON] = []
ROLL_VOUCH_ACCUSE = [ROLL, VOUCH, ACCUSE]
ROLL_OR_ACCUSE = [ROLL, ACCUSE]
"""Also the Mia full circle, where the roll starts a fresh round."""
CONCEDE_VOUCH_ACCUSE = [CONCEDE, VOUCH, ACCUSE]
CONCEDE_OR_ACCUSE = [CONCEDE, ACCUSE]
ROLL_ACCUSE_OR_TRUST = {
    name: tuple([ROLL, ACCUSE, *trusts] for trusts in order.trusts_above)
    for name, order in ORDERS.items()
}
"""Per doubles order, ``[claim rank + 1]``: the no-guarantee answers to a claim."""


class Chance(Protocol):
    """The state's source of chance: `random.Random` or a scripted test double.

    The first starter is ``randrange(players)``; each roll is
    ``OUTCOMES[floor(random() * 36)]`` (`math.floor`: the same index as ``int()``
    for a number that is not negative, at half the cost of a call to ``int``).
    """

    def randrange(self, stop: int, /) -> int: ...

    def random(self) -> float: ...


class MiaState:
    """One match: driven by `apply`, `infraction` and `crash` (see `arena.engine.State`)."""

    __slots__ = (
        "_actions",
        "_alive",
        "_announces",
        "_claim_rank",
        "_dice",
        "_dice_value",
        "_in_game",
        "_keyed",
        "_legal",
        "_lives",
        "_mia_always_costs_two",
        "_next",
        "_order",
        "_phase",
        "_places",
        "_players",
        "_rank",
        "_result",
        "_rng",
        "_rolls",
        "_round",
        "_round_number",
        "_seat",
        "_seed",
        "_trust_answers",
        "_trusting",
        "_turn_cap",
        "_views",
        "_vouching",
        "events",
        "game",
        "history",
    )

    def __init__(self, game: MiaGame, seed: int = 0, *, rng: Chance | None = None) -> None:
        """Start a match; `rng` replaces ``random.Random(seed)`` and, under engine
        1.2.0 on, the keyed dice too (a test seam)."""
        self.game = game
        self._seed = seed
        self._keyed = game.per_seat_chance and rng is None
        """Dice from `arena.games.chance.mia_roll`, not from `_rng` in turn."""
        self._round_number = 0
        self._rolls = [0] * game.players
        """Each seat's rolls so far in this round."""
        self.events: list[JSON] = []
        self.history: list[JSON] = []
        self._rng: Chance = random.Random(seed) if rng is None else rng
        self._order = game.order
        self._rank = game.order.rank
        rule_set = game.rule_set
        self._vouching = rule_set.vouching
        self._trusting = rule_set.trusting
        self._mia_always_costs_two = rule_set.mia_always_costs_two
        self._seat = 0
        """The seat to decide; once the match is over, the last one that did."""
        self._legal: list[JSON] = NO_ACTIONS
        self._dice: list[int] | None = None
        self._dice_value: int | None = None
        self._announces = (
            game.order.announces_over if game.lists_costly_announces else game.order.announces_above
        )
        self._trust_answers = ROLL_ACCUSE_OR_TRUST[game.doubles_order]
        self._turn_cap = game.turn_cap
        self._actions = 0
        self._lives = list(game.lives)
        self._players = [
            {"seat": seat, "lives": lives, "in_game": True}
            for seat, lives in enumerate(self._lives)
        ]
        self._in_game = [True] * game.players
        self._next = [(seat + 1) % game.players for seat in range(game.players)]
        self._places = [0] * game.players
        self._alive = game.players
        self._result: Outcome | None = None
        self._round: JSON = {}
        """The round: starter, claim, claimant and vouches; also every observation's ``round``."""
        self._views: list[JSON] = [
            {
                "api_version": API_VERSION,
                "game": "mia",
                "rules": game.rules,
                "seat": seat,
                "players": self._players,
                "round": self._round,
                "legal_actions": NO_ACTIONS,
                "history": self.history,
                "dice": None,
            }
            for seat in range(game.players)
        ]
        self._begin_round(self._rng.randrange(game.players))

    # The State protocol.

    def current_seat(self) -> int | None:
        return None if self._phase == OVER else self._seat

    def legal_actions(self) -> list[JSON]:
        return self._legal

    def is_over(self) -> bool:
        return self._phase == OVER

    def result(self) -> Outcome:
        if self._result is None:
            raise ValueError("the match is not over")
        return self._result

    def observation(self, seat: int) -> JSON:
        view = self._views[seat]
        if seat == self._seat:
            view["legal_actions"] = self._legal
            view["dice"] = self._dice if self._phase == ANNOUNCING else None
        else:
            view["legal_actions"] = NO_ACTIONS
            view["dice"] = None
        return view

    def apply(self, action: JSON) -> None:
        try:
            handler = _HANDLERS[action["type"]]
        except (KeyError, TypeError):
            raise IllegalActionError(f"not a Mia action: {action!r}") from None
        handler(self, action)
        if self._actions >= self._turn_cap and self._phase != OVER:
            self._end_at_turn_cap()

    def infraction(self, seat: int, reason: str) -> None:
        """Cost `seat` 1 life and end the round (RULES.md 1.8).

        Recorded but without effect for a seat already out; ignored once the
        match is over, whose result is final.
        """
        if self._recorded_input("infraction", seat, reason):
            self._lose(seat, 1, "infraction")

    def crash(self, seat: int, reason: str) -> None:
        """Eliminate `seat` at once and end the round (RULES.md 1.8); as `infraction`
        for a seat already out or a match over."""
        if self._recorded_input("crash", seat, reason):
            self._lose(seat, self._lives[seat], "crash")

    # Actions: each checks that it is legal, records its seat's shared input event
    # and counts toward the turn cap, then plays.

    def _roll(self, action: JSON) -> None:
        legal = self._legal
        if len(action) != 1 or not legal or legal[0] is not ROLL:
            raise IllegalActionError(f"{action!r} is not legal now")
        seat = self._seat
        shared = SEAT_EVENTS[seat]
        self.events.append(shared.roll_input)
        self._actions += 1
        if self._round["claim"] == MIA:
            self._begin_round(seat)
        if self._keyed:
            outcome = mia_roll(self._seed, seat, self._round_number, self._rolls[seat])
            self._rolls[seat] += 1
        else:
            outcome = floor(self._rng.random() * 36)
        self._dice, self._dice_value = OUTCOMES[outcome]
        self.events.append(shared.dice[outcome])
        self.history.append(shared.public_roll)
        self._round["vouches"] = 0
        self._phase = ANNOUNCING
        self._legal = self._announces[self._claim_rank + 1]

    def _announce(self, action: JSON) -> None:
        """Any of the 21 values; an equal or lower one costs a life (RULES.md 1.4).

        Since engine 1.1.0 that costly announce is listed and recorded with
        ``"cost": 1``; the plain form is accepted for it all the same.
        """
        value: Any = action.get("value")
        rank = self._rank.get(value) if type(value) is int else None
        seat = self._seat
        if rank is None or self._phase != ANNOUNCING:
            raise IllegalActionError(f"{action!r} is not legal now")
        costly = rank <= self._claim_rank
        listed_cost = costly and self.game.lists_costly_announces
        if len(action) != 2 and not (
            listed_cost
            and len(action) == 3
            and type(action.get("cost")) is int
            and action["cost"] == 1
        ):
            raise IllegalActionError(f"{action!r} is not legal now")
        shared = SEAT_EVENTS[seat]
        inputs = shared.costly_announce_input if listed_cost else shared.announce_input
        announced = shared.announce[value]
        self.events.append(inputs[value])
        self._actions += 1
        self.events.append(announced)  # as _emit, inline
        self.history.append(announced)
        if costly:
            self._lose(seat, 1, "too_low")
            return
        self._claim_by(seat, value, rank)

    def _vouch(self, action: JSON) -> None:
        seat = self._check_offered(action, VOUCH, 1)
        shared = SEAT_EVENTS[seat]
        vouched = shared.vouch[self._round["claim"]]
        self.events.append(shared.vouch_input)
        self._actions += 1
        self.events.append(vouched)  # as _emit, inline
        self.history.append(vouched)
        self._round["claimant"] = seat
        self._round["vouches"] += 1
        self._pass_on(seat)

    def _trust(self, action: JSON) -> None:
        value: Any = action.get("value")
        rank = self._rank.get(value) if type(value) is int else None
        if (
            rank is None
            or len(action) != 2
            or not self._trusting
            or self._phase != RESPONDING
            or rank <= self._claim_rank
        ):
            raise IllegalActionError(f"{action!r} is not legal now")
        seat = self._seat
        shared = SEAT_EVENTS[seat]
        self.events.append(shared.trust_input[value])
        self._actions += 1
        self._emit(shared.trust[value])
        self._claim_by(seat, value, rank)

    def _accuse(self, action: JSON) -> None:
        real = self._dice_value  # under the cup: a claim stands only after a roll
        if len(action) != 1 or self._phase != RESPONDING or real is None:
            raise IllegalActionError(f"{action!r} is not legal now")
        accuser = self._seat
        claimant = self._round["claimant"]
        claim = self._round["claim"]
        self.events.append(SEAT_EVENTS[accuser].accuse_input)
        self._actions += 1
        self._emit(
            {
                "type": "reveal",
                "accuser": accuser,
                "claimant": claimant,
                "claim": claim,
                "dice": self._dice,
                "value": real,
            }
        )
        holds = self._rank[real] >= self._claim_rank
        loser = accuser if holds else claimant
        if claim != MIA:
            lost = 1
        elif self._mia_always_costs_two:
            lost = 2
        else:
            lost = 2 if holds else 1
        self._lose(loser, lost, "accusation")

    def _concede(self, action: JSON) -> None:
        seat = self._check_offered(action, CONCEDE, 0)
        self.events.append(SEAT_EVENTS[seat].concede_input)
        self._actions += 1
        self._lose(seat, 1, "concede")

    def _check_offered(self, action: JSON, offered: JSON, position: int) -> int:
        """The current seat, if `action` is `offered` and sits at `position` of the
        legal list (where the fixed orders put it whenever it is legal)."""
        legal = self._legal
        if len(action) != 1 or len(legal) <= position or legal[position] is not offered:
            raise IllegalActionError(f"{action!r} is not legal now")
        return self._seat

    # Consequences.

    def _claim_by(self, seat: int, value: int, rank: int) -> None:
        """`seat` now stands behind a new claim `value`; the next player answers it."""
        self._claim_rank = rank
        self._round["claim"] = value
        self._round["claimant"] = seat
        self._pass_on(seat)

    def _recorded_input(self, kind: str, seat: int, reason: str) -> bool:
        """Log an infraction or crash; True if it has consequences."""
        if type(seat) is not int or not 0 <= seat < len(self._lives):
            raise ValueError(f"no seat {seat!r} in a {len(self._lives)}-player match")
        if self._phase == OVER:
            return False
        self._emit({"type": kind, "seat": seat, "reason": reason})
        return self._in_game[seat]

    def _emit(self, event: JSON) -> None:
        """Record a consequence, public as it is. (Announces, vouches and new rounds,
        the most frequent, append to both lists themselves: a call less each.)"""
        self.events.append(event)
        self.history.append(event)

    def _pass_on(self, seat: int) -> None:
        """The claim stands; the next player still in answers it."""
        self._seat = self._next[seat]
        self._phase = RESPONDING
        claim = self._round["claim"]
        if claim == MIA:
            if not self._vouching:
                self._legal = CONCEDE_OR_ACCUSE
            elif self._round["vouches"] >= self._alive:
                self._legal = ROLL_OR_ACCUSE
            else:
                self._legal = CONCEDE_VOUCH_ACCUSE
        elif self._vouching:
            vouched_round = self._round["vouches"] >= self._alive
            self._legal = ROLL_OR_ACCUSE if vouched_round else ROLL_VOUCH_ACCUSE
        elif self._trusting:
            self._legal = self._trust_answers[self._claim_rank + 1]
        else:
            self._legal = ROLL_OR_ACCUSE

    def _begin_round(self, starter: int) -> None:
        self._round_number += 1
        if self._keyed:
            self._rolls = [0] * len(self._rolls)
        self._seat = starter
        self._phase = START
        self._legal = ONLY_ROLL
        self._claim_rank = NO_CLAIM_RANK
        round_ = self._round
        round_["starter"] = starter
        round_["claim"] = round_["claimant"] = None
        round_["vouches"] = 0
        self._dice = None
        self._dice_value = None
        started = SEAT_EVENTS[starter].round
        self.events.append(started)  # as _emit, inline
        self.history.append(started)

    def _lose(self, seat: int, count: int, reason: str) -> None:
        """Take lives from `seat` (not below 0); the round ends, the next one starts."""
        left = self._lives[seat]
        lost = count if count < left else left  # min() spelled out: its call costs 4x as much
        left -= lost
        self._lives[seat] = left
        self._players[seat]["lives"] = left
        self._emit(
            {"type": "life_lost", "seat": seat, "lives_lost": lost, "lives": left, "reason": reason}
        )
        if left == 0:
            self._eliminate(seat)
        if self._phase != OVER:
            self._begin_round(self._next[seat])

    def _eliminate(self, seat: int) -> None:
        self._in_game[seat] = False
        self._players[seat]["in_game"] = False
        self._places[seat] = self._alive
        self._emit({"type": "eliminated", "seat": seat, "place": self._alive})
        self._alive -= 1
        players = len(self._lives)
        for before in range(players):
            after = (before + 1) % players
            while not self._in_game[after]:
                after = (after + 1) % players
            self._next[before] = after
        if self._alive == 1:
            self._places[self._in_game.index(True)] = 1
            self._end(MiaEnd.LAST_STANDING)

    def _end_at_turn_cap(self) -> None:
        """Place the players still in by lives left; equal lives share a place."""
        self._emit({"type": "turn_cap", "actions": self._actions})
        in_game = self._in_game
        still_in = [lives for seat, lives in enumerate(self._lives) if in_game[seat]]
        for seat, lives in enumerate(self._lives):
            if in_game[seat]:
                self._places[seat] = 1 + sum(other > lives for other in still_in)
        self._end(MiaEnd.TURN_CAP)

    def _end(self, reason: MiaEnd) -> None:
        self._phase = OVER
        self._legal = NO_ACTIONS
        self._result = Outcome(tuple(self._places), tuple(self._lives), reason, "lives")
        self._emit({"type": "end", "places": list(self._places), "lives": list(self._lives)})


_HANDLERS = {
    "roll": MiaState._roll,
    "announce": MiaState._announce,
    "vouch": MiaState._vouch,
    "trust": MiaState._trust,
    "accuse": MiaState._accuse,
    "concede": MiaState._concede,
}
