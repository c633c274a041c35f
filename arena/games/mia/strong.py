"""The `strong` Mia bot: chances of the dice, and a model of each opponent's honesty.

It reads the public history to follow the round (who rolled, what they
announced over which claim) and to learn from every reveal how each opponent
announces: honestly (the truth when it beats the claim, else a small bluff) or
at random. From that it works out how likely the standing claim is true, and
picks the action with the smallest expected loss of lives for itself, counting
an opponent's loss as a small gain. With dice that do not beat the claim it
bluffs, unless the bluff would be a 21 that the next player is likely to
accuse: then it announces low and pays the sure single life (RULES.md 1.4).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from arena.engine import JSON
from arena.games.mia.values import MIA, NO_CLAIM_RANK, ORDERS, PROBABILITY, ValueOrder

HONESTY_LEVELS = (0.0, 0.25, 0.5, 0.75, 1.0)
"""The chances that an opponent announces honestly, weighed after each reveal."""

BLUFF_WEIGHTS = (0.6, 0.25, 0.15)
"""How an honest player bluffs: mostly the smallest value above the claim."""

SLIP = 0.05
"""The chance that even an honest player announces something else."""

ACCUSE_PRIOR = (1, 3)
"""Before any evidence, a player accuses once in three answers."""

MIA_ACCUSE_PRIOR = (2, 3)
"""Before any evidence, a player accuses a 21 announced over the highest double
twice in three answers: a 21 there is rarely true."""


class Opponent:
    """What the public history tells about one seat."""

    __slots__ = ("accusations", "answers", "honesty", "mia_accusations", "mia_answers")

    def __init__(self) -> None:
        self.honesty = [1 / len(HONESTY_LEVELS)] * len(HONESTY_LEVELS)
        self.answers = 0
        self.accusations = 0
        self.mia_answers = 0
        """Answers to a 21 announced over the highest double (the one higher
        value, so a weak roll bluffs it), also counted in `answers`."""
        self.mia_accusations = 0

    def accuse_chance(self) -> float:
        seen, prior = ACCUSE_PRIOR
        return (self.accusations + seen) / (self.answers + prior)

    def mia_accuse_chance(self) -> float:
        seen, prior = MIA_ACCUSE_PRIOR
        return (self.mia_accusations + seen) / (self.mia_answers + prior)

    def honest_chance(self) -> float:
        pairs = zip(self.honesty, HONESTY_LEVELS, strict=True)
        return sum(weight * level for weight, level in pairs)


def announce_chance(
    order: ValueOrder, honest: float, announced: int, real: int, over: int
) -> float:
    """The chance of announcing `announced` with dice `real` over a claim of rank `over`."""
    choices = len(order.values) - 1 - over
    rank = order.rank[announced]
    if order.rank[real] > over:
        honest_choice = 1.0 if announced == real else 0.0
    else:
        step = rank - over - 1
        weights = BLUFF_WEIGHTS[:choices]
        honest_choice = weights[step] / sum(weights) if step < len(weights) else 0.0
    honest_choice = (1 - SLIP) * honest_choice + SLIP / choices
    return honest * honest_choice + (1 - honest) / choices


class StrongBot:
    """One match's worth of memory; `act` answers each observation."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.seat = -1
        """Known from the first observation."""
        self.read = 0
        self.order: ValueOrder | None = None
        self.opponents: dict[int, Opponent] = {}
        self.claim_rank = NO_CLAIM_RANK
        self.roller: int | None = None
        self.rolled_over = NO_CLAIM_RANK
        self.announced: int | None = None
        self.own_dice: int | None = None

    # Reading the history.

    def follow(self, history: list[JSON]) -> None:
        """Take in the public events since the last decision."""
        for event in history[self.read :]:
            kind = event["type"]
            if kind == "round":
                self.claim_rank = NO_CLAIM_RANK
                self.roller = None
                self.own_dice = None
            elif kind == "roll":
                if self.claim_rank != NO_CLAIM_RANK:
                    self.count_answer(event["seat"], accused=False)
                self.roller = event["seat"]
                self.rolled_over = self.claim_rank
                self.announced = None
                self.own_dice = None
            elif kind == "announce":
                self.announced = event["value"]
                self.claim_rank = max(self.claim_rank, self.rank(event["value"]))
            elif kind == "vouch":
                self.count_answer(event["seat"], accused=False)
            elif kind == "trust":
                self.count_answer(event["seat"], accused=False)
                self.claim_rank = self.rank(event["value"])
            elif kind == "reveal":
                self.count_answer(event["accuser"], accused=True)
                self.learn(event["value"])
            elif kind == "life_lost" and event["reason"] == "concede":
                self.count_answer(event["seat"], accused=False)
        self.read = len(history)

    def count_answer(self, seat: int, *, accused: bool) -> None:
        """Count one answer of `seat` to a standing claim, and whether it was an accusation."""
        opponent = self.opponent(seat)
        opponent.answers += 1
        opponent.accusations += accused
        if self.claim_rank == self.rank(MIA) and self.rolled_over == self.rank(MIA) - 1:
            opponent.mia_answers += 1
            opponent.mia_accusations += accused

    def learn(self, real: int) -> None:
        """Weigh the roller's honesty by how his announce fits the revealed dice."""
        if self.roller is None or self.announced is None or self.roller == self.seat:
            return
        opponent = self.opponent(self.roller)
        weights = [
            weight * announce_chance(self.values, level, self.announced, real, self.rolled_over)
            for weight, level in zip(opponent.honesty, HONESTY_LEVELS, strict=True)
        ]
        total = sum(weights)
        opponent.honesty = [weight / total for weight in weights]

    # Chances.

    def rank(self, value: int) -> int:
        return self.values.rank[value]

    @property
    def values(self) -> ValueOrder:
        assert self.order is not None
        return self.order

    def opponent(self, seat: int) -> Opponent:
        return self.opponents.setdefault(seat, Opponent())

    def holds(self, claim: int) -> float:
        """The chance that the dice under the cup are `claim` or better."""
        rank = self.rank(claim)
        if self.own_dice is not None:
            return 1.0 if self.rank(self.own_dice) >= rank else 0.0
        if self.roller is None or self.announced is None:
            return self.values.hold_chance[rank]
        honest = self.opponent(self.roller).honest_chance()
        weights = [
            PROBABILITY[real]
            * announce_chance(self.values, honest, self.announced, real, self.rolled_over)
            for real in self.values.values
        ]
        return sum(weights[rank:]) / sum(weights)

    # Deciding.

    def act(self, observation: JSON) -> JSON:
        legal: list[JSON] = observation["legal_actions"]
        if self.order is None:
            self.order = ORDERS[observation["rules"]["doubles_order"]]
            self.seat = observation["seat"]
        self.follow(observation["history"])
        if len(legal) == 1:
            return legal[0]
        if observation["dice"] is not None:
            return self.announce(observation, legal)
        return self.answer(observation, legal)

    def announce(self, observation: JSON, legal: list[JSON]) -> JSON:
        """The truth if it beats the claim, else a small bluff, or a costly low
        announce when the bluff is expected to cost more than that."""
        high, low = observation["dice"]
        real = 10 * high + low
        self.own_dice = real
        higher = [action for action in legal if "cost" not in action]
        truthful = [action for action in higher if action["value"] == real]
        if truthful:
            return truthful[0]
        bluffs = higher[: len(BLUFF_WEIGHTS)]
        bluff = self.rng.choices(bluffs, BLUFF_WEIGHTS[: len(bluffs)])[0]
        costly = [action for action in legal if "cost" in action]
        if costly and self.bluff_cost(observation, bluff["value"]) > costly[0]["cost"]:
            return costly[0]
        return bluff

    def bluff_cost(self, observation: JSON, value: int) -> float:
        """The lives a false claim of `value` is expected to cost if the next
        player accuses it: two for a 21 in classic, one otherwise."""
        following = self.opponent(next_player(observation["players"], self.seat))
        if value != MIA:
            return following.accuse_chance()
        lives = 2 if observation["rules"]["variant"] == "classic" else 1
        return following.mia_accuse_chance() * lives

    def answer(self, observation: JSON, legal: list[JSON]) -> JSON:
        """The legal answer with the smallest expected cost."""
        players = observation["players"]
        claim = observation["round"]["claim"]
        still_in = sum(player["in_game"] for player in players)
        outlook = Outlook(
            holds=self.holds(claim),
            holds_above=self.holds,
            beats=self.values.beat_chance[self.rank(claim) + 1],
            gain=1 / (still_in - 1),
            accuse_chance=self.opponent(next_player(players, self.seat)).accuse_chance(),
            closes_circle=observation["round"]["vouches"] + 1 >= still_in,
            mia=claim == MIA,
            classic=observation["rules"]["variant"] == "classic",
        )
        return min(legal, key=outlook.cost)


