"""Differential runs: two packs played in lockstep on the same seeds and decisions.

`check_against(pack, other)` plays random games of `pack` and, decision for
decision, the same games of `other` (a variant, a refactored version, the same
pack on the other backend). After setup and after every decision it compares
the legal actions, the chance drawn, the state (`state.raw`, the pending
choice) and the result. The first difference that is not declared as intended
is a divergence: it names its path in the state (`players[1].coins: 3 != 4`)
and the decisions that led there. Hypothesis shrinks the game to the shortest
one that still diverges, and both games are written as replay logs.

Paths name the parts of `state.raw` as a pack author reads them:
`vars.NAME`, `players[I].NAME` (a player's vars and zones, I from 0),
`items.ITEM.NAME`, `zones.NAME...`, `flow.NAME`, `blocked`, `result...`,
`rng`, `chance`, `pending.prompt`, and `legal_actions.ID` for an action
offered by one pack only. An expected-difference pattern matches a path or
any path beneath it; `*` stands for any text within one part of the path and
`**` for any text at all, e.g. `players[*].coins`, `zones.supply`,
`legal_actions.anchor*`.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import attrs
from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

from ..atomic import write_text_atomically
from ..digits import plain_digits
from ..errors import PackError, RulesError
from ..game import Game, load
from ..log import log_lines
from ..packs import display_path
from ..runtime.engine import Action
from ..runtime.state import State
from .strategies import SEEDS, Cutoff, Step, game_of

# The most differing paths one divergence lists (the first is the one reported).
MAX_SHOWN = 12


# Bounds of the expected-difference patterns (from the command line and a pack's `expect_diff`): each is
# matched against every differing path, in time proportional to the path's length (a bitset step per character).
MAX_PATTERNS = 64
MAX_PATTERN_CHARS = 200
# Paths repeat from one decision to the next: each one's answer is kept, and the memo is emptied past this size.
MAX_MEMO = 100_000


class Expectations:
    """The paths where the two packs are meant to differ (glob-like patterns)."""

    def __init__(self, patterns: Iterable[str] = ()) -> None:
        self.patterns = [p.strip() for p in patterns if p.strip()]
        check_patterns(self.patterns)
        self._glob = PathGlob(*self.patterns)
        self._memo: dict[str, bool] = {}

    def expected(self, path: str) -> bool:
        known = self._memo.get(path)
        if known is not None:
            return known
        answer = self._glob.matches(path)
        if len(self._memo) >= MAX_MEMO:
            self._memo.clear()
        self._memo[path] = answer
        return answer


def check_patterns(patterns: Sequence[str], file: str | None = None) -> None:
    """Refuse more patterns, or a longer one, than the bounds allow (`file`: where they are written)."""
    if len(patterns) > MAX_PATTERNS:
        raise PackError(f"more than {MAX_PATTERNS} expected-difference patterns", file=file)
    for pattern in patterns:
        if len(pattern) > MAX_PATTERN_CHARS:
            raise PackError(f"expected-difference pattern longer than {MAX_PATTERN_CHARS} characters: "
                            f"{pattern[:40]!r}...", file=file)


# The pattern tokens besides plain characters: `*` (any text within one part of a path) and `**` (any text).
_PART, _ANY = "*", "**"
# What ends a part of a path: `*` does not cross it, and a pattern matches a path up to one of them.
_PART_BREAKS = ".[]"


class PathGlob:
    """Expected-difference patterns, matched together without backtracking.

    `*` stands for any text without `.`, `[` or `]`, `**` for any text at all, and a pattern matches a
    path when it matches the path's whole text or a beginning of it followed by `.` or `[` (the path
    and everything beneath it). A run of stars with `**` in it is one `**`. The match steps through
    the path once, keeping the set of pattern positions reached so far as the bits of one int, for all
    the patterns at once (a Thompson automaton run as a bitset): a few int operations per character of
    the path, whatever the patterns. It matches when any of the patterns does.
    """

    def __init__(self, *patterns: str) -> None:
        self.patterns = patterns
        # Each pattern takes one bit per token and one for its end, after the previous pattern's.
        self._start = self._done = 0
        # For each plain character, the positions that read it; the positions of `*` and of `**`.
        self._reads: dict[str, int] = {}
        self._part = self._any = 0
        offset = 0
        for pattern in patterns:
            tokens = _glob_tokens(pattern)
            self._start |= 1 << offset
            for position, token in enumerate(tokens, start=offset):
                bit = 1 << position
                if token == _ANY:
                    self._any |= bit
                elif token == _PART:
                    self._part |= bit
                else:
                    self._reads[token] = self._reads.get(token, 0) | bit
            offset += len(tokens)
            self._done |= 1 << offset
            offset += 1
        self._stars = self._part | self._any

    def matches(self, path: str) -> bool:
        done = self._done
        reached = self._closure(self._start)
        for char in path:
            if reached & done and char in ".[":
                return True
            reached = self._closure(self._step(reached, char))
            if not reached:
                return False
        return bool(reached & done)

    def _step(self, reached: int, char: str) -> int:
        stay = self._any if char in _PART_BREAKS else self._stars
        return ((reached & self._reads.get(char, 0)) << 1) | (reached & stay)

    def _closure(self, reached: int) -> int:
        """The positions reached, and those a run of stars matching no text at all reaches from them."""
        while True:
            found = reached | ((reached & self._stars) << 1)
            if found == reached:
                return found
            reached = found


def _glob_tokens(pattern: str) -> list[str]:
    """The pattern as tokens: each plain character, `*` or `**` (a run of stars holding `**` is one `**`)."""
    tokens: list[str] = []
    for run in re.split(r"(\*+)", pattern):
        if not run:
            continue
        if run.startswith("*"):
            tokens.append(_PART if run == "*" else _ANY)
        else:
            tokens.extend(run)
    return tokens


@attrs.define
class Difference:
    """One path where the two games differ."""

    path: str
    mine: Any
    other: Any

    def describe(self, names: tuple[str, str] = ("", "")) -> str:
        left = _short(self.mine)
        right = _short(self.other)
        if names[0]:
            return f"{self.path}: {left} ({names[0]}) != {right} ({names[1]})"
        return f"{self.path}: {left} != {right}"


def _short(value: Any, limit: int = 120) -> str:
    text = json.dumps(value, sort_keys=True) if not isinstance(value, str) else value
    return text if len(text) <= limit else text[:limit - 3] + "..."


@attrs.define
class Divergence:
    """The first unintended difference between the two games: where, after which decisions."""

    pack: str
    other: str
    players: int
    seed: int
    steps: list[Step]
    when: str  # "after setup", "after decision N", "offered actions before decision N", ...
    differences: list[Difference]
    state: State | None = None
    other_state: State | None = None
    log_path: Path | None = None
    other_log_path: Path | None = None

    @property
    def first(self) -> Difference:
        return self.differences[0]

    def describe(self) -> str:
        names = (self.pack, self.other)
        lines = [f"DIVERGED {self.when}: {self.first.describe(names)}"]
        for more in self.differences[1:MAX_SHOWN]:
            lines.append(f"  also {more.describe()}")
        if len(self.differences) > MAX_SHOWN:
            lines.append(f"  ... and {len(self.differences) - MAX_SHOWN} more paths")
        lines.append(f"  game: {self.players} players, seed {self.seed}, {len(self.steps)} decisions")
        if self.steps:
            lines.append("  decisions: " + " ".join(step.action for step in self.steps))
        if self.log_path is not None:
            lines.append(f"  replay logs: {self.log_path} ({self.pack}), {self.other_log_path} ({self.other})")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {"when": self.when, "players": self.players, "seed": self.seed,
                "decisions": [step.action for step in self.steps],
                "differences": [{"path": d.path, "mine": d.mine, "other": d.other}
                                for d in self.differences[:MAX_SHOWN]],
                "log": None if self.log_path is None else str(self.log_path),
                "other_log": None if self.other_log_path is None else str(self.other_log_path)}


class Diverged(Exception):
    """Raised inside a lockstep game at its first unintended difference."""

    def __init__(self, divergence: Divergence) -> None:
        super().__init__(divergence.when)
        self.divergence = divergence


# ---------------------------------------------------------------- comparing states


def state_differences(a: State, b: State) -> list[Difference]:
    """Every path where two states differ (data, pending choice), in a reader's order."""
    found: list[Difference] = []
    raw_a, raw_b = a.raw, b.raw
    if raw_a != raw_b:
        for key in ("n", "seed", "v", "pv", "ev", "z", "blocked", "flow", "result", "rng"):
            _walk(_top(key), raw_a.get(key), raw_b.get(key), found)
        for key in sorted(set(raw_a) ^ set(raw_b) | (set(raw_a) - {"n", "seed", "v", "pv", "ev", "z", "blocked",
                                                                     "flow", "result", "rng"})):
            _walk(key, raw_a.get(key), raw_b.get(key), found)
    pend_a = _pending_view(a.pending)
    pend_b = _pending_view(b.pending)
    if pend_a != pend_b:
        _walk("pending", pend_a, pend_b, found)
    return found


