"""The ladders app's configuration."""

from django.apps import AppConfig


class LaddersConfig(AppConfig):
    name = "ladders"
    default_auto_field = "django.db.models.BigAutoField"
