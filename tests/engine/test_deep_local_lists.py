"""A list nested thousands deep in a local value: the language caps the depth of lists written to vars, not
of those held in locals, so work that walks one (comparing, making distinct) runs out of Python's stack. That
must end the action with the same located error in both backends, refused and leaving the state as it was,
not crash the engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from engine_support import TINY_GAME, write_pack

import ruleskit
from ruleskit.errors import RulesError

NEST = "let x = []\\nfor i in range(5000) { set x = [x] }\\n"
USES = {
    "compared": NEST + "let y = []\\nfor i in range(5000) { set y = [y] }\\nif x == y { me.points += 1 }",
    "made distinct": NEST + "me.points += count(distinct([x, x]))",
}


@pytest.mark.parametrize("use", sorted(USES))
def test_a_deeply_nested_local_list_ends_the_action_with_a_located_error(tmp_path: Path, use: str) -> None:
    game = TINY_GAME.replace("me.points += double(1)\\nend turn", USES[use] + "\\nend turn")
    root = write_pack(tmp_path / "deep", game=game)
    messages = []
    for backend in ("compiled", "closures"):
        state = ruleskit.load(root, backend=backend, cache=False).new_game(players=2, seed=1)
        before = json.dumps(state.to_json(), sort_keys=True)
        with pytest.raises(RulesError) as refused:
            state.apply(state.legal_actions()[0])
        assert json.dumps(state.to_json(), sort_keys=True) == before
        messages.append(str(refused.value))
    assert messages[0] == messages[1]
    assert "nested too deeply" in messages[0] and "game.toml:" in messages[0]
