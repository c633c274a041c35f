"""Looks around the root for the platform's code and settings."""

import os
import sys

print(f"outcome: root: {sorted(os.listdir('/'))}", file=sys.stderr)
for path in ("/work/main/pyproject.toml", "/work/main/platform/tavolo_site/settings.py"):
    try:
        with open(path) as source:
            print(f"outcome: {path}: read {len(source.read())} chars", file=sys.stderr)
    except OSError as error:
        print(f"outcome: {path}: {type(error).__name__}", file=sys.stderr)


def act(observation):
    return observation["legal_actions"][0]
