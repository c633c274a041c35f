"""House bots, and ladders set up with them.

Every ladder has the built-in bots of `HOUSE_BOTS`, owned by the system user,
accepted without qualification: they fill the empty seats of tables. A ladder
is never without them, so creating a ladder (and seeding the default set)
happens here, in the bots app, which sits above the ladders app.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from accounts.services import user_system_get
from arena.bots.registry import BotSpecError, check_spec
from bots.models import Bot, BotVersion
from ladders.models import Ladder

HOUSE_BOTS = ("builtin:random", "builtin:strong")
"""The built-in bots every ladder gets, owned by the system user."""


@dataclass(frozen=True)
class LadderSpec:
    """A ladder as shipped with Tavolo."""

    slug: str
    name: str
    game: str
    variant: str
    seats: int
    options: dict[str, Any] = field(default_factory=dict)


DEFAULT_LADDERS = (
    LadderSpec("mia-classic-4", "Mia, classic, 4 players", "mia", "classic", 4),
    LadderSpec("mia-no-guarantee-4", "Mia, no guarantee, 4 players", "mia", "no-guarantee", 4),
    LadderSpec("muggins-2", "Muggins, 2 players", "muggins", "standard", 2),
    LadderSpec("muggins-4", "Muggins, 4 players", "muggins", "standard", 4),
)


@transaction.atomic
def ladder_create(
    *,
    slug: str,
    name: str,
    game: str,
    variant: str,
    seats: int,
    options: dict[str, Any] | None = None,
    match_rate: int | None = None,
) -> Ladder:
    """A new ladder, checked against the rules (ValidationError), with its house bots."""
    ladder = Ladder(
        slug=slug, name=name, game=game, variant=variant, seats=seats, options=options or {}
    )
    if match_rate is not None:
        ladder.match_rate = match_rate
    ladder.full_clean()
    ladder.save()
    ladder_house_bots_ensure(ladder=ladder)
    return ladder


@transaction.atomic
def bot_house_ensure(*, ladder: Ladder, spec: str) -> Bot:
    """The ladder's house bot `spec` (e.g. ``builtin:strong``), accepted, created if missing."""
    try:
        check_spec(spec, game=ladder.game)
    except BotSpecError as error:
        raise ValidationError(str(error), code="unknown_builtin") from None
    if not spec.startswith("builtin:"):
        raise ValidationError("a house bot is a built-in bot: builtin:NAME", code="not_builtin")
    bot, _ = Bot.objects.get_or_create(
        ladder=ladder, name=spec, defaults={"owner": user_system_get(), "kind": Bot.Kind.HOUSE}
    )
    if bot.current_version_id is None:
        bot.current_version = BotVersion.objects.create(
            bot=bot,
            number=1,
            sha256=hashlib.sha256(b"").hexdigest(),
            size=0,
            status=BotVersion.Status.ACCEPTED,
            decided_at=timezone.now(),
        )
        bot.save(update_fields=["current_version"])
    return bot


def ladder_house_bots_ensure(*, ladder: Ladder) -> None:
    """Give the ladder every house bot it lacks."""
    for spec in HOUSE_BOTS:
        bot_house_ensure(ladder=ladder, spec=spec)


@transaction.atomic
def ladders_seed() -> list[Ladder]:
    """Create the default ladders that do not exist yet; every ladder gets its house bots."""
    for spec in DEFAULT_LADDERS:
        if not Ladder.objects.filter(slug=spec.slug).exists():
            ladder_create(
                slug=spec.slug,
                name=spec.name,
                game=spec.game,
                variant=spec.variant,
                seats=spec.seats,
                options=spec.options,
            )
    ladders = list(Ladder.objects.all())
    for ladder in ladders:
        ladder_house_bots_ensure(ladder=ladder)
    return ladders
