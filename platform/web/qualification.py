"""How a version fared in each of its qualification matches, in words, for the bot and
version pages."""

from __future__ import annotations

from dataclasses import dataclass

from matches.models import Match, MatchSeat


@dataclass(frozen=True)
class QualificationLine:
    """One qualification match of a version and its outcome for the version."""

    match_id: int
    outcome: str
    clean: bool
    """Played without a crash or an infraction."""


def qualification_lines(seats: list[MatchSeat]) -> list[QualificationLine]:
    """One line per seat of a version in a qualification match, in the order played."""
    return [QualificationLine(seat.match_id, _outcome(seat), _clean(seat)) for seat in seats]


def _outcome(seat: MatchSeat) -> str:
    match = seat.match
    if match.status == Match.Status.FAILED:
        return "not played (the platform's failure, not the bot's)"
    if match.status != Match.Status.FINISHED:
        return "playing"
    if seat.crashed:
        return "crashed"
    outcome = f"place {seat.place} of {match.ladder.seats}"
    if seat.infractions:
        plural = "" if seat.infractions == 1 else "s"
        outcome += f", {seat.infractions} infraction{plural}"
    return outcome


def _clean(seat: MatchSeat) -> bool:
    return seat.match.status == Match.Status.FINISHED and not seat.crashed and not seat.infractions
