"""Listing an action's parameter bindings, under both backends: the same listing and errors.

Both must give the same actions in the same order, skip the same repeated
options, charge the same steps and stop with the same located errors.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from engine_support import TINY_GAME, write_pack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ruleskit
from ruleskit import ProgramError
from ruleskit.errors import BudgetExceeded
from ruleskit.runtime.engine import MAX_LEGAL_ACTIONS

BACKENDS = ("compiled", "closures")

# `pair`: two parameters, the second's options read the first, options repeated at both levels, a `require`
# and a cost; `one`: a single parameter with repeats and a `require`.
PAIRS = """
[actions.pair]
stage = "main"
label = "Pair {a} {b}"
params = { a = "[2, 1, 2, 3, 1, 0]", b = "[a, a + 1, a, 4 - a]" }
require = [{ check = "a + b != 4", message = "not four" }]
cost = { points = "a" }
effect = "end turn"

[actions.one]
stage = "main"
params = { n = "[3, 1, 3, 2, 1]" }
require = [{ check = "n != 2", message = "not two" }]
effect = "end turn"
"""


def _game(tmp_path: Path, backend: str, extra: str) -> ruleskit.Game:
    root = tmp_path / "pack"
    if not root.exists():
        write_pack(root, game=TINY_GAME.replace("[end.enough]", extra + "\n[end.enough]"))
    return ruleskit.load(root, backend=backend, cache=False)


def _listing(game: ruleskit.Game) -> list[tuple[str, str, int, dict]]:
    state = game.new_game(players=2, seed=3)
    return [(a.id, a.label, a.player, a.payload) for a in state.legal_actions()]


def test_one_and_two_parameters_list_the_same_actions_as_the_reference(tmp_path: Path) -> None:
    compiled, closures = (_game(tmp_path, backend, PAIRS) for backend in BACKENDS)
    listed = _listing(compiled)
    assert listed == _listing(closures)
    ids = [row[0] for row in listed]
    # Points start at 0: only a = 0 is affordable; b in [0, 1, 0, 4] without the repeat, 0 + 4 refused.
    assert ids == ["score", "pair:0,0", "pair:0,1", "one:3", "one:1"]


def test_the_same_action_objects_are_handed_out_again(tmp_path: Path) -> None:
    game = _game(tmp_path, "compiled", PAIRS)
    state = game.new_game(players=2, seed=3)
    first = state.legal_actions()
    again = game.new_game(players=2, seed=3).legal_actions()
    assert all(a is b for a, b in zip(first, again, strict=True))


TOO_MANY = """
[actions.grid]
stage = "main"
params = { x = "range(200)", y = "range(200)" }
effect = "end turn"
"""


def test_too_many_bindings_is_the_same_error(tmp_path: Path) -> None:
    messages = []
    for backend in BACKENDS:
        state = _game(tmp_path, backend, TOO_MANY).new_game(players=2, seed=1)
        with pytest.raises(ProgramError, match=f"more than {MAX_LEGAL_ACTIONS} legal actions") as caught:
            state.legal_actions()
        messages.append((str(caught.value), caught.value.file, caught.value.line))
    assert messages[0] == messages[1]
    assert "action grid" in messages[0][0]


OVER_BUDGET = """
[actions.many]
stage = "main"
params = { x = "range(10000)", y = "range(30)" }
require = [{ check = "x < 0", message = "never" }]
effect = "end turn"
"""


def test_the_step_budget_stops_both_at_the_same_place(tmp_path: Path) -> None:
    messages = []
    for backend in BACKENDS:
        state = _game(tmp_path, backend, OVER_BUDGET).new_game(players=2, seed=1)
        with pytest.raises(BudgetExceeded, match="step budget") as caught:
            state.legal_actions()
        messages.append((str(caught.value), caught.value.file, caught.value.line))
    assert messages[0] == messages[1]


# Options that are not plain str or int: truth values and lists, with repeats; a player's `take` with none.
ODD_VALUES = """
[actions.flag]
stage = "main"
label = "Flag {f}"
params = { f = "[true, false, true]" }
effect = "end turn"

[actions.group]
stage = "main"
params = { g = "[[1, 2], [], [1, 2], [3]]" }
require = [{ check = "count(g) != 1", message = "not one" }]
effect = "end turn"

