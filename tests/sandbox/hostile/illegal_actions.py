"""Answers with actions that are well formed but illegal."""

ILLEGAL = [{"type": "announce", "value": 99}, {"type": "teleport"}, {}]


def act(observation):
    return ILLEGAL.pop(0) if ILLEGAL else observation["legal_actions"][0]
