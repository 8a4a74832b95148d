"""An action's id names its bindings alone: `go:x,y,z` can be only one choice of `a` and `b`.

The commas of an id part its parameters, so an option of a parameter before the last may not hold one
(`x` then `y,z` and `x,y` then `z` would share an id, and a log of one would replay the other). The last
parameter's options may: nothing follows them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import ruleskit
from ruleskit.errors import ProgramError

MANIFEST = 'name = "commas"\nversion = "1"\nplayers = { min = 2, max = 2 }\nfiles = ["game.toml"]\n'
GAME = """
[kinds.tok]
items.x = {}
items."y,z" = {}
items."x,y" = {}
items.z = {}

[stages.main]

[phases.p]
stage = "main"

[flow]
start = "p"
max_turns = 2

[actions.wait]
stage = "main"
effect = "end turn"

[actions.go]
stage = "main"
params = { a = "FIRST", b = "[\\"y,z\\", z]" }
effect = "end turn"

[scoring]
score = "0"
"""


def _game(tmp_path: Path, first: str, backend: str) -> ruleskit.Game:
    (tmp_path / "pack.toml").write_text(MANIFEST)
    (tmp_path / "game.toml").write_text(GAME.replace("FIRST", first))
    return ruleskit.load(tmp_path, backend=backend, cache=False)


@pytest.mark.parametrize("backend", ["compiled", "closures"])
def test_an_earlier_parameter_with_a_comma_in_an_option_is_a_located_error(tmp_path: Path, backend: str) -> None:
    game = _game(tmp_path, '[x, \\"x,y\\"]', backend)
    line = next(n for n, text in enumerate(GAME.splitlines(), start=1) if text.startswith("params"))
    state = game.new_game(players=2, seed=1)  # "wait" is legal: the flow lists no further
    for attempt in (state.legal_actions, lambda: state.apply("go:x,y,z")):  # listing it, and taking it by id
        with pytest.raises(ProgramError, match="option 'x,y' of parameter 'a' holds a comma") as raised:
            attempt()
        assert str(raised.value.file).endswith("game.toml") and raised.value.line == line


@pytest.mark.parametrize("backend", ["compiled", "closures"])
def test_the_last_parameter_may_hold_commas_and_ids_replay(tmp_path: Path, backend: str) -> None:
    game = _game(tmp_path, "[x, z]", backend)
    state = game.new_game(players=2, seed=1)
    ids = [a.id for a in state.legal_actions()]
    assert ids == ["wait", "go:x,y,z", "go:x,z", "go:z,y,z", "go:z,z"]
    replayed = game.new_game(players=2, seed=1)
    replayed.apply("go:z,y,z")
    assert replayed.history[-1]["action"] == "go:z,y,z" and replayed.raw == state.apply("go:z,y,z").raw
