"""`MiaGame`: the frozen rules of one kind of Mia match (RULES.md Part 1)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from arena.api import (
    ENGINE_VERSION,
    check_engine_version,
    engine_version_key,
    has_per_seat_chance,
)
from arena.engine import JSON, EndReason, RulesError
from arena.games.mia.values import DOUBLES_ORDERS, ORDERS, ValueOrder

if TYPE_CHECKING:
    from arena.games.mia.state import MiaState


@dataclass(frozen=True)
class RuleSet:
    """What one variant of Mia allows beyond the common actions (RULES.md 1.4)."""

    vouching: bool
    """A claim may be passed on unchecked, a Mia all the way round (RULES.md 1.5)."""
    trusting: bool
    """A claim may be raised on the same dice without rolling (RULES.md 1.6)."""
    mia_always_costs_two: bool
    """Losing an accusation against a standing 21 costs 2 lives whether the Mia
    was real or not (1.5); otherwise a real Mia costs its accuser 2 and a false
    one its claimant 1 (1.6, 1.7)."""


RULE_SETS = {
    "classic": RuleSet(vouching=True, trusting=False, mia_always_costs_two=True),
    "no-guarantee": RuleSet(vouching=False, trusting=True, mia_always_costs_two=False),
    "croatian": RuleSet(vouching=False, trusting=False, mia_always_costs_two=False),
}
"""Each variant by name (RULES.md 1.5-1.7); the first is the default."""
VARIANTS = tuple(RULE_SETS)
OPTION_NAMES = ("lives", "doubles_order", "turn_cap")
MIN_PLAYERS = 2
MAX_PLAYERS = 10
DEFAULT_LIVES = 6
DEFAULT_TURN_CAP = 20_000
COSTLY_ANNOUNCES_LISTED_SINCE = "1.1.0"
"""The engine version from which a roller's legal actions list the costly announces."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class MiaEnd(EndReason):
    """Why a Mia match ended."""

    LAST_STANDING = "last_standing"
    """One player has lives left."""
    TURN_CAP = "turn_cap"
    """The match reached its action cap; the players still in are placed by lives left."""


@dataclass(frozen=True, init=False)
class MiaGame:
    """A player count, a variant and options, checked once; makes new states.

    Anything the rules do not allow raises `RulesError` naming what is allowed.
    `engine_version` picks the rules of an older engine (`arena.api.ENGINE_VERSIONS`),
    so that a replay is re-simulated under the rules it was played under.
    """

    name: ClassVar[str] = "mia"
    min_players: ClassVar[int] = MIN_PLAYERS
    max_players: ClassVar[int] = MAX_PLAYERS
    variants: ClassVar[tuple[str, ...]] = VARIANTS
    scores_key: ClassVar[str] = "lives"
    end_reasons: ClassVar[type[EndReason]] = MiaEnd
    players: int
    variant: str
    lives: tuple[int, ...]
    """Starting lives, one per seat."""
    doubles_order: str
    turn_cap: int
    """The match ends after this many actions (RULES.md 1.8)."""
    rule_set: RuleSet = field(init=False, repr=False, compare=False)
    engine_version: str
    lists_costly_announces: bool = field(init=False, repr=False, compare=False)
    """A roller's legal actions include the equal-or-lower announces (since 1.1.0)."""
    per_seat_chance: bool = field(init=False, repr=False, compare=False)
    """Each roll is keyed by seed, seat, round and roll (since 1.2.0)."""
    order: ValueOrder = field(init=False, repr=False, compare=False)
    _rules: JSON = field(init=False, repr=False, compare=False)

    def __init__(
        self,
        players: int,
        variant: str | None = None,
        options: dict[str, Any] | None = None,
        *,
        engine_version: str = ENGINE_VERSION,
    ) -> None:
        check_engine_version(engine_version)
        options = {} if options is None else options
        if not isinstance(options, dict):
            raise RulesError(f"Mia options must be a dict of {', '.join(OPTION_NAMES)}")
        unknown = sorted(str(key) for key in options if key not in OPTION_NAMES)
        if unknown:
            raise RulesError(
                f"unknown Mia option {', '.join(unknown)}: choose from {', '.join(OPTION_NAMES)}"
            )
        if not _is_int(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise RulesError(f"Mia is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players!r}")
        variant = VARIANTS[0] if variant is None else variant
        if variant not in VARIANTS:
            raise RulesError(
                f"unknown Mia variant {variant!r}: choose one of {', '.join(VARIANTS)}"
            )
        doubles_order = options.get("doubles_order", DOUBLES_ORDERS[0])
        if doubles_order not in DOUBLES_ORDERS:
            raise RulesError(
                f"doubles_order must be one of {', '.join(DOUBLES_ORDERS)}, not {doubles_order!r}"
            )
        turn_cap = options.get("turn_cap", DEFAULT_TURN_CAP)
        if not _is_int(turn_cap) or turn_cap < 1:
            raise RulesError(f"turn_cap must be an integer of at least 1, not {turn_cap!r}")
        set_attribute = object.__setattr__
        set_attribute(self, "players", players)
        set_attribute(self, "variant", variant)
        set_attribute(self, "rule_set", RULE_SETS[variant])
        set_attribute(self, "lives", _lives(options.get("lives", DEFAULT_LIVES), players))
        set_attribute(self, "doubles_order", doubles_order)
        set_attribute(self, "turn_cap", turn_cap)
        set_attribute(self, "engine_version", engine_version)
        set_attribute(
            self,
            "lists_costly_announces",
            engine_version_key(engine_version) >= engine_version_key(COSTLY_ANNOUNCES_LISTED_SINCE),
        )
        set_attribute(self, "per_seat_chance", has_per_seat_chance(engine_version))
        set_attribute(self, "order", ORDERS[doubles_order])
        rules = {
            "game": "mia",
            "players": players,
            "variant": variant,
            "lives": list(self.lives),
            "doubles_order": doubles_order,
            "turn_cap": turn_cap,
        }
        set_attribute(self, "_rules", rules)

    @property
    def rules(self) -> JSON:
        """The resolved rules, JSON-ready (a shared dict: do not mutate)."""
        return self._rules

    def new_state(self, seed: int) -> MiaState:
        """A fresh match whose starter comes from `random.Random(seed)`, and its
        dice from the same generator or, since 1.2.0, from `arena.games.chance`."""
        from arena.games.mia.state import MiaState

        return MiaState(self, seed)


def _lives(lives: object, players: int) -> tuple[int, ...]:
    """Option `lives`: one int for every seat, or a list with one int per seat."""
    per_seat: list[Any] = []
    if _is_int(lives):
        per_seat = [lives] * players
    elif isinstance(lives, list | tuple) and len(lives) == players:
        per_seat = list(lives)
    if not per_seat or not all(_is_int(count) and count >= 1 for count in per_seat):
        raise RulesError(
            f"lives must be an integer of at least 1 or a list of {players} such integers, "
            f"not {lives!r}"
        )
    return tuple(per_seat)
