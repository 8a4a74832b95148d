"""A log written with a pack folder names that folder when it must be given again, even when the folder
bears a built-in pack's name (the tutorial builds connect_four beside the built-in one)."""

from __future__ import annotations

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