[actions.pass]
stage = "main"
require = [{ check = "me.points == 0", message = "only before scoring" }]
effect = "end turn"
"""


def test_truth_values_and_lists_as_options_keep_their_ids_labels_and_players(tmp_path: Path) -> None:
    compiled, closures = (_game(tmp_path, backend, ODD_VALUES) for backend in BACKENDS)
    listed = _listing(compiled)
    assert listed == _listing(closures)
    assert [(row[0], row[1], row[2]) for row in listed] == [
        ("score", "score", 0), ("flag:true", "Flag yes", 0), ("flag:false", "Flag no", 0),
        ("group:1+2", "group (1, 2)", 0), ("group:-", "group (nothing)", 0), ("pass", "pass", 0)]
    assert listed[3][3] == {"action": "group", "args": {"g": [1, 2]}}
    # The second player is handed actions of their own, with the same ids; `pass` is gone once they scored.
    state = compiled.new_game(players=2, seed=3).apply("score")
    assert [(a.id, a.player) for a in state.legal_actions()] == [
        ("score", 1), ("flag:true", 1), ("flag:false", 1), ("group:1+2", 1), ("group:-", 1), ("pass", 1)]
    assert [a.id for a in state.apply("score").legal_actions()] == ["score", "flag:true", "flag:false",
                                                                    "group:1+2", "group:-"]


def test_a_full_table_of_actions_starts_again_without_changing_the_listing(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from ruleskit.runtime import engine

    expected = _listing(_game(tmp_path, "compiled", PAIRS))
    monkeypatch.setattr(engine, "_MAX_CACHED_ACTIONS", 1)
    game = ruleskit.load(tmp_path / "pack", backend="compiled", cache=False)
    assert _listing(game) == expected
    assert _listing(game) == expected


REPEATED_ITEMS = """
[kinds.gem]
items.ruby = {}
items.opal = {}
items.jade = {}

[zones.table]
type = "pool"
of = "gem"
start = { ruby = 2, opal = 1, jade = 2 }

[actions.take]
stage = "main"
params = { g = "items(table)" }
effect = "end turn"
"""


def test_repeated_item_options_are_offered_once_in_first_seen_order(tmp_path: Path) -> None:
    compiled, closures = (_game(tmp_path, backend, REPEATED_ITEMS) for backend in BACKENDS)
    listed = _listing(compiled)
    assert listed == _listing(closures)
    assert [row[0] for row in listed] == ["score", "take:ruby", "take:opal", "take:jade"]


# No cost: generated code lists such an action's last parameter's bindings in one loop of its own
# (`Compiler.lister`), with its `require`s written in the loop; the reference backend binds them one by one.
ONE_PARAMETER = """
[actions.pick]
stage = "main"
label = "Pick {n}"
params = { n = "[4, 2, 4, 0, 3, 2]" }
require = [{ check = "n != 3", message = "not three" },
           { check = "double(n) > 2 or [m for m in [n] if m == 0] != []", message = "too small" }]
effect = "end turn"

[actions.free]
stage = "main"
params = { who = "players" }
effect = "end turn"

[actions.priced]
stage = "main"
params = { n = "[1, 0]" }
cost = { points = "n" }
effect = "end turn"

[actions.two]
stage = "main"
params = { a = "[[1], [0], [1]]", b = "[count(a), 2, count(a), 0]" }
require = [{ check = "b != count(a) or a == [1]", message = "not that" }]
effect = "end turn"

