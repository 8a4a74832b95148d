"""The pytest plugin ruleskit registers (entry point `pytest11`).

Fixtures:

    def test_my_pack(ruleskit_game):
        game = ruleskit_game("path/to/pack")          # loaded once per session

    def test_my_pack_holds_up(ruleskit_check):
        ruleskit_check("path/to/pack", games=50)      # random games, every invariant, shrunk failure

A pack's scenario tests (TOML files in its `tests/` folder, docs/SCENARIOS.md)
are collected as test items: `pytest path/to/pack` or `pytest path/to/pack/tests`
runs each file as one test.

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

from ..digits import plain_digits


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
    return int(text) if text and plain_digits(text) else None


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """Each scenario test file of a pack (`PACK/tests/**/*.toml`) is a test."""
    if file_path.suffix != ".toml" or pack_of_test_file(file_path) is None:
        return None
    return ScenarioFile.from_parent(parent, path=file_path)


def pack_of_test_file(path: Path) -> Path | None:
    """The pack folder whose `tests/` folder holds `path`, if any (found without importing the engine).

    As `ruleskit test` finds a pack's tests, no link below the pack's folder is followed: a linked file or
    `tests/` folder would run another pack's tests, or files from outside the pack, as this pack's.
    """
    path = path.absolute()
    for parent in path.parents:
        if parent.name == "tests" and (parent.parent / "pack.toml").is_file():
            return None if _linked_below(parent.parent, path) else parent.parent
    return None


def _linked_below(root: Path, path: Path) -> bool:
    """Whether `path` or a folder between it and `root` is a link."""
    return any(part.is_symlink() for part in (path, *path.parents) if part != root and part.is_relative_to(root))


class ScenarioFile(pytest.File):
    def collect(self) -> Any:
        yield ScenarioItem.from_parent(self, name=self.path.stem)


class ScenarioFailed(Exception):
    """A scenario test's expectations did not hold."""


class ScenarioItem(pytest.Item):
    def runtest(self) -> None:
        from ..errors import RulesError
        from .scenario_tests import ScenarioTester
        from .strategies import game_of

        pack = pack_of_test_file(self.path)
        assert pack is not None
        try:
            game = game_of(pack)
        except RulesError as exc:  # the pack itself does not load: say where, as `ruleskit check` does
            raise ScenarioFailed(f"the pack does not load: {exc}") from None
        result = ScenarioTester(game).run_file(self.path)
        if not result.ok:
            raise ScenarioFailed("\n".join(str(p) for p in result.problems))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, ScenarioFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, 0, f"scenario test {self.name}"
