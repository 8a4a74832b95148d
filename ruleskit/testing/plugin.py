"""The pytest plugin ruleskit registers (entry point `pytest11`).

Fixtures:

    def test_my_pack(ruleskit_game):
        game = ruleskit_game("path/to/pack")          # loaded once per session

    def test_my_pack_holds_up(ruleskit_check):
        ruleskit_check("path/to/pack", games=50)      # random games, every invariant, shrunk failure

`ruleskit_check` fails the test with the broken invariant, the shrunk game and
the state that broke it, and writes the failing game's replay log into the
test's temporary folder. `--ruleskit-games N` (or RULESKIT_GAMES) overrides
the number of games every `ruleskit_check` plays, for a long run.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("ruleskit")
    group.addoption("--ruleskit-games", type=int, default=None,
                    help="games each ruleskit_check plays (overrides the test's own number)")


@pytest.fixture(scope="session")
def ruleskit_game() -> Callable[[str | Path], Any]:
    """Load (and cache) a pack by path or built-in name."""
    from .strategies import game_of

    return game_of


@pytest.fixture
def ruleskit_check(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[..., Any]:
    """Property-test a pack: `ruleskit_check(pack, games=..., players=[...], seed=..., ...)`."""
    from .runner import check_pack

    override = request.config.getoption("--ruleskit-games") or _env_games()

    def check(pack: str | Path, games: int = 50, **options: Any) -> Any:
        report = check_pack(pack, games=override or games, out=tmp_path / "failure.jsonl", **options)
        if report.failure is not None:
            pytest.fail(f"{report.summary()}\n{report.failure.describe()}", pytrace=False)
        if report.problems:
            pytest.fail(f"{report.summary()}\n" + "\n".join(report.problems), pytrace=False)
        return report

    return check


def _env_games() -> int | None:
    text = os.environ.get("RULESKIT_GAMES")
    return int(text) if text and text.isdigit() else None
