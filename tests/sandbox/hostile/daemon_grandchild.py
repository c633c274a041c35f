"""Leaves a daemon behind: double fork, new session, exec a sleeper with a marker."""

import os
import sys

MARKER = "tavolo-hostile-daemon"
started = False


def start_daemon():
    ready, tell = os.pipe()
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.write(tell, b"up")
            os.execv(
                sys.executable, [sys.executable, "-c", f"import time; time.sleep(600)  # {MARKER}"]
            )
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
