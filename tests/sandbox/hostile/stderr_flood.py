"""Writes 4 MiB to stderr on every turn."""

import sys

CHUNK = "e" * 65535 + "\n"


def act(observation):
    for _ in range(64):
        sys.stderr.write(CHUNK)
    return observation["legal_actions"][0]
