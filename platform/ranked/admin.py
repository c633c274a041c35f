"""The ranked ladder's rating changes in the admin: for looking, not for changing; and
the collusion report (`ranked.collusion`) at /admin/ranked/ratingchange/collusion/."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import URLPattern, path

from bots.models import Bot
from ladders.models import Ladder
from ranked.collusion import MIN_TABLES, THRESHOLD, suspicious_pairs
from ranked.models import RatingChange


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ["match", "bot", "version", "before", "after", "games_before"]
    list_filter = ["bot__ladder"]
    readonly_fields = [field.name for field in RatingChange._meta.fields]

    def get_urls(self) -> list[URLPattern]:
        collusion = path(
            "collusion/",
            self.admin_site.admin_view(self.collusion_view),
            name="ranked_collusion",
        )
        return [collusion, *super().get_urls()]

    def collusion_view(self, request: HttpRequest) -> HttpResponse:
        """Every ladder's flagged pairs, with the bots' names and owners."""
        report = []
        for ladder in Ladder.objects.order_by("slug"):
            pairs = suspicious_pairs(ladder=ladder)
            bots = Bot.objects.select_related("owner").in_bulk(
                [bot for pair in pairs for bot in (pair.first, pair.second)]
            )
            report.append((ladder, [(p, bots[p.first], bots[p.second]) for p in pairs]))
        context = {
            **self.admin_site.each_context(request),
            "report": report,
            "threshold": THRESHOLD,
            "min_tables": MIN_TABLES,
        }
        return TemplateResponse(request, "ranked/collusion.html", context)
