"""Example Mia bot: vouches for believable claims, accuses unlikely ones.

Shipped with Tavolo and uploaded by `tavolo standalone` for the demo user.
It tells the truth when its roll beats the claim, else bluffs the lowest legal
value; it accuses a claim that a fair roll reaches less than a third of the
time, and otherwise vouches (classic) or trusts the lowest value (no-guarantee).
"""

DOUBLES = {"11-high": [66, 55, 44, 33, 22, 11], "66-high": [11, 22, 33, 44, 55, 66]}
MIXED = [31, 32, 41, 42, 43, 51, 52, 53, 54, 61, 62, 63, 64, 65]
ACCUSE_BELOW = 1 / 3

chance_at_least = {}


def learn_order(doubles_order):
    """The chance that a fair roll is at least each value, lowest value first."""
    order = [*MIXED, *DOUBLES[doubles_order], 21]
    remaining = 1.0
    for value in order:
        chance_at_least[value] = remaining
        remaining -= (1 if value // 10 == value % 10 else 2) / 36


def act(observation):
    if not chance_at_least:
        learn_order(observation["rules"].get("doubles_order", "11-high"))
    legal = observation["legal_actions"]
    if observation.get("dice") is not None:
        high, low = observation["dice"]
        truth = {"type": "announce", "value": 10 * high + low}
        return truth if truth in legal else legal[0]
    claim = observation["round"]["claim"]
    accuse = {"type": "accuse"}
    if claim is not None and accuse in legal and chance_at_least[claim] < ACCUSE_BELOW:
        return accuse
    for wanted in ("vouch", "trust", "roll"):
        for action in legal:
            if action["type"] == wanted:
                return action
    return legal[0]
