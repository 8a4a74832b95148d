"""A whole game's messages are bounded, as one decision's are: the history keeps every one of them.

Each decision may say 200,000 characters; over the 20,000 decisions `simulate` lets a game run that kept
3.9 GB. A game says at most 10,000,000 characters in all, counted on a state, its clones and its saves alike.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import ruleskit
from ruleskit.errors import ProgramError
from ruleskit.runtime.context import MAX_GAME_SAID
from ruleskit.runtime.state import State

NAME = "N" * 9000

GAME = f"""
[kinds.token]
items.t = {{ name = "{NAME}" }}

[stages.main]

[phases.p]
stage = "main"

[flow]
start = "p"

[actions.talk]
stage = "main"
effect = \"\"\"
for i in range(20) {{ say t }}
end turn
\"\"\"

[scoring]
score = "0"
"""


def write_manifest(folder: Path) -> None:
    (folder / "pack.toml").write_text('name = "talk"\nversion = "1"\nplayers = { min = 1, max = 1 }\n'
                                      'files = ["game.toml"]\n')


def test_a_game_says_at_most_ten_million_characters(tmp_path: Path) -> None:
    write_manifest(tmp_path)
    (tmp_path / "game.toml").write_text(GAME)
    game = ruleskit.load(tmp_path, cache=False)
    state = game.new_game(players=1, seed=1)
    per_decision = 20 * len(NAME)
    allowed = MAX_GAME_SAID // per_decision
    for _ in range(allowed):
        state.apply("talk")
    saved = State.from_json(game, state.to_json())
    for copy in (state, state.clone(), saved):  # the count goes with clones and saves
        before = copy.dumps()
        with pytest.raises(ProgramError, match="more than 10000000 characters in all"):
            copy.apply("talk")
        assert copy.dumps() == before  # refused whole


@pytest.mark.parametrize("backend", ["compiled", "closures"])
def test_say_shows_an_item_by_its_name_and_a_text_as_itself(tmp_path: Path, backend: str) -> None:
    """`say t` showed the item's id, where LANGUAGE.md says items are shown by their name."""
    write_manifest(tmp_path)
    (tmp_path / "game.toml").write_text(GAME.replace(NAME, "The Token").replace(
        "for i in range(20) { say t }", 'say t\nsay "plain text"\nsay [t, 2]'))
    state = ruleskit.load(tmp_path, backend=backend, cache=False).new_game(players=1, seed=1)
    state.apply("talk")
    assert state.messages == ["The Token", "plain text", "The Token, 2"]
