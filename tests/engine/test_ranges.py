"""Arithmetic that generated code does without a range check, where it knows the operands' ranges
(`ruleskit.lang.ranges`): the same results and the same range errors as the reference backend, at the
edges of every range it assumes."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest
from engine_support import TINY_GAME, first_decision, write_pack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ruleskit
from ruleskit.lang.ranges import PARAM_BOUND, arithmetic, of_values, union
from ruleskit.lang.values import MAX_INT

BACKENDS = ("compiled", "closures")
FUZZ_EXAMPLES = int(os.environ.get("RULESKIT_FUZZ_EXAMPLES", "300")) // 10

# Numbers at the edges of the ranges the generated code assumes, as the language writes them (a number
# written in a pack is at most 2**53).
BIG = "4503599627370496 * 1024"  # 2**62, the language's largest number
EDGES = ["0", "1", "0 - 1", "7", str(PARAM_BOUND - 1), str(PARAM_BOUND), str(PARAM_BOUND + 1), f"0 - {PARAM_BOUND}",
         f"0 - {PARAM_BOUND} - 1", "2147483648", BIG, f"0 - {BIG}", f"{BIG} - 1", "true", "none"]

GAME = TINY_GAME.replace("me.points += double(1)\\nend turn", "set result = EXPR\\nend turn") + """
[vars.result]
type = "int"

[vars.level]
type = "int"
min = -5
max = 9

[vars.big]
type = "int"

[vars.strict]
type = "int"
min = 0
max = 3
above_max = "error"
below_min = "error"

[kinds.tile]
fields = { value = "int", small = "int" }
items.low = { value = 4611686018427387903, small = 2 }
items.high = { value = 4611686018427387904, small = 5 }

