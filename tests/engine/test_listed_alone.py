"""A stage whose one action has no limit or `when` and one parameter listed by generated code
(`Game.listed_alone`) is listed by the flow itself, without `_offer`'s generator: the same legal actions,
states, histories and errors as the general listing gives."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from engine_support import TINY_MANIFEST, write_pack

import ruleskit

# One action with one parameter whose options change as the game goes on, some refused by a `require`: the
# stage has nothing to offer a player whose points are all spent, and the turn passes by itself.
CHANGING = """\
[counters.points]
owner = "player"
max = 50

[counters.spent]
owner = "player"
max = 50

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
require = [{{ check = "n != 2", message = "two is never taken" }}]
effect = "me.points += n\\nme.spent += 1\\nend turn"

[end.enough]
when = "any([p.points >= 30 for p in players])"
reason = "thirty points"

[scoring]
score = "p.points"
"""


def changing_pack(root: Path, options: str) -> Path:
    return write_pack(root, game=CHANGING.format(options=options), rules="", manifest=TINY_MANIFEST)


def outcome(state: ruleskit.State, action: str) -> str:
    """What taking an action does to the state: its JSON afterwards, or the error it raised."""
    try:
        state.apply(action)
    except Exception as exc:  # noqa: BLE001 - the error itself is compared
        return f"{type(exc).__name__}: {exc}"
    return state.dumps()


def lockstep(game: ruleskit.Game, players: int, seed: int) -> None:
    """One random game listed alone and listed by `_offer`, compared at every decision."""
    general = ruleskit.load(game.source.root, backend=game.backend, cache=False)
    general.listed_alone = {}
    alone, listed = game.new_game(players=players, seed=seed), general.new_game(players=players, seed=seed)
    chooser = random.Random(seed)
    while not alone.is_terminal:
        assert [(a.id, a.label) for a in alone.legal_actions()] == [(a.id, a.label) for a in listed.legal_actions()]
        action = chooser.choice(alone.legal_actions()).id
        after = outcome(alone, action)
        assert after == outcome(listed, action)
        if not after.startswith("{"):  # the same error on both sides: the game goes no further
            return
    assert listed.is_terminal


@pytest.mark.parametrize("backend", ["compiled", "closures"])
def test_connect_four_lists_its_drops_alone_as_the_general_listing_does(backend: str) -> None:
    game = ruleskit.load("connect_four", backend=backend)
    if backend == "compiled":
        assert game.listed_alone == {"drop": game.actions["drop"]}
    else:
        assert game.listed_alone == {}  # the reference backend has no generated listers
    for seed in range(3):
        lockstep(game, 2, seed)


@pytest.mark.parametrize("options", ["[1, 2, 3]", "range(1, 5 - me.spent)", "[x for x in [3, 2, 1] if x > me.spent]"])
def test_changing_options_are_listed_alone_as_the_general_listing_lists_them(tmp_path: Path, options: str) -> None:
    game = ruleskit.load(changing_pack(tmp_path / "changing", options), cache=False)
    assert list(game.listed_alone) == ["main"]
    for seed in range(4):
        lockstep(game, 2, seed)


@pytest.mark.parametrize(("options", "error"), [
    ("if me.spent > 0 then 5 else [1, 3]", "game.toml:21: error: expected a list or a zone, got '5'"),  # not a list
    ("[[1, 3], [3]][me.spent]", "index"),  # once a player has taken twice
    ("[1, 3 // (1 - me.spent)]", "by zero"),  # once a player has taken once
    ("[sum(range(0, 1000)) for x in range(0, 1000)]", "step budget"),  # too long a listing
])
def test_a_listing_alone_raises_the_general_listings_error(tmp_path: Path, options: str, error: str) -> None:
    root = changing_pack(tmp_path / "wrong", options)
    game = ruleskit.load(root, cache=False)
    general = ruleskit.load(root, cache=False)
    general.listed_alone = {}
    assert list(game.listed_alone) == ["main"]
    errors: list[str] = []
    for candidate in (game, general):
        try:
            state = candidate.new_game(players=2, seed=1)  # the setup's job lists the first decision
            while not state.is_terminal:
                state.apply(state.legal_actions()[0])
        except Exception as exc:  # noqa: BLE001 - the error itself is compared
            errors.append(f"{type(exc).__name__}: {exc}")
    assert len(errors) == 2 and errors[0] == errors[1]
    assert error in errors[0]


def test_a_stage_with_a_when_or_a_second_action_is_not_listed_alone(tmp_path: Path) -> None:
    with_when = CHANGING.format(options="[1, 3]").replace('stage = "main"\nlabel', 'stage = "main"\nwhen = "true"\nlabel')
    assert not ruleskit.load(write_pack(tmp_path / "when", game=with_when, rules=""), cache=False).listed_alone
    second = CHANGING.format(options="[1, 3]") + '\n[actions.pass]\nstage = "main"\neffect = "end turn"\n'
    assert not ruleskit.load(write_pack(tmp_path / "second", game=second, rules=""), cache=False).listed_alone
