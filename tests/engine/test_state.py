"""The State API: JSON round trips and clones at every point (pending decisions included),
illegal actions refused with a reason and no trace, and per-player views."""

from __future__ import annotations

import json
import random

import pytest
from engine_support import random_states

import ruleskit
from ruleskit import Action, IllegalAction, State


def round_trip(state: State) -> State:
    return State.from_json(state.game, json.loads(json.dumps(state.to_json())))


def future(state: State, seed: int) -> list[str]:
    """The ids of the decisions a seeded random player makes from here to the end, and the result."""
    chooser = random.Random(seed)
    ids = []
    while not state.is_terminal:
        action = chooser.choice(state.legal_actions())
        ids.append(action.id)
        state.apply(action)
    return ids + [json.dumps(state.result, sort_keys=True)]


@pytest.mark.parametrize("pack", ["card_duel", "dice_race", "marathon"])
def test_json_and_clone_round_trips_at_every_point(pack: str, request: pytest.FixtureRequest) -> None:
    game: ruleskit.Game = request.getfixturevalue(pack)
    pending_seen = 0
    for seed in range(3):
        states = random_states(game, game.max_players, seed)
        for i, state in enumerate(states):
            restored = round_trip(state)
            copy = state.clone()
            assert restored == state and copy == state
            assert restored.to_json() == state.to_json()
            assert [a.id for a in restored.legal_actions()] == [a.id for a in state.legal_actions()]
            assert restored.current_player == state.current_player and restored.prompt == state.prompt
            pending_seen += state.pending is not None
            if i % 7 == 0 and i < 80 and not state.is_terminal:
                # The same decisions from a restored copy give the same game.
                assert future(restored, i) == future(state.clone(), i)
    if pack == "card_duel":
        assert pending_seen > 10  # choices were pending at many of the points checked


def test_pending_choice_survives_clone_and_json(card_duel: ruleskit.Game) -> None:
    state = card_duel.new_game(players=2, seed=8)
    state.apply("0")
    state.apply("arrange")
    assert state.pending is not None
    saved = state.dumps()
    copy = state.clone()
    restored = State.from_json(card_duel, saved)
    assert restored.prompt == copy.prompt == "New order, first slot first"
    options = [a.id for a in state.legal_actions()]
    assert [a.id for a in restored.legal_actions()] == options == [a.id for a in copy.legal_actions()]
    # Different answers in the copies do not touch the original.
    copy.apply(options[0])
    restored.apply(options[-1])
    assert state.dumps() == saved
    assert copy.data["z"]["lineup"] != restored.data["z"]["lineup"]
    state.apply(options[-1])
    assert state == restored


def test_pending_choice_inside_setup_survives_json(card_duel: ruleskit.Game) -> None:
    state = card_duel.new_game(players=4, seed=2)
    restored = round_trip(state)
    assert restored.pending is not None and restored.current_player == 0
    restored.apply("3")
    state.apply("3")
    assert restored == state and state.current_player == 3


def test_clone_is_independent(dice_race: ruleskit.Game) -> None:
    state = dice_race.new_game(players=2, seed=3)
    before = state.dumps()
    copy = state.clone()
    copy.apply("roll")
    assert state.dumps() == before and copy != state
    assert copy.data["flow"]["stage"] == "walk" and state.data["flow"]["stage"] == "roll"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_decision_on_a_clone_leaves_the_original_untouched(card_duel: ruleskit.Game, players: int) -> None:
    # A job shares with the state it started from all it does not change (the seat order included, which
    # card_duel recomputes each round and whose secret picks may be refused and rolled back).
    for state in random_states(card_duel, players, players):
        before = state.dumps()
        for action in state.legal_actions()[:6]:
            copy = state.clone()
            copy.apply(action)
            assert state.dumps() == before
        if not state.is_terminal:
            assert [a.id for a in state.legal_actions()] == [a.id for a in round_trip(state).legal_actions()]


def test_same_seed_same_game_other_seed_other_game(card_duel: ruleskit.Game) -> None:
    assert future(card_duel.new_game(players=3, seed=5), 1) == future(card_duel.new_game(players=3, seed=5), 1)
    decks = {tuple(card_duel.new_game(players=3, seed=s).data["z"]["deck"]) for s in range(5)}
    assert len(decks) == 5


# ---------------------------------------------------------------- illegal actions


def assert_refused(state: State, action: object, reason: str, player: int | None = None) -> None:
    before = json.dumps(state.to_json(), sort_keys=True)
    legal = [a.id for a in state.legal_actions()]
    with pytest.raises(IllegalAction) as caught:
        state.apply(action, player=player)  # type: ignore[arg-type]
    assert reason in caught.value.message
    assert json.dumps(state.to_json(), sort_keys=True) == before
    assert [a.id for a in state.legal_actions()] == legal


def test_wrong_player_is_refused(dice_race: ruleskit.Game) -> None:
    state = dice_race.new_game(players=3, seed=0)
    assert_refused(state, "roll", "it is not Player 2's decision (waiting for Player 1)", player=1)
    forged = Action("roll", "Roll the die", 2, {"action": "roll", "args": {}})
    assert_refused(state, forged, "it is not Player 3's decision")


