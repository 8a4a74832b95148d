"""Simultaneous picks made blind may clash: a pick that breaks a rule when it resolves is refused alone."""

from pathlib import Path

import ruleskit

MANIFEST = 'name = "grab"\nversion = "1"\nplayers = { min = 2, max = 3 }\n'
GAME = """
[kinds.gem]
items.ruby = {}
items.opal = {}

[zones.table]
type = "pool"
of = "gem"
start = { ruby = 1, opal = 2 }

[zones.stash]
type = "pool"
of = "gem"
owner = "player"

[counters.grabs]
owner = "player"

[stages.grab]
simultaneous = "players"
resolve = "end turn"

[phases.play]
stage = "grab"

[flow]
start = "play"
max_turns = 5

[actions.take]
stage = "grab"
params = { g = "distinct(items(table))" }
label = "Take {g}"
effect = "me.grabs += 1\\nmove 1 of g from table to me.stash"

[end.empty]
when = "count(table) == 0"
reason = "the table is empty"

[scoring]
score = "count(p.stash)"
"""


def test_the_later_clashing_pick_is_refused_and_the_game_goes_on(tmp_path: Path) -> None:
    (tmp_path / "pack.toml").write_text(MANIFEST)
    (tmp_path / "game.toml").write_text(GAME)
    state = ruleskit.load(tmp_path).new_game(players=2, seed=1)
    assert state.current_player == (0, 1)
    state.apply(next(a for a in state.legal_actions(0) if a.id == "take:ruby"))
    state.apply(next(a for a in state.legal_actions(1) if a.id == "take:ruby"))
    # Player 1 resolved first and took the only ruby; Player 2's pick, refused, changed nothing.
    assert state.data["z"]["stash@0"]["ruby"] == 1
    assert state.data["z"]["stash@1"]["ruby"] == 0
    assert [pv["grabs"] for pv in state.data["pv"]] == [1, 0]
    assert state.history[-1]["messages"] == ["Player 2's choice was refused: table holds 0 ruby, not 1"]
    assert not state.is_terminal and state.current_player == (0, 1)
    assert sorted(a.id for a in state.legal_actions(1)) == ["take:opal"]


RAID = """
[kinds.gem]
items.ruby = { name = "Ruby" }
items.opal = { name = "Opal" }

[zones.supply]
type = "pool"
of = "gem"
start = { ruby = 6, opal = 6 }

[zones.stash]
type = "pool"
of = "gem"
owner = "player"
visible = "owner"

[stages.raid]
simultaneous = "players"
resolve = "end turn"

[phases.play]
stage = "raid"

[flow]
start = "play"
setup = "for p in players { move 1 of opal from supply to p.stash }\\nmove 1 of ruby from supply to players[0].stash\\nmove 2 of ruby from supply to players[1].stash"
max_turns = 5

[actions.raid]
stage = "raid"
params = { n = "range(1, 4)" }
label = "Take {n} from the next player's stash"
effect = "move n of ruby from next_player(me).stash to me.stash"

[scoring]
score = "count(p.stash)"
"""


def test_a_refused_pick_does_not_tell_how_many_a_hidden_pool_holds(tmp_path: Path) -> None:
    """A refused pick is told to everyone; its reason gave how many rubies lie in a stash only its owner sees
    ("stash holds 2 Ruby, not 3"), where the others see only how many gems it holds."""
    (tmp_path / "pack.toml").write_text(MANIFEST)
    (tmp_path / "game.toml").write_text(RAID)
    state = ruleskit.load(tmp_path).new_game(players=2, seed=1)
    assert [state.view(0)["zones"][f"stash@{p}"] for p in (0, 1)][1] == {"hidden": True, "count": 3}
    state.apply("raid:3", player=0)
    state.apply("raid:3", player=1)
    told = state.history[-1]["messages"]
    assert len(told) == 2 and all("fewer than 3" in m for m in told), told
    assert not any("holds 1" in m or "holds 2" in m for m in told), told


def test_simultaneous_players_that_are_not_seats_of_the_game_are_an_error(tmp_path: Path) -> None:
    """As a phase's order is: a number past the seats was a player to decide, offered actions, and its pick
    read past the players' data (a Python IndexError, or another error under the reference backend)."""
    import pytest

    from ruleskit import ProgramError

    (tmp_path / "pack.toml").write_text(MANIFEST)
    (tmp_path / "game.toml").write_text(GAME.replace('simultaneous = "players"',
                                                     'simultaneous = "[p.index + 1 for p in players]"'))
    for backend in ("compiled", "closures"):
        game = ruleskit.load(tmp_path, backend=backend, cache=False)
        with pytest.raises(ProgramError, match=r"simultaneous must be a list of players, got \[1, 2\], "
                                               r"in stage grab \(.*game.toml:\d+\)"):
            game.new_game(players=2, seed=1)
