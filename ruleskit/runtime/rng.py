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
    draws it.

    Written out, with the stream's state in a local until the end and the constants written in place: a
    setup's shuffle is a large part of creating a card game. A value is rejected (to keep `below` free of
    bias) only when it is above `_MASK - (_MASK + 1) % n`, never below `_MASK - n`: so the exact limit is
    worked out only for a value above that, which happens about once in 2**64 / n draws, and a rejected value
    leaves the swap to `below`, which draws on from there as it would have.
    """
    result = list(items)
    state = data["rng"]
    edge = _MASK - len(result)
    for i in range(len(result) - 1, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        z ^= z >> 31
        if z > edge and z > _MASK - (_MASK + 1) % (i + 1):  # rejected: `below` draws the swap from here
            data["rng"] = state
            j = below(data, i + 1)
            state = data["rng"]
        else:
            j = z % (i + 1)
        result[i], result[j] = result[j], result[i]
    data["rng"] = state
    return result
