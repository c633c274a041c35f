"""The frozen rules of a Muggins match: players, variant and options (RULES.md 2.1, 2.7)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from arena.api import ENGINE_VERSION, check_engine_version, has_per_seat_chance
from arena.engine import JSON, EndReason, RulesError
from arena.games.muggins.tiles import TILE_COUNT

if TYPE_CHECKING:
    from arena.games.muggins.state import MugginsState

VARIANTS = ("standard",)
"""The rule sets: RULES.md Part 2 has one."""
MIN_PLAYERS = 2
MAX_PLAYERS = 4
OPTIONS = ("target", "hand_size", "hand_cap")
DEFAULT_HAND_CAP = 200


def _positive_int(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RulesError(f"option {name!r} must be a whole number of at least 1, not {value!r}")
    return value


class MugginsEnd(EndReason):
    """Why a Muggins match ended (the ``reason`` of its ``end`` event)."""

    TARGET = "target"
    """A player reached the target score."""
    HAND_CAP = "hand_cap"
    """The match reached its cap of hands; the players are placed by score."""
    CRASHED = "crashed"
    """Too few bots are left that can play."""


@dataclass(frozen=True, init=False)
class MugginsGame:
    """Rules for one Muggins match; `new_state(seed)` starts one.

    `target` defaults to 250 for two players and 200 for three or four,
    `hand_size` to 7 and 5, and `hand_cap` to 200 hands.
    """

    name: ClassVar[str] = "muggins"
    min_players: ClassVar[int] = MIN_PLAYERS
    max_players: ClassVar[int] = MAX_PLAYERS
    variants: ClassVar[tuple[str, ...]] = VARIANTS
    scores_key: ClassVar[str] = "scores"
    end_reasons: ClassVar[type[EndReason]] = MugginsEnd
    players: int
    variant: str
    target: int
    hand_size: int
    hand_cap: int
    engine_version: str
    per_seat_chance: bool = field(repr=False, compare=False)
    """Each hand is dealt from a stream keyed by seed and hand number (since 1.2.0);
    before, every hand came from one `random.Random(seed)` in turn."""
    _rules: JSON = field(repr=False, compare=False)

    def __init__(
        self,
        players: int,
        variant: str | None = None,
        options: dict[str, Any] | None = None,
        *,
        engine_version: str = ENGINE_VERSION,
    ) -> None:
        check_engine_version(engine_version)
        if (
            isinstance(players, bool)
            or not isinstance(players, int)
            or not MIN_PLAYERS <= players <= MAX_PLAYERS
        ):
            raise RulesError(
                f"Muggins is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players!r}"
            )
        variant = VARIANTS[0] if variant is None else variant
        if variant not in VARIANTS:
            raise RulesError(f"unknown Muggins variant {variant!r}: the only one is 'standard'")
        options = {} if options is None else options
        if not isinstance(options, dict):
            raise RulesError(
                f"Muggins options must be a mapping of names to values, not {options!r}"
            )
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise RulesError(
                f"unknown Muggins option {unknown[0]!r}: choose from {', '.join(OPTIONS)}"
            )
        two = players == 2
        target = _positive_int("target", options.get("target", 250 if two else 200))
        hand_size = _positive_int("hand_size", options.get("hand_size", 7 if two else 5))
        if hand_size * players > TILE_COUNT:
            raise RulesError(
                f"option 'hand_size' {hand_size} is too large: {players} hands of it need "
                f"more than the {TILE_COUNT} tiles"
            )
        hand_cap = _positive_int("hand_cap", options.get("hand_cap", DEFAULT_HAND_CAP))
        rules = {
            "game": self.name,
            "players": players,
            "variant": variant,
            "target": target,
            "hand_size": hand_size,
            "hand_cap": hand_cap,
        }
        for key in ("players", "variant", "target", "hand_size", "hand_cap"):
            object.__setattr__(self, key, rules[key])
        object.__setattr__(self, "engine_version", engine_version)
        object.__setattr__(self, "per_seat_chance", has_per_seat_chance(engine_version))
        object.__setattr__(self, "_rules", rules)

    @property
    def rules(self) -> JSON:
        """The resolved rules as a JSON-ready dict (shared: never mutate)."""
        return self._rules

    def new_state(self, seed: int) -> MugginsState:
        """A fresh match whose every deal and draw of an opener comes from `seed`."""
        from arena.games.muggins.state import MugginsState

        return MugginsState(self, seed)
