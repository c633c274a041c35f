"""Sends an extra, unasked-for line after each answer."""

import __main__

host_answer = __main__.answer


def twice(act, observation):
    line = host_answer(act, observation)
    return line + line


__main__.answer = twice


def act(observation):
    return observation["legal_actions"][0]
