"""Floods the protocol with megabytes and no newline before its first answer."""

import __main__

host_answer = __main__.answer
floods = [b"x" * (4 * 1024 * 1024)]


def flood(act, observation):
    return (floods.pop() if floods else b"") + host_answer(act, observation)


__main__.answer = flood


def act(observation):
    return observation["legal_actions"][0]
