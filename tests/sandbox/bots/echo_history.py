"""Answers with what it saw of the history, and prints a line of its own."""


def act(observation):
    history = observation["history"]
    print("thinking about", len(history), "events")
    return {"type": "seen", "count": len(history), "history": history, "keys": sorted(observation)}
