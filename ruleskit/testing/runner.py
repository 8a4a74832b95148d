"""Driving random games of a pack with hypothesis, and reporting the first failure.

`check_pack` plays games for each player count, checking every invariant after
every decision. When one fails, hypothesis shrinks it to the shortest game
that still fails; the runner keeps that game, writes it as a replay log and
describes the broken invariant with the state that broke it. `check_log`
re-runs such a log with the same checks, so the failure can be reproduced.
"""

from __future__ import annotations

import json
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis.errors import HypothesisException
from hypothesis.strategies import SearchStrategy

from ..errors import PackError, PropertyFailure, RulesError
from ..game import Game
from ..log import log_game, log_lines, log_start, read_log
from ..runtime.state import State
from . import invariants
from .invariants import InvariantFailure
from .strategies import GameRun, Step, game_of, random_games


@attrs.define
class Failure:
    """The smallest failing game found: its setting, decisions and what broke."""

    players: int
    seed: int
    steps: list[Step]
    failed_action: Step | None
    name: str
    detail: str
    source: str | None
    state: State | None
    trace: str = ""
    log_path: Path | None = None

    def describe(self) -> str:
        lines = [f"FAILED: {self.name}: {self.detail}"]
        if self.source:
            lines.append(f"  declared at {self.source}")
        lines.append(f"  game: {self.players} players, seed {self.seed}, {len(self.steps)} decisions"
                     + (f", then {self.failed_action.action!r} by Player {self.failed_action.player + 1}"
                        if self.failed_action else ""))
        if self.steps:
            shown = " ".join(step.action for step in self.steps)
            lines.append(f"  decisions: {shown}")
        if self.trace:
            lines.append("  engine traceback:\n" + self.trace.rstrip())
        if self.state is not None:
            lines.append("  state:")
            lines.extend("    " + line for line in describe_state(self.state).splitlines())
        if self.log_path is not None:
            lines.append(f"  replay log: {self.log_path} (re-check with: ruleskit test --log {self.log_path})")
        return "\n".join(lines)


@attrs.define
class Report:
    """What a test run tried and found."""

    pack: str
    games: dict[int, int] = attrs.Factory(dict)  # finished games by player count
    attempts: int = 0  # every game started, shrinking included
    decisions: int = 0
    cut_short: int = 0  # games stopped at max_decisions
    thorough_every: int = 1
    invariants: int = 0
    seconds: float = 0.0
    failure: Failure | None = None
    problems: list[str] = attrs.Factory(list)

    @property
    def ok(self) -> bool:
        return self.failure is None and not self.problems

    def summary(self) -> str:
        status = "ok" if self.ok else f"FAILED (after {self.attempts} games tried, shrinking included)"
        costly = "" if self.thorough_every == 1 else f" (the costly ones every {self.thorough_every})"
        if not self.games:  # failed before any game passed: the count of games tried is in the status
            return (f"{self.pack}: {self.invariants} pack invariants and the engine invariants checked after every "
                    f"decision{costly}, {self.seconds:.1f}s: {status}")
        per_count = ", ".join(f"{p}p: {n}" for p, n in sorted(self.games.items()))
        short = f", {self.cut_short} cut short" if self.cut_short else ""
        return (f"{self.pack}: {sum(self.games.values())} games ({per_count}{short}), {self.decisions} decisions, "
                f"{self.invariants} pack invariants and the engine invariants checked after every decision{costly}, "
                f"{self.seconds:.1f}s: {status}")


def describe_state(state: State) -> str:
    """The parts of a state a pack author reads: vars, items, zones and the flow."""
    data = state.raw
    flow = data["flow"]
    shown: dict[str, Any] = {
        "turn": flow["turn"], "round": flow["round"], "phase": flow["phase"], "stage": flow["stage"],
        "active": flow["active"], "vars": data["v"], "players": data["pv"], "items": data["ev"], "zones": data["z"],
    }
    if data["blocked"]:
        shown["blocked"] = data["blocked"]
    if state.pending is not None:
        shown["pending"] = {"player": state.pending["player"], "prompt": state.pending["prompt"]}
    if data["result"] is not None:
        shown["result"] = data["result"]
    return json.dumps(shown, indent=1, sort_keys=True)


