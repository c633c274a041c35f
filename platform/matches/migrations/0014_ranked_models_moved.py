"""The ranked ladder's models go to the ranked app; their tables stay as they are.

Only Django's idea of the models changes: `ranked.0001_initial` takes them over
with the same tables (`Meta.db_table`), so no row moves.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0013_live_progress_by_attempt"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name="headtoheadsummary",
                    name="bot",
                ),
                migrations.RemoveField(
                    model_name="headtoheadsummary",
                    name="opponent",
                ),
                migrations.RemoveField(
                    model_name="ratingchange",
                    name="bot",
                ),
                migrations.RemoveField(
                    model_name="ratingchange",
                    name="match",
                ),
                migrations.RemoveField(
                    model_name="ratingchange",
                    name="version",
                ),
                migrations.RemoveField(
                    model_name="versionrecord",
                    name="opponent",
                ),
                migrations.RemoveField(
                    model_name="versionrecord",
                    name="version",
                ),
                migrations.DeleteModel(
                    name="BotSummary",
                ),
                migrations.DeleteModel(
                    name="HeadToHeadSummary",
                ),
                migrations.DeleteModel(
                    name="RatingChange",
                ),
                migrations.DeleteModel(
                    name="VersionRecord",
                ),
            ],
            database_operations=[],
        ),
    ]
