"""Which cgroups jail the bots here: v2, v1 or none, chosen once per process.

v2 is chosen when `TAVOLO_CGROUP_ROOT` names a group, or when the runner's
v2 group is writable and offers both the memory and pids controllers (a
cgroup v2 machine with a delegated subtree). Otherwise v1, when its memory,
pids and freezer controllers are writable. Otherwise v2 without limits, if
a writable v2 group is there at all (hybrid machines whose controllers are
bound to v1): it still freezes and kills. Otherwise none: limits come from
rlimits alone and pausing from SIGSTOP over the process tree.

One line in the log says which, with any limit left to rlimits; the groups
of runners that died are reaped at the same moment. `TAVOLO_CGROUPS=0` in the
environment asks for none, whatever the machine offers: the fallback, on purpose.
"""

from __future__ import annotations

import functools
import os
import threading

from sandbox.cgroups.base import LIMITS, BotCgroup, Hierarchy, log
from sandbox.cgroups.v1 import V1Hierarchy
from sandbox.cgroups.v2 import ROOT_VARIABLE, V2Hierarchy, default_root

__all__ = ["BotCgroup", "Hierarchy", "cgroup_limits", "cgroups_usable", "hierarchy"]


def _detect() -> Hierarchy | str:
    """The hierarchy to use, or why there is none."""
    try:
        v2: V2Hierarchy | None = V2Hierarchy(default_root())
    except (OSError, LookupError) as error:
        v2, v2_problem = None, str(error)
    if v2 and (os.environ.get(ROOT_VARIABLE) or v2.limits == LIMITS):
        return v2
    try:
        return V1Hierarchy()
    except (OSError, LookupError) as error:
        v1_problem = str(error)
    if v2:
        return v2
    return f"cgroup v2: {v2_problem}; cgroup v1: {v1_problem}"


OFF_VARIABLE = "TAVOLO_CGROUPS"
"""``0`` here runs the jails without cgroups, as on a machine that offers none."""

_detecting = threading.Lock()


def hierarchy() -> Hierarchy | None:
    """The cgroups bot jails use in this process, or None; says which in the log, once.

    Bots of one match start from several threads: the first call detects and
    reaps while the others wait, so the groups are never probed or reaped twice.
    """
    if os.environ.get(OFF_VARIABLE) == "0":
        return None
    with _detecting:
        return _hierarchy()


@functools.cache
def _hierarchy() -> Hierarchy | None:
    found = _detect()
    if isinstance(found, str):
        log.warning("bot jails run without cgroups (rlimits alone, SIGSTOP to pause): %s", found)
        return None
    if found.limits == LIMITS:
        log.info("%s", found.describe())
    else:
        log.warning("%s", found.describe())
    found.reap_orphans()
    return found


def cgroups_usable() -> bool:
    """True if each jail gets a cgroup that freezes and kills it."""
    return hierarchy() is not None


def cgroup_limits() -> tuple[str, ...]:
    """Which limits (``memory``, ``pids``) the jails' cgroups enforce here."""
    found = hierarchy()
    return found.limits if found else ()


def reap_orphans() -> int:
    """Kill and delete the bot groups of runners that died; return how many."""
    found = hierarchy()
    return found.reap_orphans() if found else 0
