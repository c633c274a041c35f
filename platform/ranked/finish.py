"""What a finished ranked match sets off: ratings move, tallies count, crashing bots retire.

`ranked_match_finished` is the ranked kind's entry in `matches.finish.ON_FINISH`
(registered from `RankedConfig.ready`), run inside `match_finish`'s
transaction.
"""

from __future__ import annotations

from collections import defaultdict
from statistics import fmean

from django.apps import apps as installed_apps
from django.conf import settings
from django.db import transaction

from arena.ratings import RatedSeat, Rating
from arena.replay import public_reason
from bots.models import Bot, BotVersion
from bots.services import bot_retire
from ladders.ratings import rating_system
from matches import metrics
from matches.models import Match, MatchSeat
from matches.rows import rows_update
from ranked.models import RatingChange
from ranked.tallies import tally_ranked_match
from ranked.version_results import VersionResults, version_pasts, version_records_read

RATING_FIELDS = ["rating", "deviation", "games"]


def ranked_match_rate(*, match: Match, seats: list[MatchSeat]) -> None:
    """Rate the match with the state of the versions that played it.

    The bots' records and head-to-head are counted too (`ranked.tallies`).
    A version that is no longer its bot's current one is still rated (its own
    history stays true) but leaves the bot's rating alone. A house bot may
    fill several seats of one table; it is then rated once, on all its seats'
    pairs against the other versions' seats (its pairs against itself count
    for nothing, as in its records), and counts one game. Bots, then
    versions, are locked in id order (as acceptance does), so concurrent
    finishes never deadlock. The rating system reads each seated version's
    start and its results so far against each opponent version
    (`ranked.version_results`, one query), and the match's results are added
    to them, under the versions' locks.
    """
    bot_ids = sorted({seat.bot_id for seat in seats})
    locked = Bot.objects.select_for_update(of=("self",)).select_related("summary")
    bots = {bot.pk: bot for bot in locked.filter(id__in=bot_ids).order_by("id")}
    version_ids = sorted({seat.bot_version_id for seat in seats})
    versions = {
        version.pk: version
        for version in BotVersion.objects.select_for_update()
        # not the source, nor the qualification's log
        .only("bot_id", *RATING_FIELDS, "start_rating", "start_deviation")
        .filter(id__in=version_ids)
        .order_by("id")
    }
    records = version_records_read(version_ids)
    pasts = version_pasts(versions.values(), records)
    places: list[int] = [seat.place for seat in seats]  # type: ignore[misc]  # just placed
    rated = rating_system().rate(
        [versions[seat.bot_version_id].rating_state for seat in seats],
        places,
        [pasts[seat.bot_version_id] for seat in seats],
        [seat.bot_version_id for seat in seats],
    )
    by_version: dict[int, list[RatedSeat]] = defaultdict(list)
    for seat, rated_seat in zip(seats, rated, strict=True):
        by_version[seat.bot_version_id].append(rated_seat)
    history = []
    for version_id in version_ids:
        version = versions[version_id]
        own = by_version[version_id]
        before = version.rating_state
        after = Rating(
            fmean(seat.after.value for seat in own),
            fmean(seat.after.deviation for seat in own),
            before.games + 1,
        )
        version.rating_set(after)
        bot = bots[version.bot_id]
        if bot.current_version_id == version_id:
            bot.rating, bot.deviation, bot.games = after.value, after.deviation, after.games
        history.append(
            RatingChange(
                match=match,
                bot=bot,
                version=version,
                before=before.value,
                after=after.value,
                deviation_before=before.deviation,
                deviation_after=after.deviation,
                games_before=before.games,
                earlier=fmean(seat.earlier for seat in own),
                versus=[
                    {
                        "seat": other.seat,
                        "bot_id": other.bot_id,
                        "points": fmean(seat.versus[index] for seat in own),
                    }
                    for index, other in enumerate(seats)
                    if other.bot_version_id != version_id
                ],
            )
        )
    rows_update(list(versions.values()), RATING_FIELDS)
    rows_update(list(bots.values()), RATING_FIELDS)
    RatingChange.objects.bulk_create(history)
    results = VersionResults(installed_apps, records)
    results.count_match(
        [(seat.bot_version_id, place) for seat, place in zip(seats, places, strict=True)]
    )
    results.save()
    tally_ranked_match(match=match, seats=seats, changes=history, bots=bots.values())
    updates = metrics.RATING_UPDATES.labels(ladder=match.ladder.slug)
    transaction.on_commit(lambda: updates.inc(len(history)))


def ranked_match_finished(*, match: Match, seats: list[MatchSeat]) -> None:
    """Rate a ranked match, then retire the bots that keep crashing in them."""
    ranked_match_rate(match=match, seats=seats)
    crashing_bots_retire(seats=seats)


def crashing_bots_retire(*, seats: list[MatchSeat]) -> list[Bot]:
    """Retire each uploaded bot whose current version crashed in its last
    `TAVOLO_RETIRE_AFTER_CRASHES` ranked matches, all of them, saying so to its owner.

    A match it did not crash in, or a new version, starts the count again.
    """
    streak = settings.TAVOLO_RETIRE_AFTER_CRASHES
    retired: list[Bot] = []
    if not streak:
        return retired
    for seat in seats:
        if not seat.crashed:
            continue
        bot = seat.bot
        if bot.is_house or bot.is_retired or bot.current_version_id != seat.bot_version_id:
            continue
        latest = list(
            MatchSeat.objects.filter(
                bot_version_id=seat.bot_version_id,
                match__kind=Match.Kind.RANKED,
                match__status=Match.Status.FINISHED,
            )
            .order_by("-match__finished_at", "-match_id")
            .values_list("crashed", flat=True)[:streak]
        )
        if len(latest) == streak and all(latest):
            reason = (
                f"retired by the platform: it crashed in its last {streak} ranked matches in a "
                f"row (the last one: {public_reason(seat.crash_reason) or 'no reason given'}); "
                "upload a version that does not crash, or return it to the ladder"
            )
            retired.append(bot_retire(bot=bot, reason=reason))
    return retired
