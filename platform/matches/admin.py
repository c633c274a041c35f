"""Matches in the admin: for looking, not for changing."""

from __future__ import annotations

from django.contrib import admin

from matches.models import Match, MatchSeat

SEAT_FIELDS = ("seat", "bot", "bot_version", "place", "infractions", "crashed", "crash_reason")


class MatchSeatInline(admin.TabularInline):
    model = MatchSeat
    fields = SEAT_FIELDS
    readonly_fields = SEAT_FIELDS
    extra = 0
    can_delete = False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["id", "ladder", "kind", "status", "created_at", "finished_at", "attempts"]
    list_filter = ["ladder", "kind", "status"]
    readonly_fields = [field.name for field in Match._meta.fields]
    inlines = [MatchSeatInline]
