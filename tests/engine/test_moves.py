"""`move ITEM from A to B` and `draw N from A to B` into a stack, which generated code writes out
(`_move_one`, `_draw_into_stack`): the same data, the same refusals and the same errors as the reference
backend, for every way a move or a draw can go wrong."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_support import TINY_GAME, first_decision, write_pack

import ruleskit

BACKENDS = ("compiled", "closures")

GAME = TINY_GAME.replace("me.points += double(1)\\nend turn", "EFFECT\\nend turn") + """
[kinds.chip]
items.red = {}
items.blue = {}
items.green = {}

[kinds.stone]
items.flint = {}

[zones.bag]
type = "pool"
of = "chip"
unlimited = true

[zones.pile]
type = "stack"
of = "chip"
start = ["red", "blue", "red"]

[zones.tray]
type = "stack"
of = "chip"
capacity = 2
start = ["green"]

[zones.deep]
type = "stack"
of = "chip"
capacity = "count(pile) - 2"

[zones.open]
type = "stack"

[zones.mixed]
type = "stack"
start = ["blue", "flint", "red"]

[zones.hand]
type = "stack"
of = "chip"
owner = "player"
capacity = 1
"""

EFFECTS = {
    "from an endless pool": "move red from bag to tray",
    "onto the top": "move blue from bag to tray top",
    "over capacity": "move red from bag to tray\\nmove blue from bag to tray",
    "an item of another kind": "move flint from bag to tray",
    "none": "move none from bag to tray",
    "a number": "move 3 from bag to tray",
    "a list": "move [red, blue] from pile to open",
    "from a stack, its first copy": "move red from pile to open",
    "from a stack that lacks it": "move green from pile to open",
    "within one stack": "move blue from pile to pile",
    "into a stack of anything": "move flint from bag to open",
    "under a worked-out capacity": "move red from pile to deep",
    "into a player's stack, twice": "move red from bag to me.hand\\nmove red from bag to me.hand",
    "into another player's stack": "move blue from pile to players[1].hand",
    "from a player's stack": "move red from bag to me.hand\\nmove red from me.hand to pile top",
    "draw one": "draw 1 from pile to tray",
    "draw two onto the top": "draw 2 from pile to open top",
    "draw more than there are": "draw 5 from pile to open",
    "draw over capacity": "draw 2 from pile to tray",
    "draw a piece of another kind": "draw 2 from mixed to pile",
    "draw a worked-out number": "draw count(pile) - 1 from pile to open",
    "draw a truth value": "draw true from pile to open",
    "draw a negative number": "draw 0 - 1 from pile to open",
    "draw none": "draw none from pile to open",
    "draw from a pool": "draw 1 from bag to open",
    "draw into a player's stack, twice": "draw 1 from pile to me.hand\\ndraw 1 from pile to me.hand",
    "draw from an empty stack": "draw 1 from open to pile",
}


def pack(tmp_path: Path, effect: str) -> Path:
    return write_pack(tmp_path / "moves", game=GAME.replace("EFFECT", effect))


@pytest.mark.parametrize("effect", list(EFFECTS.values()), ids=list(EFFECTS))
def test_a_move_agrees_with_the_reference_backend(tmp_path: Path, effect: str) -> None:
    root = pack(tmp_path, effect)
    results = [first_decision(root, backend) for backend in BACKENDS]
    assert results[0] == results[1]


def test_the_moves_give_what_the_rules_say(tmp_path: Path) -> None:
    def after(effect: str) -> object:
        result = first_decision(pack(tmp_path, effect), "compiled")
        return result if isinstance(result, str) else result["data"]["z"]

    zones = after("move red from pile to open")
    assert zones["pile"] == ["blue", "red"] and zones["open"] == ["red"]
    assert after("move blue from bag to tray top")["tray"] == ["blue", "green"]
    assert after("move red from bag to tray")["tray"] == ["green", "red"]
    assert after("move red from bag to tray\\nmove blue from bag to tray") == "IllegalAction: not allowed: tray is full (capacity 2)"
    assert "is not a chip" in after("move flint from bag to tray")  # type: ignore[operator]
    assert "is not in pile" in after("move green from pile to open")  # type: ignore[operator]
    zones = after("draw 2 from pile to open top")
    assert zones["pile"] == ["red"] and zones["open"] == ["blue", "red"]
    assert after("draw 5 from pile to open")["open"] == ["red", "blue", "red"]
    assert "is not a chip" in after("draw 2 from mixed to pile")  # type: ignore[operator]


def test_a_refused_move_leaves_the_state_as_it_was(tmp_path: Path) -> None:
    root = pack(tmp_path, "move red from bag to tray\\nmove blue from bag to tray")
    state = ruleskit.load(root, cache=False, backend="compiled").new_game(players=2, seed=1)
    before = state.dumps()
    with pytest.raises(ruleskit.IllegalAction):
        state.apply(state.legal_actions()[0])
    assert state.dumps() == before


def test_generated_code_writes_the_move_out(tmp_path: Path) -> None:
    code = ruleskit.load(pack(tmp_path, "move red from pile to tray"), cache=False, backend="compiled").code
    effect = code.split("# action score (")[1].split("\n# ")[0]
    assert ".append(" in effect and "check_room(" in effect  # and move_items only on the long way
    assert effect.index(".append(") < effect.index("move_items(")
    code = ruleskit.load(pack(tmp_path, "draw 1 from pile to tray"), cache=False, backend="compiled").code
    effect = code.split("# action score (")[1].split("\n# ")[0]
    assert ".pop(0)" in effect and "draw_items(" not in effect  # a number written in the pack: no long way
