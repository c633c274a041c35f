"""`frames_document`: a replay as the steps a viewer draws, for one view.

The replay is re-simulated with the engine (`arena.replay.resimulate`), which
checks every recorded event and tells whose turn it is after each input; a
game's table (`arena.viewing.mia`, `arena.viewing.muggins`) folds the events
in and draws the whole table after each one, filtered to the view.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol

from arena.engine import JSON, State
from arena.replay import ReplayError, game_of, resimulate
from arena.viewing import mia, muggins
from arena.viewing.views import View, parse_view

FRAMES_FORMAT = 1


class Table(Protocol):
    """What a game's table offers the document."""

    def take(self, event: JSON) -> None: ...

    def table(self, view: View, turn: int | None) -> JSON: ...

    def text(self, event: JSON, view: View) -> str: ...

    def marks(self, event: JSON) -> list[str]: ...


GAMES: dict[str, tuple[Callable[[JSON, list[str]], Table], Callable[[JSON], str]]] = {
    "mia": (mia.MiaTable, mia.rules_text),
    "muggins": (muggins.MugginsTable, muggins.rules_text),
}


def frames_document(replay: JSON, *, view: View = "full", since: int = 0) -> JSON:
    """The steps of `replay` as `view` saw them: "full", "public" or a seat number.

    `replay` may be finished or partial (a match still being played: its
    events so far, with its seed). Steps before event `since` are left out,
    for a page that already has them. Raises ReplayError or ReplayMismatch
    (both ValueErrors) for a replay the engine does not reproduce, and
    ValueError for a view that is not one of the match's.
    """
    if not isinstance(replay.get("events"), list) or not isinstance(replay.get("seed"), str):
        raise ReplayError("not a replay: it needs its 'events' and its 'seed'")
    game = game_of(replay)
    rules = game.rules
    view = parse_view(view, game.players)
    make_table, words = GAMES[game.name]
    try:
        names = [seat["bot"] for seat in replay["seats"]]
    except (KeyError, TypeError):
        raise ReplayError("not a replay: each seat needs a 'bot' name") from None
    if len(names) != game.players:
        raise ReplayError(f"not a replay: {len(names)} seats for {game.players} players")
    table = make_table(rules, names)
    events = replay["events"]
    with _collection_paused():
        steps, state, done = _steps(replay, view, table, since)
    finished = state.is_over() and done == len(state.events)
    document: JSON = {
        "format": FRAMES_FORMAT,
        "game": game.name,
        "rules": rules,
        "rules_text": words(rules),
        "seats": [{"seat": seat, "bot": name} for seat, name in enumerate(names)],
        "view": view,
        "finished": finished,
        "steps": steps,
        "next": len(events),
    }
    if finished:
        document["result"] = state.result().to_json()
    return document


def _steps(replay: JSON, view: View, table: Table, since: int) -> tuple[list[JSON], State, int]:
    """Every step from `since` on, the engine's last state, and how many events were read."""
    events = replay["events"]
    steps: list[JSON] = []
    done = 0
    state = None
    for state, upto in resimulate(replay, partial=True):
        turn = state.current_seat()
        for index in range(done, upto):
            event = events[index]
            table.take(event)
            if index < since:
                continue
            # The engine says whose turn it is once an input's consequences are
            # all made; in between, the seat the event is about is acting.
            last = index == upto - 1 and upto == len(state.events)
            steps.append(
                {
                    "index": index,
                    "text": table.text(event, view),
                    "marks": table.marks(event),
                    "table": table.table(view, turn if last else event.get("seat")),
                }
            )
        done = upto
    assert state is not None
    return steps, state, done


@contextmanager
def _collection_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while the steps are built.

    A long match makes hundreds of thousands of small dicts and lists, none in
    a cycle; the collector would walk them all again and again (half the time
    of a 9,000-event Muggins match). Reference counting frees them as usual.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
