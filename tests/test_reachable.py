"""`reachable(from, steps, stops, avoid)`: nodes within a number of open edges, stopping at some nodes."""

from pathlib import Path
from typing import Any

import pytest

import ruleskit
from ruleskit import RulesError
from ruleskit.runtime.context import Ctx

MANIFEST = 'name = "roads"\nversion = "1"\nplayers = { min = 2, max = 2 }\n'
# Two towns t1, t2 joined by a road r1 - r2 - r3; a loop r3 - r4 - r5 - r3 off it; t2 leads on to r6 - t3.
#
#   t1 - r1 - r2 - r3 - t2 - r6 - t3
#                  |  \
#                  r5 - r4
GAME = """
[kinds.spot]
fields = { town = "bool" }
items.t1 = { town = true }
items.t2 = { town = true }
items.t3 = { town = true }
items.r1 = {}
items.r2 = {}
items.r3 = {}
items.r4 = {}
items.r5 = {}
items.r6 = {}

[board]
nodes = "spot"
edges = [["t1", "r1"], ["r1", "r2"], ["r2", "r3"], ["r3", "t2"], ["r3", "r4"], ["r4", "r5"], ["r5", "r3"],
         ["t2", "r6"], ["r6", "t3"]]

[kinds.walker]
per_player = true
vars.at = { type = "spot", start = "t1" }

[stages.walk]
[phases.play]
stage = "walk"

[flow]
start = "play"
max_turns = 6

[actions.go]
stage = "walk"
params = { to = "[s for s in reachable(me.walker.at, count(spot), towns()) if s != me.walker.at]" }
effect = "set me.walker.at = to\\nend turn"

[actions.close]
stage = "walk"
when = "not blocked(r2, r3)"
effect = "block r2, r3\\nend turn"

[scoring]
score = "0"
"""
RULES = """
rule towns() = [s for s in spot if s.town]
"""


def load(tmp_path: Path, backend: str | None = None) -> ruleskit.Game:
    (tmp_path / "pack.toml").write_text(MANIFEST)
    (tmp_path / "game.toml").write_text(GAME)
    (tmp_path / "rules.rk").write_text(RULES)
    return ruleskit.load(tmp_path, backend=backend)


def evaluate(game: ruleskit.Game, state: ruleskit.State, text: str) -> Any:
    fn = game.generated.expr(text, _origin(), None, "test") if game.generated else None
    assert fn is not None
    return fn(Ctx(game.program, state.data, 0))


def _origin() -> Any:
    from ruleskit.lang.parser import Origin

    return Origin("<test>", 1)


@pytest.fixture(params=["compiled", "closures"])
def game(request: pytest.FixtureRequest, tmp_path: Path) -> ruleskit.Game:
    return load(tmp_path, request.param)


def moves(state: ruleskit.State) -> list[str]:
    return [a.id for a in state.legal_actions() if a.id.startswith("go")]


def test_a_walk_goes_as_far_as_the_roads_go_and_stops_at_a_town(game: ruleskit.Game) -> None:
    state = game.new_game(players=2, seed=1)
    # From t1 every road space and the next town t2; not beyond t2 (r6, t3), not back to t1 itself.
    assert sorted(moves(state)) == ["go:r1", "go:r2", "go:r3", "go:r4", "go:r5", "go:t2"]


def test_a_start_goes_on_even_when_it_is_a_stop_and_a_blocked_edge_is_not_walked(game: ruleskit.Game) -> None:
    state = game.new_game(players=2, seed=1)
    state.apply("go:t2")                  # player 1 to the town t2
    state.apply("close")                  # player 2 blocks r2 - r3
    assert sorted(moves(state)) == ["go:r3", "go:r4", "go:r5", "go:r6", "go:t3"]


def test_steps_stops_avoid_and_order(tmp_path: Path) -> None:
    game = load(tmp_path, "compiled")
    state = game.new_game(players=2, seed=1)
    assert evaluate(game, state, "reachable(t1, 0)") == []
    assert evaluate(game, state, "reachable(t1, 1)") == ["r1"]
    assert evaluate(game, state, "reachable(t1, 3)") == ["r1", "t1", "r2", "r3"]  # nearest first; t1 by r1
    assert evaluate(game, state, "reachable(r3, 1)") == ["r2", "t2", "r4", "r5"]
    # A path ends on the stop r3; the start r2 is listed again by r1 - r2.
    assert evaluate(game, state, "reachable(r2, 9, [r3])") == ["r1", "r3", "t1", "r2"]
    assert evaluate(game, state, "reachable(r2, 9, [], [r3, t1])") == ["r1", "r2"]
    # Several starts: any path from any of them; a start reached from another is listed.
    assert evaluate(game, state, "reachable([t1, t3], 1)") == ["r1", "r6"]
    assert evaluate(game, state, "reachable([r1, r2], 1)") == ["t1", "r2", "r1", "r3"]


def test_the_walk_is_charged_per_node_visited_and_neighbour_looked_at(tmp_path: Path) -> None:
    game = load(tmp_path, "compiled")
    state = game.new_game(players=2, seed=1)
    fn = game.generated.expr("reachable(t1, 1000000)", _origin(), None, "test")
    ctx = Ctx(game.program, state.data, 0)
    fn(ctx)
    # Each of the 9 spots once, and each end of the 9 edges looked at from the other (and the call), whatever
    # `steps` says.
    assert 9 + 2 * 9 <= ctx.steps <= 9 + 2 * 9 + 3
    small = Ctx(game.program, state.data, 0, budget=4)
    with pytest.raises(RulesError, match="step budget"):
        fn(small)


def test_negative_steps_are_refused(tmp_path: Path) -> None:
    game = load(tmp_path, "compiled")
    state = game.new_game(players=2, seed=1)
    with pytest.raises(RulesError, match="steps >= 0"):
        evaluate(game, state, "reachable(t1, -1)")
