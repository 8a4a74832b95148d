"""Zones owned by items: one zone per item of a kind (gems lying on each space of a board)."""

from pathlib import Path

import pytest

import ruleskit
from ruleskit import IllegalAction, LanguageError, PackError
from ruleskit.testing.invariants import check_views

MANIFEST = 'name = "trail"\nversion = "1"\nplayers = { min = 2, max = 2 }\n'
GAME = """
[kinds.space]
items.camp = {}
items.ridge = {}

[kinds.pawn]
per_player = true
vars.at = { type = "space", start = "camp" }

[kinds.gem]
items.ruby = {}
items.jade = {}

[board]
nodes = "space"
edges = [["camp", "ridge"]]

[zones.bag]
type = "pool"
of = "gem"
owner = "player"
start = { ruby = 2, jade = 1 }
visible = "owner"

[zones.cache]
type = "pool"
of = "gem"
owner = "space"
capacity = 2

[stages.main]

[phases.play]
stage = "main"

[flow]
start = "play"
max_turns = 20

[actions.bury]
stage = "main"
params = { g = "distinct(items(me.bag))" }
label = "Bury {g}"
effect = "move 1 of g from me.bag to me.pawn.at.cache"

[actions.walk]
stage = "main"
params = { to = "adjacent(me.pawn.at)" }
effect = "set me.pawn.at = to\\nend turn"

[scoring]
score = "count(p.bag)"
"""


def load(tmp_path: Path, game: str = GAME) -> ruleskit.Game:
    (tmp_path / "pack.toml").write_text(MANIFEST)
    (tmp_path / "game.toml").write_text(game)
    return ruleskit.load(tmp_path)


def test_each_item_has_its_own_zone_reached_as_a_field(tmp_path: Path) -> None:
    state = load(tmp_path).new_game(players=2, seed=1)
    assert state.data["z"]["cache@camp"] == {"ruby": 0, "jade": 0}
    assert state.data["z"]["cache@ridge"] == {"ruby": 0, "jade": 0}
    state.apply("bury:ruby").apply("bury:jade")
    assert state.data["z"]["cache@camp"] == {"ruby": 1, "jade": 1}
    assert state.data["z"]["cache@ridge"] == {"ruby": 0, "jade": 0}
    # Both players see a space's cache (it belongs to no player); only the owner sees a bag.
    view = state.view(1)
    assert view["zones"]["cache@camp"] == {"ruby": 1, "jade": 1}
    assert view["zones"]["bag@0"] == {"hidden": True, "count": 1}
    check_views(state)


def test_an_item_zone_keeps_its_capacity(tmp_path: Path) -> None:
    state = load(tmp_path).new_game(players=2, seed=1)
    state.apply("bury:ruby").apply("bury:ruby")
    before = state.dumps()
    with pytest.raises(IllegalAction, match="camp's cache is full"):
        state.apply("bury:jade")
    assert state.dumps() == before


def test_a_zone_owned_by_a_kind_is_not_a_bare_name(tmp_path: Path) -> None:
    game = GAME.replace('effect = "set me.pawn.at = to\\nend turn"', 'effect = "move 1 of ruby from cache to me.bag"')
    with pytest.raises(LanguageError, match="'cache' belongs to each space; write x.cache"):
        load(tmp_path, game)


def test_an_unknown_zone_owner_is_located(tmp_path: Path) -> None:
    with pytest.raises(PackError, match="unknown owner 'spcae'.*did you mean 'space'") as caught:
        load(tmp_path, GAME.replace('owner = "space"', 'owner = "spcae"'))
    assert caught.value.file is not None and caught.value.file.endswith("game.toml")
    assert caught.value.line is not None


def test_scenarios_set_an_item_zone_by_its_key(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    load(pack)
    scenario = tmp_path / "s.toml"
    # Both jades, one from each player's bag: a game moves pieces and never copies them.
    scenario.write_text('players = 2\n[zones]\n"bag@0" = { jade = 0 }\n"bag@1" = { jade = 0 }\n'
                        '"cache@ridge" = { jade = 2 }\n')
    state = ruleskit.scenario(str(scenario), str(pack))
    assert state.data["z"]["cache@ridge"] == {"ruby": 0, "jade": 2}


def test_an_item_named_with_digits_does_not_give_its_zone_to_that_seat(tmp_path: Path) -> None:
    """A zone of box "1" is the box's, not player 1's: its hidden card stays hidden from every player."""
    (tmp_path / "pack.toml").write_text('name = "digits"\nversion = "1"\nplayers = { min = 2, max = 2 }\n'
                                        'files = ["game.toml"]\n')
    (tmp_path / "game.toml").write_text("""
[kinds.card]
items.gold = {}

[kinds.box]
items."1" = {}
items.b = {}

[kinds.keeper]
per_player = true

[zones.secret]
type = "stack"
of = "card"
owner = "box"
visible = "owner"
start = ["gold"]

[zones.vault]
type = "stack"
of = "card"
owner = "keeper"
visible = "owner"

[stages.main]

[phases.p]
stage = "main"

[flow]
start = "p"

[actions.go]
stage = "main"
effect = "end turn"

[scoring]
score = "0"
""")
    state = ruleskit.load(tmp_path, cache=False).new_game(players=2, seed=1)
    for seat in (0, 1):
        zones = state.view(seat)["zones"]
        assert zones["secret@1"] == {"hidden": True, "count": 1}
        assert zones["secret@b"] == {"hidden": True, "count": 1}
        # A zone of a player's own item is still theirs to see.
        assert zones[f"vault@keeper_{seat}"] == []
        assert zones[f"vault@keeper_{1 - seat}"] == {"hidden": True, "count": 0}
