"""Forks until the kernel says no; every child sleeps."""

import os
import sys
import time

children = 0
try:
    while children < 10_000:
        if os.fork() == 0:
            time.sleep(600)
            os._exit(0)
        children += 1
    print(f"outcome: fork: made {children}", file=sys.stderr)
except OSError as error:
    print(f"outcome: fork: {type(error).__name__} after {children}", file=sys.stderr)


def act(observation):
    return observation["legal_actions"][0]
