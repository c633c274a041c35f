"""The Mia events that recur, built once per seat at import.

Most of a match's events are one of a few hundred possibilities: a seat's
action, what it rolled, what it announced, vouched or trusted. The engine
appends these shared dicts instead of building a new one each time, so, like
the action dicts of `arena.games.mia.values`, nobody may mutate an event.
Events that carry more than a seat and a value (reveals, lost lives,
eliminations, the end) are built when they happen.
"""

from __future__ import annotations

from arena.engine import JSON
from arena.games.mia.game import MAX_PLAYERS
from arena.games.mia.values import (
    ACCUSE,
    ANNOUNCE,
    CONCEDE,
    COSTLY_ANNOUNCE,
    OUTCOMES,
    ROLL,
    TRUST,
    VOUCH,
)


class SeatEvents:
    """Every recurring event of one seat."""

    __slots__ = (
        "accuse_input",
        "announce",
        "announce_input",
        "concede_input",
        "costly_announce_input",
        "dice",
        "public_roll",
        "roll_input",
        "round",
        "trust",
        "trust_input",
        "vouch",
        "vouch_input",
    )

    def __init__(self, seat: int) -> None:
        def given(action: JSON) -> JSON:
            return {"type": "action", "seat": seat, "action": action}

        self.roll_input = given(ROLL)
        self.vouch_input = given(VOUCH)
        self.accuse_input = given(ACCUSE)
        self.concede_input = given(CONCEDE)
        self.announce_input = {value: given(action) for value, action in ANNOUNCE.items()}
        self.costly_announce_input = {
            value: given(action) for value, action in COSTLY_ANNOUNCE.items()
        }
        self.trust_input = {value: given(action) for value, action in TRUST.items()}
        self.dice = tuple(
            {"type": "dice", "seat": seat, "dice": dice, "value": value} for dice, value in OUTCOMES
        )
        """By outcome index, as `OUTCOMES`."""
        self.public_roll = {"type": "roll", "seat": seat}
        """What the public history shows of a roll: who rolled, not what."""
        self.announce = {
            value: {"type": "announce", "seat": seat, "value": value} for value in ANNOUNCE
        }
        self.vouch = {value: {"type": "vouch", "seat": seat, "value": value} for value in ANNOUNCE}
        self.trust = {value: {"type": "trust", "seat": seat, "value": value} for value in TRUST}
        self.round = {"type": "round", "starter": seat}


SEAT_EVENTS: tuple[SeatEvents, ...] = tuple(SeatEvents(seat) for seat in range(MAX_PLAYERS))
