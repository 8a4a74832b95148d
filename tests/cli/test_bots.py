"""Bots: reproducible, fair about hidden information, and the greedy one plays better."""

from __future__ import annotations

import pytest
from cli_support import DUEL, SHOWN

import ruleskit
from ruleskit.bots import MAX_GREEDY_SAMPLES, GreedyBot, RandomBot, check_seat_names, derive_seed, seat_bots
from ruleskit.errors import PackError
from ruleskit.simulate import simulate


def _play(game: ruleskit.Game, bot_seeds: list[int], seed: int = 5) -> list[str]:
    state = game.new_game(players=2, seed=seed)
    bots = [RandomBot(game, s) for s in bot_seeds]
    chosen = []
    while not state.is_terminal and len(chosen) < 300:
        player = state.players_to_decide()[0]
        action = bots[player].choose(state, player)
        chosen.append(action.id)
        state.apply(action)
    return chosen


def test_random_bot_reproduces_from_its_seed() -> None:
    game = ruleskit.load(SHOWN)
    assert _play(game, [1, 2]) == _play(game, [1, 2])
    assert _play(game, [1, 2]) != _play(game, [3, 4])


def test_derived_seeds_are_stable_and_distinct() -> None:
    assert derive_seed(0, 1) == derive_seed(0, 1)
    assert len({derive_seed(7, i) for i in range(1000)}) == 1000
    assert 0 <= derive_seed(2**70, -5) < 2**63


def _duel_after_setup(seed: int) -> ruleskit.State:
    game = ruleskit.load(DUEL)
    state = game.new_game(players=3, seed=seed)
    while state.pending is not None:  # the setup's "who drafts first" choice
        state.apply(state.legal_actions()[0])
    return state


def test_determinized_copy_redraws_only_what_the_viewer_cannot_see() -> None:
    state = _duel_after_setup(seed=11)
    copy = state.determinized(viewer=0, seed=99)
    zones, guessed = state.data["z"], copy.data["z"]
    assert guessed["hand@0"] == zones["hand@0"]            # own hand is known
    assert guessed["lineup"] == zones["lineup"]            # face-up row is known
    hidden_keys = ["deck", "hand@1", "hand@2"]
    assert [len(guessed[k]) for k in hidden_keys] == [len(zones[k]) for k in hidden_keys]
    assert sorted(sum((guessed[k] for k in hidden_keys), [])) == sorted(sum((zones[k] for k in hidden_keys), []))
    assert [guessed[k] for k in hidden_keys] != [zones[k] for k in hidden_keys]
    assert copy.data["rng"] != state.data["rng"]
    assert state.data["z"] == zones  # the real state is untouched


def test_determinized_copy_does_not_depend_on_hidden_order() -> None:
    state = _duel_after_setup(seed=11)
    other = state.clone()
    other.data["z"]["deck"] = list(reversed(other.data["z"]["deck"]))  # same view for everyone
    other.data["z"]["hand@1"], other.data["z"]["hand@2"] = other.data["z"]["hand@2"], other.data["z"]["hand@1"]
    assert state.view(0) == other.view(0)
    assert state.determinized(0, 5).data == other.determinized(0, 5).data
    game = state.game
    assert GreedyBot(game, 3).choose(state, 0) == GreedyBot(game, 3).choose(other, 0)


def test_greedy_beats_random() -> None:
    game = ruleskit.load(SHOWN)
    summary = simulate(game, 24, 2, ["greedy", "random"], seed=1, rotate=True)
    greedy, random_ = summary["wins_by_bot"]["greedy"], summary["wins_by_bot"]["random"]
    assert greedy["games"] == random_["games"] == 24
    assert greedy["rate"] > 0.75 > random_["rate"]


def test_seat_bots_fills_or_checks_seats() -> None:
    assert seat_bots(["random"], 3) == ["random"] * 3
    assert seat_bots(["greedy", "random"], 2) == ["greedy", "random"]
    for bad, message in ((["robot"], "unknown bot 'robot'"), (["random", "random"], "2 bots named for 3")):
        try:
            seat_bots(bad, 3)
        except PackError as exc:
            assert message in str(exc)
        else:
            raise AssertionError(f"{bad} accepted")


@pytest.mark.parametrize("spec", ["mcts:99999999", "mcts:100001", "mcts:99999s", "mcts:99999999:depth=8"])
def test_an_mcts_search_without_end_is_refused_when_named(spec: str) -> None:
    # Named on the command line (simulate --bots, play --seats), not found out at the bot's first decision.
    with pytest.raises(PackError, match="searching without end"):
        seat_bots([spec, "random"], 2)
    with pytest.raises(PackError, match="searching without end"):
        check_seat_names([spec, "random"], "human")
    assert seat_bots(["mcts:100000", "mcts:600s"], 2) == ["mcts:100000", "mcts:600s"]


@pytest.mark.parametrize("spec", ["greedy:99999999", "greedy:1001", "greedy:999999999999"])
def test_a_greedy_search_without_end_is_refused_when_named(spec: str) -> None:
    with pytest.raises(PackError, match="at most 1,000 samples"):
        seat_bots([spec, "random"], 2)
    with pytest.raises(PackError, match="at most 1,000 samples"):
        check_seat_names([spec, "random"], "human")
    assert seat_bots(["greedy:1000", "greedy:1"], 2) == ["greedy:1000", "greedy:1"]


@pytest.mark.parametrize("spec", ["greedy:", "mcts:", "mcts: ", "random:"])
def test_a_colon_with_no_option_is_refused(spec: str) -> None:
    """`greedy:` was read as `greedy` with its default samples, whatever was meant after the colon."""
    with pytest.raises(PackError, match="names no option after ':'"):
        seat_bots([spec, "random"], 2)
    with pytest.raises(PackError, match="names no option after ':'"):
        check_seat_names([spec, "random"], "human")


@pytest.mark.parametrize("samples", [MAX_GREEDY_SAMPLES + 1, str(MAX_GREEDY_SAMPLES + 1), 10**12, 0])
def test_a_greedy_bot_refuses_samples_out_of_bounds(samples: int | str) -> None:
    game = ruleskit.load(SHOWN)
    with pytest.raises(PackError, match="at most 1,000 samples|greedy takes a number of samples"):
        GreedyBot(game, 1, samples)
    assert GreedyBot(game, 1, MAX_GREEDY_SAMPLES).samples == MAX_GREEDY_SAMPLES
