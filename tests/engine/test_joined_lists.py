"""Two lists joined (`a + b`) hold both sides' elements: their type is one both share, not the left side's alone;
and a kind's own field named `owner` does not make its items a seat's."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from engine_support import write_pack

import ruleskit
from ruleskit.testing.action_ids import id_mistake

BACKENDS = ["closures", "compiled"]

MANIFEST = 'name = "joined"\nversion = "1"\nplayers = { min = 2, max = 3 }\nfiles = ["game.toml"]\n'

GAME = """\
[kinds.card]
fields = { owner = "int" }
vars.worn = { type = "int", start = 0 }
items.c1 = { owner = 7 }
items.c2 = {}

[kinds.gem]
items.ruby = {}

[zones.hand]
of = "card"
owner = "player"
start = ["c2"]

[stages.main]

[phases.play]
stage = "main"

[flow]
start = "play"
max_turns = 6

[actions.plus]
stage = "main"
params = { x = "items(me.hand) + [ruby]" }
effect = "end turn"

[actions.seats]
stage = "main"
params = { x = "players + [c1]" }
effect = "end turn"

[actions.nones]
stage = "main"
params = { x = "[none] + items(me.hand)" }
effect = "end turn"

[actions.wear]
stage = "main"
params = { x = "card" }
effect = "x.worn += 1\\nend turn"

[scoring]
score = "0"
"""


def game(root: Path, backend: str) -> ruleskit.Game:
    return ruleskit.load(write_pack(root, manifest=MANIFEST, game=GAME, rules=""), backend=backend, cache=False)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_joined_list_is_typed_by_both_sides(tmp_path: Path, backend: str) -> None:
    actions = game(tmp_path, backend).actions
    # Cards and a gem, players and a card: of no one type. A list of nones takes the other side's type.
    assert [actions[name].params[0].type for name in ("plus", "seats", "nones")] == ["any", "any", "card"]


@pytest.mark.parametrize("players", [2, 3])
def test_no_offered_id_is_taken_for_a_mistake(tmp_path: Path, players: int) -> None:
    """A scenario test's refused id is checked against the parameters' types: `plus:ruby`, `seats:c1` and `wear:c1`
    were reported as ids no position offers, while every position offered them."""
    played = game(tmp_path, "compiled")
    state = played.new_game(players=players, seed=1)
    chooser = random.Random(1)
    offered = set()
    while not state.is_terminal:
        actions = state.legal_actions()
        offered |= {action.id for action in actions}
        state.apply(chooser.choice(actions))
    assert {"plus:ruby", "seats:c1", "wear:c1"} <= offered
    assert {action_id: id_mistake(played, action_id, players) for action_id in sorted(offered)} == \
        dict.fromkeys(sorted(offered))


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_item_with_a_field_named_owner_is_in_every_game(tmp_path: Path, backend: str) -> None:
    """Its field is the pack's: the item has its vars in a game of fewer players than the field's number (it had
    none, and wearing it was a KeyError)."""
    state = game(tmp_path, backend).new_game(players=2, seed=1)
    state.apply("wear:c1")
    assert state.raw["ev"]["c1"] == {"worn": 1}
