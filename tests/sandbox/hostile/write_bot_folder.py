"""Rewrites its own file and drops a new module beside it."""

import os
import sys

for label, path, mode in (
    ("own file", __file__, "a"),
    ("new module", os.path.join(os.path.dirname(__file__), "planted.py"), "w"),
):
    try:
        with open(path, mode) as target:
            target.write("# planted\n")
        print(f"outcome: {label}: written", file=sys.stderr)
    except OSError as error:
        print(f"outcome: {label}: {type(error).__name__} {error.errno}", file=sys.stderr)


def act(observation):
    return observation["legal_actions"][0]
