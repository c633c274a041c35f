"""The owner's forms: create a bot, upload a version, read source and logs, challenge."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import AbstractUser
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from accounts.throttles import ChallengeThrottle, UploadThrottle
from bots.models import Bot, BotVersion
from bots.services import bot_version_upload
from ladders.models import Ladder
from matches.models import Match
from tests.platform.api.conftest import GOOD_SOURCE, token_client

GOOD = GOOD_SOURCE.encode()


def python_file(content: bytes, name: str = "bot.py") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type="text/x-python")


def stored() -> tuple[int, int]:
    return Bot.objects.count(), BotVersion.objects.count()


def test_the_account_form_creates_a_bot_and_shows_its_page(
    alice_browser: Client, ladders: dict[str, Ladder]
) -> None:
    answer = alice_browser.post(
        "/account/bots/",
        {"name": "liar", "ladder": "mia-classic-4", "file": python_file(GOOD)},
        follow=True,
    )
    bot = Bot.objects.get(name="liar")
    assert answer.redirect_chain[-1][0] == f"/bots/{bot.pk}/"
    assert "pending" in answer.content.decode()


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"file": python_file(b"")}, "empty"),
        ({"file": python_file(b"def act(o)\n")}, "syntax error"),
        ({"file": python_file(b"x = 1\n")}, "def act"),
        ({"file": python_file(b"\xff\xfe")}, "UTF-8"),
        ({"name": "has space"}, "bot name"),
        ({"ladder": "nowhere"}, "Select a valid choice"),
    ],
)
def test_the_create_form_shows_the_reason_and_stores_nothing(
    alice_browser: Client, ladders: dict[str, Ladder], fields: dict, words: str
) -> None:
    before = stored()
    body = {"name": "liar", "ladder": "mia-classic-4", "file": python_file(GOOD), **fields}
    answer = alice_browser.post("/account/bots/", body)
    assert answer.status_code == 400
    assert words in answer.content.decode()
    assert stored() == before


def test_the_create_form_refuses_a_name_already_on_the_ladder(
    alice_browser: Client, bob: AbstractUser, ladders: dict[str, Ladder]
) -> None:
    bot_version_upload(
        user=bob, ladder="mia-classic-4", bot_name="liar", source_bytes=GOOD, filename="liar.py"
    )
    before = stored()
    body = {"name": "liar", "ladder": "mia-classic-4", "file": python_file(GOOD + b"# mine\n")}
    answer = alice_browser.post("/account/bots/", body)
    assert answer.status_code == 400
    assert "already on mia-classic-4" in answer.content.decode()
    assert stored() == before


def test_the_owner_sees_the_upload_and_challenge_forms(
    alice_browser: Client, alice_bot: Bot
) -> None:
    html = alice_browser.get(f"/bots/{alice_bot.pk}/").content.decode()
    assert "Upload a new version" in html
    assert "Challenge" in html
    assert f"/bots/{alice_bot.pk}/versions/1/" in html


def test_the_upload_form_adds_a_version(alice_browser: Client, alice_bot: Bot) -> None:
    answer = alice_browser.post(
        f"/bots/{alice_bot.pk}/upload/", {"file": python_file(GOOD + b"# v2\n")}, follow=True
    )
    assert "Version 2 uploaded" in answer.content.decode()
    assert alice_bot.versions.count() == 2


def test_the_upload_form_refuses_a_bad_file_like_the_api(
    alice_browser: Client, alice_bot: Bot
) -> None:
    answer = alice_browser.post(
        f"/bots/{alice_bot.pk}/upload/", {"file": python_file(b"def decide(o):\n    pass\n")}
    )
    assert answer.status_code == 400
    assert "def act(observation):" in answer.content.decode()
    assert alice_bot.versions.count() == 1


def test_bob_cannot_upload_to_alices_bot(bob_browser: Client, alice_bot: Bot) -> None:
    answer = bob_browser.post(f"/bots/{alice_bot.pk}/upload/", {"file": python_file(GOOD + b"#")})
    assert answer.status_code == 403
    assert alice_bot.versions.count() == 1


def test_bob_cannot_challenge_with_alices_bot(
    bob_browser: Client, alice_bot: Bot, bob: AbstractUser, accepted_bot: Callable[..., Bot]
) -> None:
    rival = accepted_bot(owner=bob, ladder=alice_bot.ladder, name="rival")
    answer = bob_browser.post(f"/bots/{alice_bot.pk}/challenge/", {"opponents": [rival.pk]})
    assert answer.status_code == 403
    assert not Match.objects.exists()


def test_uploading_needs_a_login(client: Client, alice_bot: Bot) -> None:
    answer = client.post(f"/bots/{alice_bot.pk}/upload/", {"file": python_file(GOOD + b"#")})
    assert answer.status_code == 302
    assert alice_bot.versions.count() == 1


def test_the_owner_reads_source_and_qualification_log(
    alice_browser: Client, alice_bot: Bot
) -> None:
    BotVersion.objects.filter(bot=alice_bot).update(qualification_log="match 7: place 1")
    html = alice_browser.get(f"/bots/{alice_bot.pk}/versions/1/").content.decode()
    assert "observation[&quot;legal_actions&quot;]" in html or "legal_actions" in html
    assert "match 7: place 1" in html


def test_a_log_holding_markup_is_shown_as_text(alice_browser: Client, alice_bot: Bot) -> None:
    log = "<script>alert(1)</script> {{ x }} \x1b]52;c;aGk=\x07"
    BotVersion.objects.filter(bot=alice_bot).update(qualification_log=log)
    html = alice_browser.get(f"/bots/{alice_bot.pk}/versions/1/").content.decode()
    assert "<script>alert(1)" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; {{ x }}" in html


def test_no_template_turns_escaping_off() -> None:
    templates = list((Path(__file__).parents[3] / "platform").rglob("templates/**/*.html"))
    assert len(templates) > 10
    for path in templates:
        text = path.read_text()
        assert "|safe" not in text and "autoescape off" not in text, path


def test_bob_and_strangers_get_404_for_alices_source(
    bob_browser: Client, client: Client, alice_bot: Bot
) -> None:
    assert bob_browser.get(f"/bots/{alice_bot.pk}/versions/1/").status_code == 404
    assert client.get(f"/bots/{alice_bot.pk}/versions/1/").status_code == 404


def test_the_challenge_form_queues_a_match_and_shows_it(
    alice_browser: Client,
    alice_bot: Bot,
    bob: AbstractUser,
    accepted_bot: Callable[..., Bot],
) -> None:
    rival = accepted_bot(owner=bob, ladder=alice_bot.ladder, name="rival")
    answer = alice_browser.post(
        f"/bots/{alice_bot.pk}/challenge/", {"opponents": [rival.pk]}, follow=True
    )
    match = Match.objects.get(kind=Match.Kind.CHALLENGE)
    assert answer.redirect_chain[-1][0] == f"/matches/{match.pk}/"
    assert "queued" in answer.content.decode()


def test_the_challenge_form_shows_the_hourly_limit(
    alice_browser: Client, alice_bot: Bot, house: Bot, settings
) -> None:
    settings.TAVOLO_CHALLENGES_PER_HOUR = 0
    answer = alice_browser.post(f"/bots/{alice_bot.pk}/challenge/", {"opponents": [house.pk]})
    assert answer.status_code == 400
    assert "challenges an hour" in answer.content.decode()
    assert not Match.objects.exists()


@pytest.mark.parametrize("opponent", ["9" * 30, "-" + "9" * 30, "x", "-1"])
def test_the_challenge_form_refuses_an_impossible_opponent_id_with_a_400(
    alice_browser: Client, alice_bot: Bot, opponent: str
) -> None:
    alice_browser.raise_request_exception = False
    answer = alice_browser.post(f"/bots/{alice_bot.pk}/challenge/", {"opponents": [opponent]})
    assert answer.status_code == 400
    assert 'class="errorlist' in answer.content.decode()
    assert not Match.objects.exists()


def test_an_oversized_form_upload_is_a_413_that_says_why(
    alice_browser: Client, ladders: dict[str, Ladder]
) -> None:
    big = python_file(GOOD + b"#" * (2 * 1024 * 1024))
    answer = alice_browser.post(
        "/account/bots/", {"name": "liar", "ladder": "muggins-2", "file": big}
    )
    assert answer.status_code == 413
    assert "256 KiB" in answer.content.decode()
    assert not Bot.objects.filter(name="liar").exists()


def test_the_upload_form_refuses_two_files(alice_browser: Client, alice_bot: Bot) -> None:
    files = [python_file(GOOD, "one.py"), python_file(GOOD + b"# two\n", "two.py")]
    answer = alice_browser.post(f"/bots/{alice_bot.pk}/upload/", {"file": files})
    assert answer.status_code == 400
    assert "one file" in answer.content.decode()
    assert alice_bot.versions.count() == 1


def test_uploads_from_the_site_and_the_api_share_one_throttle(
    alice_browser: Client, alice_bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(UploadThrottle.THROTTLE_RATES, "uploads", "2/hour")
    api = token_client(alice_bot.owner)
    api_answer = api.post(
        f"/api/bots/{alice_bot.pk}/versions/", {"source": GOOD_SOURCE + "# 2\n"}, format="json"
    )
    form_answer = alice_browser.post(
        f"/bots/{alice_bot.pk}/upload/", {"file": python_file(GOOD + b"# 3\n")}
    )
    refused = alice_browser.post(
        f"/bots/{alice_bot.pk}/upload/", {"file": python_file(GOOD + b"# 4\n")}
    )
    created = alice_browser.post(
        "/account/bots/",
        {"name": "other", "ladder": alice_bot.ladder.slug, "file": python_file(GOOD)},
    )
    assert (api_answer.status_code, form_answer.status_code) == (201, 302)
    assert refused.status_code == created.status_code == 429
    assert "too many uploads" in refused.content.decode()
    assert alice_bot.versions.count() == 3
    assert not Bot.objects.filter(name="other").exists()


def test_challenges_from_the_site_count_against_the_api_throttle(
    alice_browser: Client, alice_bot: Bot, house: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(ChallengeThrottle.THROTTLE_RATES, "challenges", "1/hour")
    first = alice_browser.post(f"/bots/{alice_bot.pk}/challenge/", {"opponents": [house.pk]})
    second = alice_browser.post(f"/bots/{alice_bot.pk}/challenge/", {"opponents": [house.pk]})
    assert (first.status_code, second.status_code) == (302, 429)
    assert "too many challenges" in second.content.decode()
    assert Match.objects.filter(kind=Match.Kind.CHALLENGE).count() == 1
