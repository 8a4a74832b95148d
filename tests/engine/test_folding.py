"""Folding known numbers and settled comparisons in generated expressions (`ruleskit.lang.folding`): a folded
expression gives the value, or raises the error, that the expression as generated gives, whatever its locals
hold."""

from __future__ import annotations

import ast
import os
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ruleskit.lang.folding import fold_constants
from ruleskit.lang.values import MAX_INT

FUZZ_EXAMPLES = int(os.environ.get("RULESKIT_FUZZ_EXAMPLES", "300"))
NAMES = ("x", "y", "N1_L_a", "N2_N1_L_b")


class OutOfRange(Exception):
    pass


def checked(value: int) -> int:
    raise OutOfRange(value)


# Lists by position, as generated code finds a zone's content: `D['z'][keys[i]]` is `T[i]` here.
TABLE = {i: list(range(10 * i, 10 * i + i % 5)) for i in range(-2, 10)}


def miss(position: Any) -> str:
    return f"miss {position}"


def evaluate(code: str | ast.expr, names: dict[str, Any]) -> Any:
    tree = ast.Expression(code if isinstance(code, ast.expr) else ast.parse(code, mode="eval").body)
    try:
        return eval(compile(ast.fix_missing_locations(tree), "<folded>", "eval"),  # noqa: S307 - test input
                    {"checked": checked, "miss": miss, "T": TABLE}, dict(names))
    except (OutOfRange, NameError, TypeError, KeyError, IndexError, OverflowError) as exc:
        return type(exc).__name__


def folded(code: str) -> str:
    return ast.unparse(fold_constants(ast.parse(code, mode="eval").body))


def arithmetic(left: str, op: str, right: str, temp: str) -> str:
    """Generated code's sum with its range check."""
    return f"({temp} if {-MAX_INT} <= ({temp} := ({left} {op} {right})) <= {MAX_INT} else checked({temp}))"


def test_a_sum_of_numbers_is_worked_out() -> None:
    assert folded(arithmetic("2", "*", "3", "r_1")) == "6"
    assert folded(arithmetic("0", "-", arithmetic("2", "*", "3", "r_1"), "r_2")) == "-6"


def test_a_sum_out_of_range_keeps_its_check() -> None:
    code = arithmetic(str(2**61), "*", "4", "r_1")
    assert "checked" in folded(code)
    assert evaluate(folded(code), {}) == "OutOfRange"


def test_a_copys_parameter_bound_to_a_number_is_read_as_that_number() -> None:
    code = f"((N1_L_d := {arithmetic('0', '-', '1', 'r_1')}), {arithmetic('x', '+', arithmetic('2', '*', 'N1_L_d', 'r_2'), 'r_3')})[-1]"
    assert "N1_L_d" not in folded(code) and "x + -2" in folded(code)
    assert evaluate(folded(code), {"x": 5}) == evaluate(code, {"x": 5}) == 3


def test_a_copys_parameter_bound_to_a_local_is_read_as_that_local() -> None:
    code = "((N1_L_a := x), (N1_L_b := 2), N1_L_a + N1_L_b)[-1]"
    assert folded(code) == "x + 2"
    assert evaluate(folded(code), {"x": 5}) == evaluate(code, {"x": 5}) == 7


def test_a_parameter_bound_to_a_local_that_changes_is_left_alone() -> None:
    code = "((N1_L_a := x), (x := 3), N1_L_a + x)[-1]"
    assert "N1_L_a" in folded(code)
    assert evaluate(folded(code), {"x": 5}) == evaluate(code, {"x": 5}) == 8


def test_nothing_added_to_an_int_known_to_be_one_is_left_out() -> None:
    marked = ast.parse("x + 0", mode="eval").body
    marked.int_bounds = (0, 6)  # type: ignore[attr-defined]  # as generated code marks a sum of ints in range
    assert ast.unparse(fold_constants(marked)) == "x"
    assert folded("x + 0") == "x + 0"  # unmarked, `x` may be anything: `x + 0` may raise


def test_a_parameter_assigned_twice_is_left_alone() -> None:
    code = "((N1_L_d := 1), (N1_L_d := N1_L_d + x), N1_L_d)[-1]"
    assert "N1_L_d + x" in folded(code)
    assert evaluate(folded(code), {"x": 4}) == 5


def test_a_comparison_settled_by_the_test_around_it_is_left_out() -> None:
    code = "(x if 0 <= x < 7 else y) if x >= 0 and x < 7 else None"
    assert folded(code) == "x if x >= 0 and x < 7 else None"
    assert folded("(x and 0 <= y < len(z)) if y >= 0 else 1") == "x and y < len(z) if y >= 0 else 1"


def test_a_local_assigned_inside_the_test_node_keeps_its_comparisons() -> None:
    code = "((x := x + 10), x if 0 <= x < 7 else 99)[-1] if x >= 0 and x < 7 else 0"
    assert "0 <= x < 7" in folded(code)
    assert evaluate(folded(code), {"x": 3}) == 99


@pytest.mark.parametrize("value", [6, 6.5, 7, 7.5])
def test_bounds_are_reasoned_about_as_numbers_not_as_whole_numbers(value: float) -> None:
    # `x > 6` does not make `x >= 7` hold for 6.5.
    code = "(1 if x >= 7 else 0) if x > 6 else 2"
    assert "x >= 7" in folded(code)
    assert evaluate(folded(code), {"x": value}) == evaluate(code, {"x": value})


