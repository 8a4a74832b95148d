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
