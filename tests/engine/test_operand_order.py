"""Both operands of `-`, `*`, `//` and `%` are worked out before either is checked to be a number, in both
backends: an error in the right operand comes first. The reference checked the left one before working out
the right, and the two backends named different errors for `a - [10][5]` with `a` none."""

from __future__ import annotations

from pathlib import Path

import pytest

import ruleskit
from ruleskit.errors import BudgetExceeded, ProgramError

MANIFEST = """\
name = "operand-order"
version = "0.1"
players = { min = 2, max = 2 }
files = ["game.toml"]
"""

GAME = """\
[vars.a]
type = "any"

[stages.main]

[phases.play]
stage = "main"

[flow]
start = "play"

[actions.minus]
stage = "main"
effect = "say a - [10][5]"

[actions.times]
stage = "main"
effect = "say a * (1 // 0)"

[actions.modulo]
stage = "main"
effect = "say a % [1][2]"

[actions.costly]
stage = "main"
effect = "say a // count(flatten([range(10000) for i in range(20)]))"

[actions.left_alone]
stage = "main"
effect = "say a - 1"

[scoring]
score = "0"
"""

EXPECTED = {
    "minus": (ProgramError, "game.toml:14: error: index 5 out of range 0..0"),
    "times": (ProgramError, "game.toml:18: error: division by zero"),
    "modulo": (ProgramError, "game.toml:22: error: index 2 out of range 0..0"),
    "costly": (BudgetExceeded, "game.toml:26: error: step budget of 200000 exceeded"),
    "left_alone": (ProgramError, "game.toml:30: error: expected a number, got None"),
}


@pytest.fixture(scope="module")
def pack(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("operand-order")
    (folder / "pack.toml").write_text(MANIFEST, encoding="utf-8")
    (folder / "game.toml").write_text(GAME, encoding="utf-8")
    return folder


@pytest.mark.parametrize("backend", ["compiled", "closures"])
@pytest.mark.parametrize("action", sorted(EXPECTED))
def test_the_right_operand_is_worked_out_before_the_left_is_checked(pack: Path, backend: str, action: str) -> None:
    state = ruleskit.load(pack, backend=backend, cache=False).new_game(players=2, seed=1)
    kind, message = EXPECTED[action]
    with pytest.raises(kind) as raised:
        state.apply(action)
    assert message in str(raised.value)
