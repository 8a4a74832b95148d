"""Driving random games of a pack with hypothesis, and reporting the first failure.

`check_pack` plays games for each player count, checking every invariant after
every decision. When one fails, hypothesis shrinks it to the shortest game
that still fails; the runner keeps that game, writes it as a replay log and
describes the broken invariant with the state that broke it. `check_log`
re-runs such a log with the same checks, so the failure can be reproduced.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs

from ..errors import PackError, PropertyFailure, RulesError
from ..game import Game
from ..log import log_entries, log_game, log_lines, log_start, pack_ref
from ..raybackend import check_address
from ..runtime.state import State
from . import invariants
from .budget import Deadline, OutOfTime
from .coverage import Coverage, instrumented
from .defaults import DEFAULT_GAMES, DEFAULT_THOROUGH_EVERY
from .invariants import InvariantFailure
from .policies import POLICIES, ExplorationPolicy, RandomPolicy, make_policy
from .shrink import shrink_game
from .strategies import GameRun, Step, Watcher, game_of


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
    choices: list[int] | None = None  # the index chosen at each decision with a choice, for shrinking
    game_index: int = 0  # which game of the run it was
    pack_folder: str | None = None  # the folder the log must be re-checked with; None for a built-in pack

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
            pack = "" if self.pack_folder is None else shlex.quote(self.pack_folder) + " "
            lines.append(f"  replay log: {self.log_path} (re-check with: ruleskit test {pack}--log "
                         f"{shlex.quote(str(self.log_path))})")
        return "\n".join(lines)


@attrs.define
class Report:
    """What a test run tried and found."""

    pack: str
    games: dict[int, int] = attrs.Factory(dict)  # finished games by player count
    attempts: int = 0  # every game started, shrinking left out
    decisions: int = 0
    cut_short: int = 0  # games stopped at max_decisions
    thorough_every: int = 1
    invariants: int = 0
    properties: int = 0  # the pack's [properties]; its `ensure`s are not counted
    seconds: float = 0.0
    failure: Failure | None = None
    problems: list[str] = attrs.Factory(list)
    policy: str = "random"
    budget: float | None = None  # seconds
    stopped: str | None = None  # what ended the run early: the time budget or Ctrl-C
    interrupted: bool = False  # by Ctrl-C: the run did not do what it was asked, failure or not
    shrinking: bool = False
    shrink_attempts: int = 0
    players_now: int | None = None  # the player count of the game being played
    decisions_now: int = 0  # decisions of the game being played
    coverage: Coverage | None = None
    played: list[tuple[int, int, int, int]] = attrs.Factory(list)  # (index, players, decisions, cut short): Ray
    clock: Any = attrs.field(default=None, repr=False)

    @property
    def ok(self) -> bool:
        return self.failure is None and not self.problems

    @property
    def elapsed(self) -> float:
        return self.clock.elapsed if self.clock is not None else self.seconds

    def summary(self) -> str:
        if self.ok:
            status = "ok"
        else:
            status = f"FAILED (after {self.attempts} game{'' if self.attempts == 1 else 's'} tried" + (
                f", {self.shrink_attempts} while shrinking)" if self.shrink_attempts else ")")
        if self.stopped:
            status += f"; stopped by {self.stopped}" + (
                ", the shortest failing game so far is kept" if self.failure is not None else "")
        costly = "" if self.thorough_every == 1 else f" (the costly ones every {self.thorough_every})"
        steered = "" if self.policy == "random" else f", play steered by the '{self.policy}' policy"
        # Properties are named too: a pack author who has just written some sees that they ran.
        checks = (f"{self.invariants} pack {'invariant' if self.invariants == 1 else 'invariants'} and the engine invariants checked after every decision{costly}"
                  f" and {self.properties} {'property' if self.properties == 1 else 'properties'} where they apply")
        if not self.games:  # failed before any game passed: the count of games tried is in the status
            return f"{self.pack}: {checks}{steered}, {self.seconds:.1f}s: {status}"
        per_count = ", ".join(f"{p}p: {n}" for p, n in sorted(self.games.items()))
        short = f", {self.cut_short} cut short" if self.cut_short else ""
        return (f"{self.pack}: {sum(self.games.values())} games ({per_count}{short}), {self.decisions} decisions, "
                f"{checks}{steered}, {self.seconds:.1f}s: {status}")


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


def failure_of(run: GameRun, exc: BaseException) -> Failure:
    """What broke in a game that raised `exc`, and where the game stood."""
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
    return Failure(run.players, run.seed, list(run.steps), run.failed_action, name, detail, source,
                   run.state, trace, choices=list(run.choices))


def game_seed(seed: int, index: int) -> int:
    """The seed of the run's game number `index`: the same in every process and on every backend."""
    digest = hashlib.sha256(f"ruleskit-test:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def game_plan(counts: list[int], games: int | None, seed: int) -> Iterator[tuple[int, int, int]]:
    """(index, player count, seed) of each game: the counts interleaved, 2, 3, 4, 2, 3, 4, ..."""
    index = 0
    while games is None or index < games:
        yield index, counts[index % len(counts)], game_seed(seed, index)
        index += 1


class _Ticker(Watcher):
    """Reports progress every so many decisions of a long game."""

    def __init__(self, report: Report, progress: Callable[[Report], None] | None, every: int = 500) -> None:
        self.report = report
        self.progress = progress
        self.every = every

    def started(self, run: GameRun, state: State) -> None:
        self.report.players_now = run.players
        self.report.decisions_now = 0

    def decided(self, run: GameRun, action: Any, before: State | None, state: State) -> None:
        self.report.decisions_now = len(run.steps)
        if self.progress is not None and len(run.steps) % self.every == 0:
            self.progress(self.report)


def check_pack(pack: str | Path | Game, *, games: int | None = DEFAULT_GAMES, players: list[int] | None = None,
               seed: int = 0, out: Path | None = None, apply_limit: int | None = None,
               decisions_per_turn: int = invariants.DEFAULT_DECISIONS_PER_TURN, shrink: bool = True,
               thorough_every: int = DEFAULT_THOROUGH_EVERY, max_decisions: int | None = None,
               backend: str = "local", address: str | None = None,
               progress: Callable[[Report], None] | None = None, time_budget: float | None = None,
               policy: str = "random", coverage: bool = False, watchers: list[Watcher] | None = None,
               address_checked: bool = False) -> Report:
    """Play `games` random games (the player counts interleaved) and check them; see docs/TESTING.md.

    A failure is written to `out` as soon as it is found, then shrunk, the log rewritten with each
    shorter game that fails the same way. `time_budget` (seconds) ends the run, shrinking included,
    with the shortest failing game found so far; so does Ctrl-C. `games=None` plays until the budget.
    `policy` is "random" or "explore" (steered toward what no game has reached yet); `coverage`
    counts what the games reached (`report.coverage`). `progress` is called with the report after
    every game, every 500 decisions of a game, and while shrinking. A cluster `address` is probed before any
    work unless `address_checked` says the caller has just done so (`check_address`).
    """
    game = game_of(pack).with_property_checks()  # `ensure`s and [properties] are checked by tests only
    counts = players or list(range(game.min_players, game.max_players + 1))
    for count in counts:
        if not game.min_players <= count <= game.max_players:
            raise game.players_refused(count)
    if games is None and time_budget is None:
        raise PackError("give a number of games, a time budget, or both")
    if policy not in POLICIES:
        raise PackError(f"unknown policy '{policy}': " + " or ".join(POLICIES))
    if not address_checked:  # `ruleskit test` probes it before its scenario tests: a second probe of the run
        check_address(backend, address)
    if backend == "ray" and (policy != "random" or coverage or watchers):
        # Each Ray task plays random games and reports no coverage: these were dropped without a word.
        raise PackError("the ray backend plays random games only: --policy explore, --coverage and watchers "
                        "run on the local backend")
    report = Report(game.name, invariants=len(game.invariants), properties=len(game.definitions.get("properties") or {}),
                    thorough_every=thorough_every, policy=policy, budget=time_budget)
    deadline = Deadline(time_budget)
    report.clock = deadline
    options: dict[str, Any] = {"apply_limit": apply_limit, "decisions_per_turn": decisions_per_turn,
                               "thorough_every": thorough_every, "max_decisions": max_decisions}
    try:
        if backend == "ray":
            _search_ray(game, counts, games, seed, options, report, address)
        elif backend == "local":
            played = game
            probe = None
            if coverage or policy == "explore":
                played, probe = instrumented(game)
            if coverage or policy == "explore":
                report.coverage = Coverage(played, counts, probe)
            chooser = make_policy(policy, report.coverage)
            extra = list(watchers or []) + ([report.coverage] if report.coverage is not None else [])
            _search(played, counts, games, seed, options, report, chooser, extra, deadline, progress, out)
        else:
            raise PackError(f"unknown backend '{backend}': local or ray")
        if report.failure is not None:
            _keep(game, report, out, progress)
            if shrink and report.failure.choices is not None:
                _shrink(game, counts, {**options, "watchers": list(watchers or [])}, report, deadline, progress, out)
    except OutOfTime:
        report.stopped = f"the time budget ({format_seconds(time_budget or 0)})"
    except KeyboardInterrupt:
        report.stopped = "an interruption (Ctrl-C)"
        report.interrupted = True
    report.shrinking = False
    report.players_now = None
    report.seconds = deadline.elapsed
    return report


def _search(game: Game, counts: list[int], games: int | None, seed: int, options: dict[str, Any], report: Report,
            policy: RandomPolicy | ExplorationPolicy, watchers: list[Watcher], deadline: Deadline,
            progress: Callable[[Report], None] | None, out: Path | None) -> None:
    """Play the planned games until one fails (kept in the report) or the plan or the time runs out."""
    ticker = _Ticker(report, progress)
    for index, count, seed_of_game in game_plan(counts, games, seed):
        deadline.check()
        run = GameRun(game, count, seed_of_game, policy.chooser(count, seed_of_game), watchers=[*watchers, ticker],
                      deadline=deadline, **options)
        report.attempts += 1
        try:
            run.play()
        except Exception as exc:  # noqa: BLE001 - every failure of a game is what the run looks for
            report.failure = failure_of(run, exc)
            report.failure.game_index = index
            report.decisions_now = 0
            return
        report.decisions_now = 0
        report.games[count] = report.games.get(count, 0) + 1
        report.decisions += len(run.steps)
        if not run.state or not run.state.is_terminal:
            report.cut_short += 1
        if progress is not None:
            progress(report)


def _keep(game: Game, report: Report, out: Path | None, progress: Callable[[Report], None] | None) -> None:
    """Write the failing game as soon as it is found: nothing later can lose it."""
    assert report.failure is not None
    if out is not None:
        write_failure_log(game, report.failure, out)
    if progress is not None:
        progress(report)


def _shrink(game: Game, counts: list[int], options: dict[str, Any], report: Report, deadline: Deadline,
            progress: Callable[[Report], None] | None, out: Path | None) -> None:
    """Shrink the report's failure with hypothesis, rewriting the log with each shorter failing game."""
    original = report.failure
    assert original is not None and original.choices is not None
    report.shrinking = True

    def found(run: GameRun, exc: BaseException) -> bool:
        report.shrink_attempts += 1
        failure = failure_of(run, exc)
        if failure.name != original.name:
            return False  # another failure: not a smaller example of this one
        best = report.failure
        if best is None or len(failure.steps) <= len(best.steps):
            failure.game_index = original.game_index
            report.failure = failure
            if out is not None and (best is None or len(failure.steps) < len(best.steps) or
                                    failure.steps != best.steps):
                write_failure_log(game, failure, out)
            elif best is not None:
                failure.log_path, failure.pack_folder = best.log_path, best.pack_folder
        if progress is not None:
            progress(report)
        return True

    shrink_game(game, counts, original.players, original.seed, original.choices, len(original.steps),
                dict(options), found, deadline)


def _search_ray(game: Game, counts: list[int], games: int | None, seed: int, options: dict[str, Any],
                report: Report, address: str | None) -> None:
    """The planned games as one Ray task per player count; the same games, failure and counts as a local run."""
    from ..raybackend import check_counts_ray

    if games is None:
        raise PackError("the ray backend needs a number of games")
    plan = list(game_plan(counts, games, seed))
    shares = [(count, [(i, s) for i, c, s in plan if c == count]) for count in counts]
    parts = check_counts_ray(game, [share for share in shares if share[1]], options, address)
    failures = [failure for _, failure in parts if failure is not None]
    first = min((f.game_index for f in failures), default=games)
    for part, _ in parts:
        for index, count, decisions, short in part.played:
            if index < first:
                report.games[count] = report.games.get(count, 0) + 1
                report.decisions += decisions
                report.cut_short += short
                report.attempts += 1
    if failures:
        report.failure = min(failures, key=lambda f: f.game_index)
        report.attempts += 1


def check_count(game: Game, count: int, share: list[tuple[int, int]], **options: Any
                ) -> tuple[Report, Failure | None]:
    """Play the given (index, seed) games of `count` players, stopping at the first failure (a Ray task)."""
    part = Report(game.name)
    policy = RandomPolicy()
    for index, seed_of_game in share:
        run = GameRun(game, count, seed_of_game, policy.chooser(count, seed_of_game), **options)
        try:
            run.play()
        except Exception as exc:  # noqa: BLE001 - the failure is the result
            failure = failure_of(run, exc)
            failure.game_index = index
            return part, failure
        part.played.append((index, count, len(run.steps), 0 if run.state and run.state.is_terminal else 1))
    return part, None


def format_seconds(seconds: float) -> str:
    minutes, rest = divmod(int(round(seconds)), 60)
    return f"{minutes}m{rest:02d}s" if minutes else f"{rest}s"


def write_failure_log(game: Game, failure: Failure, path: Path) -> None:
    """The failing game as a replay log (`ruleskit replay` reads it); a decision that crashed comes last."""
    if failure.state is None:
        return
    lines = log_lines(failure.state)
    if failure.failed_action is not None:
        lines.append({"type": "decision", "player": failure.failed_action.player,
                      "action": failure.failed_action.action, "chance": []})
    path.parent.mkdir(parents=True, exist_ok=True)
    # Written beside and then moved into place: a run stopped mid-write never leaves half a log.
    partial = path.with_name(path.name + ".partial")
    with open(partial, "w", encoding="utf-8") as handle:
        for line in lines:
            handle.write(json.dumps(line, separators=(",", ":")) + "\n")
    os.replace(partial, path)
    failure.log_path = path
    ref = pack_ref(game)
    # A log never loads a folder by itself, so the command to re-check it must name the folder.
    failure.pack_folder = None if ref == game.name else _shown_path(ref)


def _shown_path(folder: str) -> str:
    """`folder` relative to the working folder when it lies inside it, as the user most likely typed it."""
    try:
        relative = os.path.relpath(folder)
    except ValueError:  # another drive
        return folder
    return folder if relative.startswith("..") else relative


def check_log(path: str | Path, pack: str | Path | Game | None = None, *,
              apply_limit: int | None = None) -> Failure | None:
    """Re-run a game log with every check after every decision; the failure it shows, if any.

    The log is read as the game goes (one line held at a time), and read to its end once the game is over, so
    a mistake in it is still found; a mistake is the log's error, never a failure of the game."""
    entries = log_entries(path)
    header = next(entries)
    game = log_game(header, str(path), game_of(pack) if pack is not None else None).with_property_checks()
    players, seed, options = log_start(header, game, str(path))
    if options:
        raise PackError("a log with options cannot be re-checked yet: its games start from the pack's setup",
                        file=str(path), line=1)

    def next_decision() -> dict[str, Any] | None:
        try:
            return next((entry for entry in entries if entry["type"] == "decision"), None)
        except PackError as exc:
            raise _LogBroken(exc) from None

    def replay_choice(state: State, legal: list[Any]) -> Any:
        entry = next_decision()
        if entry is None:
            raise _LogEnded()
        player = entry.get("player")  # none, or left out, as `replay` takes it: the first player offered the id
        for action in legal:
            if action.id == entry["action"] and (player is None or action.player == player):
                return action
        raise InvariantFailure("replay", f"logged action {entry['action']!r} (line {entry['_line']}) "
                               "is not offered here")

    run = GameRun(game, players, seed, replay_choice, apply_limit=apply_limit)
    try:
        run.play()
    except _LogEnded:
        return None
    except _LogBroken as broken:
        raise broken.error from None
    except Exception as exc:  # noqa: BLE001 - any failure is what the log reproduces
        return failure_of(run, exc)
    for _ in entries:  # the rest of the log, for its mistakes
        pass
    return None


class _LogBroken(Exception):
    """A line of the log being re-checked is not a valid log line: the log's error, not the game's."""

    def __init__(self, error: PackError) -> None:
        super().__init__(error.message)
        self.error = error


class _LogEnded(Exception):
    """The log has no more decisions: what it recorded held up."""
