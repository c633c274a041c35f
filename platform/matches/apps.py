"""The matches app's configuration."""

from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "matches"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Qualify every uploaded version (the bots app announces uploads; it cannot call here)."""
        from bots.signals import version_uploaded
        from matches.qualification import version_uploaded_qualify

        version_uploaded.connect(version_uploaded_qualify, dispatch_uid="matches.qualification")
