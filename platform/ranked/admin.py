"""The ranked ladder's rating changes in the admin: for looking, not for changing."""

from __future__ import annotations

from django.contrib import admin

from ranked.models import RatingChange


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ["match", "bot", "version", "before", "after", "games_before"]
    list_filter = ["bot__ladder"]
    readonly_fields = [field.name for field in RatingChange._meta.fields]
