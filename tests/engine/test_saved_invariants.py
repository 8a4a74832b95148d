"""A saved state is held to the pack's `[invariants]` as it loads: one that fits every type yet breaks one
could not have been reached by play, and failed later inside the pack's code (`tests/bad_saves` holds saves
that do)."""

from __future__ import annotations

import pytest

import ruleskit
from ruleskit.errors import PackError
from ruleskit.runtime.state import State


def emptied_hand() -> tuple[ruleskit.Game, dict]:
    game = ruleskit.load("envoys")
    saved = game.new_game(players=3, seed=4).to_json()
    zones, other = saved["data"]["z"], (saved["data"]["flow"]["active"] + 1) % 3
    zones["deck"] += zones[f"hand@{other}"]
    zones[f"hand@{other}"] = []
    return game, saved


def test_a_state_breaking_an_invariant_is_refused_naming_it_and_where_it_is_written() -> None:
    game, saved = emptied_hand()
    with pytest.raises(PackError) as refused:
        State.from_json(game, saved)
    assert "breaks the pack's invariant 'hands'" in refused.value.message
    assert "flow.toml:" in refused.value.message  # where the invariant is written


def test_the_same_state_untouched_loads() -> None:
    game = ruleskit.load("envoys")
    state = game.new_game(players=3, seed=4)
    assert State.from_json(game, state.to_json()) == state


def test_a_property_tests_failing_state_can_be_restored_for_its_report() -> None:
    """A property test run elsewhere (on Ray) sends back the state that broke an invariant."""
    game, saved = emptied_hand()
    state = State.from_json(game, saved, invariants=False)
    assert state.raw["z"]["deck"] == saved["data"]["z"]["deck"]
