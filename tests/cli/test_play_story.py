"""`ruleskit play` tells what each decision did: chance outcomes, changed values, turn and phase changes."""

from __future__ import annotations

import re
from pathlib import Path

from cli_support import SHOWN

from ruleskit.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _play(args: list[str], lines: list[str], script, capsys) -> str:  # type: ignore[no-untyped-def]
    script(lines)
    assert main(["play", *args]) == 0
    captured = capsys.readouterr()
    return captured.out + captured.err


def test_failed_influence_check_is_told(tmp_path: Path, script, capsys) -> None:  # type: ignore[no-untyped-def]
    # The rulebook's failed influence check: Yellow sails into Green's centre hex and rolls 3 against 5.
    text = (ROOT / "games/ophir/tests/influence_failure.toml").read_text(encoding="utf-8")
    scenario = tmp_path / "failure.toml"
    scenario.write_text(re.sub(r"(?m)^then = .*$", "then = []", text), encoding="utf-8")
    out = _play(["--scenario", str(scenario), "--seats", "human,random,random", "--layout", "compact"],
                ["1", "quit"], script, capsys)
    told = out.split("Yellow (P1): Sail to centre hex")[1]
    assert "⚄ Yellow (P1) rolls d6: 3 (scripted)" in told
    assert "ship 2: influence 5 → 4" in told          # Green's ship loses one influence
    assert "ship 1: influence 2 → 3" in told
    assert told.index("rolls d6") < told.index("1. Sail to centre hex")   # told before the next choice


def test_turns_and_private_changes(script, capsys) -> None:  # type: ignore[no-untyped-def]
    out = _play([SHOWN, "--seats", "human,random", "--seed", "2", "--layout", "full"], ["1", "1", "stop", "quit"],
                script, capsys)
    assert "Red (P1): Roll the die" in out and "Red (P1) rolls d6:" in out
    assert "Red (P1): score 0 → 1" in out             # Red sees their own hidden score change
    assert "▸ turn 2: Blue (P2)" in out
    assert "Blue (P2) (random):" in out


def test_hot_seat_story_keeps_private_values_private(script, capsys) -> None:  # type: ignore[no-untyped-def]
    # Two humans: a score only its owner may see is never told to the table.
    out = _play([SHOWN, "--seats", "human,human", "--seed", "2"], ["", "1", "1", "quit"], script, capsys)
    assert "Red (P1): Step to" in out
    assert "score 0 →" not in out


def test_log_repeats_what_the_compact_screen_cut(script, capsys) -> None:  # type: ignore[no-untyped-def]
    out = _play([SHOWN, "--seats", "human,random", "--seed", "2", "--layout", "compact"],
                ["log", "1", "1", "stop", "log", "quit"], script, capsys)
    assert "Nothing has happened yet." in out
    assert out.count("Red (P1): Roll the die") == 2          # told once, then again by `log`
    assert "earlier lines" in out                            # the compact screen cut the story short
    assert out.index("▸ turn 2: Blue (P2)") > out.index("earlier lines")   # and `log` shows it in full
