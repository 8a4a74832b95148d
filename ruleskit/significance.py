"""Tests of whether two sets of simulated games differ: proportions, means, distributions.

Used by `compare`. Each test returns the difference (second minus first), a 95%
interval for it and a two-sided p-value:

- a win rate or any other proportion: the two-proportion z-test (pooled), with
  Newcombe's interval for the difference (built from the two Wilson intervals);
- a mean (game length): Welch's t-test, with Welch's interval;
- a distribution over categories (end reasons): Pearson's chi-square test of
  homogeneity.

The distributions are computed here (regularized incomplete beta and gamma
functions) so the library needs nothing beyond the standard library.
"""

from __future__ import annotations

import math

from .stats import Z95, wilson_interval

_EPS = 1e-14
_TINY = 1e-300


def normal_sf(z: float) -> float:
    """P(Z > z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2))


def _continued_beta(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        for numerator in (m * (b - m) * x / ((qam + m2) * (a + m2)),
                          -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > _TINY else _TINY)
            c = 1 + numerator / c
            c = c if abs(c) > _TINY else _TINY
            h *= d * c
        if abs(d * c - 1) < _EPS:
            break
    return h


def regularized_beta(a: float, b: float, x: float) -> float:
    """I_x(a, b), the regularized incomplete beta function."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _continued_beta(a, b, x) / a
    return 1 - math.exp(log_front) * _continued_beta(b, a, 1 - x) / b


def t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with `df` degrees of freedom."""
    tail = 0.5 * regularized_beta(df / 2, 0.5, df / (df + t * t))
    return tail if t >= 0 else 1 - tail


def t_quantile(p: float, df: float) -> float:
    """The t with P(T <= t) = p (bisection; p in (0, 1))."""
    low, high = -1e3, 1e3
    for _ in range(200):
        middle = (low + high) / 2
        if 1 - t_sf(middle, df) < p:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def chi_square_sf(x: float, df: float) -> float:
    """P(X > x) for a chi-square X with `df` degrees of freedom (the regularized upper gamma Q(df/2, x/2))."""
    if x <= 0:
        return 1.0
    a, y = df / 2, x / 2
    log_front = -y + a * math.log(y) - math.lgamma(a)
    if y < a + 1:
        term = total = 1 / a
        n = a
        for _ in range(1000):
            n += 1
            term *= y / n
            total += term
            if abs(term) < abs(total) * _EPS:
                break
        return max(0.0, 1 - total * math.exp(log_front))
    b = y + 1 - a
    c, d = 1 / _TINY, 1 / b
    h = d
    for i in range(1, 1000):
        numerator = -i * (i - a)
        b += 2
        d = numerator * d + b
        d = 1 / (d if abs(d) > _TINY else _TINY)
        c = b + numerator / c
        c = c if abs(c) > _TINY else _TINY
        h *= d * c
        if abs(d * c - 1) < _EPS:
            break
    return min(1.0, math.exp(log_front) * h)


def proportion_difference(wins_a: float, n_a: int, wins_b: float, n_b: int) -> tuple[float, float, float, float]:
    """b's rate minus a's, Newcombe's 95% interval, and the pooled two-proportion z-test's p-value."""
    if n_a <= 0 or n_b <= 0:
        return (0.0, -1.0, 1.0, 1.0)
    p_a, p_b = wins_a / n_a, wins_b / n_b
    low_a, high_a = wilson_interval(wins_a, n_a)
    low_b, high_b = wilson_interval(wins_b, n_b)
    difference = p_b - p_a
    low = difference - math.sqrt((p_b - low_b) ** 2 + (high_a - p_a) ** 2)
    high = difference + math.sqrt((high_b - p_b) ** 2 + (p_a - low_a) ** 2)
    pooled = (wins_a + wins_b) / (n_a + n_b)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    if spread == 0 or difference == 0:
        p_value = 1.0 if difference == 0 else 0.0
    else:
        p_value = min(1.0, 2 * normal_sf(abs(difference) / spread))
    return (difference, max(-1.0, low), min(1.0, high), p_value)


def _mean_and_variance(values: list[float]) -> tuple[float, float]:
    n = len(values)
    average = sum(values) / n
    variance = sum((v - average) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return average, variance


def mean_difference(a: list[float], b: list[float]) -> tuple[float, float, float, float]:
    """b's mean minus a's, Welch's 95% interval, and Welch's t-test p-value."""
    if not a or not b:
        return (0.0, 0.0, 0.0, 1.0)
    mean_a, var_a = _mean_and_variance(a)
    mean_b, var_b = _mean_and_variance(b)
    difference = mean_b - mean_a
    se_a, se_b = var_a / len(a), var_b / len(b)
    error = math.sqrt(se_a + se_b)
    if error == 0:
        return (difference, difference, difference, 1.0 if difference == 0 else 0.0)
    df_parts = (se_a ** 2 / (len(a) - 1) if len(a) > 1 else 0.0) + (se_b ** 2 / (len(b) - 1) if len(b) > 1 else 0.0)
    df = (se_a + se_b) ** 2 / df_parts if df_parts > 0 else 1e9
    p_value = min(1.0, 2 * t_sf(abs(difference) / error, df))
    quantile = t_quantile(0.975, df) if df < 1e6 else Z95
    return (difference, difference - quantile * error, difference + quantile * error, p_value)


def chi_square_homogeneity(counts_a: dict[str, int], counts_b: dict[str, int]) -> tuple[float, int, float]:
    """Pearson's chi-square statistic, its degrees of freedom and p-value for two count tables."""
    categories = sorted(set(counts_a) | set(counts_b))
    total_a, total_b = sum(counts_a.values()), sum(counts_b.values())
    total = total_a + total_b
    if len(categories) < 2 or total_a == 0 or total_b == 0:
        return (0.0, 0, 1.0)
    statistic = 0.0
    for category in categories:
        column = counts_a.get(category, 0) + counts_b.get(category, 0)
        for observed, row in ((counts_a.get(category, 0), total_a), (counts_b.get(category, 0), total_b)):
            expected = row * column / total
            statistic += (observed - expected) ** 2 / expected
    df = len(categories) - 1
    return (statistic, df, chi_square_sf(statistic, df))


def holm_adjusted(p_values: list[float]) -> list[float]:
    """Holm's step-down adjustment: controls the chance of any false flag across the whole family."""
    order = sorted(range(len(p_values)), key=lambda i: (p_values[i], i))
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted
