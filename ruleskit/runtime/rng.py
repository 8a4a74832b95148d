"""The game's one seeded random stream.

A splitmix64 generator: its whole state is one integer kept in the game
state, so clones, JSON round trips and replays continue the same stream in
any process. Python's global `random` is never used.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
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

    The stream's values for up to `_BLOCK` swaps are worked out together, as lanes of one large integer
    (`_lanes`): a value of the stream depends only on the state, which goes up by the same constant at each
    step, so the states of a run of steps are the first state times a row of ones plus a row of constants,
    and splitmix64's output function is the same shifts, exclusive ors and products for every lane. Python
    pays for an operation on a large integer much less than for that many operations on small ones: this
    takes about half the instructions of drawing each value in turn. A value is rejected (to keep `below`
    free of bias) only when it is above `_MASK - (_MASK + 1) % n`, never when it is at most `_MASK - n`: a
    run holding a value above that (about once in 2**64 / n draws) is drawn again one value at a time
    (`_shuffle_in_turn`), which rejects it exactly as `below` does.
    """
    result = list(items)
    state = data["rng"]
    edge = _MASK - len(result)
    i = len(result) - 1  # the place of the next swap
    while i >= _FEWEST_IN_LANES:
        size = i if i < _BLOCK else _BLOCK
        ones, steps, lanes, unpack = _LANES.get(size) or _lanes(size)
        z = (state * ones + steps) & lanes  # the states of the run's steps, lowest lane first
        z = ((z ^ ((z >> 30) & lanes)) * 0xBF58476D1CE4E5B9) & lanes
        z = ((z ^ ((z >> 27) & lanes)) * 0x94D049BB133111EB) & lanes
        # The last shift brings the next lane's low bits into this lane's high half, which is not read.
        values = unpack((z ^ (z >> 31)).to_bytes(16 * size, "little"))
        if max(values) > edge:
            break  # a value may be rejected: this run is drawn in turn, from its first state
        for z in values:
            j = z % (i + 1)
            result[i], result[j] = result[j], result[i]
            i -= 1
        state = (state + size * _GOLDEN) & _MASK
    data["rng"] = state
    if i > 0:
        _shuffle_in_turn(data, result, i)
    return result


# The most swaps worked out together, and the fewest (a run of one to three swaps costs more in lanes).
_BLOCK = 64
_FEWEST_IN_LANES = 4
# By number of lanes: a one in each lane, each lane's step constant (its distance from the run's state before
# it), the low 64 bits of each lane set, and the reader of each lane's low 64 bits from 16 bytes a lane.
_LANES: dict[int, tuple[int, int, int, Callable[[bytes], tuple[int, ...]]]] = {}


def _lanes(size: int) -> tuple[int, int, int, Callable[[bytes], tuple[int, ...]]]:
    """The constants of a run of `size` steps in lanes of 128 bits: a lane's product of two 64-bit numbers
    stays in its lane, and its low 64 bits are the value splitmix64 keeps."""
    ones = sum(1 << (128 * k) for k in range(size))
    steps = sum((((k + 1) * _GOLDEN) & _MASK) << (128 * k) for k in range(size))
    made = _LANES[size] = (ones, steps, ones * _MASK, struct.Struct("<" + "Q8x" * size).unpack)
    return made


def _shuffle_in_turn(data: dict[str, Any], result: list[Any], top: int) -> None:
    """The swaps at places `top` down to 1 of `shuffled`, each value drawn in turn.

    Written out, with the stream's state in a local until the end and the constants written in place. The
    exact limit is worked out only for a value above `_MASK - len(result)`, and a rejected value leaves the
    swap to `below`, which draws on from there as it would have.
    """
    state = data["rng"]
    edge = _MASK - len(result)
    for i in range(top, 0, -1):
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
