"""Example Muggins bot: takes the play that scores the most, else sheds weight.

Shipped with Tavolo and uploaded by `tavolo standalone` for the demo user. A
play scores the sum of the open ends when it is a multiple of 5; among plays
that score the same, it lays its heaviest tile, to be caught with fewer pips.
"""


def points(action, ends):
    """What playing `action` scores now, then the tile's pips to break ties."""
    high, low = action["tile"]
    if ends is None:
        total = high + low
    else:
        other = "right" if action["end"] == "left" else "left"
        exposed = low if high == ends[action["end"]]["pips"] else high
        counts = 2 * exposed if high == low else exposed
        total = counts + ends[other]["counts"]
    credit = total if total % 5 == 0 else 0
    return (credit, high + low)


def act(observation):
    ends = observation["ends"]
    return max(observation["legal_actions"], key=lambda action: points(action, ends))
