"""Version numbers of everything a bot author or a replay depends on."""

from arena.engine import RulesError

API_VERSION = 1
"""The bot API: observation and action dicts, and the JSON-lines wire protocol."""

REPLAY_FORMAT_VERSION = 1
"""The replay file format (docs/replay-format.md)."""

ENGINE_VERSIONS = ("1.0.0", "1.1.0", "1.2.0")
"""Every rules engine this code can run, oldest first; a replay records the one
it was played under and is re-simulated under that one.

- 1.0.0: a Mia roller's `legal_actions` lists only the announces strictly higher
  than the claim, so after an 11 (a 66 with ``66-high``) the runner plays the
  21 without asking.
- 1.1.0: they also list the equal-or-lower announces, marked ``"cost": 1``, and
  an equal-or-lower announce is recorded in that form.
- 1.2.0: each seat has chance of its own (`arena.games.chance`): a Mia roll is
  keyed by seed, seat, round and roll, a Muggins hand's deal and boneyard by
  seed and hand number, so a seed replayed with the seats rotated deals each
  seat the same dice and tiles.
"""

PER_SEAT_CHANCE_SINCE = "1.2.0"
"""The engine version from which chance is drawn per seat and per hand."""

ENGINE_VERSION = ENGINE_VERSIONS[-1]
"""The rules engines of new matches."""


def engine_version_key(version: str) -> tuple[int, ...]:
    """`version` as a tuple that compares in release order ("1.10.0" after "1.9.0")."""
    return tuple(int(part) for part in version.split("."))


def has_per_seat_chance(version: str) -> bool:
    """True if the engine `version` draws chance per seat and per hand (since 1.2.0)."""
    return engine_version_key(version) >= engine_version_key(PER_SEAT_CHANCE_SINCE)


def check_engine_version(version: object) -> str:
    """`version` if this code runs that engine; RulesError naming those it runs otherwise."""
    if version not in ENGINE_VERSIONS:
        raise RulesError(
            f"unknown engine version {version!r}: this engine runs {', '.join(ENGINE_VERSIONS)}"
        )
    return version
