"""`tavolo replay fetch`: download replays of finished matches from a Tavolo server.

Replays are public, so no login is needed; a stored token is sent when there is
one. The files are the server's own ``tavolo-match-ID.json.gz``, ready for
``tavolo replay verify`` and ``tavolo replay show``.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from typing import Any

import click

from arena.cli.account import Server, server_option
from arena.cli.output import CliError, display_text

FINISHED = "finished"


@click.command()
@click.argument("match_ids", nargs=-1, type=click.IntRange(min=1))
@click.option("--bot", "bot_name", help="Fetch the latest matches of the bot with this name.")
@click.option("--ladder", help="The bot's ladder, when its name is used on several.")
@click.option(
    "--last", type=click.IntRange(min=1), default=10, show_default=True, help="With --bot."
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    show_default=True,
    help="The folder to write the replays to.",
)
@server_option
def fetch(
    match_ids: tuple[int, ...],
    bot_name: str | None,
    ladder: str | None,
    last: int,
    out: Path,
    server: str | None,
) -> None:
    """Download the replays of MATCH_IDS, or of a bot's last finished matches (--bot)."""
    if not match_ids and bot_name is None:
        raise CliError("name matches by id, or a bot with --bot NAME")
    api = Server.as_stored(server)
    wanted = list(match_ids)
    if bot_name is not None:
        bot_id = _bot_id(api, bot_name, ladder)
        latest = islice(_finished_matches(api, bot_id), last)
        wanted += [match["id"] for match in latest]
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise CliError(f"cannot make {out}: {error.strerror or error}") from None
    for match_id in wanted:
        path = out / f"tavolo-match-{match_id}.json.gz"
        response = api.send("GET", f"/matches/{match_id}/replay/")
        try:
            path.write_bytes(response.content)
        except OSError as error:
            raise CliError(f"cannot write {path}: {error.strerror or error}") from None
        display_text(f"{path}")


def _bot_id(api: Server, name: str, ladder: str | None) -> int:
    params = {"name": name} | ({"ladder": ladder} if ladder else {})
    bots = api.request("GET", "/bots/", params=params)["results"]
    if not bots:
        raise CliError(f"there is no bot called {name!r}" + (f" on {ladder}" if ladder else ""))
    if len(bots) > 1:
        ladders = ", ".join(sorted(bot["ladder"] for bot in bots))
        raise CliError(f"{name!r} plays on several ladders ({ladders}): choose one with --ladder")
    return int(bots[0]["id"])


def _finished_matches(api: Server, bot_id: int) -> Iterator[dict[str, Any]]:
    """The bot's finished matches, newest first, page after page."""
    page: dict[str, Any] | None = api.request("GET", "/matches/", params={"bot": bot_id})
    while page is not None:
        yield from (match for match in page["results"] if match["status"] == FINISHED)
        page = api.request("GET", page["next"]) if page.get("next") else None
