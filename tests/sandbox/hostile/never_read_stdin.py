"""Stops reading its input for good on the first turn."""

import threading


def act(observation):
    threading.Event().wait()
