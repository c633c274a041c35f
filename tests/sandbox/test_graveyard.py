"""Killed bots' cgroups are deleted once empty, whichever thread buries them."""

from __future__ import annotations

import threading
import time

import pytest

from sandbox.cgroups import graveyard, hierarchy

pytestmark = pytest.mark.skipif(hierarchy() is None, reason="no cgroups here to bury")


def test_two_threads_finding_one_group_empty_delete_it_once_and_raise_nothing():
    found = hierarchy()
    assert found is not None
    shared, own = found.create(), found.create()
    both_looking, both_looked = threading.Barrier(2, timeout=5), threading.Event()
    removed = []

    class SeenByBoth(type(shared)):  # a real group, read by both threads at once
        def processes(self):
            if not both_looked.is_set():  # only the two threads' first look waits
                both_looking.wait()
                both_looked.set()
            return super().processes()

        def remove(self):
            removed.append(self)
            super().remove()

    shared.__class__ = SeenByBoth
    errors = []

    def bury(group):
        try:
            graveyard.bury(group)
        except Exception as error:  # what would end a jail pool's keeper thread
            errors.append(error)

    first = threading.Thread(target=bury, args=(shared,))
    first.start()
    deadline = time.monotonic() + 5
    while both_looking.n_waiting == 0 and time.monotonic() < deadline:
        time.sleep(0.001)  # until the first thread has taken `shared` as a candidate
    second = threading.Thread(target=bury, args=(own,))
    second.start()
    first.join(10)
    second.join(10)
    assert errors == []
    assert removed == [shared]
    assert not any(path.exists() for group in (shared, own) for path in group.directories())
