"""Becomes root: setuid, setgid and setgroups."""

import os
import sys

for label, change in (
    ("setuid", lambda: os.setuid(0)),
    ("setgid", lambda: os.setgid(0)),
    ("setgroups", lambda: os.setgroups([0])),
):
    try:
        change()
        print(f"outcome: {label}: changed", file=sys.stderr)
    except OSError as error:
        print(f"outcome: {label}: {type(error).__name__} {error.errno}", file=sys.stderr)
print(f"outcome: ids: {os.getuid()} {os.geteuid()} {os.getgid()}", file=sys.stderr)


def act(observation):
    return observation["legal_actions"][0]
