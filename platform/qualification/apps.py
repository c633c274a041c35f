"""The qualification app's configuration."""

from django.apps import AppConfig


class QualificationConfig(AppConfig):
    name = "qualification"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Qualify every uploaded version (the bots app announces uploads; it cannot call
        here), judge it or send its next match as each of its matches finishes, and put it
        back to pending when a worker could not play one (see `qualification.services`)."""
        from bots.signals import version_uploaded
        from matches.finish import on_fail_register, on_finish_register
        from matches.models import Match
        from qualification.services import (
            qualification_match_failed,
            qualification_match_finished,
            version_uploaded_qualify,
        )

        version_uploaded.connect(version_uploaded_qualify, dispatch_uid="matches.qualification")
        on_finish_register(Match.Kind.QUALIFICATION, qualification_match_finished)
        on_fail_register(Match.Kind.QUALIFICATION, qualification_match_failed)
