"""Playing one match on a worker: open each seat's bot, run the arena, store the files.

House bots run in the worker's own process; uploaded versions run in the jail
(`sandbox`), each from a copy of its source in a private temporary folder. A
worker without the jail refuses to run uploaded code, unless the site was
explicitly started with ``TAVOLO_ALLOW_UNJAILED=1`` for development.
"""

from __future__ import annotations

import json
import logging
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from arena.bots.handle import BotHandle
from arena.bots.registry import open_bot
from arena.replay import dumps_replay
from arena.rerun import seat_bot_seed
from arena.runner import DEFAULT_TIME_CONTROL, MatchRecord, play_match
from matches.live import ProgressWriter
from matches.models import Match, MatchSeat
from sandbox.process_bot import jail_available as jail_available  # re-exported: monkeypatched

logger = logging.getLogger(__name__)

UNJAILED_WARNING = (
    "RUNNING UPLOADED BOTS WITHOUT THE JAIL (TAVOLO_ALLOW_UNJAILED=1): they can read and change "
    "anything this worker can. Never do this with bots you did not write yourself."
)


class JailUnavailableError(RuntimeError):
    """This worker cannot jail bots, and running them unjailed is not allowed."""


@dataclass(frozen=True)
class SeatOutcome:
    """How one seat ended, as recorded on its `MatchSeat`."""

    place: int
    infractions: int = 0
    crashed: bool = False
    crash_reason: str = ""
    infraction_reasons: list[dict] = field(default_factory=list)
    log_name: str = ""
    log_entries_name: str = ""


@dataclass(frozen=True)
class MatchOutcome:
    """Everything `match_finish` records about a played match."""

    result: dict
    seats: list[SeatOutcome]
    decisions: int
    replay_name: str = ""

    def stored_names(self) -> list[str]:
        """The files this outcome wrote to storage."""
        names = [self.replay_name]
        names += [name for seat in self.seats for name in (seat.log_name, seat.log_entries_name)]
        return [name for name in names if name]


def uploaded_bots_jailed() -> bool:
    """Whether to jail uploaded bots here: True, or False only when explicitly allowed."""
    if jail_available():
        return True
    if settings.TAVOLO_ALLOW_UNJAILED:
        logger.warning(UNJAILED_WARNING)
        return False
    raise JailUnavailableError(
        "this worker has no working jail (bubblewrap), so it will not run uploaded bots"
    )


def match_record_play(*, match: Match, progress: ProgressWriter) -> MatchRecord:
    """Play `match` from its seed with the bots in its seats, its events written for
    spectators by `progress`; return the arena's record."""
    seats = list(match.seats.select_related("bot__owner", "bot_version").order_by("seat"))
    game = match.ladder.make_game()
    seed = int(match.seed, 16)
    jail = uploaded_bots_jailed() if any(not seat.bot.is_house for seat in seats) else True
    with tempfile.TemporaryDirectory(prefix=f"tavolo-match-{match.pk}-") as folder:
        handles = [_open_seat(seat, game.name, seed, Path(folder), jail) for seat in seats]
        progress.start(game=game, seed=seed, bot_names=[bot.name for bot in handles])
        return play_match(
            game, handles, seed=seed, time_control=DEFAULT_TIME_CONTROL, on_progress=progress
        )


def seat_display_name(seat: MatchSeat) -> str:
    """How a seat's bot is named in the replay: owner/bot@vN, or the house bot's spec."""
    if seat.bot.is_house:
        return seat.bot.name
    return f"{seat.bot.owner.username}/{seat.bot.name}@v{seat.bot_version.number}"


def _open_seat(seat: MatchSeat, game: str, seed: int, folder: Path, jail: bool) -> BotHandle:
    name = seat_display_name(seat)
    bot_seed = seat_bot_seed(seed, seat.seat)
    if seat.bot.is_house:
        return open_bot(seat.bot.name, game=game, seed=bot_seed, name=name)
    path = folder / f"seat-{seat.seat}" / "bot.py"
    path.parent.mkdir()
    path.write_text(seat.bot_version.source, encoding="utf-8")
    return open_bot(str(path), game=game, seed=bot_seed, jail=jail, name=name)


def match_outcome_store(*, match: Match, record: MatchRecord) -> MatchOutcome:
    """Write the gzipped replay, each seat's capped log and its log by decision to storage.

    Names are chosen by the storage, never overwritten, so a second run of the
    same match cannot replace the files of the run that was recorded.
    """
    replay_name = default_storage.save(
        f"replays/{match.ladder.slug}/{match.pk}.json.gz",
        ContentFile(dumps_replay(record.replay, compress=True)),
    )
    places = record.result["places"]
    seats = []
    for index, seat in enumerate(record.seats):
        log_name = log_entries_name = ""
        if seat.log:
            log_name = default_storage.save(
                f"logs/{match.pk}/seat-{index}.txt", ContentFile(log_cap(seat.log).encode())
            )
        if seat.log_entries:
            log_entries_name = default_storage.save(
                f"logs/{match.pk}/seat-{index}.entries.json",
                ContentFile(json.dumps(seat.log_entries).encode()),
            )
        seats.append(
            SeatOutcome(
                place=places[index],
                infractions=seat.infractions,
                crashed=seat.crashed,
                crash_reason=seat.crash_reason or "",
                infraction_reasons=[
                    {"reason": infraction.reason, "decision": infraction.decision}
                    for infraction in seat.infraction_reasons
                ],
                log_name=log_name,
                log_entries_name=log_entries_name,
            )
        )
    return MatchOutcome(
        result=record.result, seats=seats, decisions=record.decisions, replay_name=replay_name
    )


def match_outcome_discard(*, outcome: MatchOutcome) -> None:
    """Delete the files of an outcome that was not recorded."""
    for name in outcome.stored_names():
        default_storage.delete(name)


def log_cap(log: str, limit: int | None = None) -> str:
    """`log` cut to about `limit` bytes, keeping its start and its end (where tracebacks are)."""
    limit = settings.TAVOLO_LOG_LIMIT_BYTES if limit is None else limit
    data = log.encode("utf-8", errors="replace")
    if len(data) <= limit:
        return log
    half = limit // 2
    head = data[:half].decode("utf-8", errors="ignore")
    tail = data[len(data) - half :].decode("utf-8", errors="ignore")
    return f"{head}\n[... {len(data) - 2 * half} bytes cut ...]\n{tail}"
