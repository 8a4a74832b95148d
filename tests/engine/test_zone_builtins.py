"""`free(zone)` and `items(zone)` of a zone the code names that is not a plain stack (a pool, pieces with
sizes, a capacity worked out by pack code), which generated code reads straight from the runtime
(`zone_room`, `zone_pieces`): the same values and errors as the reference backend."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_support import agreed, first_decision, line_of, write_pack
from test_moves import GAME

import ruleskit

SIZED = GAME.replace("[kinds.stone]\nitems.flint = {}", "[kinds.stone]\nfields = { size = \"int\" }\n"
                     "items.flint = { size = 2 }\nitems.slate = { size = 3 }") + """
[counters.holds]
owner = "player"
start = 4
max = 9

[zones.cart]
type = "pool"
of = "stone"
owner = "player"
capacity = "me.holds"
size = "size"

[zones.odd]
type = "pool"
of = "chip"
capacity = "if count(pile) > 2 then 3 else \\"many\\""
"""

EFFECTS = {
    "room in an empty cart": "me.points += free(me.cart)",
    "room after a piece": "move flint from bag to me.cart\\nme.points += free(me.cart)",
    "room by its owner's counter": "set players[1].holds = 5\\nme.points += free(players[1].cart)",
    "pieces of a pool": "move flint from bag to me.cart\\nme.points += count(items(me.cart))",
    "pieces by their sizes": "move flint from bag to me.cart\\nme.points += sum([s.size for s in items(me.cart)])",
    "a capacity that is a number": "me.points += free(odd)",
    "a capacity that is not a number": "draw 1 from pile to open\\nme.points += free(odd)",
    "the pieces of a pool of chips": "move 2 of red from bag to cups\\nme.points += count(items(cups))",
    "a move into a zone whose capacity is not a number": "draw 1 from pile to open\\nmove red from bag to odd",
}


def pack(tmp_path: Path, effect: str) -> Path:
    return write_pack(tmp_path / "zones", game=SIZED.replace("EFFECT", effect))


@pytest.mark.parametrize("effect", list(EFFECTS.values()), ids=list(EFFECTS))
def test_a_zone_builtin_agrees_with_the_reference_backend(tmp_path: Path, effect: str) -> None:
    agreed(pack(tmp_path, effect))


def test_the_zone_builtins_give_what_the_rules_say(tmp_path: Path) -> None:
    def points(effect: str) -> object:
        result = first_decision(pack(tmp_path, effect), "compiled")
        return result if isinstance(result, str) else result["data"]["pv"][0]["points"]

    assert points(EFFECTS["room in an empty cart"]) == 4
    assert points(EFFECTS["room after a piece"]) == 2  # flint takes two of the four places
    assert points(EFFECTS["room by its owner's counter"]) == 5  # the capacity reads the cart's owner
    assert points(EFFECTS["pieces of a pool"]) == 1
    assert points(EFFECTS["a capacity that is a number"]) == 3
    refused = str(points(EFFECTS["a capacity that is not a number"]))
    assert refused.startswith("ProgramError: ") and "game.toml:" in refused
    assert "capacity of zone odd (" in refused and "should give a number, not many" in refused
    # A move checks the room the same way: before, the capacity's ValueError escaped `apply`.
    assert points(EFFECTS["a move into a zone whose capacity is not a number"]) == refused
    assert points(EFFECTS["the pieces of a pool of chips"]) == 2
    code = ruleskit.load(pack(tmp_path, EFFECTS["room after a piece"]), cache=False, backend="compiled").code
    assert "zone_room(ctx, " in code and "call_builtin1" not in code.split("# action score (")[1].split("\n# ")[0]


@pytest.mark.parametrize("capacity", ["free(odd)", "count(odd) + free(odd)"])
@pytest.mark.parametrize("effect", ["move red from bag to odd", "me.points += free(odd)"])
def test_a_capacity_that_asks_for_its_own_room_stops_at_the_nesting_limit(tmp_path: Path, capacity: str,
                                                                          effect: str) -> None:
    # Before, it recursed until Python's own limit, and the error named no file or line.
    game = SIZED.replace('capacity = "if count(pile) > 2 then 3 else \\"many\\""', f'capacity = "{capacity}"')
    root = write_pack(tmp_path / "own", game=game.replace("EFFECT", effect))
    result = agreed(root)
    line = line_of(root / "game.toml", f'capacity = "{capacity}"')
    assert result.startswith("BudgetExceeded: ") and "nesting limit of 48 calls exceeded in capacity of zone odd (" \
        in result and f"game.toml:{line}: error:" in result


def _work_and_points(root: Path) -> tuple[int, object]:
    state = ruleskit.load(root, backend="compiled", cache=False).new_game(players=2, seed=1)
    before = state.work
    state.apply(state.legal_actions()[0])
    return state.work - before, state.raw["pv"][0]["points"]


@pytest.mark.parametrize("before", ["", "move flint from bag to me.cart\\n", "move slate from bag to players[1].cart\\n"])
@pytest.mark.parametrize("owner", ["me", "players[1]"])
def test_free_counts_the_steps_of_its_capacity_and_of_the_pieces_read(tmp_path: Path, before: str,
                                                                       owner: str) -> None:
    # `free` works out a player's capacity and a sized pool's room itself; `capacity` and `used` go the general
    # way (and both backends share them): the same room, and the same steps.
    by_free = _work_and_points(pack(tmp_path / "free", f"{before}me.points += free({owner}.cart)"))
    by_parts = _work_and_points(pack(tmp_path / "parts",
                                     f"{before}me.points += capacity({owner}.cart) - used({owner}.cart)"))
    assert by_free == by_parts


CART_CAPACITY = 'capacity = "me.holds"'


@pytest.mark.parametrize(("capacity", "expected"), [
    ("if me.holds > 2 then true else 7", 1),  # a truth value counts as 0 or 1
    ("if me.holds > 2 then \\\"many\\\" else 1", "capacity of zone cart ("),
    ("free(me.cart)", "nesting limit of 48 calls exceeded in capacity of zone cart ("),
])
def test_a_players_capacity_worked_out_by_free_is_checked_as_any_other(tmp_path: Path, capacity: str,
                                                                       expected: object) -> None:
    game = SIZED.replace(CART_CAPACITY, f'capacity = "{capacity}"').replace("EFFECT", "me.points += free(me.cart)")
    root = write_pack(tmp_path / "cart", game=game)
    result = agreed(root)
    if isinstance(expected, int):
        assert result["data"]["pv"][0]["points"] == expected
        return
    line = line_of(root / "game.toml", f'capacity = "{capacity}"')
    assert isinstance(result, str) and expected in result and f"game.toml:{line}" in result
    if "nesting" not in str(expected):
        assert result.startswith("ProgramError: ") and "should give a number, not many" in result
