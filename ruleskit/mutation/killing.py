"""Running a pack's own checks against a mutant within a time budget: is the mutant caught, and how fast?

The checks are what `ruleskit test PACK` runs: random legal games with the
pack's invariants (and transition properties, where the pack states them) and
the engine's invariants after every decision, the player counts taking turns
a game at a time so that a short budget meets each of them, and the pack's own
scenario tests where it has them. A differential verdict instead plays the
mutant in lockstep with the original pack (`ruleskit test --against`).
Budgets are CPU seconds of this process (`time.process_time`) unless a clock is given,
so a run on a busy machine gets the same work done as on an idle one.
"""

from __future__ import annotations

import importlib
import importlib.util
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import attrs

from ..errors import RulesError
from ..game import Game, load
from ..packs import structure_defs


@attrs.define
class Verdict:
    """What the checks made of one mutant."""

    killed: bool
    by: str = ""  # which check caught it
    detail: str = ""
    seconds: float = 0.0  # until caught, or the whole budget
    games: int = 0

    def to_json(self) -> dict[str, object]:
        return {"killed": self.killed, "by": self.by, "detail": self.detail[:400],
                "seconds": round(self.seconds, 2), "games": self.games}


def _scenario_tests_module() -> ModuleType | None:
    """The engine's scenario tests, where it has them."""
    name = f"{__package__.rpartition('.')[0]}.testing.scenario_tests"
    return importlib.import_module(name) if importlib.util.find_spec(name) is not None else None


def pack_scenario_tests(pack: Path, game: Game) -> str | None:
    """The pack's own scenario tests (its tests/ folder), where the engine runs them: the first failure, or None."""
    module = _scenario_tests_module()
    if module is None:
        return None
    report = module.run_pack_tests(game)
    if report.ok:
        return None
    problems = [str(problem) for problem in report.problems]
    return problems[0] if problems else report.summary()


# Checks a pack carries beyond random games, run first: each takes the pack folder and the loaded game and
# returns a failure text or None.
EXTRA_CHECKS: list[tuple[str, Callable[[Path, Game], str | None]]] = [("scenario tests", pack_scenario_tests)]


def describe_checks(game: Game) -> list[str]:
    """The checks a pack carries, as the verdicts' reports list them."""
    found = [f"{len(game.invariants)} invariants"]
    properties = len(structure_defs(game.source)["properties"])
    if properties:
        found.append(f"{properties} [properties] and every ensure")
    module = _scenario_tests_module()
    # The files the tests run are counted (in subfolders too, links not followed), not every `tests/*.toml`.
    scenario_files = module.scenario_test_files(game.source.root) if module is not None else []
    if scenario_files:
        found.append(f"{len(scenario_files)} scenario test files")
    return found + ["the engine invariants"]


def own_checks(pack: str | Path, seconds: float, *, seed: int = 0, players: list[int] | None = None,
               thorough_every: int = 10, cut_at: int | None = 200, games: int | None = None,
               clock: Callable[[], float] = time.process_time) -> Verdict:
    """Run the pack's own checks until one fails or `seconds` (or `games` random games) are spent.

    Random play makes long games, so two rounds in three cut their games at
    `cut_at` decisions (many early positions), the third plays them to the end.
    """
    from ..testing.runner import check_pack

    started = clock()
    try:
        game = load(pack)
    except RulesError as exc:
        return Verdict(True, "ruleskit check", str(exc), clock() - started)
    for name, check in EXTRA_CHECKS:
        try:
            failure = check(Path(pack), game)
        except RulesError as exc:
            failure = str(exc)
        if failure is not None:
            return Verdict(True, name, failure, clock() - started)
    counts = players or list(range(game.min_players, game.max_players + 1))
    played = 0
    round_number = 0
    while clock() - started < seconds and (games is None or played < games):
        for index, count in enumerate(counts):
            if clock() - started >= seconds or (games is not None and played >= games):
                break
            report = check_pack(game, games=1, players=[count], seed=seed * 1_000_003 + round_number * 7 + index,
                                shrink=False, thorough_every=thorough_every,
                                max_decisions=None if round_number % 3 == 2 else cut_at,
                                # a game played to its end may never end (max_turns of a billion): the budget
                                # left stops it between two decisions
                                time_budget=max(seconds - (clock() - started), 0.001))
            played += 1
            if report.failure is not None:
                return Verdict(True, report.failure.name, report.failure.detail, clock() - started, played)
        round_number += 1
    return Verdict(False, "", "", clock() - started, played)


def differential(pack: str | Path, original: str | Path | Game, seconds: float, *, seed: int = 0,
                 players: list[int] | None = None, clock: Callable[[], float] = time.process_time) -> Verdict:
    """Play the mutant in lockstep with the original pack until they diverge or `seconds` are spent."""
    from ..testing.differential import check_against

    started = clock()
    try:
        game = load(pack)
    except RulesError as exc:
        return Verdict(True, "ruleskit check", str(exc), clock() - started)
    report = check_against(game, original, games=1_000_000, players=players, seed=seed, shrink=False,
                           seconds=seconds, clock=clock)
    played = sum(report.games.values())
    if report.divergence is not None:
        found = report.divergence
        return Verdict(True, "divergence", f"{found.when}: {found.first.describe()}",
                       report.seconds_to_first or report.seconds, played)
    return Verdict(False, "", "; ".join(report.problems), clock() - started, played)
