"""Mistakes in a variant are located in the variant's file and name the base pack and its definition."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import ruleskit
from ruleskit import PackError
from ruleskit.cli import main

PACKS = Path(__file__).resolve().parents[1] / "packs"


def ophir_variant(root: Path, **files: str) -> Path:
    """A variant of the built-in Ophir pack with the given files (name.ext written as name_ext)."""
    root.mkdir(parents=True)
    names = [name.replace("_", ".", 1) if name.count("_") == 1 else name for name in files]
    listed = ", ".join(f'"{n}"' for n in names)
    (root / "pack.toml").write_text('name = "house"\nversion = "1.0"\nplayers = { min = 2, max = 4 }\n'
                                    f'extends = "ophir"\nfiles = [{listed}]\n')
    for name, text in zip(names, files.values(), strict=True):
        (root / name).write_text(text)
    return root


def error_of(root: Path) -> PackError:
    with pytest.raises(PackError) as caught:
        ruleskit.load(str(root))
    return caught.value


def test_replacing_a_hook_the_base_lacks_suggests_the_base_hook(tmp_path: Path) -> None:
    root = ophir_variant(tmp_path / "v", calm_rk="# Calm seas\n"
                         "replace hook temple_gaurd_bonus modify roll_bonus(p) = base + 1\n")
    error = error_of(root)
    assert Path(error.file or "").name == "calm.rk" and error.line == 2
    assert "cannot replace hook temple_gaurd_bonus: the base pack 'ophir' has no such definition" in error.message
    assert error.hint is not None and "did you mean 'temple_guard_bonus'?" in error.hint
    assert "specialists.rk:" in error.hint  # where the base hook is written


def test_replacing_a_rule_the_base_lacks(tmp_path: Path) -> None:
    error = error_of(ophir_variant(tmp_path / "v", nav_rk="replace rule may_use_favour_now() = true\n"))
    assert "the base pack 'ophir' has no such definition" in error.message
    assert error.hint is not None and "'may_use_favor_now'" in error.hint and "navigation.rk:" in error.hint


def test_removing_a_hook_the_base_lacks(tmp_path: Path) -> None:
    error = error_of(ophir_variant(tmp_path / "v", gone_rk="\nremove hook priest_favour\n"))
    assert error.line == 2 and "cannot remove hook priest_favour: the base pack 'ophir'" in error.message
    assert error.hint is not None and "'priest_favor'" in error.hint


def test_replacing_or_removing_a_toml_definition_the_base_lacks(tmp_path: Path) -> None:
    error = error_of(ophir_variant(tmp_path / "a", changes_toml='\n[replace.actions.sial]\nstage = "act"\n'))
    assert Path(error.file or "").name == "changes.toml" and error.line == 2
    assert "cannot replace actions.sial: the base pack 'ophir' has no such definition" in error.message
    assert error.hint is not None and "'sail'" in error.hint and "actions.toml:" in error.hint
    error = error_of(ophir_variant(tmp_path / "b", changes_toml='remove = ["actions.sial"]\n'))
    assert "cannot remove actions.sial" in error.message and "'actions.sail'" in (error.hint or "")
    error = error_of(ophir_variant(tmp_path / "c", changes_toml='[update.actions.aquire]\nlabel = "Take"\n'))
    assert "cannot update actions.aquire" in error.message and "'acquire'" in (error.hint or "")


def test_redefining_a_base_definition_says_how_to_replace_it(tmp_path: Path) -> None:
    error = error_of(ophir_variant(tmp_path / "v", nav_rk="# no limits\nrule may_use_favor_now() = true\n"))
    assert error.line == 2 and "already defined by pack 'ophir'" in error.message
    assert "navigation.rk:" in error.message and "replace rule" in (error.hint or "")


def test_replace_outside_a_variant_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "alone"
    root.mkdir()
    (root / "pack.toml").write_text('name = "alone"\nversion = "1.0"\nplayers = { min = 1, max = 2 }\n'
                                    'files = ["r.rk"]\n')
    (root / "r.rk").write_text("replace rule double(x) = x * 2\n")
    error = error_of(root)
    assert "'replace' is for variants; this pack has no 'extends'" in error.message and error.line == 1


def test_check_prints_the_located_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = ophir_variant(tmp_path / "v", calm_rk="replace hook temple_gaurd_bonus modify roll_bonus(p) = base\n")
    assert main(["check", str(root)]) == 1
    err = capsys.readouterr().err
    assert "calm.rk:1: error: cannot replace hook temple_gaurd_bonus" in err and "Traceback" not in err


@pytest.mark.parametrize("files, name, removed", [
    ({"gone_rk": "remove rule basic_goods\n"}, "basic_goods", "rule basic_goods"),
    ({"gone_toml": 'remove = ["zones.supply"]\n'}, "supply", "zones.supply"),
])
def test_removing_what_the_base_still_uses_names_the_variant_that_removed_it(
        tmp_path: Path, files: dict[str, str], name: str, removed: str) -> None:
    # The error is found where the base uses the name; the hint says which variant took it away.
    error = error_of(ophir_variant(tmp_path / "v", **files))
    assert f"'{name}'" in error.message and Path(error.file or "").parent.name == "ophir"
    assert error.hint == f"the variant 'house' removes {removed}, which this still uses"


def test_an_unknown_name_that_no_variant_removed_keeps_its_own_hint(tmp_path: Path) -> None:
    error = error_of(ophir_variant(tmp_path / "v", extra_rk="rule doubled(p) = basic_goodz(p) * 2\n"))
    assert "unknown function 'basic_goodz'" in error.message
    assert error.hint == "did you mean 'basic_goods'?"


@pytest.mark.parametrize("table, key, message", [
    ("update.zones.deck_a", 'of = "crad"', "holds unknown kind 'crad'"),
    ("update.zones.deck_a", 'start = ["a01", "a99"]', "starts with 'a99'"),
    ("update.zones.deck_a", "slots = -1", "slots must be within"),
    ("update.zones.deck_a", 'owner = "plaer"', "unknown owner 'plaer'"),
    ("update.zones.deck_a", "capacity = -3", "capacity -3 is negative"),
    ("update.kinds.card", 'fields = { vp = "itn" }', "field 'card.vp' has unknown type 'itn'"),
    ("update.kinds.card.items.a01", 'vp = "x"', "field 'vp' of item 'a01' should be an integer"),
    ("update.kinds.card.items.a01", "pv = 2", "item 'a01' sets unknown field 'pv'"),
    ("update.actions.sail", 'stage = "sial"', "offered in unknown stage 'sial'"),
])
def test_a_wrong_key_of_an_update_is_reported_at_its_own_line(tmp_path: Path, table: str, key: str,
                                                                message: str) -> None:
    # The key sits below a line the update leaves as it was: the error named the table's header.
    kept = 'name = "x"' if ".items." in table else 'label = "x"'
    error = error_of(ophir_variant(tmp_path / "v", changes_toml=f"# a change\n[{table}]\n{kept}\n\n{key}\n"))
    assert message in error.message
    assert Path(error.file or "").name == "changes.toml" and error.line == 5


def test_a_base_call_that_a_replacement_breaks_names_the_replacement(tmp_path: Path) -> None:
    # The error is found where the base still calls the rule with two arguments: it said nothing of the variant.
    error = error_of(ophir_variant(tmp_path / "v", calm_rk="# two arguments\nreplace rule roll_bonus(p, r) = 0\n"))
    assert "'roll_bonus'" in error.message and Path(error.file or "").parent.name == "ophir"
    assert error.hint is not None and error.hint.startswith("the variant 'house' replaces rule roll_bonus at ")
    assert error.hint.endswith("calm.rk:2, which this still uses as it was")


def test_a_replacement_broken_in_its_own_file_gets_no_such_hint(tmp_path: Path) -> None:
    error = error_of(ophir_variant(tmp_path / "v", calm_rk="replace rule roll_bonus(p) = 1\n"
                                                           "rule twice(p) = roll_bonus(p, p)\n"))
    assert Path(error.file or "").name == "calm.rk" and error.line == 2 and error.hint is None


@pytest.mark.parametrize("table", ["update", "replace"])
def test_changing_a_section_the_base_lacks_says_to_write_it(tmp_path: Path, table: str) -> None:
    root = tmp_path / "base"
    shutil.copytree(PACKS / "dice_race", root)  # a pack without [display]
    variant = tmp_path / "v"
    variant.mkdir()
    (variant / "pack.toml").write_text('name = "v"\nversion = "1"\nplayers = { min = 2, max = 4 }\n'
                                       'extends = "../base"\nfiles = ["v.toml"]\n')
    (variant / "v.toml").write_text(f'[{table}.display]\ntitle = "Race"\n')
    error = error_of(variant)
    assert error.line == 1 and f"cannot {table} display" in error.message
    assert error.hint == "write [display] to give the variant one"
