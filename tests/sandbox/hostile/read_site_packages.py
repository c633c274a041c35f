"""Imports the platform's libraries and lists the interpreter's package folders."""

import os
import sys

for name in ("django", "pyseccomp", "arena", "sandbox"):
    try:
        __import__(name)
        print(f"outcome: import {name}: imported", file=sys.stderr)
    except ImportError as error:
        print(f"outcome: import {name}: {type(error).__name__}", file=sys.stderr)
for path in (
    "/usr/lib/python3/dist-packages",
    "/usr/local/lib/python3.11",
    "/usr/lib/python3.11/site-packages",
):
    try:
        print(f"outcome: {path}: {os.listdir(path)}", file=sys.stderr)
    except OSError as error:
        print(f"outcome: {path}: {type(error).__name__}", file=sys.stderr)
print(f"outcome: sys.path: {sys.path}", file=sys.stderr)


def act(observation):
    return observation["legal_actions"][0]
