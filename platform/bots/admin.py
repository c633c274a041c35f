"""Bots, versions and ladders in the admin; a version's upload is read-only (immutable).

Ladders are registered here, not in the ladders app, because saving a new
ladder gives it its house bots (`bots.house`), and the ladders app sits below bots.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from bots.house import ladder_house_bots_ensure
from bots.models import Bot, BotVersion
from ladders.models import Ladder


@admin.register(Ladder)
class LadderAdmin(admin.ModelAdmin):
    list_display = ["slug", "name", "game", "variant", "seats", "active", "match_rate"]
    list_filter = ["game", "active"]
    prepopulated_fields = {"slug": ["name"]}

    def save_model(self, request: HttpRequest, obj: Ladder, form: Any, change: bool) -> None:
        """Save, then give a new ladder its house bots."""
        super().save_model(request, obj, form, change)
        ladder_house_bots_ensure(ladder=obj)


VERSION_FIELDS = ("number", "status", "reason", "sha256", "size", "uploaded_at")


class BotVersionInline(admin.TabularInline):
    model = BotVersion
    fields = VERSION_FIELDS
    readonly_fields = VERSION_FIELDS
    extra = 0
    can_delete = False
    show_change_link = True


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "ladder",
        "owner",
        "kind",
        "rating",
        "games",
        "current_version",
        "retired_at",
    ]
    list_filter = ["ladder", "kind", ("retired_at", admin.EmptyFieldListFilter)]
    search_fields = ["name", "owner__username"]
    readonly_fields = ["current_version", "rating", "games", "last_scheduled_at", "created_at"]
    inlines = [BotVersionInline]


@admin.register(BotVersion)
class BotVersionAdmin(admin.ModelAdmin):
    list_display = ["bot", "number", "status", "uploaded_at", "size"]
    list_filter = ["status", "bot__ladder"]
    search_fields = ["bot__name", "sha256"]
    readonly_fields = [
        "bot",
        "number",
        "source",
        "sha256",
        "size",
        "uploaded_at",
        "qualification_log",
        "qualification_requested_at",
        "qualification_started_at",
        "decided_at",
    ]
