"""Bots and versions in the admin; a version's upload is read-only (immutable)."""

from __future__ import annotations

from django.contrib import admin

from bots.models import Bot, BotVersion


class BotVersionInline(admin.TabularInline):
    model = BotVersion
    fields = ["number", "status", "reason", "sha256", "size", "uploaded_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin):
    list_display = ["name", "ladder", "owner", "kind", "rating", "games", "current_version"]
    list_filter = ["ladder", "kind"]
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
