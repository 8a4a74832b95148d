"""`ruleskit diff`: additions, replacements and removals between a base and a variant."""

import shutil
from pathlib import Path

import pytest

from ruleskit.cli import main
from ruleskit.diff import diff_packs

BASE = Path(__file__).parent / "packs" / "dice_race"


@pytest.fixture()
def variant(tmp_path: Path) -> Path:
    shutil.copytree(BASE, tmp_path / BASE.name)  # a base is named relative to its variant
    tmp_path = tmp_path / "variant"
    tmp_path.mkdir()
    (tmp_path / "pack.toml").write_text(
        'name = "slow-race"\nversion = "1.0"\nplayers = { min = 2, max = 4 }\n'
        f'extends = "../{BASE.name}"\nremove = ["actions.wall"]\n')
    (tmp_path / "changes.toml").write_text(
        '[update.actions.roll]\nlabel = "Roll slowly"\n\n[kinds.space.items.e]\npoints = 3\n')
    (tmp_path / "rules.rk").write_text("replace hook lucky modify roll_value(p, r) when p.index == 1 = base + 2\n")
    return tmp_path


def test_diff_lists_each_change(variant: Path) -> None:
    _, _, differences = diff_packs(str(BASE), str(variant))
    found = {(d.change, d.key) for d in differences}
    assert found == {
        ("removed", "actions.wall"),
        ("replaced", "actions.roll"),
        ("added", "kinds.space.items.e"),
        ("replaced", "hook lucky"),
    }
    roll = next(d for d in differences if d.key == "actions.roll")
    assert roll.before == 'label = "Roll the die"' and roll.after == 'label = "Roll slowly"'
    hook = next(d for d in differences if d.key == "hook lucky")
    assert "p.index == 0" in (hook.before or "") and "p.index == 1" in (hook.after or "")
    assert hook.where is not None and hook.where.endswith("rules.rk:1")


def test_a_changed_player_range_is_a_difference(variant: Path) -> None:
    """The range is set in pack.toml, outside every definition: a variant for more players showed no difference."""
    manifest = variant / "pack.toml"
    manifest.write_text(manifest.read_text().replace("max = 4", "max = 6"))
    _, _, differences = diff_packs(str(BASE), str(variant))
    players = next(d for d in differences if d.key == "players")
    assert players.change == "replaced"
    assert players.before == "players = { min = 2, max = 4 }" and players.after == "players = { min = 2, max = 6 }"
    assert players.where is not None and players.where.endswith("pack.toml")


def test_identical_packs_have_no_differences() -> None:
    _, _, differences = diff_packs(str(BASE), str(BASE))
    assert differences == []


def test_diff_command_prints_both_versions(variant: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", str(BASE), str(variant)]) == 0
    out = capsys.readouterr().out
    assert "slow-race against dice-race: 4 differences" in out
    assert "- removed   actions.wall" in out
    assert 'label = "Roll the die"' in out and 'label = "Roll slowly"' in out


def test_a_line_separator_in_a_comment_changes_no_definition(tmp_path: Path) -> None:
    # A definition's text was taken from lines counted by `str.splitlines`, which also breaks at U+2028 (allowed
    # in a comment): every definition after one read the lines above its own, and each was "replaced".
    for name, comment in (("plain", "# a b c\n"), ("separated", "# a\u2028b\u2028c\n")):
        shutil.copytree(BASE, tmp_path / name)
        rules = tmp_path / name / "rules.rk"
        rules.write_text(comment + rules.read_text(encoding="utf-8"), encoding="utf-8")
    _, _, differences = diff_packs(str(tmp_path / "plain"), str(tmp_path / "separated"))
    assert differences == []
