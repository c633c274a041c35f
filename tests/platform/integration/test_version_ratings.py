"""A match played by an old version is rated with that version's rating, on PostgreSQL.

The bug this guards against: accepting a new version reset the bot's count of
games, and a ranked match the old version was still playing was then rated as
if a brand-new bot had played it (+213.6 where +4.2 was due).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import AbstractUser

from arena.ratings import Rating
from bots.models import Bot, BotVersion
from ladders.models import Ladder
from ladders.ratings import rating_system
from matches.finish import match_finish
from matches.models import Match
from matches.playing import MatchOutcome, SeatOutcome
from matches.services import match_create
from qualification.verdict import _version_accept
from ranked.models import RatingChange

pytestmark = pytest.mark.postgres


def test_a_match_of_an_old_version_finished_after_a_new_one_is_rated_with_the_old_state(
    alice: AbstractUser, bob: AbstractUser, ladders: dict[str, Ladder], accepted_bot: Callable
) -> None:
    ladder = ladders["muggins-2"]
    veteran = accepted_bot(
        owner=alice, ladder=ladder, name="veteran", rating=1700.0, games=300, deviation=35.0
    )
    rival = accepted_bot(
        owner=bob, ladder=ladder, name="rival", rating=1690.0, games=300, deviation=35.0
    )
    old = veteran.current_version
    match = match_create(
        ladder=ladder,
        kind=Match.Kind.RANKED,
        versions=[old, rival.current_version],
        enqueue=False,
    )
    newer = BotVersion.objects.create(
        bot=veteran, number=2, sha256="0" * 64, size=1, status=BotVersion.Status.QUALIFYING
    )
    _version_accept(version=newer, log="")
    newer.refresh_from_db()
    started = newer.rating_state

    outcome = MatchOutcome(
        result={"places": [1, 2]}, seats=[SeatOutcome(place=1), SeatOutcome(place=2)], decisions=1
    )
    assert match_finish(match_id=match.pk, outcome=outcome)

    due = rating_system().rate([Rating(1700.0, 35.0, 300), Rating(1690.0, 35.0, 300)], [1, 2])
    old.refresh_from_db()
    newer.refresh_from_db()
    veteran.refresh_from_db()
    change = RatingChange.objects.get(match=match, bot=veteran)
    assert change.version == old
    assert (change.before, change.games_before) == (1700.0, 300)
    assert change.after == pytest.approx(due[0].after.value)
    assert 0 < change.after - change.before < 20
    assert old.rating_state == pytest.approx(due[0].after)
    assert newer.rating_state == started
    assert veteran.rating_state == started
    assert Bot.objects.get(pk=rival.pk).rating == pytest.approx(due[1].after.value)
