"""`ruleskit new`: the created pack passes check, test, its own tests and a scripted play."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ruleskit.cli import main
from ruleskit.errors import PackError
from ruleskit.newpack import create_pack, pack_name_for, templates


@pytest.mark.parametrize("template", sorted(templates()))
def test_new_pack_checks_tests_and_plays(template: str, tmp_path: Path, script, capsys) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "My Game"
    assert main(["new", str(folder), "--template", template]) == 0
    out = capsys.readouterr().out
    assert "pack.toml" in out and "ruleskit check" in out
    assert 'name = "my-game"' in (folder / "pack.toml").read_text()

    assert main(["check", str(folder)]) == 0
    assert "my-game 0.1: ok" in capsys.readouterr().out

    assert main(["test", str(folder), "--games", "4", "--max-decisions", "150",
                 "--out", str(tmp_path / "failure.jsonl")]) == 0
    assert ": ok" in capsys.readouterr().out

    # A scripted game: the human always takes action 1 until the game ends or the script runs out.
    script(["1"] * 400)
    assert main(["play", str(folder), "--seats", "human,random", "--seed", "5",
                 "--log", str(tmp_path / "game.jsonl")]) == 0
    played = capsys.readouterr().out
    assert "Traceback" not in played and "1. " in played
    assert main(["replay", str(tmp_path / "game.jsonl"), str(folder)]) == 0  # a log never chooses a folder

    # The pack's own tests pass as created.
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(folder / "tests")],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert " passed" in done.stdout


def test_new_refuses_an_existing_folder_and_unknown_template(tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine")
    with pytest.raises(PackError, match="already exists"):
        create_pack(tmp_path / "taken")
    assert (tmp_path / "taken" / "notes.txt").read_text() == "mine"
    with pytest.raises(PackError, match="unknown template 'chess'"):
        create_pack(tmp_path / "fresh", template="chess")
    assert not (tmp_path / "fresh").exists()


def test_new_refuses_an_empty_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", ""]) == 1
    err = capsys.readouterr().err
    assert "a pack name cannot be empty" in err and "already exists" not in err


def test_pack_names_from_folder_names() -> None:
    assert pack_name_for(Path("Connect Four!")) == "connect-four"
    assert pack_name_for(Path("4x4")) == "pack-4x4"
    # Accented letters keep their letter: "Würfelspiel" was "w-rfelspiel", and "ünï" was "n".
    assert pack_name_for(Path("Würfelspiel")) == "wurfelspiel"
    assert pack_name_for(Path("ünï")) == "uni"
    assert pack_name_for(Path("Ｆｕｌｌ")) == "full"  # full-width letters are their plain letters


def test_a_scenario_without_flow_keeps_the_secret_picks_open(tmp_path: Path) -> None:
    # The bids template starts in a stage where everyone picks at once; its scenario sets only zones.
    folder = create_pack(tmp_path / "bids", template="bids")
    import ruleskit

    state = ruleskit.scenario(str(folder / "scenarios" / "tie.toml"), str(folder))
    assert state.players_to_decide() == [0, 1]
    state.apply("play:five", player=0)
    assert state.players_to_decide() == [1]


def test_the_next_commands_can_be_pasted_for_a_folder_with_spaces(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["new", "my game"]) == 0
    out = capsys.readouterr().out
    assert "  ruleskit check 'my game'\n" in out
    assert "  python -m pytest 'my game/tests'\n" in out
    assert main(["check", "my game"]) == 0


def test_the_next_commands_do_not_read_a_folder_as_an_option(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["new", "--", "-x"]) == 0
    out = capsys.readouterr().out
    assert "  ruleskit test ./-x --games 20\n" in out and " -x " not in out.split("Next:")[1]
    assert main(["check", "./-x"]) == 0
