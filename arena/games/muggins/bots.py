"""Built-in Muggins bots: `random` and `strong` (factories: seed -> act).

`strong` looks one play ahead. For each legal play it weighs the points it
scores now, what the next player could score in reply with the tiles it cannot
see (every tile minus its own hand and the line), shedding heavy tiles, keeping
tiles that fit the ends it leaves (control of a suit), and going out. A play
that reaches the target is taken at once.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from arena.engine import JSON
from arena.games.muggins.line import END_AFTER, Ends, after_play, credit
from arena.games.muggins.tiles import END_NAMES, PIPS, TILE_COUNT, tile_of

Act = Callable[[JSON], JSON]

SHED_WEIGHT = 0.25
"""Points of value per pip laid down: heavy tiles cost the most at the end of a hand."""
CONTROL_WEIGHT = 1.5
"""Value of each tile kept that fits an end left open (up to three)."""
STUCK_PENALTY = 4.0
"""Leaving no tile of one's own that fits means drawing next turn."""
GOING_OUT_BONUS = 10.0
"""Ending the hand saves one's own penalty."""
THREAT_WEIGHT = 0.9
"""How much the next player's expected best reply counts against a play."""
LOSING_WEIGHT = 60.0
"""Cost of the chance that the next player's reply reaches the target."""


def random_bot(seed: int) -> Act:
    """Uniform over the legal actions, from its own generator."""
    rng = random.Random(seed)

    def act(observation: JSON) -> JSON:
        return rng.choice(observation["legal_actions"])

    return act


def _ends_of(observation: JSON) -> Ends | None:
    ends = observation["ends"]
    if ends is None:
        return None
    left, right = ends["left"], ends["right"]
    return left["pips"], left["counts"], right["pips"], right["counts"]


def _replies(ends: Ends, unseen: list[int]) -> list[int]:
    """The best credit each unseen tile would score on these ends, best first."""
    left_pips, left_counts, right_pips, right_counts = ends
    best = []
    for tile in unseen:
        scores = 0
        on_left = END_AFTER[tile][left_pips]
        if on_left is not None:
            scores = credit(on_left[1] + right_counts)
        on_right = END_AFTER[tile][right_pips]
        if on_right is not None:
            scores = max(scores, credit(left_counts + on_right[1]))
        if scores:
            best.append(scores)
    best.sort(reverse=True)
    return best


def _fitting(ends: Ends, tiles: list[int]) -> int:
    left_pips, _, right_pips, _ = ends
    return sum(
        END_AFTER[tile][left_pips] is not None or END_AFTER[tile][right_pips] is not None
        for tile in tiles
    )


def strong_bot(seed: int) -> Act:
    """One-ply lookahead on points, the next player's reply, pips and control."""
    rng = random.Random(seed)

    def act(observation: JSON) -> JSON:
        legal: list[JSON] = observation["legal_actions"]
        if len(legal) == 1:
            return legal[0]
        seat = observation["seat"]
        players = observation["players"]
        following = players[(seat + 1) % len(players)]
        score, target = observation["scores"][seat], observation["target"]
        hand = [tile_of(tile) for tile in observation["hand"]]
        seen = {*hand, *(tile_of(tile) for tile in observation["line"])}
        unseen = [tile for tile in range(TILE_COUNT) if tile not in seen]
        holds = following["hand_size"] / len(unseen) if unseen else 0.0
        ends = _ends_of(observation)

        def value(action: JSON) -> float:
            tile = tile_of(action["tile"])
            after, count = after_play(ends, tile, END_NAMES.index(action["end"]))
            points = credit(count)
            if score + points >= target:
                return float("inf")
            kept = [other for other in hand if other != tile]
            threat = 0.0
            losing = 0.0
            missing = 1.0
            for reply in _replies(after, unseen):
                threat += reply * holds * missing
                if following["score"] + reply >= target:
                    losing += holds * missing
                missing *= 1.0 - holds
            fitting = _fitting(after, kept)
            return (
                points
                - THREAT_WEIGHT * threat
                - LOSING_WEIGHT * losing
                + SHED_WEIGHT * PIPS[tile]
                + CONTROL_WEIGHT * min(fitting, 3)
                - (STUCK_PENALTY if kept and not fitting else 0.0)
                + (0.0 if kept else GOING_OUT_BONUS)
            )

        return max(legal, key=lambda action: (value(action), rng.random()))

    return act


BUILTIN_BOTS: dict[str, Callable[[int], Act]] = {"random": random_bot, "strong": strong_bot}
