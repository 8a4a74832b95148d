"""`ruleskit test` names the pack's properties in its summary, so an author who wrote some sees they ran."""

from __future__ import annotations

import json

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
