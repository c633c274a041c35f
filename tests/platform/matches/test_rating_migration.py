"""The migration to per-version ratings gives existing rows the state their history shows."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from arena.ratings import Rating
from arena.ratings.elo import FallingKElo

BEFORE = [("bots", "0001_initial"), ("matches", "0003_live_progress_and_log_entries")]
AFTER = [("bots", "0002_version_ratings"), ("matches", "0005_version_ratings_from_history")]


@pytest.fixture
def latest_schema_after() -> Iterator[None]:
    """Migrate the test database forward again, so later tests see every table and column."""
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("latest_schema_after")
def test_old_versions_keep_their_last_rating_and_past_changes_are_split_by_opponent() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    apps = executor.loader.project_state(BEFORE).apps
    user = apps.get_model("auth", "User").objects.create(username="carol")
    ladder = apps.get_model("ladders", "Ladder").objects.create(
        slug="old-2", name="Old", game="muggins", seats=2
    )
    Bot, BotVersion = apps.get_model("bots", "Bot"), apps.get_model("bots", "BotVersion")
    Match, MatchSeat = apps.get_model("matches", "Match"), apps.get_model("matches", "MatchSeat")
    RatingChange = apps.get_model("matches", "RatingChange")
    ace = Bot.objects.create(owner=user, ladder=ladder, name="ace", rating=1650.0, games=4)
    bee = Bot.objects.create(owner=user, ladder=ladder, name="bee", rating=1480.0, games=40)
    old = BotVersion.objects.create(bot=ace, number=1, sha256="a", size=1, status="accepted")
    new = BotVersion.objects.create(bot=ace, number=2, sha256="b", size=1, status="accepted")
    bees = BotVersion.objects.create(bot=bee, number=1, sha256="c", size=1, status="accepted")
    Bot.objects.filter(pk=ace.pk).update(current_version=new)
    Bot.objects.filter(pk=bee.pk).update(current_version=bees)
    match = Match.objects.create(ladder=ladder, seed="0", queued_at=timezone.now())
    MatchSeat.objects.create(match=match, seat=0, bot=ace, bot_version=old, place=1)
    MatchSeat.objects.create(match=match, seat=1, bot=bee, bot_version=bees, place=2)
    RatingChange.objects.create(
        match=match, bot=ace, version=old, before=1600.0, after=1620.0, games_before=30
    )
    RatingChange.objects.create(
        match=match, bot=bee, version=bees, before=1500.0, after=1480.0, games_before=39
    )

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    apps = executor.loader.project_state(AFTER).apps
    BotVersion = apps.get_model("bots", "BotVersion")
    RatingChange = apps.get_model("matches", "RatingChange")
    old, new = (BotVersion.objects.get(pk=pk) for pk in (old.pk, new.pk))
    assert (old.rating, old.games, old.start_rating) == (1620.0, 1, 1600.0)
    assert (new.rating, new.games) == (1650.0, 4)
    elo = FallingKElo()
    due = elo.rate([Rating(1600.0, 0.0, 30), Rating(1500.0, 0.0, 39)], [1, 2])
    change = RatingChange.objects.get(match_id=match.pk, bot_id=ace.pk)
    assert change.versus == [
        {"seat": 1, "bot_id": bee.pk, "points": pytest.approx(due[0].versus[1])}
    ]
    assert change.deviation_before == elo.band(Rating(games=30)) / 2


BEFORE_RECORDS = [("bots", "0003_bot_retired"), ("matches", "0011_live_progress_unlogged")]
AFTER_RECORDS = [("matches", "0012_version_records")]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("latest_schema_after")
def test_the_versions_records_are_summed_from_the_rated_matches_already_played() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_RECORDS)
    apps = executor.loader.project_state(BEFORE_RECORDS).apps
    user = apps.get_model("auth", "User").objects.create(username="dora")
    ladder = apps.get_model("ladders", "Ladder").objects.create(
        slug="old-4", name="Old", game="mia", seats=4
    )
    Bot, BotVersion = apps.get_model("bots", "Bot"), apps.get_model("bots", "BotVersion")
    Match, MatchSeat = apps.get_model("matches", "Match"), apps.get_model("matches", "MatchSeat")
    RatingChange = apps.get_model("matches", "RatingChange")
    versions = []
    for name in ("ace", "bee", "cat"):
        bot = Bot.objects.create(owner=user, ladder=ladder, name=name)
        versions.append(
            BotVersion.objects.create(bot=bot, number=1, sha256=name, size=1, status="accepted")
        )
    ace, bee, cat = versions

    def played(places: list[int], seated: list, rated: bool) -> None:
        match = Match.objects.create(
            ladder=ladder, seed="0", queued_at=timezone.now(), status="finished", kind="ranked"
        )
        for seat, (version, place) in enumerate(zip(seated, places, strict=True)):
            MatchSeat.objects.create(
                match=match, seat=seat, bot_id=version.bot_id, bot_version=version, place=place
            )
        if rated:
            for version in set(seated):
                RatingChange.objects.create(
                    match=match, bot_id=version.bot_id, version=version, before=1500.0,
                    after=1500.0, games_before=0,
                )  # fmt: skip

    played([1, 2, 2, 4], [ace, bee, cat, cat], rated=True)  # cat holds two seats
    played([2, 1, 3, 4], [ace, bee, cat, cat], rated=True)
    played([1, 2, 3, 4], [cat, cat, bee, ace], rated=False)  # a challenge, say: not counted

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER_RECORDS)
    apps = executor.loader.project_state(AFTER_RECORDS).apps
    records = {
        (row.version_id, row.opponent_id): (row.games, row.points)
        for row in apps.get_model("matches", "VersionRecord").objects.all()
    }
    assert records == {
        (ace.pk, bee.pk): (2, 1.0),
        (bee.pk, ace.pk): (2, 1.0),
        (ace.pk, cat.pk): (4, 4.0),
        (cat.pk, ace.pk): (4, 0.0),
        (bee.pk, cat.pk): (4, 3.5),
        (cat.pk, bee.pk): (4, 0.5),
    }


BEFORE_SUMMARIES = [("bots", "0002_version_ratings"), ("matches", "0008_match_lease")]
AFTER_SUMMARIES = [("matches", "0009_bot_summaries")]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("latest_schema_after")
def test_the_bots_summaries_and_head_to_head_are_summed_from_the_ranked_matches_played() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_SUMMARIES)
    apps = executor.loader.project_state(BEFORE_SUMMARIES).apps
    user = apps.get_model("auth", "User").objects.create(username="erin")
    ladder = apps.get_model("ladders", "Ladder").objects.create(
        slug="old-3", name="Old", game="mia", seats=3
    )
    Bot, BotVersion = apps.get_model("bots", "Bot"), apps.get_model("bots", "BotVersion")
    Match, MatchSeat = apps.get_model("matches", "Match"), apps.get_model("matches", "MatchSeat")
    RatingChange = apps.get_model("matches", "RatingChange")
    ace, bee = (Bot.objects.create(owner=user, ladder=ladder, name=name) for name in "ab")
    versions = {
        bot.pk: BotVersion.objects.create(bot=bot, number=1, sha256=bot.name, size=1)
        for bot in (ace, bee)
    }
    finished = [timezone.now() - timezone.timedelta(minutes=minutes) for minutes in (2, 1)]

    def played(kind: str, seated: list, places: list[int], finished_at) -> None:
        match = Match.objects.create(
            ladder=ladder, seed="0", kind=kind, status="finished", queued_at=finished_at,
            finished_at=finished_at,
        )  # fmt: skip
        for seat, (bot, place) in enumerate(zip(seated, places, strict=True)):
            MatchSeat.objects.create(
                match=match, seat=seat, bot=bot, bot_version=versions[bot.pk], place=place
            )
        if kind == "ranked":
            for bot in set(seated):
                RatingChange.objects.create(
                    match=match, bot=bot, version=versions[bot.pk], before=1500.0,
                    after=1500.0 + place_sum(bot, seated, places), games_before=0,
                )  # fmt: skip

    def place_sum(bot, seated: list, places: list[int]) -> float:
        return float(sum(place for own, place in zip(seated, places, strict=True) if own == bot))

    played("ranked", [ace, bee, bee], [2, 1, 3], finished[0])  # bee holds two seats
    played("ranked", [bee, ace, bee], [2, 1, 3], finished[1])
    played("challenge", [ace, bee, bee], [1, 2, 3], timezone.now())  # not counted

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER_SUMMARIES)
    apps = executor.loader.project_state(AFTER_SUMMARIES).apps
    summaries = {
        row.bot_id: (row.played, row.wins, row.last_played, row.places, row.recent_ratings)
        for row in apps.get_model("matches", "BotSummary").objects.all()
    }
    assert summaries == {
        ace.pk: (2, 1, finished[1], {"1": 1, "2": 1}, [1502.0, 1501.0]),
        bee.pk: (2, 1, finished[1], {"1": 1, "2": 1, "3": 2}, [1504.0, 1505.0]),
    }
    pairs = {
        (row.bot_id, row.opponent_id): (row.matches, row.ahead, row.behind)
        for row in apps.get_model("matches", "HeadToHeadSummary").objects.all()
    }
    assert pairs == {(ace.pk, bee.pk): (4, 3, 1), (bee.pk, ace.pk): (4, 1, 3)}
