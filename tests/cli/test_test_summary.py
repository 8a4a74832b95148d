"""`ruleskit test` names the pack's properties in its summary, so an author who wrote some sees they ran."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ruleskit.cli import main


def test_the_summary_counts_the_properties(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["test", "connect_four", "--games", "2", "--quiet", "--no-scenarios"]) == 0
    out = capsys.readouterr().out
    assert "2 pack invariants and the engine invariants checked after every decision" in out
    assert "and 4 properties where they apply" in out
    assert main(["test", "connect_four", "--games", "2", "--json", "--no-scenarios"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["invariants"] == 2 and report["properties"] == 4


def test_one_of_a_kind_is_counted_in_the_singular(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "pig"
    assert main(["new", str(folder)]) == 0  # one invariant, one scenario test file
    capsys.readouterr()
    assert main(["test", str(folder), "--games", "2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "pig: 1 scenario test file, 4 expectations" in out
    assert "1 pack invariant and the engine invariants" in out


def test_a_player_count_the_pack_refuses_stops_before_the_scenario_tests(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["test", "connect_four", "--players", "3", "--quiet"]) == 1
    captured = capsys.readouterr()
    assert "connect_four is for 2 players, not 3" in captured.err
    assert "scenario test" not in captured.out
