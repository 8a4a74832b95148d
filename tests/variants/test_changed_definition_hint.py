"""A base's text that fails because a variant changed the definition it belongs to (or reads) says so.

The error is found in the base's file, written for the definition as it was: an action's parameter given
another type fails in the base's effect or in a property that follows the action.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import ruleskit
from ruleskit import PackError

PACKS = Path(__file__).resolve().parents[1] / "packs"
EFFECT_LINE = 65  # the effect of [actions.step] in dice_race/game.toml
CHECKS = '# checks\n\n[properties.step_points]\nafter = "step"\ncheck = "to.points >= 0"\n'


def base_pack(root: Path, checks: str = CHECKS, effect: str | None = None) -> Path:
    shutil.copytree(PACKS / "dice_race", root)
    (root / "checks.toml").write_text(checks)
    manifest = root / "pack.toml"
    manifest.write_text(manifest.read_text().replace('"rules.rk"]', '"rules.rk", "checks.toml"]'))
    if effect is not None:
        game = root / "game.toml"
        game.write_text(game.read_text().replace('effect = "step_to(me, to)"', f'effect = "{effect}"'))
    return root


def variant(root: Path, text: str, extends: str = "../base", name: str = "jumps") -> Path:
    root.mkdir()
    (root / "pack.toml").write_text(f'name = "{name}"\nversion = "1"\nplayers = {{ min = 2, max = 4 }}\n'
                                    f'extends = "{extends}"\nfiles = ["v.toml"]\n')
    (root / "v.toml").write_text(text)
    return root


def error_of(root: Path) -> PackError:
    with pytest.raises(PackError) as caught:
        ruleskit.load(str(root), cache=False)
    return caught.value


def test_the_base_pack_loads(tmp_path: Path) -> None:
    assert ruleskit.load(str(base_pack(tmp_path / "base")), cache=False).name == "dice-race"


@pytest.mark.parametrize("table", ["update", "replace"])
def test_a_property_reading_a_parameter_given_another_type_names_the_variant(tmp_path: Path, table: str) -> None:
    base_pack(tmp_path / "base")
    rest = "" if table == "update" else 'stage = "walk"\neffect = "end turn"\n'
    error = error_of(variant(tmp_path / "v", f'# jumps\n\n[{table}.actions.step]\nparams = {{ to = "range(1, 3)" }}\n'
                             + rest))
    assert "a value of type int has no field 'points'" in error.message
    assert Path(error.file or "").name == "checks.toml" and error.line == 5
    verb = "updates" if table == "update" else "replaces"
    assert (error.hint or "").startswith(f"the variant 'jumps' {verb} actions.step at ")
    assert (error.hint or "").endswith("v/v.toml:3, which this still uses as it was")


def test_an_updated_actions_own_effect_is_located_in_the_base_and_names_the_update(tmp_path: Path) -> None:
    # The effect is the base's, left as it was by the update: the error named the update's header instead.
    base_pack(tmp_path / "base", checks="", effect="me.score += to.points")
    error = error_of(variant(tmp_path / "v", '[update.actions.step]\nparams = { to = "range(1, 3)" }\n'))
    assert "a value of type int has no field 'points'" in error.message
    assert Path(error.file or "").name == "game.toml" and error.line == EFFECT_LINE
    assert (error.hint or "").startswith("the variant 'jumps' updates actions.step at ")
    assert (error.hint or "").endswith("v.toml:1, which this still uses as it was")


def test_a_key_the_update_writes_is_still_located_in_the_variant(tmp_path: Path) -> None:
    base_pack(tmp_path / "base", checks="")
    error = error_of(variant(tmp_path / "v", '[update.actions.step]\n\neffect = "me.score += to.pionts"\n'))
    assert Path(error.file or "").name == "v.toml" and error.line == 3
    assert error.hint is None or "the variant" not in error.hint


def test_the_last_variant_of_a_chain_is_named(tmp_path: Path) -> None:
    base_pack(tmp_path / "base")
    variant(tmp_path / "first", '[update.actions.step]\nlabel = "Hop to {to}"\n', name="first")
    error = error_of(variant(tmp_path / "second", '\n[update.actions.step]\nparams = { to = "[1]" }\n',
                             extends="../first", name="second"))
    assert Path(error.file or "").name == "checks.toml"
    assert (error.hint or "").startswith("the variant 'second' updates actions.step at ")
    assert (error.hint or "").endswith("second/v.toml:2, which this still uses as it was")


def test_a_change_to_another_definition_gives_no_such_hint(tmp_path: Path) -> None:
    # The base's own mistake, in a property of an action the variant did not touch.
    base_pack(tmp_path / "base", checks='[properties.roll_points]\nafter = "roll"\ncheck = "steps.points >= 0"\n')
    error = error_of(variant(tmp_path / "v", '[update.actions.step]\nlabel = "Hop"\n'))
    assert Path(error.file or "").name == "checks.toml" and error.hint is None


@pytest.mark.parametrize("after", ["  step  ", "hook  note_goal", "proc step_to", "hook", "", "step.x", "a b c"])
def test_odd_after_values_do_not_break_the_hint(tmp_path: Path, after: str) -> None:
    # Whatever `after` holds, the error is the property's own, with no hint naming an unrelated change.
    base_pack(tmp_path / "base", checks=f'[properties.odd]\nafter = "{after}"\ncheck = "true.points"\n')
    error = error_of(variant(tmp_path / "v", '[update.actions.roll]\nlabel = "Throw"\n'))
    assert Path(error.file or "").name == "checks.toml" and error.line is not None
    assert error.hint is None or "the variant" not in error.hint


def test_a_property_after_a_replaced_procedure_names_it(tmp_path: Path) -> None:
    # The replacement renames the parameter the base's property reads.
    base_pack(tmp_path / "base", checks='[properties.at_goal]\nafter = "proc  step_to"\ncheck = "to.points >= 0"\n')
    root = tmp_path / "v"
    root.mkdir()
    (root / "pack.toml").write_text('name = "jumps"\nversion = "1"\nplayers = { min = 2, max = 4 }\n'
                                    'extends = "../base"\nfiles = ["v.rk"]\n')
    (root / "v.rk").write_text("# numbers\nreplace proc step_to(p, where) {\n    steps -= 1\n}\n")
    error = error_of(root)
    assert Path(error.file or "").name == "checks.toml" and error.line == 3
    assert (error.hint or "").startswith("the variant 'jumps' replaces proc step_to at ")
    assert (error.hint or "").endswith("v/v.rk:2, which this still uses as it was")


def test_an_error_with_no_line_gets_no_such_hint(tmp_path: Path) -> None:
    from ruleskit.packs import PackReader, changed_definition_hint

    base_pack(tmp_path / "base")
    source = PackReader().read(str(variant(tmp_path / "v", '[update.actions.step]\nlabel = "Hop"\n')))
    assert changed_definition_hint(None, 3, source) is None
    assert changed_definition_hint("elsewhere.toml", 3, source) is None
    assert changed_definition_hint(source.defs[("actions", "step")].layers[0][0].path, 10 ** 9, source) is None
    assert changed_definition_hint(source.defs[("actions", "step")].layers[0][0].path, 62, source) is not None
