"""An option given an empty path, list or name is refused, not read as the default or the working folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import SHOWN

from ruleskit.cli import build_parser, main


def test_an_empty_json_path_is_refused_and_nothing_is_played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", SHOWN, "--games", "2", "--quiet", "--json", ""])
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert "argument --json: an empty path" in captured.err
    assert "Wins by seat" not in captured.out


def test_an_empty_log_folder_is_refused_not_taken_as_the_working_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit):
        main(["simulate", SHOWN, "--games", "2", "--quiet", "--log-dir", ""])
    assert "argument --log-dir: an empty path" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_empty_seats_are_refused_not_the_default_seats(script, capsys) -> None:  # type: ignore[no-untyped-def]
    prompts = script(["quit"])
    with pytest.raises(SystemExit) as exit_info:
        main(["play", SHOWN, "--seats", "", "--seed", "0"])
    assert exit_info.value.code == 2
    assert "argument --seats: an empty list" in capsys.readouterr().err
    assert prompts == []  # no game began


@pytest.mark.parametrize("args, message", [
    (["compile", SHOWN, "--out", ""], "argument --out: an empty path"),
    (["test", SHOWN, "--out", ""], "argument --out: an empty path"),
    (["test", SHOWN, "--log", ""], "argument --log: an empty path"),
    (["test", SHOWN, "--against", ""], "argument --against: an empty name"),
    (["test", SHOWN, "--expect-diff", ""], "argument --expect-diff: an empty path"),
    (["test", SHOWN, "--address", ""], "argument --address: an empty name"),
    (["play", SHOWN, "--load", ""], "argument --load: an empty path"),
    (["play", SHOWN, "--scenario", ""], "argument --scenario: an empty path"),
    (["play", SHOWN, "--log", ""], "argument --log: an empty path"),
    (["serve", SHOWN, "--host", ""], "argument --host: an empty name"),
    (["serve", SHOWN, "--seats", " "], "argument --seats: an empty list"),
    (["serve", "--log", ""], "argument --log: an empty path"),
    (["simulate", SHOWN, "--bots", ""], "argument --bots: an empty list"),
    (["simulate", SHOWN, "--plot", ""], "argument --plot: an empty path"),
    (["compare", SHOWN, SHOWN, "--json", ""], "argument --json: an empty path"),
    (["tournament", SHOWN, "--bots", "random,greedy", "--json", ""], "argument --json: an empty path"),
    (["new", "pack", "--name", ""], "argument --name: an empty name"),
    (["schema", "--out", ""], "argument --out: an empty path"),
    (["mutate", SHOWN, "--corpus", ""], "argument --corpus: an empty path"),
    (["mutate", SHOWN, "--out", ""], "argument --out: an empty path"),
    (["replay", "game.jsonl", ""], "argument PACK: an empty name"),
    (["replay", ""], "argument LOG: an empty path"),  # said "cannot read log: No such file", naming none
])
def test_every_empty_path_list_or_name_is_refused_by_the_parser(args: list[str], message: str,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    # Parsed only: were the option let through, these commands would serve, mutate or play on.
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args(args)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err
