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


POOL_READS = {
    "a kind's count": "move flint from bag to me.cart\\nsay count(me.cart, flint)\\nsay count(me.cart, slate)",
    "the count of none": "move flint from bag to me.cart\\nsay count(me.cart, none)",
    "the count of a list": "say count(me.cart, [flint])",
    "the count of a number": "say count(me.cart, 3)",
    "what a list lacks": "move flint from bag to me.cart\\nsay missing(me.cart, [slate, flint, flint])",
    "what an empty list lacks": "move flint from bag to me.cart\\nsay missing(me.cart, [])",
    "what a list lacks of an empty pool": "say missing(me.cart, [flint, 3, none])",
    "what a zone lacks": "move flint from bag to me.cart\\nsay missing(me.cart, pile)",
    "a list in the list": "move flint from bag to me.cart\\nsay missing(me.cart, [flint, [slate]])",
    "a number for the list": "say missing(me.cart, 3)",
}


def _run_both(root: Path) -> list[tuple[object, ...]]:
    results = []
    for backend in ("compiled", "closures"):
        state = ruleskit.load(root, backend=backend, cache=False).new_game(players=2, seed=1)
        before = state.work
        try:
            state.apply(state.legal_actions()[0])
            results.append((state.work - before, state.messages))
        except Exception as exc:  # noqa: BLE001 - the error itself is compared
            results.append((state.work - before, f"{type(exc).__name__}: {exc}"))
    return results


@pytest.mark.parametrize("effect", list(POOL_READS.values()), ids=list(POOL_READS))
def test_a_pools_counts_read_at_once_agree_with_the_reference_backend(tmp_path: Path, effect: str) -> None:
    # `count(pool, item)` and `missing(pool, list)` of a pool the code names are read from its table of counts
    # (`pool_amount`, `pool_missing`): the same results, steps and errors as the builtins.
    root = pack(tmp_path, effect)
    compiled, closures = _run_both(root)
    assert compiled == closures
    if effect == POOL_READS["a kind's count"]:
        assert compiled[1] == ["1", "0"]
    if effect == POOL_READS["what a list lacks"]:
        assert compiled[1] == ["slate, flint"]
    if effect == POOL_READS["a list in the list"]:
        assert "missing() cannot take (cart@0, flint, slate) in " in str(compiled[1])
    if effect == POOL_READS["the count of a list"]:
        assert "count() cannot take (cart@0, flint) in " in str(compiled[1])
    code = ruleskit.load(root, cache=False, backend="compiled").code
    assert "pool_amount(ctx, " in code or "pool_missing(ctx, " in code


def test_a_pool_too_full_to_list_is_refused_by_missing_as_by_the_builtin(tmp_path: Path) -> None:
    game = SIZED.replace('[zones.odd]', '[zones.heap]\ntype = "pool"\nof = "chip"\nstart = { red = 100001 }\n\n'
                         '[zones.odd]').replace("EFFECT", "say missing(heap, [red])")
    root = write_pack(tmp_path / "heap", game=game)
    compiled, closures = _run_both(root)
    assert compiled == closures
    assert "the 100001 pieces of 'heap' cannot be listed" in str(compiled[1])
    assert "pool_missing(ctx, " in ruleskit.load(root, cache=False, backend="compiled").code