def test_a_list_read_again_at_a_position_known_to_be_in_it_is_the_list_read_first() -> None:
    code = "(c_2[x] if x < len((c_2 := T[y])) else miss(x)) if x >= 0 and x < len((c_1 := T[y])) else None"
    assert folded(code) == "c_1[x] if x >= 0 and x < len((c_1 := T[y])) else None"
    for x, y in ((0, 1), (2, 3), (4, 3), (-1, 3), (0, 0)):
        assert evaluate(folded(code), {"x": x, "y": y}) == evaluate(code, {"x": x, "y": y})


@pytest.mark.parametrize("code", [
    # The position may be below zero: its test is not settled.
    "(c_2[x] if x < len((c_2 := T[y])) else miss(x)) if x < len((c_1 := T[y])) else None",
    # Another list.
    "(c_2[x] if x < len((c_2 := T[x])) else miss(x)) if x >= 0 and x < len((c_1 := T[y])) else None",
    # What the read reads is assigned between.
    "((y := y + 1), c_2[x] if x < len((c_2 := T[y])) else miss(x))[-1] if x >= 0 and x < len((c_1 := T[y])) else 0",
    # The first list's local is assigned again.
    "((c_1 := T[0]), c_2[x] if x < len((c_2 := T[y])) else miss(x))[-1] if x >= 0 and x < len((c_1 := T[y])) else 0",
    # The second list's local is read elsewhere too.
    "((c_2[x] if x < len((c_2 := T[y])) else miss(x)), c_2)[-1] if x >= 0 and x < len((c_1 := T[y])) else 0",
])
def test_a_list_read_again_is_kept_where_the_first_read_does_not_settle_it(code: str) -> None:
    assert "miss" in folded(code)


operand = st.one_of(st.sampled_from(NAMES), st.integers(-3, 9).map(str))
contents = st.sampled_from(["c_1", "c_2", "c_3"])
comparison = st.builds(lambda a, op, b, more: f"({a} {op} {b}{more})", operand,
                       st.sampled_from(["<", "<=", ">", ">=", "==", "!="]), operand,
                       st.one_of(st.just(""), st.builds(lambda op, c: f" {op} {c}", st.sampled_from(["<", "<="]),
                                                        operand)))


def expressions() -> st.SearchStrategy[str]:
    def grow(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        temps = st.integers(1, 99).map(lambda n: f"r_{n}")
        return st.one_of(
            st.builds(lambda a, b, c: f"({a} if {b} else {c})", inner, inner, inner),
            st.builds(lambda a, b: f"({a} and {b})", inner, inner),
            st.builds(lambda name, value: f"({name} := {value})", st.sampled_from(NAMES), inner),
            st.builds(lambda a, op, b, t: arithmetic(a, op, b, t), inner, st.sampled_from(["+", "-", "*"]), inner,
                      temps),
            st.builds(lambda a, b: f"({a}, {b})[-1]", inner, inner),
            comparison,
            # A position tested against a list's length, and a list's item read where it is in the list.
            st.builds(lambda n, c, m: f"({n} < len(({c} := T[{m}])))", st.sampled_from(NAMES), contents, operand),
            st.builds(lambda n, c, m: f"({c}[{n}] if {n} < len(({c} := T[{m}])) else miss({n}))",
                      st.sampled_from(NAMES), contents, operand),
        )
    return st.recursive(st.one_of(operand, comparison), grow, max_leaves=12)


values = st.one_of(st.integers(-2, 9), st.sampled_from([6.5, -0.5, 2**61, None]))


@settings(max_examples=FUZZ_EXAMPLES, deadline=None, database=None)
@given(code=expressions(), env=st.fixed_dictionaries({name: values for name in NAMES}))
def test_folding_keeps_what_any_expression_gives(code: str, env: dict[str, Any]) -> None:
    assert evaluate(folded(code), env) == evaluate(code, env), (code, folded(code))


def settled_reads() -> st.SearchStrategy[str]:
    """An item read under a test of the same list's length, often at the same position of the same list,
    with other expressions around it that may assign what it reads."""
    few = st.sampled_from(NAMES[:2])
    item = st.builds(lambda n, c, m: f"({c}[{n}] if {n} < len(({c} := T[{m}])) else miss({n}))",
                     few, contents, st.one_of(few, st.integers(0, 4).map(str)))
    other = expressions()
    body = st.one_of(
        item,
        st.builds(lambda e, i: f"({e}, {i})[-1]", other, item),
        st.builds(lambda i, e: f"({i}, {e})[-1]", item, other),
        st.builds(lambda i, t, e: f"({i} if {t} else {e})", item, other, other),
        st.builds(lambda e, i: f"({e} and {i})", other, item),
    )
    return st.builds(lambda b, n, low, c, m, e: f"({b} if {low}{n} < len(({c} := T[{m}])) else {e})",
                     body, few, st.sampled_from(["", "x >= 0 and ", "y > -1 and ", "x >= 1 and "]), contents,
                     st.one_of(few, st.integers(0, 4).map(str)), other)


@settings(max_examples=FUZZ_EXAMPLES, deadline=None, database=None)
@given(code=settled_reads(), env=st.fixed_dictionaries({name: values for name in NAMES}))
def test_folding_keeps_what_a_list_read_again_gives(code: str, env: dict[str, Any]) -> None:
    assert evaluate(folded(code), env) == evaluate(code, env), (code, folded(code))
