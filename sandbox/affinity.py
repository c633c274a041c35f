"""One CPU per match: the runner's thread and its bots' processes share it.

A match is a conversation in turns: the runner writes an observation and
waits, the bot thinks and answers, and never do both run at once. On one CPU
each hand-over is a plain switch between two processes; across CPUs it is a
wake-up of an idle one, which on a virtual machine costs tens of
microseconds each way (docs/benchmarks.md). So while a thread has bot
processes, it stays on one CPU, and each bot host is told to move to that CPU
before its bot is loaded.

The CPU is one that no other match on the machine holds, where there is one:
each pinned thread holds a lock on a file named after its CPU (`CLAIMS`), so
two matches of `tavolo play --jobs 2`, or two worker processes, never share a
CPU while another idles. Pins are sticky (a thread that unpins and pins again
is still where it was), so a choice left to chance would keep two matches on
one CPU for a whole series. A lock dies with its process; where the files
cannot be made, the thread keeps to the CPU it runs on.

Only the calling thread is pinned, so other threads of the runner (the jail
pool's refill) still use every CPU; it gets its former CPUs back when its last
bot closes.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
import threading
from pathlib import Path

CLAIMS = Path(tempfile.gettempdir()) / "tavolo-cpu-claims"
"""Where a pinned thread locks the file of its CPU; shared by every Tavolo process of the
machine, since they share its CPUs."""

_STAT_FIELDS_AFTER_NAME_TO_CPU = 36
"""In /proc/thread-self/stat, the fields after ``(comm)`` up to ``processor``
(field 39 of proc(5), counted from 1 with pid and comm as 1 and 2)."""


class _Pin(threading.local):
    users = 0
    cpu: int | None = None
    former: set[int] | None = None
    claim: int | None = None


_pin = _Pin()


def current_cpu() -> int | None:
    """The CPU the calling thread runs on now, or None where that cannot be told."""
    try:
        with open("/proc/thread-self/stat", "rb") as stat:
            fields = stat.read().rpartition(b")")[2].split()
        return int(fields[_STAT_FIELDS_AFTER_NAME_TO_CPU])
    except (OSError, IndexError, ValueError):
        return None


def join() -> int | None:
    """Pin the calling thread for one more bot process; return the CPU the bot should use.

    None where affinity cannot be set: the bot then runs wherever the kernel likes.
    """
    if _pin.users == 0:
        cpu = current_cpu()
        if cpu is None or not hasattr(os, "sched_setaffinity"):
            return None
        try:
            former = os.sched_getaffinity(0)
            chosen, claim = _claimed(cpu, former)
            os.sched_setaffinity(0, {chosen})
        except OSError:
            return None
        _pin.cpu, _pin.former, _pin.claim = chosen, former, claim
    _pin.users += 1
    return _pin.cpu


def leave() -> None:
    """One bot process fewer; with none left, the thread may run on its former CPUs again."""
    if _pin.users == 0:
        return
    _pin.users -= 1
    if _pin.users == 0 and _pin.former is not None:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, _pin.former)
        if _pin.claim is not None:
            os.close(_pin.claim)  # the lock goes with the descriptor
        _pin.cpu = _pin.former = _pin.claim = None


def _claimed(current: int, allowed: set[int]) -> tuple[int, int | None]:
    """A CPU of `allowed` no other pinned thread holds, the current one first, and the
    descriptor holding its lock; the current CPU, unclaimed, if every one is held."""
    for cpu in sorted(allowed, key=lambda each: each != current):
        claim = _lock(cpu)
        if claim is not None:
            return cpu, claim
    return current, None


def _lock(cpu: int) -> int | None:
    """An open descriptor holding the lock of `cpu`'s file, or None if it is held or
    cannot be made."""
    try:
        with contextlib.suppress(FileExistsError):
            CLAIMS.mkdir()
            CLAIMS.chmod(0o1777)  # every user's runners share the machine's CPUs
        claim = os.open(
            CLAIMS / f"cpu-{cpu}", os.O_RDONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644
        )
    except OSError:
        return None
    try:
        fcntl.flock(claim, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(claim)
        return None
    return claim
