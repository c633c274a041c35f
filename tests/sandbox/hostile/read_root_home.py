"""Lists /root, where the worker's tools and credentials would live."""

import os
import sys

for path in ("/root", "/root/.pyenv", "/home"):
    try:
        print(f"outcome: {path}: {os.listdir(path)}", file=sys.stderr)
    except OSError as error:
        print(f"outcome: {path}: {type(error).__name__}", file=sys.stderr)


def act(observation):
    return observation["legal_actions"][0]
