"""Counts its decisions in a module global and answers with the count."""

decisions = 0


def act(observation):
    global decisions
    decisions += 1
    return {"type": "counted", "decisions": decisions}
