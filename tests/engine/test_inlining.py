"""Small rules written into the rules that call them (generated code): the same results, the same steps
and the same budget and nesting errors as the calls they replace, checked against the reference backend."""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Any

import pytest
from engine_support import TINY_GAME, first_decision, play_random, write_pack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ruleskit
from ruleskit.lang.inlining import MAX_INLINED_DEPTH, take_counts

BACKENDS = ("compiled", "closures")

# `top` calls `mid` and `leaf`, which are plain expressions: `top` evaluates them in place. `listed`
# builds a list, which charges a step per element: it stays a call, but takes `leaf` in.
RULES = """\
rule leaf(a) = a + 1
rule mid(a) = leaf(a) + leaf(a + 1) * 2
rule top(a) = if a > 0 then mid(a) else leaf(a) - mid(a - 1)
rule listed(n) = count([x for x in range(n)]) + leaf(n)
"""


def chain(length: int) -> str:
    """Rules r0 .. r{length - 1}, each calling the one before and adding one."""
    return "rule r0(a) = a + 1\n" + "".join(f"rule r{i}(a) = r{i - 1}(a) + 1\n" for i in range(1, length))


def pack_with(tmp_path: Path, effect: str, rules: str = RULES) -> Path:
    game = TINY_GAME.replace("me.points += double(1)\\nend turn", effect).replace("max = 5", "max = 1000000000")
    return write_pack(tmp_path / "inlined", game=game, rules=rules)


def spinning(spent: int) -> str:
    """An effect that takes `spent` steps, then calls `top` until the budget runs out."""
    before = "".join("let w = 0\\n" for _ in range(spent))
    return before + "for i in range(10000) {\\n    for j in range(10) {\\n        let x = top(j % 2)\\n    }\\n}\\nend turn"


def test_the_generated_code_writes_small_rules_in_place(tmp_path: Path) -> None:
    root = pack_with(tmp_path, "me.points += top(3)\\nend turn")
    game = ruleskit.load(root, cache=False, backend="compiled")
    emitted = game.code
    assert "inlined_steps" in emitted
    state = game.new_game(players=2, seed=1)
    state.apply(state.legal_actions()[0])
    assert state.data["pv"][0]["points"] == (3 + 1) + (4 + 1) * 2


@pytest.mark.parametrize("call", ["top(3)", "top(0)", "top(-2)", "listed(5)", "top(true)", "top(none)",
                                  "mid(4503599627370496 * 512)", "listed(0) + top(1)"])
def test_results_and_errors_agree_with_the_reference(tmp_path: Path, call: str) -> None:
    root = pack_with(tmp_path, f"me.points += {call}\\nend turn")
    assert first_decision(root, "compiled") == first_decision(root, "closures")


def test_a_body_too_deep_to_fold_stays_calls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ruleskit.lang import inlining

    def too_deep(expr: Any) -> Any:
        raise RecursionError

    monkeypatch.setattr(inlining, "fold_constants", too_deep)
    root = pack_with(tmp_path, "me.points += far(2)\\nend turn", rules=FOLDED_RULES)
    game = ruleskit.load(root, cache=False, backend="compiled")
    assert "inlined_steps" not in game.code
    monkeypatch.undo()
    assert first_decision(root, "compiled") == first_decision(root, "closures")


DIVIDING_RULES = """\
rule div(a, b) = a // b
rule rem(a, b) = a % b
rule both(a) = div(a, 3) * 10 + rem(a, 3)
"""


@pytest.mark.parametrize("call", ["both(7) + both(-7)", "div(7, -2) + rem(7, -3)", "div(7, 0)", "rem(7, 0)",
                                  "rem(true, 2)", "div(2, none)", "div(4503599627370496 * 1024, -1) // 4"])
def test_division_and_remainder_give_the_reference_results_and_errors(tmp_path: Path, call: str) -> None:
    root = pack_with(tmp_path, f"me.points += {call}\\nend turn", rules=DIVIDING_RULES)
    results = [first_decision(root, backend) for backend in BACKENDS]
    assert results[0] == results[1]
    assert ("division by zero" in str(results[0])) == call.endswith(", 0)")


