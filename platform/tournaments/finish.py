"""What a finished tournament match sets off: its tournament advances straight away.

Registered into `matches.finish.ON_FINISH` by `TournamentsConfig.ready`. The
advance is sent once the match's record commits, so a failing advance never
undoes a result; `tournament_advance` copies each table's places once, so an
advance sent twice (or the periodic tick in between) counts nothing twice.
"""

from __future__ import annotations

from functools import partial

from django.db import transaction

from matches.dispatch import task_send
from matches.models import Match, MatchSeat
from tournaments.models import TournamentTable
from tournaments.services import ADVANCE_TASK


def tournament_match_finished(*, match: Match, seats: list[MatchSeat]) -> None:
    """Advance the tournament whose table the match played, once the finish commits."""
    for tournament_id in TournamentTable.objects.filter(match=match).values_list(
        "tournament_id", flat=True
    ):
        transaction.on_commit(partial(task_send, ADVANCE_TASK, tournament_id), robust=True)
