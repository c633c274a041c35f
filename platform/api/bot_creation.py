"""Creating a new bot: a name that must be free, then its first upload.

`bots.services.bot_version_upload` creates the bot when the name is new and
otherwise adds a version to the caller's bot of that name. "Create a bot" (the
API's ``POST /api/bots/`` and the account page's form) must not quietly add a
version to an existing bot, so it refuses a name already taken on the ladder,
under the upload's own lock, so that two creates at once cannot both pass.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser

from bots.models import BotVersion
from bots.services import bot_version_upload
from ladders.models import Ladder


def bot_create(
    *, user: AbstractUser, ladder: Ladder | str, name: str, source_bytes: bytes, filename: str
) -> BotVersion:
    """A new bot `name` on `ladder` with its first version; ValidationError if the name is taken."""
    return bot_version_upload(
        user=user,
        ladder=ladder,
        bot_name=name,
        source_bytes=source_bytes,
        filename=filename,
        new_bot=True,
    )
