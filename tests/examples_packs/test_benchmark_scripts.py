"""The comparison scripts under benchmarks/ run and play the same games on both sides.

They measure speed; these tests check only what they compute besides time (that both sides made
the same decisions, and the shape of the JSON they write), on tiny settings.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent


def run(script: str, *args: str, timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=timeout)


def test_compare_baselines_plays_the_same_games_on_both_sides(tmp_path: Path) -> None:
    out = tmp_path / "baselines.json"
    done = run("compare_baselines.py", "--rounds", "3", "--games", "6", "--baseline-repeats", "1",
               "--json", str(out), timeout=300)
    assert done.returncode == 0, done.stderr
    results = json.loads(out.read_text())
    assert [g["game"] for g in results["games"]] == ["connect_four", "envoys"]
    for game in results["games"]:
        assert game["same_games"] is True
        assert len(game["rounds"]) == 3
        assert game["decisions_per_round"] > 6
        assert game["ratio_median"] > 0
        assert set(game["pack_calls"]) >= {"legal_actions_us", "apply_us", "clone_us"}
    assert "connect_four" in done.stdout and "envoys" in done.stdout


def test_compare_baselines_refuses_fewer_than_three_rounds() -> None:
    done = run("compare_baselines.py", "--rounds", "2", timeout=120)
    assert done.returncode != 0
    assert "at least 3" in done.stderr


@pytest.mark.skipif(not os.environ.get("RULESKIT_SLOW"), reason="installs an older commit with pip; set RULESKIT_SLOW=1")
def test_compare_versions_installs_the_old_commit_and_replays_the_same_logs(tmp_path: Path) -> None:
    out = tmp_path / "versions.json"
    done = run("compare_versions.py", "--rounds", "3", "--games", "1", "--logs", "1", "--players", "2",
               "--simulate-games", "2", "--load-repeats", "1", "--json", str(out), timeout=1800)
    assert done.returncode == 0, done.stderr
    results = json.loads(out.read_text())
    rows = results["games"]["rows"]
    assert [(r["mode"], r["players"]) for r in rows] == [("random", 2), ("replay", 2)]
    assert all(r["same_games"] and r["replays_match_logs"] for r in rows)
    assert set(results["loads"]) == {"old", "new"}
    assert set(results["simulate"]["new"]) >= {"1", "2"}


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="counting instructions needs valgrind")
def test_count_instructions_counts_the_games_it_plays(tmp_path: Path) -> None:
    out = tmp_path / "counts.json"
    done = run("count_instructions.py", "--packs", "benchmarks/packs/end_turn_only:2:1", "--json", str(out),
               timeout=600)
    assert done.returncode == 0, done.stderr
    [row] = json.loads(out.read_text())["packs"]
    # Two players pass the turn until the pack's turn limit of 1,000: one decision per turn.
    assert row["new"]["decisions"] == 1000
    assert row["new"]["instructions"] > 0 and row["new"]["per_decision"] > 1000
    assert "end_turn_only" in done.stdout


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="counting instructions needs valgrind")
def test_count_instructions_replays_the_games_it_recorded(tmp_path: Path) -> None:
    out = tmp_path / "counts.json"
    done = run("count_instructions.py", "--replay", "--packs", "benchmarks/packs/end_turn_only:2:1", "--json",
               str(out), timeout=600)
    assert done.returncode == 0, done.stderr
    results = json.loads(out.read_text())
    assert results["mode"] == "replay"
    [row] = results["packs"]
    assert row["new"]["decisions"] == 1000  # every recorded decision replayed by its id
    assert row["new"]["per_decision"] > 1000
    assert "replay" in done.stdout


def test_count_instructions_refuses_a_pack_without_players_and_games() -> None:
    done = run("count_instructions.py", "--packs", "connect_four", timeout=120)
    assert done.returncode != 0
    assert "NAME_OR_PATH:PLAYERS:GAMES" in (done.stderr + done.stdout)


def test_listing_reuse_bounds_what_names_can_prove_unchanged(tmp_path: Path) -> None:
    out = tmp_path / "reuse.json"
    done = run("listing_reuse.py", "--packs", "connect_four:2:3,ophir:2:1", "--json", str(out), timeout=300)
    assert done.returncode == 0, done.stderr
    rows = json.loads(out.read_text())["rows"]
    assert [(r["pack"], r["players"]) for r in rows] == [("connect_four", 2), ("ophir", 2)]
    for row in rows:
        assert row["listings"] > 10
        # What names or reads prove unchanged is checked to be unchanged, so it is within the bound.
        assert 0 <= row["reusable_by_names_share"] <= row["same_result_share"] <= 1
        assert 0 <= row["reusable_by_reads_share"] <= row["same_result_share"]
    # A drop writes the one zone every column's `require` names, and changes the discs of a column every
    # listing reads: nothing is provably the same.
    assert rows[0]["reusable_by_names_share"] == 0 and rows[0]["same_result_share"] > 0.5
    assert rows[0]["reusable_by_reads_share"] == 0
    # Ophir's listings read values a decision leaves alone often enough for exact reads to prove some.
    assert rows[1]["reusable_by_reads_share"] > 0


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="counting instructions needs valgrind")
def test_baseline_instructions_counts_both_sides_on_the_same_games(tmp_path: Path) -> None:
    out = tmp_path / "counts.json"
    done = run("baseline_instructions.py", "--games", "connect_four:2", "--json", str(out), timeout=600)
    assert done.returncode == 0, done.stderr
    [row] = json.loads(out.read_text())["games"]
    assert row["same_games"] and row["pack"]["decisions"] == row["baseline"]["decisions"] > 0
    # The pack does the baseline's work and more: its ratio is above 1 whatever the machine.
    assert row["pack"]["per_decision"] > row["baseline"]["per_decision"] > 0
    assert row["ratio"] == round(row["pack"]["per_decision"] / row["baseline"]["per_decision"], 2)


def test_baseline_instructions_refuses_an_unknown_game() -> None:
    done = run("baseline_instructions.py", "--games", "chess:3", timeout=120)
    assert done.returncode != 0
    assert "GAME:COUNT" in (done.stderr + done.stdout)


def test_guarantees_plays_the_same_games_on_its_three_sides(tmp_path: Path) -> None:
    out = tmp_path / "guarantees.json"
    done = run("guarantees.py", "--rounds", "3", "--games", "6", "--json", str(out), timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(out.read_text())
    assert result["same_games"] is True and len(result["rounds"]) == 3
    assert set(result["us_per_decision"]) == {"plain", "guarded", "pack"}
    assert "guarded / plain" in done.stdout
    assert run("guarantees.py", "--rounds", "2", timeout=120).returncode != 0
