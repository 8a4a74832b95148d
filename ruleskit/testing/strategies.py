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

from ..game import Game, load
from ..runtime.engine import Action
from ..runtime.state import State
from . import invariants

SEEDS = st.integers(min_value=0, max_value=2**31 - 1)
_LOADED: dict[str, Game] = {}


def game_of(pack: str | Path | Game) -> Game:
    """A compiled pack: loaded once per process, by path or built-in name."""
    if isinstance(pack, Game):
        return pack
    key = str(pack)
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
    state: State | None = None
    steps: list[Step] = attrs.Factory(list)
    failed_action: Step | None = None

    def play(self) -> State:
        try:
            return self._play()
        except Exception:
            self.cutoff.note(len(self.steps))
            raise

    def _play(self) -> State:
        self.state = state = self.game.new_game(players=self.players, seed=self.seed)
        self.steps = []
        self._check(state)
        while not state.is_terminal:
            if self.max_decisions is not None and len(self.steps) >= self.max_decisions:
                return state
            if self.cutoff.decisions is not None and len(self.steps) > self.cutoff.decisions:
                return state
            legal = state.legal_actions()
            if not legal:
                raise invariants.InvariantFailure("deciders", "the game is not over and no action is offered")
            action = self.choose(state, legal)
            self.failed_action = Step(len(self.steps), action.player, action.id)
            state.apply(action)
            self.failed_action = None
            self.steps.append(Step(len(self.steps), action.player, action.id))
            self._check(state)
        if self.check_engine:
            invariants.check_replay(self.game, state, self.players, self.seed)
        return state

    def _check(self, state: State) -> None:
        if self.check_pack:
            invariants.check_pack_invariants(state)
        if self.check_engine:
            invariants.check_step(state, len(self.steps), apply_limit=self.apply_limit,
                                  decisions_per_turn=self.decisions_per_turn, pack=False,
                                  thorough=len(self.steps) % self.thorough_every == 0)
        else:
            invariants.check_turn_bound(state, len(self.steps), self.decisions_per_turn)

    def __repr__(self) -> str:
        return f"GameRun({self.game.name}, players={self.players}, seed={self.seed}, {len(self.steps)} decisions)"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:  # hypothesis prints a failing example so
        printer.text(repr(self))


def _drawing_chooser(data: Any) -> Callable[[State, list[Action]], Action]:
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
        return GameRun(game, count, seed, _drawing_chooser(data), apply_limit=apply_limit,
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
        while not state.is_terminal and (max_decisions is None or len(steps) < max_decisions):
            legal = state.legal_actions()
            action = legal[0] if len(legal) == 1 else legal[draw(st.integers(0, len(legal) - 1))]
            state.apply(action)
            steps.append(Step(len(steps), action.player, action.id))
        return Playthrough(count, seed, steps, state)

    return build()
