"""Leaves a daemon behind: double fork, new session, exec a sleeper with a marker."""

import contextlib
import os
import sys

MARKER = "tavolo-hostile-daemon"
started = False


def start_daemon():
    ready, tell = os.pipe()
    if os.fork() == 0:
        with contextlib.suppress(PermissionError):  # denied where there are no cgroups
            os.setsid()
        if os.fork() == 0:  # says "up" once exec'd, so a pause cannot catch it half-started
            sleeper = f"import os, time; os.write({tell}, b'up'); time.sleep(600)  # {MARKER}"
            os.set_inheritable(tell, True)
            os.execv(sys.executable, [sys.executable, "-c", sleeper])
        os._exit(0)
    os.read(ready, 2)
    os.wait()
    print("outcome: daemon: started", file=sys.stderr)


def act(observation):
    global started
    if not started:
        started = True
        start_daemon()
    return observation["legal_actions"][0]
