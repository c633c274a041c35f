"""Bots and versions over the API: uploads, refusals that leave nothing, owner-only reads."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import AbstractUser
from django.core.files.uploadedfile import SimpleUploadedFile
from kombu.exceptions import OperationalError
from rest_framework.test import APIClient

from accounts.throttles import UploadThrottle
from bots.checks import MAX_SOURCE_BYTES
from bots.models import Bot, BotVersion
from ladders.models import Ladder
from tavolo_site.celery import app as celery_app
from tests.platform.api.conftest import GOOD_SOURCE

GOOD = GOOD_SOURCE.encode()


def python_file(content: bytes, name: str = "liar.py") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type="text/x-python")


def create(client: APIClient, content: bytes = GOOD, **fields: object):
    body = {"name": "liar", "ladder": "mia-classic-4", "file": python_file(content), **fields}
    return client.post("/api/bots/", body, format="multipart")


def stored() -> tuple[int, int]:
    return Bot.objects.count(), BotVersion.objects.count()


def test_a_multipart_upload_creates_the_bot_with_a_pending_version_one(
    alice_api: APIClient, ladders: dict[str, Ladder]
) -> None:
    answer = create(alice_api)
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert (body["name"], body["ladder"], body["owner"]) == ("liar", "mia-classic-4", "alice")
    assert body["latest_version"]["number"] == 1
    assert body["latest_version"]["status"] == "pending"
    assert body["current_version"] is None
    assert BotVersion.objects.get(bot_id=body["id"]).source == GOOD_SOURCE


def test_json_source_text_creates_a_bot_too(
    alice_api: APIClient, ladders: dict[str, Ladder]
) -> None:
    answer = alice_api.post(
        "/api/bots/",
        {"name": "liar", "ladder": "muggins-2", "source": GOOD_SOURCE},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    assert answer.json()["ladder"] == "muggins-2"


BAD_FILES = [
    pytest.param(b"", "empty", id="empty file"),
    pytest.param(b"def act(o):\n    return 1\n\0\x01\x02", "binary", id="binary"),
    pytest.param(b"def act(o):\n    return '\xff'\n", "UTF-8", id="not UTF-8"),
    pytest.param(GOOD + b"#" * MAX_SOURCE_BYTES, "256 KiB", id="over 256 KiB"),
    pytest.param(b"def act(o)\n    return 1\n", "syntax error", id="syntax error"),
    pytest.param(b"def decide(observation):\n    return {}\n", "def act", id="no act"),
]


@pytest.mark.parametrize(("content", "words"), BAD_FILES)
def test_a_bad_file_is_refused_with_a_clear_400_and_nothing_stored(
    alice_api: APIClient, ladders: dict[str, Ladder], content: bytes, words: str
) -> None:
    before = stored()
    answer = create(alice_api, content)
    assert answer.status_code == 400
    assert words in answer.json()["detail"]
    assert stored() == before


@pytest.mark.parametrize(
    ("fields", "key", "words"),
    [
        pytest.param({"ladder": "no-such-ladder"}, "detail", "no-such-ladder", id="unknown ladder"),
        pytest.param({"name": "has space"}, "detail", "bot name", id="bad name"),
        pytest.param({"file": python_file(GOOD, "liar.txt")}, "detail", ".py", id="not .py"),
    ],
)
def test_bad_fields_are_refused_with_a_clear_400_and_nothing_stored(
    alice_api: APIClient, ladders: dict[str, Ladder], fields: dict, key: str, words: str
) -> None:
    before = stored()
    answer = create(alice_api, **fields)
    assert answer.status_code == 400
    assert words in answer.json()[key]
    assert stored() == before


def test_neither_file_nor_source_is_a_400(alice_api: APIClient, ladders: dict[str, Ladder]) -> None:
    answer = alice_api.post("/api/bots/", {"name": "liar", "ladder": "muggins-2"}, format="json")
    assert answer.status_code == 400
    assert "file" in answer.json()["detail"]


def test_a_duplicate_bot_name_is_a_400_even_for_its_owner(
    alice_api: APIClient, ladders: dict[str, Ladder]
) -> None:
    assert create(alice_api).status_code == 201
    before = stored()
    answer = create(alice_api, GOOD + b"# another file\n")
    assert answer.status_code == 400
    assert "already on mia-classic-4" in answer.json()["name"][0]
    assert stored() == before


def test_a_name_taken_by_another_user_is_a_400(
    alice_api: APIClient, bob_api: APIClient, ladders: dict[str, Ladder]
) -> None:
    create(alice_api)
    before = stored()
    answer = create(bob_api, GOOD + b"# bob\n")
    assert answer.status_code == 400
    assert stored() == before


def test_creating_a_bot_needs_a_login(anonymous: APIClient, ladders: dict[str, Ladder]) -> None:
    before = stored()
    assert create(anonymous).status_code == 401
    assert stored() == before


@pytest.fixture
def alice_bot(alice_api: APIClient, ladders: dict[str, Ladder]) -> dict:
    return create(alice_api).json()


def test_the_owner_uploads_version_two(alice_api: APIClient, alice_bot: dict) -> None:
    answer = alice_api.post(
        f"/api/bots/{alice_bot['id']}/versions/",
        {"file": python_file(GOOD + b"# v2\n")},
        format="multipart",
    )
    assert answer.status_code == 201, answer.json()
    assert answer.json()["number"] == 2
    listing = alice_api.get(f"/api/bots/{alice_bot['id']}/versions/").json()
    assert [version["number"] for version in listing["results"]] == [2, 1]


def test_an_unchanged_file_is_not_a_new_version(alice_api: APIClient, alice_bot: dict) -> None:
    answer = alice_api.post(
        f"/api/bots/{alice_bot['id']}/versions/", {"source": GOOD_SOURCE}, format="json"
    )
    assert answer.status_code == 400
    assert "identical to version 1" in answer.json()["detail"]


def test_another_users_bot_takes_no_upload_from_bob(bob_api: APIClient, alice_bot: dict) -> None:
    before = stored()
    answer = bob_api.post(
        f"/api/bots/{alice_bot['id']}/versions/", {"source": GOOD_SOURCE + "#"}, format="json"
    )
    assert answer.status_code == 403
    assert "another user" in answer.json()["detail"]
    assert stored() == before


def test_version_status_is_public(anonymous: APIClient, alice_bot: dict) -> None:
    answer = anonymous.get(f"/api/bots/{alice_bot['id']}/versions/1/")
    assert answer.status_code == 200
    assert answer.json()["status"] == "pending"
    assert "source" not in answer.json()


def test_an_unknown_version_is_a_404(anonymous: APIClient, alice_bot: dict) -> None:
    assert anonymous.get(f"/api/bots/{alice_bot['id']}/versions/9/").status_code == 404


def test_the_owner_reads_the_source_and_the_qualification_log(
    alice_api: APIClient, alice_bot: dict
) -> None:
    BotVersion.objects.filter(bot_id=alice_bot["id"]).update(qualification_log="all fine")
    source = alice_api.get(f"/api/bots/{alice_bot['id']}/versions/1/source/")
    log = alice_api.get(f"/api/bots/{alice_bot['id']}/versions/1/log/")
    assert source.json() == {"number": 1, "source": GOOD_SOURCE}
    assert log.json() == {"log": "all fine"}


@pytest.mark.parametrize("what", ["source", "log"])
def test_bob_and_strangers_get_404_for_alices_source_and_log(
    bob_api: APIClient, anonymous: APIClient, alice_bot: dict, what: str
) -> None:
    path = f"/api/bots/{alice_bot['id']}/versions/1/{what}/"
    assert bob_api.get(path).status_code == 404
    assert anonymous.get(path).status_code == 404


def test_staff_may_read_any_source(alice_bot: dict, db: None) -> None:
    from accounts.services import user_create
    from tests.platform.api.conftest import token_client

    staff = token_client(user_create(username="carol", password="carol-password-1", is_staff=True))
    assert staff.get(f"/api/bots/{alice_bot['id']}/versions/1/source/").status_code == 200


def test_bots_are_listed_by_ladder_name_and_owner(
    anonymous: APIClient,
    alice: AbstractUser,
    bob: AbstractUser,
    accepted_bot: Callable[..., Bot],
    ladders: dict[str, Ladder],
) -> None:
    accepted_bot(owner=alice, ladder=ladders["mia-classic-4"], name="liar")
    accepted_bot(owner=bob, ladder=ladders["mia-classic-4"], name="honest")
    accepted_bot(owner=bob, ladder=ladders["muggins-2"], name="liar")

    def names(query: str) -> list[tuple[str, str]]:
        answer = anonymous.get(f"/api/bots/{query}")
        assert answer.status_code == 200
        return sorted((bot["owner"], bot["ladder"]) for bot in answer.json()["results"])

    assert names("?name=liar") == [("alice", "mia-classic-4"), ("bob", "muggins-2")]
    assert names("?owner=bob&ladder=muggins-2") == [("bob", "muggins-2")]
    assert len(names("?ladder=mia-classic-4")) == 4  # two house bots and two users' bots


def test_an_unknown_ladder_is_a_400(anonymous: APIClient, db: None) -> None:
    answer = anonymous.get("/api/bots/?ladder=nowhere")
    assert answer.status_code == 400
    assert "no" in str(answer.json())


def test_an_unknown_owner_is_answered_as_an_owner_without_bots(
    anonymous: APIClient, alice: AbstractUser
) -> None:
    unknown = anonymous.get("/api/bots/?owner=nobody")
    without_bots = anonymous.get("/api/bots/?owner=alice")
    assert unknown.status_code == without_bots.status_code == 200
    assert (
        unknown.json()
        == without_bots.json()
        == {
            "count": 0,
            "next": None,
            "previous": None,
            "results": [],
        }
    )


def test_bot_detail_shows_rating_band_and_provisional_mark(
    anonymous: APIClient, alice: AbstractUser, accepted_bot, mia_ladder: Ladder
) -> None:
    bot = accepted_bot(
        owner=alice, ladder=mia_ladder, name="liar", rating=1612.6, games=25, deviation=45.0
    )
    body = anonymous.get(f"/api/bots/{bot.pk}/").json()
    assert body["rating"] == 1613  # whole points
    assert body["games"] == 25
    assert body["provisional"] is False
    assert body["band"] == 90
    assert body["current_version"] == 1


def test_an_unknown_bot_is_a_404(anonymous: APIClient, db: None) -> None:
    assert anonymous.get("/api/bots/999/").status_code == 404


def test_uploads_are_throttled_per_user(
    alice_api: APIClient, ladders: dict[str, Ladder], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(UploadThrottle.THROTTLE_RATES, "uploads", "2/hour")
    answers = [create(alice_api, GOOD, name=f"bot-{n}").status_code for n in range(3)]
    assert answers == [201, 201, 429]
    assert "throttled" in create(alice_api, GOOD, name="bot-x").json()["detail"]
    assert alice_api.get("/api/bots/").status_code == 200, "reads are never throttled"


HUGE = GOOD + b"#" * (2 * 1024 * 1024)


def test_an_oversized_multipart_upload_is_a_413_in_json(
    alice_api: APIClient, ladders: dict[str, Ladder]
) -> None:
    answer = create(alice_api, HUGE)
    assert answer.status_code == 413
    assert "256 KiB" in answer.json()["detail"]
    assert not Bot.objects.filter(name="liar").exists()


def test_an_oversized_json_body_is_a_413_in_json(
    alice_api: APIClient, ladders: dict[str, Ladder]
) -> None:
    body = {"name": "liar", "ladder": "muggins-2", "source": HUGE.decode()}
    answer = alice_api.post("/api/bots/", body, format="json")
    assert answer.status_code == 413
    assert "256 KiB" in answer.json()["detail"]
    assert not Bot.objects.filter(name="liar").exists()


def test_two_files_in_one_upload_are_a_400_and_nothing_stored(
    alice_api: APIClient, ladders: dict[str, Ladder]
) -> None:
    files = [python_file(GOOD, "one.py"), python_file(GOOD + b"# two\n", "two.py")]
    answer = create(alice_api, file=files)
    assert answer.status_code == 400
    assert "one file" in answer.json()["file"][0]
    assert not Bot.objects.filter(name="liar").exists()


@pytest.mark.django_db(transaction=True)
def test_an_upload_is_stored_and_answered_when_the_queue_is_down(
    alice_api: APIClient, ladders: dict[str, Ladder], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broker_down(*args: object, **options: object) -> None:
        raise OperationalError("the broker is unreachable")

    monkeypatch.setattr(celery_app, "send_task", broker_down)
    answer = create(alice_api)
    assert answer.status_code == 201
    version = BotVersion.objects.get(bot__name="liar")
    assert version.status == BotVersion.Status.PENDING, "bot_versions_recover sends it later"
