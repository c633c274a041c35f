"""Plays well unless an observation's "mood" tells it to crash, hang, spin or eat memory."""

import os
import time


def act(observation):
    mood = observation.get("mood")
    if mood == "crash":
        os._exit(7)
    if mood == "hang":
        time.sleep(60)
    if mood == "spin":
        while True:
            pass
    if mood == "hog":
        hoard = []
        while True:
            hoard.append(bytearray(16 * 1024 * 1024))
    return observation["legal_actions"][0]