[actions.three]
stage = "main"
params = { a = "[1, 0]", b = "[a, 1 - a]", c = "[a + b, 9, a]" }
require = [{ check = "c != 9 or a == 0", message = "not nine" }]
effect = "end turn"
"""


def test_an_action_without_cost_is_listed_by_its_own_loop_as_the_reference_lists_it(tmp_path: Path) -> None:
    compiled, closures = (_game(tmp_path, backend, ONE_PARAMETER) for backend in BACKENDS)
    assert compiled.actions["pick"].lister is not None and compiled.actions["free"].lister is not None
    assert compiled.actions["priced"].lister is None  # a cost: bound and checked by the engine
    assert all(action.lister is None for action in closures.actions.values())
    listed = _listing(compiled)
    assert listed == _listing(closures)
    # 4 and 0 once each (repeats skipped), 2 is too small (double(2) is 4 > 2: kept), 3 refused.
    assert [row[0] for row in listed][:7] == ["score", "pick:4", "pick:2", "pick:0", "free:0", "free:1", "priced:0"]
    assert listed[1][1] == "Pick 4"
    # Lists as the first parameter's values (not plain: made afresh each time), and three parameters.
    assert [row[0] for row in listed][7:] == [
        "two:1,1", "two:1,2", "two:1,0", "two:0,2", "two:0,0",
        "three:1,1,2", "three:1,1,1", "three:1,0,1", "three:0,0,0", "three:0,0,9", "three:0,1,1", "three:0,1,9",
        "three:0,1,0"]
    assert compiled.actions["two"].lister is not None and compiled.actions["three"].lister is not None
    state = compiled.new_game(players=2, seed=3)
    again = [(a.id, a.label, a.player, a.payload) for a in state.apply("pick:0").legal_actions()]
    assert [row[0] for row in again] == [row[0] for row in listed]  # the same, from the tables of Actions


def _same_error(tmp_path: Path, extra: str, error: type[Exception], match: str) -> tuple[str, str, int]:
    messages = []
    for backend in BACKENDS:
        state = _game(tmp_path, backend, extra).new_game(players=2, seed=1)
        with pytest.raises(error, match=match) as caught:
            state.legal_actions()
        messages.append((str(caught.value), caught.value.file, caught.value.line))  # type: ignore[attr-defined]
    assert messages[0] == messages[1]
    return messages[0]


def test_too_many_bindings_of_one_parameter_is_the_same_error(tmp_path: Path) -> None:
    # `score` is listed first: with it, every one of the longest list of options is one too many.
    extra = '[actions.line]\nstage = "main"\nparams = { x = "range(10000)" }\neffect = "end turn"\n'
    message = _same_error(tmp_path, extra, ProgramError, f"more than {MAX_LEGAL_ACTIONS} legal actions")
    assert "action line" in message[0]


def test_the_step_budget_stops_a_one_parameter_listing_at_the_same_place(tmp_path: Path) -> None:
    extra = ('[actions.slow]\nstage = "main"\nparams = { x = "range(2000)" }\n'
             'require = [{ check = "sum([1 for i in range(300)]) < 0", message = "never" }]\neffect = "end turn"\n')
    _same_error(tmp_path, extra, BudgetExceeded, "step budget")


def test_an_error_in_a_require_of_one_parameter_is_the_same_error(tmp_path: Path) -> None:
    extra = ('[actions.reach]\nstage = "main"\nparams = { n = "[0, 1, 5]" }\n'
             'require = [{ check = "[1, 2][n] > 0", message = "never" }]\neffect = "end turn"\n')
    message = _same_error(tmp_path, extra, ProgramError, "index 5")
    assert "action reach require" in message[0] and message[2] > 0


def test_a_generated_listing_charges_a_step_per_distinct_option_and_stops_at_room(tmp_path: Path) -> None:
    from ruleskit.runtime.context import Ctx

    game = _game(tmp_path, "compiled", ONE_PARAMETER)
    state = game.new_game(players=2, seed=3)
    lister = game.actions["free"].lister
    made: list[int] = []

    def make(value: int) -> int:
        made.append(value)
        return value

    ctx = Ctx(game.program, state.raw, 0)
    assert lister(ctx, [1, 0, 1, 0, 1], {}, 5, make, None) == [1, 0]
    assert ctx.steps == 2 and made == [1, 0]
    assert lister(ctx, [0, 1], {0: "known"}, 5, make, None) == ["known", 1]  # one in the table is not made again
    assert lister(ctx, [0, 1], {(7, 0): "known"}, 5, make, [7]) == ["known", 1]  # after an earlier parameter
    assert lister(ctx, [0, 1, 2], {}, 2, make, None) is None  # a third would be one too many


def test_an_action_with_a_great_many_requires_loads_and_lists_as_the_reference(tmp_path: Path) -> None:
    # Its lister tests them all in one `if`: one nested `if` per check would be too deep for Python to compile.
    checks = ",\n".join(f'{{ check = "n != {i + 10}", message = "not {i + 10}" }}' for i in range(1500))
    extra = f'[actions.many]\nstage = "main"\nparams = {{ n = "[1, 12, 2]" }}\nrequire = [\n{checks}\n]\n' \
            'effect = "end turn"\n'
    compiled, closures = (_game(tmp_path, backend, extra) for backend in BACKENDS)
    assert compiled.actions["many"].lister is not None
    listed = _listing(compiled)
    assert listed == _listing(closures)
    assert [row[0] for row in listed] == ["score", "many:1", "many:2"]


# A parameter over a kind's items: each item once, so its generated loop skips no repeats, and a zone of the
# parameter is read straight from the zone's table of keys. A list written out may repeat: that one still skips.
KIND_ITEMS = """
[kinds.gem]
items.ruby = {}
items.opal = {}
items.jade = {}

