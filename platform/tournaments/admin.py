"""Tournaments in the admin: staff create them; entries and tables are read-only records."""

from __future__ import annotations

from django.contrib import admin

from tournaments.models import Entry, Tournament, TournamentTable


class EntryInline(admin.TabularInline):
    model = Entry
    fields = ["bot", "version", "number", "created_at"]
    readonly_fields = ["version", "number", "created_at"]
    raw_id_fields = ["bot"]
    extra = 0


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["slug", "name", "ladder", "format", "status", "entries_close_at", "starts_at"]
    list_filter = ["status", "format", "ladder"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["invited"]
    readonly_fields = ["status", "frozen_at", "finished_at", "cancel_reason", "created_at"]
    inlines = [EntryInline]


@admin.register(TournamentTable)
class TournamentTableAdmin(admin.ModelAdmin):
    list_display = ["tournament", "key", "round", "stage", "match", "attempts", "places"]
    list_filter = ["tournament"]
    readonly_fields = [field.name for field in TournamentTable._meta.fields]
