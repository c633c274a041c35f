"""Finishing matches: results, ratings and history are written once, whatever is redelivered."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import AbstractUser

from arena.ratings import Past, Rating, Record
from arena.replay import loads_replay, verify_replay
from bots.models import Bot, BotVersion
from ladders.models import Ladder
from ladders.ratings import rating_system
from matches.finish import ON_FINISH, match_finish
from matches.models import Match
from matches.playing import MatchOutcome, SeatOutcome
from matches.selectors import match_replay_bytes
from matches.services import match_create, match_run
from qualification.verdict import _version_accept
from ranked.models import RatingChange, VersionRecord


def outcome(*places: int) -> MatchOutcome:
    return MatchOutcome(
        result={"places": list(places)},
        seats=[SeatOutcome(place=place) for place in places],
        decisions=42,
    )


@pytest.fixture
def table(
    alice: AbstractUser, bob: AbstractUser, muggins_ladder: Ladder, accepted_bot: Callable
) -> list[Bot]:
    return [
        accepted_bot(
            owner=alice, ladder=muggins_ladder, name="ace", rating=1600.0, games=30, deviation=50.0
        ),
        accepted_bot(
            owner=bob, ladder=muggins_ladder, name="bee", rating=1450.0, games=2, deviation=200.0
        ),
    ]


def ranked(ladder: Ladder, bots: list[Bot], kind: str = Match.Kind.RANKED) -> Match:
    versions = [bot.current_version for bot in bots]
    return match_create(ladder=ladder, kind=kind, versions=versions, enqueue=False)


def test_a_ranked_finish_moves_versions_and_bots_by_the_rating_systems_maths(
    table: list[Bot], muggins_ladder: Ladder
) -> None:
    match = ranked(muggins_ladder, table)
    assert match_finish(match_id=match.pk, outcome=outcome(2, 1))
    expected = rating_system().rate([Rating(1600.0, 50.0, 30), Rating(1450.0, 200.0, 2)], [2, 1])
    ace, bee = (Bot.objects.get(pk=bot.pk) for bot in table)
    for bot, seat in ((ace, expected[0]), (bee, expected[1])):
        assert bot.rating_state == pytest.approx(seat.after)
        assert bot.current_version.rating_state == pytest.approx(seat.after)
    assert (ace.games, bee.games) == (31, 3)
    history = RatingChange.objects.get(match=match, bot=ace)
    assert (history.before, history.deviation_before, history.games_before) == (1600.0, 50.0, 30)
    assert history.after == pytest.approx(ace.rating)
    assert history.deviation_after == pytest.approx(ace.deviation)
    assert history.version == ace.current_version


def test_a_ranked_finish_records_the_points_won_against_each_opponent(
    alice: AbstractUser, mia_ladder: Ladder, accepted_bot: Callable
) -> None:
    bots = [
        accepted_bot(owner=alice, ladder=mia_ladder, name=f"bot-{n}", rating=1400.0 + 50 * n)
        for n in range(4)
    ]
    match = ranked(mia_ladder, bots)
    match_finish(match_id=match.pk, outcome=outcome(3, 1, 4, 2))
    for seat, bot in enumerate(bots):
        change = RatingChange.objects.get(match=match, bot=bot)
        assert [entry["seat"] for entry in change.versus] == [s for s in range(4) if s != seat]
        assert [entry["bot_id"] for entry in change.versus] == [
            other.pk for other in bots if other != bot
        ]
        points = sum(entry["points"] for entry in change.versus) + change.earlier
        assert points == pytest.approx(change.change)
    winner = RatingChange.objects.get(match=match, bot=bots[1])
    assert all(entry["points"] > 0 for entry in winner.versus)


def test_each_finish_rates_the_versions_on_all_their_results_against_current_ratings(
    table: list[Bot], muggins_ladder: Ladder
) -> None:
    ace, bee = (bot.current_version for bot in table)
    match_finish(match_id=ranked(muggins_ladder, table).pk, outcome=outcome(1, 2))
    ace.refresh_from_db()
    bee.refresh_from_db()
    after_one = [ace.rating_state, bee.rating_state]
    match = ranked(muggins_ladder, table)
    match_finish(match_id=match.pk, outcome=outcome(1, 1))
    pasts = [
        Past(ace.start_state, (Record(after_one[1], 1, 1.0),)),
        Past(bee.start_state, (Record(after_one[0], 1, 0.0),)),
    ]
    due = rating_system().rate(after_one, [1, 1], pasts)
    for version, seat in zip((ace, bee), due, strict=True):
        version.refresh_from_db()
        assert version.rating_state == pytest.approx(seat.after)
        change = RatingChange.objects.get(match=match, version=version)
        assert change.earlier == pytest.approx(seat.earlier)
    records = VersionRecord.objects.order_by("version_id")
    assert [(r.version_id, r.opponent_id, r.games, r.points) for r in records] == [
        (ace.pk, bee.pk, 2, 1.5),
        (bee.pk, ace.pk, 2, 0.5),
    ]


RANKED_FINISH_QUERIES = 14
"""A ranked finish without a crash, whatever its number of seats: the transaction, the
match and its seats, the bots' and versions' ratings, the versions' records, the history,
and the tallies."""


@pytest.mark.parametrize("seats", [2, 4])
def test_a_ranked_finish_takes_a_fixed_number_of_queries_however_many_seats(
    alice: AbstractUser,
    ladders: dict[str, Ladder],
    accepted_bot: Callable,
    django_assert_num_queries: Callable,
    seats: int,
) -> None:
    ladder = next(ladder for ladder in ladders.values() if ladder.seats == seats)
    bots = [accepted_bot(owner=alice, ladder=ladder, name=f"bot-{n}") for n in range(seats)]
    for _ in range(2):  # the first finish creates the tallies, the second updates them
        match = ranked(ladder, bots)
        with django_assert_num_queries(RANKED_FINISH_QUERIES):
            assert match_finish(match_id=match.pk, outcome=outcome(*range(1, seats + 1)))
    assert all(Bot.objects.get(pk=bot.pk).games == 2 for bot in bots)


def test_finishing_a_match_twice_changes_nothing_the_second_time(
    table: list[Bot], muggins_ladder: Ladder
) -> None:
    match = ranked(muggins_ladder, table)
    assert match_finish(match_id=match.pk, outcome=outcome(1, 2))
    ratings = [Bot.objects.get(pk=bot.pk).rating for bot in table]
    assert not match_finish(match_id=match.pk, outcome=outcome(2, 1))
    assert [Bot.objects.get(pk=bot.pk).rating for bot in table] == ratings
    assert RatingChange.objects.filter(match=match).count() == 2
    match.refresh_from_db()
    assert [seat.place for seat in match.seats.all()] == [1, 2]


def test_a_finished_match_records_result_seats_and_reveals_its_seed(
    table: list[Bot], muggins_ladder: Ladder
) -> None:
    match = ranked(muggins_ladder, table)
    assert match.public_seed is None
    crashed = MatchOutcome(
        result={"places": [2, 1]},
        seats=[
            SeatOutcome(place=2, infractions=3, crashed=True, crash_reason="died"),
            SeatOutcome(place=1),
        ],
        decisions=7,
    )
    match_finish(match_id=match.pk, outcome=crashed)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.public_seed == match.seed
    assert (match.result, match.decisions) == ({"places": [2, 1]}, 7)
    first = match.seats.get(seat=0)
    assert (first.place, first.infractions, first.crashed) == (2, 3, True)
    assert first.crash_reason == "died"


def test_a_house_bot_in_several_seats_is_rated_once_on_its_pairs_against_others(
    alice: AbstractUser, mia_ladder: Ladder, accepted_bot: Callable
) -> None:
    mine = accepted_bot(owner=alice, ladder=mia_ladder, name="mine")
    house = Bot.objects.get(ladder=mia_ladder, name="builtin:random")
    mine_version, house_version = mine.current_version_id, house.current_version_id
    for places in ((1, 2, 3, 4), (4, 1, 2, 3), (2, 4, 1, 3)):
        opponent = BotVersion.objects.get(pk=mine_version).rating_state
        match = ranked(mia_ladder, [mine, house, house, house])
        match_finish(match_id=match.pk, outcome=outcome(*places))
        house.refresh_from_db()
        change = RatingChange.objects.get(match=match, bot=house)
        assert [entry["seat"] for entry in change.versus] == [0]
        points = sum(entry["points"] for entry in change.versus) + change.earlier
        assert points == pytest.approx(change.change)
    assert house.games == 3
    assert RatingChange.objects.filter(match=match).count() == 2
    records = VersionRecord.objects.values_list("version_id", "opponent_id", "games", "points")
    assert sorted(records) == sorted(
        [(mine_version, house_version, 9, 5.0), (house_version, mine_version, 9, 4.0)]
    )
    # The stored rating is what the version's start and its records give, read
    # against its opponent's rating before the last match.
    version = house.current_version
    past = Past(version.start_state, (Record(opponent, 9, 4.0),))
    assert version.rating_state.value == pytest.approx(
        rating_system().refit(past, 4).value,
        abs=1e-6,  # type: ignore[attr-defined]
    )


def test_a_challenge_leaves_ratings_alone(table: list[Bot], muggins_ladder: Ladder) -> None:
    match = ranked(muggins_ladder, table, kind=Match.Kind.CHALLENGE)
    assert match_finish(match_id=match.pk, outcome=outcome(1, 2))
    assert [Bot.objects.get(pk=bot.pk).rating for bot in table] == [1600.0, 1450.0]
    assert not RatingChange.objects.exists()


def test_a_new_version_starts_from_its_bots_rating_with_its_doubt_widened(
    table: list[Bot],
) -> None:
    ace = table[0]
    newer = BotVersion.objects.create(
        bot=ace, number=2, sha256="0" * 64, size=1, status=BotVersion.Status.QUALIFYING
    )
    _version_accept(version=newer, log="")
    newer.refresh_from_db()
    ace.refresh_from_db()
    start = rating_system().successor(Rating(1600.0, 50.0, 30))
    assert newer.rating_state == newer.start_state == ace.rating_state == start
    assert start.value == 1600.0
    assert 50.0 < start.deviation <= rating_system().initial().deviation


def test_running_a_match_plays_it_and_stores_a_replay_that_verifies(
    muggins_ladder: Ladder,
) -> None:
    house = list(Bot.objects.filter(ladder=muggins_ladder).order_by("name"))
    match = ranked(muggins_ladder, house)
    assert match_run(match_id=match.pk, worker="w1")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.claimed_by == "w1"
    assert match.attempts == 1
    replay = loads_replay(match_replay_bytes(match=match))
    verify_replay(replay)
    assert replay["seed"] == format(int(match.seed, 16), "x")
    assert RatingChange.objects.filter(match=match).count() == 2


def test_a_second_delivery_of_the_same_match_does_nothing(muggins_ladder: Ladder) -> None:
    house = list(Bot.objects.filter(ladder=muggins_ladder).order_by("name"))
    match = ranked(muggins_ladder, house)
    assert match_run(match_id=match.pk, worker="w1")
    assert not match_run(match_id=match.pk, worker="w2")
    match.refresh_from_db()
    assert (match.claimed_by, match.attempts) == ("w1", 1)
    assert RatingChange.objects.filter(match=match).count() == 2


def test_a_worker_without_the_jail_fails_a_match_of_uploaded_bots_with_the_reason(
    table: list[Bot], muggins_ladder: Ladder, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("matches.playing.jail_available", lambda: False)
    match = ranked(muggins_ladder, table)
    assert not match_run(match_id=match.pk, worker="w1")
    match.refresh_from_db()
    assert match.status == Match.Status.FAILED
    assert "no working jail" in match.failure_reason
    assert [Bot.objects.get(pk=bot.pk).games for bot in table] == [30, 2]


def test_every_kind_of_match_says_what_its_finish_sets_off() -> None:
    assert set(ON_FINISH) == set(Match.Kind)


def crashed(crashing_seat: int, *places: int) -> MatchOutcome:
    return MatchOutcome(
        result={"places": list(places)},
        seats=[
            SeatOutcome(place=place, crashed=seat == crashing_seat, crash_reason="exit code 17")
            for seat, place in enumerate(places)
        ],
        decisions=3,
    )


def test_a_bot_crashing_in_every_ranked_match_is_retired_after_the_configured_streak(
    table: list[Bot], muggins_ladder: Ladder, settings
) -> None:
    settings.TAVOLO_RETIRE_AFTER_CRASHES = 3
    ace = table[0]
    for _ in range(2):
        assert match_finish(match_id=ranked(muggins_ladder, table).pk, outcome=crashed(0, 2, 1))
    ace.refresh_from_db()
    assert not ace.is_retired
    assert match_finish(match_id=ranked(muggins_ladder, table).pk, outcome=crashed(0, 2, 1))
    ace.refresh_from_db()
    assert ace.is_retired
    assert "crashed in its last 3 ranked matches in a row" in ace.retired_reason
    assert "exit code 17" in ace.retired_reason
    assert not Bot.objects.get(pk=table[1].pk).is_retired


def test_a_match_without_a_crash_starts_the_count_again(
    table: list[Bot], muggins_ladder: Ladder, settings
) -> None:
    settings.TAVOLO_RETIRE_AFTER_CRASHES = 2
    for result in (crashed(0, 2, 1), outcome(1, 2), crashed(0, 2, 1)):
        assert match_finish(match_id=ranked(muggins_ladder, table).pk, outcome=result)
    assert not Bot.objects.get(pk=table[0].pk).is_retired
    challenge = ranked(muggins_ladder, table, kind=Match.Kind.CHALLENGE)
    assert match_finish(match_id=challenge.pk, outcome=crashed(0, 2, 1))
    assert not Bot.objects.get(pk=table[0].pk).is_retired, "only ranked matches count"
    assert match_finish(match_id=ranked(muggins_ladder, table).pk, outcome=crashed(0, 2, 1))
    assert Bot.objects.get(pk=table[0].pk).is_retired
