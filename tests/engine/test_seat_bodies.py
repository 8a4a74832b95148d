"""A value the generated code knows is a seat of the game (`me`, a comprehension's variable over the players, a
parameter once its entry has tested it) is read without the test that the value is a seat; anything else keeps
that test, and a value that is no seat gets the same located error in both backends."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_support import agreed, write_pack

import ruleskit

GAME = """\
[counters.points]
owner = "player"
max = 100

[kinds.gem]
fields = { worth = "int" }
items.ruby = { worth = 3 }

[stages.main]

[phases.play]
stage = "main"

[flow]
start = "play"

[actions.score]
stage = "main"
effect = "EFFECT"

[end.enough]
when = "total() >= 20"
reason = "enough points"

[scoring]
score = "p.points"
"""

RULES = """\
rule pts(p) = p.points
rule total() = sum([q.points for q in players])
proc bump(p) {
    set p.points = pts(p) + 1
}
"""


def pack(tmp_path: Path, effect: str) -> Path:
    return write_pack(tmp_path / "seats", game=GAME.replace("EFFECT", effect), rules=RULES)


def function(code: str, prefix: str, index: int = 0) -> str:
    """The source of the `index`th generated function whose name starts with `prefix`."""
    starts = [i for i in range(len(code)) if code.startswith(f"def {prefix}", i)]
    return code[starts[index]:].split("\n\n")[0]


def test_a_value_surely_a_seat_is_read_without_a_test(tmp_path: Path) -> None:
    code = ruleskit.load(pack(tmp_path, "bump(me)\\nend turn"), cache=False, backend="compiled").code
    # pts has a body for a seat, which bump's body for a seat calls directly, and one that tests its argument.
    seat_body, tested = function(code, "rule_pts_"), function(code, "rule_pts_", 1)
    assert "D['pv'][L_p]['points']" in seat_body and "type(L_p)" not in seat_body and "any_field" not in seat_body
    assert "if type(L_p) is int and 0 <= L_p < D['n']" in tested and "any_field(" in tested
    # bump tests its parameter once on entry; the code for a seat writes and calls without a test.
    bump = function(code, "proc_bump_")
    entry, _, general = bump.partition("        else:\n")
    assert entry.count("type(L_p)") == 1 and "I_pts(ctx, L_p)" in entry
    assert "ctx.own('pv', L_p)['points'] = " in entry and "set_field(" not in entry and "set_field(" in general
    # A comprehension over the players: its variable is a seat.
    assert "D['pv'][L_q]['points'] for L_q in" in function(code, "rule_total_")
    # `me` is a seat: the action calls bump as it is (its entry tests it) and pts's body for seats directly.
    assert "P_bump(ctx, ctx.me)" in code


def test_a_game_played_with_seat_bodies_agrees_with_the_reference(tmp_path: Path) -> None:
    root = pack(tmp_path, "bump(me)\\nme.points += pts(me)\\nend turn")
    games = []
    for backend in ("compiled", "closures"):
        state = ruleskit.load(root, backend=backend, cache=False).new_game(players=2, seed=3)
        while not state.is_terminal:
            state.apply(state.legal_actions()[0])
        games.append(state.to_json())
    assert games[0] == games[1]


@pytest.mark.parametrize(("argument", "error"), [
    ("7", "7 is not a player"),
    ("-1", "-1 is not a player"),
    ("true", "a truth value has no field 'points'"),
    ("ruby", "no field 'points'"),
    ("none", "cannot read '.points' of none"),
])
def test_a_value_not_proven_a_seat_keeps_its_test_and_its_error(tmp_path: Path, argument: str, error: str) -> None:
    # One call passes `me`, the other something that is no seat: pts and bump keep their tests, and the
    # error names the line in rules.rk where the field is read, in both backends alike.
    result = agreed(pack(tmp_path, f"bump(me)\\nbump({argument})\\nend turn"))
    assert isinstance(result, str) and "rules.rk:1" in result and error in result, result


def test_a_parameter_bound_again_keeps_its_tests(tmp_path: Path) -> None:
    # After `for p in ...` the parameter holds the loop's last value, which may be no seat: no body for seats.
    rules = RULES.replace("proc bump(p) {\n    set p.points = pts(p) + 1\n}",
                          "proc bump(p) {\n    set p.points = p.points + 1\n    for p in [1, 7] { say \"x\" }\n"
                          "    set p.points = p.points + 1\n}")
    assert rules != RULES
    root = write_pack(tmp_path / "seats", game=GAME.replace("EFFECT", "bump(me)\\nend turn"), rules=rules)
    bump = function(ruleskit.load(root, cache=False, backend="compiled").code, "proc_bump_")
    assert "if type(L_p) is int and 0 <= L_p < D['n']:\n" not in bump and bump.count("set_field(") == 2
    result = agreed(root)
    assert isinstance(result, str) and "rules.rk:6" in result and "7 is not a player" in result, result
