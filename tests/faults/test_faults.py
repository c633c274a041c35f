"""Faults injected into the running site: every match finishes once, every rating moves once.

Driven through the HTTP API of the stack deploy/run_local.py starts (conftest).
Ranked Mia matches seat jailed uploaded bots that take a little time over each
decision, so a worker killed at any moment has matches in play. The tests run
in order on one stack; the last one checks the rating history of every match
the faults touched.
"""

from __future__ import annotations

import itertools
import os
import time
from datetime import datetime

import psycopg
import pytest
from celery import Celery

from tests.faults.conftest import Api, Stack, alive, descendants, kill, sign_up, wait_until

pytestmark = [pytest.mark.faults, pytest.mark.postgres, pytest.mark.redis, pytest.mark.jail]

LADDER = "mia-classic-4"
KILLS = int(os.environ.get("TAVOLO_FAULT_KILLS", "3"))
"""Workers SIGKILLed mid-match; each costs about a lease and a match (40-60 s here)."""
RECOVERY_SECONDS = 60
DELIBERATE_BOT = """
import random
import time

def act(observation):
    time.sleep(0.04)
    return random.choice(observation["legal_actions"])
"""
"""A legal bot slow enough that a Mia match lasts several seconds."""


@pytest.fixture(scope="module")
def api(stack: Stack) -> Api:
    return sign_up(stack.url, "fault-owner", "a-long-fault-password-1")


@pytest.fixture(scope="module")
def uploaded(api: Api) -> list[int]:
    """Four accepted bots on the Mia ladder, their ids."""
    bots = [
        api.post("/bots/", {"name": f"deliberate-{n}", "ladder": LADDER, "source": DELIBERATE_BOT})
        for n in range(4)
    ]

    def accepted() -> bool:
        statuses = [api.get(f"/bots/{bot['id']}/versions/1/")["status"] for bot in bots]
        assert "rejected" not in statuses, statuses
        return set(statuses) == {"accepted"}

    wait_until(accepted, seconds=180, what="the uploads to qualify")
    return [bot["id"] for bot in bots]


touched: set[int] = set()
"""Matches in play when a fault struck; the last test checks each was recorded once."""


def unfinished(api: Api) -> dict[int, str]:
    """The queued and running matches among the newest, by id."""
    return {
        match["id"]: match["status"]
        for match in api.get("/matches/")["results"]
        if match["status"] in ("queued", "running")
    }


def running_with_uploads(api: Api, uploaded: list[int]) -> list[int]:
    return [
        match["id"]
        for match in api.get(f"/matches/?ladder={LADDER}")["results"]
        if match["status"] == "running"
        and any(seat["bot_id"] in uploaded for seat in match["seats"])
    ]


def moment(text: str) -> float:
    return datetime.fromisoformat(text).timestamp()


def wait_finished(api: Api, ids: set[int], seconds: float) -> dict[int, dict]:
    """The detail of each match once all have finished (none may fail)."""
    details: dict[int, dict] = {}

    def done() -> bool:
        for match_id in ids - set(details):
            detail = api.get(f"/matches/{match_id}/")
            assert detail["status"] != "failed", detail
            if detail["status"] == "finished":
                details[match_id] = detail
        return len(details) == len(ids)

    wait_until(done, seconds=seconds, what=f"matches {sorted(ids - set(details))} to finish")
    return details


def test_every_match_a_killed_worker_held_runs_again_within_a_minute_and_leaves_no_jail(
    stack: Stack, api: Api, uploaded: list[int]
) -> None:
    delays = []
    for number in range(KILLS):
        service = f"worker-matches-{number % 2 + 1}"
        wait_until(lambda: running_with_uploads(api, uploaded), seconds=90, what="a match in play")
        worker = stack.pid(service)
        family = descendants(worker)
        in_play = set(unfinished(api))
        kill(worker)
        killed_at = time.time()
        touched.update(in_play)
        for detail in wait_finished(api, in_play, seconds=180).values():
            started, finished = moment(detail["started_at"]), moment(detail["finished_at"])
            assert finished - killed_at <= RECOVERY_SECONDS + (finished - started) + 1, detail
            if started > killed_at:  # played again after the kill
                delays.append(started - killed_at)
        wait_until(
            lambda family=family: not any(alive(pid) for pid in family),
            seconds=10,
            what="the killed worker's processes (pool, jails, wardens) to end",
        )
        wait_until(
            lambda service=service, worker=worker: stack.pid(service) != worker,
            seconds=30,
            what="the worker to be started again",
        )
    print(f"\nrecovery after {KILLS} SIGKILLs: played again {sorted(round(d) for d in delays)} s")
    assert delays, "no kill interrupted a match"
    assert max(delays) <= RECOVERY_SECONDS


