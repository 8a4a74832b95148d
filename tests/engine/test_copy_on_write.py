"""Copy on write (`Ctx.own`): a job changes only containers it copied, each copied once, and the data it
started from, shared with the state and its clones, is never changed, even by an action that is refused."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from engine_support import write_pack

import ruleskit
from ruleskit import IllegalAction
from ruleskit.runtime.context import Ctx, fork


def _base() -> dict[str, Any]:
    return {"n": 3, "v": {"x": 0}, "flow": {"usage": {}}, "pv": [{"a": 0}, {"a": 1}, {"a": 2}],
            "z": {"deck": [1, 2, 3], "hand@0": []}, "ev": {"gem": {"at": None}}, "blocked": ["a|b"]}


def _ctx(data: dict[str, Any]) -> Ctx:
    game = ruleskit.load("connect_four")
    return Ctx(game.program, data, 0)


def test_a_container_is_copied_once_and_the_base_never_changes() -> None:
    base = _base()
    before = copy.deepcopy(base)
    ctx = _ctx(fork(base))
    deck = ctx.own("z", "deck")
    assert deck is not base["z"]["deck"] and ctx.data["z"] is not base["z"]
    deck.append(4)
    outer = ctx.data["z"]
    assert ctx.own("z", "deck") is deck and ctx.data["z"] is outer  # the second time copies nothing
    hand = ctx.own("z", "hand@0")
    hand.append(deck.pop(0))
    assert ctx.data["z"] is outer and ctx.own("z", "hand@0") is hand
    ctx.own("pv", 1)["a"] = 10
    ctx.own("ev", "gem")["at"] = "deck"
    ctx.own_top("blocked").append("b|c")
    assert ctx.own_top("blocked") is ctx.data["blocked"]
    assert ctx.data["z"] == {"deck": [2, 3, 4], "hand@0": [1]}
    assert ctx.data["pv"] == [{"a": 0}, {"a": 10}, {"a": 2}] and ctx.data["ev"] == {"gem": {"at": "deck"}}
    assert ctx.data["blocked"] == ["a|b", "b|c"]
    assert base == before
    # The containers not changed are still the base's.
    assert ctx.data["pv"][0] is base["pv"][0] and ctx.data["pv"][2] is base["pv"][2]


def test_a_player_counted_from_the_end_is_the_same_container() -> None:
    base = _base()
    ctx = _ctx(fork(base))
    last = ctx.own("pv", -1)
    last["a"] = 20
    assert ctx.own("pv", 2) is last and ctx.data["pv"][2] is last
    ctx.own("pv", 2)["b"] = 1
    ctx.own("pv", -1)["c"] = 2
    assert ctx.data["pv"][2] == {"a": 20, "b": 1, "c": 2}
    assert ctx.own("pv", 0) is ctx.own("pv", -3) is ctx.data["pv"][0]
    assert base == _base()
    with pytest.raises(IndexError):  # past the players, as a list refuses it
        ctx.own("pv", -4)


def test_after_a_checkpoint_the_job_copies_again_and_a_rollback_owns_nothing() -> None:
    base = _base()
    ctx = _ctx(fork(base))
    ctx.own("z", "deck").append(4)
    saved = ctx.checkpoint()
    kept = copy.deepcopy(saved)
    deck = ctx.own("z", "deck")
    assert deck is not saved["z"]["deck"] and ctx.data["z"] is not saved["z"]
    deck.append(5)
    ctx.own("pv", 0)["a"] = 7
    assert saved == kept and ctx.data["z"]["deck"] == [1, 2, 3, 4, 5]
    ctx.rollback(saved)
    assert ctx.data["z"]["deck"] == [1, 2, 3, 4] and ctx.data["pv"][0] == {"a": 0}
    ctx.own("z", "deck").append(6)  # owned again from the rolled-back data, not the copy dropped
    assert ctx.data["z"]["deck"] == [1, 2, 3, 4, 6] and saved == kept and base == _base()


def test_a_context_for_reading_refuses_to_own_and_changes_nothing() -> None:
    base = _base()
    data = fork(base)
    game = ruleskit.load("connect_four")
    ctx = Ctx.for_reading(game.program, data, 0)
    z, pv = data["z"], data["pv"]
    with pytest.raises(TypeError):
        ctx.own("z", "deck")
    with pytest.raises(TypeError):
        ctx.own("pv", 0)
    assert data["z"] is z and data["pv"] is pv and base == _base()


REFUSED_GAME = """\
[kinds.gem]
items.ruby = {}
items.opal = {}

[zones.table]
type = "pool"
of = "gem"
start = { ruby = 3, opal = 3 }

[zones.box]
type = "pool"
of = "gem"
owner = "player"
capacity = 2

[vars.points]
type = "int"
owner = "player"

[stages.take]
[phases.play]
stage = "take"

[flow]
start = "play"
max_turns = 10

[actions.take]
stage = "take"
params = { g = "distinct(items(table))" }
effect = "me.points += 1\\nmove 1 of g from table to me.box\\nend turn"

[actions.grab]
stage = "take"
effect = "for p in players { p.points += 5 }\\nmove 1 of ruby from table to me.box\\nmove 2 of opal from table to me.box\\nend turn"

[end.empty]
when = "count(table) == 0"
reason = "the table is empty"

[scoring]
score = "p.points"
"""

REFUSED_RULES = """\
# Nothing.
rule one() = 1
"""


@pytest.mark.parametrize("backend", ["compiled", "closures"])
def test_a_refused_action_leaves_the_state_and_its_clones_as_they_were(tmp_path: Path, backend: str) -> None:
    root = write_pack(tmp_path / "refused", game=REFUSED_GAME, rules=REFUSED_RULES)
    game = ruleskit.load(root, backend=backend, cache=False)
    state = game.new_game(players=2, seed=3)
    state.apply("take:ruby")
    clone = state.clone()
    saved, cloned = state.dumps(), clone.dumps()
    for refused in (state, clone):
        # The job changes both players' points and the table and box before the box overflows.
        with pytest.raises(IllegalAction, match="full"):
            refused.apply("grab")
        assert state.dumps() == saved and clone.dumps() == cloned
    clone.apply("take:opal")
    assert state.dumps() == saved
    state.apply("take:ruby")
    assert state.raw["pv"] == [{"points": 1}, {"points": 1}] and clone.raw["pv"] == [{"points": 1}, {"points": 1}]
    assert state.raw["z"]["table"] == {"ruby": 1, "opal": 3} and clone.raw["z"]["table"] == {"ruby": 2, "opal": 2}
