"""A stage's actions tested by one generated generator (`Game.stage_tests`): their limits and `when`s in
order, written in place, give the listing the engine's own loop gives, with the same steps and errors."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from engine_support import write_pack

import ruleskit
from ruleskit.runtime.engine import every_action

BACKENDS = ("compiled", "closures")

# Actions with limits of each scope, `when`s that read vars, a rule and a comprehension, and one whose
# `when` fails only late in the game (a division by zero once `left` runs out).
GAME = """\
[counters.points]
owner = "player"
max = 1000

[vars.left]
type = "int"
start = 6
min = 0

[stages.main]
[stages.other]

[phases.play]
stage = "main"

[flow]
start = "play"

[actions.once_a_turn]
stage = "main"
limit = { turn = 1 }
effect = "me.points += 1"

[actions.twice_a_game]
stage = "main"
limit = { game = 2 }
when = "me.points < 900"
effect = "me.points += 2"

[actions.by_rule]
stage = "main"
limit = { visit = 1 }
when = "ahead(me)"
effect = "me.points += 3"

[actions.by_list]
stage = "main"
when = "any([p.points > me.points for p in players])"
effect = "me.points += 1\\nend turn"

[actions.risky]
stage = "main"
when = "12 // left > 0"
effect = "left -= 1\\nend turn"

[actions.rest]
stage = "main"
effect = "end turn"

[end.enough]
when = "any([p.points >= 40 for p in players])"
reason = "forty points"

[scoring]
score = "p.points"
"""

RULES = """\
rule ahead(p) = all([q.points <= p.points for q in players])
"""


def _pack(tmp_path: Path) -> Path:
    return write_pack(tmp_path / "limits", game=GAME, rules=RULES)


def _outcome(game: ruleskit.Game, seed: int) -> tuple[list[list[str]], str]:
    """The legal ids at each decision of a seeded random game, and how it ended (its result or the error)."""
    state = game.new_game(players=2, seed=seed)
    chooser = random.Random(seed)
    listed: list[list[str]] = []
    try:
        while not state.is_terminal:
            actions = state.legal_actions()
            listed.append([a.id for a in actions])
            state.apply(chooser.choice(actions))
    except ruleskit.RulesError as error:
        return listed, f"{type(error).__name__}: {error}"
    return listed, repr(state.result)


def test_a_stage_with_limits_or_whens_gets_a_filter_and_one_without_none(tmp_path: Path) -> None:
    game = ruleskit.load(_pack(tmp_path), backend="compiled", cache=False)
    assert game.stage_tests["main"] is game.stage_filters["main"]
    assert "other" not in game.stage_filters and game.stage_tests["other"] is every_action
    code = game.code
    assert "def stage_main_actions_" in code
    # The limits are tested first, then the `when`, in place.
    assert "if usage['turn'].get('once_a_turn', 0) < 1:" in code
    closures = ruleskit.load(_pack(tmp_path), backend="closures", cache=False)
    assert closures.stage_filters == {} and closures.stage_tests["main"] is None


@pytest.mark.parametrize("seed", range(8))
def test_games_list_and_end_alike_under_both_backends(tmp_path: Path, seed: int) -> None:
    root = _pack(tmp_path)
    outcomes = [_outcome(ruleskit.load(root, backend=b, cache=False), seed) for b in BACKENDS]
    assert outcomes[0] == outcomes[1]
    listed, ended = outcomes[0]
    # The limits bind: once_a_turn twice in one turn, or twice_a_game a third time, is never offered.
    assert not any(ids.count("once_a_turn") > 1 for ids in listed)
    assert "ZeroDivision" in ended or "division" in ended.lower() or "forty points" in ended


def test_the_filter_lists_what_the_engines_own_loop_lists(tmp_path: Path) -> None:
    """The same game object with its filters taken away lists through the engine's loop (`_passing`)."""
    root = _pack(tmp_path)
    filtered = ruleskit.load(root, backend="compiled", cache=False)
    looped = ruleskit.load(root, backend="compiled", cache=False)
    looped.stage_tests = {stage: None for stage in looped.stage_tests}
    for seed in range(6):
        assert _outcome(filtered, seed) == _outcome(looped, seed)


@pytest.mark.parametrize("pack,players", [("ophir", 4), ("ophir", 2), ("envoys", 3), ("connect_four", 2)])
def test_built_in_packs_list_alike_with_and_without_their_filters(pack: str, players: int) -> None:
    filtered = ruleskit.load(pack)
    looped = ruleskit.load(pack, cache=False)
    looped.stage_tests = {stage: None for stage in looped.stage_tests}
    for seed in range(2):
        assert _outcome(filtered, seed) == _outcome(looped, seed)


def test_a_when_that_fails_fails_only_when_the_listing_reaches_it(tmp_path: Path) -> None:
    """The listing goes on lazily past the first action found: a failing `when` further on is raised by the
    call that lists it, and an action found before it can still be taken by id."""
    game = ruleskit.load(_pack(tmp_path), backend="compiled", cache=False)
    state = game.new_game(players=2, seed=0)
    state.data["v"]["left"] = 0  # `12 // left` now divides by zero
    state = ruleskit.State.from_json(game, state.to_json())
    state.apply("once_a_turn")  # found before the failing `when`
    with pytest.raises(ruleskit.RulesError, match="zero"):
        state.legal_actions()
