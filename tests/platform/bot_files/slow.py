"""A test bot that never answers in time: it sleeps through every decision."""

import time


def act(observation):
    time.sleep(60)
    return observation["legal_actions"][0]
