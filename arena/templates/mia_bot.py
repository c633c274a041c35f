"""A starting Mia bot for Tavolo: it plays legal moves, and a little better than chance.

Run it:   tavolo play mia THIS_FILE builtin:random builtin:random --games 100
The bot API: docs/bot-api.md. Anything you print goes to your log, never to the game.
"""

# Values from lowest to highest, for each rule option "doubles_order". 21 is Mia.
MIXED = [31, 32, 41, 42, 43, 51, 52, 53, 54, 61, 62, 63, 64, 65]
ORDERS = {
    "11-high": [*MIXED, 66, 55, 44, 33, 22, 11, 21],
    "66-high": [*MIXED, 11, 22, 33, 44, 55, 66, 21],
}

# Module globals live for the whole match: remember what you like here.
decisions = 0


def act(observation):
    """Return one of observation["legal_actions"]; any of them is always legal."""
    global decisions
    decisions += 1
    order = ORDERS[observation["rules"]["doubles_order"]]
    legal = observation["legal_actions"]
    types = {action["type"]: action for action in legal}

    # Right after our own roll we see our dice and must announce a value.
    if observation["dice"] is not None:
        high, low = observation["dice"]
        truth = {"type": "announce", "value": 10 * high + low}
        if truth in legal:
            return truth  # the truth beats the claim: say it
        # Otherwise bluff the smallest value that beats it. (The announces listed
        # last, with "cost": 1, do not beat the claim: each costs a life at once.)
        return legal[0]

    claim = observation["round"]["claim"]
    # A claim in the top third is more often a lie than not: call it.
    if claim is not None and order.index(claim) >= 14 and "accuse" in types:
        return types["accuse"]
    for preferred in ("roll", "vouch", "concede"):
        if preferred in types:
            return types[preferred]
    return legal[0]
