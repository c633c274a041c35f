"""A bot's page, and its owner's actions: upload a version, read sources and logs, challenge,
delete a bot that was never accepted, retire a bot and return it to its ladder."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.requests import SignedInHttpRequest
from accounts.throttles import ChallengeThrottle, UploadThrottle, throttle_refusal
from bots.checks import bot_file_read
from bots.models import Bot
from bots.selectors import (
    bot_get,
    bot_list,
    bot_owner_check,
    bot_version_can_inspect,
    bot_version_get,
    bot_version_list,
    bot_version_qualification_log_for,
    bot_version_source_for,
)
from bots.services import OWNER_RETIRED, bot_retire, bot_unretire, bot_version_upload
from ladders.ratings import rating_shown
from matches.challenges import challenge_create, challenges_left
from matches.selectors import match_list
from qualification.bot_removal import bot_delete, bot_delete_refusal
from qualification.selectors import bot_qualification_seats
from ranked.records import bot_head_to_head, bot_places
from ranked.selectors import bot_rating_latest, bot_rating_points
from web.caching import visitor_cached
from web.charts import RatingPoint, places_bars, rating_chart
from web.forms import ChallengeForm, UploadForm
from web.qualification import qualification_lines

RECENT_MATCHES = 20
CHART_MATCHES = 300
"""Rated matches drawn in a bot's rating history: its latest."""


def challenge_candidates(bot: Bot) -> QuerySet[Bot]:
    """The bots `bot` may challenge: others on its ladder with an accepted version, not retired."""
    return (
        bot_list(ladder=bot.ladder)
        .filter(current_version__isnull=False, retired_at=None)
        .exclude(pk=bot.pk)
        .order_by("-rating")
    )


@visitor_cached
def bot_page(
    request: HttpRequest,
    bot_id: int,
    *,
    upload_form: UploadForm | None = None,
    challenge_form: ChallengeForm | None = None,
    status: int = 200,
) -> HttpResponse:
    bot = bot_get(bot_id=bot_id)
    owner = request.user.is_authenticated and bot.owner_id == request.user.pk
    charted = bot_rating_points(bot=bot, count=CHART_MATCHES)
    versions = list(bot_version_list(bot=bot))
    places = bot_places(bot=bot)
    shown = rating_shown(bot.rating_state)
    qualification = bot_qualification_seats(bot=bot)
    context = {
        "bot": bot,
        "band": shown.band,
        "provisional": shown.provisional,
        "versions": [
            (
                version,
                rating_shown(version.start_state),
                qualification_lines(qualification.get(version.pk, [])),
            )
            for version in versions
        ],
        "history": bot_rating_latest(bot=bot, count=RECENT_MATCHES, with_opponents=True),
        "chart": rating_chart(
            [
                RatingPoint(rating.value, rating_shown(rating).band, version)
                for rating, version in charted
            ]
        ),
        "places": places_bars(places, bot.ladder.seats) if places else [],
        "head_to_head": bot_head_to_head(bot=bot),
        "matches": match_list(bot=bot)[:RECENT_MATCHES],
        "owner": owner,
        "can_inspect": bool(versions)
        and bot_version_can_inspect(user=request.user, version=versions[0]),
    }
    if owner and request.user.is_authenticated:  # owner implies signed in; this says so to mypy
        context["upload_form"] = upload_form or UploadForm()
        context["challenge_form"] = challenge_form or ChallengeForm(
            candidates=challenge_candidates(bot)
        )
        context["challenges_left"] = challenges_left(user=request.user)
        context["delete_refusal"] = bot_delete_refusal(bot=bot)
    return render(request, "web/bot.html", context, status=status)


def _own_bot(request: HttpRequest, bot_id: int) -> Bot:
    """The bot, if the logged-in user owns it; PermissionDenied (403) for anyone else."""
    bot = bot_get(bot_id=bot_id)
    bot_owner_check(user=request.user, bot=bot)
    return bot


@login_required
@require_POST
def version_upload(request: SignedInHttpRequest, bot_id: int) -> HttpResponse:
    bot = _own_bot(request, bot_id)
    form = UploadForm(request.POST, request.FILES)
    refusal = throttle_refusal(UploadThrottle, request)
    if refusal is not None:
        form.add_error(None, refusal)
        return bot_page(request, bot.pk, upload_form=form, status=429)
    if form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            version = bot_version_upload(
                user=request.user,
                ladder=bot.ladder,
                bot_name=bot.name,
                source_bytes=bot_file_read(upload),
                filename=upload.name,
            )
        except ValidationError as error:
            form.add_service_error(error)
        else:
            messages.success(request, f"Version {version.number} uploaded: it is qualifying.")
            return redirect("web:bot", bot.pk)
    return bot_page(request, bot.pk, upload_form=form, status=400)


