"""Kills its parent and pid 1, hoping to take the runner down with it."""

import os
import signal
import sys

for label, pid in (("parent", os.getppid()), ("pid 1", 1)):
    try:
        os.kill(pid, signal.SIGKILL)
        print(f"outcome: {label}: sent to {pid}", file=sys.stderr)
    except OSError as error:
        print(f"outcome: {label}: {type(error).__name__}", file=sys.stderr)


def act(observation):
    return observation["legal_actions"][0]
