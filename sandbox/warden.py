"""A warden per runner: when the runner dies, however it dies, its bots' cgroups die too.

bwrap's ``--die-with-parent`` kills a jail when its runner dies, but its
cgroups stay behind, and a process frozen by a v1 freezer (a bot the runner
was killing) cannot die until it is thawed. So the first jail a runner process puts in a cgroup
also starts a warden: a small process in a session of its own that waits on a
pipe whose only writer is the runner. The pipe ends when the runner ends (exit,
crash or SIGKILL); the warden then thaws, kills and deletes the groups that
runner made, and exits. If the warden itself is gone too, the next runner on
the machine reaps those groups when it starts (`Hierarchy.reap_orphans`).

Run as ``python -m sandbox.warden <runner name>`` with the pipe as its stdin.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
from pathlib import Path

from sandbox.cgroups.base import made_by, runner_name

log = logging.getLogger("sandbox.cgroups")

PACKAGE_PARENT = str(Path(__file__).resolve().parent.parent)

_lock = threading.Lock()
_watched_pid: int | None = None
_pipe: int | None = None
warden: subprocess.Popen[bytes] | None = None
"""This runner's warden, once started."""


def _forget_after_fork() -> None:
    """A forked child is a runner of its own: it closes its parent's pipe and starts anew."""
    global _watched_pid, _pipe, warden
    if _pipe is not None:
        os.close(_pipe)
    _watched_pid = _pipe = warden = None


os.register_at_fork(after_in_child=_forget_after_fork)


def watch_runner() -> None:
    """Make sure a warden watches this process's bot groups: once per process.

    A warden that cannot start is logged and done without: the next runner's
    `reap_orphans` is the fallback.
    """
    global _watched_pid, _pipe, warden
    with _lock:
        if _watched_pid == os.getpid():
            return
        _watched_pid = os.getpid()
        read_end, write_end = os.pipe()  # not inherited by the jails: only this process writes
        path = os.environ.get("PYTHONPATH")
        environment = {
            **os.environ,
            "PYTHONPATH": PACKAGE_PARENT if not path else f"{PACKAGE_PARENT}{os.pathsep}{path}",
        }
        try:
            warden = subprocess.Popen(
                [sys.executable, "-m", "sandbox.warden", runner_name()],
                stdin=read_end,
                stdout=subprocess.DEVNULL,
                start_new_session=True,  # a signal to the runner's process group spares it
                env=environment,
            )
        except OSError as error:
            os.close(write_end)
            log.warning("no warden for this runner's cgroups: %s", error)
            return
        finally:
            os.close(read_end)
        _pipe = write_end


def main(runner: str) -> None:
    """Wait for the runner to end, then reap the groups it made."""
    from sandbox.cgroups import hierarchy

    logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    found = hierarchy()  # chosen while the runner lives, as it chose
    while sys.stdin.buffer.read(4096):
        pass  # the runner never writes: this returns at its end
    if found:
        found.reap(made_by(runner))


if __name__ == "__main__":
    main(sys.argv[1])