[zones.heap]
type = "stack"
of = "tile"
start = ["low", "high"]
"""

RULES = """\
rule shift(a, d) = a + d
rule spread(a, d) = shift(a, d) * 2 - shift(a, 0 - d)
rule scaled(a, b) = a * b
rule flipped(a) = 0 - a
rule picked(a, b) = if a > b then a - b else b - a
rule tiles(t) = t.value + t.small
rule counted(n) = count(heap) * n + n
"""


def pack(tmp_path: Path, expr: str, rules: str = RULES) -> Path:
    return write_pack(tmp_path / "ranges", game=GAME.replace("EXPR", expr), rules=rules)


def agree(root: Path) -> object:
    results = [first_decision(root, backend) for backend in BACKENDS]
    assert results[0] == results[1]
    return results[0]


def test_ranges_of_arithmetic() -> None:
    assert arithmetic(ast.Add(), (0, 6), (1, 1)) == (1, 7)
    assert arithmetic(ast.Sub(), (0, 6), (-1, 3)) == (-3, 7)
    assert arithmetic(ast.Mult(), (-2, 3), (-5, 4)) == (-15, 12)
    assert arithmetic(ast.Add(), (0, MAX_INT), (1, 1)) is None  # may leave the language's range
    assert arithmetic(ast.Add(), (-PARAM_BOUND, PARAM_BOUND), (-PARAM_BOUND, PARAM_BOUND)) is not None
    assert arithmetic(ast.FloorDiv(), (0, 6), (1, 1)) is None
    assert union([(0, 3), (-1, 1)]) == (-1, 3) and union([(0, 3), None]) is None
    assert of_values([3, -2, 7]) == (-2, 7) and of_values([3, True]) is None and of_values([]) is None


def test_arithmetic_on_parameters_in_range_has_no_check(tmp_path: Path) -> None:
    game = ruleskit.load(pack(tmp_path, "spread(3, 4)"), cache=False, backend="compiled")
    spread = [part for part in game.code.split("\n\n") if "def rule_spread_" in part]
    entry_test = f"{PARAM_BOUND} <= L_a <= {PARAM_BOUND}"  # in the general body's function only
    fast = [part for part in spread if entry_test not in part]
    assert spread and all(entry_test in part or "checked(" not in part for part in spread)
    assert len(fast) == 1 and "checked(" not in fast[0] and "type(" not in fast[0]


@pytest.mark.parametrize("call", [
    "shift(3, 4)", f"shift({PARAM_BOUND}, {PARAM_BOUND})", f"shift({BIG}, 0 - 1)", f"shift({BIG}, 1)",
    f"shift({BIG} - 1, 1)", f"shift(0 - {BIG}, 0 - 1)", f"spread({PARAM_BOUND}, {PARAM_BOUND})",
    f"spread({PARAM_BOUND + 1}, 1)", f"scaled({PARAM_BOUND}, {PARAM_BOUND})", f"scaled({PARAM_BOUND}, {PARAM_BOUND} * 2)",
    f"scaled({PARAM_BOUND} * 2, {PARAM_BOUND} * 2)", f"flipped(0 - {BIG})", f"picked({BIG}, 0 - 1)",
    f"picked(0 - 1, {BIG})", "shift(true, 1)", "shift(none, 1)", "flipped(true)",
    "tiles(low)", "tiles(high)", "low.value + 1", "high.value - 1", "low.small + high.small",
    "counted(3)", f"counted({BIG})", f"counted({PARAM_BOUND})", f"count(heap) * {BIG}",
])
def test_results_and_range_errors_agree_with_the_reference(tmp_path: Path, call: str) -> None:
    result = agree(pack(tmp_path, call))
    if call in ("tiles(high)", f"shift({BIG}, 1)", f"counted({BIG})", f"count(heap) * {BIG}"):
        assert "out of range" in str(result), result


COMPARISONS = [">", ">=", "<", "<=", "==", "!="]


@pytest.mark.parametrize("op", COMPARISONS)
@pytest.mark.parametrize("difference", ["count(heap) - 2", "count(heap) - 3", "2 - count(heap)", "low.small - high.small",
                                        "high.small - low.small", "high.small - high.small"])
def test_a_difference_compared_with_nothing_agrees_with_the_reference(tmp_path: Path, difference: str,
                                                                      op: str) -> None:
    # Generated code compares `a - b` with 0 as `a` with `b` when both are ints whose difference has a range.
    result = agree(pack(tmp_path, f"if {difference} {op} 0 then 1 else 0"))
    assert isinstance(result, dict)


def test_a_difference_compared_with_nothing_is_compared_as_its_terms(tmp_path: Path) -> None:
    code = ruleskit.load(pack(tmp_path, "1", RULES + "rule room() = 6 - count(heap) > 0\n"), cache=False,
                         backend="compiled").code
    rule = code.split("# rule room (")[1].split("\n# ")[0]
    assert "6 > " in rule and " - " not in rule


def _expressions() -> st.SearchStrategy[str]:
    leaves = st.sampled_from(["a", "b", "1", "0", "7", "0 - 3", "count(heap)", "low.small", "high.small"])

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.tuples(inner, st.sampled_from(["+", "-", "*"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            inner.map(lambda e: f"(0 - {e})"),
            st.tuples(inner, inner, inner).map(lambda t: f"(if {t[0]} > {t[1]} then {t[1]} else {t[2]})"),
            st.tuples(inner, inner).map(lambda t: f"shift({t[0]}, {t[1]})"),
            st.tuples(inner, inner, st.sampled_from(COMPARISONS)).map(
                lambda t: f"(if {t[0]} - {t[1]} {t[2]} 0 then 1 else 0)"),
        )

    return st.recursive(leaves, extend, max_leaves=8)


@settings(max_examples=FUZZ_EXAMPLES, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=_expressions(), a=st.sampled_from(EDGES), b=st.sampled_from(EDGES))
def test_any_arithmetic_on_parameters_agrees_with_the_reference(tmp_path: Path, body: str, a: str, b: str) -> None:
    rules = RULES + f"rule made(a, b) = {body}\nrule outer(a, b) = made(a + 1, b) - made(b, a)\n"
    agree(pack(tmp_path, f"outer({a}, {b})", rules))


def played(root: Path, backend: str, options: dict[str, object]) -> object:
    """The first decision of a game started with `options`, as JSON, or the error it raised."""
    try:
        state = ruleskit.load(root, backend=backend, cache=False).new_game(players=2, seed=1, options=options)
        state.apply(state.legal_actions()[0])
    except Exception as exc:  # noqa: BLE001 - the error itself is compared
        return f"{type(exc).__name__}: {exc}"
    return state.to_json()


@pytest.mark.parametrize(("expr", "options"), [
    ("level * level - level", {"level": 9}), ("level * level - level", {"level": -5}),
    ("shift(level, level) * 3", {"level": -5}), ("big + 1", {"big": 2**62 - 1}), ("big + 1", {"big": 2**62}),
    ("big * big", {"big": 2**40}), ("big - level", {"big": -(2**62), "level": 1}), ("0 - big", {"big": 2**70}),
    ("me.points + points_of(1)", {}),
])
def test_arithmetic_on_vars_agrees_with_the_reference(tmp_path: Path, expr: str, options: dict[str, object]) -> None:
    # An int var holds an int, within its min..max when it declares both: generated code reads it so.
    root = pack(tmp_path, expr, RULES + "rule points_of(p) = p.points * 2\n")
    results = [played(root, backend, options) for backend in BACKENDS]
    assert results[0] == results[1]
    if options.get("big", 0) > 2**62:  # past the language's range: refused as the game starts
        assert "options.big: should be within" in str(results[0]), results[0]
    elif options.get("big", 0) == 2**62:  # at its edge: the sum goes past it
        assert "out of range" in str(results[0]), results[0]


@pytest.mark.parametrize(("options", "message"), [
    ({"level": 10}, "options.level: should be within -5..9, not 10"),
    ({"level": "3"}, "options.level: should be an integer, not str '3'"),
    ({"big": True}, "options.big: should be an integer, not bool True"),
    (["level"], "options: should be an object, not list"),
    ({"levle": 1}, "unknown option 'levle'"),
])
def test_an_option_that_does_not_fit_its_var_is_refused(tmp_path: Path, options: dict[str, object], message: str) -> None:
    game = ruleskit.load(pack(tmp_path, "1"), cache=False)
    with pytest.raises(ruleskit.PackError, match=message):
        game.new_game(players=2, seed=1, options=options)


@pytest.mark.parametrize(("writes", "options"), [
    ("level += 7", {"level": 5}), ("level += 7", {"level": -5}), ("set level = level - 20", {"level": 0}),
    ("set level = big", {"big": 2**62}), ("big += 1", {"big": 2**62 - 1}), ("big += 1", {"big": 2**62}),
    ("set level = true", {}), ("strict += 3", {"strict": 1}), ("strict -= 2", {"strict": 1}),
    ("strict += 2", {"strict": 1}), ("set strict = count(heap) + 1", {}), ("me.points += level * 2", {"level": 9}),
])
def test_writes_to_vars_keep_them_in_bounds_as_the_reference_does(tmp_path: Path, writes: str,
                                                                   options: dict[str, object]) -> None:
    root = pack(tmp_path, "0\\n" + writes)
    results = [played(root, backend, options) for backend in BACKENDS]
    assert results[0] == results[1]


@pytest.mark.parametrize("expr", ["small() + 1", "small() - 1", "shift(small(), 1)"])
def test_a_rule_that_a_modify_hook_changes_is_given_no_range(tmp_path: Path, expr: str) -> None:
    # `small` gives 3 as written, but the hook makes it the language's largest number: adding one must fail.
    rules = RULES + f"rule small() = 3\nhook huge modify small() = base - 3 + {PARAM_BOUND} * {2**22}\n"
    result = agree(pack(tmp_path, expr, rules))
    assert ("out of range" in str(result)) == (expr != "small() - 1"), result
