"""Hypothesis strategies for rule packs: random legal games, checked as they go.

    from hypothesis import given
    from ruleskit.testing import random_games

    @given(random_games("path/to/pack"))
    def test_my_pack_holds_up(run):
        run.play()          # every engine and pack invariant, at every step

`random_games` draws the number of players and the seed, then each decision
as the game goes (so hypothesis shrinks a failure to the shortest game that
still fails). `decision_sequences` draws a whole game up front and gives the
decisions taken, for tests that look at a game after the fact.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs
from hypothesis import strategies as st

from ..bots import MAX_OUT_OF_TURN_IN_A_ROW
from ..game import Game, load
from ..packs import find_pack
from ..runtime.engine import Action
from ..runtime.state import State
from . import invariants

SEEDS = st.integers(min_value=0, max_value=2**31 - 1)
_LOADED: dict[str, Game] = {}


def game_of(pack: str | Path | Game) -> Game:
    """A compiled pack: loaded once per process, by path or built-in name."""
    if isinstance(pack, Game):
        return pack
    key = str(find_pack(pack))  # by the folder the name finds from here: a name is not the same pack everywhere
    if key not in _LOADED:
        _LOADED[key] = load(pack)
    return _LOADED[key]


def player_counts(game: Game, players: int | Sequence[int] | None = None) -> st.SearchStrategy[int]:
    """The player counts to try: the given ones, or the pack's whole range."""
    if players is None:
        return st.integers(game.min_players, game.max_players)
    if isinstance(players, int):
        return st.just(players)
    return st.sampled_from(list(players))


@attrs.define
class Step:
    """One decision of a game: who took which action, and at what step."""

    index: int
    player: int
    action: str


@attrs.define
class Cutoff:
    """The length of the shortest failing game seen so far by one test.

    While hypothesis shrinks a failure, a candidate game that runs longer than
    the failure it tries to improve on cannot be a smaller failure, so it is
    stopped there rather than played to its end.
    """

    decisions: int | None = None

    def note(self, decisions: int) -> None:
        if self.decisions is None or decisions < self.decisions:
            self.decisions = decisions


class Watcher:
    """Sees every game a run plays, decision by decision: coverage, progress and extra checks plug in here.

    A watcher may raise `InvariantFailure` to fail the game (an extra check). `needs_before = True`
    asks for a copy of the state before each decision (copies are cheap, but not free).
    """

    needs_before = False

    def starting(self, run: GameRun) -> None:
        """A game is about to be set up."""

    def started(self, run: GameRun, state: State) -> None:
        """A game is set up and checked, before its first decision."""

    def applying(self, run: GameRun, action: Action, state: State) -> None:
        """`action` is about to be applied to `state`."""

    def applied(self, run: GameRun, action: Action, state: State) -> None:
        """`action` was just applied, before the checks run."""

    def decided(self, run: GameRun, action: Action, before: State | None, state: State) -> None:
        """`action` was taken and checked; `before` is the state before it if `needs_before`."""

    def ended(self, run: GameRun, state: State) -> None:
        """The game is over (or cut short at `max_decisions`) and every check held."""


