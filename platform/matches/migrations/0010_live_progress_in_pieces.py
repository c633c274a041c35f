# The live progress of a running match is appended in pieces instead of rewritten
# whole. It is transient (deleted when a match ends), so the old rows are dropped.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0009_bot_summaries"),
    ]

    operations = [
        migrations.DeleteModel(name="MatchProgress"),
        migrations.CreateModel(
            name="MatchProgress",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "start",
                    models.PositiveIntegerField(
                        help_text="The index of its first event in the match."
                    ),
                ),
                (
                    "events",
                    models.JSONField(
                        help_text="The events from `start` on, as the worker had them."
                    ),
                ),
                (
                    "header",
                    models.JSONField(
                        blank=True,
                        help_text="On the first piece: game, rules, seats and seed.",
                        null=True,
                    ),
                ),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="progress",
                        to="matches.match",
                    ),
                ),
            ],
            options={
                "indexes": [
                    models.Index(fields=["match", "start"], name="match_progress_in_order")
                ],
            },
        ),
    ]
