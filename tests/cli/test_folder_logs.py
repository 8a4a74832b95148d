"""A log written with a pack folder names that folder when it must be given again, even when the folder
bears a built-in pack's name (the tutorial builds connect_four beside the built-in one)."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import pytest

from ruleskit.cli import main
from ruleskit.resources import builtin_packs


def _copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "connect_four"
    shutil.copytree(builtin_packs()["connect_four"], folder, ignore=shutil.ignore_patterns("tests"))
    return folder


def test_replay_of_a_folder_log_names_the_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    folder = _copy(tmp_path, monkeypatch)
    assert main(["play", "connect_four", "--seats", "random,random", "--log", "game.jsonl", "--seed", "1"]) == 0
    capsys.readouterr()
    assert main(["replay", "game.jsonl"]) == 1
    err = capsys.readouterr().err
    assert f"the pack folder {folder.resolve()}, not a built-in pack: name that folder" in err
    assert "which is not built in" not in err
    assert main(["replay", "game.jsonl", "connect_four"]) == 0


def test_a_failure_names_the_folder_to_recheck_it_with(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    folder = _copy(tmp_path, monkeypatch)
    checks = folder / "checks.toml"
    checks.write_text(checks.read_text().replace("old(count(col.discs)) + 1", "old(count(col.discs)) + 2"))
    assert main(["test", "connect_four", "--games", "2", "--quiet"]) == 1
    out, err = capsys.readouterr()
    assert "FAILED (after 1 game tried," in out
    hint = "re-check with: ruleskit test connect_four --log connect_four-failure.jsonl"
    assert hint in err
    command = err.split("re-check with: ")[1].split(")")[0]
    assert main(shlex.split(command)[1:]) == 1
    assert "FAILED: property a_drop_adds_one_disc_on_top" in capsys.readouterr().err


def test_a_built_in_pack_failure_needs_no_folder() -> None:
    from ruleskit.testing.runner import Failure

    failure = Failure(2, 0, [], None, "invariant x", "broke", None, None, log_path=Path("x-failure.jsonl"))
    assert "(re-check with: ruleskit test --log x-failure.jsonl)" in failure.describe()
