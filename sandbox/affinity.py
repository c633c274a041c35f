"""One CPU per match: the runner's thread and its bots' processes share it.

A match is a conversation in turns: the runner writes an observation and
waits, the bot thinks and answers, and never do both run at once. On one CPU
each hand-over is a plain switch between two processes; across CPUs it is a
wake-up of an idle one, which on a virtual machine costs tens of
microseconds each way (docs/benchmarks.md). So while a thread has bot
processes, it stays on the CPU it was running on when the first one started,
and each bot host is told to move to that CPU before its bot is loaded.

Only the calling thread is pinned, so other threads of the runner (the jail
pool's refill) still use every CPU; it gets its former CPUs back when its last
bot closes.
"""

from __future__ import annotations

import contextlib
import os
import threading

_STAT_FIELDS_AFTER_NAME_TO_CPU = 36
"""In /proc/thread-self/stat, the fields after ``(comm)`` up to ``processor``
(field 39 of proc(5), counted from 1 with pid and comm as 1 and 2)."""


class _Pin(threading.local):
    users = 0
    cpu: int | None = None
    former: set[int] | None = None


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
            os.sched_setaffinity(0, {cpu})
        except OSError:
            return None
        _pin.cpu, _pin.former = cpu, former
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
        _pin.cpu = _pin.former = None
