"""A mutant's copy of a pack never reads outside the pack: links are kept as links inside it, dropped when they
lead out or round in a loop, and the copy is bounded."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from ruleskit.cli import main
from ruleskit.errors import PackError
from ruleskit.game import load
from ruleskit.limits import MAX_FILE_BYTES
from ruleskit.mutation import packcopy
from ruleskit.mutation.edits import Edit, Mutant, mutant_copy

ROOT = Path(__file__).resolve().parents[2]
DICE = ROOT / "tests" / "packs" / "dice_race"
NO_EDITS = Mutant("none", "no change", ())


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    """dice_race with a folder beside it that holds a secret."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("private")
    copy = tmp_path / "pack"
    shutil.copytree(DICE, copy)
    return copy


def all_names(folder: Path) -> list[str]:
    """Every name under `folder`, links not followed."""
    return sorted(str(Path(path, name).relative_to(folder)) for path, dirs, files in os.walk(folder)
                  for name in dirs + files)


def test_a_link_out_of_the_pack_and_a_link_loop_are_left_out(pack: Path) -> None:
    os.symlink("../outside", pack / "data")
    os.symlink(".", pack / "loop")
    copy = mutant_copy(pack, NO_EDITS)
    try:
        assert all_names(copy) == ["game.toml", "loop", "pack.toml", "rules.rk"]
        assert os.readlink(copy / "loop") == "."  # kept as a link, not copied through
        assert load(copy).name == "dice-race"
    finally:
        shutil.rmtree(copy.parent)


def test_two_links_to_the_pack_itself_and_one_to_the_root_copy_at_once(pack: Path) -> None:
    # Followed, `a -> .` and `b -> .` made a copy that doubled at each level and never ended.
    os.symlink(".", pack / "a")
    os.symlink(".", pack / "b")
    os.symlink("/", pack / "root")
    os.symlink("x2", pack / "x1")
    os.symlink("x1", pack / "x2")
    copy = mutant_copy(pack, NO_EDITS)
    try:
        assert all_names(copy) == ["a", "b", "game.toml", "pack.toml", "rules.rk"]
        assert os.readlink(copy / "a") == "." and os.readlink(copy / "b") == "."
    finally:
        shutil.rmtree(copy.parent)


def test_a_link_inside_the_pack_leads_to_the_copy_and_the_edit_changes_the_copy_only(pack: Path) -> None:
    (pack / "code").mkdir()
    (pack / "rules.rk").rename(pack / "code" / "rules.rk")
    os.symlink(pack / "code" / "rules.rk", pack / "rules.rk")  # absolute, to a file of the pack
    original = (pack / "code" / "rules.rk").read_text()
    copy = mutant_copy(pack, Mutant("m", "d", (Edit("rules.rk", "steps -= 1", "steps -= 2"),)))
    try:
        assert os.readlink(copy / "rules.rk") == os.path.join("code", "rules.rk")
        assert "steps -= 2" in (copy / "code" / "rules.rk").read_text()
        assert (pack / "code" / "rules.rk").read_text() == original
        assert load(copy).name == "dice-race"
    finally:
        shutil.rmtree(copy.parent)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_pipes_and_files_no_pack_can_read_are_not_copied(pack: Path) -> None:
    os.mkfifo(pack / "pipe.rk")
    with open(pack / "data.bin", "wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)
    (pack / "__pycache__").mkdir()
    (pack / "old-failure.jsonl").write_text("{}")
    for hidden in (".git/objects/ab", ".venv/lib"):  # a repository or an environment in the pack folder
        (pack / hidden).mkdir(parents=True)
        (pack / hidden / "file").write_text("x")
    copy = mutant_copy(pack, NO_EDITS)
    try:
        assert all_names(copy) == ["game.toml", "pack.toml", "rules.rk"]
    finally:
        shutil.rmtree(copy.parent)


def test_a_pack_folder_holding_too_much_is_an_error_and_leaves_nothing(pack: Path, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(packcopy, "MAX_COPY_ENTRIES", 20)
    for index in range(30):
        (pack / f"note{index}.txt").write_text("x")
    where = tmp_path / "where"
    where.mkdir()
    with pytest.raises(PackError, match="more than 20 files and folders") as caught:
        mutant_copy(pack, NO_EDITS, where=where)
    assert caught.value.file is not None and caught.value.file.endswith("pack")
    assert not list(where.iterdir())
    # `mutate` stops at it rather than counting every mutant as invalid.
    assert main(["mutate", str(pack), "--limit", "1", "-q"]) == 1
    assert "more than 20 files and folders" in capsys.readouterr().err
