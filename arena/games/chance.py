"""Chance of its own for every seat and every hand (engine 1.2.0 on).

Up to engine 1.1.0 a match drew all its chance from one `random.Random(seed)`
in the order of play, so a different move by one bot changed the dice of
every later roll of everyone. From 1.2.0 each draw comes from a stream keyed
by what it is for: a Mia roll by (seed, seat, round, roll), a Muggins hand's
deal and boneyard by (seed, hand number). A seed played again with the bots in
other seats deals each seat the same chance (duplicate play,
`arena.compare.pairing`), whatever the bots do.

The key is hashed with BLAKE2b, so the streams are independent of each other
and of `random.Random(seed)`, which still draws the first Mia starter.
"""

from __future__ import annotations

import random
from hashlib import blake2b

MIA_OUTCOMES = 36
"""The equally likely ordered results of two dice (`arena.games.mia.values.OUTCOMES`)."""
_FLOAT_BITS = 53
_SCALE = 2.0**-_FLOAT_BITS


def _digest(label: bytes, key: tuple[int, ...], size: int) -> bytes:
    text = label + b":" + ":".join(str(part) for part in key).encode()
    return blake2b(text, digest_size=size, person=b"tavolo-chance").digest()


def uniform(label: bytes, *key: int) -> float:
    """A float in [0, 1) drawn by `key` alone, as `random.random()` builds one
    (53 random bits)."""
    bits = int.from_bytes(_digest(label, key, 8), "little") >> (64 - _FLOAT_BITS)
    return bits * _SCALE


def mia_roll(seed: int, seat: int, round_number: int, roll: int) -> int:
    """The index into Mia's 36 outcomes of `seat`'s `roll`-th roll (from 0) in
    round `round_number` (from 1) of the match played from `seed`."""
    return int(uniform(b"mia-roll", seed, seat, round_number, roll) * MIA_OUTCOMES)


def hand_stream(seed: int, hand_number: int) -> random.Random:
    """The generator that deals Muggins hand `hand_number` (from 1) of the match
    played from `seed`: the tiles' shuffle, then a random opener if one is drawn."""
    return random.Random(int.from_bytes(_digest(b"muggins-hand", (seed, hand_number), 32)))
