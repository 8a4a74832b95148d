"""An answer to a choice inside an action goes on from the choice: the job does not run again from its start.

An action's effect in generated code that may stop at a `choose` runs as a generator (codegen
`resumable_block`); the state keeps it beside the pending decision, and the answer resumes it. Running
the job again with the answers so far stays the meaning of an answer: a saved state does that, and so
does the reference backend. These tests hold the two to the same results: data, history, pending
decisions, refusals and errors.
"""

from __future__ import annotations

import gc
import random
from pathlib import Path
from typing import Any

import pytest
from engine_support import write_pack

import ruleskit
from ruleskit import State
from ruleskit.errors import BudgetExceeded, IllegalAction

GAME = """\
[dice.d6]
faces = [1, 2, 3, 4, 5, 6]

[counters.points]
owner = "player"
max = 100000

[counters.rolls]
owner = "player"
max = 100000

[vars.picked]
type = "int"

[stages.main]

[phases.play]
stage = "main"

[flow]
start = "play"

[actions.play]
stage = "main"
effect = \"\"\"
let a = roll d6
me.rolls += a
say "rolled before choosing"
pick_twice(me, a)
let c = roll d6
me.points += c
end turn
\"\"\"

[actions.gather]
stage = "main"
effect = \"\"\"
let s = choose me subset 2..3 of range(20) prompt "Take two or three"
me.points += sum(s)
let t = choose me number 0 .. 2 prompt "Spin?"
for i in range(t * 5000) {
    for j in range(30) { set picked = j }
}
end turn
\"\"\"

[actions.wager]
stage = "main"
effect = \"\"\"
let other = if me == 0 then 1 else 0
let w = choose other from [1, 2, 3] prompt "The other player sets the wager"
emit wagered(me, w)
if w == 3 and me.rolls > 20 {
    let last = choose me from [true, false] prompt "End the game now?"
    if last { finish "called it" }
}
me.points += w
end turn
\"\"\"

[actions.tip]
stage = "main"
anytime = true
limit = { game = 2 }
effect = \"\"\"
let t = choose me number 1 .. 3 prompt "Tip how much?"
me.points += t
\"\"\"

[end.enough]
when = "any([p.points >= 60 for p in players])"
reason = "sixty points"

[scoring]
score = "p.points"
"""

RULES = """\
# A hook that asks too: the effect that emitted its event stops inside it.
hook double_or_nothing on wagered(p, w) {
    let d = choose p from ["double", "keep"] prompt "Double the wager?"
    if d == "double" { p.rolls += w }
}

# Two picks, each followed by a roll; a pick of 3 earns a bonus choice, a pick of 5 is refused.
proc pick_twice(p, a) {
    for i in range(2) {
        let x = choose p number 0 .. a prompt "How many?"
        require x != 5, "five is not allowed"
        p.points += x
        set picked = x
        let y = roll d6
        p.rolls += y
        if x == 3 {
            let z = choose p from [1, 2] prompt "Bonus"
            p.points += z * 10
        }
    }
}
"""


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_pack(tmp_path_factory.mktemp("resume") / "picks", game=GAME, rules=RULES)


@pytest.fixture(scope="module")
def compiled(root: Path) -> ruleskit.Game:
    return ruleskit.load(root, cache=False)


@pytest.fixture(scope="module")
def closures(root: Path) -> ruleskit.Game:
    return ruleskit.load(root, backend="closures", cache=False)


def rerun(state: State) -> State:
    """The same state through its saved form: an answer to it runs the job again from its start."""
    return State.from_json(state.game, state.dumps(), trusted=True)


def outcome(state: State, action: str) -> str:
    """The state after taking `action`, as JSON text, or the error it was refused with."""
    try:
        state.apply(action)
    except (IllegalAction, BudgetExceeded) as exc:
        return f"{type(exc).__name__}: {exc}"
    return state.dumps()


def counting_effect_starts(game: ruleskit.Game, action: str) -> list[int]:
    """Count each start of `action`'s resumable effect (a list that grows by one per start)."""
    compiled_action = game.actions[action]
    effect = compiled_action.resumable
    assert effect is not None, "the effect may stop for a choice: it should be resumable"
    starts: list[int] = []

    def counted(ctx: Any) -> Any:
        starts.append(1)
        return effect(ctx)

    compiled_action.resumable = counted
    return starts


def test_each_answer_goes_on_from_its_choice(root: Path) -> None:
    game = ruleskit.load(root, cache=False, backend="compiled")
    starts = counting_effect_starts(game, "play")
    state = game.new_game(players=2, seed=3)
    state.apply("play")
    answers = 0
    while state.pending is not None:
        state.apply(state.legal_actions()[0].id)
        answers += 1
    assert answers >= 2
    assert len(starts) == 1  # the effect began once, and went on at each answer

    saved = game.new_game(players=2, seed=3)
    saved.apply("play")
    while saved.pending is not None:
        saved = rerun(saved)
        saved.apply(saved.legal_actions()[0].id)
    assert len(starts) == 2 + answers  # through its saved form, every answer starts the effect again
    assert saved.dumps() == state.dumps()


