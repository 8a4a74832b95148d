"""Phases whose order is empty have no turns: their on_enter runs and the flow passes on.

Packs use them for bookkeeping between rounds (income, clean-up) and for
phases that only some players join (an empty list of volunteers)."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_support import write_pack

import ruleskit
from ruleskit.errors import ProgramError
from ruleskit.runtime.state import State

MANIFEST = """\
name = "phases"
version = "0.1"
players = { min = 2, max = 3 }
files = ["game.toml"]
"""

GAME = """\
[counters.cycles]
[counters.bookkeeping]
[counters.volunteers_turns]
[counters.taken]
owner = "player"
[vars.volunteers]
type = "list[player]"

[stages.play]

[phases.work]
stage = "play"
rounds = 1
next = "extra"

# Only volunteers play here; most cycles nobody does.
[phases.extra]
stage = "play"
order = "volunteers"
next = "tally"
on_turn_start = "volunteers_turns += 1"
on_round_end = "set volunteers = []"

# Nobody plays here: the phase is its on_enter.
[phases.tally]
stage = "play"
order = "[]"
on_enter = "bookkeeping += 1; cycles += 1"
next = "work"

[flow]
start = "work"

[actions.take]
stage = "play"
effect = "me.taken += 1; end turn"

[actions.volunteer]
stage = "play"
when = "phase == \\"work\\" and me not in volunteers"
effect = "set volunteers = volunteers + [me]; me.taken += 1; end turn"

[end.enough]
when = "cycles >= 3"
reason = "three cycles"

[scoring]
score = "p.taken"
"""


def _pack(tmp_path: Path, game: str = GAME) -> ruleskit.Game:
    return ruleskit.load(write_pack(tmp_path / "phases", manifest=MANIFEST, game=game, files={}))


def test_an_empty_order_skips_the_turns_but_runs_on_enter(tmp_path: Path) -> None:
    game = _pack(tmp_path)
    state = game.new_game(2)
    # Cycle 1: nobody volunteers, so `extra` has no turns and `tally` runs at once.
    state.apply("take").apply("take")
    assert state.data["v"]["bookkeeping"] == 1
    assert state.data["v"]["volunteers_turns"] == 0
    assert state.data["flow"]["phase"] == "work"
    # Cycle 2: player 2 volunteers and alone plays the extra phase.
    state.apply("take").apply("volunteer")
    assert state.data["flow"]["phase"] == "extra"
    assert state.current_player == 1
    state.apply("take")
    assert state.data["v"]["volunteers_turns"] == 1
    assert state.data["v"]["bookkeeping"] == 2
    state.apply("take").apply("take")
    assert state.is_terminal
    assert state.result["reason"] == "three cycles"
    assert state.result["scores"] == [3, 4]


def test_a_phase_with_no_turns_and_no_next_ends_the_game(tmp_path: Path) -> None:
    game = _pack(tmp_path, GAME.replace('on_enter = "bookkeeping += 1; cycles += 1"\nnext = "work"',
                                        'on_enter = "bookkeeping += 1"'))
    state = game.new_game(2).apply("take").apply("take")
    assert state.is_terminal
    assert state.result["reason"] == "phase tally ended"
    assert state.data["v"]["bookkeeping"] == 1


def test_an_order_that_empties_between_rounds_ends_the_phase(tmp_path: Path) -> None:
    game = _pack(tmp_path, GAME.replace('on_round_end = "set volunteers = []"',
                                        'on_turn_end = "set volunteers = without(volunteers, me)"'))
    state = game.new_game(3).apply("take").apply("volunteer").apply("volunteer")
    assert state.data["flow"]["phase"] == "extra"
    state.apply("take").apply("take")
    # The second round of `extra` would have nobody in it: the flow moves on to `tally` and `work`.
    assert state.data["flow"]["phase"] == "work"
    assert state.data["v"]["volunteers_turns"] == 2
    assert state.data["v"]["bookkeeping"] == 1


def test_phases_that_never_have_a_turn_are_reported(tmp_path: Path) -> None:
    game = _pack(tmp_path, GAME.replace('[phases.work]\nstage = "play"\n', '[phases.work]\nstage = "play"\norder = "[]"\n'))
    with pytest.raises(ProgramError, match="no phase has a player to take a turn: work -> extra -> tally -> work"):
        game.new_game(2)


def test_an_order_that_is_not_a_list_of_players_is_still_an_error(tmp_path: Path) -> None:
    game = _pack(tmp_path, GAME.replace('order = "volunteers"', 'order = "[7]"'))
    state = game.new_game(2).apply("take")
    with pytest.raises(ProgramError, match=r"order must be a list of players, got \[7\]") as caught:
        state.apply("take")
    # The error names the phase and where it is written.
    assert "in phase extra (" in caught.value.message
    assert caught.value.file is not None and caught.value.file.endswith(".toml") and caught.value.line is not None


def test_flatten_joins_lists_one_level_deep(tmp_path: Path) -> None:
    setup = 'set flat = flatten([[1, 2], [], [3]])\nset seats = flatten([[p, p] for p in players])'
    game = _pack(tmp_path, GAME.replace('start = "work"', f'start = "work"\nsetup = """\n{setup}\n"""')
                 + '[vars.flat]\ntype = "list[int]"\n[vars.seats]\ntype = "list[player]"\n')
    state = game.new_game(3)
    assert state.data["v"]["flat"] == [1, 2, 3]
    assert state.data["v"]["seats"] == [0, 0, 1, 1, 2, 2]


def test_flatten_of_a_list_of_numbers_is_a_located_error(tmp_path: Path) -> None:
    game = _pack(tmp_path, GAME.replace('start = "work"', 'start = "work"\nsetup = "set flat = flatten([1, 2])"')
                 + '[vars.flat]\ntype = "list[int]"\n')
    with pytest.raises(ProgramError, match="expected a list or a zone, got '1' in flow setup") as caught:
        game.new_game(2)
    assert caught.value.file is not None and caught.value.file.endswith("game.toml")


def test_an_order_with_a_seat_twice_plays_and_its_games_save_and_load(tmp_path: Path) -> None:
    """A snake order (`[0, 1, 1, 0]`) gives a player two turns a round; a save of such a game was refused as
    "a seat appears twice", so no game of it could be saved."""
    root = tmp_path / "snake"
    root.mkdir()
    (root / "pack.toml").write_text('name = "snake"\nversion = "1"\nplayers = { min = 2, max = 2 }\n'
                                    'files = ["game.toml"]\n')
    (root / "game.toml").write_text('[counters.c]\nowner = "player"\n\n[stages.main]\n\n[phases.play]\n'
                                    'stage = "main"\norder = "[0, 1, 1, 0]"\n\n[flow]\nstart = "play"\n'
                                    'max_turns = 8\n\n[actions.go]\nstage = "main"\neffect = "me.c += 1\\nend turn"\n\n'
                                    '[scoring]\nscore = "p.c"\n')
    game = ruleskit.load(root, cache=False)
    state = game.new_game(players=2, seed=1)
    seats = []
    while not state.is_terminal:
        seats.append(state.players_to_decide()[0])
        loaded = State.from_json(game, state.to_json())
        assert loaded == state
        state.apply("go")
    assert seats == [0, 1, 1, 0, 0, 1, 1, 0]
