"""A hook that runs past the step budget stops the action with an error naming the hook and where it is,
and the state stays exactly as it was before the action."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import ruleskit
from ruleskit.errors import BudgetExceeded

MANIFEST = """\
name = "spinner"
version = "0.1"
players = { min = 2, max = 2 }
files = ["game.toml", "rules.rk"]
"""

GAME = """\
[counters.points]
owner = "player"

[vars.wound_up]
type = "bool"

[stages.main]

[phases.play]
stage = "main"

[flow]
start = "play"

[actions.score]
stage = "main"
effect = "me.points += 1\\nend turn"

[actions.wind_up]
stage = "main"
effect = "set wound_up = true\\nme.points += 1\\nend turn"

[end.enough]
when = "any([p.points >= 5 for p in players])"
reason = "five points"

[scoring]
score = "p.points"
"""

RULES = """\
proc spin() {
    for a in range(10000) {
        for b in range(10000) {
            let c = a + b
        }
    }
}

# Winding up makes every later turn end in an endless loop.
hook spin_out on turn_end(p) when wound_up {
    spin()
}
"""


@pytest.fixture
def spinner(tmp_path: Path) -> ruleskit.Game:
    for name, text in {"pack.toml": MANIFEST, "game.toml": GAME, "rules.rk": RULES}.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return ruleskit.load(tmp_path)


def test_the_budget_error_names_the_hook_and_leaves_the_state_untouched(spinner: ruleskit.Game) -> None:
    state = spinner.new_game(players=2, seed=0)
    state.apply("score")
    before = state.clone()
    before_json = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(BudgetExceeded) as caught:
        state.apply("wind_up")
    error = caught.value
    text = str(error)
    assert "step budget" in error.message
    assert "hook spin_out" in error.message and "rules.rk:10" in error.message, text  # the hook, where it is
    assert "proc spin" in error.message and error.file is not None and error.file.endswith("rules.rk"), text
    # Where the steps ran out: the seventh `range(10000)` of the inner loop (line 3), each range made costing
    # its 10,000 elements on top of the loop's 20,000 steps (a statement and an iteration per element).
    assert error.line == 3, text
    assert state == before
    assert json.dumps(state.to_json(), sort_keys=True) == before_json
    # The game goes on from where it was: the other action still applies.
    state.apply("score")
    assert state.data["pv"][1]["points"] == 1


def test_the_cli_reports_it_as_a_located_error(spinner: ruleskit.Game, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    from ruleskit.cli import main

    code = main(["test", str(tmp_path), "--games", "5", "--players", "2", "--out", str(tmp_path / "f.jsonl")])
    err = capsys.readouterr().err
    assert code == 1
    assert "wind_up" in err and "step budget" in err and "hook spin_out" in err
    assert (tmp_path / "f.jsonl").is_file()
