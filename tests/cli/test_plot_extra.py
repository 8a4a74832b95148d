"""--plot without matplotlib is refused before the games are played, not after."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from ruleskit.cli import main


@pytest.mark.parametrize("command", [["simulate", "connect_four"], ["compare", "connect_four", "connect_four"]])
def test_plot_without_matplotlib_stops_before_playing(command: list[str], tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if the plot extra were not installed
    target = tmp_path / "out.png"
    assert main([*command, "--plot", str(target), "--games", "2", "--workers", "1", "--quiet"]) == 1
    captured = capsys.readouterr()
    assert "plots need matplotlib: pip install 'ruleskit[plot]'" in captured.err
    assert "Wins" not in captured.out and "Win rate" not in captured.out  # no games were played
    assert not target.exists()


@pytest.mark.parametrize("command", [["simulate", "connect_four"], ["compare", "connect_four", "connect_four"]])
@pytest.mark.parametrize(("where", "message"), [("missing/out.png", "does not exist"), ("folder.svg", "is a folder")])
def test_a_plot_to_a_place_that_takes_no_file_stops_before_playing(command: list[str], where: str, message: str,
                                                                   tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """With matplotlib there, it failed at the drawing, after every game, and the run's --json was never written."""
    (tmp_path / "folder.svg").mkdir()
    summary = tmp_path / "summary.json"
    target = tmp_path / where
    assert main([*command, "--plot", str(target), "--json", str(summary), "--games", "2", "--workers", "1",
                 "--quiet"]) == 1
    captured = capsys.readouterr()
    assert f"--plot '{target}'" in captured.err and message in captured.err
    assert not summary.exists()  # no games were played
