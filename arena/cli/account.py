"""`tavolo login` and `tavolo upload`: talk to a Tavolo server over its REST API.

These commands speak HTTP only (docs/api.md); they never import the platform, and
import httpx only when they run.
The personal API token is kept in ``credentials.json`` in the config folder
(``$TAVOLO_CONFIG_DIR``, else ``$XDG_CONFIG_HOME/tavolo``, else
``~/.config/tavolo``), readable by its owner only: one token per server URL,
and the server logged in to last, which commands use when `--server` is not
given. The file reads ``{"default": URL, "servers": {URL: token}}``.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from arena.cli.output import CliError, display_text, tavolo_command
from arena.units import seconds_text

if TYPE_CHECKING:
    import httpx

DEFAULT_SERVER = "http://127.0.0.1:8000"
CREDENTIALS_FILE = "credentials.json"
DECIDED_STATUSES = frozenset({"accepted", "rejected"})
LOG_TAIL_LINES = 20

server_option = click.option(
    "--server",
    envvar="TAVOLO_SERVER",
    help="The Tavolo server's address (or set TAVOLO_SERVER); by default the one "
    f"logged in to last, else {DEFAULT_SERVER}.",
)


def config_dir() -> Path:
    """The folder holding Tavolo's own settings for this user."""
    explicit = os.environ.get("TAVOLO_CONFIG_DIR")
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base).expanduser() / "tavolo"


def server_key(server: str) -> str:
    """The server URL as credentials are keyed: no trailing slash."""
    return server.rstrip("/")


def read_credentials() -> dict[str, Any]:
    """The stored file: ``{"default": URL or None, "servers": {URL: token}}``."""
    path = config_dir() / CREDENTIALS_FILE
    try:
        stored = json.loads(path.read_text())
    except FileNotFoundError:
        return {"default": None, "servers": {}}
    except (OSError, ValueError) as error:
        raise CliError(f"cannot read {path}: {error}") from None
    if not isinstance(stored, dict):
        stored = {}
    # A file written before the default server was kept maps URL -> token directly.
    servers = stored.get("servers", {} if "default" in stored else stored)
    if not isinstance(servers, dict):
        raise CliError(f"{path} is not a Tavolo credentials file: delete it and log in again")
    default = stored.get("default")
    return {
        "default": str(default) if default else None,
        "servers": {str(url): str(token) for url, token in servers.items()},
    }


def stored_token(server: str) -> str | None:
    """The token kept for `server`, if any."""
    token: str | None = read_credentials()["servers"].get(server_key(server))
    return token


def chosen_server(server: str | None) -> str:
    """The server to talk to: `server` if given, else the last one logged in to."""
    if server:
        return server_key(server)
    return read_credentials()["default"] or DEFAULT_SERVER


def store_token(server: str, token: str) -> Path:
    """Keep `token` for `server`, now the default server, readable by its owner only."""
    credentials = read_credentials()
    credentials["servers"][server_key(server)] = token
    credentials["default"] = server_key(server)
    folder = config_dir()
    path = folder / CREDENTIALS_FILE
    try:
        folder.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.fchmod(descriptor, 0o600)
        with os.fdopen(descriptor, "w") as file:
            json.dump(credentials, file, indent=2, sort_keys=True)
    except OSError as error:
        raise CliError(f"cannot write {path}: {error.strerror or error}") from None
    return path


