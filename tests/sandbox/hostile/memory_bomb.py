"""Allocates memory without end on its first turn."""

hoard = []


def act(observation):
    while True:
        hoard.append(bytearray(16 * 1024 * 1024))
