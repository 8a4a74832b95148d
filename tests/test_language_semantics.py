"""Rule-language semantics at the edges: escapes, list concatenation, early return, reserved names, types."""

import shutil
from pathlib import Path

import pytest

import ruleskit
from ruleskit import LanguageError
from ruleskit.runtime.context import Ctx

BASE = Path(__file__).parent / "packs" / "dice_race"


def variant(tmp_path: Path, rules: str, toml: str = "") -> Path:
    shutil.copytree(BASE, tmp_path / BASE.name)  # a base is named relative to its variant
    tmp_path = tmp_path / "variant"
    tmp_path.mkdir()
    (tmp_path / "pack.toml").write_text(
        'name = "probe"\nversion = "1"\nplayers = { min = 2, max = 4 }\n'
        f'extends = "../{BASE.name}"\n')
    (tmp_path / "extra.rk").write_text(rules)
    if toml:
        (tmp_path / "extra.toml").write_text(toml)
    return tmp_path


def evaluate(game: ruleskit.Game, rule: str) -> object:
    state = game.new_game(players=2, seed=1)
    ctx = Ctx(game.program, state.data, 0)
    return game.program.rules[rule](ctx, [])


def test_string_escapes_decode_in_one_pass(tmp_path: Path) -> None:
    game = ruleskit.load(variant(tmp_path, 'rule text() = "a\\\\nb\\"c\\nd"\n'))
    assert evaluate(game, "text") == 'a\\nb"c\nd'


def test_lists_concatenate_even_when_types_are_unknown(tmp_path: Path) -> None:
    game = ruleskit.load(variant(tmp_path, "rule cat(a, b) = a + b\nrule both() = cat([1, 2], [3])\n"))
    assert evaluate(game, "both") == [1, 2, 3]


def test_return_ends_an_inline_effect(tmp_path: Path) -> None:
    toml = '[update.actions.roll]\neffect = "steps += 1\\ngoto walk\\nreturn\\nsteps += 5"\n'
    game = ruleskit.load(variant(tmp_path, "", toml))
    state = game.new_game(players=2, seed=1)
    state.apply("roll")
    assert state.data["v"]["steps"] == 1
    assert state.stage == "walk"


@pytest.mark.parametrize(("rules", "line", "fragment"), [
    ("proc p() {\n  let true = 1\n}\n", 2, "'true' is a reserved word"),
    ("rule f(x: spcae) = 1\n", 1, "unknown type 'spcae' (did you mean 'space'?)"),
    ("rule f(x, x) = 1\n", 1, "parameter 'x' is listed twice"),
    ("hook again on stepped(p, to) {\n  emit stepped(p, to)\n}\n", 1, "recursion is not allowed"),
])
def test_static_errors_are_located(tmp_path: Path, rules: str, line: int, fragment: str) -> None:
    folder = variant(tmp_path, rules)
    with pytest.raises(LanguageError) as caught:
        ruleskit.load(folder)
    assert caught.value.file is not None and caught.value.file.endswith(".rk")
    assert caught.value.line == line
    assert fragment in str(caught.value)


def test_max_turns_plays_exactly_that_many_turns(tmp_path: Path) -> None:
    toml = "[update.flow]\nmax_turns = 3\n"
    game = ruleskit.load(variant(tmp_path, "", toml))
    state = game.new_game(players=2, seed=1)
    started = 0
    while not state.is_terminal:
        started = max(started, state.data["flow"]["turn"])
        names = [a for a in state.legal_actions() if a.id in ("roll", "stop")]
        state.apply(names[0] if names else state.legal_actions()[0])
    assert started == 3
    assert state.result is not None and state.result["reason"] == "turn limit"


def test_list_variables_are_set_element_by_element_as_values(tmp_path: Path) -> None:
    toml = """
[vars.track]
type = "list[int]"
start = [0, 0, 0]

[vars.kept]
type = "int"

[counters.marks]
owner = "player"

[vars.lanes]
type = "list[int]"
owner = "player"
start = [1, 1]

[update.actions.roll]
effect = \"\"\"
let before = track
set track[1] = 5
track[2] += 2
set kept = before[1]
set me.lanes[0] = 7
let local = [3, 4]
set local[1] = 9
me.marks += local[1]
goto walk
\"\"\"
"""
    game = ruleskit.load(variant(tmp_path, "", toml))
    state = game.new_game(players=2, seed=1)
    state.apply("roll")
    assert state.data["v"]["track"] == [0, 5, 2]
    assert state.data["v"]["kept"] == 0  # the list read before the writes kept its values
    assert state.data["pv"][0]["lanes"] == [7, 1] and state.data["pv"][1]["lanes"] == [1, 1]
    assert state.data["pv"][0]["marks"] == 9


def test_setting_an_element_outside_a_list_is_an_error(tmp_path: Path) -> None:
    toml = '[vars.track]\ntype = "list[int]"\nstart = [0]\n\n[update.actions.roll]\neffect = "set track[3] = 1"\n'
    game = ruleskit.load(variant(tmp_path, "", toml))
    state = game.new_game(players=2, seed=1)
    before = state.dumps()
    with pytest.raises(ruleskit.ProgramError, match="index 3 out of range"):
        state.apply("roll")
    assert state.dumps() == before
