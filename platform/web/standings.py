"""A ladder's standings: each bot's line with its record and recent ratings, as table rows.

The rows are written here rather than in the template: a ladder has a hundred
lines or more, and the template language spent about four fifths of the
page's rendering on them (a variable, a filter or a tag costs microseconds
each, and a line has about thirty). The template filters themselves are called,
so that each cell reads as it did.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.template.defaultfilters import floatformat, timesince_filter
from django.urls import reverse
from django.utils.dateformat import format as date_format
from django.utils.html import format_html
from django.utils.safestring import SafeString

from bots.selectors import Standing
from ranked.records import BotRecord, bot_recent_ratings, bot_records
from web.charts import sparkline_points

ROW = (
    '<tr>\n<td class="number" data-value="{rank}">{rank}</td>\n'
    '<td><a href="{bot_url}">{name}</a> <span class="muted">v{version}</span>{provisional}</td>\n'
    "<td>{owner}</td>\n"
    '<td class="number" data-value="{rating_value}">{rating} '
    '<span class="muted">± {band}</span></td>\n'
    "<td>{sparkline}</td>\n"
    '<td class="number" data-value="{games}">{games}</td>\n'
    '<td class="number" data-value="{won_value}">{won}</td>\n'
    '<td class="muted when" data-value="{last_value}">{last}</td>\n</tr>\n'
)
PROVISIONAL = SafeString(' <span class="tag" title="fewer than 20 rated games">provisional</span>')
HOUSE = SafeString('<span class="tag">house</span>')
NONE_YET = SafeString('<span class="muted">\N{EN DASH}</span>')
SPARKLINE = (
    '<svg class="spark" viewBox="0 0 120 24" width="120" height="24" role="img" '
    'aria-label="last ratings of {name}"><polyline points="{points}"/></svg>'
)


@dataclass(frozen=True)
class StandingLine:
    """A line of a ladder's table with the bot's record and its recent ratings drawn."""

    standing: Standing
    record: BotRecord
    sparkline: str

    @property
    def row(self) -> SafeString:
        """The line as a ``<tr>`` of the standings table, every name escaped."""
        row, record = self.standing, self.record
        return format_html(
            ROW,
            rank=row.rank,
            bot_url=reverse("web:bot", args=[row.bot.pk]),
            name=row.bot.name,
            version=row.version,
            provisional=PROVISIONAL if row.provisional else "",
            owner=HOUSE if row.house else _owner_link(row.owner),
            rating_value=f"{row.rating:.1f}",
            rating=floatformat(row.rating, 0),
            band=floatformat(row.band, 0),
            sparkline=format_html(SPARKLINE, name=row.bot.name, points=self.sparkline)
            if self.sparkline
            else "",
            games=row.games,
            won_value=-1 if record.win_rate is None else record.win_rate,
            won=NONE_YET if record.win_rate is None else f"{round(record.win_rate * 100)}%",
            last_value=date_format(record.last_played, "U") if record.last_played else 0,
            last=f"{timesince_filter(record.last_played)} ago" if record.last_played else "never",
        )


def _owner_link(owner: str) -> SafeString:
    return format_html('<a href="{}">{}</a>', reverse("web:user", args=[owner]), owner)


def standing_lines(standings: list[Standing]) -> list[StandingLine]:
    bot_ids = [standing.bot.pk for standing in standings]
    records, recent = bot_records(bot_ids=bot_ids), bot_recent_ratings(bot_ids=bot_ids)
    return [
        StandingLine(
            standing,
            records.get(standing.bot.pk, BotRecord()),
            sparkline_points(recent.get(standing.bot.pk, [])),
        )
        for standing in standings
    ]
