"""A bot's page, and its owner's actions: upload a version, read sources and logs, challenge."""

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
from bots.services import bot_version_upload
from ladders.ratings import rating_shown
from matches.records import bot_head_to_head, bot_places
from matches.selectors import (
    bot_rating_latest,
    challenges_left,
    match_list,
    version_qualification_matches,
)
from matches.services import challenge_create
from web.charts import RatingPoint, places_bars, rating_chart
from web.forms import ChallengeForm, UploadForm

RECENT_MATCHES = 20
CHART_MATCHES = 300
"""Rated matches drawn in a bot's rating history: its latest."""


def challenge_candidates(bot: Bot) -> QuerySet[Bot]:
    """The bots `bot` may challenge: others on its ladder with an accepted version."""
    return (
        bot_list(ladder=bot.ladder)
        .filter(current_version__isnull=False)
        .exclude(pk=bot.pk)
        .order_by("-rating")
    )


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
    charted = bot_rating_latest(bot=bot, count=CHART_MATCHES)[::-1]
    versions = list(bot_version_list(bot=bot))
    places = bot_places(bot=bot)
    shown = rating_shown(bot.rating_state)
    context = {
        "bot": bot,
        "band": shown.band,
        "provisional": shown.provisional,
        "versions": [(version, rating_shown(version.start_state)) for version in versions],
        "history": bot_rating_latest(bot=bot, count=RECENT_MATCHES, with_opponents=True),
        "chart": rating_chart(
            [
                RatingPoint(
                    change.after, rating_shown(change.rating_after).band, change.version.number
                )
                for change in charted
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
    context = {
        "bot": found.bot,
        "version": found,
        "source": bot_version_source_for(user=request.user, version=found),
        "log": bot_version_qualification_log_for(user=request.user, version=found),
        "qualification_matches": version_qualification_matches(version=found),
    }
    return render(request, "web/version.html", context)
