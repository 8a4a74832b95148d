"""`any` and `all` of a comprehension at the top of a rule's value or of a condition, which generated code
writes as a `for` loop in the function itself (`codegen._with_loops`): the same values, steps and errors as
the reference backend, and the loop's variable never changes a name of the same spelling around it."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_support import TINY_RULES, agreed, first_decision, write_pack
from test_moves import GAME

import ruleskit

RULES = TINY_RULES + """
rule red_in_pile() = any([c == red for c in items(pile)])
rule all_red_in_pile() = all([c == red for c in items(pile)])
rule green_in_pile() = any([c == green for c in items(pile)])
rule none_green() = all([c != green for c in items(pile)])
rule some_chip_is(x) = any([c == x for c in chip])
rule every_chip_is_not(x) = all([c != x for c in chip])
rule any_in_empty() = any([c == red for c in items(open)])
rule all_in_empty() = all([c == red for c in items(open)])
rule clash(c) = if any([c == red for c in chip]) then c else none
"""

EFFECTS = {
    "values": "me.points += (if red_in_pile then 1 else 0) + (if all_red_in_pile then 2 else 0)",
    "values the other way": "me.points += (if green_in_pile then 1 else 0) + (if none_green then 2 else 0)",
    "over a kind's items": "me.points += (if some_chip_is(blue) then 1 else 0) + (if every_chip_is_not(flint) then 2 else 0)",
    "a value that is no item": "me.points += if some_chip_is(3) then 1 else 0",
    "an empty list": "me.points += (if any_in_empty then 1 else 0) + (if all_in_empty then 2 else 0)",
    "a name of the same spelling": "me.points += if clash(blue) == blue then 3 else 0",
    "until the budget runs out": "for i in range(0, 10000) {\\n for j in range(0, 30) {\\n let h = red_in_pile\\n }\\n}",
    "until the budget runs out over a kind":
        "for i in range(0, 10000) {\\n for j in range(0, 30) {\\n let h = every_chip_is_not(flint)\\n }\\n}",
}


def pack(tmp_path: Path, effect: str) -> Path:
    return write_pack(tmp_path / "loops", game=GAME.replace("EFFECT", effect), rules=RULES)


@pytest.mark.parametrize("effect", list(EFFECTS.values()), ids=list(EFFECTS))
def test_a_loop_agrees_with_the_reference_backend(tmp_path: Path, effect: str) -> None:
    agreed(pack(tmp_path, effect))


def test_the_loops_give_what_the_rules_say(tmp_path: Path) -> None:
    def points(effect: str) -> object:
        result = first_decision(pack(tmp_path, effect), "compiled")
        return result if isinstance(result, str) else result["data"]["pv"][0]["points"]

    assert points(EFFECTS["values"]) == 1  # the pile holds red, blue, red
    assert points(EFFECTS["values the other way"]) == 2
    assert points(EFFECTS["over a kind's items"]) == 3
    assert points(EFFECTS["a value that is no item"]) == 0
    assert points(EFFECTS["an empty list"]) == 2
    # Inside the comprehension `c` is each chip (red among them), so clash(blue) is its own parameter, blue.
    assert points(EFFECTS["a name of the same spelling"]) == 3
    assert "step budget of 200000 exceeded" in str(points(EFFECTS["until the budget runs out"]))


def test_generated_code_loops_in_the_function(tmp_path: Path) -> None:
    code = ruleskit.load(pack(tmp_path, EFFECTS["values"]), cache=False, backend="compiled").code
    rule = code.split("# rule red_in_pile (")[1].split("\n# ")[0]
    assert "for L_c in " in rule and "any((" not in rule  # the builtin on a generator: none
    # A rule whose parameter has the loop's name keeps the builtin: the loop would change the parameter.
    clash = code.split("# rule clash (")[1].split("\n# ")[0]
    assert "any((" in clash
    envoys = ruleskit.load("envoys", cache=False, backend="compiled").code
    holds = envoys.split("# rule holds (")[1].split("\n# ")[0]
    assert "for L_c in " in holds and "charged_twice(" not in holds
