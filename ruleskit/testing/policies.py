"""How a test run picks each decision: at random, or steered toward what no game has reached yet.

A policy gives, for each game, a chooser `(state, legal) -> action`. Games are
played outside hypothesis with these choosers; the index chosen at each
decision is recorded, so a failing game is replayed and shrunk by hypothesis
whatever policy found it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..errors import RulesError
from ..runtime.engine import Action
from ..runtime.state import State
from .coverage import Coverage, action_name

Chooser = Callable[[State, list[Action]], Action]
POLICIES = ("random", "explore")


class RandomPolicy:
    """Every legal action equally likely."""

    name = "random"

    def chooser(self, players: int, seed: int) -> Chooser:
        rng = random.Random(seed)

        def choose(state: State, legal: list[Action]) -> Action:
            return legal[rng.randrange(len(legal))]

        return choose


class ExplorationPolicy:
    """Random play weighted toward novelty, read from the run's coverage so far.

    An action's weight falls with how often its name was taken at this player
    count (an action never taken weighs most), and rises when the code it ran
    when taken before (if arms, rules, procedures, hooks) is rarely run. When the pack is compiled with
    counters, now and then a few candidate actions are tried on a copy first,
    and one that runs an `if` arm, rule, procedure, hook or `finish` no game at
    this player count has run yet is taken at once.
    """

    name = "explore"

    def __init__(self, coverage: Coverage, *, lookahead_share: float = 0.25, lookahead_width: int = 4) -> None:
        self.coverage = coverage
        self.lookahead_share = lookahead_share
        self.lookahead_width = lookahead_width

    def chooser(self, players: int, seed: int) -> Chooser:
        rng = random.Random(seed)
        taken = self.coverage.actions[players]
        probe = self.coverage.probe
        sites = self.coverage.sites[players]
        touched = self.coverage.touched[players]

        def choose(state: State, legal: list[Action]) -> Action:
            if len(legal) == 1:
                return legal[0]
            names = [action_name(action) for action in legal]
            by_name = {name: self._weight(name, taken, touched, sites) for name in set(names)}
            weights = [by_name[name] for name in names]
            if probe is not None and rng.random() < self.lookahead_share and 0 in sites:
                candidates = self._candidates(names, rng)
                best, best_new = None, 0
                for index in candidates:
                    new = self._new_sites(state, legal[index], probe.hits, sites)
                    if new > best_new:
                        best, best_new = index, new
                if best is not None:
                    return legal[best]
            return legal[rng.choices(range(len(legal)), weights)[0]]

        return choose

    @staticmethod
    def _weight(name: str | None, taken: Any, touched: dict[str, set[int]], sites: list[int]) -> float:
        """Rarely taken actions weigh more, and more again if the code they ran is rarely run."""
        if name is None:
            return 1.0
        ran = touched.get(name)
        rare = max((1.0 / (1.0 + sites[index]) ** 0.5 for index in ran), default=0.0) if ran else 0.0
        return (1.0 + 4.0 * rare) / (1.0 + taken[name]) ** 0.5

    def _candidates(self, names: list[str | None], rng: random.Random) -> list[int]:
        """One action of each name (at random among those of that name), then others, up to the width."""
        by_name: dict[str | None, list[int]] = {}
        for index, name in enumerate(names):
            by_name.setdefault(name, []).append(index)
        picked = [rng.choice(indices) for indices in by_name.values()]
        rng.shuffle(picked)
        width = max(self.lookahead_width, min(len(picked), 2 * self.lookahead_width))
        if len(picked) < width:
            rest = [index for index in range(len(names)) if index not in set(picked)]
            picked += rng.sample(rest, min(len(rest), width - len(picked)))
        return picked[:width]

    @staticmethod
    def _new_sites(state: State, action: Action, hits: list[int], reached: list[int]) -> int:
        """How many sites not reached yet at this count `action` runs, tried on a copy."""
        before = list(hits)
        try:
            state.clone().apply(action)
        except RulesError:
            return 0  # the checks report an offered action that is refused
        return sum(1 for index, count in enumerate(hits) if count != before[index] and reached[index] == 0)


def make_policy(name: str, coverage: Coverage | None) -> RandomPolicy | ExplorationPolicy:
    if name == "explore":
        if coverage is None:
            raise ValueError("the exploration policy reads the run's coverage")
        return ExplorationPolicy(coverage)
    return RandomPolicy()
