"""docs/SCENARIOS.md: the annotated scenario file at the top loads, and reaches the position it describes."""

from __future__ import annotations

import re
from pathlib import Path

import ruleskit

DOC = Path(__file__).resolve().parents[2] / "docs" / "SCENARIOS.md"


def test_the_annotated_scenario_loads(tmp_path: Path) -> None:
    block = re.search(r"```toml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert block is not None
    path = tmp_path / "example.toml"
    path.write_text(block.group(1), encoding="utf-8")
    state = ruleskit.scenario(path)
    # "Yellow enters Green's hex with a roll of 5": the scripted roll, and the ship where Green's is.
    last = state.history[-1]
    assert last["action"] == "sail:h3" and last["chance"] == [{"roll": "d6", "value": 5, "scripted": True}]
    assert state.raw["ev"]["ship_0"]["at"] == state.raw["ev"]["ship_1"]["at"] == "h3"
    assert state.raw["blocked"] == ["h0|h1"]
