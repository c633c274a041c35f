"""The stored records the re-fit reads: the database refuses one that cannot be."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import AbstractUser
from django.db import IntegrityError, transaction

from ladders.models import Ladder
from ranked.models import VersionRecord


@pytest.mark.parametrize(
    ("games", "points", "against_itself"),
    [(2, 3.0, False), (2, -0.5, False), (2, float("nan"), False), (2, 1.0, True)],
)
def test_a_record_with_points_outside_its_games_or_against_itself_is_refused(
    alice: AbstractUser,
    mia_ladder: Ladder,
    accepted_bot: Callable,
    games: int,
    points: float,
    against_itself: bool,
) -> None:
    mine = accepted_bot(owner=alice, ladder=mia_ladder, name="mine").current_version
    other = accepted_bot(owner=alice, ladder=mia_ladder, name="other").current_version
    VersionRecord.objects.create(version=mine, opponent=other, games=2, points=2.0)
    with pytest.raises(IntegrityError), transaction.atomic():
        VersionRecord.objects.create(
            version=other, opponent=other if against_itself else mine, games=games, points=points
        )
