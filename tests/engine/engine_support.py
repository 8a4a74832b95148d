"""Helpers for the engine tests: the toy packs, random play, and small packs built in a folder."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ruleskit
from ruleskit import Game, State

PACKS = Path(__file__).resolve().parent.parent / "packs"


def play_random(game: Game, players: int, seed: int, stop: Callable[[State], bool] | None = None,
                max_steps: int = 2000) -> State:
    """Play uniformly random legal decisions (seeded) until the game ends or `stop` says so."""
    state = game.new_game(players=players, seed=seed)
    chooser = random.Random(seed)
    for _ in range(max_steps):
        if state.is_terminal or (stop is not None and stop(state)):
            return state
        state.apply(chooser.choice(state.legal_actions()))
    raise AssertionError(f"game did not end within {max_steps} decisions")


def random_states(game: Game, players: int, seed: int) -> list[State]:
    """Every state (as a clone) met in one random game, from setup to the end."""
    state = game.new_game(players=players, seed=seed)
    chooser = random.Random(seed)
    seen = [state.clone()]
    while not state.is_terminal:
        state.apply(chooser.choice(state.legal_actions()))
        seen.append(state.clone())
    return seen


def apply_ids(state: State, *ids: str) -> State:
    """Apply decisions by id, for the one player who may take each."""
    for action_id in ids:
        state.apply(action_id)
    return state


TINY_MANIFEST = """\
name = "tiny"
version = "0.1"
players = { min = 2, max = 2 }
files = ["game.toml", "rules.rk"]
"""

TINY_GAME = """\
[counters.points]
owner = "player"
max = 5

[stages.main]

[phases.play]
stage = "main"

[flow]
start = "play"

[actions.score]
stage = "main"
effect = "me.points += double(1)\\nend turn"

[end.enough]
when = "any([p.points >= 4 for p in players])"
reason = "four points"

[scoring]
score = "p.points"
"""

TINY_RULES = """\
# Twice a number.
rule double(x) = x * 2
"""


def write_pack(root: Path, files: dict[str, str] | None = None, **named: str) -> Path:
    """A small valid pack in `root`, with any of its files replaced or added.

    `files` maps file names to text; `game`, `rules` and `manifest` replace the
    standard three files.
    """
    root.mkdir(parents=True, exist_ok=True)
    content = {"pack.toml": named.get("manifest", TINY_MANIFEST), "game.toml": named.get("game", TINY_GAME),
               "rules.rk": named.get("rules", TINY_RULES)}
    content.update(files or {})
    for name, text in content.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def line_of(path: Path, needle: str) -> int:
    """The 1-based line of the first line of a file containing `needle`."""
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if needle in text:
            return number
    raise AssertionError(f"{needle!r} not in {path}")


def first_decision(root: Path, backend: str) -> Any:
    """The state after the first legal action of a 2-player game (seed 1) of the pack at `root`, as JSON, or the
    error that action raised."""
    state = ruleskit.load(root, backend=backend, cache=False).new_game(players=2, seed=1)
    try:
        state.apply(state.legal_actions()[0])
    except Exception as exc:  # noqa: BLE001 - the error itself is compared
        return f"{type(exc).__name__}: {exc}"
    return state.to_json()


def agreed(root: Path) -> Any:
    """`first_decision` of the pack at `root` in both backends, which must give the same (returned)."""
    results = [first_decision(root, backend) for backend in ("compiled", "closures")]
    assert results[0] == results[1]
    return results[0]
