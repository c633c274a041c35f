"""Shared fixtures of the platform tests: named users, ladders, storage, Celery modes."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.contrib.auth.models import AbstractUser
from django.core.cache import caches
from django.test import TestCase
from pytest_django.fixtures import Settings

from accounts.services import user_create
from bots.house import ladders_seed
from bots.models import Bot, BotVersion
from bots.services import bot_version_upload
from ladders.models import Ladder
from ladders.ratings import initial_deviation
from matches.finish import match_finish
from matches.models import Match
from matches.playing import MatchOutcome, SeatOutcome
from matches.services import match_create
from qualification.services import bot_version_qualify
from tavolo_site.celery import app as celery_app

BOT_FILES = Path(__file__).parent / "bot_files"
"""Bot files written for the tests (good, crashing, illegal...)."""


@pytest.fixture
def bot_source() -> Callable[[str], bytes]:
    """Read a test bot file by name, e.g. ``bot_source("first_legal.py")``."""
    return lambda name: (BOT_FILES / name).read_bytes()


@pytest.fixture(autouse=True)
def media_root(settings: Settings, tmp_path: Path) -> Path:
    """Replays and logs of each test go to its own folder."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Settings) -> None:
    """Hash test passwords cheaply: the named users are made for almost every test."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def database(db: None) -> None:
    """The database the named fixtures write to: pytest-django's test database.

    The integration tests override it with a fresh PostgreSQL database.
    """


@pytest.fixture
def alice(database: None) -> AbstractUser:
    return user_create(username="alice", password="alice-password-1")


@pytest.fixture
def bob(database: None) -> AbstractUser:
    return user_create(username="bob", password="bob-password-1")


@pytest.fixture
def ladders(database: None) -> dict[str, Ladder]:
    """The default ladders with their house bots."""
    return {ladder.slug: ladder for ladder in ladders_seed()}


@pytest.fixture
def mia_ladder(ladders: dict[str, Ladder]) -> Ladder:
    return ladders["mia-classic-4"]


@pytest.fixture
def muggins_ladder(ladders: dict[str, Ladder]) -> Ladder:
    return ladders["muggins-2"]


FIRST_LEGAL = "def act(observation):\n    return observation['legal_actions'][0]\n"


@pytest.fixture
def accepted_bot(database: None) -> Callable[..., Bot]:
    """Make a user bot with an accepted current version, without running qualification.

    The rating (value, deviation, games) is its version's, which started there.
    """

    def make(
        *,
        owner: AbstractUser,
        ladder: Ladder,
        name: str,
        rating: float = 1500.0,
        games: int = 0,
        deviation: float | None = None,
    ) -> Bot:
        if deviation is None:
            deviation = initial_deviation()
        state = {"rating": rating, "deviation": deviation, "games": games}
        bot = Bot.objects.create(owner=owner, ladder=ladder, name=name, **state)
        source = FIRST_LEGAL + f"# {name}\n"
        return current_version_make(
            bot, source, number=1, start_rating=rating, start_deviation=deviation, **state
        )

    return make


def current_version_make(bot: Bot, source: str, *, number: int, **fields: object) -> Bot:
    """Give `bot` a new accepted version `number` running `source`, as its current one."""
    bot.current_version = BotVersion.objects.create(
        bot=bot,
        number=number,
        source=source,
        sha256=hashlib.sha256(source.encode()).hexdigest(),
        size=len(source),
        status=BotVersion.Status.ACCEPTED,
        **fields,
    )
    bot.save()
    return bot


@pytest.fixture
def finish() -> Callable[..., Match]:
    """Record a match of `bots` (in seat order) that ended in `places`, without playing it."""

    def finish(bots: list[Bot], places: list[int], kind: str = Match.Kind.RANKED) -> Match:
        match = match_create(
            ladder=bots[0].ladder,
            kind=kind,
            versions=[bot.current_version for bot in bots],
            enqueue=False,
        )
        outcome = MatchOutcome(
            result={"places": places},
            seats=[SeatOutcome(place=place) for place in places],
            decisions=1,
        )
        assert match_finish(match_id=match.pk, outcome=outcome)
        return match

    return finish


@contextmanager
def tasks_eager() -> Iterator[None]:
    """Run tasks in the calling process while inside."""
    saved = celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates
    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True
    try:
        yield
    finally:
        celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = saved


@pytest.fixture
def celery_eager() -> Iterator[None]:
    """Run tasks in the calling process, where a real worker is not the point."""
    with tasks_eager():
        yield


def version_qualify_played(version_id: int) -> BotVersion | None:
    """Qualify a version as the workers would, in this process: `bot_version_qualify`, then
    each match it sends, each once the one before it commits; the version as that leaves it."""
    with tasks_eager(), TestCase.captureOnCommitCallbacks(execute=True):
        bot_version_qualify(version_id=version_id, worker="test-worker")
    return BotVersion.objects.select_related("bot").filter(id=version_id).first()


@pytest.fixture
def qualify() -> Callable[[BotVersion], BotVersion]:
    """Qualify a version to its verdict, its matches played here (`version_qualify_played`)."""

    def played(version: BotVersion) -> BotVersion:
        qualified = version_qualify_played(version.pk)
        assert qualified is not None, f"version {version.pk} was deleted"
        return qualified

    return played


@pytest.fixture
def unjailed(settings: Settings) -> None:
    """Allow uploaded test bots to run without the jail, as in development."""
    settings.TAVOLO_ALLOW_UNJAILED = True


@pytest.fixture
def rejected_bot(unjailed: None, bot_source: Callable[[str], bytes]) -> Callable[..., Bot]:
    """Make a user bot whose only version crashed in qualification: a real qualification
    match, played unjailed, with its replay and the bot's log in storage."""

    def make(*, owner: AbstractUser, ladder: Ladder, name: str = "crasher") -> Bot:
        uploaded = bot_version_upload(
            user=owner,
            ladder=ladder,
            bot_name=name,
            source_bytes=bot_source("crashing.py"),
            filename=f"{name}.py",
        )
        version = version_qualify_played(uploaded.pk)
        assert version is not None and version.status == BotVersion.Status.REJECTED
        return version.bot

    return make


@pytest.fixture
def match_files(media_root: Path) -> Callable[[Bot], list[Path]]:
    """The stored files (replays, seat logs) of the matches `bot` played, as paths."""

    def files(bot: Bot) -> list[Path]:
        matches = Match.objects.filter(seats__bot=bot).distinct()
        names = [match.replay.name for match in matches]
        for match in matches:
            names += [
                name
                for seat in match.seats.all()
                for name in (seat.log.name, seat.log_entries.name)
            ]
        return [media_root / name for name in names if name]

    return files


@pytest.fixture(autouse=True)
def fresh_cache(settings: Settings, tmp_path: Path) -> None:
    """Each test starts with empty caches: no page, frames, throttle count or password
    failure of another. A cache in files is kept in the test's own folder, so that test
    runs side by side never share one."""
    settings.CACHES = {
        alias: {**config, "LOCATION": str(tmp_path / "cache" / alias)}
        if config["BACKEND"].endswith("SharedFileCache")
        else config
        for alias, config in settings.CACHES.items()
    }
    for alias in settings.CACHES:
        caches[alias].clear()
