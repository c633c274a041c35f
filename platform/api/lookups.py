"""Reads the selectors do not offer yet: one version of a bot, by its number."""

from __future__ import annotations

from django.http import Http404

from bots.models import Bot, BotVersion


def version_get(*, bot: Bot, number: int) -> BotVersion:
    """The bot's version `number` (with its source), or Http404."""
    version = bot.versions.select_related("bot").filter(number=number).first()
    if version is None:
        raise Http404(f"{bot.name} has no version {number}")
    return version
