"""The pytest plugin: an author's three-line property test passes for a sound pack and fails for a broken one."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytest_plugins = ["pytester"]


def test_ruleskit_check_passes_a_sound_pack(ruleskit_check) -> None:
    report = ruleskit_check(ROOT / "tests/packs/dice_race", games=3, max_decisions=40, thorough_every=4)
    assert report.ok and sum(report.games.values()) == 3


def test_ruleskit_game_loads_once(ruleskit_game) -> None:
    assert ruleskit_game(ROOT / "tests/packs/dice_race") is ruleskit_game(ROOT / "tests/packs/dice_race")


def test_an_authors_property_test_fails_for_a_broken_pack(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(f"""
        from hypothesis import given, settings
        from ruleskit.testing import random_games

        @settings(max_examples=10, deadline=None)
        @given(random_games({str(ROOT / "examples/broken-ophir")!r}, players=2))
        def test_my_pack(run):
            run.play()

        def test_with_the_fixture(ruleskit_check):
            ruleskit_check({str(ROOT / "examples/broken-ophir")!r}, games=5, players=[2])
    """)
    result = pytester.runpytest_inprocess("-q", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["*acquire_moves_goods*"])
