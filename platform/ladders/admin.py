"""Ladders in the admin: configured here, checked against the rules on save."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from ladders.models import Ladder
from ladders.services import ladder_house_bots_ensure


@admin.register(Ladder)
class LadderAdmin(admin.ModelAdmin):
    list_display = ["slug", "name", "game", "variant", "seats", "active", "match_rate"]
    list_filter = ["game", "active"]
    prepopulated_fields = {"slug": ["name"]}

    def save_model(self, request: HttpRequest, obj: Ladder, form: Any, change: bool) -> None:
        """Save, then give a new ladder its house bots."""
        super().save_model(request, obj, form, change)
        ladder_house_bots_ensure(ladder=obj)
