"""`adjacent(node)` in generated code (`adjacent_nodes`), which reads each node's neighbours with the keys of
the edges to them from a table made when the code was generated: the same lists, steps and errors as the
reference backend's builtin, with edges blocked or not, and for values that are no node of the board."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_support import TINY_GAME, write_pack

import ruleskit

GAME = TINY_GAME.replace("me.points += double(1)\\nend turn", "EFFECT\\nend turn") + """
[kinds.spot]
items.a = {}
items.b = {}
items.c = {}
items.d = {}

[board]
nodes = "spot"
edges = [["b", "a"], ["a", "c"], ["c", "d"], ["a", "d"]]
"""

EFFECTS = {
    "no edge blocked": 'say adjacent(a)',
    "an edge blocked": 'block a, c\\nsay adjacent(a)\\nsay adjacent(c)\\nsay adjacent(b)',
    "each edge blocked": 'block a, b\\nblock d, a\\nblock c, a\\nsay adjacent(a)\\nsay count(adjacent(a))',
    "in a loop": 'for s in spot {\\nsay count(adjacent(s))\\n}',
    # A value no node can be, of a type known at load, is refused there (test_board_node_arguments.py): these
    # are of no known type (a list of a number and a text), so the call decides in play, in both backends.
    "no node": 'say adjacent(me.name)\\nsay adjacent([3, me.name][0])\\nsay adjacent(none)',
    "a list": 'say adjacent([[a, b], me.name][0])',
}


def run(root: Path, backend: str) -> tuple[object, ...]:
    game = ruleskit.load(root, backend=backend, cache=False)
    state = game.new_game(players=2, seed=1)
    before = state.work
    try:
        state.apply(state.legal_actions()[0])
    except Exception as exc:  # noqa: BLE001 - the error itself is compared
        return f"{type(exc).__name__}: {exc}", state.work - before  # a refused decision's steps are work too
    return state.work - before, state.messages, sorted(state.raw["blocked"])


@pytest.mark.parametrize("effect", list(EFFECTS.values()), ids=list(EFFECTS))
def test_adjacent_agrees_with_the_reference_backend(tmp_path: Path, effect: str) -> None:
    root = write_pack(tmp_path / "board", game=GAME.replace("EFFECT", effect))
    compiled = run(root, "compiled")
    assert compiled == run(root, "closures")
    if effect == EFFECTS["an edge blocked"]:
        assert compiled[1] == ["b, d", "d", "a"]  # a's open neighbours in the board's order; then c's, b's
    if effect == EFFECTS["in a loop"]:
        assert compiled[1] == ["3", "1", "2", "2"]
    if effect == EFFECTS["a list"]:
        assert str(compiled[0]).startswith("ProgramError: ") and "adjacent() cannot take (a, b) in " in str(compiled[0])
    code = ruleskit.load(root, backend="compiled", cache=False).code
    if "list" not in effect:
        assert "adjacent_nodes(ctx, " in code


def test_adjacent_stops_at_the_same_neighbour_when_the_budget_runs_out(tmp_path: Path) -> None:
    # Many calls in a loop: each charges a step per neighbour looked at, so the budget's end falls among them.
    effect = 'for k in range(10000) {\\nfor j in range(10) {\\nlet near = adjacent(a)\\n}\\n}'
    root = write_pack(tmp_path / "loop", game=GAME.replace("EFFECT", effect))
    compiled = run(root, "compiled")
    assert compiled == run(root, "closures")
    assert str(compiled[0]).startswith("BudgetExceeded: ") and "step budget of 200000 exceeded" in str(compiled[0])
