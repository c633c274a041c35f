"""The public pages render with their key content, and unknown objects are 404s."""

from __future__ import annotations

import gzip
import json

import pytest
from django.test import Client
from pytest_django.fixtures import Settings

from bots.models import Bot
from ladders.models import Ladder
from ladders.ratings import rating_shown
from matches.models import Match


def page(client: Client, path: str) -> str:
    answer = client.get(path)
    assert answer.status_code == 200, f"{path}: {answer.status_code}"
    return answer.content.decode()


def test_home_explains_tavolo_and_shows_ladders_with_top_bots_and_recent_matches(
    client: Client, played: Match
) -> None:
    html = page(client, "/")
    assert "Mia" in html and "Muggins" in html
    assert "Muggins, 2 players" in html
    assert "domino" in html
    assert f"/matches/{played.pk}/" in html


def test_the_ladders_page_lists_every_ladder(client: Client, ladders: dict[str, Ladder]) -> None:
    html = page(client, "/ladders/")
    for ladder in ladders.values():
        assert f"/ladders/{ladder.slug}/" in html


def test_a_ladder_page_shows_standings_with_band_and_provisional_mark(
    client: Client, played: Match, alice_bot: Bot
) -> None:
    html = page(client, "/ladders/muggins-2/")
    assert "domino" in html
    assert "alice" in html
    band = rating_shown(Bot.objects.get(pk=alice_bot.pk).rating_state).band
    assert f"± {band:.0f}" in html
    assert "provisional" in html
    assert f"/matches/{played.pk}/" in html


def test_a_bot_page_shows_versions_rating_history_and_matches(
    client: Client, played: Match, alice_bot: Bot
) -> None:
    html = page(client, f"/bots/{alice_bot.pk}/")
    assert "v1" in html and "accepted" in html
    assert f"#{played.pk}" in html
    assert "Upload a new version" not in html
    assert "source and log" not in html


def test_a_match_page_shows_seats_places_ratings_and_the_replay_link(
    client: Client, played: Match
) -> None:
    html = page(client, f"/matches/{played.pk}/")
    assert "domino" in html and "builtin:strong" in html
    assert "1500 →" in html
    assert f"/matches/{played.pk}/replay.json.gz" in html
    assert 'class="tavolo-viewer"' in html and "tavolo-viewer/main.js" in html


def test_the_replay_downloads_gzipped_with_its_file_name(client: Client, played: Match) -> None:
    answer = client.get(f"/matches/{played.pk}/replay.json.gz")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/gzip"
    assert answer["Content-Disposition"] == (
        f'attachment; filename="tavolo-match-{played.pk}.json.gz"'
    )
    assert json.loads(gzip.decompress(answer.content))["format"] == "tavolo-replay"


def test_the_replay_downloads_as_plain_json_with_its_file_name(
    client: Client, played: Match
) -> None:
    answer = client.get(f"/matches/{played.pk}/replay.json")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/json"
    assert answer["Content-Disposition"] == f'attachment; filename="tavolo-match-{played.pk}.json"'
    assert json.loads(answer.content)["format"] == "tavolo-replay"


def test_the_first_replay_address_leads_to_the_gzipped_download(
    client: Client, played: Match
) -> None:
    answer = client.get(f"/matches/{played.pk}/replay/")
    assert answer.status_code == 301
    assert answer["Location"] == f"/matches/{played.pk}/replay.json.gz"


@pytest.mark.parametrize("suffix", ["replay.json", "replay.json.gz"])
def test_a_match_without_a_replay_has_no_download(
    client: Client, played: Match, suffix: str
) -> None:
    Match.objects.filter(pk=played.pk).update(status=Match.Status.RUNNING)
    assert client.get(f"/matches/{played.pk}/{suffix}").status_code == 404


def test_the_ratings_page_explains_the_chosen_systems_maths(client: Client, db: None) -> None:
    html = page(client, "/ratings/")
    for words in ("Glicko", "= 420", "1 / (N", "provisional", "above\n80", "± 840"):
        assert words in html
    assert "widened by\n200" in html
    assert "<em>current</em> rating" in html
    assert "from earlier results re-read" in html


def test_the_ratings_page_explains_glicko_when_chosen(
    client: Client, db: None, settings: Settings
) -> None:
    settings.TAVOLO_RATING_SYSTEM = "glicko"
    html = page(client, "/ratings/")
    assert "the evidence of the match is added" in html
    assert "re-read" not in html


def test_the_ratings_page_follows_the_setting(client: Client, db: None, settings: Settings) -> None:
    settings.TAVOLO_RATING_SYSTEM = "elo"
    html = page(client, "/ratings/")
    assert "720 / (1 + n)" in html
    assert "± 408" in html


def test_the_write_a_bot_page_points_to_new_bot_and_the_docs(
    client: Client, ladders: dict[str, Ladder]
) -> None:
    html = page(client, "/write-a-bot/")
    assert "tavolo new-bot" in html
    assert "docs/bot-api.md" in html
    assert "mia-classic-4" in html


@pytest.mark.parametrize("path", ["/ladders/nowhere/", "/bots/999/", "/matches/999/"])
def test_unknown_objects_are_404(client: Client, db: None, path: str) -> None:
    assert client.get(path).status_code == 404


def test_only_the_owner_gets_a_link_to_their_seats_log(
    alice_browser: Client, bob_browser: Client, client: Client, played: Match
) -> None:
    log_path = f"/matches/{played.pk}/seats/0/log/"
    assert log_path in page(alice_browser, f"/matches/{played.pk}/")
    assert log_path not in page(bob_browser, f"/matches/{played.pk}/")
    assert "only its owner" in page(alice_browser, log_path).lower()
    assert bob_browser.get(log_path).status_code == 404
    assert client.get(log_path).status_code == 404
    assert alice_browser.get(f"/matches/{played.pk}/seats/7/log/").status_code == 404