@pytest.mark.parametrize("call", ["seat(me) + 1", "seat(1)", "seat(true)", "seat(none)", "seat(\\\"x\\\")"])
def test_a_players_index_read_from_an_untyped_parameter_agrees_with_the_reference(tmp_path: Path, call: str) -> None:
    root = pack_with(tmp_path, f"me.points += {call}\\nend turn", rules="rule seat(p) = p.index\n")
    assert first_decision(root, "compiled") == first_decision(root, "closures")


# `shift` gets numbers from `far` and `tilted`: the arithmetic on them is known when the code is generated.
FOLDED_RULES = """\
rule shift(a, d) = a + 2 * d + (0 - d)
rule tilted(a, d) = shift(a, 0 - d) * shift(a, d)
rule far(a) = tilted(a, 3) + shift(a, 1000)
rule wide(a) = shift(a, 4503599627370496)
rule huge(a) = shift(a, 4503599627370496 * 1024)
"""


def test_arithmetic_on_numbers_given_to_a_copy_is_worked_out_when_the_code_is_generated(tmp_path: Path) -> None:
    root = pack_with(tmp_path, "me.points += far(2)\\nend turn", rules=FOLDED_RULES)
    game = ruleskit.load(root, cache=False, backend="compiled")
    far = game.code.split("def rule_far_")[1].split("\ndef ")[0]
    inlined = far.split("inlined_steps = ")[1].split("finally")[0]
    assert "2 * 3" not in inlined and "0 - 3" not in inlined and "2 * -3" not in inlined  # folded
    assert "L_a + 6" in inlined and "L_a + -6" in inlined  # `a + 2 * d` for d = 3 and d = -3
    state = game.new_game(players=2, seed=1)
    state.apply(state.legal_actions()[0])
    shift = lambda a, d: a + 2 * d - d  # noqa: E731 - the rule, in Python
    assert state.data["pv"][0]["points"] == shift(2, -3) * shift(2, 3) + shift(2, 1000)


@pytest.mark.parametrize("call", ["far(2)", "far(-7)", "wide(3) - wide(2)", "huge(1)", "tilted(4503599627370496 * 1024, 1)"])
def test_folded_arithmetic_gives_the_reference_results_and_range_errors(tmp_path: Path, call: str) -> None:
    # `huge` doubles a number past the language's range: the error is raised at run time, where it was.
    root = pack_with(tmp_path, f"me.points += {call}\\nend turn", rules=FOLDED_RULES)
    results = [first_decision(root, backend) for backend in BACKENDS]
    assert results[0] == results[1]
    if call == "huge(1)":
        assert "out of range" in str(results[0]) or "too large" in str(results[0]), results[0]


@pytest.mark.parametrize("spent", range(13))
def test_the_budget_runs_out_at_the_same_place(tmp_path: Path, spent: int) -> None:
    # Two rounds take 13 steps (4 or 5 inside `top`); `spent` statements before the loop move where in a
    # round the budget runs out: at the loop, at `top`, or at one of the calls it writes in place.
    root = pack_with(tmp_path, spinning(spent))
    messages = [first_decision(root, backend) for backend in BACKENDS]
    assert messages[0] == messages[1]
    assert "step budget of 200000 exceeded" in messages[0]


@pytest.mark.parametrize("spent", range(16))
def test_the_budget_runs_out_at_the_same_place_in_a_caller_that_counts_steps_of_its_own(
        tmp_path: Path, spent: int) -> None:
    # `listed` counts its list's elements itself and takes `leaf` in: with `leaf`'s step held back until
    # `listed` ended, the budget could run out in the list's count without the error the call makes, and
    # the compiled code ended a step past the budget where the reference stopped in `leaf`.
    before = "".join("let w = 0\\n" for _ in range(spent))
    effect = before + "for i in range(10000) {\\n    for j in range(10) {\\n        let x = listed(3)\\n    }\\n}\\nend turn"
    root = pack_with(tmp_path, effect)
    messages = [first_decision(root, backend) for backend in BACKENDS]
    assert messages[0] == messages[1]
    assert "step budget of 200000 exceeded" in messages[0]


