"""`any` and `all` of a list built over a kind's items stop at the first element that settles them, in
generated code, when no element can raise or count a step: the same answers, the same steps and the
same budget errors as the reference backend, which builds the whole list."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from engine_support import first_decision, play_random, write_pack

import ruleskit

BACKENDS = ("compiled", "closures")

GAME = """\
[kinds.pile]
fields = { number = "int" }
items.a = { number = 0 }
items.b = { number = 1 }
items.c = { number = 2 }

[kinds.chip]
per_player = true

[zones.supply]
type = "pool"
of = "chip"
unlimited = true

[zones.chips]
type = "stack"
of = "chip"
owner = "pile"
capacity = 3

[kinds.card]
fields = { rank = "int" }
items.one = { rank = 1 }
items.two = { rank = 2 }
items.three = { rank = 3 }
items.four = { rank = 4 }
items.five = { rank = 5 }
items.six = { rank = 6 }

[zones.deck]
type = "stack"
of = "card"
start = ["one", "two", "three", "four", "five", "six"]

[zones.hand]
type = "stack"
of = "card"
owner = "player"

[counters.seen]
owner = "player"
max = 1000000000

[stages.main]

[phases.play]
stage = "main"

[flow]
start = "play"
setup = "shuffle deck\\nfor p in players { draw 2 from deck to p.hand }"

[actions.put]
stage = "main"
params = { p = "pile" }
require = [{ check = "free(p.chips) > 0", message = "full" }]
effect = "EFFECT"

[end.full]
when = "all([free(c.chips) == 0 for c in pile])"
reason = "every pile is full"

[scoring]
score = "p.seen"
"""

RULES = """\
rule any_empty() = any([count(c.chips) == 0 for c in pile])
rule all_low() = all([count(c.chips) < 2 or c.number == 2 for c in pile])
rule holds(p, r) = any([c.rank == r for c in items(p.hand)])
rule all_above(p) = all([c.rank > 1 for c in items(p.hand)])
rule tally() = (if any_empty() then 1 else 0) + (if all_low() then 2 else 0) + (if holds(me, 3) then 4 else 0)
    + (if all_above(me) then 8 else 0)
rule divided() = all([6 // count(c.chips) > 1 for c in pile])
"""

PLAY = ("move me.chip from supply to p.chips\\nme.seen += tally()\\n"
        "if count(deck) > 0 and count(me.hand) < 3 { draw 1 from deck to me.hand }\\nend turn")


def pack(tmp_path: Path, effect: str = PLAY, rules: str = RULES) -> Path:
    return write_pack(tmp_path / "piles", game=GAME.replace("EFFECT", effect), rules=rules)


def test_any_and_all_over_quiet_elements_stop_early_and_others_do_not(tmp_path: Path) -> None:
    code = ruleskit.load(pack(tmp_path), cache=False, backend="compiled").code
    # The end condition, any_empty and all_low stop early, and so do holds and all_above over a hand of
    # cards (each a loop in its function, its steps charged first: three times, as each rule has a body
    # for a seat too, and a function of that body alone); divided may divide by zero: its list is built whole.
    assert code.count("ctx.steps + 6 <= ctx.budget") == 3 and "charge_at_once(ctx, 6)" not in code
    assert code.count("ctx.steps + 2 * len(") == 6 and "charged_twice(ctx, " not in code
    divided = code[code.index("def rule_divided"):].split("\n\n")[0]
    assert "ctx.steps + 6" not in divided and "list_all" in divided


def test_a_fixed_field_of_a_local_that_surely_holds_an_item_is_one_lookup(tmp_path: Path) -> None:
    code = ruleskit.load(pack(tmp_path), cache=False, backend="compiled").code
    # A hand holds only cards, and every card has a rank: the loop's variable reads it from a table of the
    # ranks, and the loop still stops early (a lookup that cannot fail is quiet).
    holds = code[code.index("def rule_holds"):].split("\n\n")[0]
    assert re.search(r"if rank_\d+\[L_c\] == L_r:", holds) and "ITEMS.get(L_c)" not in holds
    assert "ctx.steps + 2 * len(" in holds


@pytest.mark.parametrize("seed", range(6))
def test_games_agree_with_the_reference(tmp_path: Path, seed: int) -> None:
    root = pack(tmp_path)
    states = [play_random(ruleskit.load(root, cache=False, backend=b), 2, seed) for b in BACKENDS]
    assert states[0].to_json() == states[1].to_json()
    assert states[0].result is not None and states[0].result["reason"] == "every pile is full"


@pytest.mark.parametrize("spent", range(27))
def test_the_budget_runs_out_at_the_same_place(tmp_path: Path, spent: int) -> None:
    # A round of the inner loop takes 27 steps, 20 of them charged by the four lists at once; `spent`
    # statements first move where in a round the budget runs out: in any list's charge, or elsewhere.
    before = "".join("let w = 0\\n" for _ in range(spent))
    effect = before + "for i in range(10000) {\\n    for j in range(10) {\\n        let x = tally()\\n    }\\n}\\nend turn"
    root = pack(tmp_path, effect)
    messages = [first_decision(root, backend) for backend in BACKENDS]
    assert messages[0] == messages[1]
    assert "step budget of 200000 exceeded" in messages[0]


def test_an_element_that_raises_raises_as_the_reference_does(tmp_path: Path) -> None:
    root = pack(tmp_path, "me.seen += if divided() then 1 else 0\\nend turn")
    messages = [first_decision(root, backend) for backend in BACKENDS]
    assert messages[0] == messages[1]
    assert "zero" in messages[0].lower()
