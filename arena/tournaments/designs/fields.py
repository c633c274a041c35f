"""Finite fields GF(q) for the small prime powers the geometries need.

An element is an int from 0 to q-1: for q = p^m, the base-p digits of the int
are the coefficients of a polynomial over GF(p) of degree below m, reduced
modulo the first monic polynomial of degree m that makes the result a field.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True)
class Field:
    """GF(q) as addition and multiplication tables over 0..q-1 (0 and 1 are 0 and 1)."""

    order: int
    add: tuple[tuple[int, ...], ...]
    mul: tuple[tuple[int, ...], ...]

    def inverse(self, element: int) -> int:
        """The multiplicative inverse of a nonzero element."""
        return self.mul[element].index(1)


def prime_power(number: int) -> tuple[int, int] | None:
    """(p, m) with number == p**m for a prime p and m >= 1, or None."""
    if number < 2:
        return None
    prime = next(divisor for divisor in range(2, number + 1) if number % divisor == 0)
    power, rest = 0, number
    while rest % prime == 0:
        rest //= prime
        power += 1
    return (prime, power) if rest == 1 else None


@cache
def finite_field(order: int) -> Field:
    """GF(order); ValueError unless the order is a prime power."""
    found = prime_power(order)
    if found is None:
        raise ValueError(f"there is no field with {order} elements")
    prime, degree = found
    add = tuple(tuple(_poly_add(a, b, prime, degree) for b in range(order)) for a in range(order))
    for modulus in range(order):  # the low coefficients of a monic polynomial of `degree`
        mul = tuple(
            tuple(_poly_mul(a, b, prime, degree, modulus) for b in range(order))
            for a in range(order)
        )
        if all(mul[a][b] for a in range(1, order) for b in range(1, order)):  # no zero divisors
            return Field(order, add, mul)
    raise AssertionError(f"no irreducible polynomial of degree {degree} over GF({prime})")


def _digits(number: int, prime: int, degree: int) -> list[int]:
    return [number // prime**place % prime for place in range(degree)]


def _number(digits: list[int], prime: int) -> int:
    return sum(digit * prime**place for place, digit in enumerate(digits))


def _poly_add(a: int, b: int, prime: int, degree: int) -> int:
    pairs = zip(_digits(a, prime, degree), _digits(b, prime, degree), strict=True)
    return _number([(x + y) % prime for x, y in pairs], prime)


def _poly_mul(a: int, b: int, prime: int, degree: int, modulus: int) -> int:
    """a * b as polynomials over GF(prime), reduced by x**degree + (modulus's digits)."""
    product = [0] * (2 * degree)
    for i, x in enumerate(_digits(a, prime, degree)):
        for j, y in enumerate(_digits(b, prime, degree)):
            product[i + j] = (product[i + j] + x * y) % prime
    low = _digits(modulus, prime, degree)
    for top in range(2 * degree - 1, degree - 1, -1):  # x**degree == -(low part)
        coefficient, product[top] = product[top], 0
        for place, digit in enumerate(low):
            shifted = top - degree + place
            product[shifted] = (product[shifted] - coefficient * digit) % prime
    return _number(product[:degree], prime)
