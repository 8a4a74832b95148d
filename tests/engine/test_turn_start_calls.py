"""The `turn_start` hooks called by the flow without `Program.emit`: the same hooks, in the same order, with the
same steps and errors as through their entry points (engine._start_turn, Game.turn_start_calls)."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_support import TINY_GAME, TINY_RULES, write_pack

import ruleskit
from ruleskit.errors import RulesError

TWO_HOOKS = TINY_RULES + """
hook first on turn_start(p) {
    say "first"
    p.points += 1
}

hook second on turn_start(p) when p.points > 1 {
    say "second"
    if p.points > 2 { return }
    p.points += double(1)
}
"""


def play(game: ruleskit.Game) -> tuple[list[str], dict[str, object] | None, int]:
    state = game.new_game(players=2, seed=3)
    said: list[str] = []
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
        said += state.messages
    return said, state.result, state.work


def test_the_flow_calls_each_hooks_definition_in_order(tmp_path: Path) -> None:
    root = write_pack(tmp_path / "hooks", rules=TWO_HOOKS)
    compiled = ruleskit.load(root, cache=False)
    assert compiled.turn_start_calls is not None and len(compiled.turn_start_calls) == 2
    closures = ruleskit.load(root, backend="closures", cache=False)
    assert closures.turn_start_calls is None  # the reference backend's hooks go through `emit`
    said, result, work = play(compiled)
    assert said[:3] == ["first", "first", "second"] and "second" in said
    assert (said, result, work) == play(closures)
    # A game loaded back from the cache finds the same definitions behind its rebuilt entry points.
    assert ruleskit.load(root).turn_start_calls is not None
    assert play(ruleskit.load(root)) == (said, result, work)


def test_a_game_that_checks_properties_goes_through_emit(tmp_path: Path) -> None:
    game = TINY_GAME + '\n[properties.first_scores]\nafter = "hook first"\ncheck = "p.points >= 1"\n'
    root = write_pack(tmp_path / "checked", game=game, rules=TWO_HOOKS)
    checked = ruleskit.load(root, cache=False).with_property_checks()
    assert checked.turn_start_calls is None
    play(checked)


def test_an_error_in_a_hook_is_the_same_either_way(tmp_path: Path) -> None:
    rules = TINY_RULES + "hook bad on turn_start(p) {\n    p.points += 1\n    p.points += [1][p + 5]\n}\n"
    root = write_pack(tmp_path / "bad", rules=rules)
    messages = []
    for backend in ("compiled", "closures"):
        with pytest.raises(RulesError) as caught:
            play(ruleskit.load(root, backend=backend, cache=False))
        messages.append(str(caught.value))
    assert messages[0] == messages[1] and "rules.rk:" in messages[0]