@login_required
@require_POST
def challenge(request: SignedInHttpRequest, bot_id: int) -> HttpResponse:
    bot = _own_bot(request, bot_id)
    form = ChallengeForm(request.POST, candidates=challenge_candidates(bot))
    refusal = throttle_refusal(ChallengeThrottle, request)
    if refusal is not None:
        form.add_error(None, refusal)
        return bot_page(request, bot.pk, challenge_form=form, status=429)
    if form.is_valid():
        try:
            match = challenge_create(
                user=request.user, bot=bot, opponents=list(form.cleaned_data["opponents"])
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, f"Challenge sent: match {match.pk} is queued.")
            return redirect("web:match", match.pk)
    return bot_page(request, bot.pk, challenge_form=form, status=400)


def version(request: HttpRequest, bot_id: int, number: int) -> HttpResponse:
    """A version's source and qualification log: its owner and staff only (404 otherwise)."""
    found = bot_version_get(bot=bot_get(bot_id=bot_id), number=number)
    seats = bot_qualification_seats(bot=found.bot).get(found.pk, [])
    context = {
        "bot": found.bot,
        "version": found,
        "source": bot_version_source_for(user=request.user, version=found),
        "log": bot_version_qualification_log_for(user=request.user, version=found),
        "qualification": qualification_lines(seats),
    }
    return render(request, "web/version.html", context)


@login_required
def delete(request: SignedInHttpRequest, bot_id: int) -> HttpResponse:
    """Ask to confirm, then delete a never-accepted bot with its qualification matches."""
    bot = _own_bot(request, bot_id)
    if request.method == "POST":
        try:
            bot_delete(bot=bot)
        except ValidationError as error:
            messages.error(request, "; ".join(error.messages))
            return redirect("web:bot", bot.pk)
        messages.success(request, f"{bot.name} is deleted; its name is free again.")
        return redirect("web:account")
    versions = bot_version_list(bot=bot).count()
    matches = match_list(bot=bot).count()
    return _confirm(
        request,
        bot,
        action="web:bot_delete",
        button=f"Delete {bot.name}",
        lines=[
            f"This deletes {bot.name} for good: {_count(versions, 'version')} and "
            f"{_count(matches, 'qualification match', 'qualification matches')} with their "
            "replays and logs.",
            f"The name {bot.name} is free again on {bot.ladder.name}.",
        ],
        refusal=bot_delete_refusal(bot=bot),
    )


@login_required
def retire(request: SignedInHttpRequest, bot_id: int) -> HttpResponse:
    """Ask to confirm, then retire the bot from its ladder."""
    bot = _own_bot(request, bot_id)
    if request.method == "POST":
        try:
            bot_retire(bot=bot, reason=OWNER_RETIRED)
        except ValidationError as error:
            messages.error(request, "; ".join(error.messages))
        else:
            messages.success(request, f"{bot.name} is retired: it is no longer scheduled.")
        return redirect("web:bot", bot.pk)
    return _confirm(
        request,
        bot,
        action="web:bot_retire",
        button=f"Retire {bot.name}",
        lines=[
            f"{bot.name} leaves the standings of {bot.ladder.name} and plays no more ranked "
            "matches, challenges or tournaments.",
            "Its versions, matches and ratings are kept. You can return it to the ladder at "
            "any time, and a new accepted version returns it too.",
        ],
        refusal="" if bot.current_version_id else f"{bot.name} has no accepted version",
    )


@login_required
@require_POST
def unretire(request: SignedInHttpRequest, bot_id: int) -> HttpResponse:
    bot = _own_bot(request, bot_id)
    bot_unretire(bot=bot)
    messages.success(request, f"{bot.name} is back on {bot.ladder.name}.")
    return redirect("web:bot", bot.pk)


def _confirm(
    request: HttpRequest, bot: Bot, *, action: str, button: str, lines: list[str], refusal: str
) -> HttpResponse:
    """A page that says what an action will do and asks to confirm it with a POST."""
    context = {"bot": bot, "action": action, "button": button, "lines": lines, "refusal": refusal}
    return render(request, "web/bot_confirm.html", context)


def _count(number: int, one: str, many: str = "") -> str:
    return f"{number} {one if number == 1 else many or one + 's'}"
