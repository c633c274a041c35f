"""Deleting a bot that never had an accepted version, with its qualification matches.

Such a bot has played qualification matches only (ranked matches, challenges
and tournaments all need an accepted version), and those matches exist only to
judge its versions: deleting the bot deletes them too, their seats (the house
bots' included) and their replay and log files, and frees the bot's name on
its ladder. A bot that ever had an accepted version is retired instead
(`bots.services.bot_retire`), so that no ranked match loses a seat.

It lives in the qualification app because it deletes a bot's qualification
matches; the files go once the deletion has committed, so a deletion that
fails leaves every file in place.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.files.storage import default_storage
from django.db import transaction

from bots.models import Bot, BotVersion
from matches.frames import match_frames_names
from matches.models import Match, MatchSeat

PLAYING = (Match.Status.QUEUED, Match.Status.RUNNING)


def bot_delete_refusal(*, bot: Bot) -> str:
    """Why `bot` may not be deleted now, or "" if it may."""
    versions = BotVersion.objects.filter(bot=bot)
    if bot.is_house:
        return f"{bot.name} is a house bot"
    if versions.filter(status=BotVersion.Status.ACCEPTED).exists():
        return f"{bot.name} has had an accepted version: retire it instead"
    if versions.filter(status=BotVersion.Status.QUALIFYING).exists():
        return f"{bot.name} is qualifying: delete it once its qualification has finished"
    matches = Match.objects.filter(seats__bot=bot)
    if matches.exclude(kind=Match.Kind.QUALIFICATION).exists():
        return f"{bot.name} has played matches other than its qualification: retire it instead"
    if matches.filter(status__in=PLAYING).exists():
        return f"a match of {bot.name} is being played: delete it once it has finished"
    return ""


@transaction.atomic
def bot_delete(*, bot: Bot) -> list[int]:
    """Delete a never-accepted bot, its versions and its qualification matches with their files.

    ValidationError with the reason (`bot_delete_refusal`) when it may not be
    deleted. The bot and its versions are locked first, so a qualification
    that starts meanwhile either waits for the deletion (and finds nothing to
    qualify) or is seen and refuses it. Returns the ids of the deleted matches.
    """
    locked = Bot.objects.select_for_update().get(pk=bot.pk)
    list(BotVersion.objects.select_for_update().filter(bot=locked).values_list("id", flat=True))
    refusal = bot_delete_refusal(bot=locked)
    if refusal:
        raise ValidationError(refusal, code="not_deletable")
    matches = Match.objects.filter(id__in=MatchSeat.objects.filter(bot=locked).values("match_id"))
    match_ids = list(matches.values_list("id", flat=True))
    files = _stored_files(match_ids)
    matches.delete()
    locked.delete()
    transaction.on_commit(lambda: _files_delete(files))
    return match_ids


def _stored_files(match_ids: list[int]) -> list[str]:
    """The storage names of the matches' replays, frames and seats' logs."""
    replays = Match.objects.filter(id__in=match_ids).values_list("replay", flat=True)
    logs = MatchSeat.objects.filter(match_id__in=match_ids).values_list("log", "log_entries")
    names = [
        *replays,
        *match_frames_names(match_ids=match_ids),
        *(name for pair in logs for name in pair),
    ]
    return [name for name in names if name]


def _files_delete(names: list[str]) -> None:
    for name in names:
        default_storage.delete(name)
