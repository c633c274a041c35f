"""Counts in a thread all the time, to think while the others play."""

import threading

count = 0


def think():
    global count
    while True:
        count += 1


threading.Thread(target=think, daemon=True).start()


def act(observation):
    return {"type": "count", "count": count}