class _Recorder:
    """Keeps the last failing game: hypothesis re-runs the shrunk example last."""

    def __init__(self, report: Report) -> None:
        self.report = report
        self.failure: Failure | None = None

    def finished(self, run: GameRun) -> None:
        self.report.games[run.players] = self.report.games.get(run.players, 0) + 1
        if run.state is not None and not run.state.is_terminal:
            self.report.cut_short += 1
        self.report.decisions += len(run.steps)

    def failed(self, run: GameRun, exc: BaseException) -> None:
        trace = ""
        if isinstance(exc, InvariantFailure):
            name, detail, source = exc.name, exc.detail, exc.source
        elif isinstance(exc, PropertyFailure):
            name, detail, source = exc.name, exc.detail, exc.where() or None
        elif isinstance(exc, RulesError):
            name, detail, source = f"engine error ({type(exc).__name__})", str(exc), None
        else:
            name, detail, source = f"engine crash ({type(exc).__name__})", str(exc), None
            trace = "".join(traceback.format_exception(exc))
        self.failure = Failure(run.players, run.seed, list(run.steps), run.failed_action, name, detail, source,
                               run.state, trace)


def check_pack(pack: str | Path | Game, *, games: int = 100, players: list[int] | None = None, seed: int = 0,
               out: Path | None = None, apply_limit: int | None = None,
               decisions_per_turn: int = invariants.DEFAULT_DECISIONS_PER_TURN, shrink: bool = True,
               thorough_every: int = 1, max_decisions: int | None = None, backend: str = "local",
               address: str | None = None, progress: Callable[[Report], None] | None = None) -> Report:
    """Play about `games` random games (split over the player counts) and check them.

    Each player count is its own run, seeded from `seed` and its position, so
    the `ray` backend (one task per count) reports exactly what a local run does.
    `progress`, if given, is called with the report so far after every game tried (shrinking included),
    in a local run.
    """
    game = game_of(pack)
    counts = players or list(range(game.min_players, game.max_players + 1))
    for count in counts:
        if not game.min_players <= count <= game.max_players:
            raise PackError(f"{game.name} is for {game.min_players}-{game.max_players} players, not {count}")
    report = Report(game.name, invariants=len(game.invariants), thorough_every=thorough_every)
    started = time.perf_counter()
    shares = [(count, games // len(counts) + (1 if index < games % len(counts) else 0), seed + index)
              for index, count in enumerate(counts)]
    shares = [share for share in shares if share[1] > 0]
    options: dict[str, Any] = {"apply_limit": apply_limit, "decisions_per_turn": decisions_per_turn,
                               "shrink": shrink, "thorough_every": thorough_every, "max_decisions": max_decisions}
    if backend == "ray":
        from ..raybackend import check_counts_ray

        parts: Any = check_counts_ray(game, shares, options, address)
    elif backend == "local":
        def step(part: Report) -> None:
            if progress is not None:
                progress(_combined(report, part))

        parts = (check_count(game, count, share, run_seed, progress=step, **options)
                 for count, share, run_seed in shares)
    else:
        raise PackError(f"unknown backend '{backend}': local or ray")
    for part, failure in parts:  # in count order; a local run stops at the first failure
        for count, finished in part.games.items():
            report.games[count] = report.games.get(count, 0) + finished
        report.attempts += part.attempts
        report.decisions += part.decisions
        report.cut_short += part.cut_short
        report.problems.extend(part.problems)
        if failure is not None:
            report.failure = failure
            break
    report.seconds = time.perf_counter() - started
    if report.failure is not None and out is not None:
        write_failure_log(game, report.failure, out)
    return report


def check_count(game: Game, count: int, share: int, seed: int, *, apply_limit: int | None,
                decisions_per_turn: int, shrink: bool, thorough_every: int,
                max_decisions: int | None, progress: Callable[[Report], None] | None = None
                ) -> tuple[Report, Failure | None]:
    """Property-test `share` random games of `count` players from `seed`: what ran, and the failure found."""
    part = Report(game.name)
    strategy = random_games(game, count, apply_limit=apply_limit, decisions_per_turn=decisions_per_turn,
                            thorough_every=thorough_every, max_decisions=max_decisions)
    return part, _run_count(strategy, share, seed, part, shrink, progress)


def _combined(done: Report, running: Report) -> Report:
    """The counts finished so far and those of the player count running now, for progress reports."""
    both = Report(done.pack)
    for report in (done, running):
        for count, finished in report.games.items():
            both.games[count] = both.games.get(count, 0) + finished
        both.attempts += report.attempts
        both.decisions += report.decisions
    both.failure = running.failure or done.failure
    return both


def _run_count(strategy: SearchStrategy[GameRun], examples: int, seed: int, report: Report,
               shrink: bool, progress: Callable[[Report], None] | None = None) -> Failure | None:
    recorder = _Recorder(report)

    @settings(max_examples=examples, database=None, deadline=None, derandomize=False, print_blob=False,
              suppress_health_check=list(HealthCheck), report_multiple_bugs=False, verbosity=Verbosity.quiet,
              phases=[Phase.generate, Phase.shrink] if shrink else [Phase.generate])
    @hypothesis_seed(seed)
    @given(strategy)
    def play(run: GameRun) -> None:
        report.attempts += 1
        try:
            run.play()
        except Exception as exc:
            recorder.failed(run, exc)
            if progress is not None:
                progress(report)
            raise
        recorder.finished(run)
        if progress is not None:
            progress(report)

    try:
        play()
    except HypothesisException as exc:
        report.problems.append(f"hypothesis could not run the games: {exc}")
    except Exception:  # noqa: BLE001 - the failure itself was recorded by the recorder
        if recorder.failure is None:
            raise
    return recorder.failure


def write_failure_log(game: Game, failure: Failure, path: Path) -> None:
    """The failing game as a replay log (`ruleskit replay` reads it); a decision that crashed comes last."""
    if failure.state is None:
        return
    lines = log_lines(failure.state)
    if failure.failed_action is not None:
        lines.append({"type": "decision", "player": failure.failed_action.player,
                      "action": failure.failed_action.action, "chance": []})
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        for line in lines:
            handle.write(json.dumps(line, separators=(",", ":")) + "\n")
    failure.log_path = path


def check_log(path: str | Path, pack: str | Path | Game | None = None, *,
              apply_limit: int | None = None) -> Failure | None:
    """Re-run a game log with every check after every decision; the failure it shows, if any."""
    lines = read_log(path)
    header = lines[0]
    game = log_game(header, str(path), game_of(pack) if pack is not None else None).with_property_checks()
    players, seed, options = log_start(header, game, str(path))
    if options:
        raise PackError("a log with options cannot be re-checked yet: its games start from the pack's setup",
                        file=str(path), line=1)
    decisions = [entry for entry in lines if entry["type"] == "decision"]
    queue = iter(decisions)

    def replay_choice(state: State, legal: list[Any]) -> Any:
        entry = next(queue, None)
        if entry is None:
            raise _LogEnded()
        for action in legal:
            if action.id == entry["action"] and action.player == entry.get("player", action.player):
                return action
        raise InvariantFailure("replay", f"logged action {entry['action']!r} (line {entry['_line']}) "
                               "is not offered here")

    run = GameRun(game, players, seed, replay_choice, apply_limit=apply_limit)
    recorder = _Recorder(Report(game.name))
    try:
        run.play()
    except _LogEnded:
        return None
    except Exception as exc:  # noqa: BLE001 - any failure is what the log reproduces
        recorder.failed(run, exc)
    return recorder.failure


class _LogEnded(Exception):
    """The log has no more decisions: what it recorded held up."""
