"""A starting Muggins bot for Tavolo: it plays legal moves, and a little better than chance.

Run it:   tavolo play muggins THIS_FILE builtin:random --games 100
The bot API: docs/bot-api.md. Anything you print goes to your log, never to the game.

You are asked only when you have a choice. Drawing and passing are done for you.
"""

# Module globals live for the whole match: remember what you like here.
decisions = 0


def points(action, ends):
    """The points a play scores: the two open ends' counts, if a multiple of 5."""
    high, low = action["tile"]
    if ends is None:  # the opening play: the tile's pips, a double counted once
        total = high + low
    else:
        joined = ends[action["end"]]["pips"]
        exposed = low if high == joined else high
        counts = 2 * exposed if high == low else exposed  # a double at an end counts whole
        other = "right" if action["end"] == "left" else "left"
        total = counts + ends[other]["counts"]
    return total if total % 5 == 0 else 0


def act(observation):
    """Return one of observation["legal_actions"]; any of them is always legal."""
    global decisions
    decisions += 1
    ends = observation["ends"]
    # Score the most now; on a tie, get rid of the heaviest tile (your pips
    # left in hand are subtracted from your score when the hand ends).
    return max(
        observation["legal_actions"],
        key=lambda action: (points(action, ends), sum(action["tile"])),
    )
