"""A test bot whose process dies on its first decision."""

import os
import sys


def act(observation):
    print("about to crash", file=sys.stderr, flush=True)
    os._exit(17)
