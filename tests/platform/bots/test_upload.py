"""Uploading a bot version: every bad input is refused clearly and leaves nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from bots.checks import MAX_SOURCE_BYTES, bot_file_read
from bots.models import Bot, BotVersion
from bots.services import bot_version_upload
from ladders.models import Ladder

GOOD = b"def act(observation):\n    return observation['legal_actions'][0]\n"


@pytest.fixture
def ladder(db: None) -> Ladder:
    """An active ladder (no house bots needed to upload)."""
    return Ladder.objects.create(slug="mia-test", name="Mia test", game="mia", seats=2)


def upload(user: AbstractUser, ladder: Ladder | str, source: bytes = GOOD, **kwargs: object):
    arguments = {"bot_name": "liar", "filename": "liar.py", **kwargs}
    return bot_version_upload(user=user, ladder=ladder, source_bytes=source, **arguments)


def assert_refused(code: str, call: Callable[[], object]) -> ValidationError:
    bots, versions = Bot.objects.count(), BotVersion.objects.count()
    with pytest.raises(ValidationError) as refused:
        call()
    assert refused.value.code == code
    assert (Bot.objects.count(), BotVersion.objects.count()) == (bots, versions)
    return refused.value


def test_a_good_upload_creates_the_bot_and_a_pending_version(
    alice: AbstractUser, ladder: Ladder, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks() as callbacks:
        version = upload(alice, ladder)
    assert version.number == 1
    assert version.status == BotVersion.Status.PENDING
    assert version.source == GOOD.decode()
    assert version.size == len(GOOD)
    assert len(version.sha256) == 64
    assert version.bot.owner == alice
    assert version.bot.current_version is None
    assert len(callbacks) == 1, "qualification is sent once the upload commits"


def test_a_second_upload_adds_version_two_of_the_same_bot(
    alice: AbstractUser, ladder: Ladder
) -> None:
    first = upload(alice, ladder)
    second = upload(alice, ladder, GOOD + b"# better\n")
    assert second.bot == first.bot
    assert second.number == 2


def test_an_upload_can_name_the_ladder_by_slug(alice: AbstractUser, ladder: Ladder) -> None:
    assert upload(alice, "mia-test").bot.ladder == ladder


@pytest.mark.parametrize(
    ("source", "code", "words"),
    [
        (b"", "empty", "empty"),
        (b"  \n\n", "empty", "empty"),
        (b"def act(o):\n    return 1\n\0\0\x01", "binary", "binary"),
        (b"def act(o):\n    return '\xff\xfe'\n", "not_utf8", "UTF-8"),
        (b"def act(o)\n    return 1\n", "syntax_error", "line 1"),
        (b"def decide(observation):\n    return {}\n", "no_act", "def act"),
        (b"act = lambda observation: {}\n", "no_act", "def act"),
        (b"class Bot:\n    def act(self, o):\n        return {}\n", "no_act", "top-level"),
        (b"def act():\n    return {}\n", "act_signature", "one argument"),
    ],
)
def test_bad_source_is_refused_with_a_clear_reason(
    alice: AbstractUser, ladder: Ladder, source: bytes, code: str, words: str
) -> None:
    error = assert_refused(code, lambda: upload(alice, ladder, source))
    assert words in error.message


def test_a_file_over_256_kib_is_refused(alice: AbstractUser, ladder: Ladder) -> None:
    source = GOOD + b"#" * (MAX_SOURCE_BYTES - len(GOOD) + 1)
    error = assert_refused("too_large", lambda: upload(alice, ladder, source))
    assert "256 KiB" in error.message


def test_a_file_of_exactly_256_kib_is_taken(alice: AbstractUser, ladder: Ladder) -> None:
    source = GOOD + b"#" * (MAX_SOURCE_BYTES - len(GOOD))
    assert upload(alice, ladder, source).size == MAX_SOURCE_BYTES


@pytest.mark.parametrize("filename", ["bot.txt", "bot.zip", "dir/bot.py", "bot.py.gz", ".py"])
def test_anything_but_one_python_file_is_refused(
    alice: AbstractUser, ladder: Ladder, filename: str
) -> None:
    assert_refused("not_python", lambda: upload(alice, ladder, filename=filename))


@pytest.mark.parametrize("name", ["", "x", "has space", "-dash-first", "a" * 41, "builtin:strong"])
def test_a_bad_bot_name_is_refused(alice: AbstractUser, ladder: Ladder, name: str) -> None:
    assert_refused("bad_name", lambda: upload(alice, ladder, bot_name=name))


def test_an_unknown_ladder_is_refused(alice: AbstractUser, db: None) -> None:
    error = assert_refused("unknown_ladder", lambda: upload(alice, "no-such-ladder"))
    assert "no-such-ladder" in error.message


def test_an_inactive_ladder_takes_no_uploads(alice: AbstractUser, ladder: Ladder) -> None:
    ladder.active = False
    ladder.save()
    assert_refused("ladder_inactive", lambda: upload(alice, ladder))


def test_a_name_taken_by_another_user_on_the_ladder_is_refused(
    alice: AbstractUser, bob: AbstractUser, ladder: Ladder
) -> None:
    upload(alice, ladder)
    error = assert_refused("name_taken", lambda: upload(bob, ladder, GOOD + b"# bob's\n"))
    assert "another user" in error.message
    assert Bot.objects.get().owner == alice


def test_a_new_bot_upload_never_adds_a_version_to_a_bot_of_that_name(
    alice: AbstractUser, ladder: Ladder
) -> None:
    upload(alice, ladder)
    with pytest.raises(ValidationError) as refused:
        upload(alice, ladder, GOOD + b"# again\n", new_bot=True)
    (error,) = refused.value.error_dict["name"]
    assert error.code == "name_taken"
    assert "already on mia-test" in error.message
    assert BotVersion.objects.count() == 1


def test_the_same_name_is_free_on_another_ladder(
    alice: AbstractUser, bob: AbstractUser, ladder: Ladder
) -> None:
    other = Ladder.objects.create(slug="mia-other", name="Mia other", game="mia", seats=3)
    upload(alice, ladder)
    assert upload(bob, other).bot.owner == bob


def test_an_identical_file_is_not_stored_twice(alice: AbstractUser, ladder: Ladder) -> None:
    upload(alice, ladder)
    error = assert_refused("unchanged", lambda: upload(alice, ladder))
    assert "version 1" in error.message


def test_a_refused_upload_sends_nothing_to_the_workers(
    alice: AbstractUser, ladder: Ladder, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks() as callbacks, pytest.raises(ValidationError):
        upload(alice, ladder, b"")
    assert callbacks == []


class UnreadableFile(SimpleUploadedFile):
    """An upload that fails the test if anything reads it."""

    def read(self, *args: object) -> bytes:
        raise AssertionError("the file was read")


def test_a_file_over_256_kib_is_refused_by_its_size_before_it_is_read() -> None:
    with pytest.raises(ValidationError, match="256 KiB") as refusal:
        bot_file_read(UnreadableFile("liar.py", b"#" * (MAX_SOURCE_BYTES + 1)))
    assert refusal.value.code == "too_large"


def test_a_file_within_the_limit_is_read_whole() -> None:
    assert bot_file_read(SimpleUploadedFile("liar.py", GOOD)) == GOOD
