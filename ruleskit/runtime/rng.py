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


def below(data: dict[str, Any], n: int) -> int:
    """A uniform integer in [0, n), without modulo bias."""
    if n <= 0:
        raise ValueError("empty range")
    limit = _MASK - (_MASK + 1) % n
    state = data["rng"]
    while True:  # one splitmix64 step at a time, the state kept in a local until a value is taken
        state = (state + _GOLDEN) & _MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        value = z ^ (z >> 31)
        if value <= limit:
            data["rng"] = state
            return value % n


def shuffled(data: dict[str, Any], items: list[T]) -> list[T]:
    """The items in an order drawn from the stream: the Fisher-Yates shuffle, each swap drawn as `below`
    draws it (written out, with the stream's state kept in a local until the end)."""
    result = list(items)
    state = data["rng"]
    for i in range(len(result) - 1, 0, -1):
        n = i + 1
        limit = _MASK - (_MASK + 1) % n
        while True:
            state = (state + _GOLDEN) & _MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            value = z ^ (z >> 31)
            if value <= limit:
                break
        j = value % n
        result[i], result[j] = result[j], result[i]
    data["rng"] = state
    return result
