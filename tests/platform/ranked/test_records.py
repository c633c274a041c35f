"""How bots fared: records, recent ratings, places and head-to-head, from finished matches."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import AbstractUser

from bots.models import Bot
from ladders.models import Ladder
from matches.models import Match
from ranked.records import bot_head_to_head, bot_places, bot_recent_ratings, bot_records
from ranked.tallies import tallies_rebuild


@pytest.fixture
def table(alice: AbstractUser, mia_ladder: Ladder, accepted_bot: Callable) -> list[Bot]:
    return [accepted_bot(owner=alice, ladder=mia_ladder, name=name) for name in "abcd"]


def test_a_record_counts_ranked_wins_and_the_last_match(
    table: list[Bot], finish: Callable[..., Match]
) -> None:
    a, b, c, d = table
    finish([a, b, c, d], [1, 2, 3, 4])
    finish([a, b, c, d], [2, 1, 3, 4])
    last = finish([a, b, c, d], [1, 3, 2, 4])
    finish([a, b, c, d], [4, 1, 2, 3], kind=Match.Kind.CHALLENGE)  # unranked: not counted
    records = bot_records(bot_ids=[a.pk, b.pk, d.pk])
    assert (records[a.pk].played, records[a.pk].wins) == (3, 2)
    assert records[a.pk].win_rate == pytest.approx(2 / 3)
    assert records[a.pk].last_played == Match.objects.get(pk=last.pk).finished_at
    assert records[d.pk].win_rate == 0
    assert c.pk not in records


def test_recent_ratings_are_each_bots_latest_oldest_first(
    table: list[Bot], finish: Callable[..., Match]
) -> None:
    a, b, c, d = table
    for _ in range(4):
        finish([a, b, c, d], [1, 2, 3, 4])
    ratings = bot_recent_ratings(bot_ids=[a.pk, d.pk], count=3)
    assert len(ratings[a.pk]) == 3 and len(ratings[d.pk]) == 3
    assert ratings[a.pk] == sorted(ratings[a.pk])  # a won every time: rising
    assert ratings[a.pk][-1] == Bot.objects.get(pk=a.pk).rating
    assert ratings[d.pk] == sorted(ratings[d.pk], reverse=True)


def test_places_count_each_finish(table: list[Bot], finish: Callable[..., Match]) -> None:
    a, b, c, d = table
    finish([a, b, c, d], [1, 2, 3, 4])
    finish([a, b, c, d], [3, 2, 1, 4])
    finish([a, b, c, d], [1, 2, 3, 4])
    assert bot_places(bot=a) == {1: 2, 3: 1}


def test_head_to_head_counts_who_finished_ahead_most_met_first(
    alice: AbstractUser,
    table: list[Bot],
    finish: Callable[..., Match],
    mia_ladder: Ladder,
    accepted_bot: Callable,
) -> None:
    a, b, c, d = table
    e = accepted_bot(owner=alice, ladder=mia_ladder, name="e")
    finish([a, b, c, d], [1, 2, 3, 4])
    finish([a, b, c, e], [3, 1, 2, 2])
    records = {record.opponent.name: record for record in bot_head_to_head(bot=a)}
    assert list(records)[:2] == ["b", "c"]  # met twice
    assert (records["b"].matches, records["b"].ahead, records["b"].behind) == (2, 1, 1)
    assert (records["c"].ahead, records["c"].behind) == (1, 1)
    assert (records["e"].matches, records["e"].ahead, records["e"].behind) == (1, 0, 1)
    assert records["d"].level == 0
    assert [record.opponent.name for record in bot_head_to_head(bot=a, limit=1)] == ["b"]


def test_a_rebuild_from_every_match_gives_the_figures_kept_as_matches_finished(
    table: list[Bot], finish: Callable[..., Match], mia_ladder: Ladder
) -> None:
    a, b, c, d = table
    house = Bot.objects.get(ladder=mia_ladder, name="builtin:random")
    finish([a, b, c, d], [1, 2, 3, 4])
    finish([house, a, house, b], [2, 1, 1, 4])  # one bot in two seats: one match, won
    finish([d, c, b, a], [1, 2, 2, 4])
    finish([a, b, c, d], [4, 3, 2, 1], kind=Match.Kind.CHALLENGE)
    bots = [a.pk, b.pk, c.pk, d.pk, house.pk]

    def figures() -> tuple:
        return (
            bot_records(bot_ids=bots),
            bot_recent_ratings(bot_ids=bots),
            {bot.pk: bot_places(bot=bot) for bot in [a, b, c, d, house]},
            {
                bot.pk: [
                    (h.opponent.pk, h.matches, h.ahead, h.behind) for h in bot_head_to_head(bot=bot)
                ]
                for bot in [a, b, c, d, house]
            },
        )

    kept = figures()
    assert kept[0][house.pk].played == 1 and kept[0][house.pk].wins == 1
    assert kept[2][house.pk] == {1: 1, 2: 1}
    tallies_rebuild()
    assert figures() == kept
