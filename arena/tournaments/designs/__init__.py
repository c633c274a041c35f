"""Block designs for round-robins too large for every combination of entrants.

A 2-(v, k, λ) design is a list of blocks of k of the points 0..v-1 in which
every pair of points lies in exactly λ blocks: as a round-robin's tables, every
pair of entrants meets exactly λ times, and every entrant plays the same
number of tables, r = λ(v-1)/(k-1). `exact_design` tries the families it
knows, each in a module of its own:

- every pair, for tables of 2 (λ = 1);
- the affine geometries AG(n, q) for k = q a prime power and v = q**n, and
  the projective geometries PG(n, q) for k = q + 1 and
  v = (q**(n+1) - 1)/(q - 1) (`geometries`);
- Steiner triple systems for k = 3 and v ≡ 1, 3 (mod 6) (`triples`);
- cyclic designs from difference families for v ≡ 1 (mod k(k-1)), where a
  bounded search finds one (`cyclic`).

For other (v, k) no design with λ = 1 exists (`could_exist` says when the
counting alone rules one out; some that pass it do not exist either, such as
2-(43, 7, 1)) or none of these families builds one.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from arena.tournaments.designs.cyclic import cyclic_blocks
from arena.tournaments.designs.fields import prime_power
from arena.tournaments.designs.geometries import affine_lines, projective_lines
from arena.tournaments.designs.triples import steiner_triples

Block = tuple[int, ...]


@dataclass(frozen=True)
class Design:
    """A 2-(points, size, meetings) design: `blocks` of `size` points each."""

    name: str
    points: int
    size: int
    meetings: int
    """λ: how many blocks hold any one pair of points."""
    blocks: list[Block]


def exact_design(points: int, size: int) -> Design | None:
    """A 2-(points, size, 1) design from the families above, or None."""
    if size == 2:
        return Design("every pair", points, 2, 1, list(combinations(range(points), 2)))
    dimension = _exponent(points, size)
    if dimension is not None and dimension >= 2 and prime_power(size):
        lines = affine_lines(dimension, size)
        return Design(f"the affine geometry AG({dimension}, {size})", points, size, 1, lines)
    order = size - 1
    dimension = _projective_dimension(points, order) if prime_power(order) else None
    if dimension is not None:
        lines = projective_lines(dimension, order)
        return Design(f"the projective geometry PG({dimension}, {order})", points, size, 1, lines)
    if size == 3 and points % 6 in (1, 3):
        return Design("a Steiner triple system", points, 3, 1, steiner_triples(points))
    blocks = cyclic_blocks(points, size)
    if blocks is not None:
        return Design(f"a cyclic ({points}, {size}, 1) difference family", points, size, 1, blocks)
    return None


def could_exist(points: int, size: int) -> bool:
    """Whether a 2-(points, size, 1) design passes the counting conditions: each
    point's other points split into blocks (k-1 | v-1), the pairs do too
    (k(k-1) | v(v-1)), and there are at least as many blocks as points (Fisher)."""
    if points == size:
        return True
    return (
        (points - 1) % (size - 1) == 0
        and points * (points - 1) % (size * (size - 1)) == 0
        and points * (points - 1) >= points * size * (size - 1)
    )


def _exponent(number: int, base: int) -> int | None:
    """n with base**n == number, or None."""
    power, exponent = 1, 0
    while power < number:
        power *= base
        exponent += 1
    return exponent if power == number else None


def _projective_dimension(points: int, order: int) -> int | None:
    """n >= 2 with points == (order**(n+1) - 1)/(order - 1), or None."""
    count, dimension = 1 + order, 1
    while count < points:
        dimension += 1
        count = count * order + 1
    return dimension if count == points and dimension >= 2 else None