def _pending_view(pending: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if pending is None else {"player": pending["player"], "prompt": pending["prompt"]}


def _top(key: str) -> str:
    return {"v": "vars", "pv": "players", "ev": "items", "z": "zones"}.get(key, key)


def _walk(path: str, a: Any, b: Any, found: list[Difference]) -> None:
    if a == b:
        return
    if isinstance(a, dict) and isinstance(b, dict):
        if path == "zones":
            for key in sorted(set(a) | set(b)):
                name, _, owner = key.partition("@")
                where = f"players[{owner}].{name}" if plain_digits(owner) else f"zones.{key}"
                _walk(where, a.get(key, _MISSING), b.get(key, _MISSING), found)
            return
        for key in sorted(set(a) | set(b), key=str):
            _walk(f"{path}.{key}", a.get(key, _MISSING), b.get(key, _MISSING), found)
        return
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and path in ("players",) + _LIST_PATHS:
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            _walk(f"{path}[{index}]", x, y, found)
        return
    found.append(Difference(path, _plain(a), _plain(b)))


# Lists whose entries are compared one by one (elsewhere a list is one value: a stack, a row of cards).
_LIST_PATHS = ("result.scores", "result.places", "result.tiebreaks")


class _Missing:
    def __repr__(self) -> str:
        return "(absent)"


_MISSING = _Missing()


def _plain(value: Any) -> Any:
    return "(absent)" if value is _MISSING else value


def legal_differences(a: list[Action], b: list[Action]) -> list[Difference]:
    """Actions offered by one state and not the other (by player and id; their order does not matter)."""
    mine = {(action.player, action.id) for action in a}
    theirs = {(action.player, action.id) for action in b}
    found = [Difference(f"legal_actions.{aid}", f"offered to Player {p + 1}", "not offered")
             for p, aid in sorted(mine - theirs)]
    found += [Difference(f"legal_actions.{aid}", "not offered", f"offered to Player {p + 1}")
              for p, aid in sorted(theirs - mine)]
    return found


def chance_differences(a: State, b: State) -> list[Difference]:
    """The chance outcomes the last step drew, if they differ."""
    drawn_a = a.history[-1].get("chance", []) if a.history else []
    drawn_b = b.history[-1].get("chance", []) if b.history else []
    return [] if drawn_a == drawn_b else [Difference("chance", drawn_a, drawn_b)]


# ---------------------------------------------------------------- one lockstep game


@attrs.define
class LockstepRun:
    """One game of two packs on the same seed and decisions; `play()` raises `Diverged` at the first difference."""

    game: Game
    other: Game
    players: int
    seed: int
    choose: Callable[[State, list[Action]], Action]
    expect: Expectations = attrs.Factory(Expectations)
    max_decisions: int | None = None
    deadline: float | None = None
    cutoff: Cutoff = attrs.Factory(Cutoff)
    clock: Callable[[], float] = time.monotonic
    state: State | None = None
    other_state: State | None = None
    steps: list[Step] = attrs.Factory(list)

    def play(self) -> None:
        try:
            self._play()
        except Diverged:
            self.cutoff.note(len(self.steps))
            raise

    def _play(self) -> None:
        self.steps = []
        a = self._start(self.game, None)
        b = self._start(self.other, a)
        self.state, self.other_state = a, b
        self._compare(a, b, "after setup", chance=True)
        while not a.is_terminal:
            if self.max_decisions is not None and len(self.steps) >= self.max_decisions:
                return
            if self.cutoff.decisions is not None and len(self.steps) > self.cutoff.decisions:
                return
            if self.deadline is not None and self.clock() > self.deadline:
                return
            number = len(self.steps) + 1
            (legal_a, error_a), (legal_b, error_b) = _listing(a), _listing(b)
            if error_a is not None or error_b is not None:  # a rule that fails while listing, as in applying
                self._report([Difference("error", error_a or "listed", error_b or "listed")],
                             f"in the actions offered before decision {number}")
            self._report([d for d in legal_differences(legal_a, legal_b) if not self.expect.expected(d.path)],
                         f"in the actions offered before decision {number}")
            # Decisions come from PACK's legal set; where a difference there is declared, from both sets.
            offered_b = {(action.player, action.id) for action in legal_b}
            choices = [action for action in legal_a if (action.player, action.id) in offered_b]
            if not choices:
                return  # the packs offer nothing in common, as declared: the games part here
            action = self.choose(a, choices)
            self.steps.append(Step(len(self.steps), action.player, action.id))
            error_a = _apply(a, action.id, action.player)
            error_b = _apply(b, action.id, action.player)
            when = f"at decision {number} ({action.id!r} by Player {action.player + 1})"
            if error_a is not None or error_b is not None:
                self._report([Difference("error", error_a or "applied", error_b or "applied")], when)
            self._compare(a, b, f"after decision {number} ({action.id!r} by Player {action.player + 1})",
                          chance=True)

    def _start(self, game: Game, mine: State | None) -> State:
        """A new game of one of the packs; a setup that fails is a divergence (`mine`: PACK's game, if set up)."""
        try:
            return game.new_game(players=self.players, seed=self.seed)
        except RulesError as exc:
            mine_text = "set up" if mine is not None else _error_text(exc)
            other_text = _error_text(exc) if mine is not None else "(not tried)"
            raise Diverged(self._divergence("at setup", [Difference("error", mine_text, other_text)])) from None

    def _compare(self, a: State, b: State, when: str, *, chance: bool) -> None:
        found = state_differences(a, b)
        found += chance_differences(a, b) if chance else []
        self._report([d for d in found if not self.expect.expected(d.path)], when)

    def _report(self, found: list[Difference], when: str) -> None:
        if found:
            raise Diverged(self._divergence(when, found))

    def _divergence(self, when: str, found: list[Difference]) -> Divergence:
        names = side_names(self.game, self.other, short=True)
        return Divergence(*names, self.players, self.seed, list(self.steps), when,
                          found, self.state, self.other_state)

    def __repr__(self) -> str:
        return f"LockstepRun({self.game.name} vs {self.other.name}, players={self.players}, seed={self.seed})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))


def _listing(state: State) -> tuple[list[Action], str | None]:
    try:
        return state.legal_actions(), None
    except RulesError as exc:
        return [], _error_text(exc)


def _apply(state: State, action_id: str, player: int) -> str | None:
    try:
        state.apply(action_id, player=player)
    except RulesError as exc:
        return _error_text(exc)
    return None


def _error_text(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}"


def side_names(game: Game, other: Game, short: bool = False) -> tuple[str, str]:
    """How reports tell the two sides apart: by pack name, else by backend, else by folder
    (a mutant copy keeps its pack's name, so that the pack's own tests still apply to it)."""
    if game.name != other.name:
        return game.name, other.name
    if game.backend != other.backend:
        if short:
            return game.backend, other.backend
        return f"{game.name} ({game.backend})", f"{other.name} ({other.backend})"
    return f"{game.name} at {game.source.root}", f"{other.name} at {other.source.root}"


# ---------------------------------------------------------------- many games, shrunk


@attrs.define
class DiffReport:
    """What a differential run played and the divergence it found."""

    pack: str
    other: str
    games: dict[int, int] = attrs.Factory(dict)
    attempts: int = 0
    decisions: int = 0
    seconds: float = 0.0
    seconds_to_first: float | None = None  # when the first divergence was seen, before shrinking
    timed_out: bool = False
    expected: list[str] = attrs.Factory(list)
    divergence: Divergence | None = None
    problems: list[str] = attrs.Factory(list)

    @property
    def ok(self) -> bool:
        return self.divergence is None and not self.problems

    def summary(self) -> str:
        per_count = ", ".join(f"{p}p: {n}" for p, n in sorted(self.games.items())) or "none finished"
        ignoring = f", ignoring {len(self.expected)} expected difference(s)" if self.expected else ""
        budget = " (time budget reached)" if self.timed_out else ""
        status = "same games" if self.ok else "DIVERGED"
        return (f"{self.pack} against {self.other}: {sum(self.games.values())} games in lockstep ({per_count}), "
                f"{self.decisions} decisions{ignoring}, {self.seconds:.1f}s{budget}: {status}")

    def to_json(self) -> dict[str, Any]:
        return {"pack": self.pack, "against": self.other, "ok": self.ok,
                "games": {str(k): v for k, v in self.games.items()}, "attempts": self.attempts,
                "decisions": self.decisions, "seconds": round(self.seconds, 3),
                "seconds_to_first": None if self.seconds_to_first is None else round(self.seconds_to_first, 3),
                "timed_out": self.timed_out, "expected": self.expected, "problems": self.problems,
                "divergence": None if self.divergence is None else self.divergence.to_json()}


def _drawing_chooser(data: Any) -> Callable[[State, list[Action]], Action]:
    def choose(state: State, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        return legal[data.draw(st.integers(0, len(legal) - 1), label="decision")]

    return choose


def lockstep_games(game: Game, other: Game, players: Sequence[int], *, expect: Expectations,
                   max_decisions: int | None = None, deadline: float | None = None,
                   seeds: st.SearchStrategy[int] = SEEDS,
                   clock: Callable[[], float] = time.monotonic) -> st.SearchStrategy[LockstepRun]:
    """Lockstep games of two packs, their decisions drawn by hypothesis as they are needed."""
    cutoff = Cutoff()

    @st.composite
    def build(draw: Any) -> LockstepRun:
        count = draw(st.sampled_from(list(players)), label="players")
        seed = draw(seeds, label="seed")
        data = draw(st.data())
        return LockstepRun(game, other, count, seed, _drawing_chooser(data), expect, max_decisions, deadline,
                           cutoff, clock)

    return build()


def check_against(pack: str | Path | Game, other: str | Path | Game, *, games: int = 100,
                  players: list[int] | None = None, seed: int = 0, expect: Iterable[str] = (),
                  max_decisions: int | None = None, shrink: bool = True, seconds: float | None = None,
                  out: Path | None = None, progress: Callable[[DiffReport], None] | None = None,
                  clock: Callable[[], float] = time.monotonic) -> DiffReport:
    """Play `games` random games of `pack` and `other` in lockstep; report the first divergence, shrunk.

    The player counts take turns, a few games at a time, so a short run meets
    each of them. `seconds` bounds the run (shrinking included): when it is
    spent, the shortest divergence found so far is the one reported. The
    patterns of `expect` and the `expect_diff` list of `pack`'s pack.toml are
    differences to ignore. `clock` measures the budget (`time.process_time`: CPU time).
    """
    game, versus = game_of(pack), game_of(other)
    counts = players or [n for n in range(game.min_players, game.max_players + 1)
                         if versus.min_players <= n <= versus.max_players]
    if not counts:
        raise PackError(f"{game.name} ({game.player_range} players) and {versus.name} "
                        f"({versus.player_range}) share no player count")
    for count in counts:
        for g in (game, versus):
            if not g.min_players <= count <= g.max_players:
                raise g.players_refused(count)
    patterns = list(expect) + declared_differences(game) + declared_differences(versus)
    expectations = Expectations(patterns)
    names = side_names(game, versus)
    report = DiffReport(*names, expected=expectations.patterns)
    started = clock()
    deadline = started + seconds if seconds is not None else None
    # Rounds of a few games per player count, so that every count is reached early.
    batch = max(1, min(3, games // len(counts)))
    round_number = 0
    remaining = games
    while remaining > 0 and report.divergence is None and not report.problems:
        for index, count in enumerate(counts):
            if remaining <= 0:
                break
            if deadline is not None and clock() > deadline:
                report.timed_out = True
                remaining = 0
                break
            share = min(batch, remaining)
            remaining -= share
            run_seed = seed * 1_000_003 + round_number * len(counts) + index
            strategy = lockstep_games(game, versus, [count], expect=expectations, max_decisions=max_decisions,
                                      deadline=deadline, clock=clock)
            found = _run_lockstep(strategy, share, run_seed, report, shrink, started, progress, clock)
            if found is not None:
                report.divergence = found
                break
        round_number += 1
    report.seconds = clock() - started
    if deadline is not None and clock() > deadline:
        report.timed_out = True
    if report.divergence is not None and out is not None:
        write_divergence_logs(report.divergence, out)
    return report


def _run_lockstep(strategy: st.SearchStrategy[LockstepRun], examples: int, seed: int, report: DiffReport,
                  shrink: bool, started: float, progress: Callable[[DiffReport], None] | None,
                  clock: Callable[[], float]) -> Divergence | None:
    best: list[Divergence] = []

    @settings(max_examples=examples, database=None, deadline=None, derandomize=False, print_blob=False,
              suppress_health_check=list(HealthCheck), report_multiple_bugs=False, verbosity=Verbosity.quiet,
              phases=[Phase.generate, Phase.shrink] if shrink else [Phase.generate])
    @hypothesis_seed(seed)
    @given(strategy)
    def play(run: LockstepRun) -> None:
        if run.deadline is not None and clock() > run.deadline:
            return  # the budget is spent: keep the best divergence found so far
        report.attempts += 1
        try:
            run.play()
        except Diverged as exc:
            found = exc.divergence
            if report.seconds_to_first is None:
                report.seconds_to_first = clock() - started
            if not best or len(found.steps) <= len(best[-1].steps):
                best.append(found)
            if progress is not None:
                progress(report)
            raise
        report.games[run.players] = report.games.get(run.players, 0) + 1
        report.decisions += len(run.steps)
        if progress is not None:
            progress(report)

    try:
        play()
    except Diverged:
        pass
    except HypothesisException as exc:
        if not best:
            report.problems.append(f"hypothesis could not run the games: {exc}")
    return best[-1] if best else None


def declared_differences(game: Game) -> list[str]:
    """The `expect_diff` patterns a pack declares in its pack.toml (within the bounds of the patterns)."""
    declared = getattr(game.source.manifest, "expect_diff", None) or []
    patterns = [str(pattern) for pattern in declared]
    check_patterns(patterns, file=display_path(game.source.root / "pack.toml"))
    return patterns


def write_divergence_logs(divergence: Divergence, path: Path) -> None:
    """Both games up to the divergence, as replay logs: `path` for the pack, `path` with `.other` for the other.

    Each log is written beside its name and renamed over it, so a link of that name is replaced, never
    written through.
    """
    other_path = path.with_name(path.stem + ".other" + (path.suffix or ".jsonl"))
    for state, where in ((divergence.state, path), (divergence.other_state, other_path)):
        if state is None:
            continue
        where.parent.mkdir(parents=True, exist_ok=True)
        text = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in log_lines(state))
        write_text_atomically(where, text)
    divergence.log_path = path
    divergence.other_log_path = other_path


def load_backend(pack: str | Path, backend: str) -> Game:
    """The pack compiled for one backend ("compiled" or "closures"), to run against the other."""
    return load(pack, backend=backend)
