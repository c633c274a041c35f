"""Writes to the jail's root and /dev, tmpfs mounts that would have no size limit."""

import os
import sys

for label, path in (("root", "/planted"), ("dev", "/dev/planted")):
    try:
        with open(path, "wb") as target:
            target.write(b"x" * 1024 * 1024)
        print(f"outcome: {label}: written", file=sys.stderr)
    except OSError as error:
        print(f"outcome: {label}: {type(error).__name__} {error.errno}", file=sys.stderr)
try:
    os.mkdir("/planted-folder")
    print("outcome: mkdir: made", file=sys.stderr)
except OSError as error:
    print(f"outcome: mkdir: {type(error).__name__} {error.errno}", file=sys.stderr)


def act(observation):
    return observation["legal_actions"][0]
