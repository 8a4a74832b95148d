"""A determinized copy (`State.determinized`) holds nothing its viewer may not know.

Bots search such copies so as never to peek: whatever the viewer cannot see must be a guess in the copy,
the same guess whatever the hidden truth is.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import ruleskit
from ruleskit.bots import GreedyBot

BACKENDS = ["compiled", "closures"]

SECRETS = """
[kinds.card]
vars = { power = { type = "int", start = 0, visible = "none" } }
items.ace = { name = "Ace" }
items.two = { name = "Two" }

[vars.secret]
type = "int"
start = 0
visible = "none"

[vars.shown]
type = "int"
start = 0

[vars.winner]
type = "player"

[counters.mine]
owner = "player"
start = 0
visible = "none"

[stages.main]

[phases.play]
stage = "main"

[flow]
start = "play"
setup = "let n = random [1, 2, 3, 4, 5, 6, 7, 8, 9]\\nset secret = n\\nset ace.power = n\\nfor p in players { set p.mine = n }\\nset shown = 5"
max_turns = 2

[actions.guess]
stage = "main"
label = "Guess {n}"
params = { n = "range(1, 10)" }
effect = "if n == secret {\\n set winner = me\\n finish \\"guessed\\"\\n} else { end turn }"

[scoring]
score = "if winner == p then 1 else 0"
"""


def write_pack(folder: Path, text: str, players: int = 2) -> Path:
    (folder / "pack.toml").write_text(f'name = "secrets"\nversion = "1"\nplayers = {{ min = 2, max = {players} }}\n'
                                      'files = ["game.toml"]\n')
    (folder / "game.toml").write_text(text)
    return folder


@pytest.mark.parametrize("backend", BACKENDS)
def test_hidden_vars_are_guessed_not_copied(tmp_path: Path, backend: str) -> None:
    """A copy kept a game var nobody sees, an item's hidden var and the viewer's own `visible = "none"` counter
    as they were: a greedy bot guessing the secret number found it every time."""
    game = ruleskit.load(write_pack(tmp_path, SECRETS), backend=backend, cache=False)
    state = game.new_game(players=2, seed=5)
    assert state.data["v"]["secret"] != 0
    copy = state.determinized(0, 1)
    assert copy.data["v"] == {"secret": 0, "shown": 5, "winner": None}
    assert copy.data["ev"]["ace"] == {"power": 0}
    assert [values["mine"] for values in copy.data["pv"]] == [0, 0]
    # Two positions the viewer cannot tell apart give one copy, and one choice of the bot.
    other = state.clone()
    other.data["v"]["secret"] = 10 - state.data["v"]["secret"]
    assert other.view(0) == state.view(0)
    assert other.determinized(0, 1).data == copy.data
    choices = {GreedyBot(game, 3).choose(s, 0).id for s in (state, other)}
    assert len(choices) == 1


BAGS = """
[kinds.gem]
items.ruby = { name = "Ruby" }
items.pearl = { name = "Pearl" }

[zones.bag]
type = "pool"
of = "gem"
owner = "player"
visible = "owner"

[zones.supply]
type = "pool"
of = "gem"
start = { ruby = 3, pearl = 3 }

[stages.main]

[phases.play]
stage = "main"

[flow]
start = "play"
setup = "move 2 of ruby from supply to players[0].bag\\nmove 1 of pearl from supply to players[1].bag"
max_turns = 3

[actions.pass]
stage = "main"
label = "Pass"
effect = "end turn"

[scoring]
score = "0"
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_hidden_pools_are_redrawn_among_themselves(tmp_path: Path, backend: str) -> None:
    """A copy kept each hidden bag's true tokens: Player 3 knew that Player 1's two tokens were the rubies."""
    game = ruleskit.load(write_pack(tmp_path, BAGS, players=3), backend=backend, cache=False)
    state = game.new_game(players=3, seed=1)
    other = state.clone()
    other.data["z"]["bag@0"] = {"ruby": 1, "pearl": 1}
    other.data["z"]["bag@1"] = {"ruby": 1, "pearl": 0}
    assert other.view(2) == state.view(2)
    copies = [state.determinized(2, seed).data["z"] for seed in range(8)]
    assert [other.determinized(2, seed).data["z"] for seed in range(8)] == copies
    for zones in copies:
        assert sum(zones["bag@0"].values()) == 2 and sum(zones["bag@1"].values()) == 1
        assert zones["bag@0"]["ruby"] + zones["bag@1"].get("ruby", 0) == 2
        assert zones["supply"] == state.data["z"]["supply"] and zones["bag@2"] == state.data["z"]["bag@2"]
    assert len({zones["bag@1"].get("ruby", 0) for zones in copies}) == 2  # either bag may hold the pearl
    own = state.determinized(0, 1).data["z"]  # the viewer's own bag is known
    assert own["bag@0"] == state.data["z"]["bag@0"]
