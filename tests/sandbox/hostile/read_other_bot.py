"""Reads another bot's source, by its place in the jail and on the host."""

import os
import sys

here = os.path.dirname(__file__)
print(f"outcome: own file: {__file__}", file=sys.stderr)
for path in (
    os.path.join(here, "read_shadow.py"),
    "/work/main/tests/sandbox/hostile/read_shadow.py",
    __file__,
):
    try:
        with open(path) as source:
            print(f"outcome: {path}: read {len(source.read())} chars", file=sys.stderr)
    except OSError as error:
        print(f"outcome: {path}: {type(error).__name__}", file=sys.stderr)


def act(observation):
    return observation["legal_actions"][0]
