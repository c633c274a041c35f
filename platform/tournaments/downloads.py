"""The answer that downloads all of a tournament's replays, shared by the API and the site."""

from __future__ import annotations

from django.http import HttpResponse

from tournaments.models import Tournament
from tournaments.selectors import tournament_replays_zip

ZIP_CONTENT_TYPE = "application/zip"


def tournament_replays_response(tournament: Tournament) -> HttpResponse:
    """Every finished table's replay in one zip file (Http404 if none is finished yet)."""
    response = HttpResponse(tournament_replays_zip(tournament=tournament), ZIP_CONTENT_TYPE)
    name = f"tavolo-tournament-{tournament.slug}-replays.zip"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