@pytest.mark.parametrize("seed", range(6))
def test_going_on_gives_what_running_again_gives(compiled: ruleskit.Game, closures: ruleskit.Game,
                                                 seed: int) -> None:
    rng = random.Random(seed)
    resumed, saved, reference = (game.new_game(players=2, seed=seed) for game in (compiled, compiled, closures))
    for _ in range(60):
        if resumed.is_terminal:
            break
        legal = [a.id for a in resumed.legal_actions()]
        assert legal == [a.id for a in saved.legal_actions()] == [a.id for a in reference.legal_actions()]
        choice = rng.choice([a for a in legal if a != "gather"] or legal)
        results = [outcome(resumed, choice), outcome(saved, choice), outcome(reference, choice)]
        assert results[0] == results[1] == results[2]
        saved = rerun(saved)
    assert resumed.history == reference.history


def test_clones_of_a_pending_choice_answer_on_their_own(compiled: ruleskit.Game) -> None:
    state = compiled.new_game(players=2, seed=5)
    state.apply("play")
    assert state.pending is not None and len(state.legal_actions()) >= 2
    before = state.dumps()
    first, second = state.clone(), state.clone()
    one, other = state.legal_actions()[0].id, state.legal_actions()[1].id
    first.apply(one)
    second.apply(other)
    assert first.dumps() == outcome(rerun(state), one)
    assert second.dumps() == outcome(rerun(state), other)
    assert state.dumps() == before
    state.apply(other)
    assert state.dumps() == second.dumps()


def test_a_refused_answer_leaves_the_state_and_the_choice_open(compiled: ruleskit.Game) -> None:
    for seed in range(40):  # a game whose first roll allows the refused answer 5
        state = compiled.new_game(players=2, seed=seed)
        state.apply("play")
        if "5" in [a.id for a in state.legal_actions()]:
            break
    else:
        pytest.fail("no seed rolled a 5 or a 6 first")
    before = state.dumps()
    expected = outcome(rerun(state), "5")
    with pytest.raises(IllegalAction, match="five is not allowed"):
        state.apply("5")
    assert expected.startswith("IllegalAction: not allowed: five is not allowed")
    assert state.dumps() == before
    state.apply("1")
    assert state.dumps() == outcome(rerun(State.from_json(compiled, before)), "1")


def test_a_choice_of_one_element_per_answer_goes_on_too(compiled: ruleskit.Game, closures: ruleskit.Game) -> None:
    results = []
    for game, through_save in ((compiled, False), (compiled, True), (closures, False)):
        state = game.new_game(players=2, seed=2)
        state.apply("gather")
        prompts = []
        while state.pending is not None and len(prompts) < 10:
            prompts.append(state.pending["prompt"])
            if through_save:
                state = rerun(state)
            if state.pending["prompt"] == "Spin?":
                state.apply("0")
            else:
                state.apply(state.legal_actions()[-1].id)
        results.append((prompts, state.dumps()))
    assert results[0] == results[1] == results[2]
    assert len(results[0][0]) >= 4  # two or three elements, one per answer, then `done` and the spin


def test_running_out_of_steps_after_the_choice_is_the_same_error(compiled: ruleskit.Game,
                                                                 closures: ruleskit.Game) -> None:
    errors = []
    for game, through_save in ((compiled, False), (compiled, True), (closures, False)):
        state = game.new_game(players=2, seed=2)
        state.apply("gather")
        while state.pending is not None and state.pending["prompt"] != "Spin?":
            state.apply(state.legal_actions()[0].id)
        if through_save:
            state = rerun(state)
        before = state.dumps()
        errors.append(outcome(state, "2"))
        assert state.dumps() == before
        assert outcome(state, "0") != before  # a smaller spin is still open
    assert errors[0] == errors[1] == errors[2]
    assert errors[0].startswith("BudgetExceeded: ")
    assert "step budget of 200000 exceeded in action gather (" in errors[0]


@pytest.mark.parametrize("pack", ["toy", "ophir"])
def test_paused_jobs_leave_no_cycles_for_the_garbage_collector(compiled: ruleskit.Game, pack: str) -> None:
    # A paused effect holds the `Suspend` it stopped with: if that held the effect or the frames it passed
    # in turn, every answered choice would leave a cycle of frames and game data behind.
    game = compiled if pack == "toy" else ruleskit.load(pack)
    gc.collect()
    gc.disable()
    try:
        answered = 0
        for seed in range(3):
            rng = random.Random(seed)
            state = game.new_game(players=2, seed=seed)
            for _ in range(400):
                if state.is_terminal:
                    break
                answered += state.pending is not None
                refused = ("1", "2") if state.prompt == "Spin?" else ("5",)  # out of steps, not allowed
                legal = [a for a in state.legal_actions() if a.id not in refused]
                state.apply(legal[rng.randrange(len(legal))])
        assert answered > 10
        assert gc.collect() == 0
    finally:
        gc.enable()
