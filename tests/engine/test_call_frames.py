"""Calls between rules, procedures and hooks: the nesting limit and the chain of callers that budget
and nesting errors name are the same in both backends, including after an error was caught."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from engine_support import TINY_GAME, TINY_RULES, first_decision, write_pack

import ruleskit
from ruleskit.errors import BudgetExceeded, PackError

BACKENDS = ("compiled", "closures")
ROOT = Path(__file__).resolve().parent.parent.parent


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
    first, second = (first_decision(root, backend) for backend in BACKENDS)
    assert first == second


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


RETURNING = """\
proc add_upto(p, n) {
    for i in range(n) {
        if p.points >= 3 {
            return
        }
        p.points += 1
    }
}

proc twice(p) {
    add_upto(p, 1)
    add_upto(p, 1)
    return
    p.points += 5
}

hook lucky on turn_start(p) {
    if p.points != 1 {
        return
    }
    say "one point"
}
"""


@pytest.mark.parametrize("effect", ["twice(me)\\nend turn", "twice(me)\\nif me.points >= 2 {\\n return\\n}\\nend turn",
                                    "return\\nme.points += 5"])
def test_return_leaves_the_same_code_in_both_backends(tmp_path: Path, effect: str) -> None:
    # `return` ends its procedure, hook or inline effect; the calls it leaves no longer count, so a
    # chain of 45 rules still fits the nesting limit afterwards.
    game = TINY_GAME.replace("me.points += double(1)\\nend turn", effect).replace(
        'score = "p.points"', 'score = "p.points + r44() - 44"')
    root = write_pack(tmp_path / "returns", game=game, rules=RETURNING + chain("r", 45, "1"))
    seen = []
    for backend in BACKENDS:
        state = ruleskit.load(root, backend=backend, cache=False).new_game(players=2, seed=1)
        states = []
        for _ in range(8):
            if state.is_terminal:
                break
            state.apply(state.legal_actions()[0])
            states.append(state.to_json())
        seen.append((states, state.result))
    assert seen[0] == seen[1]
    assert seen[0][0][0] != seen[0][0][-1] or effect.startswith("return")


def test_a_budget_error_names_the_procedures_called_directly(tmp_path: Path) -> None:
    procs = "proc p0() {\n    me.points += r1()\n}\nproc p1() {\n    p0()\n}\n"
    rules = chain("r", 2, "count([count([y for y in range(9000)]) for x in range(9000)])")
    game = TINY_GAME.replace("me.points += double(1)", "p1()")
    root = write_pack(tmp_path / "busy_procs", game=game, rules=procs + rules)
    messages = [outcome(root, backend) for backend in BACKENDS]
    assert messages[0] == messages[1]
    assert "step budget of 200000 exceeded in rule r0 (" in messages[0]
    assert ", called from proc p0 (" in messages[0] and ", called from proc p1 (" in messages[0]


PROBES = """
rule probe(c, r) = if c < 100 and r < 100 then column[c].discs[r] else none
rule probe_count(c) = if c < 100 then count(column[c].discs) * 10 + free(column[c].discs) else 0
"""


@pytest.mark.parametrize("say", ["probe(2, 0)", "probe(2, 1)", "probe(2, 7)", "probe(2, -1)", "probe(9, 0)",
                                 "probe(-1, 0)", "probe(true, 0)", "probe(2, true)", "probe_count(2)",
                                 "probe_count(7)", "probe_count(-1)", "column[2].discs[0]",
                                 "[free(c.discs) for c in column]", "[count(c.discs) for c in column]",
                                 "[count(x) for x in [me.disc]]"])
def test_zones_of_known_items_read_the_same_in_both_backends(tmp_path: Path, say: str) -> None:
    # Reads of an item's zone where the item is surely one of its kind (a loop over the kind's items,
    # items[i] with i in range) go straight to the zone's list; every other case keeps its errors.
    root = tmp_path / "four"
    shutil.copytree(ROOT / "games" / "connect_four", root)
    flow = (root / "flow.toml").read_text(encoding="utf-8")
    flow = flow.replace("move me.disc from supply to col.discs\n", f"move me.disc from supply to col.discs\nsay {say}\n")
    (root / "flow.toml").write_text(flow, encoding="utf-8")
    with (root / "rules.rk").open("a", encoding="utf-8") as rules:
        rules.write(PROBES)
    outcomes = []
    for backend in BACKENDS:
        state = ruleskit.load(root, backend=backend, cache=False).new_game(players=2, seed=1)
        try:
            for column in ("col3", "col3", "col2"):
                state.apply(f"drop:{column}")
            outcomes.append((state.to_json(), state.messages))
        except Exception as exc:  # noqa: BLE001 - the error itself is compared
            outcomes.append((f"{type(exc).__name__}: {exc}", []))
    assert outcomes[0] == outcomes[1]


KINDS = """
[kinds.token]
per_player = true
vars.level = { type = "int", start = 1, min = 0, max = 3 }
vars.mark = { type = "bool" }

[kinds.coin]
vars.level = { type = "int", max = 9 }
items.gold = {}
"""


@pytest.mark.parametrize("write", ["set me.points = 3", "set me.points = 9", "set me.points = true",
                                   "set me.token.level = 2", "set me.token.level = 7", "set me.token.level = -1",
                                   'set me.token.level = \\"a\\"', "set me.token.mark = true",
                                   "set me.token.mark = 1", "set gold.level = 8", "set gold.level = 12",
                                   "let t = me.token\\nset t.level = 0", "let n = none\\nset n.level = 1",
                                   "let b = true\\nset b.level = 1", "let q = 1\\nset q.level = 1",
                                   'let s = \\"token_9\\"\\nset s.level = 1'])
def test_writes_to_fields_agree_in_both_backends(tmp_path: Path, write: str) -> None:
    # A write to a player's or an item's variable is made inline for a seat or an item of the one
    # kind with that variable; every other owner and value keeps the reference backend's errors.
    game = TINY_GAME.replace("me.points += double(1)", write) + KINDS
    root = write_pack(tmp_path / "writes", game=game, rules=TINY_RULES)
    first, second = (_decision_or_load_error(root, backend) for backend in BACKENDS)
    assert first == second
    # A value whose type is known at load and that the variable cannot hold is refused there, in both.
    assert str(first).startswith("load: ") == (write in (
        "set me.points = true", "set me.token.mark = 1", 'set me.token.level = \\"a\\"'))


def _decision_or_load_error(root: Path, backend: str) -> Any:
    try:
        return first_decision(root, backend)
    except PackError as exc:
        return f"load: {exc}"