def test_matches_whose_messages_redis_lost_are_played_once_redis_is_back(
    stack: Stack, api: Api, uploaded: list[int]
) -> None:
    in_play = set(wait_until(lambda: unfinished(api), seconds=60, what="matches in play"))
    assert stack.redis.process is not None
    stack.redis.process.kill()
    stack.redis.process.wait()
    stack.redis.process = None
    time.sleep(3)
    stack.redis.start()  # empty: every queued message is gone
    touched.update(in_play)
    wait_finished(api, in_play, seconds=120)
    later = max(in_play)
    wait_until(
        lambda: any(m["id"] > later and m["status"] == "finished" for m in api.all("/matches/")),
        seconds=60,
        what="a match scheduled after the restart to finish",
    )


def test_results_written_while_database_connections_are_terminated_are_written_once(
    stack: Stack, api: Api, uploaded: list[int]
) -> None:
    database = stack.state["database_url"].rsplit("/", 1)[1]
    in_play = set(wait_until(lambda: unfinished(api), seconds=60, what="matches in play"))
    terminated = 0
    with psycopg.connect(stack.state["database_url"], autocommit=True) as admin:
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            terminated += admin.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = %s AND pid <> pg_backend_pid()",
                (database,),
            ).fetchone()[0]
            time.sleep(0.3)
    assert terminated
    # Each web process may answer its first request after the storm on a terminated
    # connection: ask until the site's kept connections are fresh again.
    wait_until(lambda: api.client.get("/matches/").status_code == 200, seconds=10, what="the API")
    in_play.update(unfinished(api))
    touched.update(in_play)
    wait_finished(api, in_play, seconds=150)


def test_a_match_delivered_twice_is_recorded_once(stack: Stack, api: Api) -> None:
    state = stack.state
    finished = [m for m in api.get("/matches/")["results"] if m["status"] == "finished"]
    match = finished[0]
    before = api.get(f"/matches/{match['id']}/")
    # Not this process's current app: the site's shared tasks must keep sending through theirs.
    with Celery(broker=state["redis_url"], set_as_current=False) as broker:
        broker.conf.broker_transport_options = {"global_keyprefix": state["redis_prefix"]}
        for _ in range(2):
            broker.send_task("matches.tasks.match_run", (match["id"],), queue="matches")
    time.sleep(5)
    assert api.get(f"/matches/{match['id']}/") == before
    touched.add(match["id"])


def test_every_match_the_faults_touched_moved_each_rating_once_in_order(
    api: Api, uploaded: list[int]
) -> None:
    wait_finished(api, touched, seconds=60)
    for match_id in touched:
        detail = api.get(f"/matches/{match_id}/")
        if detail["kind"] == "ranked":
            bots = {seat["bot_id"] for seat in detail["seats"]}
            assert sorted(c["bot_id"] for c in detail["rating_changes"]) == sorted(bots)
    for bot_id in uploaded:
        history = api.all(f"/bots/{bot_id}/ratings/")[::-1]  # oldest first
        matches = [change["match_id"] for change in history]
        assert len(matches) == len(set(matches)), "a match moved a rating twice"
        for earlier, later in itertools.pairwise(history):
            assert later["before"] == earlier["after"], (earlier, later)  # no update lost
        bot = api.get(f"/bots/{bot_id}/")
        assert bot["games"] == len(history)
        assert bot["rating"] == history[-1]["after"]
