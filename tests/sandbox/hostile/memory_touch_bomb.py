"""Fills memory page by page on its first turn, past any address-space limit it is given."""

hoard = []


def act(observation):
    while True:
        hoard.append(b"x" * (8 * 1024 * 1024))
