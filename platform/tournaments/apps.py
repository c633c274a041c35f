"""The tournaments app's configuration."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Have a finished tournament match advance its tournament (see `tournaments.finish`)."""
        from matches.finish import on_finish_register
        from matches.models import Match
        from tournaments.finish import tournament_match_finished

        on_finish_register(Match.Kind.TOURNAMENT, tournament_match_finished)
