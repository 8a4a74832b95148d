"""The game's one seeded random stream.

A splitmix64 generator: its whole state is one integer kept in the game
state, so clones, JSON round trips and replays continue the same stream in
any process. Python's global `random` is never used.
"""

from __future__ import annotations

from typing import Any, TypeVar

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15

T = TypeVar("T")


def seed_state(seed: int) -> int:
    return (int(seed) * 0x2545F4914F6CDD1D + 0x632BE59BD9B4E019) & _MASK


def _next(data: dict[str, Any]) -> int:
    state = (data["rng"] + _GOLDEN) & _MASK
    data["rng"] = state
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def below(data: dict[str, Any], n: int) -> int:
    """A uniform integer in [0, n), without modulo bias."""
    if n <= 0:
        raise ValueError("empty range")
    limit = _MASK - (_MASK + 1) % n
    while True:
        value = _next(data)
        if value <= limit:
            return value % n


def shuffled(data: dict[str, Any], items: list[T]) -> list[T]:
    result = list(items)
    for i in range(len(result) - 1, 0, -1):
        j = below(data, i + 1)
        result[i], result[j] = result[j], result[i]
    return result