def next_player(players: list[JSON], seat: int) -> int:
    """The next seat still in after `seat`."""
    for step in range(1, len(players)):
        player = players[(seat + step) % len(players)]
        if player["in_game"]:
            found: int = player["seat"]
            return found
    return seat


@dataclass(frozen=True)
class Outlook:
    """What each answer to the standing claim is expected to cost, in lives.

    An opponent's lost life counts as a gain of `gain` lives: all of one with two
    players left, less when the others share in it.
    """

    holds: float
    """The chance that the claim is true."""
    holds_above: Callable[[int], float]
    """The chance that the same dice make a given higher value."""
    beats: float
    """The chance that a fresh roll beats the claim."""
    gain: float
    accuse_chance: float
    """How often the next player accuses."""
    closes_circle: bool
    """A vouch now would leave the next player unable to vouch."""
    mia: bool
    classic: bool

    def cost(self, action: JSON) -> float:
        kind = action["type"]
        if kind == "accuse":
            mine = 2 if self.mia else 1
            theirs = 2 if self.mia and self.classic else 1
            return self.holds * mine - self.gain * (1 - self.holds) * theirs
        if kind == "concede":
            return 1.0
        if kind == "vouch":
            lives = 2 if self.mia else 1
            chance = (
                min(0.95, 1.5 * self.accuse_chance) if self.closes_circle else self.accuse_chance
            )
            return chance * lives * ((1 - self.holds) - self.gain * self.holds)
        if kind == "roll":
            if self.mia:
                return 0.0
            return self.accuse_chance * ((1 - self.beats) - self.gain * self.beats)
        holds = self.holds_above(action["value"])
        theirs = 2 if action["value"] == MIA else 1
        return self.accuse_chance * ((1 - holds) - self.gain * holds * theirs)


def strong_bot(seed: int) -> Callable[[JSON], JSON]:
    """A fresh `strong` bot for one match."""
    return StrongBot(seed).act
