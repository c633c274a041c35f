"""Steiner triple systems: triples of v points where every pair meets exactly once.

They exist exactly when v ≡ 1 or 3 (mod 6) (Kirkman, 1847). Both classic
constructions start from a commutative quasigroup on n symbols and take the
points as (x, i) for x < n and i in {0, 1, 2}, numbered 3x + i:

- **Bose**, v = 6m + 3: on n = 2m + 1 the idempotent quasigroup
  x∘y = (x + y)/2 mod n. Triples: {(x,0), (x,1), (x,2)} for each x, and
  {(x,i), (y,i), (x∘y, i+1)} for each x < y and each i.
- **Skolem**, v = 6m + 1: on n = 2m the half-idempotent quasigroup (x∘x =
  (x+m)∘(x+m) = x) made from addition mod n, and one more point ∞ (numbered
  v - 1). Triples: {(x,0), (x,1), (x,2)} for x < m, {∞, (x+m, i), (x, i+1)} for
  x < m and each i, and {(x,i), (y,i), (x∘y, i+1)} for each x < y and each i.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

Block = tuple[int, ...]


def steiner_triples(points: int) -> list[Block]:
    """A Steiner triple system on `points`; ValueError unless points ≡ 1, 3 (mod 6)."""
    if points % 6 == 3:
        return _bose(points // 3)
    if points % 6 == 1 and points > 1:
        return _skolem(points // 3)
    raise ValueError(f"no Steiner triple system has {points} points: it needs 1 or 3 mod 6")


def _bose(n: int) -> list[Block]:
    half = (n + 1) // 2  # the inverse of 2 mod the odd n

    def op(x: int, y: int) -> int:
        return (x + y) * half % n

    return [_point_triple(x, x, x, (0, 1, 2)) for x in range(n)] + _quasigroup_triples(n, op)


def _skolem(n: int) -> list[Block]:
    m = n // 2
    infinity = 3 * n

    def op(x: int, y: int) -> int:
        total = (x + y) % n  # relabelled so that x∘x = (x+m)∘(x+m) = x
        return total // 2 if total % 2 == 0 else m + total // 2

    triples = [_point_triple(x, x, x, (0, 1, 2)) for x in range(m)]
    triples += [
        tuple(sorted((infinity, 3 * (x + m) + i, 3 * x + (i + 1) % 3)))
        for x in range(m)
        for i in range(3)
    ]
    return triples + _quasigroup_triples(n, op)


def _quasigroup_triples(n: int, op: Callable[[int, int], int]) -> list[Block]:
    return [
        _point_triple(x, y, op(x, y), (i, i, (i + 1) % 3))
        for x, y in combinations(range(n), 2)
        for i in range(3)
    ]


def _point_triple(x: int, y: int, z: int, layers: tuple[int, int, int]) -> Block:
    return tuple(
        sorted(3 * symbol + layer for symbol, layer in zip((x, y, z), layers, strict=True))
    )
