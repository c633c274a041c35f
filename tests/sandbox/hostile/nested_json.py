"""Answers with JSON nested 30,000 deep, then 200,000 deep."""

import __main__

answers = [b"[" * 30_000 + b"]" * 30_000 + b"\n", b"[" * 200_000 + b"]" * 200_000 + b"\n"]


def nested(act, observation):
    return (
        answers.pop(0)
        if answers
        else __main__.encode({"type": "action", "action": act(observation)})
    )


__main__.answer = nested


def act(observation):
    return observation["legal_actions"][0]
