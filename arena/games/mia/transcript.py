"""Mia events as lines of a readable transcript (`tavolo replay show`)."""

from __future__ import annotations

from arena.engine import JSON


def _value(value: int) -> str:
    return "21 (Mia)" if value == 21 else str(value)


class Narrator:
    """Describes Mia events; it needs no memory between them."""

    def __init__(self, seats: list[str]) -> None:
        self.seats = seats

    def describe(self, event: JSON) -> str | None:
        """One line for `event`, or None to show it generically."""
        return describe_event(event, self.seats)


def describe_event(event: JSON, seats: list[str]) -> str | None:
    """One line for a Mia event, or None to show it generically."""
    kind = event["type"]
    who = seats[event["seat"]] if "seat" in event else ""
    if kind == "action":
        return ""  # hidden: the events it causes tell it in words
    if kind == "round":
        return f"-- new round, {seats[event['starter']]} starts"
    if kind == "dice":
        return f"  {who} rolls {event['dice'][0]} and {event['dice'][1]} (secretly)"
    if kind in ("announce", "vouch", "trust"):
        verb = {"announce": "announces", "vouch": "vouches for", "trust": "trusts and claims"}[kind]
        return f"  {who} {verb} {_value(event['value'])}"
    if kind == "reveal":
        return (
            f"  {seats[event['accuser']]} accuses {seats[event['claimant']]}: claim "
            f"{_value(event['claim'])}, dice {event['dice'][0]} {event['dice'][1]} = "
            f"{_value(event['value'])}"
        )
    if kind == "life_lost":
        return (
            f"  {who} loses {event['lives_lost']} (reason: {event['reason']}), "
            f"{event['lives']} left"
        )
    if kind == "eliminated":
        return f"  {who} is out, place {event['place']}"
    if kind in ("infraction", "crash"):
        return f"  !! {kind} by {who}: {event['reason']}"
    return None
