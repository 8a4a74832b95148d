"""The tables a game starts from are made once per number of players and shared by every game: no game,
clone, determinized copy or refused action may change them."""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest
from engine_support import PACKS

import ruleskit
from ruleskit import IllegalAction


@pytest.mark.parametrize(("pack", "players", "decisions"), [
    ("connect_four", 2, 400), ("envoys", 4, 400), ("ophir", 3, 300), ("valdora", 3, 200), ("nereus", 2, 200),
    ("navoria", 4, 200), (PACKS / "street_market", 3, 400),
    (PACKS / "card_duel", 2, 400), (PACKS / "dice_race", 2, 400),
])
def test_games_leave_the_shared_starting_tables_as_they_were(pack: str | Path, players: int,
                                                             decisions: int) -> None:
    game = ruleskit.load(pack)
    first = game.new_game(players=players, seed=0)
    made = copy.deepcopy(game.initial_tables)
    assert list(made) == [players]
    chooser = random.Random(1)
    state, seed, taken = first, 0, 0
    while taken < decisions:
        if state.is_terminal:
            seed += 1
            state = game.new_game(players=players, seed=seed)
        moves = state.legal_actions()
        if taken % 5 == 0:
            with pytest.raises(IllegalAction):
                state.clone().apply("no-such-action")
            state.determinized(moves[0].player, seed=taken).legal_actions()
        branch = state.clone()
        branch.apply(moves[chooser.randrange(len(moves))])
        state.apply(moves[chooser.randrange(len(moves))])
        taken += 1
    assert game.initial_tables == made
    # A new game still starts as the first did.
    assert game.new_game(players=players, seed=0).dumps() == first.__class__.new(game, players, 0).dumps()