class Server:
    """One Tavolo server's REST API, with the stored token when there is one."""

    def __init__(self, url: str, token: str | None = None) -> None:
        import httpx  # only the commands that talk to a server pay for importing it

        self.url = server_key(url)
        headers = {"Accept": "application/json"}
        if token:
            headers["Authorization"] = f"Token {token}"
        self.client = httpx.Client(base_url=f"{self.url}/api", headers=headers, timeout=30)

    @classmethod
    def logged_in(cls, server: str | None) -> Server:
        """The chosen server (`chosen_server`) with its token; a CliError when there is none."""
        url = chosen_server(server)
        token = stored_token(url)
        if token is None:
            login = tavolo_command("login", "--server", url)
            raise CliError(f"not logged in to {url}: run {login}")
        return cls(url, token)

    @classmethod
    def as_stored(cls, server: str | None) -> Server:
        """The chosen server with its stored token if there is one, anonymous otherwise."""
        url = chosen_server(server)
        return cls(url, stored_token(url))

    def send(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        """The server's answer; a CliError with the server's reason on any failure."""
        import httpx

        try:
            response = self.client.request(method, path, **kwargs)
        except httpx.HTTPError as error:
            raise CliError(f"cannot reach {self.url}: {error}") from None
        if response.status_code == 401:
            login = tavolo_command("login", "--server", self.url)
            raise CliError(f"{self.url} refused the credentials: run {login} again")
        if response.is_error:
            raise CliError(f"{self.url} said: {error_message(response)}")
        return response

    def request(self, method: str, path: str, **kwargs: Any) -> Any:
        """The decoded JSON answer; a CliError with the server's reason on any failure."""
        response = self.send(method, path, **kwargs)
        try:
            return response.json()
        except ValueError:
            raise CliError(f"{self.url} did not answer with JSON: is it a Tavolo server?") from None


def error_message(response: httpx.Response) -> str:
    """The server's reason for an error answer, on one line."""
    try:
        body = response.json()
    except ValueError:
        return f"HTTP {response.status_code}"
    if isinstance(body, dict) and "detail" in body:
        return str(body["detail"])
    if isinstance(body, dict):
        return "; ".join(f"{field}: {_joined(reasons)}" for field, reasons in body.items())
    return _joined(body)


def _joined(reasons: object) -> str:
    return " ".join(map(str, reasons)) if isinstance(reasons, list) else str(reasons)


@click.command()
@server_option
@click.option("--username", prompt=True, help="Your user name on the server.")
@click.password_option(confirmation_prompt=False, help="Asked for when not given.")
def login(server: str | None, username: str, password: str) -> None:
    """Log in to a Tavolo server and keep its API token for later commands.

    The server becomes the default one: later commands use it without --server.
    """
    server = chosen_server(server)
    answer = Server(server).request(
        "POST", "/token/", json={"username": username, "password": password}
    )
    token = answer.get("token") if isinstance(answer, dict) else None
    if not token:
        raise CliError(f"{server} answered without a token")
    path = store_token(server, str(token))
    display_text(f"logged in to {server} as {username}; token kept in {path}")


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--bot", "bot_name", required=True, help="The bot's name on the ladder.")
@click.option("--ladder", required=True, help="The ladder's slug, e.g. mia-classic-4.")
@server_option
@click.option("--wait", is_flag=True, help="Wait until the version is qualified or rejected.")
@click.option("--timeout", type=float, default=600, show_default=True, help="Seconds to --wait.")
@click.option("--poll-seconds", type=float, default=2, show_default=True, hidden=True)
def upload(
    file: Path,
    bot_name: str,
    ladder: str,
    server: str | None,
    wait: bool,
    timeout: float,
    poll_seconds: float,
) -> None:
    """Upload FILE as a new version of a bot, creating the bot if needed."""
    try:
        content = file.read_bytes()
    except OSError as error:
        raise CliError(f"cannot read {file}: {error.strerror or error}") from None
    api = Server.logged_in(server)
    upload_file = {"file": (file.name, content, "text/x-python")}
    bot = _own_bot(api, bot_name, ladder)
    if bot is None:
        created = api.request(
            "POST", "/bots/", data={"name": bot_name, "ladder": ladder}, files=upload_file
        )
        bot_id, version = created["id"], created["latest_version"]
        display_text(f"created bot {bot_name} on {ladder}")
    else:
        bot_id = bot["id"]
        version = api.request("POST", f"/bots/{bot_id}/versions/", files=upload_file)
    _show_version(bot_name, version)
    if wait:
        _wait_for_decision(api, bot_id, version, timeout=timeout, poll_seconds=poll_seconds)


def _own_bot(api: Server, name: str, ladder: str) -> dict[str, Any] | None:
    """The caller's bot called `name` on `ladder`; None when there is none yet."""
    me = api.request("GET", "/me/")
    page = api.request("GET", "/bots/", params={"ladder": ladder, "name": name})
    for bot in page["results"]:
        if bot["owner"] != me["username"]:
            raise CliError(f"the name {name!r} on {ladder} belongs to {bot['owner']}'s bot")
        found: dict[str, Any] = bot
        return found
    return None


def _show_version(bot_name: str, version: dict[str, Any]) -> None:
    line = f"{bot_name} version {version['number']}: {version['status']}"
    if version.get("reason"):
        line += f" ({version['reason']})"
    display_text(line)


def _wait_for_decision(
    api: Server, bot_id: int, version: dict[str, Any], *, timeout: float, poll_seconds: float
) -> None:
    """Poll until the version is accepted or rejected; exit 1 when it is rejected."""
    deadline = time.monotonic() + timeout
    path = f"/bots/{bot_id}/versions/{version['number']}/"
    while version["status"] not in DECIDED_STATUSES:
        if time.monotonic() > deadline:
            raise CliError(f"still {version['status']} after {seconds_text(timeout)}")
        time.sleep(poll_seconds)
        previous = version["status"]
        version = api.request("GET", path)
        if version["status"] != previous:
            display_text(f"  {version['status']}")
    if version["status"] == "accepted":
        display_text(f"version {version['number']} qualified: it now plays ranked matches")
        return
    log = api.request("GET", f"{path}log/").get("log", "")
    display_text(f"rejected: {version.get('reason') or 'no reason given'}")
    for match_id in version.get("qualification_matches", []):
        display_text(f"  qualification match: {api.url}/matches/{match_id}/")
    tail = [line for line in log.splitlines() if not line.startswith("match ")][-LOG_TAIL_LINES:]
    if tail:
        display_text("last lines the bot wrote to stderr:")
        display_text("\n".join(f"  {line}" for line in tail), lines=True)
    raise click.exceptions.Exit(1)
