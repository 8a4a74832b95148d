"""Zones whose pieces take room by a field: the room used and left, whatever other kinds call a field by the
same name."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_support import TINY_GAME, write_pack

import ruleskit

BACKENDS = ("compiled", "closures")

# Goods take room in the hold by `size`; banners have a `size` too, a word, and never go in the hold.
KINDS = """\
[kinds.good]
fields = { size = "int" }
items.crate = { size = 2 }
items.sack = { size = 1 }
items.feather = {}

[kinds.banner]
fields = { size = "str" }
items.flag = { size = "large" }

[zones.hold]
type = "stack"
of = "good"
owner = "player"
capacity = 6
size = "size"

[zones.shelf]
type = "pool"
of = "good"
owner = "player"
capacity = 9
size = "size"
start = { crate = 1, sack = 3, feather = 2 }
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_room_counts_each_piece_by_its_size(tmp_path: Path, backend: str) -> None:
    effect = ("move crate from me.shelf to me.hold\\nmove sack from me.shelf to me.hold\\n"
              "move feather from me.shelf to me.hold\\n"
              "me.points += used(me.hold) * 100 + free(me.hold) * 10 + free(me.shelf)\\nend turn")
    game = KINDS + TINY_GAME.replace("me.points += double(1)\\nend turn", effect).replace("max = 5", "max = 1000")
    root = write_pack(tmp_path / "holds", game=game)
    state = ruleskit.load(root, backend=backend, cache=False).new_game(players=2, seed=1)
    state.apply(state.legal_actions()[0])
    # Hold: crate 2 + sack 1 + feather 0 = 3 used, 3 free; shelf: 2 sacks and a feather = 2 used, 7 free.
    assert state.data["pv"][0]["points"] == 3 * 100 + 3 * 10 + 7


def test_a_full_hold_refuses_a_piece_too_large(tmp_path: Path) -> None:
    effect = ("move crate from me.shelf to me.hold\\nmove 3 of sack from me.shelf to me.hold\\n"
              "move crate from me.shelf to me.hold\\nend turn")
    game = KINDS.replace("start = { crate = 1,", "start = { crate = 2,") + TINY_GAME.replace(
        "me.points += double(1)\\nend turn", effect)
    root = write_pack(tmp_path / "full", game=game)
    state = ruleskit.load(root, cache=False).new_game(players=2, seed=1)
    with pytest.raises(ruleskit.IllegalAction, match="full"):
        state.apply(state.legal_actions()[0])
