"""A mutation score: which mutants of a pack its own checks catch, and which rules no check pins down.

Each mutant is applied to a copy of the pack and sorted into one of:

- **invalid**: the copy fails `ruleskit check` (not counted);
- **no difference seen**: played in lockstep with the original for the
  lockstep budget, it never behaved differently: equivalent, or a rule
  random play does not reach in that time (not counted);
- **killed**: it behaves differently and the pack's own checks catch it;
- **survived**: it behaves differently (the lockstep run shows where) and
  none of the pack's own checks notice: a rule no check pins down.

The score is killed / (killed + survived).
"""

from __future__ import annotations

import random
import shutil
import time
from collections.abc import Callable
from typing import Any

import attrs

from ..errors import PackError, RulesError
from ..game import Game, load
from .edits import Mutant, mutant_copy
from .killing import EXTRA_CHECKS, Verdict, describe_checks, differential, own_checks
from .packcopy import PackFolderTooLarge

KILLED, SURVIVED, NO_DIFFERENCE, INVALID = "killed", "survived", "no difference seen", "invalid"


@attrs.define
class Outcome:
    mutant: Mutant
    status: str
    witness: str = ""  # the first divergence of the lockstep run, for a mutant that behaves differently
    verdict: Verdict | None = None
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"id": self.mutant.id, "where": self.mutant.where, "operator": self.mutant.operator,
                "description": self.mutant.description, "status": self.status, "witness": self.witness[:400],
                "caught_by": self.verdict.by if self.verdict and self.verdict.killed else None,
                "detail": self.verdict.detail[:400] if self.verdict else "",
                "seconds": round(self.seconds, 2)}


@attrs.define
class MutationReport:
    pack: str
    outcomes: list[Outcome] = attrs.Factory(list)
    generated: int = 0
    seconds: float = 0.0
    checks: list[str] = attrs.Factory(list)

    def count(self, status: str) -> int:
        return sum(1 for outcome in self.outcomes if outcome.status == status)

    @property
    def score(self) -> float | None:
        killed, survived = self.count(KILLED), self.count(SURVIVED)
        return killed / (killed + survived) if killed + survived else None

    def summary(self) -> str:
        score = "n/a" if self.score is None else f"{100 * self.score:.0f}%"
        return (f"{self.pack}: {len(self.outcomes)} mutants tried of {self.generated}: {self.count(KILLED)} killed, "
                f"{self.count(SURVIVED)} survived, {self.count(NO_DIFFERENCE)} with no difference seen, "
                f"{self.count(INVALID)} invalid; mutation score {score} ({self.seconds:.0f}s)")

    def survivors(self) -> list[str]:
        lines = []
        for outcome in self.outcomes:
            if outcome.status == SURVIVED:
                lines.append(f"a rule no check pins down: {outcome.mutant.where}: {outcome.mutant.description}")
                lines.append(f"    it changes the game: {outcome.witness}")
        return lines

    def to_json(self) -> dict[str, Any]:
        return {"pack": self.pack, "generated": self.generated, "tried": len(self.outcomes),
                "killed": self.count(KILLED), "survived": self.count(SURVIVED),
                "no_difference": self.count(NO_DIFFERENCE), "invalid": self.count(INVALID),
                "score": None if self.score is None else round(self.score, 4), "seconds": round(self.seconds, 1),
                "checks": self.checks, "mutants": [outcome.to_json() for outcome in self.outcomes]}


def pick(mutants: list[Mutant], limit: int | None, seed: int) -> list[Mutant]:
    """`limit` mutants drawn at random (by `seed`), kept in file order; all of them without a limit."""
    if limit is None or limit >= len(mutants):
        return list(mutants)
    chosen = set(random.Random(seed).sample(range(len(mutants)), limit))
    return [mutant for index, mutant in enumerate(mutants) if index in chosen]


def score_mutants(game: Game, mutants: list[Mutant], *, seconds: float = 20.0, lockstep_seconds: float = 5.0,
                  seed: int = 0, players: list[int] | None = None, generated: int | None = None,
                  games: int | None = None, progress: Callable[[Outcome, int], None] | None = None) -> MutationReport:
    """Try each mutant: is it valid, does it change the game, do the pack's own checks catch it."""
    report = MutationReport(game.name, generated=generated if generated is not None else len(mutants),
                            checks=describe_checks(game))
    started = time.monotonic()
    if mutants:
        check_the_original(game)
    for index, mutant in enumerate(mutants):
        outcome = try_mutant(game, mutant, seconds=seconds, lockstep_seconds=lockstep_seconds, seed=seed,
                             players=players, games=games)
        report.outcomes.append(outcome)
        if progress is not None:
            progress(outcome, index + 1)
    report.seconds = time.monotonic() - started
    return report


def check_the_original(game: Game) -> None:
    """The pack's own checks beyond random games (its scenario tests) pass on the pack itself: one that already
    fails catches every mutant, and the score read 100%."""
    for name, check in EXTRA_CHECKS:
        failure = check(game.source.root, game)
        if failure is not None:
            raise PackError(f"the pack's own {name} fail on the pack itself, so they would catch every mutant: "
                            f"{failure}", hint="make them pass first (ruleskit test PACK --scenarios-only)")


def try_mutant(game: Game, mutant: Mutant, *, seconds: float, lockstep_seconds: float, seed: int = 0,
               players: list[int] | None = None, games: int | None = None) -> Outcome:
    """Sort one mutant: invalid, no difference seen, killed or survived (`games` bounds the random games too)."""
    started = time.process_time()
    try:
        copy = mutant_copy(game.source.root, mutant)
    except PackFolderTooLarge:
        raise  # the folder, not the mutant, is at fault: no mutant of it can be tried
    except RulesError as exc:
        return Outcome(mutant, INVALID, str(exc))
    try:
        try:
            load(copy)
        except RulesError as exc:
            return Outcome(mutant, INVALID, str(exc), seconds=time.process_time() - started)
        witness = differential(copy, game, lockstep_seconds, seed=seed, players=players)
        if not witness.killed:
            return Outcome(mutant, NO_DIFFERENCE, seconds=time.process_time() - started)
        verdict = own_checks(copy, seconds, seed=seed, players=players, games=games)
        status = KILLED if verdict.killed else SURVIVED
        return Outcome(mutant, status, witness.detail, verdict, time.process_time() - started)
    finally:
        shutil.rmtree(copy.parent, ignore_errors=True)