@attrs.define
class GameRun:
    """A game to play: a pack, a player count, a seed, and a source of decisions.

    `play()` runs it to the end (or `max_decisions`), checking after each
    decision: the pack's invariants and the cheap engine ones every time, the
    costly engine ones every `thorough_every` decisions and at the end. On a
    failure it raises `InvariantFailure` (or the engine's own error) and leaves
    `state` and `steps` at the point of failure.
    """

    game: Game
    players: int
    seed: int
    choose: Callable[[State, list[Action]], Action]
    apply_limit: int | None = None
    decisions_per_turn: int = invariants.DEFAULT_DECISIONS_PER_TURN
    check_pack: bool = True
    check_engine: bool = True
    thorough_every: int = 1
    max_decisions: int | None = None
    cutoff: Cutoff = attrs.Factory(Cutoff)
    watchers: list[Watcher] = attrs.Factory(list)
    deadline: Any = None  # an object whose check() raises when the run's time is up
    state: State | None = None
    steps: list[Step] = attrs.Factory(list)
    choices: list[int] = attrs.Factory(list)  # the index chosen at each decision with more than one action
    failed_action: Step | None = None

    def play(self) -> State:
        try:
            return self._play()
        except Exception:
            self.cutoff.note(len(self.steps))
            raise

    def _play(self) -> State:
        watchers = self.watchers
        for watcher in watchers:
            watcher.starting(self)
        self.state = state = self.game.new_game(players=self.players, seed=self.seed)
        self.steps = []
        self.choices = []
        checks = invariants.GameChecks(apply_limit=self.apply_limit, decisions_per_turn=self.decisions_per_turn,
                                       thorough_every=self.thorough_every, pack=self.check_pack)
        for watcher in watchers:
            watcher.started(self, state)
        self._check(checks, state)
        wants_before = any(watcher.needs_before for watcher in watchers)
        in_a_row = 0  # out-of-turn actions since the last decision of a player to decide
        while not state.is_terminal:
            if self.max_decisions is not None and len(self.steps) >= self.max_decisions:
                break
            if self.cutoff.decisions is not None and len(self.steps) > self.cutoff.decisions:
                return state
            if self.deadline is not None:
                self.deadline.check()
            legal = state.legal_actions()
            if not legal:
                raise invariants.InvariantFailure("deciders", "the game is not over and no action is offered")
            if in_a_row < MAX_OUT_OF_TURN_IN_A_ROW:  # then the decider goes on, as in simulate
                legal += state.out_of_turn_actions()  # `anytime` actions of the players who are not to decide
            action = self.choose(state, legal)
            if len(legal) > 1:
                self.choices.append(next(i for i, a in enumerate(legal) if a is action or a == action))
            before = state.clone() if wants_before else None
            in_a_row = in_a_row + 1 if action.player not in state.players_to_decide() else 0
            self.failed_action = Step(len(self.steps), action.player, action.id)
            for watcher in watchers:
                watcher.applying(self, action, state)
            state.apply(action)
            self.failed_action = None
            self.steps.append(Step(len(self.steps), action.player, action.id))
            for watcher in watchers:
                watcher.applied(self, action, state)
            self._check(checks, state)
            for watcher in watchers:
                watcher.decided(self, action, before, state)
        if self.check_engine:
            if state.is_terminal:
                invariants.check_replay(self.game, state, self.players, self.seed)
            else:  # cut short: the costly checks run on the last state too
                checks.final(state, len(self.steps))
        for watcher in watchers:
            watcher.ended(self, state)
        return state

    def _check(self, checks: invariants.GameChecks, state: State) -> None:
        if self.check_engine:
            checks.check(state, len(self.steps))
            return
        if self.check_pack:
            invariants.check_pack_invariants(state)
        invariants.check_turn_bound(state, len(self.steps), self.decisions_per_turn)

    def __repr__(self) -> str:
        return f"GameRun({self.game.name}, players={self.players}, seed={self.seed}, {len(self.steps)} decisions)"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:  # hypothesis prints a failing example so
        printer.text(repr(self))


def drawing_chooser(data: Any) -> Callable[[State, list[Action]], Action]:
    def choose(state: State, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        index = data.draw(st.integers(0, len(legal) - 1), label="decision")
        return legal[index]

    return choose


def random_games(pack: str | Path | Game, players: int | Sequence[int] | None = None, *,
                 seeds: st.SearchStrategy[int] = SEEDS, apply_limit: int | None = None,
                 decisions_per_turn: int = invariants.DEFAULT_DECISIONS_PER_TURN,
                 check_engine: bool = True, thorough_every: int = 1,
                 max_decisions: int | None = None) -> st.SearchStrategy[GameRun]:
    """Games of a pack to `play()`, their decisions drawn by hypothesis as they are needed (checking every
    `ensure` and property of the pack)."""
    game = game_of(pack).with_property_checks()
    cutoff = Cutoff()

    @st.composite
    def build(draw: Any) -> GameRun:
        count = draw(player_counts(game, players), label="players")
        seed = draw(seeds, label="seed")
        data = draw(st.data())
        return GameRun(game, count, seed, drawing_chooser(data), apply_limit=apply_limit,
                       decisions_per_turn=decisions_per_turn, check_engine=check_engine,
                       thorough_every=thorough_every, max_decisions=max_decisions, cutoff=cutoff)

    return build()


@attrs.define
class Playthrough:
    """A finished (or cut short) game: its setting, the decisions taken and the final state."""

    players: int
    seed: int
    decisions: list[Step]
    state: State


def decision_sequences(pack: str | Path | Game, players: int | Sequence[int] | None = None, *,
                       max_decisions: int | None = None,
                       seeds: st.SearchStrategy[int] = SEEDS) -> st.SearchStrategy[Playthrough]:
    """Sequences of legal decisions, from a new game to its end (or `max_decisions`)."""
    game = game_of(pack)

    @st.composite
    def build(draw: Any) -> Playthrough:
        count = draw(player_counts(game, players), label="players")
        seed = draw(seeds, label="seed")
        state = game.new_game(players=count, seed=seed)
        steps: list[Step] = []
        in_a_row = 0
        while not state.is_terminal and (max_decisions is None or len(steps) < max_decisions):
            legal = state.legal_actions()
            if in_a_row < MAX_OUT_OF_TURN_IN_A_ROW:
                legal += state.out_of_turn_actions()
            action = legal[0] if len(legal) == 1 else legal[draw(st.integers(0, len(legal) - 1))]
            in_a_row = in_a_row + 1 if action.player not in state.players_to_decide() else 0
            state.apply(action)
            steps.append(Step(len(steps), action.player, action.id))
        return Playthrough(count, seed, steps, state)

    return build()
