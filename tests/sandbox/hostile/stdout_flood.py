"""Floods the protocol with megabytes and no newline before its answer."""

import __main__

host_answer = __main__.answer


def flood(act, observation):
    return b"x" * (4 * 1024 * 1024) + host_answer(act, observation)


__main__.answer = flood


def act(observation):
    return observation["legal_actions"][0]
