"""The Mia table, step by step: lives, the round's claims and the dice under the cup.

`MiaTable` folds the replay's events one at a time (the events carry every
consequence the engine worked out: the lives left, who is out, the dice of a
reveal), and draws the table for one view. It decides nothing the rules
decide: whose turn it is comes from the engine (see `arena.viewing.document`).
"""

from __future__ import annotations

from arena.engine import JSON
from arena.viewing.views import View, sees
from arena.viewing.words import generic_text, places_text

VARIANT_WORDS = {
    "classic": "classic (roll, vouch or accuse)",
    "no-guarantee": "without vouching (roll, accuse or trust)",
    "croatian": "Croatian (roll or accuse)",
}
LOSS_WORDS = {
    "accusation": "the accusation",
    "too_low": "announcing too low",
    "concede": "conceding",
    "infraction": "an infraction",
    "crash": "a crash",
}


def rules_text(rules: JSON) -> str:
    """The resolved rules in words."""
    lives = rules["lives"]
    if len(set(lives)) == 1:
        lives_words = f"{lives[0]} lives each"
    else:
        lives_words = "lives " + ", ".join(map(str, lives)) + " by seat"
    doubles = "11 the highest double" if rules["doubles_order"] == "11-high" else "66 the highest"
    return (
        f"Mia, {VARIANT_WORDS.get(rules['variant'], rules['variant'])}; "
        f"{rules['players']} players, {lives_words}; {doubles}; "
        f"the match stops after {rules['turn_cap']:,} actions."
    )


def value_text(value: int) -> str:
    return "21 (Mia)" if value == 21 else str(value)


class MiaTable:
    """The whole table after each event so far."""

    def __init__(self, rules: JSON, names: list[str]) -> None:
        self.names = names
        self.lives = list(rules["lives"])
        self.starting_lives = list(rules["lives"])
        self.places: list[int | None] = [None] * len(names)
        self.round_number = 0
        self.round: JSON = {}
        self.cup: JSON | None = None
        self.loss: JSON | None = None
        self.ended: JSON | None = None

    # Folding events in.

    def take(self, event: JSON) -> None:
        kind = event["type"]
        if kind == "round":
            self.round_number += 1
            self.round = {"starter": event["starter"], "claims": [], "vouches": 0}
            self.cup = None
            self.loss = None
        elif kind == "dice":
            self.cup = {"seat": event["seat"], "dice": event["dice"], "value": event["value"]}
            self.cup["revealed"] = False
            self.round["vouches"] = 0
        elif kind in ("announce", "vouch", "trust"):
            self.round["claims"].append(
                {"seat": event["seat"], "kind": kind, "value": event["value"]}
            )
            if kind == "vouch":
                self.round["vouches"] += 1
        elif kind == "reveal":
            if self.cup is not None:
                self.cup["revealed"] = True
            self.round["accuser"] = event["accuser"]
        elif kind == "life_lost":
            self.lives[event["seat"]] = event["lives"]
            self.loss = {key: event[key] for key in ("seat", "lives_lost", "reason")}
        elif kind == "eliminated":
            self.places[event["seat"]] = event["place"]
        elif kind == "end":
            self.ended = {"places": event["places"], "lives": event["lives"]}

    # What each step shows.

    def table(self, view: View, turn: int | None) -> JSON:
        claims = self.round.get("claims", [])
        standing = claims[-1] if claims else None
        return {
            "players": [
                {
                    "seat": seat,
                    "lives": lives,
                    "starting_lives": self.starting_lives[seat],
                    "in_game": self.places[seat] is None,
                    "place": self.places[seat]
                    if self.ended is None
                    else self.ended["places"][seat],
                }
                for seat, lives in enumerate(self.lives)
            ],
            "turn": turn,
            "round": {
                "number": self.round_number,
                "starter": self.round.get("starter"),
                "claim": None if standing is None else standing["value"],
                "claimant": None if standing is None else standing["seat"],
                "claims": list(claims),
                "vouches": self.round.get("vouches", 0),
                "accuser": self.round.get("accuser"),
            },
            "cup": self._cup(view),
            "loss": self.loss,
            "over": self.ended is not None,
        }

    def _cup(self, view: View) -> JSON | None:
        cup = self.cup
        if cup is None:
            return None
        shown = cup["revealed"] or sees(view, cup["seat"])
        return {
            "seat": cup["seat"],
            "revealed": cup["revealed"],
            "dice": cup["dice"] if shown else None,
            "value": cup["value"] if shown else None,
        }

    def text(self, event: JSON, view: View) -> str:
        """One transcript line for `event`, told as `view` knew it."""
        kind = event["type"]
        who = self.names[event["seat"]] if "seat" in event else ""
        if kind == "action":
            return f"{who} chooses to {_action_words(event['action'])}"
        if kind == "round":
            return f"Round {self.round_number}: {self.names[event['starter']]} starts"
        if kind == "dice":
            if sees(view, event["seat"]):
                high, low = event["dice"]
                return f"{who} rolls {high} and {low} under the cup"
            return f"{who} rolls under the cup"
        if kind == "announce":
            return f"{who} announces {value_text(event['value'])}"
        if kind == "vouch":
            return f"{who} vouches for {value_text(event['value'])}"
        if kind == "trust":
            return f"{who} trusts the dice and claims {value_text(event['value'])}"
        if kind == "reveal":
            high, low = event["dice"]
            return (
                f"{self.names[event['accuser']]} accuses {self.names[event['claimant']]} of "
                f"{value_text(event['claim'])}: the cup shows {high} and {low}, "
                f"{value_text(event['value'])}"
            )
        if kind == "life_lost":
            lost = event["lives_lost"]
            reason = LOSS_WORDS.get(event["reason"], event["reason"])
            plural = "life" if lost == 1 else "lives"
            return f"{who} loses {lost} {plural} for {reason}: {event['lives']} left"
        if kind == "eliminated":
            return f"{who} is out, in place {event['place']}"
        if kind in ("infraction", "crash"):
            return f"{kind.capitalize()} by {who}: {event['reason']}"
        if kind == "turn_cap":
            return f"The match stops at the cap of {event['actions']:,} actions"
        if kind == "end":
            return "The match is over: " + places_text(event["places"], self.names)
        return generic_text(event)

    @staticmethod
    def marks(event: JSON) -> list[str]:
        return MARKS.get(event["type"], [])


MARKS = {
    "action": ["decision"],
    "round": ["round"],
    "reveal": ["reveal"],
    "life_lost": ["loss"],
    "eliminated": ["elimination"],
    "infraction": ["infraction"],
    "crash": ["crash"],
    "end": ["end"],
}


def _action_words(action: JSON) -> str:
    kind = action.get("type")
    if kind in ("announce", "trust"):
        return f"{kind} {value_text(action['value'])}"
    return str(kind)
