"""Summary statistics for simulations: win rates with confidence intervals, means."""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson_interval(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a win rate (95% by default).

    Better than the normal approximation near 0 and 1 and for few games. A
    shared win counts as a fraction, which the formula accepts as it is.
    """
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return (max(0.0, centre - spread), min(1.0, centre + spread))


def mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def rate_entry(wins: float, games: int) -> dict[str, float | int | list[float]]:
    low, high = wilson_interval(wins, games)
    return {"wins": round(wins, 6), "games": games, "rate": round(wins / games, 6) if games else 0.0,
            "ci95": [round(low, 6), round(high, 6)]}
