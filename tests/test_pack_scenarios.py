"""Every pack's own scenario tests (`PACK/tests/*.toml`) pass, one test per file.

The same files run with `ruleskit test PACK` and with `pytest PACK`; here they
run as part of the project's suite, for the built-in packs and the examples.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleskit.testing.scenario_tests import ScenarioTester, scenario_test_files
from ruleskit.testing.strategies import game_of

ROOT = Path(__file__).resolve().parent.parent
PACKS = sorted(p.parent for p in [*ROOT.glob("games/*/pack.toml"), *ROOT.glob("examples/**/pack.toml")])
CASES = [(pack, path) for pack in PACKS for path in scenario_test_files(pack)]


@pytest.mark.parametrize("pack, path", CASES, ids=[f"{p.name}/{f.stem}" for p, f in CASES])
def test_pack_scenario(pack: Path, path: Path) -> None:
    result = ScenarioTester(game_of(pack)).run_file(path)
    assert result.ok, "\n".join(str(p) for p in result.problems)
    assert result.checks > 0


@pytest.mark.parametrize("pack", ["ophir", "navoria", "connect_four", "envoys", "valdora", "nereus"])
def test_each_built_in_pack_has_scenario_tests(pack: str) -> None:
    assert len(scenario_test_files(ROOT / "games" / pack)) >= 4
