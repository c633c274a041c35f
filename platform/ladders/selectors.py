"""Reads of ladders: the list and one ladder (its standings are read in `bots.selectors`)."""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import Http404

from ladders.models import Ladder


def ladder_list(*, active_only: bool = True) -> QuerySet[Ladder]:
    """The ladders, by slug; only the active ones unless asked."""
    ladders = Ladder.objects.all()
    return ladders.filter(active=True) if active_only else ladders


def ladder_get(*, slug: str) -> Ladder:
    """The ladder `slug`, or Http404."""
    ladder = Ladder.objects.filter(slug=slug).first()
    if ladder is None:
        raise Http404(ladder_unknown_message(slug=slug))
    return ladder


def ladder_unknown_message(*, slug: str) -> str:
    """Why `slug` names no ladder, with the ladders there are."""
    slugs = Ladder.objects.filter(active=True).order_by("slug").values_list("slug", flat=True)
    there_are = ", ".join(slugs) or "none yet"
    return f"there is no ladder {slug!r}; the ladders are: {there_are}"
