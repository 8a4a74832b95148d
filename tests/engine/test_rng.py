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


def shuffle_reference(state: int, items: list[str]) -> tuple[int, list[str]]:
    expected = list(items)
    for i in range(len(expected) - 1, 0, -1):
        state, j = below_reference(state, i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    return state, expected


def test_shuffles_of_every_size_draw_as_fisher_yates_with_below() -> None:
    # A shuffle works out the values of up to 64 swaps at once: sizes across one run, several and their edges.
    sizes = [*range(0, 70), 127, 128, 129, 130, 131, 200]
    for seed in range(150):
        for size in sizes:
            data = {"rng": rng.seed_state(seed * 7919 + size)}
            cards = [f"c{i}" for i in range(size)]
            state, expected = shuffle_reference(data["rng"], cards)
            assert rng.shuffled(data, cards) == expected and data["rng"] == state, (seed, size)


def test_a_rejected_value_inside_a_run_of_swaps_is_drawn_again() -> None:
    # The largest value, at the swap `step` places into the shuffle: within the first run of swaps worked out
    # together, at its last, and within later runs; at places whose range it is rejected for (11, 65, 51, 70)
    # and at ones it is not (powers of two: 2, 64).
    largest = (unmix(MASK) - 0x9E3779B97F4A7C15) & MASK  # the state one step before the largest value
    for size, step in ((20, 9), (65, 0), (65, 63), (100, 49), (150, 99), (150, 86), (200, 130)):
        start = (largest - step * 0x9E3779B97F4A7C15) & MASK
        state = start
        for _ in range(step):
            state = splitmix64(state)[0]
        assert splitmix64(state)[1] == MASK
        cards = [f"c{i}" for i in range(size)]
        data = {"rng": start}
        expected_state, expected = shuffle_reference(start, cards)
        assert rng.shuffled(data, cards) == expected and data["rng"] == expected_state, (size, step)
