"""Exits the process from inside act."""

import sys


def act(observation):
    sys.exit(7)
