"""`ruleskit simulate --log-dir`: a folder holding an earlier run's logs is refused before any game."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import DUEL, SHOWN

from ruleskit.cli import main


def simulate_into(folder: Path, pack: str = SHOWN, games: int = 2) -> int:
    return main(["simulate", pack, "--games", str(games), "--players", "2", "--workers", "1", "--quiet",
                 "--log-dir", str(folder)])


def test_a_folder_with_earlier_logs_is_refused_before_playing(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    logs = tmp_path / "logs"
    assert simulate_into(logs, SHOWN, games=4) == 0
    before = {path.name: path.read_bytes() for path in logs.iterdir()}
    assert len(before) == 4
    capsys.readouterr()
    assert simulate_into(logs, DUEL, games=2) == 1
    err = capsys.readouterr().err
    assert "already holds game logs of an earlier run" in err and "game-00000.jsonl" in err
    assert "name another folder, or empty this one" in err and "Traceback" not in err
    assert {path.name: path.read_bytes() for path in logs.iterdir()} == before  # no log overwritten or added


def test_an_empty_folder_or_one_without_logs_is_used(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty, other = tmp_path / "empty", tmp_path / "other"
    empty.mkdir()
    other.mkdir()
    (other / "notes.txt").write_text("kept", encoding="utf-8")
    (other / "game-notes.json").write_text("{}", encoding="utf-8")
    for folder in (empty, other, tmp_path / "new"):
        assert simulate_into(folder) == 0
        assert sorted(p.name for p in folder.glob("game-*.jsonl")) == ["game-00000.jsonl", "game-00001.jsonl"]
    assert (other / "notes.txt").read_text(encoding="utf-8") == "kept"
    capsys.readouterr()
