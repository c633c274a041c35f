"""A test bot that always replies with an action no game allows."""


def act(observation):
    return {"type": "fly"}
