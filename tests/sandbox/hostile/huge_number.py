"""Answers with a 5,000-digit number inside its action."""

import __main__

sent = False


def huge(act, observation):
    global sent
    if sent:
        return __main__.encode({"type": "action", "action": act(observation)})
    sent = True
    return b'{"type":"action","action":{"type":"roll","n":' + b"9" * 5000 + b"}}\n"


__main__.answer = huge


def act(observation):
    return observation["legal_actions"][0]
