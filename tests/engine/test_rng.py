"""The game's random stream draws exactly as splitmix64, written here on its own from the published
algorithm: logs and saves of earlier versions depend on every value and on the state left behind."""

from __future__ import annotations

from ruleskit.runtime import rng

MASK = (1 << 64) - 1


def splitmix64(state: int) -> tuple[int, int]:
    """The next state and the value it gives."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below_reference(state: int, n: int) -> tuple[int, int]:
    limit = MASK - (MASK + 1) % n
    while True:
        state, value = splitmix64(state)
        if value <= limit:
            return state, value % n


def test_below_draws_as_splitmix64_without_bias() -> None:
    for seed in range(40):
        data = {"rng": rng.seed_state(seed)}
        state = data["rng"]
        for n in (1, 2, 3, 6, 7, 52, 1000, 2**40 + 3, 2**63 + 1, 2**64 - 1):
            drawn = rng.below(data, n)
            state, expected = below_reference(state, n)
            assert drawn == expected and data["rng"] == state


def test_a_shuffle_swaps_as_fisher_yates_with_below() -> None:
    for seed in range(40):
        data = {"rng": rng.seed_state(seed)}
        state = data["rng"]
        cards = [f"c{i}" for i in range(seed % 17)]
        shuffled = rng.shuffled(data, cards)
        expected = list(cards)
        for i in range(len(expected) - 1, 0, -1):
            state, j = below_reference(state, i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        assert shuffled == expected and data["rng"] == state
        assert cards == [f"c{i}" for i in range(seed % 17)]  # the list given is left as it was


def unmix(value: int) -> int:
    """The splitmix64 state whose value is `value`: its output function undone step by step."""

    def unshift(x: int, k: int) -> int:  # undoes x ^= x >> k
        result = x
        for _ in range(64 // k + 1):
            result = x ^ (result >> k)
        return result

    z = unshift(value, 31)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & MASK
    z = unshift(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & MASK
    return unshift(z, 30)


def test_a_rejected_value_is_drawn_again_in_a_shuffle_and_in_below() -> None:
    # The largest value is above the limit for 3 (2**64 leaves 1 over when split in 3): the stream set one
    # step before it must skip it, in a shuffle's first swap (of three items) as in `below(3)`.
    before = (unmix(MASK) - 0x9E3779B97F4A7C15) & MASK
    assert splitmix64(before)[1] == MASK
    for cards in (["a", "b", "c"], ["a", "b", "c", "d", "e"]):
        data = {"rng": before}
        shuffled = rng.shuffled(data, cards)
        state, expected = before, list(cards)
        for i in range(len(expected) - 1, 0, -1):
            state, j = below_reference(state, i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        assert shuffled == expected and data["rng"] == state
    data = {"rng": before}
    state, expected_value = below_reference(before, 3)
    assert rng.below(data, 3) == expected_value and data["rng"] == state
    assert state != (before + 0x9E3779B97F4A7C15) & MASK  # two steps were taken, not one
