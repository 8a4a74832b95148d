"""Each engine invariant holds on real games and fails when the thing it guards is broken."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings

import ruleskit
from ruleskit.runtime import view as view_module
from ruleskit.runtime.engine import Action
from ruleskit.runtime.state import State
from ruleskit.testing import invariants as inv
from ruleskit.testing.invariants import InvariantFailure
from ruleskit.testing.strategies import decision_sequences, random_games

DICE_RACE = Path(__file__).resolve().parents[1] / "packs" / "dice_race"


@pytest.fixture(scope="module")
def game() -> ruleskit.Game:
    return ruleskit.load(DICE_RACE)


def midgame(game: ruleskit.Game, decisions: int = 6, seed: int = 1) -> State:
    state = game.new_game(players=2, seed=seed)
    chooser = random.Random(seed)
    for _ in range(decisions):
        state.apply(chooser.choice(state.legal_actions()))
    return state


def finished(game: ruleskit.Game, seed: int = 2) -> State:
    state = game.new_game(players=2, seed=seed)
    chooser = random.Random(seed)
    while not state.is_terminal:
        state.apply(chooser.choice(state.legal_actions()))
    return state


def test_every_check_holds_on_a_real_game(game: ruleskit.Game) -> None:
    state = midgame(game)
    inv.check_step(state, 6)
    end = finished(game)
    inv.check_step(end, len(end.history) - 1)
    inv.check_replay(game, end, 2, 2)


def test_a_false_pack_invariant_is_reported_with_its_message_and_line(game: ruleskit.Game) -> None:
    state = midgame(game)
    state.data["v"]["steps"] = 9
    with pytest.raises(InvariantFailure) as caught:
        inv.check_pack_invariants(state)
    assert caught.value.name == "invariant steps_small"
    assert "steps stay within 0..4" in caught.value.detail
    assert caught.value.source is not None and caught.value.source.endswith("game.toml:80")


def test_a_clone_that_differs_is_caught(game: ruleskit.Game, monkeypatch: pytest.MonkeyPatch) -> None:
    state = midgame(game)
    original = State.clone

    def lossy(self: State) -> State:
        copy = original(self)
        copy.data["blocked"] = copy.data["blocked"] + ["x|y"]
        return copy

    monkeypatch.setattr(State, "clone", lossy)
    with pytest.raises(InvariantFailure, match="clone"):
        inv.check_copies(state)


def test_a_non_json_value_in_the_state_is_caught(game: ruleskit.Game) -> None:
    state = midgame(game)
    state.data["v"]["steps"] = {1, 2}
    with pytest.raises(InvariantFailure, match="not JSON"):
        inv.check_copies(state)


def test_actions_offered_to_a_player_who_is_not_deciding_are_caught(game: ruleskit.Game) -> None:
    state = midgame(game)
    outsider = 1 - state.players_to_decide()[0]
    state._legal = state.legal_actions() + [Action("roll", "Roll", outsider, {"action": "roll", "args": {}})]
    with pytest.raises(InvariantFailure, match="is not to decide"):
        inv.check_deciders(state)


def test_duplicate_action_ids_are_caught(game: ruleskit.Game) -> None:
    state = midgame(game)
    legal = state.legal_actions()
    state._legal = legal + [legal[0]]
    with pytest.raises(InvariantFailure, match="duplicate action ids"):
        inv.check_deciders(state)


def test_an_unoffered_action_that_is_accepted_is_caught(game: ruleskit.Game, monkeypatch: pytest.MonkeyPatch) -> None:
    state = midgame(game)
    monkeypatch.setattr(State, "apply", lambda self, action, player=None: self)
    with pytest.raises(InvariantFailure, match="was accepted"):
        inv.check_unoffered_refused(state)


def test_an_offered_action_that_is_refused_is_caught(game: ruleskit.Game) -> None:
    state = midgame(game)
    state._legal = state.legal_actions() + [Action("step:nowhere", "Step", state.players_to_decide()[0],
                                                   {"action": "step", "args": {"to": "nowhere"}})]
    with pytest.raises(InvariantFailure, match="offered but refused"):
        inv.check_listed_apply(state)


def test_a_game_past_its_turn_bound_is_caught(game: ruleskit.Game) -> None:
    state = midgame(game)
    state.data["flow"]["turn"] = game.max_turns + 1
    with pytest.raises(InvariantFailure, match="past the pack's max_turns"):
        inv.check_turn_bound(state, 10)
    with pytest.raises(InvariantFailure, match="decisions without an end"):
        inv.check_turn_bound(midgame(game), 10**7)


def test_a_malformed_result_is_caught(game: ruleskit.Game) -> None:
    state = finished(game)
    inv.check_result(state)
    state.data["result"]["winners"] = []
    with pytest.raises(InvariantFailure, match="winners"):
        inv.check_result(state)
    state = finished(game)
    state.data["result"]["ranking"] = [0, 0]
    with pytest.raises(InvariantFailure, match="ranking"):
        inv.check_result(state)


def test_a_view_that_leaks_a_hidden_counter_is_caught(game: ruleskit.Game, monkeypatch: pytest.MonkeyPatch) -> None:
    state = midgame(game)
    inv.check_views(state)  # `score` is visible to its owner only, and the real view hides it

    real = view_module.make_view
    monkeypatch.setattr(view_module, "make_view", lambda s, v: {**real(s, v),
                                                                 "player_vars": [dict(pv) for pv in s.data["pv"]]})
    with pytest.raises(InvariantFailure, match="hidden 'score'"):
        inv.check_views(state)


def test_a_replay_that_diverges_is_caught(game: ruleskit.Game) -> None:
    state = finished(game)
    state.data["pv"][0]["score"] += 1
    with pytest.raises(InvariantFailure, match="replay"):
        inv.check_replay(game, state, 2, 2)


@settings(max_examples=5, deadline=None)
@given(random_games(DICE_RACE, players=2, max_decisions=80, thorough_every=4))
def test_random_games_strategy(run) -> None:
    state = run.play()
    assert len(run.steps) <= 80
    assert state.is_terminal or len(run.steps) == 80


@settings(max_examples=5, deadline=None)
@given(decision_sequences(DICE_RACE, players=[2, 3], max_decisions=30))
def test_decision_sequences_replay_exactly(played) -> None:
    again = ruleskit.load(DICE_RACE).new_game(players=played.players, seed=played.seed)
    for step in played.decisions:
        again.apply(step.action, player=step.player)
    assert again == played.state
