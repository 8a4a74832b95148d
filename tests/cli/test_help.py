"""`ruleskit --help`, `-h`, no arguments and every subcommand's `--help` print help, never a traceback."""

from __future__ import annotations

import subprocess
import sys

import pytest

from ruleskit.cli import main
from ruleskit.commands import COMMANDS


@pytest.mark.parametrize("args", [["--help"], ["-h"]])
def test_top_level_help(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(args)
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: ruleskit")
    for module in COMMANDS:
        assert module.NAME in out
    assert "95% intervals" in out  # a literal % in a command's help is shown as written


def test_no_arguments_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert capsys.readouterr().out.startswith("usage: ruleskit")


@pytest.mark.parametrize("command", [module.NAME for module in COMMANDS])
def test_every_command_has_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: ruleskit {command}")
    assert "Traceback" not in out


def test_help_from_the_installed_command() -> None:
    done = subprocess.run([sys.executable, "-m", "ruleskit.cli", "--help"], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert "usage: ruleskit" in done.stdout


@pytest.mark.parametrize("command", ["play", "serve"])
def test_seats_help_names_every_kind_of_bot(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = " ".join(capsys.readouterr().out.split())  # as argparse wraps it
    assert "human, or a bot: random, greedy, mcts[:ITERATIONS|:SECONDSs], package.module:Class" in out
