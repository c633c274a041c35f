"""Two copies of this bot in one match try to talk through /dev/shm."""

import os
import sys

FOLDER = "/dev/shm"
seen = set()


def act(observation):
    seat = observation["seat"]
    with open(os.path.join(FOLDER, f"covert-{seat}"), "w") as note:
        note.write(str(observation["history"][-1:]))
    others = {name for name in os.listdir(FOLDER) if name != f"covert-{seat}"}
    if others - seen:
        seen.update(others)
        print(f"outcome: saw: {sorted(seen)}", file=sys.stderr)
    return observation["legal_actions"][0]


print("outcome: started", file=sys.stderr)
