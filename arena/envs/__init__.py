"""Training environments: each Tavolo game as a PettingZoo AEC environment.

`make_env("mia", players=2)` returns a `arena.envs.aec.TavoloEnv`. PettingZoo
and gymnasium are optional (the dependency group ``envs``): this package
imports without them, and `make_env` says how to install them when they are
missing. See docs/training.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.games import make_game

if TYPE_CHECKING:
    from arena.envs.aec import TavoloEnv

MISSING = (
    "arena.envs needs pettingzoo and gymnasium: in a checkout, `uv sync --group envs`; "
    "otherwise `pip install pettingzoo gymnasium`"
)
OPTIONAL_PACKAGES = frozenset({"pettingzoo", "gymnasium", "numpy"})


def make_env(
    game: str,
    players: int = 2,
    variant: str | None = None,
    options: dict[str, Any] | None = None,
) -> TavoloEnv:
    """A PettingZoo AEC environment for `game` with these rules (as `tavolo play`
    takes them); RulesError for rules the game does not allow, ImportError
    naming what to install when pettingzoo or gymnasium is missing."""
    rules = make_game(game, players, variant, options)
    try:
        from arena.envs.aec import TavoloEnv
    except ModuleNotFoundError as error:
        if (error.name or "").partition(".")[0] not in OPTIONAL_PACKAGES:
            raise
        raise ImportError(MISSING) from error
    return TavoloEnv(rules)
