"""The accounts app's configuration."""

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in, user_login_failed

        from accounts.logins import on_login_failed
        from accounts.trust import on_logged_in

        user_login_failed.connect(on_login_failed, dispatch_uid="accounts.logins")
        user_logged_in.connect(on_logged_in, dispatch_uid="accounts.trust")