def test_action_not_offered_is_refused(dice_race: ruleskit.Game) -> None:
    state = dice_race.new_game(players=2, seed=0)
    assert_refused(state, "step:a", "'step:a' is not a legal action now; legal: roll, wall:")
    assert_refused(state, "wall:start,goal", "not a legal action now")


def test_malformed_action_is_refused(dice_race: ruleskit.Game) -> None:
    state = dice_race.new_game(players=2, seed=0)
    assert_refused(state, 42, "an action must be an Action or an action id, not int")
    assert_refused(state, None, "not NoneType")
    assert_refused(state, "roll:extra", "not a legal action now")


def test_answer_not_among_the_options_is_refused(card_duel: ruleskit.Game) -> None:
    state = card_duel.new_game(players=2, seed=0)
    state.apply("0")
    state.apply("arrange")
    assert_refused(state, "nonsense", "not a legal action now")
    assert_refused(state, state.legal_actions()[0].id, "not Player 2's decision", player=1)


def test_simultaneous_pick_twice_is_refused(card_duel: ruleskit.Game) -> None:
    state = card_duel.new_game(players=2, seed=1)
    state.apply("0")
    while state.data["flow"]["phase"] != "duel":
        state.apply(state.legal_actions()[-1] if state.pending else
                    next(a for a in state.legal_actions() if a.id.startswith(("take", "bid"))))
    card = state.data["z"]["hand@0"][0]
    state.apply(f"play:{card}", player=0)
    other = state.data["z"]["hand@0"][1]
    assert_refused(state, f"play:{other}", "not Player 1's decision", player=0)


def test_acting_after_the_end_is_refused(dice_race: ruleskit.Game) -> None:
    from engine_support import play_random

    state = play_random(dice_race, 2, 0)
    assert state.legal_actions() == [] and state.current_player is None
    assert_refused(state, "roll", "the game is over")


# ---------------------------------------------------------------- views


def test_view_is_plain_data_and_hides_the_random_stream(card_duel: ruleskit.Game) -> None:
    state = card_duel.new_game(players=2, seed=0)
    for viewer in range(2):
        view = state.view(viewer)
        json.dumps(view)  # plain JSON data
        assert view["viewer"] == viewer
        assert "rng" not in json.dumps(view) and "seed" not in view
    # Views are copies: changing one does not change the state.
    state.view(0)["zones"]["lineup"][0] = "changed"
    assert state.data["z"]["lineup"][0] != "changed"


def test_pending_options_are_shown_only_to_the_chooser(card_duel: ruleskit.Game) -> None:
    state = card_duel.new_game(players=2, seed=0)
    state.apply("1")
    state.apply("mulligan")
    chooser = state.view(1)["pending"]
    other = state.view(0)["pending"]
    assert chooser["prompt"] == other["prompt"] == "Which cards go back?"
    assert len(chooser["options"]) == 4 and "options" not in other


def _past_setup(game: ruleskit.Game) -> State:
    """A new game past the setup's choice: a state waiting on a choice must hold the data its job leaves there,
    so one edited by hand is refused for that before its zones are looked at."""
    state = game.new_game(players=2, seed=1)
    while state.pending is not None:
        state.apply(state.legal_actions()[0])
    return state


def test_a_saved_stack_of_more_pieces_than_any_zone_may_hold_is_refused(card_duel: ruleskit.Game) -> None:
    """No move makes a stack of more than MAX_ZONE_ITEMS pieces: a save that has one is refused at load,
    naming the zone, before anything of the game runs."""
    from ruleskit.limits import MAX_ZONE_ITEMS
    from ruleskit.validation import InvalidData

    saved = _past_setup(card_duel).to_json()
    saved["data"]["z"]["deck"] = ["red1"] * MAX_ZONE_ITEMS
    State.from_json(card_duel, saved, invariants=False)  # as many as a zone may hold loads (its cards break an invariant)
    saved["data"]["z"]["deck"].append("red1")
    with pytest.raises(InvalidData, match=r"\$\.data\.z\.deck: zone 'deck' holds 100001 pieces, more than any zone"):
        State.from_json(card_duel, saved)


def test_a_saved_zone_whose_pieces_outweigh_its_capacity_is_refused(card_duel: ruleskit.Game) -> None:
    """A vault holds gems by weight (capacity 3): two rubies (weight 2 each) are more than any move could
    have put there, though they are only two pieces."""
    from ruleskit.validation import InvalidData

    saved = _past_setup(card_duel).to_json()
    saved["data"]["z"]["vault@0"] = {"pearl": 1, "ruby": 1}  # weight 3: full, and loads
    State.from_json(card_duel, saved)
    saved["data"]["z"]["vault@0"] = {"ruby": 2}
    with pytest.raises(InvalidData, match=r"\$\.data\.z\.vault@0: zone 'vault@0' holds pieces of total weight 4, "
                                          r"more than its capacity of 3"):
        State.from_json(card_duel, saved)
