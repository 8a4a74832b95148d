"""Random legal games of Waters of Nereus (and its 2-player neutral variant) end after 4 days, keeping
every pack invariant, with science cards and the secret crew choice hidden from the other players."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from nereus_helpers import NEUTRAL

import ruleskit
from ruleskit.testing.invariants import check_pack_invariants, check_views

PACK = Path(__file__).resolve().parents[2] / "games" / "nereus"


def secrets_hidden(state: ruleskit.State) -> None:
    for viewer in range(state.players):
        view = state.view(viewer)
        for p in range(state.players):
            hand = view["zones"][f"science_hand@{p}"]
            if p == viewer:
                assert hand == state.data["z"][f"science_hand@{p}"]
            else:
                assert hand == {"hidden": True, "count": len(state.data["z"][f"science_hand@{p}"])}
        assert isinstance(view["zones"]["science_deck"], dict) and isinstance(view["zones"]["discovery_deck"], dict)
        simul = state.data["flow"]["simul"]
        if simul is not None:
            for p, pick in simul["picks"].items():
                if int(p) != viewer:
                    assert pick["args"]["c"] not in str(view["flow"].get("simul")), "a secret crew choice leaked"


def play_random(game: ruleskit.Game, players: int, seed: int) -> ruleskit.State:
    state = game.new_game(players=players, seed=seed)
    chooser = random.Random(seed * 10 + players)
    steps = 0
    while not state.is_terminal:
        legal = state.legal_actions()
        assert legal, f"stuck with no legal action in stage {state.stage}"
        check_pack_invariants(state)
        if steps % 7 == 0:
            secrets_hidden(state)
            check_views(state)
        state.apply(chooser.choice(legal))
        steps += 1
        assert steps < 3000
    check_pack_invariants(state)
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(2))
def test_random_game_finishes(players: int, seed: int) -> None:
    state = play_random(ruleskit.load("nereus"), players, seed)
    result = state.result
    assert result is not None and result["reason"] == "four days played"
    assert len(result["scores"]) == players and result["winners"]


@pytest.mark.parametrize("seed", range(2))
def test_random_neutral_variant_game_finishes(seed: int) -> None:
    game = ruleskit.load(str(NEUTRAL))
    state = play_random(game, 2, seed)
    assert state.result["reason"] == "four days played"
    assert state.data["ev"]["neutral_ship"]["at"] is not None


def test_pack_holds_no_python() -> None:
    suffixes = {p.suffix for p in [*PACK.rglob("*"), *NEUTRAL.rglob("*")] if p.is_file()}
    assert suffixes <= {".toml", ".rk", ".md"}


def test_pack_checks_clean() -> None:
    from ruleskit.cli import main

    assert main(["check", "nereus"]) == 0
    assert main(["check", str(NEUTRAL)]) == 0
