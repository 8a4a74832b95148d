"""A board builtin given a value no node can be (a number, a seat, a list, an item of another kind than the
board's nodes) is refused at load, at the argument, in both backends. In play such a call finds no node and
answers an empty list (or false), so the action it feeds was silently never offered."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import ruleskit
from ruleskit import PackError

PACKS = Path(__file__).resolve().parents[1] / "packs"
PARAMS_LINE = 63  # the params of [actions.step] in dice_race/game.toml
ORIGINAL = 'params = { to = "adjacent(me.pawn.at)" }'


def pack_with_step_to(root: Path, options: str) -> Path:
    """dice_race with the step action's destinations written as `options`."""
    shutil.copytree(PACKS / "dice_race", root)
    game = root / "game.toml"
    text = game.read_text()
    assert text.splitlines()[PARAMS_LINE - 1] == ORIGINAL
    game.write_text(text.replace(ORIGINAL, f'params = {{ to = "{options}" }}'))
    return root


BACKENDS = ["compiled", "closures"]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("options", "argument", "given"), [
    ("adjacent(3)", "3", "int"),
    ("adjacent(me)", "me", "player"),
    ("adjacent(me.pawn)", "me.pawn", "pawn"),  # the pawn, not the space it stands on
    ("adjacent(true)", "true", "bool"),
    ("neighbours([me.pawn.at])", "[me.pawn.at]", "list[space]"),
    ("[n for n in adjacent(me.pawn.at) if not blocked(n, 1)]", "1", "int"),
])
def test_a_value_no_node_can_be_is_refused_at_the_argument(tmp_path: Path, backend: str, options: str,
                                                           argument: str, given: str) -> None:
    with pytest.raises(PackError) as caught:
        ruleskit.load(str(pack_with_step_to(tmp_path / "p", options)), backend, cache=False)
    error = caught.value
    assert error.message.endswith(f"takes a node of the board (an item of 'space'), not a value of type {given}")
    assert Path(error.file or "").name == "game.toml" and error.line == PARAMS_LINE
    # At the argument itself, inside the params' text: `params = { to = "` is 17 characters.
    assert error.column == 18 + options.rindex(argument)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("options", [
    "adjacent(me.pawn.at)",  # a node
    "adjacent(\\\"s3\\\")",  # a text: a node's id, or not, is the game's to tell
    "adjacent(none)",  # nothing: no node, so no neighbour
    "flatten([neighbours(e[0]) for e in edges()])",  # of no known type
])
def test_a_value_that_may_be_a_node_loads_and_plays(tmp_path: Path, backend: str, options: str) -> None:
    game = ruleskit.load(str(pack_with_step_to(tmp_path / "p", options)), backend, cache=False)
    state = game.new_game(players=2, seed=3)
    for _ in range(20):
        if state.is_terminal:
            break
        state.apply(state.legal_actions()[0])


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_pack_without_a_board_is_told_so(tmp_path: Path, backend: str) -> None:
    shutil.copytree(PACKS / "card_duel", tmp_path / "p")
    rules = tmp_path / "p" / "extra.rk"
    rules.write_text("rule around() = count(adjacent(3))\n")
    manifest = tmp_path / "p" / "pack.toml"
    text = manifest.read_text()
    assert "files = [" in text
    manifest.write_text(text.replace("files = [", 'files = ["extra.rk", ', 1))
    with pytest.raises(PackError) as caught:
        ruleskit.load(str(tmp_path / "p"), backend, cache=False)
    error = caught.value
    assert error.message == "adjacent() takes a node of a board, not a value of type int"
    assert error.hint == "the pack has no board"
    assert Path(error.file or "").name == "extra.rk" and error.line == 1
