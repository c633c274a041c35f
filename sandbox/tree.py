"""Signals to every process of a bot: a tree found through /proc, or a cgroup's members.

A jail is paused with SIGSTOP to each member of its cgroup (docs/sandbox.md);
without a cgroup, to each process of its tree. A stopped process cannot
fork, so stopping repeats until a pass finds no new process. A process that
left the tree (double fork, reparented to init) is out of reach of the tree
walk, which is why the jail's pid namespace and cgroup are the real
containment and the walk is the fallback.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Callable, Iterable


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


def stop_all(members: Callable[[], Iterable[int]]) -> list[int]:
    """Stop every process `members` lists, asking again until it lists none not yet
    stopped (one may fork while the others stop); return them all."""
    stopped: set[int] = set()
    while pending := [pid for pid in members() if pid not in stopped]:
        for each in pending:
            send(each, signal.SIGSTOP)
        stopped.update(pending)
    return sorted(stopped)


def continue_all(pids: Iterable[int]) -> None:
    """Let these stopped processes run again."""
    for each in pids:
        send(each, signal.SIGCONT)


def stop_tree(pid: int) -> list[int]:
    """Stop `pid` and every descendant until none is left running; return them all."""
    return stop_all(lambda: [pid, *descendants(pid)])


def continue_tree(pid: int) -> None:
    """Let `pid` and every descendant run again."""
    continue_all([pid, *descendants(pid)])


def kill_tree(pid: int) -> None:
    """Stop the whole tree first (so nothing forks away), then kill every member."""
    for each in stop_tree(pid):
        send(each, signal.SIGKILL)
