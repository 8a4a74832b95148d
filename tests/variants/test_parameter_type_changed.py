"""A variant that gives an action's parameter a type the base's code cannot take is refused when it is loaded
(`ruleskit check`), not when the first game takes the action: a `set` of a value whose static type no variable
it may write could hold is a located error, whose hint names the variant's change."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import ruleskit
from ruleskit import PackError
from ruleskit.cli import main

PACKS = Path(__file__).resolve().parents[1] / "packs"
EFFECT_LINE = 65  # the effect of [actions.step] in dice_race/game.toml


def base_pack(root: Path, effect: str = "set me.pawn.at = to", params: str = "adjacent(me.pawn.at)") -> Path:
    shutil.copytree(PACKS / "dice_race", root)
    game = root / "game.toml"
    text = game.read_text()
    assert 'effect = "step_to(me, to)"' in text and 'params = { to = "adjacent(me.pawn.at)" }' in text
    text = text.replace('effect = "step_to(me, to)"', f"effect = '''{effect}'''")
    game.write_text(text.replace('params = { to = "adjacent(me.pawn.at)" }', f'params = {{ to = "{params}" }}'))
    return root


def variant(root: Path, text: str) -> Path:
    root.mkdir()
    (root / "pack.toml").write_text('name = "jumps"\nversion = "1"\nplayers = { min = 2, max = 4 }\n'
                                    'extends = "../base"\nfiles = ["v.toml"]\n')
    (root / "v.toml").write_text(text)
    return root


def error_of(root: Path, backend: str | None = None) -> PackError:
    with pytest.raises(PackError) as caught:
        ruleskit.load(str(root), backend, cache=False)
    return caught.value


@pytest.mark.parametrize("backend", ["compiled", "closures"])
def test_the_base_pack_loads_and_plays(tmp_path: Path, backend: str) -> None:
    game = ruleskit.load(str(base_pack(tmp_path / "base")), backend, cache=False)
    state = game.new_game(players=2, seed=1)
    for _ in range(30):
        if state.is_terminal:
            break
        state.apply(state.legal_actions()[0])


@pytest.mark.parametrize("backend", ["compiled", "closures"])
def test_an_updated_parameter_of_another_type_is_refused_at_load(tmp_path: Path, backend: str) -> None:
    base_pack(tmp_path / "base")
    error = error_of(variant(tmp_path / "v", '# jumps\n[update.actions.step]\nparams = { to = "range(1, 3)" }\n'),
                     backend)
    assert error.message == "'at' holds a value of type space, not one of type int"
    assert Path(error.file or "").name == "game.toml" and error.line == EFFECT_LINE
    assert (error.hint or "").startswith("the variant 'jumps' updates actions.step at ")
    assert (error.hint or "").endswith("v/v.toml:2, which this still uses as it was")


def test_check_prints_both_places(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base_pack(tmp_path / "base")
    root = variant(tmp_path / "v", '[update.actions.step]\nparams = { to = "players" }\n')
    assert main(["check", str(root)]) == 1
    err = capsys.readouterr().err
    assert f"game.toml:{EFFECT_LINE}:" in err and "not one of type player" in err and "v/v.toml:1" in err
    assert "Traceback" not in err


def test_a_replacement_that_writes_its_own_effect_is_located_in_the_variant(tmp_path: Path) -> None:
    base_pack(tmp_path / "base")
    error = error_of(variant(tmp_path / "v", '[replace.actions.step]\nstage = "walk"\n'
                             'params = { to = "[[goal]]" }\n\neffect = "set me.pawn.at = to"\n'))
    assert error.message == "'at' holds a value of type space, not one of type list[space]"
    assert Path(error.file or "").name == "v.toml" and error.line == 5


def test_a_parameter_of_the_same_type_still_loads(tmp_path: Path) -> None:
    base_pack(tmp_path / "base")
    game = ruleskit.load(str(variant(tmp_path / "v", '[update.actions.step]\nparams = { to = "[goal]" }\n')),
                         cache=False)
    assert game.name == "jumps"


@pytest.mark.parametrize("effect, message", [
    ("set me.pawn.at = 3", "'at' holds a value of type space, not one of type int"),
    ("set me.pawn.at = true", "'at' holds a value of type space, not one of type bool"),
    ("set me.pawn.at = me", "'at' holds a value of type space, not one of type player"),
    ("set me.pawn.at = [goal]", "'at' holds a value of type space, not one of type list[space]"),
    ("set steps = me.pawn.at", "'steps' holds a value of type int, not one of type space"),
    ("set steps = [1, 2]", "'steps' holds a value of type int, not one of type list[int]"),
    ("set steps = true", "'steps' holds a value of type int, not one of type bool"),
    ("set me.score = 1000000000000 > 1", "'score' holds a value of type int, not one of type bool"),
    ("let p = me\nset p.pawn.at = p", "'at' holds a value of type space, not one of type player"),
])
def test_a_set_no_variable_could_hold_is_refused_in_any_pack(tmp_path: Path, effect: str, message: str) -> None:
    error = error_of(base_pack(tmp_path / "base", effect))
    assert error.message == message and Path(error.file or "").name == "game.toml"
    assert error.line is not None and error.line >= EFFECT_LINE


@pytest.mark.parametrize("effect", [
    "set me.pawn.at = none", 'set me.pawn.at = "goal"', "set me.pawn.at = to", "set steps = me.index",
    "set me.pawn.at = if steps > 0 then to else none", "let x = 3\nset x = goal", "set steps = 2\nsteps += 1",
])
def test_sets_a_variable_may_hold_still_load(tmp_path: Path, effect: str) -> None:
    assert ruleskit.load(str(base_pack(tmp_path / "base", effect)), cache=False).name == "dice-race"


def typed_base(root: Path, effect: str = "step_to(me, to)") -> Path:
    """The base with `step_to`'s parameters typed, and a typed rule."""
    base_pack(root, effect)
    rules = root / "rules.rk"
    text = rules.read_text().replace("proc step_to(p, to)", "proc step_to(p: player, to: space)")
    rules.write_text(text + "\nrule worth(s: space, n: int, l: list[int]) = s.points + n + count(l)\n")
    return root