[zones.shelf]
type = "stack"
of = "gem"
owner = "gem"
capacity = 1

[zones.table]
type = "pool"
of = "gem"
start = { ruby = 1, opal = 1, jade = 1 }

[actions.shelve]
stage = "main"
label = "Shelve {g}"
params = { g = "gem" }
require = [{ check = "free(g.shelf) > 0 and g != opal", message = "full" }]
effect = "move 1 of g from table to g.shelf\\nend turn"

[actions.again]
stage = "main"
params = { h = "[jade, ruby, jade]" }
effect = "end turn"
"""


def test_a_parameter_over_a_kind_is_listed_without_a_repeat_test_as_the_reference_lists_it(tmp_path: Path) -> None:
    compiled, closures = (_game(tmp_path, backend, KIND_ITEMS) for backend in BACKENDS)
    code = compiled.code
    shelve = code[code.index("def action_shelve_lister"):code.index("def action_shelve_", code.index(
        "def action_shelve_lister") + 10)]
    assert "seen" not in shelve and "owned_free" not in shelve  # no repeat test; the zone read in place
    again = code[code.index("def action_again_lister"):]
    assert "seen" in again[:again.index("return out")]
    listed = _listing(compiled)
    assert listed == _listing(closures)
    assert [row[0] for row in listed] == ["score", "shelve:ruby", "shelve:jade", "again:jade", "again:ruby"]
    state = compiled.new_game(players=2, seed=3).apply("shelve:ruby")
    assert [a.id for a in state.legal_actions()] == ["score", "shelve:jade", "again:jade", "again:ruby"]
    assert [a.id for a in closures.new_game(players=2, seed=3).apply("shelve:ruby").legal_actions()] == \
        [a.id for a in state.legal_actions()]


def test_a_parameter_over_a_kind_with_checks_that_charge_nothing_is_charged_at_once(tmp_path: Path) -> None:
    from ruleskit.errors import BudgetExceeded
    from ruleskit.runtime.context import Ctx

    compiled = _game(tmp_path, "compiled", KIND_ITEMS)
    code = compiled.code
    shelve = code[code.index("def action_shelve_lister"):code.index("return out", code.index("def action_shelve_lister"))]
    assert "ctx.steps += len(options)" in shelve
    lister = compiled.actions["shelve"].lister
    state = compiled.new_game(players=2, seed=3)
    options = ["ruby", "opal", "jade"]

    def fresh(budget: int = 100) -> Ctx:
        return Ctx(compiled.program, state.raw, 0, budget=budget)

    ctx = fresh()
    assert lister(ctx, options, {}, 10, str.upper, None) == ["RUBY", "JADE"] and ctx.steps == 3
    ctx = fresh(budget=2)  # no room for all three: one at a time, and the third runs the budget out
    with pytest.raises(BudgetExceeded, match="action shelve"):
        lister(ctx, options, {}, 10, str.upper, None)
    assert ctx.steps == 3
    ctx = fresh()  # room for one action only: the second that passes is one too many
    assert lister(ctx, options, {}, 1, str.upper, None) is None and ctx.steps == 3


RANGES = """
[actions.pick]
stage = "main"
label = "Pick {n} for {p}"
params = { p = "players", n = "range(2, 7)" }
require = [{ check = "n != 4 and (p == 0 or n > 3)", message = "no" }]
effect = "end turn"
"""


def test_a_parameter_over_a_range_is_listed_without_a_repeat_test_as_the_reference_lists_it(tmp_path: Path) -> None:
    compiled, closures = (_game(tmp_path, backend, RANGES) for backend in BACKENDS)
    code = compiled.code
    pick = code[code.index("def action_pick_lister"):code.index("return out", code.index("def action_pick_lister"))]
    assert "seen" not in pick and "ctx.steps += len(options)" in pick
    listed = _listing(compiled)
    assert listed == _listing(closures)
    assert [row[0] for row in listed] == ["score", "pick:0,2", "pick:0,3", "pick:0,5", "pick:0,6", "pick:1,5",
                                          "pick:1,6"]
    state, reference = (game.new_game(players=2, seed=3).apply("pick:1,6") for game in (compiled, closures))
    assert state.to_json() == reference.to_json()


# Random actions of one to three parameters, their options repeating and reading earlier parameters, and
# random `require`s over them (a comprehension among them): every listing the same under both backends.
FUZZ_EXAMPLES = max(8, int(os.environ.get("RULESKIT_FUZZ_EXAMPLES", "150")) // 6)
NAMES = ["a", "b", "c"]


@st.composite
def actions(draw: st.DrawFn) -> str:
    count = draw(st.integers(1, 3))
    params = []
    for index in range(count):
        earlier = NAMES[:index]
        items = draw(st.lists(st.one_of(st.integers(0, 3).map(str), st.sampled_from(earlier).map(
            lambda n: f"{n} + 1") if earlier else st.just("2")), max_size=5))
        if draw(st.booleans()):
            params.append(f'{NAMES[index]} = "[{", ".join(items)}]"')
        else:  # each number once, given by range() from numbers that may be earlier parameters
            low, high = draw(st.lists(st.one_of(st.integers(-1, 4).map(str), st.sampled_from(earlier))
                                      if earlier else st.integers(-1, 4).map(str), min_size=2, max_size=2))
            params.append(f'{NAMES[index]} = "range({low}, {high})"')
    used = NAMES[:count]
    leaf = st.one_of(st.sampled_from(used), st.integers(0, 4).map(str))
    check = st.one_of(
        st.tuples(leaf, st.sampled_from(["==", "!=", "<", ">="]), leaf).map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
        st.tuples(st.sampled_from(used), leaf).map(lambda t: f"count([x for x in [{t[0]}, {t[1]}] if x == 2]) == 0"),
        leaf.map(lambda t: f"10 // {t} > 2"),  # an error where the divisor is 0
    )
    checks = draw(st.lists(check, max_size=3))
    requires = ", ".join(f'{{ check = "{c}", message = "no" }}' for c in checks)
    return (f'[actions.fuzz]\nstage = "main"\nparams = {{ {", ".join(params)} }}\n'
            f'require = [{requires}]\neffect = "end turn"\n')


def _listing_or_error(root: Path, backend: str) -> Any:
    game = ruleskit.load(root, backend=backend, cache=False)
    state = game.new_game(players=2, seed=3)
    try:
        return [(a.id, a.label) for a in state.legal_actions()]
    except ProgramError as exc:
        return ("error", str(exc))


@settings(max_examples=FUZZ_EXAMPLES, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(extra=actions())
def test_random_actions_are_listed_alike_by_both_backends(tmp_path_factory: pytest.TempPathFactory,
                                                          extra: str) -> None:
    root = tmp_path_factory.mktemp("listing") / "pack"
    write_pack(root, game=TINY_GAME.replace("[end.enough]", extra + "\n[end.enough]"))
    try:
        results = [_listing_or_error(root, backend) for backend in BACKENDS]
    except ruleskit.errors.RulesError:
        return  # refused when loading (a type error known then): by both alike, as test_backends checks
    assert results[0] == results[1], extra


def test_a_listing_out_of_steps_after_a_decision_names_the_budget_it_had(tmp_path: Path) -> None:
    """The listing the flow begins runs on the decision's finished context, with a budget of its own past the
    decision's steps: its error named where that budget ended (200016), so the same position gave another
    message once saved and loaded again, or listed anew."""
    extra = """
[actions.heavy]
stage = "main"
when = "if me.points > 0 then sum([count(range(9000)) for i in range(25)]) > 0 else true"
effect = "end turn"
"""
    for backend in BACKENDS:
        game = _game(tmp_path, backend, extra)
        state = game.new_game(players=2, seed=3)
        state.apply("score")  # player 1's turn: `heavy` is listed cheaply
        state.apply("score")  # player 1 has points: listing `heavy` runs out of steps
        messages = []
        for position in (state, ruleskit.State.from_json(game, state.to_json())):
            with pytest.raises(BudgetExceeded) as caught:
                position.legal_actions()
            messages.append(caught.value.message)
        assert messages[0] == messages[1] and "step budget of 200000 exceeded" in messages[0], messages
