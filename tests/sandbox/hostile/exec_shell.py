"""Runs a shell and common tools."""

import subprocess
import sys

for command in (["/bin/sh", "-c", "id"], ["/usr/bin/env"], ["bash", "-c", "id"]):
    try:
        done = subprocess.run(command, capture_output=True, timeout=5)
        print(f"outcome: {command[0]}: ran {done.returncode}", file=sys.stderr)
    except OSError as error:
        print(f"outcome: {command[0]}: {type(error).__name__}", file=sys.stderr)


def act(observation):
    return observation["legal_actions"][0]
