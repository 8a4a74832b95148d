"""Inputs of `ruleskit test` and its lockstep runs: expected-difference patterns match without backtracking and
are bounded, divergence logs replace a link of their name, and counts below 1 are refused."""

from __future__ import annotations

import os
import random
import re
import shutil
from pathlib import Path

import pytest

import ruleskit.testing.differential as differential
from ruleskit.cli import main
from ruleskit.errors import PackError
from ruleskit.log import replay
from ruleskit.testing.differential import (
    MAX_PATTERN_CHARS,
    MAX_PATTERNS,
    Expectations,
    PathGlob,
    check_against,
)

ROOT = Path(__file__).resolve().parents[2]
DICE = ROOT / "tests" / "packs" / "dice_race"


def reference_regex(pattern: str) -> re.Pattern[str]:
    """The documented meaning of a pattern as the regex ruleskit once built (backtracking: short patterns only)."""
    parts = re.split(r"(\*\*|\*)", pattern)
    body = "".join(".*" if part == "**" else r"[^.\[\]]*" if part == "*" else re.escape(part) for part in parts)
    return re.compile(body + r"(?:$|[.\[])")


def test_patterns_keep_their_documented_meaning() -> None:
    patterns = Expectations(["players[*].coins", "zones.supply", "legal_actions.sail*", "result", "**.score"])
    assert patterns.expected("players[1].coins") and patterns.expected("players[12].coins.x")
    assert not patterns.expected("players[1].coinsx") and not patterns.expected("players[1].favor")
    assert not patterns.expected("players[1].x.coins")  # `*` stays within one part
    assert patterns.expected("zones.supply.wood") and patterns.expected("zones.supply[0]")
    assert not patterns.expected("zones.supplies")
    assert patterns.expected("legal_actions.sail:h3") and not patterns.expected("legal_actions.anchor")
    assert patterns.expected("result.scores[0]") and patterns.expected("players[0].vars.score")


def test_patterns_match_as_the_reference_on_many_small_cases() -> None:
    draw = random.Random(26)
    for _ in range(4000):
        pattern = "".join(draw.choice("ab.[]*") for _ in range(draw.randint(0, 7)))
        path = "".join(draw.choice("ab.[]*") for _ in range(draw.randint(0, 9)))
        assert PathGlob(pattern).matches(path) == bool(reference_regex(pattern).match(path)), (pattern, path)


@pytest.mark.parametrize(("pattern", "path", "expected"), [
    ("**" * 22 + "Q", "players[0].vars.coins", False),  # 14 x `**` took 28 s as a regex, each more x2.3
    ("**" * 22 + "coins", "players[0].vars.coins", True),
    ("*" * 190 + "Q", "players[0].vars.coins" * 40, False),
    ("*a" * 40 + "Q", "a" * 800, False),
    ("**a" * 40 + "Q", "a" * 800, False),
    ("**a" * 40, "a" * 800, True),
])
def test_a_hostile_pattern_is_matched_at_once(pattern: str, path: str, expected: bool) -> None:
    # The matcher steps through the path once with the set of pattern positions reached: no backtracking.
    assert PathGlob(pattern).matches(path) is expected
    assert Expectations([pattern]).expected(path) is expected


def test_too_many_or_too_long_patterns_are_refused() -> None:
    with pytest.raises(PackError, match=f"longer than {MAX_PATTERN_CHARS} characters"):
        Expectations(["x" * (MAX_PATTERN_CHARS + 1)])
    with pytest.raises(PackError, match=f"more than {MAX_PATTERNS} expected-difference patterns"):
        Expectations([f"vars.v{index}" for index in range(MAX_PATTERNS + 1)])
    # 96 patterns of 999 characters took 112 s for one divergence: the bounds are now 64 of 200.
    with pytest.raises(PackError, match="longer than 200 characters"):
        Expectations(["x" * 201])
    with pytest.raises(PackError, match="more than 64 expected-difference patterns"):
        Expectations([f"vars.v{index}" for index in range(65)])
    assert Expectations(["x" * 200] * 64).expected("x" * 200)


