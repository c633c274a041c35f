"""Prints its whole environment, hoping for the worker's secrets."""

import os
import sys

print(f"outcome: environment: {sorted(os.environ.items())}", file=sys.stderr)


def act(observation):
    return observation["legal_actions"][0]
