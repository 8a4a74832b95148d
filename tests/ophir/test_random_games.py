"""Random legal games of Ophir finish with a result for 2, 3 and 4 players, keeping every invariant."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import ruleskit
from ruleskit.runtime.context import Ctx

PACK = Path(__file__).resolve().parents[2] / "games" / "ophir"


@pytest.fixture(scope="module")
def game() -> ruleskit.Game:
    return ruleskit.load("ophir")


def broken_invariants(game: ruleskit.Game, state: ruleskit.State) -> list[str]:
    ctx = Ctx(game.program, state.data, 0)
    return [message for check, message, _ in game.invariants.values() if not check(ctx)]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_random_game_finishes(game: ruleskit.Game, players: int, seed: int) -> None:
    state = game.new_game(players=players, seed=seed)
    chooser = random.Random(seed * 10 + players)
    steps = 0
    while not state.is_terminal:
        legal = state.legal_actions()
        assert legal, f"stuck with no legal action in stage {state.stage}"
        if state.pending is None:
            assert broken_invariants(game, state) == []
        state.apply(chooser.choice(legal))
        steps += 1
        assert steps < 20000
    result = state.result
    assert result is not None
    assert result["reason"] in ("the temple is complete", "the market cannot be refilled")
    assert len(result["scores"]) == players and result["winners"]
    assert broken_invariants(game, state) == []


def test_pack_holds_no_python() -> None:
    suffixes = {p.suffix for p in PACK.rglob("*") if p.is_file()}  # its tests/ folder too
    assert suffixes <= {".toml", ".rk", ".md"}


def test_pack_checks_clean() -> None:
    from ruleskit.cli import main

    assert main(["check", "ophir"]) == 0
