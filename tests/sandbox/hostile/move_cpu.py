"""Moves itself off the CPU its match claimed, onto every CPU of the machine, to run
beside other matches (and feel their load) or away from its opponent's pauses."""

import os
import sys

claimed = os.sched_getaffinity(0)
print(f"outcome: claimed: {len(claimed)}", file=sys.stderr)
try:
    os.sched_setaffinity(0, range(os.cpu_count() or 1))
    print(f"outcome: moved: now on {len(os.sched_getaffinity(0))}", file=sys.stderr)
except OSError as error:
    print(f"outcome: moved: {type(error).__name__} {error.errno}", file=sys.stderr)


def act(observation):
    return observation["legal_actions"][0]
