"""Changes to bots: uploads, house bots, and the qualification of new versions.

An upload is checked in full before anything is stored, then the bot (if new)
and its immutable version are created in one transaction, and qualification is
sent to the jailed workers when that transaction commits: a failed upload
leaves nothing behind.

Qualification plays `TAVOLO_QUALIFICATION_MATCHES` unranked matches against the
ladder's house bots, in the jail. A version passes if it never crashes and
commits at most `TAVOLO_QUALIFICATION_MAX_INFRACTIONS` infractions over all of
them (a late, malformed or illegal reply is one infraction; a few are allowed
so that one slow moment on a busy worker does not reject a sound bot). A
passed version becomes the bot's current version on the ladder.
"""

from __future__ import annotations

import hashlib
import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from accounts.services import user_system_get
from arena.bots.registry import BotSpecError, check_spec
from bots.checks import bot_name_check, bot_source_check
from bots.models import Bot, BotVersion
from ladders.models import Ladder
from matches.models import Match, MatchSeat
from matches.playing import JailUnavailableError, uploaded_bots_jailed
from matches.services import match_claim, match_create, match_play_and_record

logger = logging.getLogger(__name__)

PENDING_RESEND_SECONDS = 300
"""A version still pending this long after its qualification was sent is sent again."""


def bot_version_qualify_enqueue(*, version_id: int) -> None:
    """Send the version to the jailed workers for qualification, once the transaction commits."""
    from bots.tasks import bot_version_qualify as bot_version_qualify_task

    # robust: a broker that is down is logged; bot_versions_recover sends the version later.
    transaction.on_commit(lambda: bot_version_qualify_task.delay(version_id), robust=True)


