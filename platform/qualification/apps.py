"""The qualification app's configuration."""

from django.apps import AppConfig


class QualificationConfig(AppConfig):
    name = "qualification"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Qualify every uploaded version (the bots app announces uploads; it cannot call
        here), and judge it as each of its matches finishes (see `qualification.verdict`)."""
        from bots.signals import version_uploaded
        from matches.finish import on_finish_register
        from matches.models import Match
        from qualification.services import version_uploaded_qualify
        from qualification.verdict import qualification_judge

        version_uploaded.connect(version_uploaded_qualify, dispatch_uid="matches.qualification")
        on_finish_register(Match.Kind.QUALIFICATION, qualification_judge)
