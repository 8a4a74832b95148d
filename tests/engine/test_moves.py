"""`move ITEM from A to B` and `draw N from A to B` into a stack, which generated code writes out
(`_move_one`, `_draw_into_stack`): the same data, the same refusals and the same errors as the reference
backend, for every way a move or a draw can go wrong."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from engine_support import TINY_GAME, agreed, first_decision, write_pack

import ruleskit

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hostile"))
from test_bad_packs import cpu_limit  # noqa: E402

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

[zones.cups]
type = "pool"
of = "chip"

[zones.pocket]
type = "stack"
of = "chip"
owner = "stone"
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
    # A player's zone whose owner is known only at run time (a procedure's parameter): written out too.
    "into the stack of a seat given": "put_red(players[1])",
    "into the stacks of seats given, twice": "put_red(me)\\nput_red(players[1])\\nput_red(me)",
    "between the stacks of seats given": "put_red(me)\\npass_on(me, players[1])",
    "from the stack of a seat given that lacks it": "pass_on(players[1], me)",
    "into the stack of none": "put_red(none)",
    "into the stack of a seat out of range": "put_red(7)",
    "into the stack of a negative seat": "put_red(0 - 1)",
    "into the stack of a truth value": "put_red(true)",
    "into the stack of an item": "put_red(red)",
    "into the stack of a list": "put_red([me])",
    "draw into the stack of a seat given": "deal(players[1])",
    "draw into the stack of a seat out of range": "deal(2)",
    "draw into the stack of none": "deal(none)",
    # A zone each item of a kind has, of an item given at run time.
    "into the stack of an item given": "stash(flint)",
    "into and out of the stack of an item given": "stash(flint)\\nstash(flint)\\nunstash(flint)",
    "out of the empty stack of an item given": "unstash(flint)",
    "into the stack of an item of another kind": "stash(red)",
    "into the stack of a seat, which has none": "stash(me)",
    "into the stack of a number": "stash(0 - 5)",
    "into the stack of no item": "stash(none)",
    "draw into the stack of an item given": "draw 2 from pile to flint.pocket",
    # Either of two seats' zones, chosen as the move runs.
    "into one of two seats' stacks": "either(me, players[1], true)\\neither(me, players[1], false)",
    "into the other of a seat and a number": "either(me, 7, false)",
    "out of one of two seats' stacks": "put_red(me)\\neither_src(me, players[1], true)",
    "out of the one of two seats' stacks that lacks it": "put_red(me)\\neither_src(me, players[1], false)",
}

# The procedures those moves call: `p.hand` of a parameter is tested for a seat where it is read.
RULES = """\
rule double(x) = x * 2
proc put_red(p) {
    move red from bag to p.hand
}
proc pass_on(p, q) {
    move first(p.hand) from p.hand to q.hand
}
proc deal(p) {
    draw 1 from pile to p.hand
}
proc stash(s) {
    move red from bag to s.pocket
}
proc unstash(s) {
    move first(s.pocket) from s.pocket to pile
}
proc either(p, q, c) {
    move red from bag to (if c then p.hand else q.hand)
}
proc either_src(p, q, c) {
    move first(p.hand) from (if c then p.hand else q.hand) to pile
}
"""


def pack(tmp_path: Path, effect: str) -> Path:
    return write_pack(tmp_path / "moves", game=GAME.replace("EFFECT", effect), rules=RULES)


@pytest.mark.parametrize("effect", list(EFFECTS.values()), ids=list(EFFECTS))
def test_a_move_agrees_with_the_reference_backend(tmp_path: Path, effect: str) -> None:
    agreed(pack(tmp_path, effect))


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
    assert ".append(" in effect and "check_fill(" in effect  # and move_items only on the long way
    assert effect.index(".append(") < effect.index("move_items(")
    code = ruleskit.load(pack(tmp_path, "draw 1 from pile to tray"), cache=False, backend="compiled").code
    effect = code.split("# action score (")[1].split("\n# ")[0]
    assert ".pop(0)" in effect and "draw_items(" not in effect  # a number written in the pack: no long way
    # `p.hand` of a parameter, a seat or an error at run time, is written out as well.
    for effect, proc in (("put_red(me)", "put_red"), ("pass_on(me, me)", "pass_on"), ("deal(me)", "deal"),
                         ("stash(flint)", "stash"), ("unstash(flint)", "unstash")):
        code = ruleskit.load(pack(tmp_path, effect), cache=False, backend="compiled").code
        body = code.split(f"# proc {proc} (")[1].split("\n# ")[0]
        assert ".append(" in body and "move_items(" not in body.split(".append(")[0], proc


# 2**62, the language's largest number (a number written in a pack is at most 2**53).
GREAT = "4503599627370496 * 1024"

GREAT_COUNTS = {
    "draw a great many into the same stack": (f"draw {GREAT} from pile to pile", "draw 1 from pile to pile"),
    "draw a great many onto the same stack's top": (f"draw {GREAT} from pile to pile top", "draw 0 from pile to pile"),
    "draw a great many from a short stack": (f"draw {GREAT} from pile to open", "draw 3 from pile to open"),
    "move a great many into a stack with room for two": (f"move {GREAT} of red from bag to tray",
                                                          "move 3 of red from bag to tray"),
}


@pytest.mark.parametrize(("effect", "same_as"), list(GREAT_COUNTS.values()), ids=list(GREAT_COUNTS))
def test_a_great_count_ends_at_once_as_a_small_one_would(tmp_path: Path, effect: str, same_as: str) -> None:
    # A pack's count is read for what it does (2**62 draws into the same stack turn it 2**62 % 3 times):
    # nothing loops a great many times.
    with cpu_limit(20):
        for backend in BACKENDS:
            great, small = (first_decision(pack(tmp_path / name, text), backend)
                            for name, text in (("great", effect), ("small", same_as)))
            if isinstance(great, dict) and isinstance(small, dict):
                assert great["data"] == small["data"]
            else:
                assert great == small  # the same refusal


def test_a_stack_holds_no_more_than_its_limit(tmp_path: Path) -> None:
    from ruleskit.runtime.values import MAX_ZONE_ITEMS

    with cpu_limit(20):
        for backend in BACKENDS:
            full = first_decision(pack(tmp_path, f"move {MAX_ZONE_ITEMS} of red from bag to open"), backend)
            assert isinstance(full, dict) and len(full["data"]["z"]["open"]) == MAX_ZONE_ITEMS
            over = first_decision(pack(tmp_path, f"move {MAX_ZONE_ITEMS} of red from bag to open\\n"
                                                 "move red from bag to open"), backend)
            assert f"open cannot hold more than {MAX_ZONE_ITEMS} pieces" in str(over)
            great = first_decision(pack(tmp_path, f"move {GREAT} of red from bag to open"), backend)
            assert f"cannot hold more than {MAX_ZONE_ITEMS} pieces" in str(great)


@pytest.mark.parametrize("held", ["100000", "100001", GREAT])
def test_a_pool_too_full_to_list_is_an_error_where_it_is_listed(tmp_path: Path, held: str) -> None:
    # A pool holds counts, so any number of pieces; listed one by one (`items`, a `for`), at most 100,000.
    from ruleskit.runtime.values import MAX_ZONE_ITEMS

    # (In a loop: as a value, the list made would cost 100,000 steps, and `count` of it 100,000 more.)
    effect = f"move {held} of red from bag to cups\\nfor x in items(cups) {{\\n}}\\nme.points += 0"
    with cpu_limit(20):
        results = [first_decision(pack(tmp_path, effect), backend) for backend in BACKENDS]
    assert results[0] == results[1]
    if held == str(MAX_ZONE_ITEMS):
        assert isinstance(results[0], dict)
    else:
        assert "pieces of 'cups' cannot be listed (a list holds at most 100000) in action score (" in str(results[0])
        assert "game.toml:15: error:" in str(results[0])
