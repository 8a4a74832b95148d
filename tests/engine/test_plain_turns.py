"""A phase whose turns end with no pack code (`Game.plain_phases`) passes them on a short path, and a game whose
turns also start with none (`Game.quiet_starts`, `Game.simple_flow`) on a shorter one: the same flow, state and
history at every decision as the general path gives."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from engine_support import PACKS, TINY_GAME, TINY_RULES, write_pack

import ruleskit

# Three to four players taking turns clockwise or counterclockwise, passing or scoring, over many rounds:
# the rotation wraps at every round's end.
ROTATION = """\
[counters.points]
owner = "player"
max = 1000

[stages.main]

[phases.play]
stage = "main"
order = "{order}"

[flow]
start = "play"
max_turns = 60

[actions.score]
stage = "main"
params = {{ n = "[1, 2]" }}
effect = "me.points += n\\nend turn"

[actions.pass]
stage = "main"
effect = "end turn"

[scoring]
score = "p.points"
"""

MANIFEST = """\
name = "rotation"
version = "0.1"
players = {{ min = 3, max = 4 }}
files = ["game.toml"]
"""


def lockstep(game: ruleskit.Game, players: int, seed: int) -> None:
    """One random game on the short path and on the general one, compared at every decision."""
    general = ruleskit.load(game.source.root, cache=False)
    general.plain_phases = set()
    general.simple_flow = False  # a game of quiet starts passes its turns in place (`engine.settle_simply`)
    short, long = game.new_game(players=players, seed=seed), general.new_game(players=players, seed=seed)
    chooser = random.Random(seed)
    while not short.is_terminal:
        assert [a.id for a in short.legal_actions()] == [a.id for a in long.legal_actions()]
        action = chooser.choice(short.legal_actions()).id
        short.apply(action)
        long.apply(action)
        assert short.dumps() == long.dumps()
    assert long.is_terminal


@pytest.mark.parametrize("order", ["clockwise", "counterclockwise"])
@pytest.mark.parametrize("players", [3, 4])
def test_a_plain_rotation_passes_turns_as_the_general_path_does(tmp_path: Path, order: str, players: int) -> None:
    root = tmp_path / "rotation"
    root.mkdir()
    (root / "pack.toml").write_text(MANIFEST.format(), encoding="utf-8")
    (root / "game.toml").write_text(ROTATION.format(order=order), encoding="utf-8")
    game = ruleskit.load(root, cache=False)
    assert game.plain_phases == game.quiet_starts == {"play"}
    for seed in range(3):
        lockstep(game, players, seed)


@pytest.mark.parametrize(("pack", "players", "games"), [("connect_four", 2, 3), (str(PACKS / "take_turns"), 2, 3),
                                                         ("envoys", 3, 3), ("ophir", 2, 1)])
def test_built_in_plain_phases_pass_turns_as_the_general_path_does(pack: str, players: int, games: int) -> None:
    game = ruleskit.load(pack)
    assert game.plain_phases
    for seed in range(games):
        lockstep(game, players, seed)


# What runs as a turn starts keeps a phase plain; the end conditions are then checked again, as the general
# path checks them: a hook that scores at each turn's start ends the game at the same decision.
PLAIN_WITH_STARTS = {
    "a turn-start hook": {"rules": TINY_RULES + "hook bump on turn_start(p) {\n    p.points += 1\n}\n"},
    "a turn-start snippet": {"game": TINY_GAME.replace('stage = "main"\n\n[flow]',
                                                       'stage = "main"\non_turn_start = "me.points += 1"\n\n[flow]')},
    "a var reset each turn": {"game": TINY_GAME + '\n[vars.drawn]\ntype = "int"\nowner = "turn"\n'},
}


@pytest.mark.parametrize("change", sorted(PLAIN_WITH_STARTS))
def test_code_at_a_turns_start_keeps_the_phase_plain_and_the_same(tmp_path: Path, change: str) -> None:
    game = ruleskit.load(write_pack(tmp_path / "started", **PLAIN_WITH_STARTS[change]), cache=False)
    assert game.plain_phases == {"play"}
    assert not game.quiet_starts  # the turn's start is passed by the general path
    for seed in range(3):
        lockstep(game, 2, seed)


# Each makes pack code run as a turn or a round ends, or may end the phase: the general path passes them.
NOT_PLAIN = {
    "a turn-end hook": {"rules": TINY_RULES + 'hook note on turn_end(p) {\n    say "done"\n}\n'},
    "a round-end hook": {"rules": TINY_RULES + 'hook note on round_end() {\n    say "round"\n}\n'},
    "rounds": {"game": TINY_GAME.replace('stage = "main"\n\n[flow]', 'stage = "main"\nrounds = 3\n\n[flow]')},
    "an end": {"game": TINY_GAME.replace('stage = "main"\n\n[flow]', 'stage = "main"\nend_when = "turn_number > 3"\n\n[flow]')},
    "a turn snippet": {"game": TINY_GAME.replace('stage = "main"\n\n[flow]',
                                                 'stage = "main"\non_turn_end = "me.points += 0"\n\n[flow]')},
}


@pytest.mark.parametrize("change", sorted(NOT_PLAIN))
def test_a_phase_whose_turns_run_pack_code_is_not_plain(tmp_path: Path, change: str) -> None:
    assert ruleskit.load(write_pack(tmp_path / "plain"), cache=False).plain_phases == {"play"}
    game = ruleskit.load(write_pack(tmp_path / "changed", **NOT_PLAIN[change]), cache=False)
    assert not game.plain_phases and not game.quiet_starts
    for seed in range(2):
        lockstep(game, 2, seed)
