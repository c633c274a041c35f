"""Muggins events as lines of a readable transcript, drawing the line of tiles."""

from __future__ import annotations

from arena.engine import JSON


def tile_text(tile: list[int]) -> str:
    return f"[{tile[0]}|{tile[1]}]"


class Narrator:
    """Describes Muggins events and keeps the line of tiles to draw it after each play."""

    def __init__(self, seats: list[str]) -> None:
        self.seats = seats
        self.line: list[list[int]] = []

    def describe(self, event: JSON) -> str | None:
        """One line for `event`, or None to show it generically."""
        kind = event["type"]
        who = self.seats[event["seat"]] if "seat" in event else ""
        if kind == "hand":
            self.line = []
            hands = "  ".join(
                f"{self.seats[seat]}: {''.join(map(tile_text, hand))}"
                for seat, hand in enumerate(event["hands"])
            )
            return f"-- hand {event['number']}, {self.seats[event['opener']]} opens. {hands}"
        if kind == "play":
            self._lay(event["tile"], event["end"])
            credit = f", scores {event['credit']}" if event["credit"] else ""
            return (
                f"  {who} plays {tile_text(event['tile'])} {event['end']}: ends count "
                f"{event['count']}{credit} (total {event['score']})\n"
                f"        {''.join(map(tile_text, self.line))}"
            )
        if kind == "draw":
            return f"  {who} draws {tile_text(event['tile'])}"
        if kind == "pass":
            return f"  {who} passes"
        if kind == "hand_end":
            return (
                f"-- hand {event['number']} ends ({event['reason']}): minus "
                f"{event['penalties']}, scores {event['scores']}"
            )
        if kind in ("infraction", "crash"):
            return f"  !! {kind} by {who}: {event['reason']}"
        if kind == "action":
            return ""  # hidden: the play event tells it
        return None

    def _lay(self, tile: list[int], end: str) -> None:
        high, low = tile
        if not self.line:
            self.line.append([high, low])
        elif end == "left":
            joined = self.line[0][0]
            self.line.insert(0, [low, high] if high == joined else [high, low])
        else:
            joined = self.line[-1][1]
            self.line.append([high, low] if high == joined else [low, high])
