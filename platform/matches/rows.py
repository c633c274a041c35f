"""Writing a few fields of several saved rows in one statement, cheaply.

`QuerySet.bulk_update` writes the same SQL (a `CASE` on the key per field) but
builds and resolves an ORM expression for every row and field, which costs a
match's finish more CPU than all its other statements together. Here the
statement is laid out as text, each value cast to its column's type where the
database needs it (PostgreSQL).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection, models


def rows_update(objects: Sequence[models.Model], fields: Sequence[str]) -> None:
    """Write `fields` of `objects` (saved rows of one model) in one UPDATE."""
    if not objects:
        return
    meta = objects[0]._meta
    quote = connection.ops.quote_name
    key = quote(meta.pk.column)
    assignments = []
    values: list[Any] = []
    for name in fields:
        field = meta.get_field(name)
        assert isinstance(field, models.Field)
        cast = "%s"
        if connection.features.requires_casted_case_in_updates:  # PostgreSQL
            cast = f"CAST(%s AS {field.db_type(connection)})"
        cases = " ".join([f"WHEN %s THEN {cast}"] * len(objects))
        assignments.append(f"{quote(field.column)} = CASE {key} {cases} END")
        for row in objects:
            values += [row.pk, field.get_db_prep_save(getattr(row, field.attname), connection)]
    keys = ", ".join(["%s"] * len(objects))
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {quote(meta.db_table)} SET {', '.join(assignments)} WHERE {key} IN ({keys})",
            [*values, *(row.pk for row in objects)],
        )
