"""`ruleskit compare`: the same seeds for both packs, and tests that flag only real differences."""

import json
import shutil
from pathlib import Path

import pytest

import ruleskit
from ruleskit.cli import main
from ruleskit.compare import compare
from ruleskit.significance import (
    chi_square_homogeneity,
    chi_square_sf,
    holm_adjusted,
    mean_difference,
    proportion_difference,
    t_quantile,
)

PACKS = Path(__file__).parent.parent / "packs"
DICE = PACKS / "dice_race"


def unchanged_variant(folder: Path, base: Path | str) -> Path:
    """A variant that changes nothing: it only extends its base (a folder beside it, or a built-in name)."""
    folder.mkdir()
    if isinstance(base, Path):
        shutil.copytree(base, folder.parent / base.name)
        base = f"../{base.name}"
    (folder / "pack.toml").write_text(f'name = "same"\nversion = "1.0"\nplayers = {{ min = 2, max = 4 }}\n'
                                      f'extends = "{base}"\n')
    return folder


# ------------------------------------------------------------------ the tests' arithmetic


def test_distributions_match_published_tables() -> None:
    assert t_quantile(0.975, 10) == pytest.approx(2.228, abs=1e-3)
    assert t_quantile(0.975, 30) == pytest.approx(2.042, abs=1e-3)
    assert chi_square_sf(5.991, 2) == pytest.approx(0.05, abs=1e-4)
    assert chi_square_sf(18.307, 10) == pytest.approx(0.05, abs=1e-4)


def test_two_proportion_test() -> None:
    difference, low, high, p = proportion_difference(50, 100, 60, 100)
    assert difference == pytest.approx(0.10)
    assert p == pytest.approx(0.1552, abs=1e-4)  # z = 1.421
    assert low < 0 < high
    assert proportion_difference(30, 100, 30, 100)[3] == 1.0


def test_welch_test() -> None:
    difference, low, high, p = mean_difference([1, 2, 3, 4, 5], [2, 3, 4, 5, 6, 7])
    assert difference == pytest.approx(1.5)
    assert p == pytest.approx(0.1835, abs=1e-3)  # t = 1.441 on 8.99 df
    assert low == pytest.approx(1.5 - 2.262 * 1.0408, abs=1e-2) and high > 1.5


def test_chi_square_and_holm() -> None:
    statistic, df, p = chi_square_homogeneity({"a": 30, "b": 10}, {"a": 20, "b": 20})
    assert (round(statistic, 3), df) == (5.333, 1) and p == pytest.approx(0.0209, abs=1e-4)
    assert holm_adjusted([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.09, 0.09, 0.5])


# ------------------------------------------------------------------ comparing packs


def test_unchanged_variant_plays_the_same_games(tmp_path: Path) -> None:
    base = ruleskit.load(str(DICE))
    same = ruleskit.load(str(unchanged_variant(tmp_path / "same", DICE)))
    result = compare(base, same, games=60, players=3, bots=["random"] * 3, seed=4)
    assert result["identical_games"] == 60
    assert result["significant"] == []
    assert all(row["difference"] == 0 and row["p"] == 1.0 for row in result["seats"] + result["lengths"])


def test_a_real_change_is_flagged() -> None:
    # The variant moves the lucky bonus from the first seat to the last one.
    base = ruleskit.load(str(DICE))
    variant = ruleskit.load(str(PACKS / "dice_race_variant"))
    result = compare(base, variant, games=300, players=2, bots=["random"] * 2, seed=0)
    assert "Player 1" in result["significant"] and "turns" in result["significant"]
    seat1 = result["seats"][0]
    assert seat1["difference"] < 0 and seat1["ci95"][1] < 0


def test_ophir_against_an_unchanged_variant_reports_no_difference(tmp_path: Path) -> None:
    base = ruleskit.load("ophir")
    same = ruleskit.load(str(unchanged_variant(tmp_path / "same", "ophir")))
    result = compare(base, same, games=4, players=2, bots=["random"] * 2, seed=1)
    assert result["significant"] == [] and result["identical_games"] == 4
    assert [row["what"].split()[0] for row in result["groups"]] == ["specialist"] * len(result["groups"])


def test_compare_command_prints_and_writes_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "compare.json"
    code = main(["compare", str(DICE), str(PACKS / "dice_race_variant"), "--games", "40", "--players", "2",
                 "--workers", "1", "--quiet", "--json", str(out)])
    assert code == 0
    text = capsys.readouterr().out
    assert "dice-race-variant against dice-race: 40 games each, 2 players" in text
    assert "Win rate by seat" in text and "End reasons" in text
    data = json.loads(out.read_text())
    assert data["games"] == 40 and len(data["seats"]) == 2
    assert {"p", "p_adjusted", "significant", "ci95"} <= set(data["seats"][0])


def test_compare_refuses_a_player_count_the_variant_does_not_allow(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", str(DICE), str(DICE), "--players", "9", "--quiet"]) == 1
    assert "not 9" in capsys.readouterr().err


def test_compare_of_packs_with_no_player_count_in_common_names_both_ranges(capsys: pytest.CaptureFixture[str]) -> None:
    """It read "both packs are played by 3-2 players, not 3"."""
    assert main(["compare", "valdora", "connect_four", "--quiet"]) == 1
    assert "valdora is for 3-5 players and connect_four for 2: no number of players plays both" \
        in capsys.readouterr().err
