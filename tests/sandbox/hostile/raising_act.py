"""Raises from act, and returns a value JSON cannot hold."""

turns = 0


def act(observation):
    global turns
    turns += 1
    if turns == 1:
        raise ValueError("no idea what to do")
    if turns == 2:
        return {"type": "roll", "values": {1, 2}}
    return observation["legal_actions"][0]
