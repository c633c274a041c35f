"""A test bot that always plays its first legal action."""


def act(observation):
    return observation["legal_actions"][0]
