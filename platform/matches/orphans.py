"""Stored files no match points to: replays and logs of runs that were never recorded.

A run whose result is not recorded deletes the files it wrote
(`matches.playing.match_outcome_discard`), but a worker killed between writing
them and recording the result leaves them behind. They are found by listing
the storage's ``replays/`` and ``logs/`` folders and keeping the names no
match or seat refers to; a file younger than `min_age` is left alone, since a
match being finished right now may not have recorded its names yet.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from django.core.files.storage import default_storage
from django.utils import timezone

from matches.models import Match, MatchSeat

STORED_FOLDERS = ("replays", "logs")
"""The folders of `matches.playing.match_outcome_store`."""

ORPHAN_MIN_AGE = timedelta(hours=1)
"""Far longer than recording a played match takes."""


def _stored_names(folder: str) -> Iterator[str]:
    if not default_storage.exists(folder):
        return
    folders, files = default_storage.listdir(folder)
    for name in files:
        yield f"{folder}/{name}"
    for inner in folders:
        yield from _stored_names(f"{folder}/{inner}")


def _referenced_names() -> set[str]:
    names = set(Match.objects.exclude(replay="").values_list("replay", flat=True))
    for log, entries in MatchSeat.objects.values_list("log", "log_entries"):
        names.update(name for name in (log, entries) if name)
    return names


def orphaned_files(*, min_age: timedelta = ORPHAN_MIN_AGE) -> list[str]:
    """Stored replays and logs that no match or seat refers to, written over `min_age` ago."""
    referenced = _referenced_names()
    cutoff = timezone.now() - min_age
    return sorted(
        name
        for folder in STORED_FOLDERS
        for name in _stored_names(folder)
        if name not in referenced and default_storage.get_modified_time(name) < cutoff
    )


def orphaned_files_delete(*, names: list[str]) -> None:
    """Delete `names` (as `orphaned_files` found them) from the storage."""
    for name in names:
        default_storage.delete(name)
