"""Cyclic designs from difference families, found by a bounded search.

A (v, k, 1) difference family is a set of base blocks of k numbers mod v whose
differences b - a (a ≠ b in one block) cover every nonzero residue exactly once.
The blocks and all their translates by 0..v-1 then form a 2-(v, k, 1) design:
a pair {x, y} meets in exactly the translate of the block holding the
difference y - x. That needs v ≡ 1 (mod k(k-1)), with (v-1) / (k(k-1)) base
blocks.

The search, depth first, covers the largest difference not yet covered (up to
v/2; d and v - d go together) with a new block holding 0 and d, and gives up
after `STEP_BUDGET` steps. Within that it finds families for (37, 4), (49, 4),
(41, 5) and (57, 8) besides the projective planes' (13, 4), (21, 5), (31, 6)
and (73, 9); it misses some that exist, such as (61, 4) (and there are none
for (25, 4) or (43, 7)). The schedule then says that it has no exact design.
"""

from __future__ import annotations

from functools import cache

Block = tuple[int, ...]

STEP_BUDGET = 200_000
"""Members tried before the search gives up: about 0.15 s on the project's machine."""


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
    covered = [False] * points  # covered[d]: some base block has the difference d
    family: list[Block] = []
    steps = 0

    def join(block: list[int], candidate: int) -> bool:
        """Add `candidate` to `block` if its differences to the members are all new."""
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

    def leave(block: list[int]) -> None:
        candidate = block.pop()
        for member in block:
            difference = (candidate - member) % points
            covered[difference] = covered[points - difference] = False

    def extend(block: list[int]) -> bool:
        nonlocal steps
        if len(block) == size:
            family.append(tuple(block))
            if solve():
                return True
            family.pop()
            return False
        first = 1 if len(block) == 2 else block[-1] + 1  # 0 and d first, the rest rising
        for candidate in range(first, points):
            steps += 1
            if steps > STEP_BUDGET:
                return False
            if candidate != block[1] and join(block, candidate):
                if extend(block):
                    return True
                leave(block)
        return False

    def solve() -> bool:
        """Start a block with 0 and the smallest difference not yet covered."""
        missing = next((d for d in range(points // 2, 0, -1) if not covered[d]), None)
        if missing is None:
            return True
        block = [0]
        join(block, missing)
        if extend(block):
            return True
        leave(block)
        return False

    return tuple(family) if solve() else None
