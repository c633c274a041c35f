"""Killed bots' cgroups, deleted once their last process has left, without waiting for it.

A killed jail's processes take a moment to leave its group, and a group can
only be deleted empty. Rather than wait after every kill, `bury` keeps the
group and deletes, each time it is called, the groups found empty by then.
What is left at the process's exit is deleted then (waiting as
`BotCgroup.remove` does: `sandbox.exits`); a runner killed before that
leaves them to its warden (`sandbox.warden`).
"""

from __future__ import annotations

import errno
import os
import threading

from sandbox.cgroups.base import BotCgroup, log
from sandbox.exits import ORDER_GRAVEYARD, at_exit

_lock = threading.Lock()
REAP = {"jail_event": "reap"}
_dying: list[BotCgroup] = []
_pid: int | None = None
"""The process whose exit deletes what is left."""


def bury(group: BotCgroup) -> None:
    """Delete `group`, whose processes were killed, as soon as it is empty; and any
    group buried earlier that is empty now."""
    global _pid
    with _lock:
        if _pid != os.getpid():
            _pid = os.getpid()
            at_exit(_remove_all, ORDER_GRAVEYARD)
        _dying.append(group)
        candidates = list(_dying)
    empty = [each for each in candidates if not _members(each)]
    with _lock:  # another thread may have found the same group empty and taken it first
        taken = [each for each in empty if each in _dying]
        for each in taken:
            _dying.remove(each)
    for each in taken:
        each.remove()
    if taken:
        log.debug("deleted %d killed jails' cgroups, empty now", len(taken), extra=REAP)


def _members(group: BotCgroup) -> list[int]:
    try:
        return group.processes()
    except FileNotFoundError:  # another runner's reaper deleted it
        return []
    except OSError as error:
        if error.errno == errno.ENODEV:  # deleted while being read, by another thread's `bury`
            return []
        raise


def _remove_all() -> None:
    """Delete every group still buried, waiting for their last processes."""
    with _lock:
        left = list(_dying)
        _dying.clear()
    for each in left:
        each.remove()


def _forget_after_fork() -> None:
    """A forked child has its own graveyard: the parent's groups are the parent's to delete."""
    global _lock
    _lock = threading.Lock()  # another thread may have held it at the fork
    _dying.clear()


os.register_at_fork(after_in_child=_forget_after_fork)
