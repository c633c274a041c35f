"""Reading matches: filters, replays once finished, seat logs for the bot's owner only."""

from __future__ import annotations

import gzip
from collections.abc import Callable

import pytest
from django.contrib.auth.models import AbstractUser, AnonymousUser
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.http import Http404

from bots.models import Bot
from ladders.models import Ladder
from matches.finish import match_finish
from matches.models import Match
from matches.playing import MatchOutcome, SeatOutcome
from matches.selectors import match_get, match_list, match_replay_bytes, match_seat_log_for
from matches.services import match_create
from ranked.selectors import bot_rating_points

STORED_REPLAY = gzip.compress(b'{"format": "tavolo-replay", "events": []}')
"""A stored replay's bytes: served as they are, with no exception message to cut."""


@pytest.fixture
def played(alice: AbstractUser, muggins_ladder: Ladder, accepted_bot: Callable) -> Match:
    mine = accepted_bot(owner=alice, ladder=muggins_ladder, name="mine")
    house = Bot.objects.get(ladder=muggins_ladder, name="builtin:strong")
    match = match_create(
        ladder=muggins_ladder,
        kind=Match.Kind.RANKED,
        versions=[mine.current_version, house.current_version],
        enqueue=False,
    )
    log = default_storage.save("logs/test/seat-0.txt", ContentFile(b"thinking hard\n"))
    replay = default_storage.save("replays/test.json.gz", ContentFile(STORED_REPLAY))
    outcome = MatchOutcome(
        result={"places": [1, 2]},
        seats=[SeatOutcome(place=1, log_name=log), SeatOutcome(place=2)],
        decisions=3,
        replay_name=replay,
    )
    match_finish(match_id=match.pk, outcome=outcome)
    return Match.objects.get(pk=match.pk)


def test_matches_are_listed_by_ladder_bot_kind_and_status(
    played: Match, ladders: dict[str, Ladder]
) -> None:
    mine = played.seats.get(seat=0).bot
    assert list(match_list(ladder=played.ladder)) == [played]
    assert list(match_list(ladder=ladders["muggins-4"])) == []
    assert list(match_list(bot=mine)) == [played]
    assert list(match_list(kinds=("challenge",))) == []
    assert list(match_list(status="finished")) == [played]


def test_the_replay_is_there_once_the_match_finished(played: Match) -> None:
    assert match_replay_bytes(match=played) == STORED_REPLAY


def test_a_queued_match_has_no_replay(played: Match) -> None:
    queued = match_create(
        ladder=played.ladder,
        kind=Match.Kind.RANKED,
        versions=[seat.bot_version for seat in played.seats.all()],
        enqueue=False,
    )
    with pytest.raises(Http404):
        match_replay_bytes(match=queued)


def test_the_bot_owner_reads_its_own_seat_log_only(alice: AbstractUser, played: Match) -> None:
    assert match_seat_log_for(user=alice, seat=played.seats.get(seat=0)) == "thinking hard\n"
    with pytest.raises(Http404):
        match_seat_log_for(user=alice, seat=played.seats.get(seat=1))


@pytest.mark.parametrize("reader", ["bob", "anonymous"])
def test_no_one_else_reads_a_seat_log(bob: AbstractUser, played: Match, reader: str) -> None:
    user = bob if reader == "bob" else AnonymousUser()
    with pytest.raises(Http404):
        match_seat_log_for(user=user, seat=played.seats.get(seat=0))


def test_an_unknown_match_is_not_found(db: None) -> None:
    with pytest.raises(Http404):
        match_get(match_id=424242)


def test_a_bots_rating_points_are_its_latest_ratings_oldest_first_with_their_versions(
    alice: AbstractUser, mia_ladder: Ladder, accepted_bot: Callable, finish: Callable
) -> None:
    bots = [accepted_bot(owner=alice, ladder=mia_ladder, name=name) for name in "abcd"]
    for _ in range(4):
        finish(bots, [1, 2, 3, 4])
    changes = list(bots[0].rating_changes.order_by("id"))
    points = bot_rating_points(bot=bots[0], count=3)
    assert points == [(change.rating_after, 1) for change in changes[-3:]]
    assert [rating.value for rating, _ in points] == sorted(rating.value for rating, _ in points)
