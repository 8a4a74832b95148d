"""The dice race and its variants: a board graph with blockable edges, dice, rule-modifying hooks,
per-turn vars, action limits and costs, and a chain of variants that add, update, replace and remove."""

from __future__ import annotations

import pytest
from engine_support import play_random

import ruleskit


def roll(state: ruleskit.State) -> int:
    state.apply("roll")
    [outcome] = state.history[-1]["chance"]
    assert outcome["roll"] == "d6" and 1 <= outcome["value"] <= 6
    return int(outcome["value"])


def test_roll_is_modified_by_the_lucky_hook(dice_race: ruleskit.Game) -> None:
    seen = set()
    for seed in range(20):
        state = dice_race.new_game(players=2, seed=seed)
        value = roll(state)  # player 1 is lucky: +1
        assert state.data["v"]["steps"] == min(3, value + 1)
        assert state.stage == "walk"
        state.apply("stop")
        value = roll(state)  # player 2 is not
        assert state.data["v"]["steps"] == min(3, value)
        seen.add(value)
    assert len(seen) > 3  # the die really varies with the seed


def test_walking_the_graph_scores_points_and_ends_the_turn(dice_race: ruleskit.Game) -> None:
    state = dice_race.new_game(players=2, seed=1)
    roll(state)
    steps = state.data["v"]["steps"]
    assert sorted(a.id for a in state.legal_actions()) == ["step:a", "step:b", "stop"]
    state.apply("step:a")
    assert state.data["ev"]["pawn_0"]["at"] == "a" and state.data["pv"][0]["score"] == 1
    assert state.data["v"]["steps"] == steps - 1
    if steps > 1:
        assert sorted(a.id for a in state.legal_actions()) == ["step:b", "step:c", "step:start", "stop"]
    while state.current_player == 0:
        state.apply(state.legal_actions()[0])
    # The per-turn counter starts again at 0 for the next player.
    assert state.current_player == 1 and state.data["v"]["steps"] == 0 and state.stage == "roll"


def test_blocking_an_edge_costs_a_wall_and_closes_the_path(dice_race: ruleskit.Game) -> None:
    state = dice_race.new_game(players=2, seed=4)
    walls = [a.id for a in state.legal_actions() if a.id.startswith("wall:")]
    # Walls start from the first end of each open edge (goal is never one) toward any neighbour.
    assert "wall:start,a" in walls and "wall:a,start" in walls and "wall:c,goal" in walls
    assert len(walls) == 14 and not any(w.startswith("wall:goal") for w in walls)
    state.apply("wall:start,a")
    assert state.data["blocked"] == ["a|start"] and state.data["pv"][0]["walls"] == 0
    ids = [a.id for a in state.legal_actions()]
    assert not any(i.startswith("wall:") for i in ids)  # no walls left, and once per turn anyway
    roll(state)
    assert [a.id for a in state.legal_actions()] == ["step:b", "stop"]  # start-a is closed
    assert "Block Start-a" not in [a.label for a in state.legal_actions()]


def test_labels_and_payloads_are_structured(dice_race: ruleskit.Game) -> None:
    state = dice_race.new_game(players=3, seed=0)
    wall = next(a for a in state.legal_actions() if a.id == "wall:c,d")
    assert wall.label == "Block c-d" and wall.player == 0
    assert wall.payload == {"action": "wall", "args": {"a": "c", "b": "d"}}
    assert str(wall) == "Block c-d"


def test_event_hook_reacts_to_emitted_events(dice_race: ruleskit.Game) -> None:
    for seed in range(30):
        state = play_random(dice_race, 2, seed)
        if state.result["reason"] == "a pawn reached the goal":
            messages = [m for entry in state.history for m in entry.get("messages", [])]
            assert "reached the goal" in messages
            return
    pytest.fail("no random game reached the goal")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_races_end_at_the_goal(dice_race: ruleskit.Game, players: int) -> None:
    for seed in range(8):
        state = play_random(dice_race, players, seed)
        result = state.result
        assert result["reason"] in ("a pawn reached the goal", "turn limit")
        at = [state.data["ev"][f"pawn_{p}"]["at"] for p in range(players)]
        if result["reason"] == "a pawn reached the goal":
            assert "goal" in at
        assert result["scores"] == [state.data["pv"][p]["score"] for p in range(players)]
        assert all(0 <= s <= 20 for s in result["scores"])  # the cap holds