def bot_version_upload(
    *,
    user: AbstractUser,
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
        bot_version_qualify_enqueue(version_id=version.pk)
    return version


def _ladder_open_for_uploads(ladder: Ladder | str) -> Ladder:
    slug = ladder.slug if isinstance(ladder, Ladder) else ladder
    found = Ladder.objects.filter(slug=slug).first()
    if found is None:
        raise ValidationError(f"there is no ladder {slug!r}", code="unknown_ladder")
    if not found.active:
        raise ValidationError(f"the ladder {found.name} takes no uploads", code="ladder_inactive")
    return found


def _bot_of_user(*, user: AbstractUser, ladder: Ladder, name: str, new_bot: bool) -> Bot:
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


def bot_version_qualify(*, version_id: int, worker: str) -> BotVersion:
    """Qualify a pending version in the jail: accept or reject it, with the log.

    A worker without the jail leaves the version pending with the reason, for a
    worker that has one (`bot_versions_recover` sends it again later).
    """
    version = BotVersion.objects.select_related("bot__ladder").get(id=version_id)
    if version.status != BotVersion.Status.PENDING:
        return version
    house = _house_versions(version.bot.ladder)
    waiting = "" if house else "waiting for the ladder's house bots"
    if not waiting:
        try:
            uploaded_bots_jailed()
        except JailUnavailableError as error:
            waiting = f"waiting for a worker with the jail: {error}"
    if waiting:
        BotVersion.objects.filter(id=version_id, status=BotVersion.Status.PENDING).update(
            reason=waiting
        )
        logger.warning("version %s cannot qualify here: %s", version_id, waiting)
        version.refresh_from_db()
        return version
    claimed = BotVersion.objects.filter(id=version_id, status=BotVersion.Status.PENDING).update(
        status=BotVersion.Status.QUALIFYING, qualification_started_at=timezone.now(), reason=""
    )
    if claimed:
        _qualification_play(version=version, house=house, worker=worker)
    version.refresh_from_db()
    return version


def _house_versions(ladder: Ladder) -> list[BotVersion]:
    """The ladder's house bots' versions, strongest name first, to fill qualification tables."""
    bots = Bot.objects.filter(
        ladder=ladder, kind=Bot.Kind.HOUSE, current_version__isnull=False
    ).select_related("current_version")
    return [
        bot.current_version for bot in sorted(bots, key=lambda bot: bot.name != "builtin:strong")
    ]


def _qualification_play(*, version: BotVersion, house: list[BotVersion], worker: str) -> None:
    """Play the qualification matches, stop at the first crash, and decide.

    A match that could not be played at all (the platform's failure, not the
    bot's) decides nothing: the version goes back to pending, to be sent again
    by `bot_versions_recover`.
    """
    ladder = version.bot.ladder
    limit = settings.TAVOLO_QUALIFICATION_MAX_INFRACTIONS
    report: list[str] = []
    logs: list[str] = []
    infractions = 0
    failure = ""
    for number in range(settings.TAVOLO_QUALIFICATION_MATCHES):
        seat_number = number % ladder.seats
        opponents = [house[i % len(house)] for i in range(ladder.seats - 1)]
        versions = [*opponents[:seat_number], version, *opponents[seat_number:]]
        match = match_create(
            ladder=ladder, kind=Match.Kind.QUALIFICATION, versions=versions, enqueue=False
        )
        attempt = match_claim(match_id=match.pk, worker=worker)
        match_play_and_record(match=match, attempt=attempt or 0)
        match.refresh_from_db()
        if match.status != Match.Status.FINISHED:
            _version_retry_later(
                version=version,
                reason=f"qualification match {match.pk} could not be played "
                f"({match.failure_reason}); it will be tried again",
            )
            return
        seat = match.seats.get(seat=seat_number)
        report.append(_seat_summary(match, seat))
        logs.append(_seat_log(match, seat))
        infractions += seat.infractions
        if seat.crashed:
            failure = f"crashed in qualification match {match.pk}: {seat.crash_reason}"
            break
        if infractions > limit:
            failure = f"{infractions} infractions in qualification; at most {limit} are allowed"
            break
    log = "\n".join([*report, *logs])
    if failure:
        _version_reject(version=version, reason=failure, log=log)
    else:
        _version_accept(version=version, log=log)


def _seat_summary(match: Match, seat: MatchSeat) -> str:
    summary = (
        f"match {match.pk} (seed {match.public_seed}), seat {seat.seat}: "
        f"place {seat.place} of {match.ladder.seats}, {seat.infractions} infractions"
    )
    return summary + (f", crashed: {seat.crash_reason}" if seat.crashed else "")


def _seat_log(match: Match, seat: MatchSeat) -> str:
    if not seat.log:
        return f"--- match {match.pk}: the bot wrote nothing to stderr"
    with seat.log.open("rb") as log:
        return f"--- match {match.pk}: the bot's stderr\n" + log.read().decode(errors="replace")


def _version_retry_later(*, version: BotVersion, reason: str) -> None:
    """Put back a version whose qualification failed on the platform's side, not the bot's."""
    logger.warning("version %s goes back to pending: %s", version.pk, reason)
    BotVersion.objects.filter(id=version.pk, status=BotVersion.Status.QUALIFYING).update(
        status=BotVersion.Status.PENDING, reason=reason, qualification_requested_at=timezone.now()
    )


def _version_reject(*, version: BotVersion, reason: str, log: str) -> None:
    BotVersion.objects.filter(id=version.pk).update(
        status=BotVersion.Status.REJECTED,
        reason=reason,
        qualification_log=log,
        decided_at=timezone.now(),
    )


@transaction.atomic
def _version_accept(*, version: BotVersion, log: str) -> None:
    """Accept the version; it replaces the bot's current version if it is newer."""
    bot = Bot.objects.select_for_update().get(id=version.bot_id)
    BotVersion.objects.filter(id=version.pk).update(
        status=BotVersion.Status.ACCEPTED,
        reason="",
        qualification_log=log,
        decided_at=timezone.now(),
    )
    if bot.current_version is None or bot.current_version.number < version.number:
        bot.current_version_id = version.pk
        bot.games = 0
        bot.save(update_fields=["current_version", "games"])


@transaction.atomic
def bot_versions_recover(
    *, now: datetime | None = None, lost_after_seconds: int | None = None
) -> list[int]:
    """Send again the qualifications lost with their worker or never picked up.

    A qualification still running `lost_after_seconds` after it started (by
    default, a little more than its task's time limit) was lost with its worker.
    """
    now = now or timezone.now()
    if lost_after_seconds is None:
        lost_after_seconds = settings.TAVOLO_QUALIFICATION_TIME_LIMIT + 60
    lost_before = now - timedelta(seconds=lost_after_seconds)
    BotVersion.objects.filter(
        status=BotVersion.Status.QUALIFYING, qualification_started_at__lt=lost_before
    ).update(status=BotVersion.Status.PENDING, qualification_requested_at=None)
    stale = list(
        BotVersion.objects.select_for_update(skip_locked=True)
        .filter(status=BotVersion.Status.PENDING)
        .exclude(qualification_requested_at__gte=now - timedelta(seconds=PENDING_RESEND_SECONDS))
        .values_list("id", flat=True)
    )
    BotVersion.objects.filter(id__in=stale).update(qualification_requested_at=now)
    for version_id in stale:
        bot_version_qualify_enqueue(version_id=version_id)
    return stale
