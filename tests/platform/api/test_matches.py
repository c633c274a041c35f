"""Matches over the API: filters, details with places and ratings, replays and seat logs."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable

import pytest
from django.contrib.auth.models import AbstractUser
from rest_framework.test import APIClient

from bots.models import Bot
from ladders.models import Ladder
from matches.models import Match
from matches.services import match_create


@pytest.fixture
def alice_bot(alice: AbstractUser, accepted_bot: Callable[..., Bot], muggins_ladder) -> Bot:
    return accepted_bot(owner=alice, ladder=muggins_ladder, name="domino")


@pytest.fixture
def played(play_match: Callable[..., Match], alice_bot: Bot, house: Bot) -> Match:
    return play_match(alice_bot.ladder, alice_bot, house)


def test_a_match_shows_seats_places_and_rating_changes(
    anonymous: APIClient, played: Match, alice_bot: Bot
) -> None:
    answer = anonymous.get(f"/api/matches/{played.pk}/")
    assert answer.status_code == 200
    body = answer.json()
    assert body["status"] == "finished"
    assert [seat["bot"] for seat in body["seats"]] == ["domino", "builtin:strong"]
    assert sorted(seat["place"] for seat in body["seats"]) in ([1, 2], [1, 1])
    changes = {change["bot"]: change for change in body["rating_changes"]}
    assert changes["domino"]["before"] == 1500.0
    assert changes["domino"]["after"] == round(Bot.objects.get(pk=alice_bot.pk).rating)
    assert changes["domino"]["band_before"] == 840.0
    assert changes["domino"]["band_after"] < 840.0
    [versus] = changes["domino"]["versus"]
    assert (versus["seat"], versus["bot"]) == (1, "builtin:strong")
    assert versus["points"] == pytest.approx(changes["domino"]["after"] - 1500.0, abs=0.5)
    assert changes["domino"]["earlier"] == pytest.approx(0.0, abs=1e-6)  # its first match
    assert body["seed"] == played.seed
    assert body["replay_url"].endswith(f"/api/matches/{played.pk}/replay/")


def test_the_replay_downloads_as_a_gzipped_json_file(anonymous: APIClient, played: Match) -> None:
    answer = anonymous.get(f"/api/matches/{played.pk}/replay/")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/gzip"
    assert f'filename="tavolo-match-{played.pk}.json.gz"' in answer["Content-Disposition"]
    replay = json.loads(gzip.decompress(answer.content))
    assert replay["format"] == "tavolo-replay"
    assert replay["game"] == "muggins"


def test_a_queued_match_has_no_seed_and_no_replay_yet(
    anonymous: APIClient, alice_bot: Bot, house: Bot
) -> None:
    match = match_create(
        ladder=alice_bot.ladder,
        kind=Match.Kind.RANKED,
        versions=[alice_bot.current_version, house.current_version],
        enqueue=False,
    )
    body = anonymous.get(f"/api/matches/{match.pk}/").json()
    assert (body["status"], body["seed"], body["replay_url"]) == ("queued", None, None)
    assert anonymous.get(f"/api/matches/{match.pk}/replay/").status_code == 404


def test_matches_are_filtered_by_ladder_and_by_bot(
    anonymous: APIClient,
    play_match: Callable[..., Match],
    alice_bot: Bot,
    house: Bot,
    ladders: dict[str, Ladder],
) -> None:
    mine = play_match(alice_bot.ladder, alice_bot, house)
    houses_only = play_match(
        alice_bot.ladder, house, Bot.objects.get(ladder=alice_bot.ladder, name="builtin:random")
    )
    other = ladders["muggins-4"]
    other_house = list(Bot.objects.filter(ladder=other))
    elsewhere = play_match(other, *other_house, *other_house)

    def ids(query: str) -> set[int]:
        answer = anonymous.get(f"/api/matches/{query}")
        assert answer.status_code == 200
        return {match["id"] for match in answer.json()["results"]}

    assert ids("") == {mine.pk, houses_only.pk, elsewhere.pk}
    assert ids("?ladder=muggins-2") == {mine.pk, houses_only.pk}
    assert ids(f"?bot={alice_bot.pk}") == {mine.pk}
    assert ids(f"?ladder=muggins-4&bot={alice_bot.pk}") == set()
    assert ids("?kind=challenge") == set()


@pytest.mark.parametrize("query", ["?ladder=nowhere", "?bot=999999", "?kind=friendly"])
def test_a_bad_match_filter_is_a_400(anonymous: APIClient, db: None, query: str) -> None:
    assert anonymous.get(f"/api/matches/{query}").status_code == 400


def test_an_unknown_match_is_a_404(anonymous: APIClient, db: None) -> None:
    assert anonymous.get("/api/matches/12345/").status_code == 404
    assert anonymous.get("/api/matches/12345/replay/").status_code == 404


def test_a_seat_log_is_for_the_bots_owner_only(
    alice_api: APIClient, bob_api: APIClient, anonymous: APIClient, played: Match
) -> None:
    path = f"/api/matches/{played.pk}/seats/0/log/"
    assert alice_api.get(path).status_code == 200
    assert "log" in alice_api.get(path).json()
    assert bob_api.get(path).status_code == 404
    assert anonymous.get(path).status_code == 404


def test_a_bots_rating_history_shows_each_ranked_match_and_the_points_per_opponent(
    anonymous: APIClient, played: Match, alice_bot: Bot
) -> None:
    answer = anonymous.get(f"/api/bots/{alice_bot.pk}/ratings/")
    assert answer.status_code == 200
    [line] = answer.json()["results"]
    assert (line["match_id"], line["version"], line["games_before"]) == (played.pk, 1, 0)
    assert [entry["bot"] for entry in line["versus"]] == ["builtin:strong"]
    assert line["finished_at"] is not None
    assert anonymous.get("/api/bots/999/ratings/").status_code == 404