# ---------------------------------------------------------------- variants


def test_variant_replaces_hook_adds_updates_and_removes(dice_race: ruleskit.Game,
                                                        dice_variant: ruleskit.Game) -> None:
    assert dice_variant.chain == ["dice-race", "dice-race-variant"]
    assert "wall" in dice_race.actions and "wall" not in dice_variant.actions
    assert dice_variant.actions["roll"].label == "Throw the die"
    assert dice_variant.actions["roll"].params == dice_race.actions["roll"].params
    assert "rest" in dice_variant.actions and "rest" not in dice_race.actions
    for seed in range(12):
        state = dice_variant.new_game(players=3, seed=seed)
        assert sorted(a.id for a in state.legal_actions()) == ["rest", "roll"]
        value = roll(state)  # player 1 is no longer lucky
        assert state.data["v"]["steps"] == min(3, value)
        state.apply("stop")
        state.apply("rest")
        assert state.data["pv"][1]["score"] == 1
        value = roll(state)  # the last seat is lucky now: +2
        assert state.data["v"]["steps"] == min(3, value + 2)


def test_variant_action_limited_once_per_game(dice_variant: ruleskit.Game) -> None:
    state = dice_variant.new_game(players=2, seed=0)
    state.apply("rest")
    state.apply("rest")
    assert state.current_player == 0
    assert [a.id for a in state.legal_actions()] == ["roll"]  # rested already this game
    # The added turn_end hook speaks once a player has points.
    assert "a turn ends with points on the board" in state.history[-1]["messages"]


def test_two_level_chain(marathon: ruleskit.Game) -> None:
    assert marathon.chain == ["dice-race", "dice-race-variant", "dice-race-marathon"]
    assert marathon.model.player_vars["score"].max == 40  # updated
    assert marathon.model.player_vars["score"].min == 0  # inherited from the first pack
    assert marathon.max_turns == 600 and marathon.max_players == 3
    assert "wall" not in marathon.actions and "rest" in marathon.actions
    assert marathon.actions["roll"].label == "Throw the die"
    hooks = {name for group, name in marathon.source.definitions if group == "hook"}
    assert hooks == {"lucky", "rested"}  # note_goal removed, rested replaced
    state = marathon.new_game(players=2, seed=2)
    state.apply("rest")
    assert state.history[-1]["messages"] == ["the marathon goes on"]
    state = play_random(marathon, 2, 5)
    assert state.result["scores"] == [state.data["pv"][p]["score"] + state.data["pv"][p]["walls"] for p in range(2)]
    assert state.result["tiebreaks"] == [[], []]
    messages = [m for entry in state.history for m in entry.get("messages", [])]
    assert "reached the goal" not in messages


def test_variant_records_its_changes(marathon: ruleskit.Game) -> None:
    changes = {(c.pack, c.action, c.key) for c in marathon.source.changes}
    assert ("dice-race-variant", "remove", "actions.wall") in changes
    assert ("dice-race-variant", "replace", "hook lucky") in changes
    assert ("dice-race-variant", "update", "actions.roll") in changes
    assert ("dice-race-variant", "add", "actions.rest") in changes
    assert ("dice-race-marathon", "remove", "hook note_goal") in changes
    assert ("dice-race-marathon", "replace", "scoring") in changes


def test_content_hash_differs_along_the_chain(dice_race: ruleskit.Game, dice_variant: ruleskit.Game,
                                              marathon: ruleskit.Game) -> None:
    hashes = {dice_race.content_hash, dice_variant.content_hash, marathon.content_hash}
    assert len(hashes) == 3
    assert ruleskit.load(dice_race.source.root).content_hash == dice_race.content_hash
