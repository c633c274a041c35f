"""Signals to a whole process tree, found through /proc.

Used to pause, resume and kill a bot when no freezer cgroup is available. A
stopped process cannot fork, so stopping repeats until a pass finds no new
process; a process that left the tree (double fork, reparented to init) is
out of reach, which is why the jail's pid namespace and cgroup are the real
containment and this is the fallback.
"""

from __future__ import annotations

import contextlib
import os
import signal


def descendants(pid: int) -> list[int]:
    """`pid`'s children, grandchildren and so on, read from /proc/<pid>/task/*/children."""
    found: list[int] = []
    pending = [pid]
    while pending:
        parent = pending.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{parent}/task/{task}/children", "rb") as children:
                    kids = [int(kid) for kid in children.read().split()]
            except OSError:
                continue
            found += kids
            pending += kids
    return found


def send(pid: int, signum: int) -> None:
    """Send a signal, ignoring a process that is already gone."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signum)


def stop_tree(pid: int) -> list[int]:
    """Stop `pid` and every descendant until none is left running; return them all."""
    stopped: set[int] = set()
    pending = [pid]
    while pending:
        for each in pending:
            send(each, signal.SIGSTOP)
        stopped.update(pending)
        pending = [kid for kid in descendants(pid) if kid not in stopped]
    return sorted(stopped)


def continue_tree(pid: int) -> None:
    """Let `pid` and every descendant run again."""
    for each in [pid, *descendants(pid)]:
        send(each, signal.SIGCONT)


def kill_tree(pid: int) -> None:
    """Stop the whole tree first (so nothing forks away), then kill every member."""
    for each in stop_tree(pid):
        send(each, signal.SIGKILL)
