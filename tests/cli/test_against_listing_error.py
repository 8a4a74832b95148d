"""A pack whose rules fail while the engine lists the legal actions differs from one whose rules do not.

Such a mutant of Ophir (the market's third slot read as a fourth, M0617 of `ruleskit mutate ophir`)
stopped `ruleskit mutate ophir --limit 40` with its error; lockstep play now reports it as a difference.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ruleskit.cli import main
from ruleskit.resources import builtin_packs


def test_an_error_while_listing_is_a_divergence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copytree(builtin_packs()["ophir"], tmp_path / "ophir-slip", ignore=shutil.ignore_patterns("tests"))
    market = tmp_path / "ophir-slip" / "market.rk"
    text = market.read_text(encoding="utf-8")
    assert "market_row[3]] if c != none" in text
    market.write_text(text.replace("market_row[3]] if c != none", "market_row[4]] if c != none"), encoding="utf-8")
    assert main(["test", "ophir-slip", "--against", "ophir", "--games", "2", "--players", "2", "--quiet"]) == 1
    captured = capsys.readouterr()
    out = captured.out + captured.err
    assert "DIVERGED in the actions offered before decision" in out
    assert "index 4 out of range 0..3 in rule current_cards" in out
    assert "!= listed" in out
