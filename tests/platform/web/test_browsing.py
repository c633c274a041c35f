"""Browsing: the ladder's standings, a bot's charts, the match list and a user's page,
each in a fixed number of queries however many bots and matches there are."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import AbstractUser
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from bots.models import Bot, BotVersion
from ladders.models import Ladder
from matches.models import Match
from ranked.models import RatingChange


def page(client: Client, path: str) -> str:
    answer = client.get(path)
    assert answer.status_code == 200, f"{path}: {answer.status_code}"
    return answer.content.decode()


@pytest.fixture
def table(alice: AbstractUser, bob: AbstractUser, mia_ladder: Ladder, accepted_bot) -> list[Bot]:
    """Four bots of alice and bob on the Mia ladder."""
    return [
        accepted_bot(owner=owner, ladder=mia_ladder, name=name)
        for owner, name in ((alice, "ace"), (alice, "bluff"), (bob, "cup"), (bob, "dice"))
    ]


@pytest.fixture
def season(table: list[Bot], finish: Callable[..., Match]) -> list[Match]:
    """Three ranked matches: ace wins two, cup one."""
    ace, bluff, cup, dice = table
    return [
        finish([ace, bluff, cup, dice], [1, 2, 3, 4]),
        finish([ace, bluff, cup, dice], [1, 3, 2, 4]),
        finish([dice, cup, bluff, ace], [4, 1, 2, 3]),
    ]


def test_the_ladder_shows_win_rates_sparklines_and_last_played(
    client: Client, season: list[Match], table: list[Bot]
) -> None:
    html = page(client, "/ladders/mia-classic-4/")
    assert 'class="sortable"' in html and "web/sortable" in html
    assert html.count('<svg class="spark"') == 4  # each of alice's and bob's bots
    assert "67%" in html  # ace won 2 of 3
    assert "33%" in html  # cup won 1 of 3
    assert "never" in html  # the house bots have not played
    assert 'href="/users/alice/"' in html


def test_a_match_being_played_is_on_the_ladder_and_the_home_page(
    client: Client, season: list[Match]
) -> None:
    running = season[0]
    Match.objects.filter(pk=running.pk).update(status=Match.Status.RUNNING)
    for path in ("/", "/ladders/mia-classic-4/"):
        html = page(client, path)
        assert f'href="/matches/{running.pk}/">Watch #{running.pk}' in html


def test_a_bot_page_draws_its_rating_band_versions_places_and_head_to_head(
    client: Client, season: list[Match], table: list[Bot], finish: Callable[..., Match]
) -> None:
    ace, bluff, cup, dice = table
    second = BotVersion.objects.create(
        bot=ace, number=2, source="x", sha256="0" * 64, size=1, status="accepted"
    )
    ace.current_version = second
    ace.save()
    finish([ace, bluff, cup, dice], [2, 1, 3, 4])
    html = page(client, f"/bots/{ace.pk}/")
    assert '<polygon class="band"' in html and '<polyline class="rating"' in html
    assert '<line class="version"' in html and ">v2</text>" in html
    assert "1st: 2" in html and "2nd: 1" in html and "3rd: 1" in html and "4th: 0" in html
    head_to_head = html[html.index("<h2>Head to head</h2>") :]
    for name in ("bluff", "cup", "dice"):
        assert f">{name}</a>" in head_to_head
    assert f'href="/matches/?bot={ace.pk}"' in html


def test_a_bot_page_splits_each_change_by_opponent_and_earlier_results(
    client: Client, season: list[Match], table: list[Bot]
) -> None:
    ace = table[0]
    html = page(client, f"/bots/{ace.pk}/")
    assert html.count("from earlier results re-read") == len(season)
    for change in RatingChange.objects.filter(bot=ace):
        assert f"{change.earlier:+.1f} from earlier results re-read" in html
        for entry in change.versus_named():
            assert f"{entry['points']:+.1f} vs {entry['bot']}" in html


def test_a_bot_without_ranked_matches_says_so(client: Client, table: list[Bot]) -> None:
    html = page(client, f"/bots/{table[0].pk}/")
    assert "No ranked matches finished yet." in html
    assert "No opponents met in ranked matches yet." in html


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("", {0, 1, 2, 3}),
        ("?ladder=mia-classic-4", {0, 1, 2, 3}),
        ("?ladder=muggins-2", set()),
        ("?kind=challenge", {3}),
        ("?status=finished&kind=ranked", {0, 1, 2}),
        ("?bot={ace}", {0, 1, 2, 3}),
        ("?bot={ace}&result=won", {0, 1}),
        ("?bot={ace}&result=lost", {2, 3}),
        ("?bot={cup}&result=won", {2}),
    ],
)
def test_the_match_list_filters_by_ladder_bot_kind_status_and_result(
    client: Client,
    season: list[Match],
    table: list[Bot],
    finish: Callable[..., Match],
    query: str,
    expected: set[int],
) -> None:
    ace, bluff, cup, dice = table
    matches = [*season, finish([dice, cup, bluff, ace], [1, 2, 3, 4], kind="challenge")]
    html = page(client, "/matches/" + query.format(ace=ace.pk, cup=cup.pk))
    listed = {index for index, match in enumerate(matches) if f'"/matches/{match.pk}/"' in html}
    assert listed == expected


@pytest.mark.parametrize(
    ("query", "error"),
    [
        ("?result=won", "choose a bot"),
        ("?ladder=nowhere", "Select a valid choice"),
        ("?bot=999999", "Select a valid choice"),
        ("?bot=%3Cscript%3E", "Select a valid choice"),
        ("?page=0", "greater than or equal to 1"),
    ],
)
def test_a_bad_filter_is_a_clear_400(client: Client, table: list[Bot], query: str, error: str):
    answer = client.get("/matches/" + query)
    assert answer.status_code == 400
    assert error in answer.content.decode()
    assert "<script>" not in answer.content.decode()


def test_the_match_list_goes_page_by_page(
    client: Client, table: list[Bot], finish: Callable[..., Match], monkeypatch
) -> None:
    monkeypatch.setattr("web.views.matches.MATCHES_PER_PAGE", 2)
    matches = [finish(table, [1, 2, 3, 4]) for _ in range(3)]
    first = page(client, "/matches/?kind=ranked")
    assert f'"/matches/{matches[2].pk}/"' in first and f'"/matches/{matches[0].pk}/"' not in first
    assert "?kind=ranked&amp;page=2" in first
    second = page(client, "/matches/?kind=ranked&page=2")
    assert f'"/matches/{matches[0].pk}/"' in second and "older" not in second


def test_a_user_page_lists_their_bots_only(client: Client, table: list[Bot]) -> None:
    html = page(client, "/users/alice/")
    assert "ace" in html and "bluff" in html
    assert "cup" not in html
    assert client.get("/users/nobody/").status_code == 404


def queries(client: Client, path: str) -> int:
    cache.clear()  # the ladder's figures are kept for a while: count the queries that make them
    with CaptureQueriesContext(connection) as captured:
        page(client, path)
    return len(captured)


@pytest.mark.parametrize(
    ("path", "count"),
    [
        ("/ladders/mia-classic-4/", 8),  # with its retired bots, listed apart
        ("/bots/{ace}/", 11),  # opponents named, and the qualification matches by version
        ("/matches/", 3),
        ("/matches/?bot={ace}&result=won", 4),
        ("/matches/{match}/", 3),
        ("/users/alice/", 2),
    ],
)
def test_pages_take_a_fixed_number_of_queries_however_much_there_is(
    client: Client,
    table: list[Bot],
    season: list[Match],
    finish: Callable[..., Match],
    mia_ladder: Ladder,
    accepted_bot,
    bob: AbstractUser,
    path: str,
    count: int,
) -> None:
    ace = table[0]
    path = path.format(ace=ace.pk, match=season[0].pk)
    assert queries(client, path) == count
    more = [accepted_bot(owner=bob, ladder=mia_ladder, name=f"more{index}") for index in range(4)]
    for _ in range(3):
        finish([ace, *more[:3]], [1, 2, 3, 4])
        finish(more, [2, 1, 4, 3])
    assert queries(client, path) == count


def test_visitors_get_a_public_page_from_the_cache_and_signed_in_users_a_fresh_one(
    client: Client, season: list[Match], table: list[Bot], finish: Callable[..., Match], alice
) -> None:
    ace, bluff, cup, dice = table
    before = page(client, "/ladders/mia-classic-4/")
    finish([dice, cup, bluff, ace], [1, 2, 3, 4])
    with CaptureQueriesContext(connection) as captured:
        assert page(client, "/ladders/mia-classic-4/") == before
    assert len(captured) == 0
    assert "25%" not in before
    signed_in = Client()
    signed_in.force_login(alice)
    assert "25%" in page(signed_in, "/ladders/mia-classic-4/")  # dice won 1 of 4
    cache.clear()
    assert "25%" in page(client, "/ladders/mia-classic-4/")


def test_a_match_not_finished_yet_is_never_served_from_the_cache(
    client: Client, season: list[Match]
) -> None:
    running = season[0]
    Match.objects.filter(pk=running.pk).update(status=Match.Status.QUEUED)
    answer = client.get(f"/matches/{running.pk}/")
    assert "no-cache" in answer["Cache-Control"]
    assert queries_kept(client, f"/matches/{running.pk}/") > 0
    assert queries_kept(client, f"/matches/{season[1].pk}/") == 0  # a finished one is kept


def test_no_page_is_kept_when_the_setting_says_0(client: Client, season: list[Match], settings):
    settings.TAVOLO_PAGE_CACHE_SECONDS = 0
    page(client, "/matches/")
    assert queries_kept(client, "/matches/") > 0


def queries_kept(client: Client, path: str) -> int:
    """Queries of a second request for `path`, the cache left as the first one left it."""
    page(client, path)
    with CaptureQueriesContext(connection) as captured:
        page(client, path)
    return len(captured)
