"""Spins on the CPU forever on its first turn."""


def act(observation):
    count = 0
    while True:
        count += 1
