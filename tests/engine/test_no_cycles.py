"""Taking a decision leaves nothing behind that only the garbage collector could free: each job's context,
and the listing that goes on from it, are freed as soon as the next decision replaces them. A reference
cycle per decision would keep every one alive until a collection, and each collection would walk them all."""

from __future__ import annotations

import gc
import random

import pytest

import ruleskit
from ruleskit.runtime.context import Ctx


def _contexts_alive() -> int:
    return sum(1 for o in gc.get_objects() if type(o) is Ctx)


@pytest.mark.parametrize(("pack", "players"), [("connect_four", 2), ("envoys", 3), ("ophir", 4), ("valdora", 3)])
@pytest.mark.parametrize("by_id", [True, False])
def test_decisions_leave_no_cycles_behind(pack: str, players: int, by_id: bool) -> None:
    game = ruleskit.load(pack)
    chooser = random.Random(5)
    played = game.new_game(players=players, seed=5)
    decisions = []
    while not played.is_terminal and len(decisions) < 60:
        action = chooser.choice(played.legal_actions())
        decisions.append((action.id, action.player))
        played.apply(action)
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        before = _contexts_alive()
        state = game.new_game(players=players, seed=5)
        for action_id, player in decisions:
            if not by_id:
                state.legal_actions()  # the listing finished, as random play finishes it
            state.apply(action_id, player=player)
        # The last decision's context may live on in its listing; none before it does.
        assert _contexts_alive() - before <= 1
    finally:
        if enabled:
            gc.enable()
