"""The standalone's message broker (no REDIS_URL) across processes, as the site uses it.

The web server, the worker and the scheduler each publish and consume through
one folder. Several producers and consumers at once must hand over every
message exactly once, whole: kombu's own filesystem transport let a consumer
read a message file before its producer had written it, which raised a
JSONDecodeError in the consumer (the Celery worker's "Unrecoverable error")
and lost the message.
"""

from __future__ import annotations

import multiprocessing
import queue
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any

import pytest
from kombu import Connection

from tavolo_site.celery import app as celery_app

PRODUCERS = 4
CONSUMERS = 4
MESSAGES = 150
"""Per producer."""
PADDING = list(range(20_000))
"""Makes each message take a while to encode, as a large task would: the time a reader had
to find its file empty."""
WAIT_SECONDS = 60

pytestmark = pytest.mark.skipif(
    str(celery_app.conf.broker_url).startswith("redis"), reason="REDIS_URL is set: not the folder"
)


def connection(folder: Path) -> Connection:
    """A connection to the site's broker, in `folder`, polling often to widen any race."""
    options = {
        "data_folder_in": str(folder / "queue"),
        "data_folder_out": str(folder / "queue"),
        "control_folder": str(folder / "control"),
        "polling_interval": 0.001,
    }
    return Connection(celery_app.conf.broker_url, transport_options=options)


def produce(folder: Path, producer: int) -> None:
    with connection(folder) as broker:
        jobs = broker.SimpleQueue("jobs")
        for number in range(MESSAGES):
            jobs.put({"producer": producer, "number": number, "padding": PADDING})
        jobs.close()


def consume(folder: Path, results: Any, done: Event) -> None:
    """Take messages until `done` and the queue is empty; put what was taken, or the error."""
    taken: list[tuple[int, int]] = []
    try:
        with connection(folder) as broker:
            jobs = broker.SimpleQueue("jobs")
            while True:
                try:
                    message = jobs.get(block=True, timeout=0.2)
                except queue.Empty:
                    if done.is_set():
                        break
                    continue
                taken.append((message.payload["producer"], message.payload["number"]))
                message.ack()
            jobs.close()
    except Exception as error:
        results.put(("error", repr(error)))
        return
    results.put(("taken", taken))


def test_every_message_is_taken_once_whole_by_processes_sharing_the_folder(
    tmp_path: Path,
) -> None:
    for name in ("queue", "control"):
        (tmp_path / name).mkdir()
    processes = multiprocessing.get_context("fork")
    results = processes.Queue()
    done = processes.Event()
    consumers = [
        processes.Process(target=consume, args=(tmp_path, results, done)) for _ in range(CONSUMERS)
    ]
    producers = [
        processes.Process(target=produce, args=(tmp_path, number)) for number in range(PRODUCERS)
    ]
    for process in consumers + producers:
        process.start()
    for process in producers:
        process.join(WAIT_SECONDS)
    done.set()
    answers = [results.get(timeout=WAIT_SECONDS) for _ in consumers]
    for process in consumers:
        process.join(WAIT_SECONDS)
    errors = [detail for kind, detail in answers if kind == "error"]
    assert not errors
    taken = [pair for kind, pairs in answers if kind == "taken" for pair in pairs]
    expected = {(producer, number) for producer in range(PRODUCERS) for number in range(MESSAGES)}
    assert sorted(taken) == sorted(expected)  # none lost, none twice


def test_a_message_that_cannot_be_decoded_is_set_aside_and_the_next_one_taken(
    tmp_path: Path,
) -> None:
    for name in ("queue", "control"):
        (tmp_path / name).mkdir()
    with connection(tmp_path) as broker:
        jobs = broker.SimpleQueue("jobs")
        jobs.put({"number": 1})
        (tmp_path / "queue" / "0_cut-short.jobs.msg").write_bytes(b'{"body": "abc')
        message = jobs.get(timeout=5)
        assert message.payload == {"number": 1}
        message.ack()
        jobs.close()
    assert [path.name for path in (tmp_path / "queue").iterdir()] == [
        "0_cut-short.jobs.msg.unreadable"
    ]
