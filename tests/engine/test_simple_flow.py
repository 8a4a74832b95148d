"""A game whose flow is simple (`Game.simple_flow`: turns that pass and start with no pack code, stages entered
with nothing to run, ends that read no flow value) runs the flow after an action as `engine.settle_simply`:
the same legal actions, states, histories, steps and errors as the general `settle` gives."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from engine_support import TINY_MANIFEST, write_pack

import ruleskit

ROOT = Path(__file__).resolve().parents[2]

# Two actions, one with a `when`, one whose options run out: a player may have nothing to do, and the turn
# then passes by itself; the ends hold after some turns, or the turn limit does. ENDS and OPTIONS vary.
GAME = """\
[counters.points]
owner = "player"
max = 60

[counters.spent]
owner = "player"
max = 60

[stages.main]

[phases.play]
stage = "main"

[flow]
start = "play"
max_turns = 40

[actions.take]
stage = "main"
label = "Take {{n}}"
params = {{ n = "{options}" }}
effect = "me.points += n\\nme.spent += 1\\nend turn"

[actions.rest]
stage = "main"
when = "{rest}"
effect = "me.spent += 1\\nend turn"
{ends}
[scoring]
score = "p.points"
"""

ENDS = """
[end.enough]
when = "{condition}"
reason = "enough"
"""


def pack(root: Path, options: str = "[1, 2, 3]", rest: str = "me.spent % 3 == 2",
         condition: str | None = "any([p.points >= 20 for p in players])") -> Path:
    ends = "" if condition is None else ENDS.format(condition=condition)
    manifest = TINY_MANIFEST.replace("max = 2", "max = 3")
    return write_pack(root, game=GAME.format(options=options, rest=rest, ends=ends), rules="", manifest=manifest)


def outcome(state: ruleskit.State, action: str) -> str:
    """What taking an action does to the state: its JSON afterwards, or the error it raised."""
    try:
        state.apply(action)
    except Exception as exc:  # noqa: BLE001 - the error itself is compared
        return f"{type(exc).__name__}: {exc}"
    return state.dumps()


def lockstep(root: Path | str, players: int, seed: int, backend: str = "compiled") -> tuple[int, int]:
    """One random game with the simple flow and with the general one, compared at every decision; the number
    of decisions compared, and of those after which a turn had passed with nobody able to act."""
    simple = ruleskit.load(root, backend=backend, cache=False)
    general = ruleskit.load(root, backend=backend, cache=False)
    assert simple.simple_flow
    general.simple_flow = False
    one, other = simple.new_game(players=players, seed=seed), general.new_game(players=players, seed=seed)
    chooser = random.Random(seed)
    decisions = idle = 0
    while not one.is_terminal:
        assert [(a.id, a.label) for a in one.legal_actions()] == [(a.id, a.label) for a in other.legal_actions()]
        action = chooser.choice(one.legal_actions()).id
        after = outcome(one, action)
        assert after == outcome(other, action)
        decisions += 1
        if not after.startswith("{"):  # the same error on both sides: the game goes no further
            return decisions, idle
        idle += one.raw["flow"]["idle"] > 0
    assert other.is_terminal and one.result == other.result
    return decisions, idle


@pytest.mark.parametrize("backend", ["compiled", "closures"])
def test_connect_four_runs_the_simple_flow_as_the_general_one(backend: str) -> None:
    for seed in range(3):
        assert lockstep("connect_four", 2, seed, backend)[0] >= 7


@pytest.mark.parametrize("root", ["tests/packs/take_turns", "benchmarks/packs/end_turn_only"])
def test_the_engines_own_packs_run_the_simple_flow_as_the_general_one(root: str) -> None:
    for seed in range(2):
        assert lockstep(ROOT / root, 2, seed)[0] > 0


@pytest.mark.parametrize(("options", "rest", "condition", "passes"), [
    ("[1, 2, 3]", "me.spent % 3 == 2", "any([p.points >= 20 for p in players])", False),
    # Every third turn nobody can take or rest: the turn passes by itself.
    ("if turn_number % 3 == 0 then [] else [1, 2]", "false", "any([p.points >= 12 for p in players])", True),
    # Options that run out: a player with nothing to take rests, until nobody can and the game is stuck (the
    # same error both ways).
    ("range(1, 6 - me.spent)", "me.spent % 4 == 3", "any([p.points >= 20 for p in players])", False),
    ("[x for x in [3, 1] if x > me.spent]", "false", "any([p.points >= 50 for p in players])", False),
    # No end condition: the turn limit ends it.
    ("[1, 2]", "true", None, False),
])
def test_a_simple_flow_gives_what_the_general_flow_gives(tmp_path: Path, options: str, rest: str,
                                                         condition: str | None, passes: bool) -> None:
    root = pack(tmp_path / "simple", options, rest, condition)
    passed = 0
    for players in (2, 3):
        for seed in range(3):
            passed += lockstep(root, players, seed)[1]
    assert (passed > 0) == passes


def test_choices_and_turns_of_several_actions_run_as_the_general_flow_runs_them(tmp_path: Path) -> None:
    # A choice inside the action (its answer resumes the job, which the general flow then finishes), and a turn
    # that ends only after every second action.
    effect = 'effect = "me.points += n\\nme.spent += 1\\nend turn"'
    assert effect in GAME
    chosen = GAME.replace(effect, 'effect = "let k = choose me from [1, 2]\\nme.points += n * k\\nme.spent += 1\\n'
                                  'if me.spent % 2 == 0 {{\\n    end turn\\n}}"')
    root = write_pack(tmp_path / "chosen", rules="", manifest=TINY_MANIFEST.replace("max = 2", "max = 3"),
                      game=chosen.format(options="[1, 3]", rest="me.spent % 5 == 4",
                                         ends=ENDS.format(condition="any([p.points >= 25 for p in players])")))
    for players in (2, 3):
        for seed in range(3):
            assert lockstep(root, players, seed)[0] > 10


def test_every_player_stuck_is_the_same_error(tmp_path: Path) -> None:
    root = pack(tmp_path / "stuck", options="[]", rest="false")
    errors = []
    for simple in (True, False):
        game = ruleskit.load(root, cache=False)
        game.simple_flow = simple
        with pytest.raises(ruleskit.ProgramError) as raised:
            game.new_game(players=2, seed=1)
        errors.append(str(raised.value))
    assert errors[0] == errors[1] and "the game is stuck" in errors[0]


def test_ends_with_no_room_left_to_charge_again_are_asked_again(tmp_path: Path) -> None:
    # The end condition takes some 110,000 steps of a job's 200,000: after the first action, charging them
    # again as the next turn starts would overrun the budget, so the ends are asked again, to the budget's
    # error, at the same place on both sides.
    costly = "any([sum(range(0, 500)) < 0 for x in range(0, 110)])"  # range and sum: 1,000 steps each
    root = pack(tmp_path / "costly", condition=costly)
    errors = []
    for simple in (True, False):
        game = ruleskit.load(root, cache=False)
        game.simple_flow = simple
        state = game.new_game(players=2, seed=1)
        before = state.dumps()
        errors.append(outcome(state, state.legal_actions()[0].id))
        assert state.dumps() == before  # refused: nothing changed
    assert errors[0] == errors[1] and "step budget" in errors[0]
    # A cheaper one is charged again and not asked: the games agree all the way.
    lockstep(pack(tmp_path / "cheaper", condition="any([sum(range(0, 500)) < 0 for x in range(0, 60)])"), 2, 1)


def test_only_a_simple_flow_is_run_as_one() -> None:
    assert ruleskit.load("connect_four").simple_flow
    assert not ruleskit.load("envoys").simple_flow  # a hook as each turn starts
    assert not ruleskit.load("ophir").simple_flow  # the same, phases that are not plain, and more


def test_a_stage_entered_with_code_is_not_a_simple_flow(tmp_path: Path) -> None:
    entered = GAME.replace("[stages.main]\n", '[stages.main]\non_enter = "me.spent += 0"\n')
    text = entered.format(options="[1]", rest="true", ends="")
    assert not ruleskit.load(write_pack(tmp_path / "entered", game=text, rules="", manifest=TINY_MANIFEST),
                             cache=False).simple_flow
    reading = pack(tmp_path / "reading", condition="turn_number > 12")  # an end that reads the flow
    assert not ruleskit.load(reading, cache=False).simple_flow
