"""Changes to bots: uploads, creating a bot with its first version, retiring and returning it.

An upload is checked in full before anything is stored, then the bot (if new)
and its immutable version are created in one transaction. When that
transaction commits, `bots.signals.version_uploaded` is sent, and the matches
app sends the version to qualification: a failed upload leaves nothing behind.
"""

from __future__ import annotations

import hashlib

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from bots.checks import bot_name_check, bot_source_check
from bots.models import Bot, BotVersion
from bots.signals import version_uploaded
from ladders.models import Ladder
from ladders.selectors import ladder_unknown_message


def bot_version_upload(
    *,
    user: User,
    ladder: Ladder | str,
    bot_name: str,
    source_bytes: bytes,
    filename: str,
    new_bot: bool = False,
) -> BotVersion:
    """Store a new version of the user's bot (creating the bot) and queue its qualification.

    With `new_bot` the name must be free: ValidationError ``name_taken`` if any
    bot on the ladder has it, decided under the same lock as the upload.
    """
    bot_name_check(bot_name)
    source = bot_source_check(source_bytes=source_bytes, filename=filename)
    sha256 = hashlib.sha256(source_bytes).hexdigest()
    with transaction.atomic():
        ladder = _ladder_open_for_uploads(ladder)
        bot = _bot_of_user(user=user, ladder=ladder, name=bot_name, new_bot=new_bot)
        latest = bot.versions.order_by("-number").first()
        if latest is not None and latest.sha256 == sha256:
            raise ValidationError(
                f"this file is identical to version {latest.number} of {bot.name}", code="unchanged"
            )
        version = BotVersion.objects.create(
            bot=bot,
            number=(bot.versions.aggregate(Max("number"))["number__max"] or 0) + 1,
            source=source,
            sha256=sha256,
            size=len(source_bytes),
            qualification_requested_at=timezone.now(),
        )
        # robust: a broker that is down is logged; qualification sends the version later.
        transaction.on_commit(
            lambda: version_uploaded.send(sender=BotVersion, version_id=version.pk), robust=True
        )
    return version


def bot_create(
    *, user: User, ladder: Ladder | str, name: str, source_bytes: bytes, filename: str
) -> BotVersion:
    """A new bot `name` on `ladder` with its first version; ValidationError if the name is taken.

    Unlike `bot_version_upload` by name, creating a bot never adds a version to
    an existing bot: a name already taken on the ladder is refused, under the
    upload's own lock, so that two creates at once cannot both pass.
    """
    return bot_version_upload(
        user=user,
        ladder=ladder,
        bot_name=name,
        source_bytes=source_bytes,
        filename=filename,
        new_bot=True,
    )


OWNER_RETIRED = "retired by its owner"
"""The reason kept when the owner retires a bot on the site or through the API."""


def bot_retire(*, bot: Bot, reason: str) -> Bot:
    """Take a bot with an accepted version off its ladder, keeping `reason` to show its owner.

    A retired bot keeps its versions, matches and ratings; it leaves the ladder's
    table, matchmaking no longer seats it, and it cannot challenge, be challenged
    or enter a tournament. The owner returns it (`bot_unretire`), and a new
    accepted version returns it too. Retiring a retired bot changes nothing,
    so the first reason stays. Callers check who asks (`bot_owner_check` for an
    owner); automatic retirement calls it directly.
    """
    reason = reason.strip()
    if not reason:
        raise ValueError("a bot is retired for a reason: say why")
    if bot.current_version_id is None:
        raise ValidationError(
            f"{bot.name} never had an accepted version: delete it instead", code="not_accepted"
        )
    Bot.objects.filter(pk=bot.pk, retired_at__isnull=True).update(
        retired_at=timezone.now(), retired_reason=reason
    )
    bot.refresh_from_db(fields=["retired_at", "retired_reason"])
    return bot


def bot_unretire(*, bot: Bot) -> Bot:
    """Return a retired bot to its ladder: matchmaking seats it again from the next beat."""
    Bot.objects.filter(pk=bot.pk).update(retired_at=None, retired_reason="")
    bot.refresh_from_db(fields=["retired_at", "retired_reason"])
    return bot


def _ladder_open_for_uploads(ladder: Ladder | str) -> Ladder:
    slug = ladder.slug if isinstance(ladder, Ladder) else ladder
    found = Ladder.objects.filter(slug=slug).first()
    if found is None:
        raise ValidationError(ladder_unknown_message(slug=slug), code="unknown_ladder")
    if not found.active:
        raise ValidationError(f"the ladder {found.name} takes no uploads", code="ladder_inactive")
    return found


def _bot_of_user(*, user: User, ladder: Ladder, name: str, new_bot: bool) -> Bot:
    """The user's bot `name` on `ladder`, created if new, locked for the upload."""
    bot = Bot.objects.select_for_update().filter(ladder=ladder, name=name).first()
    if bot is None:
        try:
            with transaction.atomic():
                return Bot.objects.create(owner=user, ladder=ladder, name=name)
        except IntegrityError:
            bot = Bot.objects.select_for_update().get(ladder=ladder, name=name)
    if new_bot:
        taken = ValidationError(f"a bot called {name!r} is already on {ladder.slug}", "name_taken")
        raise ValidationError({"name": taken})
    if bot.owner_id != user.pk:
        raise ValidationError(
            f"the name {name!r} is taken on {ladder.name} by another user", code="name_taken"
        )
    return bot