@pytest.mark.parametrize("backend", ["compiled", "closures"])
def test_a_parameter_given_to_a_typed_procedure_is_refused_at_load(tmp_path: Path, backend: str) -> None:
    typed_base(tmp_path / "base")
    error = error_of(variant(tmp_path / "v", '[update.actions.step]\nparams = { to = "range(1, 3)" }\n'), backend)
    assert error.message == "procedure 'step_to' takes to: space, not a value of type int"
    assert Path(error.file or "").name == "game.toml" and error.line == EFFECT_LINE
    assert (error.hint or "").startswith("the variant 'jumps' updates actions.step at ")


@pytest.mark.parametrize("effect, message", [
    ("step_to(me, 3)", "procedure 'step_to' takes to: space, not a value of type int"),
    ("step_to(goal, to)", "procedure 'step_to' takes p: player, not a value of type space"),
    ("step_to(me, [to])", "procedure 'step_to' takes to: space, not a value of type list[space]"),
    ("steps += worth(3, 1, [])", "rule 'worth' takes s: space, not a value of type int"),
    ("steps += worth(to, true, [])", "rule 'worth' takes n: int, not a value of type bool"),
    ("steps += worth(to, 1, 5)", "rule 'worth' takes l: list[int], not a value of type int"),
])
@pytest.mark.parametrize("backend", ["compiled", "closures"])
def test_arguments_a_typed_parameter_cannot_take_are_refused(tmp_path: Path, effect: str, message: str,
                                                             backend: str) -> None:
    error = error_of(typed_base(tmp_path / "base", effect), backend)
    assert error.message == message and error.line == EFFECT_LINE


@pytest.mark.parametrize("effect", [
    "step_to(me, to)", "step_to(me, none)", 'step_to(me, "goal")', "step_to(me.index, to)",
    "steps += worth(to, me.index, [])", "steps += worth(to, 1, [n for n in [1, 2]])",
])
def test_arguments_a_typed_parameter_may_take_still_load(tmp_path: Path, effect: str) -> None:
    assert ruleskit.load(str(typed_base(tmp_path / "base", effect)), cache=False).name == "dice-race"