def test_a_caller_that_counts_steps_of_its_own_meets_the_budget_in_every_place(tmp_path: Path) -> None:
    places = set()
    for spent in range(16):
        before = "".join("let w = 0\\n" for _ in range(spent))
        root = pack_with(tmp_path, before + "for i in range(10000) {\\n    for j in range(10) {\\n        let x = listed(3)\\n    }\\n}\\nend turn")
        places.add(first_decision(root, "compiled").split(" exceeded in ")[1].split(" (")[0])
    assert {"rule leaf", "rule listed"} <= places


def test_the_places_the_budget_runs_out_cover_the_rules_written_in_place(tmp_path: Path) -> None:
    places = set()
    for spent in range(13):
        root = pack_with(tmp_path, spinning(spent))
        message = first_decision(root, "compiled")
        places.add(message.split(" exceeded in ")[1].split(" (")[0])
    assert {"rule leaf", "rule mid"} <= places  # the error comes from inside what is inlined


@pytest.mark.parametrize("length", range(44, 51))
def test_the_nesting_limit_is_met_at_the_same_call(tmp_path: Path, length: int) -> None:
    # Rules nest `length` deep: near the limit a caller's inlined rules must give way to the calls, so that
    # the error names the same rule and the same callers.
    root = pack_with(tmp_path, f"me.points += r{length - 1}(0)\\nend turn", rules=chain(length))
    messages = [first_decision(root, backend) for backend in BACKENDS]
    assert messages[0] == messages[1]
    assert ("nesting limit of 48 calls exceeded" in str(messages[0])) == (length > 48)


def test_deep_chains_of_small_rules_stay_calls_past_the_inlining_depth(tmp_path: Path) -> None:
    root = pack_with(tmp_path, "me.points += r11(0)\\nend turn", rules=chain(12))
    emitted = ruleskit.load(root, cache=False, backend="compiled").code
    def code_of(rule: str) -> str:
        return emitted.split(f"# rule {rule} (")[1].split("\n# ")[0]

    assert MAX_INLINED_DEPTH < 11
    assert "inlined_steps" in code_of("r4") and "I_r3(ctx" not in code_of("r4").split("else:")[0]
    assert "I_r10(ctx" in code_of("r11")  # too deep to take r0 .. r10 in: r10 stays a call
    state = ruleskit.load(root, cache=False).new_game(players=2, seed=1)
    state.apply(state.legal_actions()[0])
    assert state.data["pv"][0]["points"] == 12


@pytest.mark.parametrize("seed", range(3))
def test_connect_four_plays_the_same_games(seed: int) -> None:
    # Connect Four's four-in-a-row test is rules calling rules: the compiled backend inlines them.
    games = [ruleskit.load("connect_four", backend=backend) for backend in BACKENDS]
    finals = [play_random(game, 2, seed).dumps() for game in games]
    assert finals[0] == finals[1]


@pytest.mark.parametrize("name", [f"b_{n}" for n in range(1, 16)] + ["a_1", "a_2"])
def test_a_callers_locals_are_not_the_copies_locals(tmp_path: Path, name: str) -> None:
    # The copies' locals are renamed per copy: whatever the caller's own parameters are called, a copy
    # never writes one of them.
    rules = f"rule inc(a) = a + 1\nrule twice(b) = inc(b) * 2\nrule outer({name}, y) = twice(y + 1) + {name} * 1000\n"
    root = pack_with(tmp_path, "me.points += outer(7, 1)\\nend turn", rules=rules)
    assert first_decision(root, "compiled") == first_decision(root, "closures")
    state = ruleskit.load(root, cache=False).new_game(players=2, seed=1)
    state.apply(state.legal_actions()[0])
    assert state.data["pv"][0]["points"] == (1 + 1 + 1) * 2 + 7000


