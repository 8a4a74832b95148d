"""Calls between rules, procedures and hooks: the nesting limit and the chain of callers that budget
and nesting errors name are the same in both backends, including after an error was caught."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_support import TINY_GAME, write_pack

import ruleskit
from ruleskit.errors import BudgetExceeded

BACKENDS = ("compiled", "closures")


def chain(prefix: str, length: int, last: str) -> str:
    """Rules `{prefix}0()` .. `{prefix}{length-1}()`, each calling the one before; the first gives `last`."""
    lines = [f"rule {prefix}0() = {last}"]
    lines += [f"rule {prefix}{i}() = {prefix}{i - 1}() + 1" for i in range(1, length)]
    return "\n".join(lines) + "\n"


def outcome(root: Path, backend: str) -> str:
    game = ruleskit.load(root, backend=backend, cache=False)
    try:
        state = game.new_game(players=2, seed=1)
        state.apply(state.legal_actions()[0])
    except BudgetExceeded as exc:
        return exc.message
    return f"result {state.result}"


def test_the_nesting_limit_names_the_same_callers(tmp_path: Path) -> None:
    game = TINY_GAME.replace("me.points += double(1)", "me.points += r60() - 59")
    root = write_pack(tmp_path / "deep", game=game, rules=chain("r", 61, "1"))
    messages = [outcome(root, backend) for backend in BACKENDS]
    assert messages[0] == messages[1]
    assert "nesting limit of 48 calls exceeded in rule r12 (" in messages[0]
    assert messages[0].count("called from") == 4  # the innermost callers, nearest first
    assert ", called from rule r13 (" in messages[0]


def test_the_budget_error_names_the_same_callers(tmp_path: Path) -> None:
    rules = chain("r", 5, "count([count([y for y in range(9000)]) for x in range(9000)])")
    game = TINY_GAME.replace("me.points += double(1)", "me.points += r4()")
    root = write_pack(tmp_path / "busy", game=game, rules=rules)
    messages = [outcome(root, backend) for backend in BACKENDS]
    assert messages[0] == messages[1]
    assert "step budget of 200000 exceeded in rule r0 (" in messages[0]
    assert ", called from rule r1 (" in messages[0] and ", called from rule r3 (" in messages[0]


@pytest.mark.parametrize("backend", BACKENDS)
def test_calls_left_by_an_error_do_not_count_later(tmp_path: Path, backend: str) -> None:
    # Ten procedures deep, `finish` ends the game; scoring then calls rules 45 deep, which is
    # within the limit only if the ten calls the error left no longer count.
    procs = "proc p0() {\n    finish \"done\"\n}\n" + "".join(
        f"proc p{i}() {{\n    p{i - 1}()\n}}\n" for i in range(1, 10))
    game = TINY_GAME.replace("me.points += double(1)\\nend turn", "p9()").replace(
        'score = "p.points"', 'score = "p.points"\nbefore = "set me.points = r44() - 44"')
    root = write_pack(tmp_path / "left", game=game, rules=procs + chain("r", 45, "1"))
    assert outcome(root, backend).startswith("result ")
    game_state = ruleskit.load(root, backend=backend, cache=False).new_game(players=2, seed=1)
    game_state.apply(game_state.legal_actions()[0])
    assert game_state.result is not None and game_state.result["reason"] == "done"
    assert game_state.data["pv"][0]["points"] == 1


NUMERIC_RULES = """\
rule plus(a, b) = a + b * 2
rule below(a, b) = a < b or -a >= b
rule pick(i) = [10, 20, 30][i - 1]
rule grow(a) = a * a
rule outer(a, b) = plus(a, b) + pick(b)
"""


@pytest.mark.parametrize("call", ["plus(1, 2)", "plus(true, 2)", "plus(1, none)", "plus([1], [2])",
                                  "grow(4503599627370496)", "if below(1, 2) then 1 else 0",
                                  "if below(true, 2) then 1 else 0", 'if below(\\"a\\", 2) then 1 else 0',
                                  "pick(2)", "pick(4)", "pick(false)", "outer(1, 2)",
                                  "outer(1, true)", "outer(none, 1)"])
def test_rules_on_numbers_give_the_same_results_and_errors(tmp_path: Path, call: str) -> None:
    # A rule doing arithmetic on its parameters runs a body without type tests when they are ints;
    # any other argument takes the general body, with the reference backend's errors.
    game = TINY_GAME.replace("me.points += double(1)", f"say {call}")
    root = write_pack(tmp_path / "numbers", game=game, rules=NUMERIC_RULES)
    outcomes = []
    for backend in BACKENDS:
        state = ruleskit.load(root, backend=backend, cache=False).new_game(players=2, seed=1)
        try:
            state.apply(state.legal_actions()[0])
            outcomes.append(state.to_json())
        except Exception as exc:  # noqa: BLE001 - the error itself is compared
            outcomes.append(f"{type(exc).__name__}: {exc}")
    assert outcomes[0] == outcomes[1]


def test_a_loop_charged_at_once_stops_at_the_same_item() -> None:
    from ruleskit.lang.support import charged, ticked
    from ruleskit.runtime.context import Ctx

    program = ruleskit.load("connect_four").program
    seen = []
    for loop in (charged, ticked):
        ctx = Ctx(program, {}, 0, budget=5)
        ctx.steps = 2
        reached = []
        with pytest.raises(BudgetExceeded) as caught:
            for item in loop(ctx, list(range(10)), "here"):
                reached.append(item)
        seen.append((reached, ctx.steps, caught.value.message))
        ctx = Ctx(program, {}, 0, budget=12)
        ctx.steps = 2
        assert list(loop(ctx, list(range(10)), "here")) == list(range(10)) and ctx.steps == 12
    assert seen[0] == seen[1] == ([0, 1, 2], 6, "step budget of 5 exceeded in here")
