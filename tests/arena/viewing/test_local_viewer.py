"""`tavolo replay view`: the replay in the viewer from a server on 127.0.0.1, no account needed."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from arena.bots.inprocess import InProcessBot
from arena.bots.registry import builtin_bots
from arena.games import make_game
from arena.replay import write_replay
from arena.runner import play_match
from arena.viewing.local import VIEWER, ReplayServer

SCRIPT_TAG = re.compile(r"<script\b([^>]*)>(.*?)</script>", re.S)


@pytest.fixture(scope="module")
def replay() -> dict:
    strong = builtin_bots("muggins")["strong"]
    bots = [InProcessBot(f"<b>{seat}</b>", strong(seat)) for seat in range(3)]
    return play_match(make_game("muggins", 3, None, {"target": 60}), bots, seed=5).replay


@pytest.fixture
def server(replay):
    server = ReplayServer(replay)
    server.serve_in_thread()
    yield server
    server.shutdown()
    server.server_close()


def get(url: str) -> tuple[int, dict, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_the_page_mounts_the_viewer_with_a_strict_policy_and_no_inline_script(server):
    status, headers, body = get(server.url)
    page = body.decode()
    assert status == 200 and server.url.startswith("http://127.0.0.1:")
    assert "'unsafe-inline'" not in headers["Content-Security-Policy"]
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert (
        'class="tavolo-viewer"' in page
        and 'data-seat-frames-url="/frames/seat-{seat}.json"' in page
    )
    scripts = SCRIPT_TAG.findall(page)
    assert scripts == [(' type="module" src="/tavolo-viewer/main.js"', "")]
    assert "style=" not in page
    assert "&lt;b&gt;0&lt;/b&gt;" in page and "<b>" not in page


def test_every_view_of_the_replay_is_served_as_frames(server, replay):
    for name, view in (("full", "full"), ("public", "public"), ("seat-2", 2)):
        status, headers, body = get(server.url + f"frames/{name}.json")
        assert status == 200 and headers["Content-Type"] == "application/json"
        document = json.loads(body)
        assert document["view"] == view and len(document["steps"]) == len(replay["events"])


def test_the_viewer_modules_are_served_and_nothing_else(server):
    status, headers, body = get(server.url + "tavolo-viewer/main.js")
    assert status == 200 and headers["Content-Type"].startswith("text/javascript")
    assert b'from "./viewer.js"' in body
    for path in ("frames/seat-9.json", "frames/everything.json", "tavolo-viewer/../local.py", "x"):
        assert get(server.url + path)[0] == 404, path


def test_the_viewer_never_inserts_markup_from_data():
    for path in VIEWER.glob("*.js"):
        source = path.read_text()
        assert "innerHTML" not in source and "insertAdjacentHTML" not in source, path.name
        assert "eval(" not in source and "new Function" not in source, path.name
        assert '.setAttribute("style"' not in source, path.name


def test_the_viewer_files_are_in_the_package():
    names = {path.name for path in VIEWER.iterdir()}
    assert {"main.js", "viewer.js", "viewer.css"} <= names


def test_the_command_prints_the_address_and_serves_until_stopped(tmp_path, replay):
    path = write_replay(tmp_path / "match.json.gz", replay)
    command = [sys.executable, "-c", "from arena.cli import main; main()", "replay", "view"]
    command += [str(path), "--no-open"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        address = line.split(": ", 1)[1].strip()
        assert line.startswith(f"{path}: http://127.0.0.1:")
        assert get(address)[0] == 200
        assert get(address + "frames/public.json")[0] == 200
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_the_command_refuses_a_file_that_is_not_a_replay(tmp_path):
    from click.testing import CliRunner

    from arena.cli import tavolo

    junk = tmp_path / "junk.json"
    junk.write_text("{}")
    result = CliRunner().invoke(tavolo, ["replay", "view", str(junk), "--no-open"])
    assert result.exit_code == 2 and "not a replay" in result.stderr


def test_play_keeps_the_logs_by_decision_and_view_shows_them(tmp_path):
    from click.testing import CliRunner

    from arena.cli import tavolo

    bot = tmp_path / "chatty.py"
    bot.write_text(
        "def act(observation):\n"
        "    print('I see', len(observation['history']), 'events')\n"
        "    return observation['legal_actions'][-1]\n"
    )
    folders = ["--replays", str(tmp_path / "r"), "--logs", str(tmp_path / "l")]
    arguments = ["play", "mia", str(bot), "builtin:random", "--no-jail", "--seed", "3", *folders]
    result = CliRunner().invoke(tavolo, arguments)
    assert result.exit_code == 0, result.output
    decisions = json.loads((tmp_path / "l" / "match-0001.decisions.json").read_text())
    assert list(decisions["seats"]) == ["0"]
    entry = decisions["seats"]["0"][0]
    assert entry["text"].startswith("I see ") and isinstance(entry["index"], int)

    server = ReplayServer({"seats": [{"bot": "x"}], "game": "mia"}, logs=decisions)
    server.serve_in_thread()
    try:
        assert 'data-logs-url="/logs.json"' in get(server.url)[2].decode()
        assert json.loads(get(server.url + "logs.json")[2]) == decisions
    finally:
        server.shutdown()
        server.server_close()