# Random programs of small rules, each calling earlier ones, run under both backends: the same values,
# the same errors (type errors, overflow, none), and the budget running out at the same place.
FUZZ_EXAMPLES = max(8, int(os.environ.get("RULESKIT_FUZZ_EXAMPLES", "150")) // 6)


def expressions(params: list[str], callees: list[tuple[str, int]]) -> st.SearchStrategy[str]:
    leaves = st.one_of(st.integers(-3, 9).map(str), st.sampled_from(params), st.just("9007199254740992"))

    def grow(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        options = [
            st.tuples(inner, st.sampled_from(["+", "-", "*", "//", "%"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            st.tuples(inner, st.sampled_from(["<", "==", ">="]), inner, inner, inner).map(
                lambda t: f"(if {t[0]} {t[1]} {t[2]} then {t[3]} else {t[4]})"),
        ]
        if callees:
            options.append(st.sampled_from(callees).flatmap(
                lambda c: st.lists(inner, min_size=c[1], max_size=c[1]).map(
                    lambda args, name=c[0]: f"{name}({', '.join(args)})")))
        return st.one_of(*options)

    return st.recursive(leaves, grow, max_leaves=8)


@st.composite
def programs(draw: st.DrawFn) -> str:
    rules: list[tuple[str, int]] = []
    lines = []
    for index in range(draw(st.integers(2, 5))):
        arity = draw(st.integers(1, 2))
        params = ["a", "b"][:arity]
        body = draw(expressions(params, list(rules)))
        name = f"f{index}"
        lines.append(f"rule {name}({', '.join(params)}) = {body}")
        rules.append((name, arity))
    return "\n".join(lines) + "\n"


@settings(max_examples=FUZZ_EXAMPLES, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(program=programs(), spent=st.integers(0, 12), spin=st.booleans())
def test_random_programs_agree_with_the_reference(tmp_path_factory: pytest.TempPathFactory, program: str,
                                                  spent: int, spin: bool) -> None:
    last = program.strip().splitlines()[-1].split("(")[0].removeprefix("rule ")
    arity = program.strip().splitlines()[-1].split("(")[1].split(")")[0].count(",") + 1
    call = f"{last}({', '.join(['j', 'i % 5'][:arity])})"
    before = "".join("let w = 0\\n" for _ in range(spent))
    if spin:  # until the budget runs out, at a place that depends on the program and on `spent`
        effect = before + f"for i in range(10000) {{\\n    for j in range(30) {{\\n        let x = {call}\\n    }}\\n}}\\nend turn"
    else:
        effect = f"let i = 3\\nlet j = 2\\nsay {call}\\nend turn"
    root = pack_with(tmp_path_factory.mktemp("fuzz"), effect, rules=program)
    try:
        results = [first_decision(root, backend) for backend in BACKENDS]
    except ruleskit.errors.RulesError:
        return  # a program the checks refuse (a type error known at load) is refused by both alike
    assert results[0] == results[1], program


def count(steps: int) -> str:
    return f"(inlined_steps := inlined_steps + {steps})"


@pytest.mark.parametrize(("code", "left", "steps"), [
    # A copy's bindings, its count, its body; and a copy with no bindings, whose count is its test.
    (f"((N1_L_a := x), {count(1)}, N1_L_a + 1)[-1] * (y if {count(2)} else None)", "((N1_L_a := x), N1_L_a + 1)[-1] * y", 3),
    (f"({count(1)}, x)[-1]", "x", 1),
    # Counts reached only when a test goes one way stay where they are.
    (f"(y if {count(1)} else None) and (x if {count(2)} else None)", f"y and (x if {count(2)} else None)", 1),
    (f"(a if b else (x if {count(1)} else None))", f"a if b else (x if {count(1)} else None)", 0),
    (f"f((x if {count(4)} else None), a < (y if {count(1)} else None) < (z if {count(1)} else None))",
     f"f(x, a < y < (z if {count(1)} else None))", 5),
])
def test_counts_of_calls_that_always_run_are_taken_out_to_be_counted_at_once(code: str, left: str, steps: int) -> None:
    body, taken = take_counts(ast.parse(code, mode="eval").body)
    assert (ast.unparse(body), taken) == (ast.unparse(ast.parse(left, mode="eval").body), steps)
