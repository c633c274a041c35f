"""The ranked ladder's models, taken over from the matches app with their tables.

The tables were created by the matches app's migrations and keep their names;
this migration changes only Django's state, and moves the models' content
types (and with them staff permissions and admin history) to the ranked app.
"""

import django.db.models.deletion
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

MODELS = ["botsummary", "headtoheadsummary", "ratingchange", "versionrecord"]


def content_types_move(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    content_type = apps.get_model("contenttypes", "ContentType")
    content_type.objects.filter(app_label="matches", model__in=MODELS).update(app_label="ranked")


def content_types_move_back(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    content_type = apps.get_model("contenttypes", "ContentType")
    content_type.objects.filter(app_label="ranked", model__in=MODELS).update(app_label="matches")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("bots", "0003_bot_retired"),
        ("matches", "0014_ranked_models_moved"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="BotSummary",
                    fields=[
                        (
                            "bot",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                primary_key=True,
                                related_name="summary",
                                serialize=False,
                                to="bots.bot",
                            ),
                        ),
                        ("played", models.PositiveIntegerField(default=0)),
                        (
                            "wins",
                            models.PositiveIntegerField(
                                default=0, help_text="Matches with a seat placed first."
                            ),
                        ),
                        ("last_played", models.DateTimeField(blank=True, null=True)),
                        (
                            "places",
                            models.JSONField(
                                blank=True, default=dict, help_text='Seats by place: {"1": 12}.'
                            ),
                        ),
                        (
                            "recent_ratings",
                            models.JSONField(
                                blank=True,
                                default=list,
                                help_text="The latest ratings after a match, oldest first.",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "matches_botsummary",
                    },
                ),
                migrations.CreateModel(
                    name="HeadToHeadSummary",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "matches",
                            models.PositiveIntegerField(
                                default=0, help_text="Pairs of seats: the bot's, its."
                            ),
                        ),
                        ("ahead", models.PositiveIntegerField(default=0)),
                        ("behind", models.PositiveIntegerField(default=0)),
                        (
                            "bot",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="head_to_head",
                                to="bots.bot",
                            ),
                        ),
                        (
                            "opponent",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="bots.bot",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "matches_headtoheadsummary",
                        "indexes": [
                            models.Index(fields=["bot", "-matches"], name="head_to_head_most_met")
                        ],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("bot", "opponent"), name="head_to_head_once_per_pair"
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="RatingChange",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("before", models.FloatField()),
                        ("after", models.FloatField()),
                        ("deviation_before", models.FloatField(default=0.0)),
                        ("deviation_after", models.FloatField(default=0.0)),
                        ("games_before", models.PositiveIntegerField()),
                        (
                            "versus",
                            models.JSONField(
                                blank=True,
                                default=list,
                                help_text=(
                                    "Points won against each other seat: "
                                    "a list of {seat, bot_id, points}."
                                ),
                            ),
                        ),
                        (
                            "earlier",
                            models.FloatField(
                                default=0.0,
                                help_text=(
                                    "Points from the version's earlier results, read again "
                                    "against its opponents' current ratings; with `versus` "
                                    "they add up to the change."
                                ),
                            ),
                        ),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "bot",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="rating_changes",
                                to="bots.bot",
                            ),
                        ),
                        (
                            "match",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="rating_changes",
                                to="matches.match",
                            ),
                        ),
                        (
                            "version",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="rating_changes",
                                to="bots.botversion",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "matches_ratingchange",
                        "ordering": ["-created_at", "-id"],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("match", "bot"), name="rating_change_once_per_match"
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="VersionRecord",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "games",
                            models.PositiveIntegerField(
                                default=0, help_text="Pairs of seats played against it."
                            ),
                        ),
                        (
                            "points",
                            models.FloatField(
                                default=0.0, help_text="Their score: 1 ahead, 1/2 level, 0 behind."
                            ),
                        ),
                        (
                            "opponent",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="bots.botversion",
                            ),
                        ),
                        (
                            "version",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="records",
                                to="bots.botversion",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "matches_versionrecord",
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("version", "opponent"),
                                name="version_record_once_per_opponent",
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_types_move, content_types_move_back),
    ]