def test_many_long_patterns_are_matched_once_for_each_path(monkeypatch: pytest.MonkeyPatch) -> None:
    # All the patterns are stepped together, once per character of a path, and each path's answer is kept,
    # within MAX_MEMO answers: 64 patterns of 200 characters against 200 paths of 900 characters, each asked
    # twice, match each path once.
    patterns = ["vars." + "*a" * 96 + "*b" + str(index % 10) for index in range(MAX_PATTERNS)]
    assert all(len(pattern) <= MAX_PATTERN_CHARS for pattern in patterns)
    matched: list[str] = []
    matches = differential.PathGlob.matches

    def counted(self: differential.PathGlob, path: str) -> bool:
        matched.append(path)
        return matches(self, path)

    monkeypatch.setattr(differential.PathGlob, "matches", counted)
    expect = Expectations(patterns)
    for _ in range(2):
        for index in range(200):
            assert not expect.expected("vars." + "a" * 900 + str(index))
            assert expect.expected("vars." + "a" * 900 + "b" + str(index % 10) + ".x")
    assert len(matched) == 200 + 10  # each different path once


def test_the_memo_of_answers_stays_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(differential, "MAX_MEMO", 10)
    matched: list[str] = []
    matches = differential.PathGlob.matches

    def counted(self: differential.PathGlob, path: str) -> bool:
        matched.append(path)
        return matches(self, path)

    monkeypatch.setattr(differential.PathGlob, "matches", counted)
    expect = Expectations(["vars.a*"])
    for index in range(100):
        assert expect.expected(f"vars.a{index}") and not expect.expected(f"vars.b{index}")
    assert expect.expected("vars.a0")  # forgotten with the rest once the memo was full: matched again
    assert matched.count("vars.a0") == 2


def variant(tmp_path: Path, manifest_extra: str = "") -> Path:
    """dice_race with square c worth 3 points instead of 2, under another name."""
    copy = tmp_path / "dice_variant"
    shutil.copytree(DICE, copy)
    game_file = copy / "game.toml"
    game_file.write_text(game_file.read_text().replace("items.c = { points = 2 }", "items.c = { points = 3 }"))
    manifest = copy / "pack.toml"
    manifest.write_text(manifest.read_text().replace('name = "dice-race"', 'name = "dice-variant"') + manifest_extra)
    return copy


def test_a_too_long_pattern_in_pack_toml_is_an_error_naming_it(tmp_path: Path) -> None:
    pack = variant(tmp_path, f'\nexpect_diff = ["{"x" * (MAX_PATTERN_CHARS + 1)}"]\n')
    with pytest.raises(PackError, match="longer than") as caught:
        check_against(pack, DICE, games=1)
    assert caught.value.file is not None and caught.value.file.endswith("pack.toml")


def test_a_hostile_pattern_in_pack_toml_does_not_stall_a_lockstep_run(tmp_path: Path) -> None:
    pack = variant(tmp_path, '\nexpect_diff = ["' + "**" * 22 + 'Q"]\n')
    report = check_against(pack, DICE, games=20, seed=1, shrink=False)
    assert report.divergence is not None and report.divergence.first.path.endswith("].score")


def test_divergence_logs_replace_a_link_of_their_name(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("precious")
    out = tmp_path / "diverged.jsonl"
    other = tmp_path / "diverged.other.jsonl"
    os.symlink(elsewhere, other)
    os.symlink(elsewhere, out)
    pack = variant(tmp_path)
    report = check_against(pack, DICE, games=40, seed=1, out=out)
    assert report.divergence is not None
    assert elsewhere.read_text() == "precious"
    assert not out.is_symlink() and not other.is_symlink()
    assert replay(other, DICE).raw == report.divergence.other_state.raw
    assert replay(out, pack).raw == report.divergence.state.raw


@pytest.mark.parametrize("option", ["--max-decisions", "--apply-limit", "--thorough-every"])
@pytest.mark.parametrize("value", ["0", "-1"])
def test_test_refuses_counts_below_one(option: str, value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["test", str(DICE), "--no-scenarios", option, value])
    assert exited.value.code == 2
    assert f"argument {option}: expected a number of at least 1, not {value}" in capsys.readouterr().err
