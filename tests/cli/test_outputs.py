"""Output for tools and people: --json on every reporting command, progress callbacks, and plots."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import PACKS

from ruleskit.cli import main
from ruleskit.testing.runner import Report, check_pack

RACE = str(PACKS / "dice_race")
VARIANT = str(PACKS / "dice_race_variant")
BAD = str(Path(__file__).resolve().parents[1] / "bad_packs" / "duplicate_rule")


def _json(args: list[str], capsys: pytest.CaptureFixture[str], code: int = 0) -> dict:
    assert main(args) == code
    return json.loads(capsys.readouterr().out)


def test_check_json(capsys: pytest.CaptureFixture[str]) -> None:
    good = _json(["check", RACE, "--json"], capsys)
    assert good["ok"] is True and good["pack"] == "dice-race" and good["players"] == [2, 4]
    bad = _json(["check", BAD, "--json"], capsys, code=1)
    assert bad["ok"] is False and bad["error"]["file"].endswith("rules.rk") and bad["error"]["line"] == 3
    assert "defined twice" in bad["error"]["message"]


def test_test_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = _json(["test", RACE, "--games", "2", "--players", "2", "--max-decisions", "60", "--json",
                    "--out", str(tmp_path / "f.jsonl")], capsys)
    assert report["ok"] is True and report["games"] == {"2": 2} and report["decisions"] > 0
    assert report["failure"] is None


def test_diff_json(capsys: pytest.CaptureFixture[str]) -> None:
    result = _json(["diff", RACE, VARIANT, "--json"], capsys)
    assert result["base"] == "dice-race" and result["variant"] == "dice-race-variant"
    keys = {d["key"] for d in result["differences"]}
    assert "actions.roll" in keys
    assert all(d["change"] in ("added", "removed", "replaced") for d in result["differences"])


def test_simulate_and_compare_print_json_with_dash(capsys: pytest.CaptureFixture[str]) -> None:
    summary = _json(["simulate", RACE, "-n", "4", "-p", "2", "-w", "1", "--json", "-"], capsys)
    assert summary["games"] == 4 and len(summary["turns_per_game"]) == 4
    result = _json(["compare", RACE, VARIANT, "-n", "4", "-p", "2", "-w", "1", "--json", "-", "--quiet"], capsys)
    assert result["games"] == 4 and len(result["turns_per_game"]["variant"]) == 4


def test_check_pack_reports_progress_after_every_game() -> None:
    seen: list[int] = []

    def progress(report: Report) -> None:
        seen.append(sum(report.games.values()))

    report = check_pack(RACE, games=3, players=[2], max_decisions=40, progress=progress)
    assert report.ok and seen == [1, 2, 3]


class TestPlots:
    @pytest.fixture(autouse=True)
    def _needs_matplotlib(self) -> None:
        pytest.importorskip("matplotlib")

    def test_simulate_png(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        target = tmp_path / "sim.png"
        assert main(["simulate", RACE, "-n", "6", "-p", "2", "-w", "1", "-q", "--plot", str(target)]) == 0
        assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and target.stat().st_size > 10_000

    def test_compare_svg_shows_both_packs(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        target = tmp_path / "compare.svg"
        assert main(["compare", RACE, VARIANT, "-n", "6", "-p", "2", "-w", "1", "-q", "--plot", str(target)]) == 0
        svg = target.read_text()
        assert svg.lstrip().startswith("<?xml") and "<svg" in svg
        for title in ("Wins by seat", "Game length", "How games ended"):
            assert title.replace(" ", "") in svg.replace(" ", "") or title in svg

    def test_unknown_format_is_refused(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        assert main(["simulate", RACE, "-n", "2", "-p", "2", "-w", "1", "-q", "--plot", str(tmp_path / "x.gif")]) == 1
        assert "give a file ending in .png or .svg" in capsys.readouterr().err
