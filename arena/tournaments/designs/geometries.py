"""Lines of finite geometries: designs where every pair of points meets exactly once.

- The **affine geometry** AG(n, q), q a prime power: the q**n vectors of
  GF(q)**n, and as blocks the lines {x + t·d}: a 2-(q**n, q, 1) design. Lines
  with the same direction d split the points, so listed direction by
  direction the blocks fall into rounds in which every point plays once.
- The **projective geometry** PG(n, q): the (q**(n+1) - 1) / (q - 1)
  one-dimensional subspaces of GF(q)**(n+1), and as blocks its lines (the
  two-dimensional subspaces): a 2-(v, q + 1, 1) design. PG(2, q) is the
  projective plane of order q.

A point is numbered by its vector's coordinates read as base-q digits.
"""

from __future__ import annotations

from itertools import product

from arena.tournaments.designs.fields import Field, finite_field

Block = tuple[int, ...]


def affine_lines(dimension: int, order: int) -> list[Block]:
    """The lines of AG(dimension, order), one parallel class after another."""
    field = finite_field(order)
    points = list(product(range(order), repeat=dimension))
    lines = []
    for direction in _directions(dimension, field):
        covered = [False] * len(points)
        for start in points:
            if covered[_index(start, order)]:
                continue
            line = [_index(_along(start, step, direction, field), order) for step in range(order)]
            for point in line:
                covered[point] = True
            lines.append(tuple(sorted(line)))
    return lines


def projective_lines(dimension: int, order: int) -> list[Block]:
    """The lines of PG(dimension, order), on points numbered 0 to v-1."""
    field = finite_field(order)
    points = _directions(dimension + 1, field)
    number = {point: index for index, point in enumerate(points)}
    joined = [[False] * len(points) for _ in points]
    lines = []
    for first, u in enumerate(points):
        for second in range(first + 1, len(points)):
            if joined[first][second]:
                continue
            w = points[second]
            line = sorted(
                {first, second}
                | {number[_normal(_along(u, step, w, field), field)] for step in range(order)}
            )
            for a in line:
                for b in line:
                    joined[a][b] = True
            lines.append(tuple(line))
    return lines


def _directions(dimension: int, field: Field) -> list[tuple[int, ...]]:
    """Nonzero vectors whose first nonzero coordinate is 1: one per 1-dimensional subspace."""
    return [
        vector
        for vector in product(range(field.order), repeat=dimension)
        if any(vector) and next(x for x in vector if x) == 1
    ]


def _along(
    start: tuple[int, ...], step: int, direction: tuple[int, ...], field: Field
) -> tuple[int, ...]:
    """start + step · direction."""
    return tuple(field.add[x][field.mul[step][d]] for x, d in zip(start, direction, strict=True))


def _normal(vector: tuple[int, ...], field: Field) -> tuple[int, ...]:
    """The vector scaled so its first nonzero coordinate is 1."""
    scale = field.inverse(next(x for x in vector if x))
    return tuple(field.mul[scale][x] for x in vector)


def _index(vector: tuple[int, ...], order: int) -> int:
    return sum(x * order**place for place, x in enumerate(vector))
