"""`choose P subset K of LIST` and `K1..K2`: a fixed-size subset in one statement (toy pack keep_three).

Few combinations are one decision listing them all; many (2..10 of 20 tiles)
are chosen one element at a time, with `done` once enough are chosen.
"""

from __future__ import annotations

import json
import random
from math import comb
from pathlib import Path

import pytest
from engine_support import PACKS

import ruleskit
from ruleskit import IllegalAction, State
from ruleskit.errors import ProgramError
from ruleskit.testing import invariants
from ruleskit.testing.strategies import GameRun


@pytest.fixture(scope="module")
def keep() -> ruleskit.Game:
    return ruleskit.load(PACKS / "keep_three")


def hand(state: State, player: int) -> list[str]:
    return list(state.raw["z"][f"hand@{player}"])


def test_deal_5_keep_3_is_one_decision_of_10_combinations(keep: ruleskit.Game) -> None:
    state = keep.new_game(players=2, seed=3)
    dealt = hand(state, 0)
    assert len(dealt) == 5 and state.prompt == "Keep 3 cards"
    options = state.legal_actions()
    assert len(options) == comb(5, 3) == 10
    # Each combination once, in the hand's order, ids joined by +.
    expected = [[dealt[i], dealt[j], dealt[k]] for i in range(5) for j in range(i + 1, 5) for k in range(j + 1, 5)]
    assert [a.id for a in options] == ["+".join(c) for c in expected]
    state.apply(options[4].id)
    assert hand(state, 0) == expected[4]
    assert sorted(state.raw["z"]["discard"]) == sorted(set(dealt) - set(expected[4]))
    assert state.players_to_decide() == [1] and state.prompt == "Keep 3 cards"


def test_a_range_lists_every_size(keep: ruleskit.Game) -> None:
    state = keep.new_game(players=2, seed=3)
    state.apply(state.legal_actions()[0].id)
    state.apply(state.legal_actions()[0].id)
    state.apply("trim")
    kept = hand(state, 0)
    ids = [a.id for a in state.legal_actions()]
    assert ids == kept + [f"{kept[i]}+{kept[j]}" for i in range(3) for j in range(i + 1, 3)]
    state.apply(f"{kept[0]}+{kept[2]}")
    assert hand(state, 0) == [kept[0], kept[2]]


def test_many_combinations_are_chosen_one_element_at_a_time(keep: ruleskit.Game) -> None:
    state = keep.new_game(players=2, seed=3)
    state.apply(state.legal_actions()[0].id)
    state.apply(state.legal_actions()[0].id)
    state.apply("grab")
    row = list(state.raw["z"]["row"])
    assert len(state.legal_actions()) == 20 and "done" not in [a.id for a in state.legal_actions()]
    assert state.prompt == "Take tiles (0 chosen of 2..10)"
    state.apply("t7")
    assert "t7" not in [a.id for a in state.legal_actions()] and "done" not in [a.id for a in state.legal_actions()]
    state.apply("t3")
    assert [a.id for a in state.legal_actions()][-1] == "done"
    # The choice is still pending: a JSON round trip keeps it, and refusing a wrong answer changes nothing.
    again = State.from_json(keep, json.loads(json.dumps(state.to_json())))
    assert again == state
    with pytest.raises(IllegalAction):
        state.apply("t7")
    state.apply("done")
    # The value keeps the row's order: t3 before t7.
    assert list(state.raw["z"]["tiles@0"]) == [t for t in row if t in ("t3", "t7")] == ["t3", "t7"]
    assert [h["action"] for h in state.history[-4:]] == ["grab", "t7", "t3", "done"]
    invariants.check_replay(keep, state, 2, 3)


def test_the_upper_bound_ends_the_picks(keep: ruleskit.Game) -> None:
    state = keep.new_game(players=2, seed=3)
    state.apply(state.legal_actions()[0].id)
    state.apply(state.legal_actions()[0].id)
    state.apply("grab")
    for tile in [f"t{i}" for i in range(20, 10, -1)]:
        state.apply(tile)
    assert state.players_to_decide() == [1] and state.prompt is None
    assert list(state.raw["z"]["tiles@0"]) == [f"t{i}" for i in range(11, 21)]


def _pack(tmp_path: Path, effect: str) -> ruleskit.Game:
    pack = tmp_path / "p"
    pack.mkdir()
    (pack / "pack.toml").write_text('name = "p"\nversion = "1"\nplayers = { min = 2, max = 2 }\n')
    (pack / "game.toml").write_text('[counters.got]\nowner = "player"\n[stages.s]\n[phases.a]\nstage = "s"\n'
                                    '[flow]\nstart = "a"\nmax_turns = 4\n[actions.go]\nstage = "s"\n'
                                    f'effect = """\n{effect}\nend turn\n"""\n[scoring]\nscore = "p.got"\n')
    return ruleskit.load(pack)


def test_duplicate_elements_give_each_combination_once(tmp_path: Path) -> None:
    game = _pack(tmp_path, "let x = choose me subset 2 of [1, 1, 2]\nme.got += x[0] * 10 + x[1]")
    state = game.new_game(players=2, seed=0)
    state.apply("go")
    assert [a.id for a in state.legal_actions()] == ["1+1", "1+2"]
    state.apply("1+2")
    assert state.raw["pv"][0]["got"] == 12


def test_more_than_the_list_holds_is_an_error_naming_the_place(tmp_path: Path) -> None:
    game = _pack(tmp_path, "let x = choose me subset 4 of [1, 2, 3]")
    state = game.new_game(players=2, seed=0)
    with pytest.raises(ProgramError, match=r"cannot choose 4\.\.4 of 3 elements in .*game\.toml"):
        state.apply("go")


def test_random_games_keep_every_invariant(keep: ruleskit.Game) -> None:
    for seed in range(6):
        chooser = random.Random(seed)
        run = GameRun(keep, 2 + seed % 2, seed, lambda state, legal, pick=chooser: pick.choice(legal))
        assert run.play().is_terminal
