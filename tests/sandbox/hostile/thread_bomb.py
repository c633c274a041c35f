"""Starts threads until the kernel says no; every thread sleeps."""

import sys
import threading
import time

threads = 0
try:
    while threads < 10_000:
        threading.Thread(target=time.sleep, args=(600,), daemon=True).start()
        threads += 1
    print(f"outcome: threads: made {threads}", file=sys.stderr)
except RuntimeError as error:
    print(f"outcome: threads: {type(error).__name__} after {threads}", file=sys.stderr)


def act(observation):
    return observation["legal_actions"][0]
