"""Cyclic designs from difference families, found by a bounded search.

A (v, k, 1) difference family is a set of base blocks of k numbers mod v whose
differences b - a (a ≠ b in one block) cover every nonzero residue exactly once.
The blocks and all their translates by 0..v-1 then form a 2-(v, k, 1) design:
a pair {x, y} meets in exactly the translate of the block holding the
difference y - x. That needs v ≡ 1 (mod k(k-1)), with (v-1) / (k(k-1)) base
blocks.

The search, depth first, covers the largest difference not yet covered (up to
v/2; d and v - d go together) with a new block holding 0 and d, trying the
other members in a random order (seeded by v and k, so the same family comes
back every time); each attempt stops after `ATTEMPT_STEPS` steps and the next
starts afresh, up to `STEP_BUDGET` steps in all. Within that it finds families
for (37, 4), (49, 4), (61, 4), (85, 4), (41, 5) and (57, 8) besides the
projective planes' (13, 4), (21, 5), (31, 6) and (73, 9); it misses some that
exist, such as (73, 4), (97, 4) or (61, 5) (and there are none for (25, 4) or
(43, 7)).
The schedule then says that it has no exact design.
"""

from __future__ import annotations

import random
from functools import cache

Block = tuple[int, ...]

STEP_BUDGET = 200_000
"""Members tried in all before the search gives up: 0.3 to 0.5 s on the project's
machine while other work ran."""

ATTEMPT_STEPS = 2_000
"""Members tried in one attempt before the search starts afresh in another order."""


def cyclic_blocks(points: int, size: int) -> list[Block] | None:
    """Every translate of a (points, size, 1) difference family, or None if none is found."""
    family = difference_family(points, size)
    if family is None:
        return None
    return [
        tuple(sorted((member + shift) % points for member in base))
        for base in family
        for shift in range(points)
    ]


@cache
def difference_family(points: int, size: int) -> tuple[Block, ...] | None:
    """Base blocks of a cyclic (points, size, 1) difference family, or None."""
    if size < 3 or points <= size or (points - 1) % (size * (size - 1)):
        return None
    draw = random.Random(f"difference family {points} {size}")
    spent = 0
    while spent < STEP_BUDGET:
        attempt = _Attempt(points, size, draw)
        if attempt.solve():
            return tuple(attempt.family)
        spent += attempt.steps
    return None


class _Attempt:
    """One depth-first search, trying members in a random order, for `ATTEMPT_STEPS`."""

    def __init__(self, points: int, size: int, draw: random.Random) -> None:
        self.points, self.size, self.draw = points, size, draw
        self.covered = [False] * points
        """covered[d]: some base block has the difference d (and so v - d)."""
        self.family: list[Block] = []
        self.steps = 0

    def solve(self) -> bool:
        """Start a block with 0 and the largest difference not yet covered."""
        missing = next((d for d in range(self.points // 2, 0, -1) if not self.covered[d]), None)
        if missing is None:
            return True
        block = [0]
        self.join(block, missing)
        if self.extend(block):
            return True
        self.leave(block)
        return False

    def extend(self, block: list[int]) -> bool:
        if len(block) == self.size:
            self.family.append(tuple(block))
            if self.solve():
                return True
            self.family.pop()
            return False
        candidates = list(range(1, self.points))
        self.draw.shuffle(candidates)
        for candidate in candidates:
            self.steps += 1
            if self.steps > ATTEMPT_STEPS:
                return False
            if candidate not in block and self.join(block, candidate):
                if self.extend(block):
                    return True
                self.leave(block)
        return False

    def join(self, block: list[int], candidate: int) -> bool:
        """Add `candidate` to `block` if its differences to the members are all new."""
        covered, points = self.covered, self.points
        marked: list[int] = []
        for member in block:
            difference = (candidate - member) % points
            if covered[difference]:
                for done in marked:
                    covered[done] = covered[points - done] = False
                return False
            covered[difference] = covered[points - difference] = True
            marked.append(difference)
        block.append(candidate)
        return True

    def leave(self, block: list[int]) -> None:
        candidate = block.pop()
        for member in block:
            difference = (candidate - member) % self.points
            self.covered[difference] = self.covered[self.points - difference] = False
