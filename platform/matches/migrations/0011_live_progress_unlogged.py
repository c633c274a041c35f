# On PostgreSQL the live progress table is unlogged: a write to it does not wait for the
# disk, and a crash of the database empties it, which costs spectators a moment of the
# matches being played. Its key to the match has no constraint in the database, whose
# check would lock the match's row in the logged table and so wait for the disk again.

import django.db.models.deletion
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def _progress_logged(schema_editor: BaseDatabaseSchemaEditor, logged: bool) -> None:
    if schema_editor.connection.vendor == "postgresql":
        table = schema_editor.quote_name("matches_matchprogress")
        schema_editor.execute(f"ALTER TABLE {table} SET {'LOGGED' if logged else 'UNLOGGED'}")


def progress_unlogged(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _progress_logged(schema_editor, logged=False)


def progress_logged(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _progress_logged(schema_editor, logged=True)


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0010_live_progress_in_pieces"),
    ]

    operations = [
        migrations.AlterField(
            model_name="matchprogress",
            name="match",
            field=models.ForeignKey(
                db_constraint=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="progress",
                to="matches.match",
            ),
        ),
        migrations.RunPython(progress_unlogged, progress_logged),
    ]
