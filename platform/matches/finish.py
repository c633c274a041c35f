"""What happens when a match finishes: its record, then what it sets off, by kind.

`match_finish` writes the result and the seats, then calls the entry of
`ON_FINISH` for the match's kind, in the same transaction: a ranked match moves
ratings (and retires a bot that keeps crashing), a qualification match may
accept or reject the version on trial, a challenge changes nothing. A new
kind of match is one new entry. The apps above matches (ranked,
qualification, tournaments) register their kind's entry with
`on_finish_register` when they load, so matches never imports them.
`match_fail` ends a run a worker could not play, and calls the kind's
`ON_FAIL` entry, if any, in the same way (`on_fail_register`).
"""

from __future__ import annotations

from typing import Protocol

from django.db import transaction
from django.utils import timezone

from matches.models import Match, MatchSeat
from matches.playing import MatchOutcome
from matches.rows import rows_update

SEAT_OUTCOME = [
    "place",
    "infractions",
    "crashed",
    "crash_reason",
    "infraction_reasons",
    "log",
    "log_entries",
]
MATCH_OUTCOME = ["status", "finished_at", "result", "decisions", "replay", "failure_reason"]


@transaction.atomic
def match_finish(*, match_id: int, outcome: MatchOutcome) -> bool:
    """Record a played match (result and seats) and what it sets off, all or nothing.

    Keyed by the match: the match row is locked first (read with its seats), and
    a match that has already finished is left as it is (False). A ranked match then locks the
    bots' rating rows in id order, so concurrent finishes never deadlock.
    """
    # The seats and their match in one statement, the match's row locked.
    seats = list(
        MatchSeat.objects.select_for_update(of=("match",))
        .select_related("match__ladder")
        .filter(match_id=match_id)
        .order_by("seat")
    )
    if not seats:
        raise Match.DoesNotExist(f"there is no match {match_id} with seats")
    match = seats[0].match
    for seat in seats:
        seat.match = match
    if match.status == Match.Status.FINISHED:
        return False
    if len(seats) != len(outcome.seats):
        raise ValueError(
            f"match {match_id} has {len(seats)} seats, the outcome has {len(outcome.seats)}"
        )
    for seat, seat_outcome in zip(seats, outcome.seats, strict=True):
        seat.place = seat_outcome.place
        seat.infractions = seat_outcome.infractions
        seat.crashed = seat_outcome.crashed
        seat.crash_reason = seat_outcome.crash_reason
        seat.infraction_reasons = seat_outcome.infraction_reasons
        seat.log = seat_outcome.log_name
        seat.log_entries = seat_outcome.log_entries_name
    rows_update(seats, SEAT_OUTCOME)
    match.status = Match.Status.FINISHED
    match.finished_at = timezone.now()
    match.result = outcome.result
    match.decisions = outcome.decisions
    match.replay = outcome.replay_name
    match.failure_reason = ""
    rows_update([match], MATCH_OUTCOME)
    ON_FINISH[match.kind](match=match, seats=seats)
    return True


def challenge_finished(*, match: Match, seats: list[MatchSeat]) -> None:
    """A challenge changes no rating and decides nothing."""


class OnFinish(Protocol):
    """What a finished match sets off, given the match and its seats (in seat order)."""

    def __call__(self, *, match: Match, seats: list[MatchSeat]) -> None: ...


ON_FINISH: dict[str, OnFinish] = {
    Match.Kind.CHALLENGE: challenge_finished,
}
"""What a finished match of each kind sets off, inside `match_finish`'s transaction.

The other kinds are registered by the apps that own them, from their
`AppConfig.ready`: `Match.Kind.RANKED` by ranked, `Match.Kind.QUALIFICATION`
by qualification, `Match.Kind.TOURNAMENT` by tournaments.
"""


def on_finish_register(kind: str, on_finish: OnFinish) -> None:
    """Say what a finished match of `kind` sets off; for an app that matches cannot import."""
    if kind not in Match.Kind.values:
        raise ValueError(f"no match kind {kind!r}")
    ON_FINISH[kind] = on_finish


ON_FAIL: dict[str, OnFinish] = {}
"""What a match of each kind sets off when a worker could not play it (`match_fail`),
in the same transaction; a kind without an entry only fails. Qualification registers
one. A match lost with its worker is failed by the recovery without it."""


def on_fail_register(kind: str, on_fail: OnFinish) -> None:
    """Say what a failed match of `kind` sets off; for an app that matches cannot import."""
    if kind not in Match.Kind.values:
        raise ValueError(f"no match kind {kind!r}")
    ON_FAIL[kind] = on_fail


@transaction.atomic
def match_fail(*, match_id: int, attempt: int, reason: str) -> bool:
    """Mark the running attempt `attempt` of a match failed, and what that sets off
    (`ON_FAIL`); False if it is not that run."""
    failed = Match.objects.filter(
        id=match_id, status=Match.Status.RUNNING, attempts=attempt
    ).update(status=Match.Status.FAILED, finished_at=timezone.now(), failure_reason=reason)
    if not failed:
        return False
    match = Match.objects.select_related("ladder").get(id=match_id)
    if on_fail := ON_FAIL.get(match.kind):
        on_fail(match=match, seats=list(match.seats.order_by("seat")))
    return True
