"""Random legal games of Explorers of Navoria at 2, 3 and 4 players: they end after 3 rounds, every pack
invariant holds after every decision, and no view shows hidden information."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import ruleskit
from ruleskit.scenarios import load_scenario
from ruleskit.testing import check_pack_invariants
from ruleskit.testing.invariants import check_views

PACK = Path(__file__).resolve().parents[2] / "games" / "navoria"
SCENARIOS = Path(__file__).parent / "scenarios"
COLOURS = ("blue", "yellow", "red", "purple", "green")


@pytest.fixture(scope="module")
def game() -> ruleskit.Game:
    return ruleskit.load("navoria")


def assert_hidden(state: ruleskit.State) -> None:
    """The bag and the decks show only their counts (check_views covers pending choices and hidden vars)."""
    for viewer in range(state.players):
        view = state.view(viewer)
        assert view["zones"]["bag"] == {"hidden": True, "count": sum(state.data["z"]["bag"].values())}
        for c in COLOURS:
            assert view["zones"][f"deck@{c}"] == {"hidden": True, "count": len(state.data["z"][f"deck@{c}"])}


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(3))
def test_random_game(game: ruleskit.Game, players: int, seed: int) -> None:
    state = game.new_game(players=players, seed=seed)
    chooser = random.Random(seed * 10 + players)
    steps = 0
    while not state.is_terminal:
        legal = state.legal_actions()
        assert legal, f"stuck with no legal action in phase {state.data['flow']['phase']}"
        check_pack_invariants(state)
        if steps % 7 == 0:
            check_views(state)
            assert_hidden(state)
        state.apply(chooser.choice(legal))
        steps += 1
        assert steps < 1000
    check_pack_invariants(state)
    result = state.result
    assert result is not None and result["reason"] == "the third round is over"
    assert len(result["scores"]) == players and result["winners"]
    assert max(result["scores"]) == result["scores"][result["winners"][0]]


def test_same_seed_same_game(game: ruleskit.Game) -> None:
    def run() -> str:
        state = game.new_game(players=3, seed=9)
        chooser = random.Random(1)
        while not state.is_terminal:
            state.apply(chooser.choice(state.legal_actions()))
        return json.dumps(state.data, sort_keys=True)

    assert run() == run()


def test_pack_holds_no_python() -> None:
    suffixes = {p.suffix for p in PACK.rglob("*") if p.is_file()}  # its tests/ folder too
    assert suffixes <= {".toml", ".rk", ".md"}


def test_pack_checks_clean() -> None:
    from ruleskit.cli import main

    assert main(["check", "navoria"]) == 0


# ------------------------------------------------------------------ provisional data is data only

VARIANT = Path(__file__).parent / "printed_data"


@pytest.fixture(scope="module")
def printed() -> ruleskit.Game:
    return ruleskit.load(str(VARIANT))


def test_data_variant_changes_values_not_rules(printed: ruleskit.Game) -> None:
    """DATA.md's provisional faces are replaced by a variant of item fields only; the rules use the new values."""
    state = load_scenario(SCENARIOS / "treasure.toml", printed)  # forest now 7 long, treasure 7
    assert state.data["pv"][2]["explorer"][1] == 7 and state.data["pv"][2]["crowns"] == 7
    state = load_scenario(VARIANT / "blue_second_space.toml", printed)  # no choices on blue_2 now
    assert state.data["pv"][0]["crowns"] == 4 and state.pending is None and state.current_player == 1
    state = load_scenario(SCENARIOS / "final_scoring.toml", printed)  # Barb's desert soldier: 3 per post
    assert state.data["pv"][2]["soldier_crowns"] == 6


def test_data_variant_plays(printed: ruleskit.Game) -> None:
    state = printed.new_game(players=4, seed=2)
    chooser = random.Random(2)
    while not state.is_terminal:
        check_pack_invariants(state)
        state.apply(chooser.choice(state.legal_actions()))
    assert state.result is not None and state.result["reason"] == "the third round is over"
