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
