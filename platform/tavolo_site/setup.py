"""Setting up a fresh site: the database, the first users, the ladders and example bots.

`site_setup` is what `tavolo standalone` does before it starts its processes;
it can run any number of times, and only creates what is missing.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management import call_command

from accounts.services import user_create
from bots.house import ladders_seed
from bots.models import Bot
from bots.services import bot_version_upload
from ladders.models import Ladder
from matches.playing import jail_available
from matches.services import matches_recover
from qualification.services import bot_versions_recover

EXAMPLES_DIR = Path(__file__).resolve().parent.parent / "bots" / "examples"
"""Example bots, named ``<game>_<bot name>.py``, uploaded for the demo user."""

ADMIN_USERNAME = "admin"
DEMO_USERNAME = "demo"


@dataclass(frozen=True)
class SiteSetup:
    """What `site_setup` did and found."""

    passwords: dict[str, str] = field(default_factory=dict)
    """The users it created, with their passwords: shown once, never stored in clear."""

    jail: bool = True
    """Whether this machine can jail uploaded bots."""


def site_setup(*, examples_dir: Path = EXAMPLES_DIR) -> SiteSetup:
    """Migrate, then create the admin, the demo user, ladders and example bots if missing.

    It also re-queues work cut off by the previous stop: it is meant to run
    while no worker of this site is running, so nothing "running" really is.
    """
    call_command("migrate", interactive=False, verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    passwords = {}
    for username, staff in ((ADMIN_USERNAME, True), (DEMO_USERNAME, False)):
        password = _user_ensure(username=username, staff=staff)
        if password is not None:
            passwords[username] = password
    ladders = ladders_seed()
    _examples_upload(ladders=ladders, examples_dir=examples_dir)
    matches_recover(lease_seconds=0, resend_seconds=0)
    bot_versions_recover(lost_after_seconds=0)
    return SiteSetup(passwords=passwords, jail=jail_available())


def _user_ensure(*, username: str, staff: bool) -> str | None:
    """Create the user with a fresh password if missing; the password, or None."""
    if get_user_model().objects.filter(username=username).exists():
        return None
    password = secrets.token_urlsafe(12)
    user_create(username=username, password=password, is_staff=staff)
    return password


def _examples_upload(*, ladders: list[Ladder], examples_dir: Path) -> None:
    """Give the demo user each example bot on every active ladder of its game, once."""
    demo = get_user_model().objects.get(username=DEMO_USERNAME)
    for path in sorted(examples_dir.glob("*.py")):
        game, _, name = path.stem.partition("_")
        for ladder in ladders:
            if ladder.game != game or not ladder.active:
                continue
            if Bot.objects.filter(ladder=ladder, name=name).exists():
                continue
            bot_version_upload(
                user=demo,
                ladder=ladder,
                bot_name=name,
                source_bytes=path.read_bytes(),
                filename=path.name,
            )
