"""Tournament formats: round-robin, Swiss and knockout, driven by results.

Pure Python with no Django, so `tavolo tournament` and the server run exactly
the same schedule. See `formats.make_format` for the interface.
"""

from arena.tournaments.formats import ELIMINATIONS, FORMAT_NAMES, Format, make_format
from arena.tournaments.standings import Standing
from arena.tournaments.tables import Table, TableResult, TournamentError

__all__ = [
    "ELIMINATIONS",
    "FORMAT_NAMES",
    "Format",
    "Standing",
    "Table",
    "TableResult",
    "TournamentError",
    "make_format",
]
