"""The ranked app's configuration."""

from django.apps import AppConfig


class RankedConfig(AppConfig):
    name = "ranked"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Have a finished ranked match move ratings (see `ranked.finish`)."""
        from matches.finish import on_finish_register
        from matches.models import Match
        from ranked.finish import ranked_match_finished

        on_finish_register(Match.Kind.RANKED, ranked_match_finished)
